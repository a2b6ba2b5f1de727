"""The hot-seat console and hostile input (issue 14): every line the command edge refuses is
printed as a refusal and the game goes on; a database that cannot save is told and retried;
bytes that are not UTF-8 are one more refused line. Never a traceback."""
from __future__ import annotations

import argparse
import builtins
import subprocess
import sys
from pathlib import Path

from bot.app import GameService
from bot.console.hotseat import HotSeat
from bot.console.play import _open
from bot.store import SqliteStore, StoreUnavailable
from engine import load_catalog

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "rules"

HOSTILE = [
    "move ² 12A", "plan for ² a b c", "reslot 1 ²", "move 1 " + "9" * 5000 + ",1", "plan :x - -", "rally 1 999",
    "dismount 1", "repair 1 track--", "move 1 12A face up", "²", "9" * 5000, "'unclosed", 'plan "" - -',
    "hand extra words ²", "fly 1 to the moon",
]


def test_every_hostile_line_is_refused_and_the_game_goes_on(tmp_path):
    keys = ("\n" + "\n".join(HOSTILE) + "\n").encode() + b"move 1 \xff\xfe 12A\n" + b"1\nquit\n"
    # strict UTF-8, as a terminal in a UTF-8 locale: Python's own stdin would raise on the bad bytes
    env = {"FIELDPOST_HOME": str(FIXTURE), "PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8:strict"}
    proc = subprocess.run([sys.executable, "-m", "bot.cli", "play", "--scenario", "yard", "--seed", "5",
                           "--players", "Ann:US,Bo:DE"], input=keys, capture_output=True, cwd=ROOT, env=env,
                          timeout=120, check=False)
    out, err = proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 0 and "Traceback" not in err, err
    refusals = [line for line in out.splitlines() if "Not allowed:" in line or "Unknown command" in line]
    assert len(refusals) == len(HOSTILE) - 1 + 1  # `hand extra words ²` is the hand; the bad bytes are one more
    assert "\\udcff" in refusals[-1]  # the undecodable byte, named
    assert "Unknown command '999999999999999999999999…'" in out  # a word the console does not know, cut short
    assert max(len(line) for line in out.splitlines()) < 400  # the 5,000-character lines are never echoed whole
    assert "places 3 cards face down" in out  # after all that, the first choice offered is played


async def test_a_database_that_cannot_save_is_told_and_the_next_line_is_carried_out(tmp_path, monkeypatch):
    cat = load_catalog(FIXTURE)
    args = argparse.Namespace(scenario="yard", players="Ann:US,Bo:DE", seed=5, script=None, db=None, images=None,
                              private=False)
    async with SqliteStore(tmp_path / "console.db") as store:
        service = GameService(store, cat, seed=lambda: 5)
        table = await _open(service, cat, args)
        real = service.command
        failures = iter([StoreUnavailable("disk I/O error", busy=True)])

        async def flaky(*a, **kw):
            failure = next(failures, None)
            if failure is not None:
                raise failure
            return await real(*a, **kw)

        monkeypatch.setattr(service, "command", flaky)
        lines = iter(["", "1", "", "1", "", "quit"])  # pass, fail, retry, place, pass, quit
        printed: list[str] = []
        monkeypatch.setattr(builtins, "input", lambda prompt="": next(lines))
        monkeypatch.setattr(builtins, "print", lambda *a, **kw: printed.append(" ".join(map(str, a))))
        assert await HotSeat(table).loop() == 0
        assert "The bot cannot save right now (the database is busy); nothing was changed." in " ".join(printed)
        assert (await store.load_game(table.gid)).version >= 2  # the retried placement was saved
