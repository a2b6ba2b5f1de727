"""Copying one store's whole database into another, empty one (`fieldpost migrate-store FROM TO`):
every table, row for row, keeping ids, seqs, versions, times and every text exactly.

    counts = await migrate_store("fieldpost.db", "postgresql://fieldpost@db/fieldpost")

Both databases are first opened by their stores, so each is checked and migrated to the
current schema. The source is read in one snapshot (an SQLite read transaction, a PostgreSQL
REPEATABLE READ READ ONLY transaction), so a bot still running meanwhile cannot tear the copy;
the target is written in one transaction, so a failure leaves it empty. The target's schema
guards hold throughout: each log is appended in seq order, exactly as the store appends it.
`TABLES` names every table and column of the current schema; a table or column it does not
name refuses the copy, so a later migration cannot be forgotten here.
"""
from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from bot.store.database_url import (
    check_url,
    is_postgres,
    open_store,
    safe_url,
    sqlite_path,
)
from bot.store.protocol import StoreError
from bot.store.sqlite import stamp, unstamp

BATCH = 500  # rows held in memory at once per table


@dataclass(frozen=True)
class Table:
    """One table as both schemas have it: its columns, the order to copy its rows in (a log in
    seq order), which columns are times and which are flags, and its id column if generated."""

    name: str
    columns: tuple[str, ...]
    order: str
    times: frozenset[str] = field(default_factory=frozenset)
    flags: frozenset[str] = field(default_factory=frozenset)
    identity: str | None = None


_GAME = ("id", "guild_id", "channel_id", "thread_id", "scenario_id", "status", "organiser_id", "state",
         "version", "created_at", "updated_at", "resumed_version", "paused_at")
_CAMPAIGN = ("id", "guild_id", "channel_id", "definition_id", "name", "status", "organiser_id", "state",
             "version", "created_at", "updated_at")
_RESULT = ("campaign_id", "number", "key", "step", "scenario_id", "game_id", "status", "body", "before",
           "submitted_by", "decided_by", "created_at", "decided_at")

# In an order that fills every foreign key before it is used.
TABLES: tuple[Table, ...] = (
    Table("games", _GAME, "id", frozenset({"created_at", "updated_at", "paused_at"}), identity="id"),
    Table("seats", ("game_id", "seat_index", "side", "user_id", "display_name"), "game_id, seat_index"),
    Table("events", ("game_id", "seq", "body", "created_at"), "game_id, seq", frozenset({"created_at"})),
    Table("snapshots", ("game_id", "label", "seq", "version", "state", "created_at"), "game_id, label",
          frozenset({"created_at"})),
    Table("settings", ("scope", "key", "value"), "scope, key"),
    Table("private_channels", ("game_id", "user_id", "channel_id"), "game_id, user_id"),
    Table("deadlines", ("game_id", "key", "user_id", "due", "reminded", "claimed_until", "left_us"),
          "game_id, key, user_id", frozenset({"due", "claimed_until"}), frozenset({"reminded"})),
    Table("seat_decisions", ("game_id", "seat", "asked", "asked_version", "answered", "command", "sent_at"),
          "game_id, seat", frozenset({"sent_at"})),
    Table("seen", ("game_id", "user_id", "seq", "at"), "game_id, user_id", frozenset({"at"})),
    Table("watchers", ("game_id", "user_id"), "game_id, user_id"),
    Table("player_results", ("game_id", "seat", "user_id", "guild_id", "side", "outcome", "lost", "killed",
                             "ended_at"), "game_id, seat", frozenset({"ended_at"})),
    Table("campaigns", _CAMPAIGN, "id", frozenset({"created_at", "updated_at"}), identity="id"),
    Table("campaign_results", _RESULT, "campaign_id, number", frozenset({"created_at", "decided_at"})),
    Table("campaign_log", ("campaign_id", "seq", "body", "created_at"), "campaign_id, seq",
          frozenset({"created_at"})),
    Table("paces", ("name", "next_at"), "name"),
)
_BOOKKEEPING = {"schema_version"}  # PostgreSQL's migration count; SQLite keeps it in user_version


class _Side(Protocol):
    """One database as the copy sees it: read in one snapshot, or written in one transaction."""

    async def columns(self) -> dict[str, tuple[str, ...]]: ...

    def rows(self, table: Table) -> AsyncIterator[list[tuple]]: ...

    async def filled(self) -> list[str]: ...

    async def insert(self, table: Table, rows: list[tuple]) -> None: ...

    async def advance_ids(self) -> None: ...


class _Sqlite:
    """An SQLite file through a connection of its own, used from worker threads one call at a time."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    async def _run(self, sql: str, args: Sequence[Any] = ()) -> list[tuple]:
        return await asyncio.to_thread(lambda: self.conn.execute(sql, args).fetchall())

    async def columns(self) -> dict[str, tuple[str, ...]]:
        names = await self._run("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        out = {}
        for (name,) in names:
            out[name] = tuple(r[1] for r in await self._run(f'PRAGMA table_info("{name}")'))
        return out

    async def rows(self, table: Table) -> AsyncIterator[list[tuple]]:
        cursor = await asyncio.to_thread(
            self.conn.execute, f"SELECT {', '.join(table.columns)} FROM {table.name} ORDER BY {table.order}")
        while batch := await asyncio.to_thread(cursor.fetchmany, BATCH):
            yield [_from_sqlite(table, row) for row in batch]

    async def filled(self) -> list[str]:
        return [t.name for t in TABLES if await self._run(f"SELECT 1 FROM {t.name} LIMIT 1")]

    async def insert(self, table: Table, rows: list[tuple]) -> None:
        sql = f"INSERT INTO {table.name} ({', '.join(table.columns)}) VALUES ({', '.join('?' * len(table.columns))})"
        await asyncio.to_thread(self.conn.executemany, sql, [_to_sqlite(table, row) for row in rows])

    async def advance_ids(self) -> None:
        """Nothing to do: SQLite gives a new row max(id) + 1."""


def _from_sqlite(table: Table, row: tuple) -> tuple:
    return tuple(
        (unstamp(v) if v is not None else None) if c in table.times else bool(v) if c in table.flags else v
        for c, v in zip(table.columns, row, strict=True))


def _to_sqlite(table: Table, row: tuple) -> tuple:
    return tuple(
        (stamp(v) if v is not None else None) if c in table.times else int(v) if c in table.flags else v
        for c, v in zip(table.columns, row, strict=True))


class _Postgres:
    """A PostgreSQL database through one connection inside one transaction."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    async def columns(self) -> dict[str, tuple[str, ...]]:
        rows = await self.conn.fetch(
            "SELECT table_name, array_agg(column_name::text ORDER BY ordinal_position)"
            " FROM information_schema.columns WHERE table_schema = current_schema() GROUP BY table_name")
        return {name: tuple(columns) for name, columns in rows}

    async def rows(self, table: Table) -> AsyncIterator[list[tuple]]:
        cursor = self.conn.cursor(f"SELECT {', '.join(table.columns)} FROM {table.name} ORDER BY {table.order}",
                                  prefetch=BATCH)
        batch: list[tuple] = []
        async for record in cursor:
            batch.append(tuple(record))
            if len(batch) == BATCH:
                yield batch
                batch = []
        if batch:
            yield batch

    async def filled(self) -> list[str]:
        return [t.name for t in TABLES if await self.conn.fetchval(f"SELECT EXISTS (SELECT 1 FROM {t.name})")]

    async def insert(self, table: Table, rows: list[tuple]) -> None:
        await self.conn.copy_records_to_table(table.name, records=rows, columns=list(table.columns))

    async def advance_ids(self) -> None:
        """New games and campaigns get ids past the copied ones, as SQLite would give them."""
        for table in TABLES:
            if table.identity is not None:
                await self.conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table.name}', '{table.identity}'),"
                    f" coalesce(max({table.identity}), 0) + 1, false) FROM {table.name}")


@asynccontextmanager
async def _reading(url: str) -> AsyncIterator[_Side]:
    if is_postgres(url):
        import asyncpg

        conn = await asyncpg.connect(url)
        try:
            async with conn.transaction(isolation="repeatable_read", readonly=True):
                yield _Postgres(conn)
        finally:
            await conn.close()
        return
    conn = sqlite3.connect(f"{sqlite_path(url).resolve().as_uri()}?mode=ro", uri=True, timeout=5.0,
                           isolation_level=None, check_same_thread=False)
    try:
        conn.execute("BEGIN")  # one snapshot of the WAL for every table
        yield _Sqlite(conn)
    finally:
        conn.close()


@asynccontextmanager
async def _writing(url: str) -> AsyncIterator[_Side]:
    if is_postgres(url):
        import asyncpg

        conn = await asyncpg.connect(url)
        try:
            async with conn.transaction():
                yield _Postgres(conn)
        finally:
            await conn.close()
        return
    conn = sqlite3.connect(sqlite_path(url), timeout=5.0, isolation_level=None, check_same_thread=False)
    try:
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield _Sqlite(conn)
        except BaseException:
            conn.rollback()
            raise
        conn.execute("COMMIT")
    finally:
        conn.close()


def _check_tables(side: str, columns: dict[str, tuple[str, ...]]) -> None:
    known = {t.name: t.columns for t in TABLES}
    for name in sorted(set(columns) - _BOOKKEEPING):
        if name not in known:
            raise StoreError(f"the {side} database has a table {name!r} that migrate-store does not know: "
                             "this Fieldpost cannot copy it (bot/store/transfer.py, TABLES)")
        if set(columns[name]) != set(known[name]):
            raise StoreError(f"the {side} database's table {name!r} has the columns {list(columns[name])}, "
                             f"not {list(known[name])}: this Fieldpost cannot copy it")
    if missing := sorted(set(known) - set(columns)):
        raise StoreError(f"the {side} database has no table {', '.join(missing)}")


def same_database(source: str, target: str) -> bool:
    if is_postgres(source) or is_postgres(target):
        return source == target
    return sqlite_path(source).resolve() == sqlite_path(target).resolve()


async def migrate_store(source: str | Path, target: str | Path) -> dict[str, int]:
    """Copy every row of the database `source` names into the empty database `target` names
    (file paths, sqlite:///PATH or postgresql://…) and return the rows copied per table.
    Refuses a missing SQLite source, a non-empty target, and the same database twice."""
    source, target = check_url(source), check_url(target)
    if same_database(source, target):
        raise StoreError(f"{safe_url(source)} is both the source and the target")
    if not is_postgres(source) and not sqlite_path(source).is_file():
        raise StoreError(f"there is no database at {sqlite_path(source)}")
    for url in (source, target):  # checked and migrated to the current schema by its own store
        async with open_store(url):
            pass
    counts = {t.name: 0 for t in TABLES}
    async with _reading(source) as reader, _writing(target) as writer:
        _check_tables("source", await reader.columns())
        _check_tables("target", await writer.columns())
        if filled := await writer.filled():
            raise StoreError(f"{safe_url(target)} is not empty (it has {', '.join(filled)}): "
                             "migrate-store fills only a new, empty database; nothing was written")
        for table in TABLES:
            async for batch in reader.rows(table):
                await writer.insert(table, batch)
                counts[table.name] += len(batch)
        await writer.advance_ids()
    return counts
