"""No traceback from the command line: each failure a user can cause, run as a user runs it (a
subprocess), ends with a clear line on stderr and its exit code — 2 for what was typed wrong,
1 for what went wrong, 130 for Ctrl-C, which stops at once even while the game waits for Enter
or for a command (bot/exits.py, docs/console.md)."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bot.cli import main
from bot.exits import INTERRUPTED, guarded

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "rules"


def fieldpost(*words: str, home: Path | None = None, stdin: str = "", cwd: Path = ROOT,
              extra_env: dict | None = None) -> subprocess.CompletedProcess:
    env = {"PATH": "/usr/bin:/bin", "PYTHONUNBUFFERED": "1", **(extra_env or {})}
    if home is not None:
        env["FIELDPOST_HOME"] = str(home)
    return subprocess.run([sys.executable, "-m", "bot.cli", *words], input=stdin, capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=120, check=False)


def clean(proc: subprocess.CompletedProcess, code: int) -> str:
    """The one stderr line of a failure that ended with `code`, checked for no traceback."""
    assert proc.returncode == code, (proc.returncode, proc.stdout[-500:], proc.stderr)
    assert "Traceback" not in proc.stderr and "Traceback" not in proc.stdout
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, proc.stderr
    return lines[0]


def test_an_unknown_scenario_lists_the_scenarios():
    line = clean(fieldpost("play", "--scenario", "nope"), 2)
    assert line.startswith("fieldpost play: there is no scenario 'nope'. Scenarios: ") and "hedgerow-dawn" in line


def test_render_without_a_scenario_lists_the_scenarios(tmp_path):
    line = clean(fieldpost("render", "--out", str(tmp_path)), 2)
    assert "give --scenario" in line and "hedgerow-dawn" in line and "vautrin-crossroads" in line
    assert "there is no scenario 'nope'" in clean(fieldpost("render", "--scenario", "nope", "--out", str(tmp_path)), 2)


def one_line(capsys) -> str:
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(err) == 1 and "Traceback" not in err[0], err
    return err[0]


def test_bad_players_and_a_missing_script_are_usage_errors(tmp_path, capsys):
    assert main(["play", "--players", "Ann:XX,Bo:DE"]) == 2
    assert "--players: write NAME:SIDE pairs" in one_line(capsys)
    assert main(["play", "--script", str(tmp_path / "nope.txt")]) == 2
    assert f"{tmp_path / 'nope.txt'}: no such file" in one_line(capsys)


def test_a_position_file_that_is_not_yaml_names_its_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("FIELDPOST_HOME", str(FIXTURE))
    bad = tmp_path / "pos.yaml"
    bad.write_text("scenario: range\nplayers: [\n  - {name: Ann\n", encoding="utf-8")
    assert main(["play", "--position", str(bad)]) == 2
    line = one_line(capsys)
    assert str(bad) in line and "not valid YAML: line " in line


@pytest.fixture
def broken_home(tmp_path, monkeypatch) -> Path:
    home = tmp_path / "home"
    shutil.copytree(FIXTURE, home)
    monkeypatch.setenv("FIELDPOST_HOME", str(home))
    return home


def test_broken_content_names_the_file_and_the_line(broken_home, capsys):
    orders = broken_home / "assets" / "orders.yaml"
    orders.write_text(orders.read_text(encoding="utf-8") + "\n  - id: [unclosed\n", encoding="utf-8")
    assert main(["play", "--scenario", "yard"]) == 1
    line = one_line(capsys)
    assert str(orders) in line and "not valid YAML: line " in line


def test_broken_content_names_the_file_and_the_field(broken_home, capsys):
    yard = broken_home / "campaigns" / "scenarios" / "yard.yaml"
    yard.write_text(yard.read_text(encoding="utf-8").replace("turns: 3", "turns: many"), encoding="utf-8")
    assert main(["play", "--scenario", "yard"]) == 1
    err = capsys.readouterr().err
    assert str(yard) in err and "field turns" in err and "Traceback" not in err


def test_the_bot_without_a_network_says_what_to_check(tmp_path):
    """discord.py pointed at a port nobody listens on: the same failure as no network at all."""
    code = ("import discord.http as h; h.Route.BASE = 'https://127.0.0.1:9/api/v10'\n"
            "from bot.cli import main; raise SystemExit(main(['bot']))")
    env = {"PATH": "/usr/bin:/bin", "DISCORD_TOKEN": "not.a.token", "FIELDPOST_DB": str(tmp_path / "bot.db")}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=120, check=False)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    ours = [line for line in proc.stderr.splitlines() if line.startswith("fieldpost bot:")]
    assert len(ours) == 1 and "cannot reach Discord" in ours[0] and "network connection" in ours[0]


class Console:
    """A hot-seat game in a subprocess whose output is read as it comes."""

    def __init__(self) -> None:
        env = {"PATH": "/usr/bin:/bin", "PYTHONUNBUFFERED": "1", "FIELDPOST_HOME": str(FIXTURE)}
        self.proc = subprocess.Popen([sys.executable, "-m", "bot.cli", "play", "--scenario", "yard", "--seed", "5"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     cwd=ROOT, env=env)
        self.out = b""
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while chunk := os.read(self.proc.stdout.fileno(), 4096):
            self.out += chunk

    def wait_for(self, text: str, timeout: float = 60) -> None:
        end = time.monotonic() + timeout
        while text.encode() not in self.out:
            assert time.monotonic() < end, f"never saw {text!r}: {self.out[-500:]!r}"
            time.sleep(0.05)

    def interrupt(self) -> tuple[int, str]:
        self.proc.send_signal(signal.SIGINT)
        code = self.proc.wait(timeout=15)  # at once: no Enter is sent
        return code, self.proc.stderr.read().decode()


def test_ctrl_c_while_the_game_waits_for_enter_stops_at_once():
    game = Console()
    game.wait_for("--- Pass to ")
    code, err = game.interrupt()
    assert code == INTERRUPTED and "Traceback" not in err and err.strip().endswith("Stopped (Ctrl-C).")
    assert b"The game was not saved." in game.out


def test_ctrl_c_at_a_command_prompt_stops_at_once():
    game = Console()
    game.wait_for("--- Pass to ")
    game.proc.stdin.write(b"\n")
    game.proc.stdin.flush()
    game.wait_for("place three action cards > ")
    code, err = game.interrupt()
    assert code == INTERRUPTED and "Traceback" not in err and "Stopped (Ctrl-C)." in err


def test_an_unforeseen_error_is_one_line_naming_the_file_with_its_traceback(capsys):
    def broken() -> int:
        return {}["nothing"]

    assert guarded("fieldpost play", broken) == 1
    line = capsys.readouterr().err.strip()
    assert line.startswith("fieldpost play: unexpected error (KeyError: 'nothing'). This is a bug in Fieldpost; "
                           "the details are in ")
    report = Path(line.rsplit("the details are in ", 1)[1].rstrip("."))
    assert "Traceback" in report.read_text() and "broken" in report.read_text()
    report.unlink()
