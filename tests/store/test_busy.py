"""Another connection holds SQLite's write lock (a VACUUM, an admin's sqlite3 shell, a second
process) for longer than the busy timeout: the writer thread lives on, the callers hear
"busy" (never a hang), the next write after the lock is gone succeeds, close() returns."""
from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bot.store import SqliteStore, StoreError, StoreUnavailable
from tests.store.sample import new_game, state

pytestmark = pytest.mark.sqlite_only  # the SQLite file itself; tests/store/test_postgres.py for PostgreSQL

# Small enough that giving up takes a fraction of a second; the defaults are 3 s and (0.5, 1).
FAST = {"busy_timeout": 0.05, "busy_backoff": (0.01, 0.02)}
HANG = 20  # seconds: a guard that turns a hang into a failure, not a timing assertion


@contextmanager
def write_lock_held(path: Path) -> Iterator[threading.Event]:
    """A second connection, on its own thread, holds BEGIN IMMEDIATE until the block ends (or
    until the yielded event is set)."""
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        conn = sqlite3.connect(path, isolation_level=None)
        try:
            conn.execute("BEGIN IMMEDIATE")
            held.set()
            release.wait(HANG)
            conn.execute("ROLLBACK")
        finally:
            conn.close()

    thread = threading.Thread(target=hold, name="other-connection")
    thread.start()
    assert held.wait(HANG)
    try:
        yield release
    finally:
        release.set()
        thread.join(HANG)


async def test_a_lock_held_past_the_busy_timeout_is_busy_and_the_writer_lives_on(db_path: Path) -> None:
    async with SqliteStore(db_path, **FAST) as store:
        game = await new_game(store)
        with write_lock_held(db_path):
            with pytest.raises(StoreUnavailable) as refused:
                await asyncio.wait_for(store.commit(game.id, 1, state(turn=2), ['{"a": 1}']), HANG)
            assert refused.value.busy
            assert "busy" in str(refused.value) and "nothing was changed" in str(refused.value)
            assert str(db_path) in refused.value.reason and "locked" in refused.value.reason
            assert (await store.load_game(game.id)).version == 1  # reads go on meanwhile (WAL)

        done = await asyncio.wait_for(store.commit(game.id, 1, state(turn=2), ['{"a": 1}']), HANG)
        assert done.version == 2
        assert [e.seq for e in await store.events_since(game.id)] == [1]
    # leaving the block closed the store: close() returned


async def test_everyone_waiting_behind_a_held_lock_hears_busy_then_all_can_write(db_path: Path) -> None:
    async with SqliteStore(db_path, **FAST) as store:
        games = [await new_game(store) for _ in range(5)]
        with write_lock_held(db_path):
            outcomes = await asyncio.wait_for(asyncio.gather(
                *(store.commit(g.id, 1, state(turn=2)) for g in games),
                store.set_setting("guild:1", "deadline_hours", 24),
                return_exceptions=True,
            ), HANG)
            assert all(isinstance(o, StoreUnavailable) and o.busy for o in outcomes), outcomes

        for g in games:
            assert (await store.commit(g.id, 1, state(turn=2))).version == 2
        await store.set_setting("guild:1", "deadline_hours", 24)
        assert await store.get_setting("guild:1", "deadline_hours") == 24


async def test_a_lock_released_while_the_writer_backs_off_costs_the_caller_nothing(
    db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.store.sqlite")
    async with SqliteStore(db_path, busy_timeout=0.05, busy_backoff=(1.0, 2.0)) as store:
        game = await new_game(store)
        with write_lock_held(db_path) as release:
            commit = asyncio.create_task(store.commit(game.id, 1, state(turn=2)))
            while not any("trying again" in r.getMessage() for r in caplog.records):
                assert not commit.done(), commit
                await asyncio.sleep(0.005)
            release.set()  # during the writer's first pause
            done = await asyncio.wait_for(commit, HANG)
        assert done.version == 2
        assert (await store.load_game(game.id)).version == 2


async def test_close_returns_while_the_lock_is_held_and_a_write_waits(db_path: Path) -> None:
    store = await SqliteStore(db_path, **FAST).open()
    game = await new_game(store)
    with write_lock_held(db_path):
        waiting = asyncio.create_task(store.commit(game.id, 1, state(turn=2)))
        await asyncio.sleep(0)  # asked for before close()
        await asyncio.wait_for(store.close(), HANG)
        with pytest.raises(StoreUnavailable):
            await waiting
        with pytest.raises(StoreError, match="not open"):
            await store.commit(game.id, 1, state(turn=2))
    async with SqliteStore(db_path) as again:
        assert (await again.load_game(game.id)).version == 1


async def test_close_returns_even_if_the_writer_thread_is_stuck(
    db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = await SqliteStore(db_path, **FAST).open()
    game = await new_game(store)
    unstick = threading.Event()
    # A transaction that does not end, as on a hung disk: the writer's thread cannot stop.
    stuck = asyncio.create_task(store._write(lambda db: unstick.wait(HANG)))
    await asyncio.sleep(0.05)
    try:
        await asyncio.wait_for(store.close(), HANG)
        assert any(r.levelno == logging.ERROR and "did not stop" in r.getMessage()
                   and str(db_path) in r.getMessage() for r in caplog.records)
    finally:
        unstick.set()
        await asyncio.wait_for(stuck, HANG)
    async with SqliteStore(db_path) as again:
        assert (await again.load_game(game.id)).version == 1


async def test_a_busy_database_at_open_is_unavailable_not_a_raw_sqlite_error(db_path: Path) -> None:
    async with SqliteStore(db_path):
        pass
    # the check only reads; migrating needs the write lock: it waits, then says busy
    with write_lock_held(db_path), pytest.raises(StoreUnavailable) as refused:
        await asyncio.wait_for(SqliteStore(db_path, **FAST).open(), HANG)
    assert refused.value.busy and str(db_path) in refused.value.reason
