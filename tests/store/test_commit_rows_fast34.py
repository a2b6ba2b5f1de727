"""The one-statement commits (bot/store/sqlite_commits.py) since each row owns its row `n` of
temp fp_out and the parts few commits write go through the nested view fp_rare: on real SQLite
files, the fast way leaves and answers exactly what the slow way (a SAVEPOINT a transaction) does.

A part of fewer commits after a larger one reads back only its own rows; a commit that is not
applied (a conflict, a missing game) writes none of its rare parts; a rare part that SQLite
refuses sends its run the slow way, whose error reaches the guilty caller alone."""
from __future__ import annotations

import asyncio
import tempfile
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

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
    VersionConflict,
)
from bot.store.sqlite import SqliteStore
from tests.store.test_fast_commits import (
    GAMES,
    NOON,
    _apply,
    _clock,
    _compare,
    _Counted,
    _in_one_batch,
    _outcome,
    _play,
    _setup,
    _tables,
)

_SEATS = [Seat(0, "US", 5, "Able"), Seat(1, "DE", 6, "B\u00e4ker")]
_RESULTS = [PlayerResult(1, 0, 5, 1, "US", "won", 2, 3, NOON), PlayerResult(1, 1, 6, 1, "DE", "lost", 4, 1, NOON)]


def test_a_smaller_part_after_a_larger_one_reads_back_only_its_own_outcomes(monkeypatch: pytest.MonkeyPatch) -> None:
    """fp_out keeps the rows of the last, larger statement; the next one replaces rows 1..k and
    reads those only: a conflict after three applied commits is told as a conflict."""
    counted = _Counted(sqlite_commits.insert)

    async def run(path: Path) -> tuple[list[Any], list[Any]]:
        async with SqliteStore(path, clock=_clock, busy_timeout=1.0, busy_backoff=()) as store:
            await _setup(store)
            first = await _in_one_batch(store, _play(store, [
                ("commit", 1, 2, '{"n": 2}', {"events": ['{"a": 1}']}),
                ("commit", 2, 2, '{"n": 2}', {}),
                ("commit", 3, 2, '{"n": 2}', {"events": ['{"b": 1}', '{"b": 2}']}),
                ("commit", 4, 1, '{"n": 2}', {})]))  # no such game
            second: list[Any] = []
            try:  # a part of one: a conflict, game 1 is at version 3
                await store.commit(1, 2, '{"n": 9}')
            except VersionConflict as exc:
                second.append(_outcome(exc))
            second.append(await store.commit(2, 3, '{"n": 3}', ["{}"]))
            return [_outcome(out) for out in first], second

    with tempfile.TemporaryDirectory() as tmp, monkeypatch.context() as patch:
        patch.setattr(sqlite_commits, "insert", counted)
        first, second = asyncio.run(run(Path(tmp) / "fast.db"))
    assert first[:3] == [Committed(1, 3, 2), Committed(2, 3, 1), Committed(3, 3, 3)]
    assert first[3][0] == "GameNotFound"
    assert second[0][0] == "VersionConflict" and second[0][2] == {"game_id": 1, "expected": 2, "current": 3}
    assert second[1] == Committed(2, 4, 2)
    assert counted.failed == 0 and counted.applied == GAMES + 4 + 2  # all of them the fast way


def test_rare_parts_are_written_only_by_applied_commits_as_the_slow_way_does(monkeypatch: pytest.MonkeyPatch) -> None:
    later = NOON + timedelta(hours=1)
    ops = [
        ("commit", 1, 2, '{"n": 2}', {"seats": _SEATS, "organiser_id": 6, "pause": Pause(NOON)}),
        ("commit", 2, 9, '{"n": 2}', {"seats": _SEATS, "organiser_id": 6, "pause": Pause(NOON),  # a conflict
                                      "results": _RESULTS}),
        ("commit", 4, 1, '{"n": 2}', {"seats": _SEATS, "results": _RESULTS}),  # no such game
        ("commit", 1, 3, '{"n": 3}', {"status": GameStatus.FINISHED, "results": _RESULTS, "pause": Pause(None),
                                      "events": ['{"end": 1}'], "seen": Seen((5, 6), later)}),
        ("commit", 3, 2, '{"n": 2}', {"seats": [], "awaited": [Awaited("orders", 6, later)],
                                      "decisions": [SeatDecision(0, "d2", 2)]}),
        ("commit", 1, 4, '{"n": 4}', {"results": [*_RESULTS[:1], PlayerResult(1, 2, 7, 1, "US", "draw", 0, 0, later)]}),
        ("commit", 2, 2, '{"n": 2}', {"pause": Pause(later), "status": GameStatus.ACTIVE}),
    ]
    counted = _compare(ops, monkeypatch)
    assert counted.failed == 0 and counted.applied == GAMES + len(ops)


def test_a_refused_rare_part_tells_its_caller_the_slow_ways_error_and_only_him(
        monkeypatch: pytest.MonkeyPatch) -> None:
    ops = [
        ("commit", 1, 2, '{"n": 2}', {"seats": _SEATS}),
        ("commit", 2, 2, '{"n": 2}', {"results": [PlayerResult(2, 0, 5, 1, "US", "drawn", 0, 0, NOON)]}),  # CHECK
        ("commit", 3, 2, '{"n": 2}', {"organiser_id": 5}),
    ]
    counted = _Counted(sqlite_commits.insert)
    with tempfile.TemporaryDirectory() as tmp:
        with monkeypatch.context() as patch:
            patch.setattr(sqlite_commits, "insert", counted)
            fast = asyncio.run(_apply(Path(tmp) / "fast.db", ops, monkeypatch, fast=True))
        slow = asyncio.run(_apply(Path(tmp) / "slow.db", ops, monkeypatch, fast=False))
        assert counted.failed == 1  # the part of two holding the refused commit; then the slow way
        assert fast == slow
        assert fast[0] == Committed(1, 3, 1) and fast[2] == Committed(3, 3, 1)  # the created event
        name, message, _ = fast[1]
        assert name == "IntegrityError" and "CHECK constraint failed" in message
        assert _tables(Path(tmp) / "fast.db") == _tables(Path(tmp) / "slow.db")

