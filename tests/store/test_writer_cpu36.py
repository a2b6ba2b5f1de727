"""The one statement's cheaper shape (issue 17, stop 36; bot/store/sqlite_commits.py):
- columns every commit of a part leaves NULL are the literal NULL in the statement, not bound;
- the applied commit's writes are a nested view's trigger (fp_ok), which gets the outcome as values;
- the deadlines no longer named are found through temp fp_keep's key, with no ephemeral table.
What is written and answered is compared with the slow way (test_fast_commits' `_compare`)."""
from __future__ import annotations

import sqlite3
from datetime import timedelta
from itertools import product
from pathlib import Path

import pytest

from bot.store import sqlite_commits
from bot.store.migrations import MIGRATIONS, statements
from bot.store.protocol import Awaited, GameStatus, Pause, PlayerResult, Seat, Seen
from tests.store.test_fast_commits import GAMES, NOON, _compare


def _kwargs(game_id: int, names: tuple[str, ...]) -> dict:
    """A commit bringing events, deadlines and seen marks, and the rarer parts `names`."""
    rare = {
        "status": GameStatus.FINISHED,
        "snapshot": "turn:1",
        "seats": [Seat(0, "DE", 6, "Bo")],
        "organiser_id": 6,
        "pause": Pause(NOON),
        "results": [PlayerResult(game_id, 0, 5, 1, "US", "won", 1, 2, NOON)],
    }
    return {"events": ['{"a": 1}'], "awaited": [Awaited("orders", 5, NOON + timedelta(hours=2))],
            "seen": Seen((5,), NOON), **{name: rare[name] for name in names}}


_NAMES = ("status", "snapshot", "seats", "organiser_id", "pause", "results")


@pytest.mark.sqlite_only
@pytest.mark.parametrize("names", [(), ("snapshot",), ("status", "seats"), ("organiser_id", "pause", "results"),
                                   _NAMES])
def test_a_run_whose_commits_leave_columns_null_writes_what_the_slow_way_does(
        names: tuple[str, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    # games 1..3 at version 2: one commit a game; the first brings `names`, the others none of them
    # (a part of one commit, then of two), then a run where every commit brings them
    ops = [("commit", game, 2, f'{{"n": {game}}}', _kwargs(game, names if game == 1 else ())) for game in (1, 2, 3)]
    ops += [("commit", game, 3, '{"n": 9}', _kwargs(game, names)) for game in (1, 2)]
    counted = _compare(ops, monkeypatch)
    assert counted.applied == GAMES + len(ops) and counted.failed == 0


def test_every_shape_of_the_statement_binds_one_value_a_placeholder() -> None:
    nullable = [sqlite_commits.COLUMNS[i + 1] for i in sqlite_commits._NULLABLE]
    assert nullable == ["status", "snapshot", "seats", "organiser", "paused", "results"]
    row = tuple(range(100, 100 + sqlite_commits.WIDTH - 1))
    for bits in product((0, 1), repeat=len(nullable)):
        absent = sum(bit << n for n, bit in enumerate(bits))
        sql, pick = sqlite_commits._insert(2, absent)
        values = row if pick is None else pick(row)
        assert sql.count("?") == 2 * (1 + len(values))
        assert sql.count("NULL") == 2 * sum(bits)
        assert [v for v in row if v not in values] == [row[i] for n, i in enumerate(sqlite_commits._NULLABLE)
                                                      if bits[n]]


def _program(tmp_path: Path) -> list[tuple]:
    conn = sqlite3.connect(tmp_path / "x.db")
    try:
        for script in MIGRATIONS:
            for statement in statements(script):
                conn.execute(statement)
        sqlite_commits.install(conn)
        sql, _ = sqlite_commits._insert(1, 0)
        return conn.execute("EXPLAIN " + sql, [None] * sqlite_commits.WIDTH).fetchall()
    finally:
        conn.close()


def _part(program: list[tuple], starts: str) -> list[str]:
    """The opcodes of the trigger statement that starts with `starts` (up to the next statement)."""
    ops, inside = [], False
    for row in program:  # addr, opcode, p1, p2, p3, p4 (a Trace's: the statement), p5, comment
        opcode = row[1]
        if opcode == "Trace":
            inside = str(row[5]).startswith(f"-- {starts}")
        elif inside:
            ops.append(opcode)
    return ops


def test_the_deadlines_delete_and_the_hand_on_to_fp_rare_build_no_ephemeral_table(tmp_path: Path) -> None:
    program = _program(tmp_path)
    delete = _part(program, "DELETE FROM deadlines")
    rare = _part(program, "INSERT INTO fp_rare")
    assert delete and rare
    assert "OpenEphemeral" not in delete and "OpenEphemeral" not in rare
    # the applied commit's statements read no outcome from fp_out: they get it as NEW.ok, base, last
    applied = _part(program, "INSERT INTO events")
    assert applied and "SeekRowid" not in applied


@pytest.mark.parametrize("first", [(3, 1, 7), (2, 0, 5), (None, 0, 0)])
def test_one_outcome_read_as_it_is_equals_the_json_read_of_several(tmp_path: Path, first: tuple) -> None:
    conn = sqlite3.connect(tmp_path / "x.db", isolation_level=None)
    try:
        sqlite_commits.install(conn)
        conn.execute("INSERT INTO fp_out (n, cur, ok, base, last) VALUES (1, ?, ?, 0, ?), (2, 9, 1, 4, 6)", first)
        one = sqlite_commits.outcomes(conn, 1)
        assert one == sqlite_commits.outcomes(conn, 2)[:1]
        assert one == [(first[0], bool(first[1]), first[2])]
    finally:
        conn.close()
