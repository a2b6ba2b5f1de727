"""SIGKILL a process playing games through the use-cases, at random moments: the file opens,
passes `PRAGMA integrity_check`, holds every command whose use-case had returned, and each
game's log replays to its stored state; then the game plays on."""
from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.app import GameService, Where
from bot.app import eventlog
from bot.store import SqliteStore
from tests.app.table import ANN, BO, open_table
from tests.app.players import play_randomly

pytestmark = [pytest.mark.sqlite_only, pytest.mark.slow]  # kills an SQLite child process mid-commit, 14 times

ROOT = Path(__file__).resolve().parents[2]
KILLS = 8
ROLLBACK_KILLS = 6


def wait_for(out: Path, child: subprocess.Popen, word: bytes, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while word not in out.read_bytes():
        if child.poll() is not None:
            raise AssertionError(f"child exited early with {child.returncode}: {out.read_text()[-500:]}")
        if time.monotonic() > deadline:
            child.kill()
            raise AssertionError("child never got there")
        time.sleep(0.01)


def reported(out: Path) -> dict[int, int]:
    """Game -> last version the child printed in full (a line cut by the kill does not count)."""
    last: dict[int, int] = {}
    for line in out.read_text().split("\n")[:-1]:
        if line.startswith("committed"):
            _, gid, version = line.split()
            last[int(gid)] = int(version)
    return last


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
async def test_a_killed_bot_loses_no_command_and_plays_on(db_path, tmp_path, cat):
    rng = random.Random(20260607)
    promised: dict[int, int] = {}
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for kill in range(KILLS):
        out = tmp_path / f"child-{kill}.out"
        with out.open("wb") as sink:
            child = subprocess.Popen([sys.executable, "-m", "tests.app.crash_child", str(db_path),
                                      str(kill)], stdout=sink, stderr=subprocess.STDOUT, cwd=ROOT, env=env)
            wait_for(out, child, b"committed", timeout=60)
            time.sleep(rng.uniform(0.0, 0.6))
            os.kill(child.pid, signal.SIGKILL)
            child.wait()
        promised.update(reported(out))
        with sqlite3.connect(db_path) as raw:
            assert raw.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        async with SqliteStore(db_path) as store:
            reader = GameService(store, cat)
            for gid, version in promised.items():
                game = await store.load_game(gid)
                assert game.version >= version, f"game {gid} lost commands"
                logged = eventlog.read(await store.events_since(gid))
                stored = await reader.load_state(gid)
                assert eventlog.replay(cat, logged).model_dump_json() == stored.model_dump_json()
    assert sum(promised.values()) > KILLS
    async with SqliteStore(db_path) as store:
        service = GameService(store, cat)
        resumed = [r async for r in service.resume()]
        assert all(r.prompts for r in resumed), "every unfinished game asks its awaited players again"
        if resumed:
            gid = resumed[0].game_id
        else:  # the last kill fell between one game's end and the next one's start
            gid = (await open_table(service, where=Where(channel_id=7))).game_id
        await play_randomly(service, {0: ANN, 1: BO}, Where(channel_id=7, game_id=gid), random.Random(1))
        assert await service.waiting(ANN, Where(channel_id=7, game_id=gid)) == []


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
async def test_a_bot_killed_during_rollbacks_leaves_every_awaited_decision_with_its_deadline(db_path, tmp_path, cat):
    rng = random.Random(20260614)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    rolled = 0
    for kill in range(ROLLBACK_KILLS):
        out = tmp_path / f"rollback-{kill}.out"
        with out.open("wb") as sink:
            child = subprocess.Popen([sys.executable, "-m", "tests.app.rollback_child", str(db_path), str(kill)],
                                     stdout=sink, stderr=subprocess.STDOUT, cwd=ROOT, env=env)
            wait_for(out, child, b"rolled", timeout=60)
            time.sleep(rng.uniform(0.0, 0.5))
            os.kill(child.pid, signal.SIGKILL)
            child.wait()
        rolled += out.read_bytes().count(b"rolled")
        async with SqliteStore(db_path) as store:
            service = GameService(store, cat)
            (game,) = await store.unfinished_games()
            waiting = await service.waiting(ANN, Where(game_id=game.id))
            assert waiting and all(w.due is not None for w in waiting), \
                f"after kill {kill}: decisions without a deadline: {[w.detail for w in waiting if w.due is None]}"
            stored = await service.load_state(game.id)
            logged = eventlog.read(await store.events_since(game.id))
            assert eventlog.replay(cat, logged).model_dump_json() == stored.model_dump_json()
    assert rolled > ROLLBACK_KILLS
