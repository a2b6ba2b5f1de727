"""What a power loss can take, bounded in time (docs/store.md, Durability): the writer runs a
checkpoint of its own (the WAL fsynced, then copied into the file) `synced_within` seconds after
the first commit since its last one, at its first moment with nothing queued, whether more commits
keep coming (one player's after another's) or none does; SQLite's own, by pages, waits for
`CHECKPOINT_PAGES`, so a burst of commands no longer fsyncs every hundred.

On real SQLite files. What has been checkpointed is read off the wal-index (the `-shm` file,
SQLite's documented layout: `mxFrame` at byte 16 of its header, the checkpoint's `nBackfill` at
byte 96) and the WAL's own header (its checkpoint sequence, bytes 12-15, counts the restarts
after a whole checkpoint)."""
from __future__ import annotations

import asyncio
import struct
import time
from pathlib import Path

import pytest

from bot.store.sqlite import CHECKPOINT_PAGES, SYNCED_WITHIN_S, SqliteStore


def _frames(db: Path) -> tuple[int, int]:
    """(frames in the WAL, frames of it copied into the file) as the wal-index tells."""
    head = (db.parent / f"{db.name}-shm").read_bytes()[:100]
    (mx_frame,) = struct.unpack_from("=I", head, 16)
    (backfilled,) = struct.unpack_from("=I", head, 96)
    return mx_frame, backfilled


def _restarts(db: Path) -> int:
    """The WAL's checkpoint sequence: it goes up each time a whole checkpoint lets the log start over."""
    return struct.unpack(">I", (db.parent / f"{db.name}-wal").read_bytes()[12:16])[0]


async def _game(store: SqliteStore) -> int:
    return (await store.create_game(guild_id=1, channel_id=2, scenario_id="s", organiser_id=3,
                                    state='{"n": 0}')).id


async def _settled(db: Path, within: float) -> bool:
    """Whether every frame of the WAL is in the file within `within` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        written, copied = _frames(db)
        if written and copied == written:
            return True
        await asyncio.sleep(0.02)
    return False


async def test_a_quiet_server_commit_is_checkpointed_within_the_bound_without_another_commit(db_path: Path) -> None:
    async with SqliteStore(db_path, synced_within=0.2) as store:
        gid = await _game(store)
        await store.commit(gid, 1, '{"n": 1}', ['{"type": "moved"}'])
        # a handful of pages: SQLite's own checkpoint (by pages) is far off
        assert await _settled(db_path, within=10.0)


async def test_without_its_own_checkpoint_the_writer_leaves_a_few_commits_in_the_wal(db_path: Path) -> None:
    # the same commits, the writer's checkpoint put off beyond the test: SQLite's own, by pages,
    # does not come, so the test above holds the writer's checkpoint, not SQLite's
    async with SqliteStore(db_path, synced_within=3600) as store:
        gid = await _game(store)
        await store.commit(gid, 1, '{"n": 1}', ['{"type": "moved"}'])
        await asyncio.sleep(0.5)
        written, copied = _frames(db_path)
        assert written > 0 and copied < written


async def test_under_a_steady_stream_of_commits_the_wal_is_still_checkpointed_within_the_bound(db_path: Path) -> None:
    async with SqliteStore(db_path, synced_within=0.1) as store:
        gid = await _game(store)
        await store.commit(gid, 1, '{"n": 1}')
        first = _restarts(db_path)
        version, start = 2, time.monotonic()
        while time.monotonic() - start < 1.5:  # never idle: the writer is never left waiting
            await store.commit(gid, version, f'{{"n": {version}}}', ['{"type": "moved"}'])
            version += 1
        assert version > 20
        # each whole checkpoint lets the next commit start the log over
        assert _restarts(db_path) >= first + 2
        assert (await store.load_game(gid)).version == version


async def test_the_writer_leaves_sqlites_own_checkpoint_to_bursts_of_thousands_of_pages(db_path: Path) -> None:
    async with SqliteStore(db_path) as store:
        pages = await store._writer.run(lambda conn: conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0])
        assert pages == CHECKPOINT_PAGES >= 4_000
        assert 0 < SYNCED_WITHIN_S <= 1.0


@pytest.mark.parametrize("within", [0, -1, float("nan"), float("inf")])
def test_a_bound_that_means_nothing_is_refused(db_path: Path, within: float) -> None:
    with pytest.raises(ValueError, match="synced_within"):
        SqliteStore(db_path, synced_within=within)


async def test_a_throwaway_database_takes_no_checkpoint_of_its_own(db_path: Path) -> None:
    async with SqliteStore(db_path, durable=False, synced_within=0.05) as store:
        gid = await _game(store)
        await store.commit(gid, 1, '{"n": 1}', ['{"type": "moved"}'])
        await asyncio.sleep(0.5)
        written, copied = _frames(db_path)
        assert written > 0 and copied < written
