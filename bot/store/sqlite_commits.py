"""A run of `SqliteStore.commit` transactions applied by ONE SQL statement on the writer's thread.

CPython's sqlite3 gives up the GIL around each SQLite call and the writer thread needs it back
after each one; while the event loop runs Python it gets it back only at the switch interval
(5 ms), so a dozen statements a commit kept the writer waiting on the loop and the two threads
took turns (docs/app.md, "The two threads of a command do not overlap"). Here a batch's
consecutive commits cost the writer one INSERT and one read-back, however many they are.

Each commit becomes, on the event loop's side (`row`, called by `SqliteStore.commit`), one row
of the TEMP view `fp_rows` (`COLUMNS`, after its place `n` in the statement): the state and the
scalars as they are, each list (seats, deadlines, decisions, seen users, results) as a JSON
array, the events' bodies as one text and their places in it. The view's INSTEAD OF trigger
(created on the writer's connection: TEMP objects need no migration) does what the slow
transaction does, row after row: it records the game's version and last seq in temp `fp_out`
(row `n`), then hands the commit on to view `fp_ok`, whose trigger writes only if that version
was the expected one (`fp_out.ok`, its WHEN), so a conflict or a missing game writes nothing and
is read back as such while the other commits of the run go on. Anything else that goes wrong (a
CHECK, a constraint, a trigger's refusal) aborts the one statement, which SQLite undoes whole;
the writer then runs the run's transactions the slow way (`FastCommit.slow`, a SAVEPOINT each),
which tells exactly the guilty caller exactly today's error.

Event bodies come as one text, the bodies one after another, with each one's place in its UTF-8
bytes (`bodies`): the trigger cuts each out as bytes, the very text given. Every other text goes
through `json.dumps(ensure_ascii=False)` and comes back from `json_each` as the very text given:
JSON escapes only quotes, backslashes and control characters, and the store refuses lone
surrogates and NUL before this (keepable.py).
"""
from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any

from bot.store.protocol import JsonText

# A row of fp_rows is a whole commit; what it writes in lists comes as JSON arrays (json_each), but
# the events' bodies (`bodies`: one text, and their places in it as `spans`):
COLUMNS = ("n", "game_id", "expected", "state", "status", "now", "events", "spans", "n_events", "snapshot", "version",
           "seats", "awaited", "decisions", "organiser", "pause", "paused", "seen", "seen_at", "results", "vouched")
WIDTH = len(COLUMNS)
# what the few commits that write them bring (fp_rare)
_RARE = ("game_id", "seats", "organiser", "pause", "paused", "results")

# the outcome of the row being applied: its place in the statement (1, 2, ...) is its row of
# fp_out, which it replaces (so no first row has to empty the table; the outcomes are read up to
# the statement's count)
_LATEST = "(SELECT {col} FROM fp_out WHERE n = NEW.n)"
_OK = _LATEST.format(col="ok")
_BASE = _LATEST.format(col="base")
_LAST = _LATEST.format(col="last")
# fp_ok: a commit's row with its outcome
_OK_COLUMNS = (*COLUMNS[1:], "ok", "base", "last")


def _item(n: int) -> str:
    return f"json_extract(value, '$[{n}]')"


# The trigger's statements. A statement whose WHERE is false at once still runs its start: it
# opens its tables, and some (a DELETE on a WITHOUT ROWID table, an INSERT ... SELECT into a table
# with triggers, as an INSERT of several rows into the view itself) build an ephemeral table,
# ~10,000 instructions each (and a 14 KB state in one is copied to its overflow pages). So a
# statement has no first row to empty fp_out (one commit is one VALUES row: no ephemeral table),
# and an INSERT into a view hands on one row by VALUES (an INSERT ... SELECT into a view with a
# trigger builds an ephemeral table even for no row). The row records its outcome and hands itself
# on to view `fp_ok`, with that outcome as values (read from fp_out once, not by a subquery in
# each statement); fp_ok's trigger acts only for an applied commit (its WHEN), and hands what few
# commits write (seats, an organiser, a pause, results) on to `fp_rare`, whose trigger acts only if
# there is any (its WHEN; stop 36). Each part acts on its own rows and columns, so their order
# within a commit does not change what is written; a failure anywhere aborts the statement.
_STATEMENTS = (
    # the row records its outcome: the version found, applied or not, its first and last seq
    """INSERT OR REPLACE INTO fp_out (n, cur, ok, base, last) SELECT NEW.n, v, coalesce(v = NEW.expected, 0), s,
         s + NEW.n_events
         FROM (SELECT (SELECT version FROM games WHERE id = NEW.game_id) AS v,
                      (SELECT coalesce(max(seq), 0) FROM events WHERE game_id = NEW.game_id) AS s)""",
    # and hands itself on, with that outcome, to fp_ok, whose trigger writes it only if applied
    f"""INSERT INTO fp_ok ({", ".join(_OK_COLUMNS)}) VALUES ({", ".join(f"NEW.{c}" for c in COLUMNS[1:])},
         {_OK}, {_BASE}, {_LAST})""",
)

# what fp_ok's trigger does for an applied commit (its WHEN: NEW.ok)
_APPLIED = (
    # a state nobody vouched for (not a JsonText) is checked to be JSON, as the columns' CHECK did,
    # by its trip through temp fp_json (its CHECK fails the statement; the slow way then tells
    # the guilty caller); an applied commit's only, as the CHECK looked only at rows written
    """INSERT OR REPLACE INTO fp_json (n, state) SELECT 1, NEW.state WHERE NOT NEW.vouched""",
    # the version check is in the UPDATE itself, as in the slow transaction; the status is set
    # only when given (SQLite updates an index on a column set even to the same value)
    """UPDATE games SET state = NEW.state, version = version + 1, updated_at = NEW.now
         WHERE NEW.status IS NULL AND id = NEW.game_id AND version = NEW.expected""",
    """UPDATE games SET state = NEW.state, version = version + 1, updated_at = NEW.now, status = NEW.status
         WHERE NEW.status IS NOT NULL AND id = NEW.game_id AND version = NEW.expected""",
    # the bodies come as one text, one after another, and each one's place in its UTF-8 bytes
    # (`spans`, below): cut out as bytes, each is the very text given (no JSON to escape and undo)
    """INSERT INTO events (game_id, seq, body, created_at)
         SELECT NEW.game_id, NEW.base + key + 1,
                CAST(substr(CAST(NEW.events AS BLOB), value >> 32, value & 4294967295) AS TEXT), NEW.now
         FROM json_each(NEW.spans)""",
    """INSERT INTO snapshots (game_id, label, seq, version, state, created_at)
         SELECT NEW.game_id, NEW.snapshot, NEW.last, NEW.version, NEW.state, NEW.now
         WHERE NEW.snapshot IS NOT NULL
         ON CONFLICT (game_id, label) DO UPDATE SET seq = excluded.seq, version = excluded.version,
         state = excluded.state, created_at = excluded.created_at""",
    # awaited: [key, user_id, due, left_us] each. The rows not named go; a named one is written
    # only if new or changed (the upsert's WHERE), in order, as `_replace_deadlines` does.
    # The named pairs are put in temp fp_keep first, keyed as the DELETE looks them up: a NOT IN
    # over json_each would be a subquery on NEW, which SQLite runs again, into a new ephemeral
    # table, for every row of the game's deadlines (~3 a command). (key and user_id are never
    # NULL, in the table nor in a row that can be written)
    "DELETE FROM fp_keep",
    f"""INSERT OR IGNORE INTO fp_keep (key, user_id) SELECT {_item(0)}, {_item(1)} FROM json_each(NEW.awaited)""",
    """DELETE FROM deadlines WHERE NEW.awaited IS NOT NULL AND game_id = NEW.game_id
         AND (key, user_id) NOT IN (SELECT key, user_id FROM fp_keep)""",
    f"""INSERT INTO deadlines (game_id, key, user_id, due, reminded, left_us)
         SELECT NEW.game_id, {_item(0)}, {_item(1)}, {_item(2)}, 0, {_item(3)} FROM json_each(NEW.awaited)
         WHERE true
         ON CONFLICT (game_id, key, user_id) DO UPDATE SET due = excluded.due,
         reminded = (deadlines.reminded AND deadlines.due = excluded.due),
         claimed_until = CASE WHEN deadlines.due = excluded.due THEN deadlines.claimed_until END,
         left_us = excluded.left_us
         WHERE NOT (deadlines.due = excluded.due AND deadlines.left_us IS excluded.left_us)""",
    f"""INSERT INTO seat_decisions (game_id, seat, asked, asked_version, answered, command, sent_at)
         SELECT NEW.game_id, {_item(0)}, {_item(1)}, {_item(2)}, {_item(3)}, {_item(4)}, {_item(5)}
         FROM json_each(NEW.decisions) WHERE true
         ON CONFLICT (game_id, seat) DO UPDATE SET asked = excluded.asked,
         asked_version = excluded.asked_version, answered = excluded.answered,
         command = excluded.command, sent_at = excluded.sent_at""",
    """INSERT INTO seen (game_id, user_id, seq, at)
         SELECT NEW.game_id, value, NEW.last, NEW.seen_at FROM json_each(NEW.seen) WHERE true
         ON CONFLICT (game_id, user_id) DO UPDATE SET seq = max(seen.seq, excluded.seq),
         at = max(seen.at, excluded.at)""",
    f"""INSERT INTO fp_rare ({", ".join(_RARE)}) VALUES ({", ".join(f"NEW.{c}" for c in _RARE)})""",
)

# what fp_rare's trigger does, for an applied commit
_RARE_STATEMENTS = (
    "DELETE FROM seats WHERE NEW.seats IS NOT NULL AND game_id = NEW.game_id",
    f"""INSERT INTO seats (game_id, seat_index, side, user_id, display_name)
         SELECT NEW.game_id, {_item(0)}, {_item(1)}, {_item(2)}, {_item(3)} FROM json_each(NEW.seats)""",
    "UPDATE games SET organiser_id = NEW.organiser WHERE NEW.organiser IS NOT NULL AND id = NEW.game_id",
    "UPDATE games SET paused_at = NEW.paused WHERE NEW.pause AND id = NEW.game_id",
    f"""INSERT INTO player_results (game_id, seat, user_id, guild_id, side, outcome, lost, killed, ended_at)
         SELECT NEW.game_id, {", ".join(_item(n) for n in range(8))} FROM json_each(NEW.results)
         WHERE true ON CONFLICT (game_id, seat) DO NOTHING""",  # (a WHERE must end the SELECT before an upsert)
)


def _trigger(name: str, view: str, statements: tuple[str, ...], when: str = "") -> str:
    return (f"CREATE TEMP TRIGGER {name} INSTEAD OF INSERT ON {view}" + (f" WHEN {when}" if when else "")
            + " BEGIN\n" + "".join(f"{statement};\n" for statement in statements) + "END")


# Where a state's text nobody vouched for is checked to be JSON (docs/store.md, "A state's JSON
# checked once"): the one row it is written to, whose CHECK is the one games.state had.
CHECK_JSON = "INSERT OR REPLACE INTO fp_json (n, state) VALUES (1, ?)"

SCHEMA: tuple[str, ...] = (
    "CREATE TEMP TABLE fp_out (n INTEGER PRIMARY KEY, cur, ok, base, last)",
    "CREATE TEMP TABLE fp_keep (key TEXT, user_id INTEGER, PRIMARY KEY (key, user_id)) WITHOUT ROWID",
    "CREATE TEMP TABLE fp_json (n INTEGER PRIMARY KEY, state TEXT NOT NULL CHECK (json_valid(state)))",
    f"CREATE TEMP VIEW fp_rows ({', '.join(COLUMNS)}) AS SELECT {', '.join(['NULL'] * WIDTH)}",
    f"CREATE TEMP VIEW fp_ok ({', '.join(_OK_COLUMNS)}) AS SELECT {', '.join(['NULL'] * len(_OK_COLUMNS))}",
    f"CREATE TEMP VIEW fp_rare ({', '.join(_RARE)}) AS SELECT {', '.join(['NULL'] * len(_RARE))}",
    _trigger("fp_apply", "fp_rows", _STATEMENTS),
    _trigger("fp_apply_ok", "fp_ok", _APPLIED, "NEW.ok"),
    _trigger("fp_apply_rare", "fp_rare", _RARE_STATEMENTS,
             "NEW.seats IS NOT NULL OR NEW.organiser IS NOT NULL OR NEW.pause OR NEW.results IS NOT NULL"),
)

_OUTCOME = "SELECT cur, ok, last FROM fp_out WHERE n = 1"
_OUTCOMES = ("SELECT json_group_array(json_array(cur, ok, last))"
             " FROM (SELECT cur, ok, last FROM fp_out WHERE n <= ? ORDER BY n)")


def install(conn: sqlite3.Connection) -> None:
    """Create the TEMP view and its trigger on the writer's connection (each new connection)."""
    for sql in SCHEMA:
        conn.execute(sql)


class FastCommit:
    """One commit: its rows for the fast statement and its slow transaction (a function of the
    connection returning the last seq, run inside a SAVEPOINT as any other transaction).

    Calling it runs the slow transaction, so a writer that knows nothing of the fast path runs
    it as any other."""

    __slots__ = ("expected", "game_id", "row", "slow")

    def __init__(self, slow: Callable[[sqlite3.Connection], int], game_id: int, expected: int,
                 row: tuple) -> None:
        self.slow = slow
        self.game_id = game_id
        self.expected = expected
        self.row = row

    def __call__(self, conn: sqlite3.Connection) -> int:
        return self.slow(conn)


# ensure_ascii=False: text other than quotes, backslashes and control characters is copied as it
# is, and SQLite's json_each gives back exactly the text it was given. One encoder for every row
# (json.dumps with these arguments would build one a call).
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def _make_json() -> Callable[[Any], str]:
    """`_ENCODER.encode`, without what it does again at every call for a list: two Python calls, a
    dict to catch circular lists, and a new C encoder with the same nine settings (some 3,000
    instructions; a commit makes three or four lists). This is the one C encoder `encode` would
    make, made once; without the circular check (a row's lists hold numbers, texts and None)."""
    make = json.encoder.c_make_encoder
    if make is None:  # a Python without the C accelerator: as json does it
        return _ENCODER.encode
    encode = make(None, _ENCODER.default, json.encoder.encode_basestring, None, ":", ",", False, False, True)
    return lambda value: "".join(encode(value, 0))


_json: Callable[[Any], str] = _make_json()


_NO_EVENTS = (None, None, 0)


def bodies(events: Sequence[str]) -> tuple[str | None, str | None, int] | None:
    """The events' bodies as fp_rows takes them, if they are texts the store surely keeps (else None,
    and `refuse_unkeepable` walks them one by one): one text, the bodies one after another; where
    each lies in its UTF-8 bytes, a JSON array of `(first byte, counted from 1) << 32 | length`; how many.

    The trigger cuts each body out of the text's bytes, so it stores exactly the bytes of the text
    given (sqlite3 binds a str as its UTF-8). Once they went as a JSON array of JSON strings, which
    json.dumps escaped and json_each unescaped again: a few instructions a character each way.
    And what the store refuses in a text (keepable.py) is looked for once in the whole: a NUL, and
    a lone surrogate, which only text that is not ASCII can hold and its encoding refuses."""
    if type(events) is not list and type(events) is not tuple:
        return None
    if not events:
        return _NO_EVENTS
    try:
        joined = "".join(events)
        sizes = map(len, events) if joined.isascii() else [  # (an ASCII str is its bytes)
            len(body) if body.isascii() else len(body.encode()) for body in events]
    except (TypeError, UnicodeEncodeError):  # not texts; a lone surrogate
        return None
    if "\x00" in joined:
        return None
    spans = []
    at = 1
    for size in sizes:
        spans.append(at << 32 | size)
        at += size
    return joined, "[" + ",".join(map(str, spans)) + "]", len(spans)


def row(
    game_id: int, expected_version: int, state: str, events: tuple[str | None, str | None, int], *,
    status: str | None, now: str,
    snapshot: str | None, seats: Sequence[Any] | None, awaited: Sequence[tuple[str, int, str, int | None]] | None,
    decisions: Sequence[tuple], organiser_id: int | None, paused: tuple[str | None] | None,
    seen: tuple[Sequence[int], str] | None, results: Sequence[tuple],
) -> tuple:
    """A commit's row of fp_rows (COLUMNS but the first, `n`, which `insert` puts in front);
    `events`: what `bodies` made of them."""
    return (
        game_id, expected_version, state, status, now, *events,
        snapshot, expected_version + 1,
        None if seats is None else _json([(s.seat_index, s.side, s.user_id, s.display_name) for s in seats]),
        None if awaited is None else _json(awaited),
        _json(decisions) if decisions else None,
        organiser_id, 0 if paused is None else 1, None if paused is None else paused[0],
        None if seen is None or not seen[0] else _json(seen[0]), None if seen is None else seen[1],
        _json(results) if results else None, 1 if type(state) is JsonText else 0,  # (a bool would be adapted)
    )


# The columns most commits leave NULL. CPython's sqlite3 binds None (and anything but an exact
# int, float, str or bytearray) through its adapter protocol: two failed attribute look-ups, some
# 3,000 instructions a value on the writer's thread. A column that every row of a part leaves
# NULL is written into the statement as the literal NULL instead, so it binds nothing.
_NULLABLE = tuple(COLUMNS.index(c) - 1 for c in ("status", "snapshot", "seats", "organiser", "paused", "results"))

_SQL: dict[tuple[int, int], tuple[str, Callable[[tuple], Any] | None]] = {}


def _insert(count: int, absent: int) -> tuple[str, Callable[[tuple], Any] | None]:
    """The INSERT of `count` rows whose columns in the bit mask `absent` (over `_NULLABLE`) are
    NULL in every row, and what picks the other values out of a row (None: all of them). Texts
    kept: a batch's parts have a few sizes, and their rows a few shapes."""
    found = _SQL.get((count, absent))
    if found is None:
        null = {_NULLABLE[bit] for bit in range(len(_NULLABLE)) if absent >> bit & 1}
        kept = [i for i in range(WIDTH - 1) if i not in null]
        row = "(?, " + ", ".join("NULL" if i in null else "?" for i in range(WIDTH - 1)) + ")"
        pick = None if not null else (itemgetter(*kept) if len(kept) > 1 else lambda r: (r[kept[0]],))
        found = _SQL[(count, absent)] = ("INSERT INTO fp_rows VALUES " + ", ".join([row] * count), pick)
        if len(_SQL) > 512:
            _SQL.clear()
    return found


def insert(conn: sqlite3.Connection, run: Sequence[FastCommit]) -> None:
    """Apply the run with one INSERT. Raises whatever SQLite raised; the statement has then
    written nothing (SQLite undoes a failed statement whole)."""
    absent = 0
    for bit, i in enumerate(_NULLABLE):
        for commit in run:
            if commit.row[i] is not None:
                break
        else:
            absent |= 1 << bit
    sql, pick = _insert(len(run), absent)
    params: list = []
    for n, commit in enumerate(run, 1):
        params.append(n)
        params += commit.row if pick is None else pick(commit.row)
    conn.execute(sql, params)


def outcomes(conn: sqlite3.Connection, count: int) -> list[tuple[int | None, bool, int | None]]:
    """What the last `insert` did to each of its `count` commits: (version found, applied, last seq)."""
    if count == 1:  # the usual part: one row, read as it is (no JSON made and parsed again)
        found = conn.execute(_OUTCOME).fetchall()
    else:
        (text,), = conn.execute(_OUTCOMES, (count,)).fetchall()
        found = json.loads(text)
    done = [(cur, bool(ok), last) for cur, ok, last in found]
    if len(done) != count:  # cannot happen: every commit's row writes one outcome
        raise RuntimeError(f"the fast commit read back {len(done)} outcomes for {count} commits")
    return done


def runs(run: Sequence[FastCommit], limit: int) -> list[Sequence[FastCommit]]:
    """Split a run into parts of a power of two commits each, largest first, none binding
    more than `limit` values (with a row's worth to spare, as when a statement had a first
    row). Each size is a statement of its own, which sqlite3 keeps prepared
    (with the trigger's program in it) per connection: with a part of every size up to a
    batch's 64 that was some 10 MB kept; powers of two are 7 statements at most."""
    most = 1
    while (2 * most + 1) * WIDTH <= limit:
        most *= 2
    parts: list[Sequence[FastCommit]] = []
    start = 0
    while start < len(run):
        size = most
        while size > len(run) - start:
            size //= 2
        parts.append(run[start:start + size])
        start += size
    return parts
