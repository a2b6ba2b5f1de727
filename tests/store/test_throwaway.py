"""A throwaway SQLite store (`durable=False`: the console's game without --db, deleted as the run
ends) keeps a game exactly as a durable one; it only never asks the disk to flush."""
from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import SqliteStore, open_store
from tests.store.sample import new_game, state

pytestmark = pytest.mark.sqlite_only  # SQLite's own flushing; PostgreSQL has no throwaway store


async def synchronous(store: SqliteStore) -> int:
    """The writer connection's `PRAGMA synchronous` (0 OFF, 1 NORMAL, 2 FULL)."""
    return await store._write(lambda db: db.execute("PRAGMA synchronous").fetchone()[0])


async def test_a_throwaway_store_keeps_a_game_as_a_durable_one_reads_it(db_path: Path) -> None:
    async with open_store(db_path, durable=False) as store:
        game = await new_game(store)
        await store.commit(game.id, game.version, state(turn=2), ['{"e": 1}'])
    async with SqliteStore(db_path) as store:
        again = await store.load_game(game.id)
        assert (again.version, again.state) == (game.version + 1, state(turn=2))
        assert [e.body for e in await store.events_since(game.id)] == ['{"e": 1}']


async def test_only_a_throwaway_store_skips_the_flushes(tmp_path: Path) -> None:
    async with SqliteStore(tmp_path / "kept.db") as kept, \
            SqliteStore(tmp_path / "throwaway.db", durable=False) as throwaway:
        assert await synchronous(kept) == 1  # NORMAL, as every store the bot keeps (docs/store.md)
        assert await synchronous(throwaway) == 0
