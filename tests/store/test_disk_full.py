"""A full disk (SQLITE_FULL, raised by SQLite itself) or a failing one reaches callers as
StoreUnavailable, "nothing was changed", with SQLite's words and the file in `.reason` and one
ERROR line in the log; nothing is half-written, and writes work again once there is room."""
from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.store import SqliteStore, StoreUnavailable
from tests.store.sample import new_game, state

pytestmark = pytest.mark.sqlite_only  # the SQLite file itself; tests/store/test_postgres.py for PostgreSQL

BIG = "x" * 300_000  # a state that needs new pages (and WAL frames) wherever it goes
PAGE_LIMIT_MAX = 1_073_741_823  # SQLite's default max_page_count


async def writer_pragma(store: SqliteStore, pragma: str) -> None:
    """Run a PRAGMA on the writer's own connection: max_page_count is per connection."""
    await store._write(lambda db: db.execute(pragma).fetchall())


def full_disk_errors(caplog: pytest.LogCaptureFixture, path: Path) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno == logging.ERROR and str(path) in r.getMessage()]


async def test_a_full_database_refuses_the_whole_commit_and_takes_the_next_when_there_is_room(
    db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with SqliteStore(db_path) as store:
        game = await new_game(store, snapshot="setup")
        await writer_pragma(store, "PRAGMA max_page_count = 1")  # no page beyond the ones in use

        for _ in range(2):
            with pytest.raises(StoreUnavailable) as refused:
                await store.commit(game.id, 1, state(pad=BIG), ['{"a": 1}', '{"b": 2}'],
                                   snapshot="T1P1", awaited=())
            assert not refused.value.busy
            assert "nothing was changed" in str(refused.value) and "full" not in str(refused.value)
            assert str(db_path) in refused.value.reason and "SQLITE_FULL" in refused.value.reason
        assert len(full_disk_errors(caplog, db_path)) == 1  # said once, not per caller

        loaded = await store.load_game(game.id)
        assert (loaded.version, loaded.state) == (1, game.state)
        assert await store.events_since(game.id) == []
        assert [s.label for s in await store.snapshots(game.id)] == ["setup"]

        await writer_pragma(store, f"PRAGMA max_page_count = {PAGE_LIMIT_MAX}")
        done = await store.commit(game.id, 1, state(pad=BIG), ['{"a": 1}', '{"b": 2}'], snapshot="T1P1")
        assert (done.version, done.last_seq) == (2, 2)
        assert (await store.load_game(game.id)).state == state(pad=BIG)
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    conn.close()


async def test_a_full_database_fails_every_write_kind_cleanly(db_path: Path) -> None:
    async with SqliteStore(db_path) as store:
        game = await new_game(store)
        await writer_pragma(store, "PRAGMA max_page_count = 1")
        for write in (
            lambda: store.create_game(guild_id=1, channel_id=2, scenario_id="hill-30", organiser_id=3,
                                      state=state(pad=BIG)),
            lambda: store.set_setting("guild:1", "notes", BIG),
            lambda: store.create_campaign(guild_id=1, channel_id=2, definition_id="normandy", name="N",
                                          organiser_id=3, state=state(pad=BIG)),
        ):
            with pytest.raises(StoreUnavailable):
                await write()
        assert [g.id for g in await store.unfinished_games()] == [game.id]
        assert await store.settings("guild:1") == {}


@contextlib.contextmanager
def small_tmpfs(where: Path, size: str) -> Iterator[Path]:
    """A real small filesystem, where the machine lets us mount one (root); else the test skips."""
    where.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                             capture_output=True, check=False)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def fill(directory: Path) -> Path:
    """Take every free byte of the filesystem; delete the returned file to give them back."""
    filler = directory / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        for chunk in (65536, 512, 1):
            with contextlib.suppress(OSError):
                while os.write(fd, b"\0" * chunk):
                    pass
    finally:
        os.close(fd)
    return filler


async def test_a_full_disk_is_unavailable_and_writes_resume_when_space_frees(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with small_tmpfs(tmp_path / "disk", "4m") as disk:
        path = disk / "fieldpost.db"
        async with SqliteStore(path) as store:
            game = await new_game(store)
            filler = fill(disk)
            with pytest.raises(StoreUnavailable) as refused:
                await store.commit(game.id, 1, state(pad=BIG), ['{"a": 1}'])
            assert str(path) in refused.value.reason and not refused.value.busy
            assert full_disk_errors(caplog, path)
            loaded = await store.load_game(game.id)
            assert loaded.version == 1 and await store.events_since(game.id) == []

            os.unlink(filler)
            done = await store.commit(game.id, 1, state(pad=BIG), ['{"a": 1}'])
            assert done.version == 2
        with sqlite3.connect(path) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            assert conn.execute("SELECT version FROM games").fetchone() == (2,)
        conn.close()
