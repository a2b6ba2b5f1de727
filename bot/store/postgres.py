"""`PostgresStore`: the `GameStore` (and the `CampaignStore`) on PostgreSQL through asyncpg.

    async with PostgresStore("postgresql://fieldpost@db/fieldpost") as store:
        game = await store.load_game(7)
        await store.commit(7, game.version, new_state, [event_json])

A connection pool. Every write is one transaction on a connection of its own
(`_transaction(tx)`: `tx` is a function of the connection, so a busy database can be tried
again), every read one statement (`_rows`), so nothing from one task lands inside another's
transaction and no lock is needed inside the store. The version check is the `WHERE` of the
`UPDATE … RETURNING`; the append-only, gapless logs are the schema's (bot/store/pg_migrations.py).
State, events and settings are kept as the text given, byte for byte.
"""
from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from types import TracebackType
from typing import Any, Self, TypeVar

import asyncpg

from bot.store.campaigns import (
    CampaignCommitted,
    CampaignLogEntry,
    CampaignNotFound,
    CampaignStatus,
    CampaignSummary,
    CampaignVersionConflict,
    DuplicateResult,
    NewResult,
    ResultChange,
    ResultConflict,
    ResultNotFound,
    ResultStatus,
    StoredCampaign,
    StoredResult,
)
from bot.store.database_url import safe_url
from bot.store.keepable import INT64, aware, findable, microseconds, refuse_unkeepable, seq_bound
from bot.store.pg_migrations import PG_MIGRATIONS, migrate
from bot.store.protocol import (
    UNFINISHED,
    Awaited,
    BadDatabase,
    Committed,
    Deadline,
    Event,
    GameNotFound,
    GameStatus,
    GameSummary,
    Pause,
    PlayerResult,
    PlayerTotals,
    Seat,
    SeatDecision,
    Seen,
    SeenMark,
    Snapshot,
    SnapshotInfo,
    SnapshotNotFound,
    StoredGame,
    StoreError,
    StoreUnavailable,
    VersionConflict,
)
from bot.store.trouble import Trouble

log = logging.getLogger(__name__)

T = TypeVar("T")
Connection = asyncpg.Connection
Transaction = Callable[[Connection], Awaitable[T]]

# As SQLite's busy timeout: how long a statement waits for a row or table lock another
# transaction holds (PostgreSQL's lock_timeout), then the transaction is tried again after each
# of these pauses before its caller hears "busy": at most 3 x 3 s + 0.5 s + 1 s = 10.5 s.
BUSY_TIMEOUT_S = 3.0
BUSY_BACKOFF_S = (0.5, 1.0)
# A migration may rebuild a table; a second process starting meanwhile waits this long for it.
MIGRATION_LOCK_TIMEOUT_S = 60.0

# SQLSTATE classes and codes of a database that cannot work right now, not of a bad request:
# connection exceptions, insufficient resources (disk full, too many connections), operator
# intervention (shutdown, cancel), system and internal errors; a lock not granted in time,
# serialisation failures and deadlocks; a read-only server (a standby, a full-disk guard).
_UNAVAILABLE_CLASSES = {"08", "53", "57", "58", "XX"}
_BUSY = {"55P03", "40001", "40P01", "53300", "57P03"}
_UNAVAILABLE = _BUSY | {"25006"}
# Refused at open as a wrong FIELDPOST_DB rather than a passing outage: authentication
# (class 28) and a database that does not exist (3D000).
_WRONG_DATABASE_CLASSES = {"28", "3D"}

_SUMMARY_COLUMNS = (
    "id, guild_id, channel_id, thread_id, scenario_id, status, organiser_id, version,"
    " created_at, updated_at, paused_at"
)
_DEADLINE_COLUMNS = "game_id, key, user_id, due, reminded, left_us"
_CAMPAIGN_COLUMNS = (
    "id, guild_id, channel_id, definition_id, name, status, organiser_id, version, created_at, updated_at"
)
_RESULT_COLUMNS = (
    "campaign_id, number, key, step, scenario_id, game_id, status, body, before, submitted_by,"
    " decided_by, created_at, decided_at"
)
# one numbered parameter a column: $1, $2, … in the columns' order
_RESULT_VALUES = ", ".join(f"${n}" for n in range(1, _RESULT_COLUMNS.count(",") + 2))
_UNFINISHED = tuple(status.value for status in UNFINISHED)


def _utc_now() -> datetime:
    return datetime.now(UTC)


def _sqlstate(exc: BaseException) -> str:
    return getattr(exc, "sqlstate", None) or ""


def is_busy(exc: BaseException) -> bool:
    """True if `exc` is PostgreSQL saying a lock or a connection was not had in time: trying the
    transaction again later may succeed, and nothing of it was written."""
    return _sqlstate(exc) in _BUSY


def is_unavailable(exc: BaseException) -> bool:
    """True if `exc` is the database failing (unreachable, shut down, full, busy), not the
    caller's request: the caller is told "try again later" and the admin log gets the reason."""
    if isinstance(exc, OSError | TimeoutError):  # refused, reset, unreachable, no answer in time
        return True
    if isinstance(exc, asyncpg.InternalClientError):  # a connection the server cut while idle
        return True
    state = _sqlstate(exc)
    return state[:2] in _UNAVAILABLE_CLASSES or state in _UNAVAILABLE


def _summary(row: Sequence[Any]) -> GameSummary:
    return GameSummary(
        id=row[0], guild_id=row[1], channel_id=row[2], thread_id=row[3], scenario_id=row[4],
        status=GameStatus(row[5]), organiser_id=row[6], version=row[7],
        created_at=row[8], updated_at=row[9], paused_at=row[10],
    )


def _campaign(row: Sequence[Any]) -> CampaignSummary:
    return CampaignSummary(
        id=row[0], guild_id=row[1], channel_id=row[2], definition_id=row[3], name=row[4],
        status=CampaignStatus(row[5]), organiser_id=row[6], version=row[7],
        created_at=row[8], updated_at=row[9],
    )


def _result(row: Sequence[Any]) -> StoredResult:
    return StoredResult(
        campaign_id=row[0], number=row[1], key=row[2], step=row[3], scenario_id=row[4], game_id=row[5],
        status=ResultStatus(row[6]), body=row[7], before=row[8], submitted_by=row[9], decided_by=row[10],
        created_at=row[11], decided_at=row[12],
    )


def _deadline(row: Sequence[Any]) -> Deadline:
    return Deadline(game_id=row[0], key=row[1], user_id=row[2], due=row[3], reminded=row[4],
                    left=None if row[5] is None else timedelta(microseconds=row[5]))


def _seat_decision(row: Sequence[Any]) -> SeatDecision:
    return SeatDecision(seat=row[0], asked=row[1], asked_version=row[2], answered=row[3],
                        command=row[4], sent_at=row[5])


def _by_index(seat: Seat) -> int:
    return seat.seat_index


class PostgresStore:
    """A `GameStore` and `CampaignStore` on the PostgreSQL database at `dsn`; migrates it on open.

    `pool_size` bounds the connections this process holds. `busy_timeout` and `busy_backoff`
    bound how long a write waits for a lock held by another transaction (docs/store.md);
    `connect_timeout` and `statement_timeout` how long it waits for the server at all."""

    def __init__(
        self,
        dsn: str,
        *,
        clock: Callable[[], datetime] = _utc_now,
        pool_size: int = 10,
        busy_timeout: float = BUSY_TIMEOUT_S,
        busy_backoff: Sequence[float] = BUSY_BACKOFF_S,
        connect_timeout: float = 5.0,
        statement_timeout: float = 30.0,
    ) -> None:
        self.dsn = dsn
        self.where = safe_url(dsn)  # the DSN without its password: for messages and the log
        self._clock = clock
        self._pool_size = pool_size
        self._busy_timeout = busy_timeout
        self._busy_backoff = tuple(busy_backoff)
        self._connect_timeout = connect_timeout
        self._statement_timeout = statement_timeout
        self._pool: asyncpg.Pool | None = None
        self._writes = self._trouble("write to the database")
        self._reads = self._trouble("read the database")

    def _trouble(self, doing: str) -> Trouble:
        return Trouble(self.where, doing, describe=self.describe, busy=is_busy)

    def describe(self, exc: BaseException) -> str:
        """PostgreSQL's own words for a failure, naming the database (never its password)."""
        state = _sqlstate(exc)
        return f"{self.where}: {exc} ({state + ' ' if state else ''}{type(exc).__name__})"

    # -- lifecycle -------------------------------------------------------------------------

    async def open(self) -> Self:
        """Connect the pool and migrate the database (SchemaTooNew if a newer Fieldpost made
        it, BadDatabase if it is another program's or cannot be used, StoreUnavailable if the
        server cannot be reached now)."""
        if self._pool is not None:
            raise StoreError(f"{self.where} is already open")
        try:
            pool = await asyncpg.create_pool(
                self.dsn, min_size=1, max_size=self._pool_size, timeout=self._connect_timeout,
                command_timeout=self._statement_timeout,
                server_settings={
                    "application_name": "fieldpost",
                    "lock_timeout": f"{round(self._busy_timeout * 1000)}ms",
                    "TimeZone": "UTC",
                },
            )
        except Exception as exc:  # every failure to connect becomes the store's
            raise self._opening_error(exc) from exc
        try:
            async with pool.acquire() as conn:
                await self._prepare(conn)
        except BaseException as exc:
            pool.terminate()
            if isinstance(exc, Exception) and not isinstance(exc, StoreError):
                raise self._opening_error(exc) from exc
            raise
        self._pool = pool
        return self

    async def _prepare(self, conn: Connection) -> None:
        encoding = await conn.fetchval("SHOW server_encoding")
        if encoding != "UTF8":
            raise BadDatabase(f"{self.where} uses the {encoding} encoding; Fieldpost keeps text "
                              "exactly only in a UTF8 database: CREATE DATABASE … ENCODING 'UTF8'")
        await conn.execute(f"SET lock_timeout = '{round(MIGRATION_LOCK_TIMEOUT_S * 1000)}ms'")
        await migrate(conn, PG_MIGRATIONS, where=self.where)
        await conn.execute("RESET lock_timeout")

    def _opening_error(self, exc: Exception) -> StoreError:
        if _sqlstate(exc)[:2] in _WRONG_DATABASE_CLASSES:
            return BadDatabase(f"cannot use {self.where}: {exc}: check FIELDPOST_DB")
        if is_unavailable(exc):
            return StoreUnavailable(self.describe(exc), busy=is_busy(exc))
        return BadDatabase(f"cannot connect to {self.where}: {exc} ({type(exc).__name__}): check FIELDPOST_DB")

    async def close(self, *, timeout: float = 10.0) -> None:
        """Always returns: transactions already running finish first, for at most `timeout`
        seconds; then the connections are cut (PostgreSQL rolls back what they left open)."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        try:
            await asyncio.wait_for(pool.close(), timeout)
        except TimeoutError:
            log.error("the connections to %s did not close within %.1f s; cutting them", self.where, timeout)
            pool.terminate()

    async def __aenter__(self) -> Self:
        return await self.open()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    def _opened(self) -> asyncpg.Pool:
        if self._pool is None:
            raise StoreError(f"{self.where} is not open")
        return self._pool

    # -- the two ways in: one transaction, one statement -------------------------------------

    async def _transaction(self, tx: Transaction[T]) -> T:
        """Run `tx` in one transaction on a connection of its own. A lock not had in time (or a
        serialisation failure, a deadlock, no free connection on the server) rolls it back and
        it is tried again after each pause of `busy_backoff`; then, and for any failure of the
        database, the caller gets `StoreUnavailable`. Nothing is ever half written."""
        pool = self._opened()
        pauses = iter(self._busy_backoff)
        while True:
            try:
                async with pool.acquire() as conn, conn.transaction():
                    out = await tx(conn)
            except Exception as exc:
                if not is_unavailable(exc):
                    raise
                failure = self._writes.unavailable(exc)
                pause = next(pauses, None)
                if not failure.busy or pause is None:
                    raise failure from exc
                log.info("%s is busy; trying the transaction again in %.2f s", self.where, pause)
                await asyncio.sleep(pause)
                continue
            self._writes.ok()
            return out

    async def _rows(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        """One statement's rows, as of one instant. A key no row can hold (an id beyond 64 bits,
        text with a lone surrogate or a NUL) matches nothing."""
        if not findable(*args):
            return []
        pool = self._opened()
        try:
            async with pool.acquire() as conn:
                rows = await conn.fetch(sql, *args)
        except Exception as exc:
            if not is_unavailable(exc):
                raise
            raise self._reads.unavailable(exc) from exc
        self._reads.ok()
        return rows

    def _now(self) -> datetime:
        return aware(self._clock()).astimezone(UTC)

    # -- games -----------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        scenario_id: str,
        organiser_id: int,
        state: str,
        thread_id: int | None = None,
        status: GameStatus = GameStatus.LOBBY,
        seats: Sequence[Seat] = (),
        events: Sequence[str] = (),
        snapshot: str | None = None,
    ) -> StoredGame:
        refuse_unkeepable(guild_id=guild_id, channel_id=channel_id, scenario_id=scenario_id,
                          organiser_id=organiser_id, state=state, thread_id=thread_id,
                          seats=seats, events=events, snapshot=snapshot)
        now = self._now()

        async def tx(c: Connection) -> int:
            game_id = await c.fetchval(
                "INSERT INTO games (guild_id, channel_id, thread_id, scenario_id, status,"
                " organiser_id, state, version, created_at, updated_at)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7, 1, $8, $8) RETURNING id",
                guild_id, channel_id, thread_id, scenario_id, GameStatus(status).value,
                organiser_id, state, now,
            )
            await _replace_seats(c, game_id, seats)
            last_seq = await _append(c, "events", "game_id", game_id, 0, events, now)
            if snapshot is not None:
                await _snapshot(c, game_id, snapshot, last_seq, 1, state, now)
            return game_id

        game_id = await self._transaction(tx)
        return StoredGame(
            id=game_id, guild_id=guild_id, channel_id=channel_id, thread_id=thread_id,
            scenario_id=scenario_id, status=GameStatus(status), organiser_id=organiser_id,
            version=1, created_at=now, updated_at=now, state=state,
            seats=tuple(sorted(seats, key=_by_index)),
        )

    async def load_game(self, game_id: int) -> StoredGame:
        # One statement, so the game row and its seats come from the same committed instant.
        rows = await self._rows(
            f"SELECT {_SUMMARY_COLUMNS}, state,"
            " ARRAY(SELECT ROW(seat_index, side, user_id, display_name) FROM seats"
            "       WHERE seats.game_id = games.id ORDER BY seat_index)"
            " FROM games WHERE id = $1",
            game_id,
        )
        for row in rows:
            summary = _summary(row)
            return StoredGame(
                **{name: getattr(summary, name) for name in GameSummary.__dataclass_fields__},
                state=row[11],
                seats=tuple(Seat(*seat) for seat in row[12]),
            )
        raise GameNotFound(game_id)

    async def unfinished_games(self) -> list[GameSummary]:
        rows = await self._rows(
            f"SELECT {_SUMMARY_COLUMNS} FROM games WHERE status = ANY($1::text[]) ORDER BY id",
            _UNFINISHED,
        )
        return [_summary(row) for row in rows]

    async def games_in_channel(
        self, channel_id: int, *, include_finished: bool = False
    ) -> list[GameSummary]:
        rows = await self._rows(
            f"SELECT {_SUMMARY_COLUMNS} FROM games"
            " WHERE (channel_id = $1 OR thread_id = $1)"
            " AND ($2 OR status = ANY($3::text[])) ORDER BY id",
            channel_id, include_finished, _UNFINISHED,
        )
        return [_summary(row) for row in rows]

    async def games_of_user(self, user_id: int, *, include_finished: bool = False) -> list[GameSummary]:
        rows = await self._rows(
            f"SELECT {_SUMMARY_COLUMNS} FROM games"
            " WHERE id IN (SELECT game_id FROM seats WHERE user_id = $1)"
            " AND ($2 OR status = ANY($3::text[])) ORDER BY id",
            user_id, include_finished, _UNFINISHED,
        )
        return [_summary(row) for row in rows]

    async def set_thread(self, game_id: int, thread_id: int | None) -> None:
        refuse_unkeepable(game_id=game_id, thread_id=thread_id)

        async def tx(c: Connection) -> None:
            found = await c.fetchval("UPDATE games SET thread_id = $1 WHERE id = $2 RETURNING id",
                                     thread_id, game_id)
            if found is None:
                raise GameNotFound(game_id)

        await self._transaction(tx)

    # -- the one way a game changes --------------------------------------------------------

    async def commit(
        self,
        game_id: int,
        expected_version: int,
        state: str,
        events: Sequence[str] = (),
        *,
        status: GameStatus | None = None,
        snapshot: str | None = None,
        seats: Sequence[Seat] | None = None,
        awaited: Sequence[Awaited] | None = None,
        decisions: Sequence[SeatDecision] | None = None,
        organiser_id: int | None = None,
        pause: Pause | None = None,
        seen: Seen | None = None,
        results: Sequence[PlayerResult] = (),
    ) -> Committed:
        refuse_unkeepable(game_id=game_id, expected_version=expected_version, state=state,
                          events=events, snapshot=snapshot, seats=seats, awaited=awaited,
                          decisions=decisions, organiser_id=organiser_id, seen=seen, results=results)
        if isinstance(events, str):
            raise TypeError("events is a sequence of JSON texts, not one text")
        dues = _dues(awaited, decisions)  # a naive time is refused before anything runs
        paused = None if pause is None or pause.at is None else aware(pause.at)
        seen_at = None if seen is None else aware(seen.at)
        ended = [aware(r.ended_at) for r in results]
        now = self._now()
        version = expected_version + 1

        async def tx(c: Connection) -> int:
            last_seq = await _write_state(c, game_id, expected_version, state, status, now)
            last_seq = await _append(c, "events", "game_id", game_id, last_seq, events, now)
            if snapshot is not None:
                await _snapshot(c, game_id, snapshot, last_seq, version, state, now)
            if seats is not None:
                await _replace_seats(c, game_id, seats)
            if awaited is not None:
                await _replace_deadlines(c, game_id, awaited, dues)
            if decisions:
                await _replace_decisions(c, game_id, decisions)
            if organiser_id is not None:
                await c.execute("UPDATE games SET organiser_id = $1 WHERE id = $2", organiser_id, game_id)
            if pause is not None:
                await c.execute("UPDATE games SET paused_at = $1 WHERE id = $2", paused, game_id)
            if seen is not None:
                for user_id in seen.users:
                    await _mark_seen(c, game_id, user_id, last_seq, seen_at)
            if results:
                await c.executemany(
                    "INSERT INTO player_results (game_id, seat, user_id, guild_id, side, outcome, lost, killed,"
                    " ended_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (game_id, seat) DO NOTHING",
                    [(game_id, r.seat, r.user_id, r.guild_id, r.side, r.outcome, r.lost, r.killed, at)
                     for r, at in zip(results, ended, strict=True)])
            return last_seq

        return Committed(game_id, version, await self._transaction(tx))

    async def rollback(
        self,
        game_id: int,
        expected_version: int,
        label: str,
        *,
        by_user_id: int | None = None,
        status: GameStatus | None = None,
        awaited: Sequence[Awaited] | None = None,
        decisions: Sequence[SeatDecision] | None = None,
        state: str | None = None,
        events: Sequence[str] = (),
    ) -> Committed:
        refuse_unkeepable(game_id=game_id, expected_version=expected_version, label=label,
                          by_user_id=by_user_id, awaited=awaited, decisions=decisions, state=state,
                          events=events)
        if isinstance(events, str):
            raise TypeError("events is a sequence of JSON texts, not one text")
        dues = _dues(awaited, decisions)
        now = self._now()

        async def tx(c: Connection) -> int:
            snap = await c.fetchrow(
                "SELECT seq, version, state FROM snapshots WHERE game_id = $1 AND label = $2",
                game_id, label,
            )
            if snap is None:
                raise SnapshotNotFound(game_id, label)
            snap_seq, snap_version, snap_state = snap
            last_seq = await _write_state(c, game_id, expected_version, state or snap_state, status, now)
            event = json.dumps({
                "type": "rollback",
                "snapshot": label,
                "to_seq": snap_seq,
                "to_version": snap_version,
                "from_version": expected_version,
                "by": by_user_id,
            })
            last_seq = await _append(c, "events", "game_id", game_id, last_seq, [event, *events], now)
            # Later snapshots belong to the timeline just abandoned.
            await c.execute("DELETE FROM snapshots WHERE game_id = $1 AND seq > $2", game_id, snap_seq)
            if awaited is not None:
                await _replace_deadlines(c, game_id, awaited, dues)
            if decisions:
                await _replace_decisions(c, game_id, decisions)
            return last_seq

        return Committed(game_id, expected_version + 1, await self._transaction(tx))

    async def decisions(self, game_id: int) -> list[SeatDecision]:
        rows = await self._rows(
            "SELECT seat, asked, asked_version, answered, command, sent_at FROM seat_decisions"
            " WHERE game_id = $1 ORDER BY seat",
            game_id,
        )
        return [_seat_decision(row) for row in rows]

    async def record_decisions(self, game_id: int, version: int, decisions: Sequence[SeatDecision]) -> bool:
        refuse_unkeepable(game_id=game_id, version=version, decisions=decisions)
        _dues(None, decisions)

        async def tx(c: Connection) -> bool:
            # FOR SHARE: a commit of this game waits for us, and one already under way is waited
            # for and its version seen, so the records never land beside a newer version.
            at = await c.fetchval("SELECT version FROM games WHERE id = $1 FOR SHARE", game_id)
            if at != version:
                return False
            await _replace_decisions(c, game_id, decisions)
            return True

        return await self._transaction(tx)

    async def claim_resumes(self, games: Sequence[tuple[int, int]]) -> list[int]:
        wanted = [(int(g), int(v)) for g, v in games if findable(g, v)]
        if not wanted:
            return []

        async def tx(c: Connection) -> list[int]:
            # A second claimer of a row waits for the first's lock, then finds it claimed.
            rows = await c.fetch(
                "UPDATE games AS g SET resumed_version = g.version"
                " FROM unnest($1::bigint[], $2::bigint[]) AS asked (id, version)"
                " WHERE g.id = asked.id AND g.version = asked.version AND g.status = $3"
                " AND g.resumed_version IS DISTINCT FROM g.version RETURNING g.id",
                [g for g, _ in wanted], [v for _, v in wanted], GameStatus.ACTIVE.value,
            )
            return sorted(row[0] for row in rows)

        return await self._transaction(tx)

    async def pace(self, name: str, seconds: float) -> float:
        refuse_unkeepable(name=name)
        # the server's clock: the one clock every process on this database reads alike
        wait = await self._transaction(lambda c: c.fetchval(
            "INSERT INTO paces (name, next_at) VALUES ($1, extract(epoch FROM now())::float8 + $2::float8)"
            " ON CONFLICT (name) DO UPDATE"
            " SET next_at = greatest(paces.next_at, excluded.next_at - $2::float8) + $2::float8"
            " RETURNING next_at - $2::float8 - extract(epoch FROM now())::float8",
            name, float(seconds),
        ))
        return max(0.0, wait)

    # -- the event log and snapshots -------------------------------------------------------

    async def events_since(self, game_id: int, after_seq: int = 0) -> list[Event]:
        rows = await self._rows(
            "SELECT game_id, seq, body, created_at FROM events"
            " WHERE game_id = $1 AND seq > $2 ORDER BY seq",
            game_id, seq_bound(after_seq),
        )
        return [Event(r[0], r[1], r[2], r[3]) for r in rows]

    async def snapshots(self, game_id: int) -> list[SnapshotInfo]:
        rows = await self._rows(
            "SELECT game_id, label, seq, version, created_at FROM snapshots"
            " WHERE game_id = $1 ORDER BY seq, version",
            game_id,
        )
        return [SnapshotInfo(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    async def load_snapshot(self, game_id: int, label: str) -> Snapshot:
        rows = await self._rows(
            "SELECT game_id, label, seq, version, created_at, state FROM snapshots"
            " WHERE game_id = $1 AND label = $2",
            game_id, label,
        )
        for r in rows:
            return Snapshot(r[0], r[1], r[2], r[3], r[4], r[5])
        raise SnapshotNotFound(game_id, label)

    # -- settings --------------------------------------------------------------------------

    async def get_setting(self, scope: str, key: str, default: Any = None) -> Any:
        rows = await self._rows("SELECT value FROM settings WHERE scope = $1 AND key = $2", scope, key)
        for (value,) in rows:
            return json.loads(value)
        return default

    async def settings(self, scope: str) -> dict[str, Any]:
        rows = await self._rows("SELECT key, value FROM settings WHERE scope = $1 ORDER BY key", scope)
        return {key: json.loads(value) for key, value in rows}

    async def set_setting(self, scope: str, key: str, value: Any) -> None:
        # json.dumps escapes a lone surrogate into valid ASCII; refuse it as any other bad text.
        refuse_unkeepable(scope=scope, key=key, value=json.dumps(value, ensure_ascii=False))
        text = json.dumps(value)
        await self._transaction(lambda c: c.execute(
            "INSERT INTO settings (scope, key, value) VALUES ($1, $2, $3)"
            " ON CONFLICT (scope, key) DO UPDATE SET value = excluded.value",
            scope, key, text,
        ))

    async def delete_setting(self, scope: str, key: str) -> None:
        refuse_unkeepable(scope=scope, key=key)
        await self._transaction(lambda c: c.execute(
            "DELETE FROM settings WHERE scope = $1 AND key = $2", scope, key))

    # -- private channels and deadlines ----------------------------------------------------

    async def private_channels(self, game_id: int) -> Mapping[int, int]:
        rows = await self._rows(
            "SELECT user_id, channel_id FROM private_channels WHERE game_id = $1", game_id)
        return {user_id: channel_id for user_id, channel_id in rows}

    async def set_private_channel(self, game_id: int, user_id: int, channel_id: int) -> None:
        refuse_unkeepable(game_id=game_id, user_id=user_id, channel_id=channel_id)
        await self._transaction(lambda c: c.execute(
            "INSERT INTO private_channels (game_id, user_id, channel_id) VALUES ($1, $2, $3)"
            " ON CONFLICT (game_id, user_id) DO UPDATE SET channel_id = excluded.channel_id",
            game_id, user_id, channel_id,
        ))

    async def deadlines(self, game_id: int) -> list[Deadline]:
        rows = await self._rows(
            f"SELECT {_DEADLINE_COLUMNS} FROM deadlines"
            " WHERE game_id = $1 ORDER BY due, key, user_id",
            game_id,
        )
        return [_deadline(row) for row in rows]

    async def due_deadlines(self, now: datetime) -> list[Deadline]:
        rows = await self._rows(
            "SELECT d.game_id, d.key, d.user_id, d.due, d.reminded, d.left_us"
            " FROM deadlines AS d JOIN games AS g ON g.id = d.game_id"
            " WHERE NOT d.reminded AND d.left_us IS NULL AND d.due <= $1 AND g.status = ANY($2::text[])"
            " ORDER BY d.due, d.game_id, d.key, d.user_id",
            aware(now), _UNFINISHED,
        )
        return [_deadline(row) for row in rows]

    async def claim_deadlines(self, now: datetime, lease: timedelta) -> list[Deadline]:
        moment = aware(now)

        async def tx(c: Connection) -> list[Deadline]:
            # SKIP LOCKED: rows another process is claiming right now are its own; a row it
            # claimed and committed meanwhile is read again and no longer matches.
            rows = await c.fetch(
                "UPDATE deadlines AS d SET claimed_until = $1"
                " FROM (SELECT due.game_id, due.key, due.user_id"
                "       FROM deadlines AS due JOIN games AS g ON g.id = due.game_id"
                "       WHERE NOT due.reminded AND due.left_us IS NULL AND due.due <= $2"
                "       AND (due.claimed_until IS NULL OR due.claimed_until <= $2)"
                "       AND g.status = ANY($3::text[])"
                "       FOR UPDATE OF due SKIP LOCKED) AS mine"
                " WHERE (d.game_id, d.key, d.user_id) = (mine.game_id, mine.key, mine.user_id)"
                " RETURNING d.game_id, d.key, d.user_id, d.due, d.reminded, d.left_us",
                moment + lease, moment, _UNFINISHED,
            )
            return sorted((_deadline(row) for row in rows), key=lambda d: (d.due, d.game_id, d.key, d.user_id))

        return await self._transaction(tx)

    async def mark_reminded(self, game_id: int, key: str, user_id: int) -> None:
        refuse_unkeepable(game_id=game_id, key=key, user_id=user_id)
        await self._transaction(lambda c: c.execute(
            "UPDATE deadlines SET reminded = true WHERE game_id = $1 AND key = $2 AND user_id = $3"
            " AND left_us IS NULL",
            game_id, key, user_id,
        ))

    # -- who has read how far, watchers, results (issue 16) ----------------------------------

    async def seen(self, game_id: int) -> list[SeenMark]:
        rows = await self._rows("SELECT user_id, seq, at FROM seen WHERE game_id = $1 ORDER BY user_id", game_id)
        return [SeenMark(r[0], r[1], r[2]) for r in rows]

    async def mark_seen(self, game_id: int, user_id: int, seq: int, at: datetime) -> None:
        refuse_unkeepable(game_id=game_id, user_id=user_id, seq=seq)
        moment = aware(at)
        await self._transaction(lambda c: _mark_seen(c, game_id, user_id, max(seq, 0), moment))

    async def watchers(self, game_id: int) -> list[int]:
        rows = await self._rows("SELECT user_id FROM watchers WHERE game_id = $1 ORDER BY user_id", game_id)
        return [r[0] for r in rows]

    async def set_watching(self, game_id: int, user_id: int, watching: bool) -> bool:
        refuse_unkeepable(game_id=game_id, user_id=user_id)
        sql = ("INSERT INTO watchers (game_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING" if watching
               else "DELETE FROM watchers WHERE game_id = $1 AND user_id = $2")
        done = await self._transaction(lambda c: c.execute(sql, game_id, user_id))
        return done.endswith(" 1")

    async def player_totals(self, guild_id: int, user_id: int | None = None, *,
                            limit: int = 10) -> list[PlayerTotals]:
        rows = await self._rows(
            "SELECT user_id, count(*), count(*) FILTER (WHERE outcome = 'won'), sum(lost), sum(killed)"
            " FROM player_results WHERE guild_id = $1 AND ($2::bigint IS NULL OR user_id = $2)"
            " GROUP BY user_id ORDER BY count(*) DESC, count(*) FILTER (WHERE outcome = 'won') DESC, user_id"
            " LIMIT $3",
            guild_id, user_id, max(limit, 0))
        return [PlayerTotals(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    # -- campaigns (docs/campaigns.md) -----------------------------------------------------

    async def create_campaign(
        self,
        *,
        guild_id: int,
        channel_id: int,
        definition_id: str,
        name: str,
        organiser_id: int,
        state: str,
        status: CampaignStatus = CampaignStatus.ENLISTING,
        log: Sequence[str] = (),
        results: Sequence[StoredResult] = (),
    ) -> StoredCampaign:
        refuse_unkeepable(guild_id=guild_id, channel_id=channel_id, definition_id=definition_id,
                          name=name, organiser_id=organiser_id, state=state, log=log, results=results)
        imported = [(r.number, r.key, r.step, r.scenario_id, r.game_id, ResultStatus(r.status).value,
                     r.body, r.before, r.submitted_by, r.decided_by, aware(r.created_at),
                     aware(r.decided_at) if r.decided_at else None) for r in results]
        now = self._now()

        async def tx(c: Connection) -> int:
            campaign_id = await c.fetchval(
                "INSERT INTO campaigns (guild_id, channel_id, definition_id, name, status,"
                " organiser_id, state, version, created_at, updated_at)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7, 1, $8, $8) RETURNING id",
                guild_id, channel_id, definition_id, name, CampaignStatus(status).value,
                organiser_id, state, now,
            )
            await _append(c, "campaign_log", "campaign_id", campaign_id, 0, log, now)
            if imported:
                await c.executemany(
                    f"INSERT INTO campaign_results ({_RESULT_COLUMNS}) VALUES ({_RESULT_VALUES})",
                    [(campaign_id, *row) for row in imported],
                )
            return campaign_id

        campaign_id = await self._transaction(tx)
        return StoredCampaign(
            id=campaign_id, guild_id=guild_id, channel_id=channel_id, definition_id=definition_id,
            name=name, status=CampaignStatus(status), organiser_id=organiser_id, version=1,
            created_at=now, updated_at=now, state=state,
        )

    async def load_campaign(self, campaign_id: int) -> StoredCampaign:
        rows = await self._rows(f"SELECT {_CAMPAIGN_COLUMNS}, state FROM campaigns WHERE id = $1",
                                campaign_id)
        for row in rows:
            summary = _campaign(row)
            return StoredCampaign(
                **{name: getattr(summary, name) for name in CampaignSummary.__dataclass_fields__},
                state=row[10],
            )
        raise CampaignNotFound(campaign_id)

    async def campaigns_in_channel(
        self, channel_id: int, *, include_finished: bool = False
    ) -> list[CampaignSummary]:
        rows = await self._rows(
            f"SELECT {_CAMPAIGN_COLUMNS} FROM campaigns"
            " WHERE channel_id = $1 AND ($2 OR status != 'finished') ORDER BY id",
            channel_id, include_finished,
        )
        return [_campaign(row) for row in rows]

    async def campaigns_in_guild(self, guild_id: int) -> list[CampaignSummary]:
        rows = await self._rows(f"SELECT {_CAMPAIGN_COLUMNS} FROM campaigns WHERE guild_id = $1 ORDER BY id",
                                guild_id)
        return [_campaign(row) for row in rows]

    async def campaigns(self, ids: Sequence[int]) -> list[CampaignSummary]:
        wanted = sorted({int(i) for i in ids if int(i) in INT64})  # ids beyond 64 bits match none
        if not wanted:
            return []
        rows = await self._rows(
            f"SELECT {_CAMPAIGN_COLUMNS} FROM campaigns WHERE id = ANY($1::bigint[]) ORDER BY id",
            wanted,
        )
        return [_campaign(row) for row in rows]

    async def commit_campaign(
        self,
        campaign_id: int,
        expected_version: int,
        state: str,
        log: Sequence[str] = (),
        *,
        status: CampaignStatus | None = None,
        new_result: NewResult | None = None,
        change: ResultChange | None = None,
    ) -> CampaignCommitted:
        refuse_unkeepable(campaign_id=campaign_id, expected_version=expected_version, state=state,
                          log=log, new_result=new_result, change=change)
        if isinstance(log, str):
            raise TypeError("log is a sequence of JSON texts, not one text")
        now = self._now()

        async def tx(c: Connection) -> tuple[int, int | None]:
            last_seq = await c.fetchval(
                "UPDATE campaigns SET state = $1, version = version + 1, updated_at = $2,"
                " status = coalesce($3, status) WHERE id = $4 AND version = $5"
                " RETURNING (SELECT coalesce(max(seq), 0) FROM campaign_log"
                "            WHERE campaign_id = campaigns.id)",
                state, now, None if status is None else CampaignStatus(status).value,
                campaign_id, expected_version,
            )
            if last_seq is None:
                current = await c.fetchval("SELECT version FROM campaigns WHERE id = $1", campaign_id)
                if current is None:
                    raise CampaignNotFound(campaign_id)
                raise CampaignVersionConflict(campaign_id, expected_version, current)
            number = None
            if new_result is not None:
                number = await _insert_result(c, campaign_id, new_result, now)
            if change is not None:
                await _change_result(c, campaign_id, change, now)
            return await _append(c, "campaign_log", "campaign_id", campaign_id, last_seq, log, now), number

        last_seq, number = await self._transaction(tx)
        return CampaignCommitted(campaign_id, expected_version + 1, last_seq, number)

    async def campaign_results(self, campaign_id: int) -> list[StoredResult]:
        rows = await self._rows(
            f"SELECT {_RESULT_COLUMNS} FROM campaign_results WHERE campaign_id = $1 ORDER BY number",
            campaign_id,
        )
        return [_result(row) for row in rows]

    async def load_result(self, campaign_id: int, number: int) -> StoredResult:
        rows = await self._rows(
            f"SELECT {_RESULT_COLUMNS} FROM campaign_results WHERE campaign_id = $1 AND number = $2",
            campaign_id, number,
        )
        for row in rows:
            return _result(row)
        raise ResultNotFound(campaign_id, number)

    async def campaign_log(self, campaign_id: int, after_seq: int = 0) -> list[CampaignLogEntry]:
        rows = await self._rows(
            "SELECT campaign_id, seq, body, created_at FROM campaign_log"
            " WHERE campaign_id = $1 AND seq > $2 ORDER BY seq",
            campaign_id, seq_bound(after_seq),
        )
        return [CampaignLogEntry(r[0], r[1], r[2], r[3]) for r in rows]


# -- the statements of a transaction, each a function of its connection ----------------------

async def _write_state(c: Connection, game_id: int, expected_version: int, state: str,
                       status: GameStatus | None, now: datetime) -> int:
    """Write the state and bump the version if it is still `expected_version`; return the game's
    last event seq. The WHERE clause is the version check, in the same statement: a second
    writer waits for the first's row lock, then finds the version moved and matches nothing."""
    last_seq = await c.fetchval(
        "UPDATE games SET state = $1, version = version + 1, updated_at = $2,"
        " status = coalesce($3, status) WHERE id = $4 AND version = $5"
        " RETURNING (SELECT coalesce(max(seq), 0) FROM events WHERE game_id = games.id)",
        state, now, None if status is None else GameStatus(status).value, game_id, expected_version,
    )
    if last_seq is not None:
        return last_seq
    current = await c.fetchval("SELECT version FROM games WHERE id = $1", game_id)
    if current is None:
        raise GameNotFound(game_id)
    raise VersionConflict(game_id, expected_version, current)


async def _append(c: Connection, table: str, owner: str, owner_id: int, last_seq: int,
                  bodies: Sequence[str], now: datetime) -> int:
    """Append `bodies` to the log `table` ("events" or "campaign_log") after `last_seq`."""
    if isinstance(bodies, str):
        raise TypeError(f"{table} takes a sequence of JSON texts, not one text")
    if bodies:
        await c.executemany(
            f"INSERT INTO {table} ({owner}, seq, body, created_at) VALUES ($1, $2, $3, $4)",
            [(owner_id, last_seq + n, body, now) for n, body in enumerate(bodies, 1)],
        )
    return last_seq + len(bodies)


async def _snapshot(c: Connection, game_id: int, label: str, seq: int, version: int, state: str,
                    now: datetime) -> None:
    # A label names the latest snapshot taken under it.
    await c.execute(
        "INSERT INTO snapshots (game_id, label, seq, version, state, created_at)"
        " VALUES ($1, $2, $3, $4, $5, $6)"
        " ON CONFLICT (game_id, label) DO UPDATE SET seq = excluded.seq,"
        " version = excluded.version, state = excluded.state, created_at = excluded.created_at",
        game_id, label, seq, version, state, now,
    )


async def _replace_seats(c: Connection, game_id: int, seats: Sequence[Seat]) -> None:
    await c.execute("DELETE FROM seats WHERE game_id = $1", game_id)
    if seats:
        await c.executemany(
            "INSERT INTO seats (game_id, seat_index, side, user_id, display_name)"
            " VALUES ($1, $2, $3, $4, $5)",
            [(game_id, s.seat_index, s.side, s.user_id, s.display_name) for s in seats],
        )


def _dues(awaited: Sequence[Awaited] | None, decisions: Sequence[SeatDecision] | None) -> list[datetime]:
    """The due times of `awaited`; refuses (ValueError) a naive time there or in `decisions`."""
    for d in decisions or ():
        if d.sent_at is not None:
            aware(d.sent_at)
    return [aware(a.due) for a in awaited or ()]


async def _replace_deadlines(c: Connection, game_id: int, awaited: Sequence[Awaited],
                             dues: Sequence[datetime]) -> None:
    """Make the game's deadlines exactly `awaited`; one whose due time is unchanged keeps its
    reminded flag and its claim, so a commit does not re-send a reminder already sent nor free
    a deadline another process is carrying out."""
    await c.execute(
        "DELETE FROM deadlines WHERE game_id = $1"
        " AND (key, user_id) NOT IN (SELECT * FROM unnest($2::text[], $3::bigint[]))",
        game_id, [a.key for a in awaited], [a.user_id for a in awaited],
    )
    if awaited:
        await c.executemany(
            "INSERT INTO deadlines (game_id, key, user_id, due, reminded, left_us)"
            " VALUES ($1, $2, $3, $4, false, $5)"
            " ON CONFLICT (game_id, key, user_id) DO UPDATE SET due = excluded.due,"
            " reminded = (deadlines.reminded AND deadlines.due = excluded.due),"
            " claimed_until = CASE WHEN deadlines.due = excluded.due THEN deadlines.claimed_until END,"
            " left_us = excluded.left_us",
            [(game_id, a.key, a.user_id, due, microseconds(a.left)) for a, due in zip(awaited, dues, strict=True)],
        )


async def _mark_seen(c: Connection, game_id: int, user_id: int, seq: int, at: datetime) -> None:
    await c.execute(
        "INSERT INTO seen (game_id, user_id, seq, at) VALUES ($1, $2, $3, $4)"
        " ON CONFLICT (game_id, user_id) DO UPDATE SET seq = greatest(seen.seq, excluded.seq),"
        " at = greatest(seen.at, excluded.at)",
        game_id, user_id, seq, at)


async def _replace_decisions(c: Connection, game_id: int, decisions: Sequence[SeatDecision]) -> None:
    """Replace the records of the seats named; the other seats' stay."""
    await c.executemany(
        "INSERT INTO seat_decisions (game_id, seat, asked, asked_version, answered, command, sent_at)"
        " VALUES ($1, $2, $3, $4, $5, $6, $7)"
        " ON CONFLICT (game_id, seat) DO UPDATE SET asked = excluded.asked,"
        " asked_version = excluded.asked_version, answered = excluded.answered,"
        " command = excluded.command, sent_at = excluded.sent_at",
        [(game_id, d.seat, d.asked, d.asked_version, d.answered, d.command, d.sent_at) for d in decisions],
    )


async def _insert_result(c: Connection, campaign_id: int, r: NewResult, now: datetime) -> int:
    taken = await c.fetchval(
        "SELECT number FROM campaign_results WHERE campaign_id = $1 AND key = $2", campaign_id, r.key)
    if taken is not None:
        raise DuplicateResult(campaign_id, r.key, taken)
    return await c.fetchval(
        "INSERT INTO campaign_results (campaign_id, number, key, step, scenario_id, game_id,"
        " status, body, before, submitted_by, decided_by, created_at, decided_at)"
        " VALUES ($1, (SELECT coalesce(max(number), 0) + 1 FROM campaign_results"
        "              WHERE campaign_id = $1), $2, $3, $4, $5, 'pending', $6, NULL, $7, NULL, $8, NULL)"
        " RETURNING number",
        campaign_id, r.key, r.step, r.scenario_id, r.game_id, r.body, r.submitted_by, now,
    )


async def _change_result(c: Connection, campaign_id: int, change: ResultChange, now: datetime) -> None:
    before = change.before if change.status == ResultStatus.CONFIRMED else None
    if change.status == ResultStatus.CONFIRMED and before is None:
        raise StoreError("confirming a result keeps the campaign before it: give `before`")
    changed = await c.fetchval(
        "UPDATE campaign_results SET status = $1, before = $2, decided_by = $3, decided_at = $4"
        " WHERE campaign_id = $5 AND number = $6 AND status = $7 RETURNING number",
        ResultStatus(change.status).value, before, change.decided_by,
        now if change.status != ResultStatus.PENDING else None,
        campaign_id, change.number, ResultStatus(change.expected).value,
    )
    if changed is not None:
        return
    current = await c.fetchval(
        "SELECT status FROM campaign_results WHERE campaign_id = $1 AND number = $2",
        campaign_id, change.number,
    )
    if current is None:
        raise ResultNotFound(campaign_id, change.number)
    raise ResultConflict(campaign_id, change.number, ResultStatus(change.expected).value, current)
