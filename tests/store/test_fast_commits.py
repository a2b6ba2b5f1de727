"""The writer applies a run of commits with one statement (bot/store/sqlite_commits.py): it must
leave exactly what the slow way (a SAVEPOINT a transaction) leaves, and tell every caller the same.

Each case queues its transactions behind one that holds the writer's thread, so they reach the
writer as one batch; the slow way is had by a store whose commits bring no rows for the fast path."""
from __future__ import annotations

import asyncio
import sqlite3
import tempfile
import threading
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as S

from bot.store import sqlite_commits
from bot.store.protocol import (
    Awaited,
    Committed,
    GameStatus,
    Pause,
    PlayerResult,
    Seat,
    SeatDecision,
    Seen,
)
from bot.store.sqlite import SqliteStore

NOON = datetime(2026, 3, 1, 12, tzinfo=UTC)
GAMES = 3  # games 1..3 exist; 4 does not


def _clock() -> datetime:
    return NOON


class _Counted:
    """sqlite_commits.insert, counting the commits it applied and the statements that failed."""

    def __init__(self, apply: Callable) -> None:
        self.apply, self.applied, self.failed = apply, 0, 0

    def __call__(self, conn: sqlite3.Connection, run: Sequence[Any]) -> Any:
        try:
            out = self.apply(conn, run)
        except Exception:
            self.failed += 1
            raise
        self.applied += len(run)
        return out


def _no_rows(*args: Any, **kwargs: Any) -> tuple:
    raise RuntimeError("the slow way only")


async def _in_one_batch(store: SqliteStore, calls: Sequence[Callable[[], Awaitable[Any]]]) -> list[Any]:
    """Run `calls` (each queueing one transaction) while the writer is held, then let it go:
    they reach it together, in order. Each call's result or error."""
    gate = threading.Event()
    held = asyncio.ensure_future(store._write(lambda db: gate.wait(10)))
    await asyncio.sleep(0.05)  # the writer has taken the holding transaction
    tasks = [asyncio.ensure_future(call()) for call in calls]
    await asyncio.sleep(0)  # each has queued its transaction
    gate.set()
    await held
    return await asyncio.gather(*tasks, return_exceptions=True)


def _outcome(value: Any) -> Any:
    if isinstance(value, BaseException):
        return type(value).__name__, str(value), vars(value) if hasattr(value, "__dict__") else None
    return value


def _tables(path: Path) -> dict[str, list[tuple]]:
    conn = sqlite3.connect(path)
    try:
        names = [name for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        return {name: sorted(conn.execute(f"SELECT * FROM {name}").fetchall(), key=repr) for name in names}
    finally:
        conn.close()


async def _setup(store: SqliteStore) -> None:
    """Games 1..3 at version 2 with deadlines, some reminded and some claimed."""
    for n in range(GAMES):
        game = await store.create_game(guild_id=1, channel_id=10 + n, scenario_id="s", organiser_id=7,
                                       state=f'{{"start": {n}}}', seats=[Seat(0, "US", 5, "Able")],
                                       events=['{"type": "created"}'], status=GameStatus.ACTIVE)
        await store.commit(game.id, 1, '{"n": 1}', awaited=[
            Awaited("orders", 5, NOON), Awaited("orders", 6, NOON + timedelta(hours=1)),
            Awaited("place:1", 5, NOON, timedelta(minutes=90, microseconds=3))])
        await store.record_decisions(game.id, 2, [SeatDecision(0, "d0", 1)])
        await store.mark_reminded(game.id, "orders", 5)
    await store.claim_deadlines(NOON + timedelta(hours=1), timedelta(minutes=5))


def _play(store: SqliteStore, ops: Sequence[tuple]) -> list[Callable[[], Awaitable[Any]]]:
    calls: list[Callable[[], Awaitable[Any]]] = []
    for op in ops:
        if op[0] == "commit":
            _, game_id, version, state, kwargs = op
            calls.append(lambda g=game_id, v=version, s=state, k=kwargs: store.commit(g, v, s, **k))
        elif op[0] == "remind":
            calls.append(lambda g=op[1], u=op[2]: store.mark_reminded(g, "orders", u))
        else:
            calls.append(lambda: store.claim_deadlines(NOON + timedelta(hours=1), timedelta(minutes=5)))
    return calls


async def _apply(path: Path, ops: Sequence[tuple], monkeypatch: pytest.MonkeyPatch, *, fast: bool) -> list[Any]:
    with monkeypatch.context() as patch:
        if not fast:
            patch.setattr(sqlite_commits, "row", _no_rows)
        async with SqliteStore(path, clock=_clock, busy_timeout=1.0, busy_backoff=()) as store:
            await _setup(store)
            return [_outcome(out) for out in await _in_one_batch(store, _play(store, ops))]


def _compare(ops: Sequence[tuple], monkeypatch: pytest.MonkeyPatch) -> _Counted:
    counted = _Counted(sqlite_commits.insert)
    with tempfile.TemporaryDirectory() as tmp:
        fast_db, slow_db = Path(tmp) / "fast.db", Path(tmp) / "slow.db"
        with monkeypatch.context() as patch:
            patch.setattr(sqlite_commits, "insert", counted)
            fast = asyncio.run(_apply(fast_db, ops, monkeypatch, fast=True))
            applied = counted.applied
            slow = asyncio.run(_apply(slow_db, ops, monkeypatch, fast=False))
            assert counted.applied == applied  # the slow store never took the fast way
        assert fast == slow
        assert _tables(fast_db) == _tables(slow_db)
    return counted


# -- random commits ------------------------------------------------------------------------

_JSON = S.sampled_from(['{"a": 1}', '{"type": "fire", "text": "caf\\u00e9 \u00e9\u2028 \U0001f600"}', "[]", '"x"',
                        '{"t": "tab\\there \\"quoted\\" \\\\ back\\nline"}', '{"t":\n\t"raw \x7f\u0085"}'])
_BAD_JSON = S.sampled_from(["{not json", ""])
_TIMES = S.sampled_from([NOON, NOON + timedelta(hours=1)])
_USERS = S.sampled_from([5, 6])
_MAYBE = S.booleans()

_awaited = S.builds(Awaited, key=S.sampled_from(["orders", "place:1"]), user_id=_USERS, due=_TIMES,
                    left=S.none() | S.sampled_from([timedelta(0), timedelta(minutes=90, microseconds=3)]))
_seat = S.builds(Seat, seat_index=S.integers(-1, 2), side=S.sampled_from(["US", "DE"]), user_id=_USERS,
                 display_name=S.sampled_from(["Able", "B\u00e4ker \U0001f600", 'Q"\\\t']))
_decision = S.builds(SeatDecision, seat=S.integers(0, 2), asked=S.none() | S.just("d1"),
                     asked_version=S.none() | S.integers(1, 9), answered=S.none() | S.just("d0"),
                     command=S.none() | S.just("/fire 3"), sent_at=S.none() | _TIMES)


_BAD_SEATS = S.lists(_seat, min_size=2, max_size=3).filter(
    lambda seats: len({s.seat_index for s in seats}) < len(seats) or min(s.seat_index for s in seats) < 0)


@S.composite
def _commit(draw: S.DrawFn, versions: dict[int, int], refused: bool) -> tuple:
    """A commit, mostly at the version the game will have if those before it went through
    (`versions`, kept up to date here); now and then one the store must refuse or cannot find."""
    game_id = draw(S.integers(1, GAMES + 1))
    bad = refused and draw(S.integers(0, 5)) == 0  # one of its parts is refused (a CHECK, a constraint)
    kwargs: dict[str, Any] = {}
    events = draw(S.lists(_JSON, max_size=3))
    if events:
        kwargs["events"] = events
    if draw(_MAYBE):
        kwargs["status"] = draw(S.sampled_from([GameStatus.ACTIVE, GameStatus.FINISHED]))
    if draw(_MAYBE):
        kwargs["snapshot"] = draw(S.sampled_from(["turn:1", "turn:2"]))
    if draw(_MAYBE):
        kwargs["seats"] = draw(S.lists(_seat, max_size=3, unique_by=lambda s: s.seat_index).filter(
            lambda seats: all(s.seat_index >= 0 for s in seats)))
    if draw(S.integers(0, 3)):
        kwargs["awaited"] = draw(S.lists(_awaited, max_size=4))
    if draw(_MAYBE):
        kwargs["decisions"] = draw(S.lists(_decision, max_size=3))
    if draw(_MAYBE):
        kwargs["organiser_id"] = draw(_USERS)
    if draw(_MAYBE):
        kwargs["pause"] = Pause(draw(S.none() | _TIMES))
    if draw(_MAYBE):
        kwargs["seen"] = Seen(tuple(draw(S.lists(_USERS, max_size=2))), draw(_TIMES))
    if draw(_MAYBE):
        kwargs["results"] = draw(S.lists(S.builds(
            PlayerResult, game_id=S.just(game_id), seat=S.integers(0, 2), user_id=_USERS, guild_id=S.just(1),
            side=S.just("US"), outcome=S.sampled_from(["won", "lost", "draw"]),
            lost=S.integers(0, 3), killed=S.integers(0, 3), ended_at=_TIMES), max_size=2))
    state = draw(S.sampled_from(['{"n": 2}', '{"n": "\u00e9"}', '{"n": 3}']))
    if bad:
        part = draw(S.sampled_from(["event", "state", "seats", "result"]))
        if part == "event":
            kwargs["events"] = [*events, draw(_BAD_JSON)]
        elif part == "state":
            state = "not json"
        elif part == "seats":
            kwargs["seats"] = draw(_BAD_SEATS)
        else:
            kwargs["results"] = [PlayerResult(game_id, 0, 5, 1, "US", draw(S.sampled_from(["drawn", "won"])),
                                              -1, 0, NOON)]
    known = versions.get(game_id, 1)
    version = draw(S.sampled_from([known, known, known, known - 1, known + 1]))
    if version == known and game_id in versions and not bad:
        versions[game_id] = known + 1
    return "commit", game_id, version, state, kwargs


@S.composite
def _ops(draw: S.DrawFn) -> list[tuple]:
    versions = {1: 2, 2: 2, 3: 2}  # after _setup; game 4 does not exist
    refused = draw(S.integers(0, 3)) == 0  # else the run has none, and takes the fast way whole
    ops = []
    for _ in range(draw(S.integers(2, 24))):
        kind = draw(S.integers(0, 9))
        if kind == 0:
            ops.append(("remind", draw(S.integers(1, 3)), draw(_USERS)))
        elif kind == 1:
            ops.append(("claim",))
        else:
            ops.append(draw(_commit(versions, refused)))
    return ops


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=_ops())
def test_a_run_of_commits_leaves_and_answers_what_the_slow_way_does(ops: list[tuple],
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    _compare(ops, monkeypatch)


def test_the_same_game_committed_twice_in_a_run_follows_its_first_commit(monkeypatch: pytest.MonkeyPatch) -> None:
    ops = [
        ("commit", 1, 2, '{"n": 2}', {"events": ['{"a": 1}'], "snapshot": "turn:1",
                                      "awaited": [Awaited("orders", 5, NOON)], "seen": Seen((5,), NOON)}),
        ("commit", 1, 3, '{"n": 3}', {"events": ['{"a": 2}', '{"a": 3}'], "snapshot": "turn:1",
                                      "awaited": [Awaited("orders", 5, NOON + timedelta(hours=1)),
                                                  Awaited("orders", 5, NOON)],
                                      "seen": Seen((5, 6), NOON)}),
        ("commit", 1, 3, '{"n": 9}', {"events": ['{"late": 1}']}),  # a conflict: version 4 by now
        ("commit", 4, 1, '{"n": 1}', {"events": ['{"lost": 1}']}),  # no such game
        ("commit", 2, 2, '{"n": 1}', {"awaited": [], "decisions": [SeatDecision(0, "d1", 1)]}),
        ("commit", 3, 2, '{"n": 1}', {"awaited": [Awaited("place:1", 5, NOON)]}),  # not game 1's keys
    ]
    counted = _compare(ops, monkeypatch)
    assert counted.applied == GAMES + len(ops) and counted.failed == 0  # the setup's commits, then all five


def test_a_failing_commit_in_a_run_is_told_the_slow_ways_error_and_only_it(monkeypatch: pytest.MonkeyPatch) -> None:
    good = {"events": ['{"a": 1}'], "awaited": [Awaited("orders", 5, NOON)]}
    ops = [
        ("commit", 1, 2, '{"n": 2}', good),
        ("commit", 2, 2, '{"n": 2}', {"events": ['{"a": 1}', "{broken"]}),  # events.body CHECK
        ("commit", 3, 2, '{"n": 2}', good),
    ]
    counted = _Counted(sqlite_commits.insert)
    with tempfile.TemporaryDirectory() as tmp:
        with monkeypatch.context() as patch:
            patch.setattr(sqlite_commits, "insert", counted)
            outcomes = asyncio.run(_apply(Path(tmp) / "fast.db", ops, monkeypatch, fast=True))
        # the setup's commits; the run of three goes as parts of two and one (sqlite_commits.runs):
        # the part holding the broken commit tried once, then slowly; the last one applied at once
        assert counted.failed == 1 and counted.applied == GAMES + 1
        assert outcomes[0] == Committed(1, 3, 2) and outcomes[2] == Committed(3, 3, 2)
        name, message, _ = outcomes[1]
        assert name == "IntegrityError" and "CHECK constraint failed" in message
        slow = asyncio.run(_apply(Path(tmp) / "slow.db", ops, monkeypatch, fast=False))
        assert outcomes == slow
        assert _tables(Path(tmp) / "fast.db") == _tables(Path(tmp) / "slow.db")


@given(count=S.integers(0, 200), rows=S.integers(2, 80))
def test_a_run_is_cut_into_parts_of_powers_of_two_that_fit_the_statement(count: int, rows: int) -> None:
    run = list(range(count))
    limit = rows * sqlite_commits.WIDTH  # the statement's own first row counts too
    parts = sqlite_commits.runs(run, limit)
    assert [c for part in parts for c in part] == run  # every commit once, in order
    sizes = [len(part) for part in parts]
    assert all(size & (size - 1) == 0 and (size + 1) * sqlite_commits.WIDTH <= limit for size in sizes)
    smaller = [size for size in sizes if size != max(sizes)]
    assert sizes == sorted(sizes, reverse=True) and len(set(smaller)) == len(smaller)  # largest first, the rest once


def _traced(statements: list[str]) -> Callable[[sqlite3.Connection], None]:
    """sqlite_commits.install that also records every statement the writer's connection runs."""
    install = sqlite_commits.install

    def traced(conn: sqlite3.Connection) -> None:
        install(conn)
        conn.set_trace_callback(statements.append)

    return traced


def test_a_batch_of_commits_alone_holds_the_write_lock_only_inside_its_inserts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """No BEGIN ... COMMIT around the INSERT: the lock is taken and given back inside one call,
    never across the writer's waits for the GIL (docs/store.md, "Several processes"). A batch
    with any other transaction in it is still one transaction."""
    statements: list[str] = []
    ops = [("commit", 1, 2, '{"n": 2}', {"events": ['{"a": 1}']}),
           ("commit", 2, 2, '{"n": 2}', {"awaited": [Awaited("orders", 5, NOON)]}),
           ("commit", 3, 9, '{"n": 2}', {})]  # a conflict, told as before
    mixed = [*ops[:2], ("claim",)]
    with tempfile.TemporaryDirectory() as tmp:
        with monkeypatch.context() as patch:
            patch.setattr(sqlite_commits, "install", _traced(statements))

            async def run(path: Path, batch: Sequence[tuple]) -> list[Any]:
                async with SqliteStore(path, clock=_clock, busy_timeout=1.0, busy_backoff=()) as store:
                    await _setup(store)
                    statements.clear()
                    return [_outcome(out) for out in await _in_one_batch(store, _play(store, batch))]

            outcomes = asyncio.run(run(Path(tmp) / "alone.db", ops))
            alone = [s for s in statements if not s.startswith("--")]  # not the trigger's own lines
            mixed_outcomes = asyncio.run(run(Path(tmp) / "mixed.db", mixed))
            in_mixed = [s for s in statements if not s.startswith("--")]
        assert outcomes[:2] == [Committed(1, 3, 2), Committed(2, 3, 1)]
        assert outcomes[2][0] == "VersionConflict"
        # the holding transaction's BEGIN and COMMIT, then the commits' INSERT and nothing around it
        after_hold = alone[alone.index("COMMIT") + 1:]
        assert any(s.startswith("INSERT INTO fp_rows") for s in after_hold)
        assert not any(s.startswith(("BEGIN", "COMMIT", "SAVEPOINT")) for s in after_hold), after_hold
        assert mixed_outcomes[:2] == outcomes[:2]
        after_hold = in_mixed[in_mixed.index("COMMIT") + 1:]
        assert after_hold[0] == "BEGIN IMMEDIATE" and after_hold[-1] == "COMMIT"
        slow = asyncio.run(_apply(Path(tmp) / "slow.db", ops, monkeypatch, fast=False))
        assert outcomes == slow
        assert _tables(Path(tmp) / "alone.db") == _tables(Path(tmp) / "slow.db")


def test_commits_whose_outcome_cannot_be_read_are_told_to_try_again_and_the_rest_go_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The INSERT of a part is committed when its call returns; if reading its outcomes then
    fails, its callers hear StoreUnavailable (their commits are written: a retry finds the game
    moved on), and the batch's other commits are carried out."""
    ops = [("commit", 1, 2, '{"n": 2}', {}), ("commit", 2, 2, '{"n": 2}', {}), ("commit", 3, 2, '{"n": 2}', {})]
    read = sqlite_commits.outcomes
    failed: list[int] = []

    def first_read_fails(conn: sqlite3.Connection, count: int) -> Any:
        if not failed:
            failed.append(count)
            raise sqlite3.OperationalError("disk I/O error")
        return read(conn, count)

    async def run(path: Path) -> tuple[list[Any], list[int]]:
        async with SqliteStore(path, clock=_clock, busy_timeout=1.0, busy_backoff=()) as store:
            await _setup(store)
            with monkeypatch.context() as patch:
                patch.setattr(sqlite_commits, "outcomes", first_read_fails)
                outcomes = await _in_one_batch(store, _play(store, ops))
            return outcomes, [(await store.load_game(n)).version for n in range(1, GAMES + 1)]

    with tempfile.TemporaryDirectory() as tmp:
        outcomes, versions = asyncio.run(run(Path(tmp) / "fast.db"))
    assert failed == [2]  # the run of three goes as parts of two and one (sqlite_commits.runs)
    assert [type(o).__name__ for o in outcomes] == ["StoreUnavailable", "StoreUnavailable", "Committed"]
    assert outcomes[2] == Committed(3, 3, 1)
    assert outcomes[0].written and "saved this but could not confirm it" in str(outcomes[0])
    assert "nothing was changed" not in str(outcomes[0]) and "could not be read" in outcomes[0].reason
    assert versions == [3, 3, 3]  # every commit written, the first two told to try again
