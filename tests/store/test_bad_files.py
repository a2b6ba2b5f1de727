"""A database file Fieldpost must not use is refused at open with one line naming the file and
what to do, and keeps every byte; the bot and the console stop on it without a traceback."""
from __future__ import annotations

import logging
import random
import sqlite3
from pathlib import Path

import pytest

from bot.store import BadDatabase, SchemaTooNew, SqliteStore, StoreUnavailable
from bot.store.migrations import MIGRATIONS, migrate
from tests.store.sample import new_game, state


async def a_real_database(path: Path, games: int = 40) -> None:
    """A closed Fieldpost database whose games fill many pages (the WAL folded into the file)."""
    async with SqliteStore(path) as store:
        for n in range(games):
            game = await new_game(store)
            await store.commit(game.id, 1, state(turn=2, pad="x" * 3000, n=n), ['{"moved": 1}'])


async def refused_untouched(path: Path) -> BadDatabase:
    """Open `path`, expect BadDatabase, and check the file is as it was and nothing grew beside it."""
    before = path.read_bytes()
    beside = sorted(p.name for p in path.parent.iterdir())
    with pytest.raises(BadDatabase) as refused:
        await SqliteStore(path).open()
    assert path.read_bytes() == before
    assert sorted(p.name for p in path.parent.iterdir()) == beside
    message = str(refused.value)
    assert str(path) in message and "\n" not in message
    return refused.value


async def test_an_existing_empty_file_is_refused_not_made_a_new_database(tmp_path: Path) -> None:
    path = tmp_path / "fieldpost.db"
    path.touch()
    message = str(await refused_untouched(path))
    assert "empty" in message and "delete it" in message and "backup" in message


async def test_a_missing_file_is_a_new_database(tmp_path: Path) -> None:
    path = tmp_path / "fieldpost.db"
    async with SqliteStore(path) as store:
        assert await store.unfinished_games() == []
    assert path.stat().st_size > 0


async def test_a_truncated_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "fieldpost.db"
    await a_real_database(path)
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) // 2])
    assert "restore a backup" in str(await refused_untouched(path))


@pytest.mark.parametrize("content", [
    random.Random(1944).randbytes(50_000),
    b"games: none\n" * 400,
    b"SQLite format 3\x00" + random.Random(6).randbytes(8_000),
], ids=["random", "text", "sqlite-header-then-garbage"])
async def test_a_garbage_file_is_refused(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "fieldpost.db"
    path.write_bytes(content)
    assert "restore a backup" in str(await refused_untouched(path))


async def test_damage_that_only_quick_check_finds_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "fieldpost.db"
    await a_real_database(path, games=3)
    with sqlite3.connect(path) as conn:
        (root,), = conn.execute("SELECT rootpage FROM sqlite_schema WHERE name = 'games_by_channel'")
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    damaged = bytearray(path.read_bytes())
    at = (root - 1) * page_size + 8  # the index page's first cell pointers
    damaged[at:at + 4] = bytes(4)
    path.write_bytes(bytes(damaged))
    assert "quick_check" in str(await refused_untouched(path))


async def test_an_sqlite_database_of_another_program_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE recipes (name TEXT)")
    conn.close()
    assert "another program" in str(await refused_untouched(path))


async def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(BadDatabase, match="not a file"):
        await SqliteStore(tmp_path).open()


async def test_a_newer_schema_reads_as_one_line_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "fieldpost.db"
    migrate(path, (*MIGRATIONS, "CREATE TABLE later (id INTEGER PRIMARY KEY) STRICT;"))
    with pytest.raises(SchemaTooNew) as refused:
        await SqliteStore(path).open()
    message = str(refused.value)
    assert str(path) in message and "newer" in message and "\n" not in message


async def test_a_file_damaged_while_the_store_is_open_fails_reads_as_unavailable(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "fieldpost.db"
    async with SqliteStore(path) as store:
        games = [await new_game(store) for _ in range(3)]
        with sqlite3.connect(path) as conn:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # every page in the main file
            (root,), = conn.execute("SELECT rootpage FROM sqlite_schema WHERE name = 'games'")
            page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        conn.close()
        with path.open("r+b") as f:  # the games table's page, overwritten as by a failing disk
            f.seek((root - 1) * page_size)
            f.write(b"\xa5" * page_size)

        for _ in range(2):
            with pytest.raises(StoreUnavailable) as refused:
                await store.load_game(games[0].id)
            assert str(path) in refused.value.reason and "malformed" in refused.value.reason
            assert "nothing was changed" in str(refused.value)
        said = [r for r in caplog.records if r.levelno == logging.ERROR and str(path) in r.getMessage()]
        assert len(said) == 1
