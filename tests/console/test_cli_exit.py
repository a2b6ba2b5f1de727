"""How the `fieldpost` program ends (bot/exits.py end_process): at once, without the
interpreter's teardown (a quick start's last 30 ms), but only after what an exit owes: the
at-exit handlers, the output flushed, the files written; and the ordinary way while another
thread still runs."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

WATCHED = """import atexit, sys, threading
atexit.register(lambda: print("at exit"))
go = threading.Event()  # the thread lives until main has returned, however slow the command
if {thread!r}:
    threading.Thread(target=lambda: (go.wait(60), print("thread done", flush=True))).start()
sys.argv = ["fieldpost", *{argv!r}]
from bot.cli import main
code = main()
print("main returned", flush=True)  # the ordinary exit, and its teardown, come after this
go.set()
sys.exit(code)
"""


def _run(argv: list[str], thread: bool = False) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", WATCHED.format(argv=argv, thread=thread)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)


def test_a_game_ends_at_once_with_its_output_files_and_exit_handlers_done(tmp_path):
    script = tmp_path / "one.txt"
    script.write_text("plan 115-P2 110-C3 109-C1\n", encoding="utf-8")
    state, record = tmp_path / "state.json", tmp_path / "game.record"
    proc = _run(["play", "--scenario", "hedgerow-dawn", "--seed", "7", "--script", str(script),
                 "--state-out", str(state), "--record", str(record)])
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert "main returned" not in lines  # no teardown: the objects were left to the system
    assert lines[-1] == "at exit"  # the handlers ran, after everything the game printed
    assert any(line.startswith("Done: plan 115-P2") for line in lines)
    assert json.loads(state.read_text(encoding="utf-8"))["setup"]["scenario"]["id"] == "hedgerow-dawn"
    assert record.read_text(encoding="utf-8").strip()


def test_a_failure_keeps_its_exit_code():
    proc = _run(["play", "--scenario", "nope"])
    assert proc.returncode == 2 and "there is no scenario 'nope'" in proc.stderr
    assert proc.stdout.splitlines() == ["at exit"]


def test_another_thread_still_running_gets_the_ordinary_exit():
    proc = _run(["roll", "bog", "--bog", "1", "--pins", "1", "--seed", "1"], thread=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-3:] == ["main returned", "thread done", "at exit"]
