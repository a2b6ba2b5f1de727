"""A run of `SqliteStore.commit` transactions applied by ONE SQL statement on the writer's thread.

CPython's sqlite3 gives up the GIL around each SQLite call and the writer thread needs it back
after each one; while the event loop runs Python it gets it back only at the switch interval
(5 ms), so a dozen statements a commit kept the writer waiting on the loop and the two threads
took turns (docs/app.md, "The two threads of a command do not overlap"). Here a batch's
consecutive commits cost the writer one INSERT and one read-back, however many they are.

Each commit is turned, on the event loop's side, into rows of ten values (`FastCommit.flat`):
a header row ('c') and one row for each thing it writes, in the order its slow transaction writes
them. The rows are inserted into the TEMP view `fp_rows`, whose INSTEAD OF triggers (one a kind,
created on the writer's connection: TEMP objects need no migration) do what the slow transaction
does, row by row in order:

    c  version check, then the state (and status) write; the outcome goes to temp `fp_out`
    e  one event, seq = the game's last seq + its place      s  the snapshot (upsert)
    T  the seats cleared   S  one seat                       D  one seat decision (upsert)
    w  a deadline key named   x  the deadlines not named deleted   d  a deadline upserted if new
       or changed (due or time left), as `_replace_deadlines` does
    o  organiser   p  pause   v  one player's seen mark   r  one player result
    z  (the statement's first row) `fp_out` emptied

Every row but 'c' and 'z' acts only if its commit's header found the game at the expected
version (`fp_out.ok` of the latest header): a conflict or a missing game writes nothing and is
read back as such, the other commits of the run go on. Anything else that goes wrong (a CHECK, a
constraint, a trigger's refusal) aborts the one statement, which SQLite undoes whole; the writer
then runs the run's transactions the slow way (`FastCommit.slow`, a SAVEPOINT each), which tells
exactly the guilty caller exactly today's error.
"""
from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from typing import Any

WIDTH = 10  # kind, game_id, a .. h
_NONE8 = (None,) * 8

_LATEST = "(SELECT {col} FROM fp_out ORDER BY n DESC LIMIT 1)"
_OK = _LATEST.format(col="ok")
_BASE = _LATEST.format(col="base")
_LAST = _LATEST.format(col="last")

_MAX_SEQ = "(SELECT coalesce(max(seq), 0) FROM events WHERE game_id = NEW.game_id)"


def _trigger(name: str, kind: str, body: str, *, guarded: bool = True, when: str = "") -> str:
    condition = f"NEW.kind = '{kind}'" + (f" AND {_OK}" if guarded else "") + (f" AND {when}" if when else "")
    return f"CREATE TEMP TRIGGER {name} INSTEAD OF INSERT ON fp_rows WHEN {condition} BEGIN {body} END"


SCHEMA: tuple[str, ...] = (
    "CREATE TEMP TABLE fp_out (n INTEGER PRIMARY KEY, cur, ok, base, last)",
    "CREATE TEMP TABLE fp_wanted (key, user_id)",
    "CREATE TEMP VIEW fp_rows (kind, game_id, a, b, c, d, e, f, g, h) AS"
    " SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL",
    _trigger("fp_z", "z", "DELETE FROM fp_out; DELETE FROM fp_wanted;", guarded=False),
    # c: a expected version, b state, c status (NULL: left alone), d now, e number of events
    _trigger("fp_c", "c", f"""
        INSERT INTO fp_out (cur, ok, base, last) SELECT v, coalesce(v = NEW.a, 0), s, s + NEW.e
          FROM (SELECT (SELECT version FROM games WHERE id = NEW.game_id) AS v, {_MAX_SEQ} AS s);
        UPDATE games SET state = NEW.b, version = version + 1, updated_at = NEW.d
          WHERE id = NEW.game_id AND version = NEW.a AND NEW.c IS NULL;
        UPDATE games SET state = NEW.b, version = version + 1, updated_at = NEW.d, status = NEW.c
          WHERE id = NEW.game_id AND version = NEW.a AND NEW.c IS NOT NULL;""", guarded=False),
    # e: a place (1, 2, ...), b body, c now
    _trigger("fp_e", "e", f"""
        INSERT INTO events (game_id, seq, body, created_at) VALUES (NEW.game_id, {_BASE} + NEW.a, NEW.b, NEW.c);"""),
    # s: a version, b label, c now (the state is the one the header just wrote)
    _trigger("fp_s", "s", f"""
        INSERT INTO snapshots (game_id, label, seq, version, state, created_at)
          VALUES (NEW.game_id, NEW.b, {_LAST}, NEW.a, (SELECT state FROM games WHERE id = NEW.game_id), NEW.c)
          ON CONFLICT (game_id, label) DO UPDATE SET seq = excluded.seq, version = excluded.version,
          state = excluded.state, created_at = excluded.created_at;"""),
    _trigger("fp_seats_cleared", "T", "DELETE FROM seats WHERE game_id = NEW.game_id;"),
    # S: a seat_index, b side, c user_id, d display_name
    _trigger("fp_seat", "S", """
        INSERT INTO seats (game_id, seat_index, side, user_id, display_name)
          VALUES (NEW.game_id, NEW.a, NEW.b, NEW.c, NEW.d);"""),
    # w: a user_id, b key
    _trigger("fp_w", "w", "INSERT INTO fp_wanted (key, user_id) VALUES (NEW.b, NEW.a);"),
    _trigger("fp_x", "x", """
        DELETE FROM deadlines WHERE game_id = NEW.game_id AND NOT EXISTS (SELECT 1 FROM fp_wanted AS w
          WHERE w.key = deadlines.key AND w.user_id = deadlines.user_id);
        DELETE FROM fp_wanted;"""),
    # d: a user_id, b key, c due, d left_us; written only if new or changed
    _trigger("fp_d", "d", """
        INSERT INTO deadlines (game_id, key, user_id, due, reminded, left_us)
          VALUES (NEW.game_id, NEW.b, NEW.a, NEW.c, 0, NEW.d)
          ON CONFLICT (game_id, key, user_id) DO UPDATE SET due = excluded.due,
          reminded = (deadlines.reminded AND deadlines.due = excluded.due),
          claimed_until = CASE WHEN deadlines.due = excluded.due THEN deadlines.claimed_until END,
          left_us = excluded.left_us;""",
             when="NOT EXISTS (SELECT 1 FROM deadlines WHERE game_id = NEW.game_id AND key = NEW.b"
                  " AND user_id = NEW.a AND due = NEW.c AND left_us IS NEW.d)"),
    # D: a seat, b asked, c asked_version, d answered, e command, f sent_at
    _trigger("fp_decision", "D", """
        INSERT INTO seat_decisions (game_id, seat, asked, asked_version, answered, command, sent_at)
          VALUES (NEW.game_id, NEW.a, NEW.b, NEW.c, NEW.d, NEW.e, NEW.f)
          ON CONFLICT (game_id, seat) DO UPDATE SET asked = excluded.asked,
          asked_version = excluded.asked_version, answered = excluded.answered,
          command = excluded.command, sent_at = excluded.sent_at;"""),
    _trigger("fp_o", "o", "UPDATE games SET organiser_id = NEW.a WHERE id = NEW.game_id;"),
    _trigger("fp_p", "p", "UPDATE games SET paused_at = NEW.a WHERE id = NEW.game_id;"),
    # v: a user_id, b at
    _trigger("fp_v", "v", f"""
        INSERT INTO seen (game_id, user_id, seq, at) VALUES (NEW.game_id, NEW.a, {_LAST}, NEW.b)
          ON CONFLICT (game_id, user_id) DO UPDATE SET seq = max(seen.seq, excluded.seq),
          at = max(seen.at, excluded.at);"""),
    # r: a seat, b user_id, c guild_id, d side, e outcome, f lost, g killed, h ended_at
    _trigger("fp_r", "r", """
        INSERT INTO player_results (game_id, seat, user_id, guild_id, side, outcome, lost, killed, ended_at)
          VALUES (NEW.game_id, NEW.a, NEW.b, NEW.c, NEW.d, NEW.e, NEW.f, NEW.g, NEW.h)
          ON CONFLICT (game_id, seat) DO NOTHING;"""),
)

_START = ("z", None, *_NONE8)
_OUTCOMES = "SELECT json_group_array(json_array(cur, ok, last)) FROM (SELECT cur, ok, last FROM fp_out ORDER BY n)"


def install(conn: sqlite3.Connection) -> None:
    """Create the TEMP view and its triggers on the writer's connection (each new connection)."""
    for sql in SCHEMA:
        conn.execute(sql)


class FastCommit:
    """One commit: its rows for the fast statement and its slow transaction (a function of the
    connection returning the last seq, run inside a SAVEPOINT as any other transaction).

    Calling it runs the slow transaction, so a writer that knows nothing of the fast path runs
    it as any other."""

    __slots__ = ("flat", "game_id", "expected", "slow")

    def __init__(self, slow: Callable[[sqlite3.Connection], int], game_id: int, expected: int,
                 flat: tuple) -> None:
        self.slow = slow
        self.game_id = game_id
        self.expected = expected
        self.flat = flat

    def __call__(self, conn: sqlite3.Connection) -> int:
        return self.slow(conn)


def rows(
    game_id: int, expected_version: int, state: str, events: Sequence[str], *, status: str | None, now: str,
    snapshot: str | None, seats: Sequence[Any] | None, awaited: Sequence[tuple[str, int, str, int | None]] | None,
    decisions: Sequence[tuple] | None, organiser_id: int | None, paused: tuple[str | None] | None,
    seen: tuple[Sequence[int], str] | None, results: Sequence[tuple],
) -> tuple:
    """The flat values of a commit's rows (WIDTH a row), in the slow transaction's order."""
    g = game_id
    out: list = ["c", g, expected_version, state, status, now, len(events), None, None, None]
    for place, body in enumerate(events, 1):
        out += ("e", g, place, body, now, None, None, None, None, None)
    if snapshot is not None:
        out += ("s", g, expected_version + 1, snapshot, now, None, None, None, None, None)
    if seats is not None:
        out += ("T", g, *_NONE8)
        for s in seats:
            out += ("S", g, s.seat_index, s.side, s.user_id, s.display_name, None, None, None, None)
    if awaited is not None:
        for key, user_id, _, _ in awaited:
            out += ("w", g, user_id, key, None, None, None, None, None, None)
        out += ("x", g, *_NONE8)
        for key, user_id, due, left in awaited:
            out += ("d", g, user_id, key, due, left, None, None, None, None)
    if decisions:
        for d in decisions:
            out += ("D", g, *d, None, None)
    if organiser_id is not None:
        out += ("o", g, organiser_id, None, None, None, None, None, None, None)
    if paused is not None:
        out += ("p", g, paused[0], None, None, None, None, None, None, None)
    if seen is not None:
        users, at = seen
        for user_id in users:
            out += ("v", g, user_id, at, None, None, None, None, None, None)
    for r in results:
        out += ("r", g, *r)
    return tuple(out)


_SQL: dict[int, str] = {}


def _insert(count: int) -> str:
    """The INSERT of `count` rows (texts kept: a batch's runs have a few sizes)."""
    sql = _SQL.get(count)
    if sql is None:
        row = "(" + ", ".join("?" * WIDTH) + ")"
        sql = _SQL[count] = "INSERT INTO fp_rows VALUES " + ", ".join([row] * count)
        if len(_SQL) > 512:
            _SQL.clear()
    return sql


def apply(conn: sqlite3.Connection, run: Sequence[FastCommit]) -> list[tuple[int | None, bool, int | None]]:
    """Apply the run with one INSERT; return each commit's (version found, applied, last seq).
    Raises whatever SQLite raised; the statement has then written nothing."""
    params: list = list(_START)
    for commit in run:
        params += commit.flat
    conn.execute(_insert(len(params) // WIDTH), params)
    (found,), = conn.execute(_OUTCOMES).fetchall()
    outcomes = [(cur, bool(ok), last) for cur, ok, last in json.loads(found)]
    if len(outcomes) != len(run):  # cannot happen: every run's header row writes one outcome
        raise RuntimeError(f"the fast commit read back {len(outcomes)} outcomes for {len(run)} commits")
    return outcomes


def runs(run: Sequence[FastCommit], limit: int) -> list[list[FastCommit]]:
    """Split a run so that each part's statement binds at most `limit` values; a commit too big
    for one statement alone is a part of its own (longer than `limit`: the caller runs it slowly)."""
    parts: list[list[FastCommit]] = []
    part: list[FastCommit] = []
    size = WIDTH
    for commit in run:
        if part and size + len(commit.flat) > limit:
            parts.append(part)
            part, size = [], WIDTH
        part.append(commit)
        size += len(commit.flat)
    if part:
        parts.append(part)
    return parts
