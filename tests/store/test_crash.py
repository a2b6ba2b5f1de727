"""SIGKILL a process that is committing, at random moments: no reported commit may be lost,
and state, version and event log must still agree (AsyncTI4 moved temp files into place
for the same reason; SQLite's WAL gives us the atomicity)."""
from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.store import SqliteStore
from tests.store.sample import new_game

pytestmark = pytest.mark.sqlite_only  # the SQLite file itself; tests/store/test_postgres.py for PostgreSQL

CHILD = Path(__file__).with_name("crash_child.py")
KILLS = 12


def wait_for_ready(out: Path, child: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 20
    while b"ready" not in out.read_bytes():
        if child.poll() is not None:
            raise AssertionError(f"child exited early with {child.returncode}")
        if time.monotonic() > deadline:
            child.kill()
            raise AssertionError("child never became ready")
        time.sleep(0.005)


def last_reported(out: Path) -> int:
    """The last version the child printed in full; a line cut by the kill does not count."""
    complete = out.read_text().split("\n")[:-1]
    return int(complete[-1].split()[1])


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
async def test_killed_mid_commit_loses_nothing_reported(db_path: Path, tmp_path: Path) -> None:
    async with SqliteStore(db_path) as store:
        game_id = (await new_game(store)).id
    rng = random.Random(20260606)
    for kill in range(KILLS):
        out = tmp_path / f"child-{kill}.out"
        with out.open("wb") as sink:
            child = subprocess.Popen(
                [sys.executable, str(CHILD), str(db_path), str(game_id)],
                stdout=sink, stderr=subprocess.PIPE,
            )
        try:
            wait_for_ready(out, child)
            time.sleep(rng.uniform(0.0, 0.25))
            os.kill(child.pid, signal.SIGKILL)
        finally:
            child.wait(timeout=10)
            assert child.stderr is not None
            stderr = child.stderr.read().decode()
            child.stderr.close()
        assert child.returncode == -signal.SIGKILL, stderr
        reported = last_reported(out)

        with sqlite3.connect(db_path) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            version, body = conn.execute(
                "SELECT version, state FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            seqs = [s for (s,) in conn.execute(
                "SELECT seq FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
            )]
        # Killed between a commit and its print, the file may be one ahead; never behind.
        assert reported <= version <= reported + 1, (kill, reported, version)
        assert json.loads(body)["v"] == version
        assert seqs == list(range(1, version))

    async with SqliteStore(db_path) as store:
        game = await store.load_game(game_id)
        done = await store.commit(game_id, game.version, '{"v": "after"}', ['{"v": "after"}'])
    assert done.last_seq == done.version - 1
    assert version > 1 + KILLS  # the children really committed, not only started
