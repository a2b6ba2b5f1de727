"""`SqliteStore`: the `GameStore` (and the `CampaignStore`) on one SQLite file through aiosqlite.

    async with SqliteStore("fieldpost.db") as store:
        game = await store.load_game(7)
        await store.commit(7, game.version, new_state, [event_json])

Two connections. Every write transaction runs whole, in one call, on the writer's own thread
(`_Writer`), inside a SAVEPOINT of a batch that the thread commits at once (group commit):
no other statement can land inside it, a failing one rolls back alone, and the event loop
waits for it only once. A batch's consecutive `commit`s are applied by one statement
(sqlite_commits.py), so the writer needs the GIL back a handful of times a batch rather than a
dozen a commit; if it fails they run the slow way, each in its SAVEPOINT, and the guilty caller
hears what he always heard. Transactions run in the order they were asked for. Reads go through aiosqlite on the
reader, where WAL shows each statement the last committed data and never a half-done
transaction.
"""
from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import suppress
from datetime import UTC, datetime, timedelta
from functools import lru_cache, partial
from pathlib import Path
from queue import Empty, SimpleQueue
from time import monotonic
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self, TypeVar

import aiosqlite

from bot.store import sqlite_commits
from bot.store.campaign_statuses import CampaignStatus, ResultStatus
from bot.store.database_file import (
    check_file,
    describe,
    is_busy,
    is_unavailable,
    opening_error,
)
from bot.store.keepable import (
    INT64,
    aware,
    findable,
    microseconds,
    refuse_unkeepable,
    seq_bound,
)
from bot.store.migrations import MIGRATIONS, migrate
from bot.store.protocol import (
    UNFINISHED,
    Awaited,
    Committed,
    Deadline,
    Event,
    GameNotFound,
    GameStatus,
    GameSummary,
    JsonText,
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
from bot.store.sqlite_commits import FastCommit
from bot.store.trouble import Trouble

if TYPE_CHECKING:
    from bot.store.campaigns import (
        CampaignCommitted,
        CampaignLogEntry,
        CampaignSummary,
        NewResult,
        ResultChange,
        StoredCampaign,
        StoredResult,
    )

log = logging.getLogger(__name__)

# How long SQLite's own busy handler waits for a lock another connection holds (a VACUUM, an
# admin's sqlite3 shell, a second process), per statement and on every connection. It polls,
# sleeping at most 100 ms between tries, so short transactions elsewhere never reach us.
BUSY_TIMEOUT_S = 3.0
# Then the writer tries BEGIN again after each of these pauses before its callers hear "busy":
# at most 3 x 3 s + 0.5 s + 1 s = 10.5 s, about as long as a player watches Discord's
# "thinking..." before he would rather be told to try again.
BUSY_BACKOFF_S = (0.5, 1.0)
# What a power loss or an OS crash can take (docs/store.md, Durability): SQLite makes the WAL's
# commits durable at a checkpoint (an fsync of the WAL, then of the file). The writer runs one
# itself once this long has passed since the first commit after the last one, as soon as nothing
# is waiting for it; SQLite's own, by pages (`CHECKPOINT_PAGES`), bounds a stream that never
# leaves it a moment (under a second of commands at full speed). At the default
# 1,000 pages a checkpoint came every 100 or so commands: dozens a second under load (some 20% of
# the writer's CPU, fsyncs included), and days apart on a quiet server, whose last commands a
# power loss could then take.
SYNCED_WITHIN_S = 1.0
CHECKPOINT_PAGES = 8_000


def _check_json(db: sqlite3.Connection, state: str) -> None:
    """Refuse a state's text that is not JSON, unless its maker vouched for it (`JsonText`): the
    column's CHECK of old, on the writer's connection (temp fp_json's CHECK raises the same
    IntegrityError), inside the caller's transaction, so a refusal leaves nothing written."""
    if type(state) is not JsonText:
        db.execute(sqlite_commits.CHECK_JSON, (state,))


_WRITE_STATE = ("UPDATE games SET state = ?, version = version + 1, updated_at = ? WHERE id = ? AND version = ?"
                " RETURNING (SELECT coalesce(max(seq), 0) FROM events WHERE game_id = games.id)")
_WRITE_STATE_AND_STATUS = (
    "UPDATE games SET state = ?, version = version + 1, updated_at = ?, status = ? WHERE id = ? AND version = ?"
    " RETURNING (SELECT coalesce(max(seq), 0) FROM events WHERE game_id = games.id)")


def _connection_pragmas(busy_timeout: float) -> tuple[str, ...]:
    # Durability: WAL with synchronous=NORMAL. A COMMIT has reached the WAL file in the OS page
    # cache when it returns, so it survives SIGKILL or any crash of this process; only a power
    # loss or OS crash before the next checkpoint's fsync can lose the last transactions (about a
    # second's: SYNCED_WITHIN_S), and even then the file stays consistent (atomic, never corrupt).
    # FULL would fsync on every commit, costing a disk flush per move for a risk a play-by-post
    # game can bear.
    return (
        "PRAGMA foreign_keys = ON",
        "PRAGMA synchronous = NORMAL",
        f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}",
    )


# A throwaway database (the console's game without --db, deleted as the run ends) skips every
# fsync: durability it cannot use cost a loaded disk 50-130 ms of a `fieldpost play` start.
THROWAWAY_PRAGMAS = ("PRAGMA synchronous = OFF",)


_SUMMARY_COLUMNS = (
    "id, guild_id, channel_id, thread_id, scenario_id, status, organiser_id, version,"
    " created_at, updated_at, paused_at"
)
_DEADLINE_COLUMNS = "game_id, key, user_id, due, reminded, left_us"


def _utc_now() -> datetime:
    return datetime.now(UTC)


_UTC_TEXT = "%04d-%02d-%02dT%02d:%02d:%02d.%06d+00:00"  # isoformat(timespec="microseconds") of a UTC time


@lru_cache(maxsize=4096)
def stamp(moment: datetime) -> str:
    """UTC ISO 8601 with fixed microseconds, so comparing the text compares the times.
    Remembered: a game's deadlines and decisions carry the same moments from commit to commit
    (equal instants make the same text whatever their zone; a naive one raises, never kept).
    A moment already in UTC (the clocks' and the service's) is written by one %-format, the text
    `isoformat` makes of it, at about a third of isoformat's cost: two new moments a commit."""
    if moment.tzinfo is UTC:
        return _UTC_TEXT % (moment.year, moment.month, moment.day, moment.hour, moment.minute, moment.second,
                            moment.microsecond)
    return aware(moment).astimezone(UTC).isoformat(timespec="microseconds")


def unstamp(text: str) -> datetime:
    return datetime.fromisoformat(text)


def _summary(row: Sequence[Any]) -> GameSummary:
    return GameSummary(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        thread_id=row[3],
        scenario_id=row[4],
        status=GameStatus(row[5]),
        organiser_id=row[6],
        version=row[7],
        created_at=unstamp(row[8]),
        updated_at=unstamp(row[9]),
        paused_at=None if row[10] is None else unstamp(row[10]),
    )


_CAMPAIGN_COLUMNS = (
    "id, guild_id, channel_id, definition_id, name, status, organiser_id, version, created_at, updated_at"
)
_RESULT_COLUMNS = (
    "campaign_id, number, key, step, scenario_id, game_id, status, body, before, submitted_by,"
    " decided_by, created_at, decided_at"
)


def _campaign(row: Sequence[Any]) -> CampaignSummary:
    from bot.store.campaigns import CampaignSummary

    return CampaignSummary(
        id=row[0], guild_id=row[1], channel_id=row[2], definition_id=row[3], name=row[4],
        status=CampaignStatus(row[5]), organiser_id=row[6], version=row[7],
        created_at=unstamp(row[8]), updated_at=unstamp(row[9]),
    )


def _result(row: Sequence[Any]) -> StoredResult:
    from bot.store.campaigns import StoredResult

    return StoredResult(
        campaign_id=row[0], number=row[1], key=row[2], step=row[3], scenario_id=row[4], game_id=row[5],
        status=ResultStatus(row[6]), body=row[7], before=row[8], submitted_by=row[9], decided_by=row[10],
        created_at=unstamp(row[11]), decided_at=unstamp(row[12]) if row[12] else None,
    )


def _by_index(seat: Seat) -> int:
    return seat.seat_index


def _deadline(row: Sequence[Any]) -> Deadline:
    return Deadline(
        game_id=row[0], key=row[1], user_id=row[2], due=unstamp(row[3]), reminded=bool(row[4]),
        left=None if row[5] is None else timedelta(microseconds=row[5]),
    )


def _seat_decision(row: Sequence[Any]) -> SeatDecision:
    return SeatDecision(seat=row[0], asked=row[1], asked_version=row[2], answered=row[3],
                        command=row[4], sent_at=None if row[5] is None else unstamp(row[5]))


T = TypeVar("T")


_CLOSE = "close"


def _again(failure: StoreUnavailable) -> StoreUnavailable:
    """A fresh error for each caller, so no two callers share one traceback."""
    return StoreUnavailable(failure.reason, busy=failure.busy)


def _refusal(exc: BaseException) -> BaseException:
    """What a caller hears when his transaction raised: a value SQLite cannot bind becomes a
    `StoreError` (the store's methods name the argument before this; this is the backstop)."""
    if isinstance(exc, OverflowError | UnicodeEncodeError):
        refused = StoreError(f"the store cannot keep a value it was given ({exc})")
        refused.__cause__ = exc
        return refused
    return exc


def _told(items: Sequence[tuple[FastCommit, asyncio.Future]], found: Sequence[tuple[int | None, bool, int | None]]
          ) -> list[tuple[asyncio.Future, Any, BaseException | None]]:
    """What each caller of a part of fast commits hears, from its outcome read back
    (sqlite_commits.outcomes): his last seq, or the conflict or missing game the slow way names."""
    told: list[tuple[asyncio.Future, Any, BaseException | None]] = []
    for (tx, done), (current, applied, last_seq) in zip(items, found, strict=True):
        if applied:
            told.append((done, last_seq, None))
        elif current is None:
            told.append((done, None, GameNotFound(tx.game_id)))
        else:
            told.append((done, None, VersionConflict(tx.game_id, tx.expected, current)))
    return told


class _Writer:
    """The writing connection and the one thread it lives on.

    A transaction is a function of the connection, run there whole, so the event loop awaits
    it once however many statements it has. Group commit: the thread takes every transaction
    already waiting, runs each inside its own SAVEPOINT (one that fails, say on a version
    conflict, is rolled back alone and its caller gets the error), then commits them all with
    one COMMIT. A caller hears back only after that COMMIT, so nothing reported is ever lost.
    Transactions run in the order they were asked for. A caller cancelled while his
    transaction waits drops it; one cancelled while it runs finds it done either way.

    The thread outlives every failure: a lock held elsewhere is waited for (SQLite's busy
    timeout, then BEGIN again after each pause of `backoff`), then the batch's callers, and
    those already waiting behind them, get `StoreUnavailable(busy=True)`. A full disk or an I/O
    error rolls the whole batch back and its callers get `StoreUnavailable`. The next batch
    starts afresh (on a new connection if the old one could not even roll back)."""

    MAX_BATCH = 64

    def __init__(self, path: Path, *, busy_timeout: float, backoff: Sequence[float],
                 pragmas: tuple[str, ...] = (), synced_within: float | None = SYNCED_WITHIN_S) -> None:
        self.path = path
        self._pragmas = (*_connection_pragmas(busy_timeout), *pragmas,
                         f"PRAGMA wal_autocheckpoint = {CHECKPOINT_PAGES}")
        self._synced_within = synced_within  # None: no checkpoint of its own (a throwaway database)
        self._unsynced_since: float | None = None  # the monotonic time of the first commit since the last one
        self._busy_timeout = busy_timeout
        self._backoff = tuple(backoff)
        self._queue: SimpleQueue = SimpleQueue()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._gate = threading.Lock()  # a caller's put and the dying thread's last drain never cross
        self._dead: str | None = None
        self._closing = threading.Event()  # set by close(): no more back-off waits
        self._trouble = Trouble(path, "write to the database", describe=lambda exc: describe(path, exc), busy=is_busy)

    @property
    def patience(self) -> float:
        """The longest a batch waits for another connection's lock before its callers are told."""
        return self._busy_timeout * (len(self._backoff) + 1) + sum(self._backoff)

    async def open(self) -> None:
        self._loop = asyncio.get_running_loop()
        ready = self._loop.create_future()
        self._thread = threading.Thread(target=self._serve, args=(ready,), name="fieldpost-writer", daemon=True)
        self._thread.start()
        try:
            await ready
        except BaseException:
            await asyncio.to_thread(self._thread.join, self.patience)
            self._thread = None
            raise

    def _connect(self) -> sqlite3.Connection:
        # isolation_level=None: sqlite3 opens no implicit transactions; BEGIN is ours.
        conn = sqlite3.connect(self.path, isolation_level=None, timeout=self._busy_timeout)
        try:
            for pragma in self._pragmas:
                conn.execute(pragma)
            sqlite_commits.install(conn)
        except BaseException:
            conn.close()
            raise
        return conn

    async def run(self, tx: Callable[[sqlite3.Connection], T]) -> T:
        if self._thread is None:
            raise StoreError(f"{self.path} is not open")
        done = self._loop.create_future()
        with self._gate:
            if self._dead is not None:
                raise StoreUnavailable(self._dead)
            self._queue.put((tx, done))
        return await done

    @staticmethod
    def _settle(done: asyncio.Future, out: Any, error: BaseException | None) -> None:
        if done.done():  # cancelled by its caller, or already failed by a dying thread
            return
        if error is None:
            done.set_result(out)
        else:
            done.set_exception(error)

    @classmethod
    def _settle_all(cls, outcomes: list[tuple[asyncio.Future, Any, BaseException | None]]) -> None:
        for done, out, error in outcomes:
            cls._settle(done, out, error)

    def _notify(self, done: asyncio.Future, out: Any, error: BaseException | None) -> None:
        self._notify_all([(done, out, error)])

    def _notify_all(self, outcomes: list[tuple[asyncio.Future, Any, BaseException | None]]) -> None:
        """Hand the outcomes to the event loop in one wake-up (a batch's, in their order)."""
        try:
            self._loop.call_soon_threadsafe(self._settle_all, outcomes)
        except RuntimeError:  # the event loop has closed: nobody is waiting any more
            pass

    def _serve(self, ready: asyncio.Future) -> None:
        try:
            conn: sqlite3.Connection | None = self._connect()
        except BaseException as exc:  # noqa: BLE001 (handed to the opener)
            self._notify(ready, None, opening_error(self.path, exc) or exc)
            return
        self._notify(ready, None, None)
        closing: asyncio.Future | None = None
        batch: list = []
        try:
            while closing is None:
                batch, closing = self._take(self._until_checkpoint())
                if batch:
                    conn, drained_to_close = self._run_batch(conn, batch)
                    closing = closing or drained_to_close
                    if self._unsynced_since is None and self._synced_within is not None:
                        self._unsynced_since = monotonic()
                batch = []
                if closing is None and self._until_checkpoint() == 0 and self._queue.empty():
                    self._checkpoint(conn)
        except BaseException as exc:  # a fault of the writer itself: fail everyone, hang no one
            log.critical("the writer thread of %s failed; every write now fails until a restart",
                         self.path, exc_info=True)
            failure = StoreUnavailable(f"{self.path}: the writer thread failed ({exc!r})")
            with self._gate:
                self._dead = failure.reason
                closing = self._drain(failure) or closing
            for _, done in batch:
                self._notify(done, None, _again(failure))
        finally:
            if conn is not None:
                with suppress(sqlite3.Error):
                    conn.close()
            if closing is not None:
                self._notify(closing, None, None)

    def _take(self, timeout: float | None = None) -> tuple[list, asyncio.Future | None]:
        """Wait for the next transaction (at most `timeout` seconds: then no batch) and take those
        already waiting behind it (at most MAX_BATCH); stop at close()'s marker, which comes after
        everything asked before it."""
        batch: list = []
        try:
            item = self._queue.get(timeout=timeout)
        except Empty:
            return batch, None
        while True:
            if item[0] is _CLOSE:
                return batch, item[1]
            batch.append(item)
            if len(batch) >= self.MAX_BATCH:
                return batch, None
            try:
                item = self._queue.get_nowait()
            except Empty:
                return batch, None

    def _until_checkpoint(self) -> float | None:
        """How long until the writer's own checkpoint is due (0: now; None: nothing to make durable)."""
        if self._unsynced_since is None:
            return None
        return max(0.0, self._unsynced_since + self._synced_within - monotonic())

    def _checkpoint(self, conn: sqlite3.Connection | None) -> None:
        """A PASSIVE checkpoint: the WAL fsynced, then as much of it copied into the file as no
        reader still needs, without waiting for anyone. If it cannot run (no connection, another
        connection's checkpoint, an I/O error), it is tried again `synced_within` later; a failure
        of the disk is the next batch's to report."""
        if conn is None or conn.in_transaction:
            self._unsynced_since = monotonic()
            return
        try:
            conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        except sqlite3.Error:
            log.info("a checkpoint of %s did not run; trying again later", self.path, exc_info=True)
            self._unsynced_since = monotonic()
            return
        self._unsynced_since = None

    def _run_batch(
        self, conn: sqlite3.Connection | None, batch: list
    ) -> tuple[sqlite3.Connection | None, asyncio.Future | None]:
        """Run and commit one batch; return the connection for the next one (None: reconnect)
        and close()'s marker if failing the waiting transactions reached it."""
        if conn is not None and all(type(item[0]) is FastCommit for item in batch):
            batch = self._commits_alone(conn, batch)
            if not batch:
                return conn, None
        outcomes: list[tuple[asyncio.Future, Any, BaseException | None]] = []
        closing = None
        try:
            if conn is None:
                conn = self._connect()
            self._begin(conn)
            start = 0
            while start < len(batch):
                end = start
                while end < len(batch) and isinstance(batch[end][0], FastCommit):
                    end += 1
                if end > start:  # a run of commits: one statement (sqlite_commits.py)
                    self._run_commits(conn, batch[start:end], outcomes)
                    start = end
                    continue
                tx, done = batch[start]
                start += 1
                if not done.cancelled():  # else its caller gave up before its turn came
                    outcomes.append(self._run_one(conn, tx, done))
            conn.execute("COMMIT")
        except BaseException as exc:  # noqa: BLE001 (nothing of this batch was written)
            failure = self._failure(exc)
            conn = self._abandon(conn)
            refused = {id(done): error for done, _, error in outcomes if error is not None}
            outcomes = [(done, None, refused.get(id(done)) or _again(failure)) for _, done in batch]
            if failure.busy:  # those waiting behind this batch waited for the same lock
                closing = self._drain(failure)
        else:
            self._trouble.ok()
        self._notify_all(outcomes)
        return conn, closing

    @staticmethod
    def _run_one(conn: sqlite3.Connection, tx: Callable[[sqlite3.Connection], Any],
                 done: asyncio.Future) -> tuple[asyncio.Future, Any, BaseException | None]:
        """One transaction inside its own SAVEPOINT: a failing one is rolled back alone."""
        conn.execute("SAVEPOINT one")
        try:
            out = tx(conn)
        except BaseException as exc:  # handed to its caller
            if is_unavailable(exc) or not conn.in_transaction:
                raise  # SQLite may have rolled the whole batch back: it cannot go on
            conn.execute("ROLLBACK TO one")
            conn.execute("RELEASE one")
            return done, None, _refusal(exc)
        conn.execute("RELEASE one")
        return done, out, None

    def _run_commits(self, conn: sqlite3.Connection, run: list,
                     outcomes: list[tuple[asyncio.Future, Any, BaseException | None]]) -> None:
        """A run of consecutive commits, each statement applying as many as its bound values
        allow. A statement that fails has written nothing (SQLite undoes a failed statement
        whole): its commits then run the slow way, one SAVEPOINT each, and the guilty one's
        caller hears exactly what the slow way says."""
        wanted = [(tx, done) for tx, done in run if not done.cancelled()]
        limit = conn.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)
        for part in sqlite_commits.runs([tx for tx, _ in wanted], limit):
            items, wanted = wanted[:len(part)], wanted[len(part):]
            try:
                sqlite_commits.insert(conn, part)
            except Exception as exc:  # the slow way tells who is at fault
                if is_unavailable(exc) or not conn.in_transaction:
                    raise
            else:  # written: from here a failure fails the batch (rolled back whole)
                outcomes += _told(items, sqlite_commits.outcomes(conn, len(part)))
                continue
            for tx, done in items:
                if not done.cancelled():
                    outcomes.append(self._run_one(conn, tx, done))

    def _commits_alone(self, conn: sqlite3.Connection, batch: list) -> list:
        """A batch of commits only: each part (sqlite_commits.runs) is its own transaction, the
        one INSERT run outside BEGIN ... COMMIT, so SQLite takes the write lock and commits
        inside that one call. In a transaction the writer held the lock while it waited for the
        GIL after BEGIN, after the INSERT and after reading the outcomes, and another process on
        the file waited that long for it (docs/store.md, "Several processes"). The outcomes are
        read after, from temp `fp_out`. Returns what is left for the usual way (a transaction
        with a SAVEPOINT each): from a part whose INSERT failed on, that part's commits the
        slow way unless the failure was another connection's lock (then it is waited for
        there, as any batch's)."""
        outcomes: list[tuple[asyncio.Future, Any, BaseException | None]] = []
        wanted = [(tx, done) for tx, done in batch if not done.cancelled()]
        left: list = []
        for part in sqlite_commits.runs([tx for tx, _ in wanted], conn.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)):
            items, wanted = wanted[:len(part)], wanted[len(part):]
            try:
                sqlite_commits.insert(conn, part)
            except Exception as exc:  # noqa: BLE001 (nothing of the part was written)
                left = items if is_busy(exc) else [(tx.slow, done) for tx, done in items]
                left += wanted
                break
            try:
                found = sqlite_commits.outcomes(conn, len(part))
            except Exception as exc:
                log.error("a write on %s was committed but its outcome could not be read; its callers are"
                          " told it was saved but not confirmed", self.path, exc_info=exc)
                failure = StoreUnavailable(f"{self.path}: a write was committed but its outcome could not be"
                                           f" read ({exc!r})", written=True)
                outcomes += [(done, None, failure) for _, done in items]
                left = wanted
                break
            self._trouble.ok()
            outcomes += _told(items, found)
        if outcomes:
            self._notify_all(outcomes)
        return left

    def _begin(self, conn: sqlite3.Connection) -> None:
        """BEGIN IMMEDIATE, waiting out another connection's write lock: SQLite's busy handler
        waits `busy_timeout` each time, and between tries the writer pauses per `backoff`."""
        pauses = iter(self._backoff)
        while True:
            try:
                conn.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.Error as exc:
                pause = next(pauses, None)
                if not is_busy(exc) or pause is None or self._closing.is_set():
                    raise
                log.info("%s is locked by another connection; trying again in %.2f s", self.path, pause)
                if self._closing.wait(pause):
                    raise

    def _failure(self, exc: BaseException) -> StoreUnavailable:
        if is_unavailable(exc):
            return self._trouble.unavailable(exc)
        log.error("a write on %s failed unexpectedly; rolled back", self.path, exc_info=exc)
        return StoreUnavailable(f"{self.path}: {exc!r}")

    def _abandon(self, conn: sqlite3.Connection | None) -> sqlite3.Connection | None:
        """Roll back whatever is open; a connection that cannot is closed and replaced next time."""
        if conn is None:
            return None
        try:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            return conn
        except sqlite3.Error:
            log.warning("cannot roll back on %s; the writer reconnects", self.path, exc_info=True)
            with suppress(sqlite3.Error):
                conn.close()
            return None

    def _drain(self, failure: StoreUnavailable | StoreError) -> asyncio.Future | None:
        """Fail every transaction still waiting; return close()'s marker if it was among them."""
        closing = None
        while True:
            try:
                item = self._queue.get_nowait()
            except Empty:
                return closing
            if item[0] is _CLOSE:
                closing = item[1]
            elif isinstance(failure, StoreUnavailable):
                self._notify(item[1], None, _again(failure))
            else:
                self._notify(item[1], None, StoreError(str(failure)))

    async def close(self) -> None:
        """Stop the thread once every transaction already asked for is done, waiting at most a
        batch's patience and a second: a thread that does not stop by then is left behind (it
        is a daemon) and the log says so; close() itself always returns."""
        thread, self._thread = self._thread, None
        if thread is None:
            return
        self._closing.set()
        done = self._loop.create_future()
        with self._gate:
            if self._dead is None:
                self._queue.put((_CLOSE, done))
            else:
                done.set_result(None)
        wait = self.patience + 1.0
        try:
            await asyncio.wait_for(asyncio.shield(done), wait)
        except TimeoutError:
            log.error("the writer thread of %s did not stop within %.1f s; leaving it behind", self.path, wait)
            with self._gate:
                self._dead = f"{self.path} is closed"
                self._drain(StoreError(self._dead))
            return
        await asyncio.to_thread(thread.join, wait)
        if thread.is_alive():
            log.error("the writer thread of %s did not end within %.1f s; leaving it behind", self.path, wait)


class _Reads:
    """The reading connection (aiosqlite), answering in the store's terms: a busy or failing
    database is `StoreUnavailable`, and a key SQLite cannot hold (an id beyond 64 bits, text
    with a lone surrogate) matches no row, since no row can hold it."""

    def __init__(self, conn: aiosqlite.Connection, path: Path, busy_timeout: float) -> None:
        self._conn = conn
        self._path = path
        self._busy_timeout = busy_timeout
        self._trouble = Trouble(path, "read the database", describe=lambda exc: describe(path, exc), busy=is_busy)

    async def execute_fetchall(self, sql: str, parameters: Sequence[Any] = ()) -> Iterable[Any]:
        try:
            rows = await self._conn.execute_fetchall(sql, parameters)
        except (OverflowError, UnicodeEncodeError):
            return []
        except sqlite3.Error as exc:
            if not is_unavailable(exc):
                raise
            raise self._trouble.unavailable(exc) from exc
        self._trouble.ok()
        return rows

    async def close(self) -> None:
        wait = self._busy_timeout + 1.0  # a read in SQLite's busy wait finishes within its timeout
        try:
            await asyncio.wait_for(self._conn.close(), wait)
        except TimeoutError:
            log.error("the reader of %s did not close within %.1f s; leaving it behind", self._path, wait)


class SqliteStore:
    """A `GameStore` on the SQLite file at `path`; checks and migrates it on open.

    `busy_timeout` and `busy_backoff` bound how long a write waits for a lock held by another
    connection (docs/store.md, When the database fails); tests make them small. `synced_within`:
    at most how many seconds after a commit it is made durable against a power loss (the writer's
    own checkpoint; docs/store.md, Durability). `durable=False`: a database nobody keeps (the
    console's throwaway game), never flushed to the disk."""

    def __init__(
        self,
        path: str | Path,
        *,
        clock: Callable[[], datetime] = _utc_now,
        busy_timeout: float = BUSY_TIMEOUT_S,
        busy_backoff: Sequence[float] = BUSY_BACKOFF_S,
        durable: bool = True,
        synced_within: float = SYNCED_WITHIN_S,
    ) -> None:
        if not 0 < synced_within < float("inf"):
            raise ValueError(f"synced_within must be a number of seconds above 0, not {synced_within!r}")
        self.path = Path(path)
        self._pragmas = () if durable else THROWAWAY_PRAGMAS
        self._synced_within = synced_within if durable else None
        self._clock = clock
        self._busy_timeout = busy_timeout
        self._busy_backoff = tuple(busy_backoff)
        self._writer: _Writer | None = None
        self._reader: _Reads | None = None

    # -- lifecycle -------------------------------------------------------------------------

    async def open(self) -> Self:
        """Check the file (`check_file`: BadDatabase if it is empty, damaged or foreign), migrate
        it (SchemaTooNew if a newer Fieldpost made it), then connect the writer and the reader."""
        if self._writer is not None:
            raise StoreError(f"{self.path} is already open")
        await asyncio.to_thread(self._prepare)
        writer = _Writer(self.path, busy_timeout=self._busy_timeout, backoff=self._busy_backoff,
                         pragmas=self._pragmas, synced_within=self._synced_within)
        await writer.open()
        try:
            reader = await self._connect_reader()
        except BaseException:
            await writer.close()
            raise
        self._writer, self._reader = writer, reader
        return self

    def _prepare(self) -> None:
        check_file(self.path, timeout=self._busy_timeout)
        try:
            migrate(self.path, MIGRATIONS, timeout=self._busy_timeout, pragmas=self._pragmas)
        except sqlite3.Error as exc:
            raise (opening_error(self.path, exc) or exc) from exc

    async def _connect_reader(self) -> _Reads:
        try:
            reader = await aiosqlite.connect(self.path, isolation_level=None, timeout=self._busy_timeout)
        except sqlite3.Error as exc:
            raise (opening_error(self.path, exc) or exc) from exc
        try:
            for pragma in (*_connection_pragmas(self._busy_timeout), *self._pragmas, "PRAGMA query_only = ON"):
                await reader.execute(pragma)
        except BaseException as exc:
            await reader.close()
            if isinstance(exc, sqlite3.Error) and opening_error(self.path, exc):
                raise opening_error(self.path, exc) from exc
            raise
        return _Reads(reader, self.path, self._busy_timeout)

    async def close(self) -> None:
        """Always returns: transactions already asked for finish first, within the writer's bound."""
        writer, reader = self._writer, self._reader
        self._writer = self._reader = None
        if writer is not None:
            await writer.close()  # transactions already asked for finish first
        if reader is not None:
            await reader.close()

    async def __aenter__(self) -> Self:
        return await self.open()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    def _read(self) -> _Reads:
        if self._reader is None:
            raise StoreError(f"{self.path} is not open")
        return self._reader

    async def _write(self, tx: Callable[[sqlite3.Connection], T]) -> T:
        """Run one write transaction, whole, on the writer's thread."""
        if self._writer is None:
            raise StoreError(f"{self.path} is not open")
        return await self._writer.run(tx)

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
        now = stamp(self._clock())

        def tx(db: sqlite3.Connection) -> int:
            cursor = db.execute(
                "INSERT INTO games (guild_id, channel_id, thread_id, scenario_id, status,"
                " organiser_id, state, version, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?)",
                (guild_id, channel_id, thread_id, scenario_id, GameStatus(status).value,
                 organiser_id, state, now, now),
            )
            game_id = cursor.lastrowid
            assert game_id is not None
            _check_json(db, state)
            self._replace_seats(db, game_id, seats)
            last_seq = self._append(db, game_id, 0, events, now)
            if snapshot is not None:
                self._snapshot(db, game_id, snapshot, last_seq, 1, state, now)
            return game_id

        game_id = await self._write(tx)
        return StoredGame(
            id=game_id,
            guild_id=guild_id,
            channel_id=channel_id,
            thread_id=thread_id,
            scenario_id=scenario_id,
            status=GameStatus(status),
            organiser_id=organiser_id,
            version=1,
            created_at=unstamp(now),
            updated_at=unstamp(now),
            state=state,
            seats=tuple(sorted(seats, key=_by_index)),
        )

    async def load_game(self, game_id: int) -> StoredGame:
        # One statement, so the game row and its seats come from the same committed instant.
        rows = await self._read().execute_fetchall(
            f"SELECT {_SUMMARY_COLUMNS}, state,"
            " (SELECT json_group_array(json_array(seat_index, side, user_id, display_name))"
            "  FROM seats WHERE seats.game_id = games.id)"
            " FROM games WHERE id = ?",
            (game_id,),
        )
        for row in rows:
            summary = _summary(row)
            seats = sorted((Seat(*seat) for seat in json.loads(row[12])), key=_by_index)
            return StoredGame(
                **{name: getattr(summary, name) for name in GameSummary.__dataclass_fields__},
                state=row[11],
                seats=tuple(seats),
            )
        raise GameNotFound(game_id)

    async def unfinished_games(self) -> list[GameSummary]:
        rows = await self._read().execute_fetchall(
            f"SELECT {_SUMMARY_COLUMNS} FROM games WHERE status IN (?, ?) ORDER BY id",
            tuple(status.value for status in UNFINISHED),
        )
        return [_summary(row) for row in rows]

    async def games_in_channel(
        self, channel_id: int, *, include_finished: bool = False
    ) -> list[GameSummary]:
        rows = await self._read().execute_fetchall(
            f"SELECT {_SUMMARY_COLUMNS} FROM games"
            " WHERE (channel_id = ?1 OR thread_id = ?1)"
            " AND (?2 OR status IN (?3, ?4)) ORDER BY id",
            (channel_id, include_finished, *(status.value for status in UNFINISHED)),
        )
        return [_summary(row) for row in rows]

    async def games_of_user(self, user_id: int, *, include_finished: bool = False) -> list[GameSummary]:
        rows = await self._read().execute_fetchall(
            f"SELECT {_SUMMARY_COLUMNS} FROM games"
            " WHERE id IN (SELECT game_id FROM seats WHERE user_id = ?1)"
            " AND (?2 OR status IN (?3, ?4)) ORDER BY id",
            (user_id, include_finished, *(status.value for status in UNFINISHED)),
        )
        return [_summary(row) for row in rows]

    async def set_thread(self, game_id: int, thread_id: int | None) -> None:
        refuse_unkeepable(game_id=game_id, thread_id=thread_id)

        def tx(db: sqlite3.Connection) -> None:
            cursor = db.execute("UPDATE games SET thread_id = ? WHERE id = ?", (thread_id, game_id))
            if cursor.rowcount != 1:
                raise GameNotFound(game_id)

        await self._write(tx)

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
        # the events' texts, for the one-statement way, if they are surely kept (None: walked below)
        texts = sqlite_commits.bodies(events)
        refuse_unkeepable(game_id=game_id, expected_version=expected_version, state=state,
                           events=events if texts is None else (), snapshot=snapshot, seats=seats, awaited=awaited,
                           decisions=decisions, organiser_id=organiser_id, seen=seen, results=results)
        paused = None if pause is None or pause.at is None else stamp(pause.at)
        seen_at = None if seen is None else stamp(seen.at)
        ended = [stamp(r.ended_at) for r in results] if results else []
        now = stamp(self._clock())
        # the slow transaction: a method given its values (a closure over them made each of the
        # commit's twenty names a cell, which every use here went through)
        tx = partial(self._commit_tx, game_id, expected_version, state, events, status, snapshot, seats, awaited,
                     decisions, organiser_id, pause, paused, seen, seen_at, results, ended, now)
        try:  # the rows of the one-statement way (sqlite_commits.py); anything odd goes the slow way
            row = None if texts is None else sqlite_commits.row(
                game_id, expected_version, state, texts,
                status=None if status is None else GameStatus(status).value, now=now,
                snapshot=snapshot, seats=seats,
                awaited=None if awaited is None else [
                    (a.key, a.user_id, stamp(a.due), microseconds(a.left)) for a in awaited],
                decisions=[(d.seat, d.asked, d.asked_version, d.answered, d.command,
                            None if d.sent_at is None else stamp(d.sent_at)) for d in decisions] if decisions else (),
                organiser_id=organiser_id, paused=None if pause is None else (paused,),
                seen=None if seen is None else (seen.users, seen_at),
                results=[(r.seat, r.user_id, r.guild_id, r.side, r.outcome, r.lost, r.killed, at)
                         for r, at in zip(results, ended, strict=True)] if results else ())
        except Exception:  # noqa: BLE001 (the slow transaction raises it to the caller as before)
            row = None
        version = expected_version + 1
        if row is None:
            return Committed(game_id, version, await self._write(tx))
        return Committed(game_id, version, await self._write(FastCommit(tx, game_id, expected_version, row)))

    def _commit_tx(
        self, game_id: int, expected_version: int, state: str, events: Sequence[str], status: GameStatus | None,
        snapshot: str | None, seats: Sequence[Seat] | None, awaited: Sequence[Awaited] | None,
        decisions: Sequence[SeatDecision] | None, organiser_id: int | None, pause: Pause | None,
        paused: str | None, seen: Seen | None, seen_at: str | None, results: Sequence[PlayerResult],
        ended: list[str], now: str, db: sqlite3.Connection,
    ) -> int:
        """`commit`'s transaction, the slow way (a statement a part): the last seq."""
        last_seq = self._write_state(db, game_id, expected_version, state, status, now)
        last_seq = self._append(db, game_id, last_seq, events, now)
        if snapshot is not None:
            self._snapshot(db, game_id, snapshot, last_seq, expected_version + 1, state, now)
        if seats is not None:
            self._replace_seats(db, game_id, seats)
        if awaited is not None:
            self._replace_deadlines(db, game_id, awaited)
        if decisions:
            self._replace_decisions(db, game_id, decisions)
        if organiser_id is not None:
            db.execute("UPDATE games SET organiser_id = ? WHERE id = ?", (organiser_id, game_id))
        if pause is not None:
            db.execute("UPDATE games SET paused_at = ? WHERE id = ?", (paused, game_id))
        if seen is not None:
            for user_id in seen.users:
                self._mark_seen(db, game_id, user_id, last_seq, seen_at)
        if results:
            db.executemany(
                "INSERT INTO player_results (game_id, seat, user_id, guild_id, side, outcome, lost, killed,"
                " ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, seat) DO NOTHING",
                [(game_id, r.seat, r.user_id, r.guild_id, r.side, r.outcome, r.lost, r.killed, at)
                 for r, at in zip(results, ended, strict=True)])
        return last_seq

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
        now = stamp(self._clock())

        def tx(db: sqlite3.Connection) -> int:
            rows = db.execute(
                "SELECT seq, version, state FROM snapshots WHERE game_id = ? AND label = ?",
                (game_id, label),
            ).fetchall()
            if not rows:
                raise SnapshotNotFound(game_id, label)
            (snap_seq, snap_version, snap_state), = rows
            last_seq = self._write_state(db, game_id, expected_version, state or JsonText(snap_state), status, now)
            event = json.dumps({
                "type": "rollback",
                "snapshot": label,
                "to_seq": snap_seq,
                "to_version": snap_version,
                "from_version": expected_version,
                "by": by_user_id,
            })
            last_seq = self._append(db, game_id, last_seq, [event, *events], now)
            # Later snapshots belong to the timeline just abandoned.
            db.execute("DELETE FROM snapshots WHERE game_id = ? AND seq > ?", (game_id, snap_seq))
            if awaited is not None:
                self._replace_deadlines(db, game_id, awaited)
            if decisions:
                self._replace_decisions(db, game_id, decisions)
            return last_seq

        return Committed(game_id, expected_version + 1, await self._write(tx))

    @staticmethod
    def _write_state(
        db: sqlite3.Connection,
        game_id: int,
        expected_version: int,
        state: str,
        status: GameStatus | None,
        now: str,
    ) -> int:
        """Write the state and bump the version if it is still `expected_version`; return the
        game's last event seq. The WHERE clause is the version check, in the same statement.
        The status is set only when given: SQLite updates the index on a column the statement
        sets even to the same value, and most commits leave the status alone."""
        if status is None:
            rows = db.execute(_WRITE_STATE, (state, now, game_id, expected_version)).fetchall()
        else:
            rows = db.execute(_WRITE_STATE_AND_STATUS,
                              (state, now, GameStatus(status).value, game_id, expected_version)).fetchall()
        for (last_seq,) in rows:
            _check_json(db, state)  # written: now the text must be JSON, as the column's CHECK had it
            return last_seq
        current = db.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchall()
        if not current:
            raise GameNotFound(game_id)
        raise VersionConflict(game_id, expected_version, next(iter(current))[0])

    @staticmethod
    def _append(
        db: sqlite3.Connection, game_id: int, last_seq: int, events: Sequence[str], now: str
    ) -> int:
        if isinstance(events, str):
            raise TypeError("events is a sequence of JSON texts, not one text")
        if events:
            db.executemany(
                "INSERT INTO events (game_id, seq, body, created_at) VALUES (?, ?, ?, ?)",
                [(game_id, last_seq + n, body, now) for n, body in enumerate(events, 1)],
            )
        return last_seq + len(events)

    @staticmethod
    def _snapshot(
        db: sqlite3.Connection,
        game_id: int,
        label: str,
        seq: int,
        version: int,
        state: str,
        now: str,
    ) -> None:
        # A label names the latest snapshot taken under it.
        db.execute(
            "INSERT INTO snapshots (game_id, label, seq, version, state, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (game_id, label) DO UPDATE SET seq = excluded.seq,"
            " version = excluded.version, state = excluded.state,"
            " created_at = excluded.created_at",
            (game_id, label, seq, version, state, now),
        )

    @staticmethod
    def _replace_seats(db: sqlite3.Connection, game_id: int, seats: Sequence[Seat]) -> None:
        db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
        if seats:
            db.executemany(
                "INSERT INTO seats (game_id, seat_index, side, user_id, display_name)"
                " VALUES (?, ?, ?, ?, ?)",
                [(game_id, s.seat_index, s.side, s.user_id, s.display_name) for s in seats],
            )

    @staticmethod
    def _replace_deadlines(db: sqlite3.Connection, game_id: int, awaited: Sequence[Awaited]) -> None:
        """Make the game's deadlines exactly `awaited`; one whose due time is unchanged keeps
        its reminded flag and its claim, so a commit does not re-send a reminder already sent.

        Only what differs is written: the game's rows are read first (a handful, on pages the
        commit writes anyway), those no longer named are deleted, and a row is upserted only if
        it is new or its due time or time left changed. Upserting an unchanged row changes
        nothing (same due, so the same reminded flag and claim) but rewrites it and its index
        entry: most commands keep most of a game's deadlines (issue 17)."""
        have = {(key, user_id): (due, left) for key, user_id, due, left in db.execute(
            "SELECT key, user_id, due, left_us FROM deadlines WHERE game_id = ?", (game_id,))}
        wanted = {(a.key, a.user_id) for a in awaited}
        gone = [(game_id, key, user_id) for key, user_id in have if (key, user_id) not in wanted]
        if gone:
            db.executemany("DELETE FROM deadlines WHERE game_id = ? AND key = ? AND user_id = ?", gone)
        changed = []
        for a in awaited:  # in order: a key named twice ends as the upserts in turn would leave it
            row = (stamp(a.due), microseconds(a.left))
            if have.get((a.key, a.user_id)) != row:
                have[a.key, a.user_id] = row
                changed.append((game_id, a.key, a.user_id, *row))
        if changed:
            db.executemany(
                "INSERT INTO deadlines (game_id, key, user_id, due, reminded, left_us)"
                " VALUES (?, ?, ?, ?, 0, ?)"
                " ON CONFLICT (game_id, key, user_id) DO UPDATE SET due = excluded.due,"
                " reminded = (deadlines.reminded AND deadlines.due = excluded.due),"
                " claimed_until = CASE WHEN deadlines.due = excluded.due THEN deadlines.claimed_until END,"
                " left_us = excluded.left_us",
                changed,
            )

    @staticmethod
    def _mark_seen(db: sqlite3.Connection, game_id: int, user_id: int, seq: int, at: str) -> None:
        db.execute(
            "INSERT INTO seen (game_id, user_id, seq, at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (game_id, user_id) DO UPDATE SET seq = max(seen.seq, excluded.seq),"
            " at = max(seen.at, excluded.at)",
            (game_id, user_id, seq, at))

    @staticmethod
    def _replace_decisions(db: sqlite3.Connection, game_id: int, decisions: Sequence[SeatDecision]) -> None:
        db.executemany(
            "INSERT INTO seat_decisions (game_id, seat, asked, asked_version, answered, command, sent_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (game_id, seat) DO UPDATE SET asked = excluded.asked,"
            " asked_version = excluded.asked_version, answered = excluded.answered,"
            " command = excluded.command, sent_at = excluded.sent_at",
            [(game_id, d.seat, d.asked, d.asked_version, d.answered, d.command,
              None if d.sent_at is None else stamp(d.sent_at)) for d in decisions],
        )

    async def decisions(self, game_id: int) -> list[SeatDecision]:
        rows = await self._read().execute_fetchall(
            "SELECT seat, asked, asked_version, answered, command, sent_at FROM seat_decisions"
            " WHERE game_id = ? ORDER BY seat",
            (game_id,),
        )
        return [_seat_decision(row) for row in rows]

    async def record_decisions(self, game_id: int, version: int, decisions: Sequence[SeatDecision]) -> bool:
        refuse_unkeepable(game_id=game_id, version=version, decisions=decisions)

        def tx(db: sqlite3.Connection) -> bool:
            at = db.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchall()
            if at != [(version,)]:
                return False
            self._replace_decisions(db, game_id, decisions)
            return True

        return await self._write(tx)

    async def claim_resumes(self, games: Sequence[tuple[int, int]]) -> list[int]:
        wanted = [(int(g), int(v)) for g, v in games if findable(g, v)]

        def tx(db: sqlite3.Connection) -> list[int]:
            claimed = []
            for game_id, version in wanted:
                claimed += [row[0] for row in db.execute(
                    "UPDATE games SET resumed_version = version WHERE id = ? AND version = ?"
                    " AND status = ? AND resumed_version IS NOT version RETURNING id",
                    (game_id, version, GameStatus.ACTIVE.value)).fetchall()]
            return sorted(claimed)

        return await self._write(tx) if wanted else []

    async def pace(self, name: str, seconds: float) -> float:
        refuse_unkeepable(name=name)
        # the database's clock: on one file every process reads the same machine's time
        now = "((julianday('now') - 2440587.5) * 86400.0)"
        rows = await self._write(lambda db: db.execute(
            f"INSERT INTO paces (name, next_at) VALUES (?1, {now} + ?2)"
            " ON CONFLICT (name) DO UPDATE SET next_at = max(paces.next_at, excluded.next_at - ?2) + ?2"
            f" RETURNING next_at - ?2 - {now}",
            (name, float(seconds)),
        ).fetchall())
        return max(0.0, rows[0][0])

    # -- the event log and snapshots -------------------------------------------------------

    async def events_since(self, game_id: int, after_seq: int = 0) -> list[Event]:
        rows = await self._read().execute_fetchall(
            "SELECT game_id, seq, body, created_at FROM events"
            " WHERE game_id = ? AND seq > ? ORDER BY seq",
            (game_id, seq_bound(after_seq)),
        )
        return [Event(row[0], row[1], row[2], unstamp(row[3])) for row in rows]

    async def snapshots(self, game_id: int) -> list[SnapshotInfo]:
        rows = await self._read().execute_fetchall(
            "SELECT game_id, label, seq, version, created_at FROM snapshots"
            " WHERE game_id = ? ORDER BY seq, version",
            (game_id,),
        )
        return [SnapshotInfo(r[0], r[1], r[2], r[3], unstamp(r[4])) for r in rows]

    async def load_snapshot(self, game_id: int, label: str) -> Snapshot:
        rows = await self._read().execute_fetchall(
            "SELECT game_id, label, seq, version, created_at, state FROM snapshots"
            " WHERE game_id = ? AND label = ?",
            (game_id, label),
        )
        for r in rows:
            return Snapshot(r[0], r[1], r[2], r[3], unstamp(r[4]), r[5])
        raise SnapshotNotFound(game_id, label)

    # -- settings --------------------------------------------------------------------------

    async def get_setting(self, scope: str, key: str, default: Any = None) -> Any:
        rows = await self._read().execute_fetchall(
            "SELECT value FROM settings WHERE scope = ? AND key = ?", (scope, key)
        )
        for (value,) in rows:
            return json.loads(value)
        return default

    async def settings(self, scope: str) -> dict[str, Any]:
        rows = await self._read().execute_fetchall(
            "SELECT key, value FROM settings WHERE scope = ? ORDER BY key", (scope,)
        )
        return {key: json.loads(value) for key, value in rows}

    async def set_setting(self, scope: str, key: str, value: Any) -> None:
        # json.dumps escapes a lone surrogate into valid ASCII; refuse it as any other bad text.
        refuse_unkeepable(scope=scope, key=key, value=json.dumps(value, ensure_ascii=False))
        text = json.dumps(value)
        await self._write(lambda db: db.execute(
            "INSERT INTO settings (scope, key, value) VALUES (?, ?, ?)"
            " ON CONFLICT (scope, key) DO UPDATE SET value = excluded.value",
            (scope, key, text),
        ))

    async def delete_setting(self, scope: str, key: str) -> None:
        refuse_unkeepable(scope=scope, key=key)
        await self._write(lambda db: db.execute(
            "DELETE FROM settings WHERE scope = ? AND key = ?", (scope, key)))

    # -- private channels and deadlines ----------------------------------------------------

    async def private_channels(self, game_id: int) -> Mapping[int, int]:
        rows = await self._read().execute_fetchall(
            "SELECT user_id, channel_id FROM private_channels WHERE game_id = ?", (game_id,)
        )
        return {user_id: channel_id for user_id, channel_id in rows}

    async def set_private_channel(self, game_id: int, user_id: int, channel_id: int) -> None:
        refuse_unkeepable(game_id=game_id, user_id=user_id, channel_id=channel_id)
        await self._write(lambda db: db.execute(
            "INSERT INTO private_channels (game_id, user_id, channel_id) VALUES (?, ?, ?)"
            " ON CONFLICT (game_id, user_id) DO UPDATE SET channel_id = excluded.channel_id",
            (game_id, user_id, channel_id),
        ))

    async def deadlines(self, game_id: int) -> list[Deadline]:
        rows = await self._read().execute_fetchall(
            f"SELECT {_DEADLINE_COLUMNS} FROM deadlines"
            " WHERE game_id = ? ORDER BY due, key, user_id",
            (game_id,),
        )
        return [_deadline(row) for row in rows]

    async def due_deadlines(self, now: datetime) -> list[Deadline]:
        rows = await self._read().execute_fetchall(
            "SELECT d.game_id, d.key, d.user_id, d.due, d.reminded, d.left_us"
            " FROM deadlines AS d JOIN games AS g ON g.id = d.game_id"
            " WHERE d.reminded = 0 AND d.left_us IS NULL AND d.due <= ? AND g.status IN (?, ?)"
            " ORDER BY d.due, d.game_id, d.key, d.user_id",
            (stamp(now), *(status.value for status in UNFINISHED)),
        )
        return [_deadline(row) for row in rows]

    async def claim_deadlines(self, now: datetime, lease: timedelta) -> list[Deadline]:
        moment, until = stamp(now), stamp(now + lease)

        def tx(db: sqlite3.Connection) -> list[Deadline]:
            rows = db.execute(
                "UPDATE deadlines SET claimed_until = ?1"
                " WHERE reminded = 0 AND left_us IS NULL AND due <= ?2"
                " AND (claimed_until IS NULL OR claimed_until <= ?2)"
                " AND game_id IN (SELECT id FROM games WHERE status IN (?3, ?4))"
                f" RETURNING {_DEADLINE_COLUMNS}",
                (until, moment, *(status.value for status in UNFINISHED)),
            ).fetchall()
            return sorted((_deadline(row) for row in rows), key=lambda d: (d.due, d.game_id, d.key, d.user_id))

        return await self._write(tx)

    async def mark_reminded(self, game_id: int, key: str, user_id: int) -> None:
        refuse_unkeepable(game_id=game_id, key=key, user_id=user_id)
        await self._write(lambda db: db.execute(
            "UPDATE deadlines SET reminded = 1 WHERE game_id = ? AND key = ? AND user_id = ? AND left_us IS NULL",
            (game_id, key, user_id),
        ))

    # -- who has read how far, watchers, results (issue 16) ----------------------------------

    async def seen(self, game_id: int) -> list[SeenMark]:
        rows = await self._read().execute_fetchall(
            "SELECT user_id, seq, at FROM seen WHERE game_id = ? ORDER BY user_id", (game_id,))
        return [SeenMark(r[0], r[1], unstamp(r[2])) for r in rows]

    async def mark_seen(self, game_id: int, user_id: int, seq: int, at: datetime) -> None:
        refuse_unkeepable(game_id=game_id, user_id=user_id, seq=seq)
        moment = stamp(at)
        await self._write(lambda db: self._mark_seen(db, game_id, user_id, max(seq, 0), moment))

    async def watchers(self, game_id: int) -> list[int]:
        rows = await self._read().execute_fetchall(
            "SELECT user_id FROM watchers WHERE game_id = ? ORDER BY user_id", (game_id,))
        return [r[0] for r in rows]

    async def set_watching(self, game_id: int, user_id: int, watching: bool) -> bool:
        refuse_unkeepable(game_id=game_id, user_id=user_id)
        sql = ("INSERT INTO watchers (game_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING" if watching
               else "DELETE FROM watchers WHERE game_id = ? AND user_id = ?")
        return await self._write(lambda db: db.execute(sql, (game_id, user_id)).rowcount == 1)

    async def player_totals(self, guild_id: int, user_id: int | None = None, *,
                            limit: int = 10) -> list[PlayerTotals]:
        rows = await self._read().execute_fetchall(
            "SELECT user_id, count(*), sum(outcome = 'won'), sum(lost), sum(killed) FROM player_results"
            " WHERE guild_id = ?1 AND (?2 IS NULL OR user_id = ?2) GROUP BY user_id"
            " ORDER BY count(*) DESC, sum(outcome = 'won') DESC, user_id LIMIT ?3",
            (guild_id, user_id, max(limit, 0)))
        return [PlayerTotals(*r) for r in rows]

    # -- campaigns (docs/campaigns.md) -----------------------------------------------------
    # Their records load with the first campaign call (`from bot.store.campaigns import` in each):
    # a game's start needs none of them (docs/architecture.md, A quick start).

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
        from bot.store.campaigns import StoredCampaign

        refuse_unkeepable(guild_id=guild_id, channel_id=channel_id, definition_id=definition_id,
                           name=name, organiser_id=organiser_id, state=state, log=log, results=results)
        now = stamp(self._clock())

        def tx(db: sqlite3.Connection) -> int:
            cursor = db.execute(
                "INSERT INTO campaigns (guild_id, channel_id, definition_id, name, status,"
                " organiser_id, state, version, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?)",
                (guild_id, channel_id, definition_id, name, CampaignStatus(status).value,
                 organiser_id, state, now, now),
            )
            campaign_id = cursor.lastrowid
            assert campaign_id is not None
            self._append_log(db, campaign_id, 0, log, now)
            if results:
                db.executemany(
                    f"INSERT INTO campaign_results ({_RESULT_COLUMNS})"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [(campaign_id, r.number, r.key, r.step, r.scenario_id, r.game_id,
                      ResultStatus(r.status).value, r.body, r.before, r.submitted_by, r.decided_by,
                      stamp(r.created_at), stamp(r.decided_at) if r.decided_at else None)
                     for r in results],
                )
            return campaign_id

        campaign_id = await self._write(tx)
        return StoredCampaign(
            id=campaign_id, guild_id=guild_id, channel_id=channel_id, definition_id=definition_id,
            name=name, status=CampaignStatus(status), organiser_id=organiser_id, version=1,
            created_at=unstamp(now), updated_at=unstamp(now), state=state,
        )

    async def load_campaign(self, campaign_id: int) -> StoredCampaign:
        from bot.store.campaigns import (
            CampaignNotFound,
            CampaignSummary,
            StoredCampaign,
        )

        rows = await self._read().execute_fetchall(
            f"SELECT {_CAMPAIGN_COLUMNS}, state FROM campaigns WHERE id = ?", (campaign_id,)
        )
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
        rows = await self._read().execute_fetchall(
            f"SELECT {_CAMPAIGN_COLUMNS} FROM campaigns"
            " WHERE channel_id = ? AND (? OR status != 'finished') ORDER BY id",
            (channel_id, include_finished),
        )
        return [_campaign(row) for row in rows]

    async def campaigns_in_guild(self, guild_id: int) -> list[CampaignSummary]:
        rows = await self._read().execute_fetchall(
            f"SELECT {_CAMPAIGN_COLUMNS} FROM campaigns WHERE guild_id = ? ORDER BY id", (guild_id,))
        return [_campaign(row) for row in rows]

    async def campaigns(self, ids: Sequence[int]) -> list[CampaignSummary]:
        wanted = sorted({int(i) for i in ids if int(i) in INT64})  # ids beyond 64 bits match none
        if not wanted:
            return []
        rows = await self._read().execute_fetchall(
            f"SELECT {_CAMPAIGN_COLUMNS} FROM campaigns WHERE id IN"
            f" ({', '.join('?' * len(wanted))}) ORDER BY id",
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
        from bot.store.campaigns import (
            CampaignCommitted,
            CampaignNotFound,
            CampaignVersionConflict,
        )

        refuse_unkeepable(campaign_id=campaign_id, expected_version=expected_version, state=state,
                           log=log, new_result=new_result, change=change)
        now = stamp(self._clock())

        def tx(db: sqlite3.Connection) -> tuple[int, int | None]:
            rows = db.execute(
                "UPDATE campaigns SET state = ?, version = version + 1, updated_at = ?,"
                " status = coalesce(?, status) WHERE id = ? AND version = ?"
                " RETURNING (SELECT coalesce(max(seq), 0) FROM campaign_log"
                "            WHERE campaign_id = campaigns.id)",
                (state, now, None if status is None else CampaignStatus(status).value,
                 campaign_id, expected_version),
            ).fetchall()
            last_seq = next((seq for (seq,) in rows), None)
            if last_seq is None:
                current = db.execute("SELECT version FROM campaigns WHERE id = ?", (campaign_id,)).fetchall()
                if not current:
                    raise CampaignNotFound(campaign_id)
                raise CampaignVersionConflict(campaign_id, expected_version, next(iter(current))[0])
            number = None
            if new_result is not None:
                number = self._insert_result(db, campaign_id, new_result, now)
            if change is not None:
                self._change_result(db, campaign_id, change, now)
            return self._append_log(db, campaign_id, last_seq, log, now), number

        last_seq, number = await self._write(tx)
        return CampaignCommitted(campaign_id, expected_version + 1, last_seq, number)

    @staticmethod
    def _insert_result(db: sqlite3.Connection, campaign_id: int, r: NewResult, now: str) -> int:
        from bot.store.campaigns import DuplicateResult

        taken = db.execute(
            "SELECT number FROM campaign_results WHERE campaign_id = ? AND key = ?",
            (campaign_id, r.key),
        ).fetchall()
        for (number,) in taken:
            raise DuplicateResult(campaign_id, r.key, number)
        rows = db.execute(
            "INSERT INTO campaign_results (campaign_id, number, key, step, scenario_id, game_id,"
            " status, body, before, submitted_by, decided_by, created_at, decided_at)"
            " VALUES (?1, (SELECT coalesce(max(number), 0) + 1 FROM campaign_results"
            "              WHERE campaign_id = ?1), ?2, ?3, ?4, ?5, 'pending', ?6, NULL, ?7, NULL, ?8, NULL)"
            " RETURNING number",
            (campaign_id, r.key, r.step, r.scenario_id, r.game_id, r.body, r.submitted_by, now),
        ).fetchall()
        return next(iter(rows))[0]

    @staticmethod
    def _change_result(db: sqlite3.Connection, campaign_id: int, c: ResultChange, now: str) -> None:
        from bot.store.campaigns import ResultConflict, ResultNotFound

        before = c.before if c.status == ResultStatus.CONFIRMED else None
        if c.status == ResultStatus.CONFIRMED and before is None:
            raise StoreError("confirming a result keeps the campaign before it: give `before`")
        rows = db.execute(
            "UPDATE campaign_results SET status = ?, before = ?, decided_by = ?, decided_at = ?"
            " WHERE campaign_id = ? AND number = ? AND status = ? RETURNING number",
            (ResultStatus(c.status).value, before, c.decided_by,
             now if c.status != ResultStatus.PENDING else None,
             campaign_id, c.number, ResultStatus(c.expected).value),
        ).fetchall()
        if rows:
            return
        current = db.execute(
            "SELECT status FROM campaign_results WHERE campaign_id = ? AND number = ?",
            (campaign_id, c.number),
        ).fetchall()
        if not current:
            raise ResultNotFound(campaign_id, c.number)
        raise ResultConflict(campaign_id, c.number, ResultStatus(c.expected).value,
                             next(iter(current))[0])

    @staticmethod
    def _append_log(
        db: sqlite3.Connection, campaign_id: int, last_seq: int, log: Sequence[str], now: str
    ) -> int:
        if isinstance(log, str):
            raise TypeError("log is a sequence of JSON texts, not one text")
        if log:
            db.executemany(
                "INSERT INTO campaign_log (campaign_id, seq, body, created_at) VALUES (?, ?, ?, ?)",
                [(campaign_id, last_seq + n, body, now) for n, body in enumerate(log, 1)],
            )
        return last_seq + len(log)

    async def campaign_results(self, campaign_id: int) -> list[StoredResult]:
        rows = await self._read().execute_fetchall(
            f"SELECT {_RESULT_COLUMNS} FROM campaign_results WHERE campaign_id = ? ORDER BY number",
            (campaign_id,),
        )
        return [_result(row) for row in rows]

    async def load_result(self, campaign_id: int, number: int) -> StoredResult:
        from bot.store.campaigns import ResultNotFound

        rows = await self._read().execute_fetchall(
            f"SELECT {_RESULT_COLUMNS} FROM campaign_results WHERE campaign_id = ? AND number = ?",
            (campaign_id, number),
        )
        for row in rows:
            return _result(row)
        raise ResultNotFound(campaign_id, number)

    async def campaign_log(self, campaign_id: int, after_seq: int = 0) -> list[CampaignLogEntry]:
        from bot.store.campaigns import CampaignLogEntry

        rows = await self._read().execute_fetchall(
            "SELECT campaign_id, seq, body, created_at FROM campaign_log"
            " WHERE campaign_id = ? AND seq > ? ORDER BY seq",
            (campaign_id, seq_bound(after_seq)),
        )
        return [CampaignLogEntry(r[0], r[1], r[2], unstamp(r[3])) for r in rows]
