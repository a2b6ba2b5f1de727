"""The SQLite schema as an ordered list of migrations, applied at start-up.

`PRAGMA user_version` counts the migrations applied. A new table (campaigns, say) is a new
script appended to `MIGRATIONS`; a script once released is never edited.
"""
from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path

from bot.store.protocol import SchemaTooNew, StoreError

# STRICT tables (SQLite 3.37) type-check every column; the store uses RETURNING (3.35).
MIN_SQLITE = (3, 37, 0)

# Timestamps are UTC ISO 8601 text with microseconds, so text order is time order.
# Games and events are never deleted, so their foreign keys do not cascade.
V1_GAMES_EVENTS_SEATS_SNAPSHOTS = """
CREATE TABLE games (
    id           INTEGER PRIMARY KEY,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    thread_id    INTEGER,
    scenario_id  TEXT    NOT NULL,
    status       TEXT    NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
    organiser_id INTEGER NOT NULL,
    state        TEXT    NOT NULL CHECK (json_valid(state)),
    version      INTEGER NOT NULL CHECK (version >= 1),
    created_at   TEXT    NOT NULL,
    updated_at   TEXT    NOT NULL
) STRICT;
CREATE INDEX games_by_status ON games (status);
CREATE INDEX games_by_channel ON games (channel_id);
CREATE INDEX games_by_thread ON games (thread_id) WHERE thread_id IS NOT NULL;

CREATE TABLE events (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    body       TEXT    NOT NULL CHECK (json_valid(body)),
    created_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, seq)
) STRICT, WITHOUT ROWID;

-- The log is append-only and gapless: seq 1, 2, 3... per game, never rewritten.
CREATE TRIGGER events_seq_follows BEFORE INSERT ON events
WHEN NEW.seq IS NOT (SELECT coalesce(max(seq), 0) + 1 FROM events WHERE game_id = NEW.game_id)
BEGIN
    SELECT RAISE(ABORT, 'events.seq must follow the last seq of its game');
END;
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are append-only');
END;
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are append-only');
END;

CREATE TABLE seats (
    game_id      INTEGER NOT NULL REFERENCES games (id),
    seat_index   INTEGER NOT NULL CHECK (seat_index >= 0),
    side         TEXT    NOT NULL,
    user_id      INTEGER NOT NULL,
    display_name TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat_index)
) STRICT, WITHOUT ROWID;

CREATE TABLE snapshots (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    label      TEXT    NOT NULL,
    seq        INTEGER NOT NULL CHECK (seq >= 0),
    version    INTEGER NOT NULL,
    state      TEXT    NOT NULL CHECK (json_valid(state)),
    created_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, label)
) STRICT;
CREATE INDEX snapshots_by_seq ON snapshots (game_id, seq);

CREATE TABLE settings (
    scope TEXT NOT NULL,
    key   TEXT NOT NULL,
    value TEXT NOT NULL CHECK (json_valid(value)),
    PRIMARY KEY (scope, key)
) STRICT, WITHOUT ROWID;

-- The private-thread fallback per player: looked up by this id before any search by name.
CREATE TABLE private_channels (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    user_id    INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE deadlines (
    game_id  INTEGER NOT NULL REFERENCES games (id),
    key      TEXT    NOT NULL,
    user_id  INTEGER NOT NULL,
    due      TEXT    NOT NULL,
    reminded INTEGER NOT NULL DEFAULT 0 CHECK (reminded IN (0, 1)),
    PRIMARY KEY (game_id, key, user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX deadlines_by_due ON deadlines (due) WHERE reminded = 0;
"""

# A campaign is one JSON document with a version, like a game; its results wait for the
# organiser (pending), are applied (confirmed, keeping the campaign as it was before, for an
# exact revert) or thrown out (rejected). A result's key (the game it came from, or a digest of
# its final state) is unique per campaign, so the same result is never recorded twice.
V2_CAMPAIGNS = """
CREATE TABLE campaigns (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    definition_id TEXT    NOT NULL,
    name          TEXT    NOT NULL,
    status        TEXT    NOT NULL CHECK (status IN ('enlisting', 'running', 'finished')),
    organiser_id  INTEGER NOT NULL,
    state         TEXT    NOT NULL CHECK (json_valid(state)),
    version       INTEGER NOT NULL CHECK (version >= 1),
    created_at    TEXT    NOT NULL,
    updated_at    TEXT    NOT NULL
) STRICT;
CREATE INDEX campaigns_by_channel ON campaigns (channel_id);

CREATE TABLE campaign_results (
    campaign_id  INTEGER NOT NULL REFERENCES campaigns (id),
    number       INTEGER NOT NULL CHECK (number >= 1),
    key          TEXT    NOT NULL,
    step         TEXT    NOT NULL,
    scenario_id  TEXT    NOT NULL,
    game_id      INTEGER,
    status       TEXT    NOT NULL CHECK (status IN ('pending', 'confirmed', 'rejected')),
    body         TEXT    NOT NULL CHECK (json_valid(body)),
    before       TEXT    CHECK (before IS NULL OR json_valid(before)),
    submitted_by INTEGER,
    decided_by   INTEGER,
    created_at   TEXT    NOT NULL,
    decided_at   TEXT,
    PRIMARY KEY (campaign_id, number),
    UNIQUE (campaign_id, key),
    CHECK ((status = 'confirmed') = (before IS NOT NULL))
) STRICT;

CREATE TABLE campaign_log (
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id),
    seq         INTEGER NOT NULL CHECK (seq >= 1),
    body        TEXT    NOT NULL CHECK (json_valid(body)),
    created_at  TEXT    NOT NULL,
    PRIMARY KEY (campaign_id, seq)
) STRICT, WITHOUT ROWID;

-- Like a game's events: append-only and gapless.
CREATE TRIGGER campaign_log_seq_follows BEFORE INSERT ON campaign_log
WHEN NEW.seq IS NOT (SELECT coalesce(max(seq), 0) + 1 FROM campaign_log WHERE campaign_id = NEW.campaign_id)
BEGIN
    SELECT RAISE(ABORT, 'campaign_log.seq must follow the last seq of its campaign');
END;
CREATE TRIGGER campaign_log_no_update BEFORE UPDATE ON campaign_log
BEGIN
    SELECT RAISE(ABORT, 'the campaign log is append-only');
END;
CREATE TRIGGER campaign_log_no_delete BEFORE DELETE ON campaign_log
BEGIN
    SELECT RAISE(ABORT, 'the campaign log is append-only');
END;
"""

# Issue 14. A player's games are found through his seats (the JSON list of game ids kept per
# user in settings is gone). A deadline is claimed by one process for a lease before its
# reminder or default is carried out, so several processes on one file act on it once. Each
# seat's last prompt and last answer are kept beside the game, written by the commit that
# sent or carried them out (docs/app.md: prompts derived, not diffed).
V3_SEATS_BY_USER_DEADLINE_CLAIMS_SEAT_DECISIONS = """
CREATE INDEX seats_by_user ON seats (user_id);

ALTER TABLE deadlines ADD COLUMN claimed_until TEXT;

CREATE TABLE seat_decisions (
    game_id       INTEGER NOT NULL REFERENCES games (id),
    seat          INTEGER NOT NULL CHECK (seat >= 0),
    asked         TEXT,
    asked_version INTEGER,
    answered      TEXT,
    command       TEXT,
    sent_at       TEXT,
    PRIMARY KEY (game_id, seat)
) STRICT, WITHOUT ROWID;

DELETE FROM settings WHERE scope LIKE 'user:%' AND key = 'games';
"""

# Issue 15, several processes. After a restart a game's awaited players are asked again once
# per version of the game, whatever the number of processes: the first to set
# `resumed_version` to the game's version asks them. `paces` holds the next free moment
# (seconds since 1970, by the database's clock) of a pace every process shares, so
# the restart's prompts go out at one rate in all.
V4_RESUMED_VERSION_PACES = """
ALTER TABLE games ADD COLUMN resumed_version INTEGER;

CREATE TABLE paces (
    name    TEXT PRIMARY KEY,
    next_at REAL NOT NULL
) STRICT, WITHOUT ROWID;
"""

# Issue 16 (after issue 15's migration 4). The organiser may stop a game's clocks: the game
# keeps when (paused_at) and each deadline the time it had left (left_us, microseconds), and a deadline with time left kept is
# never claimed. How far each player has read each game's log and when he last looked (seen);
# who watches a game without a seat (watchers); each seat's part in a finished game, for
# statistics per server (player_results); a server's campaigns, for their medals.
V5_PAUSES_SEEN_WATCHERS_RESULTS = """
ALTER TABLE games ADD COLUMN paused_at TEXT;

ALTER TABLE deadlines ADD COLUMN left_us INTEGER;

CREATE TABLE seen (
    game_id INTEGER NOT NULL REFERENCES games (id),
    user_id INTEGER NOT NULL,
    seq     INTEGER NOT NULL CHECK (seq >= 0),
    at      TEXT    NOT NULL,
    PRIMARY KEY (game_id, user_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE watchers (
    game_id INTEGER NOT NULL REFERENCES games (id),
    user_id INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE player_results (
    game_id  INTEGER NOT NULL REFERENCES games (id),
    seat     INTEGER NOT NULL CHECK (seat >= 0),
    user_id  INTEGER NOT NULL,
    guild_id INTEGER NOT NULL,
    side     TEXT    NOT NULL,
    outcome  TEXT    NOT NULL CHECK (outcome IN ('won', 'lost', 'draw')),
    lost     INTEGER NOT NULL CHECK (lost >= 0),
    killed   INTEGER NOT NULL CHECK (killed >= 0),
    ended_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat)
) STRICT, WITHOUT ROWID;
CREATE INDEX player_results_by_guild ON player_results (guild_id, user_id);

CREATE INDEX campaigns_by_guild ON campaigns (guild_id);
"""

# Issue 17. The event log becomes a rowid table: rows go in in the order they are written, so
# each commit's events land on the last page instead of in the middle of its game's run of
# (game_id, seq), where a full page split three neighbours and their parent: about four pages of
# the WAL a command for three or four small rows. (game_id, seq) stays the primary key (now an
# index beside the rows), the checks and the triggers stay as they were.
V6_EVENTS_IN_WRITING_ORDER = """
CREATE TABLE events_in_order (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    body       TEXT    NOT NULL CHECK (json_valid(body)),
    created_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, seq)
) STRICT;
INSERT INTO events_in_order (game_id, seq, body, created_at)
    SELECT game_id, seq, body, created_at FROM events ORDER BY created_at, game_id, seq;
DROP TABLE events;
ALTER TABLE events_in_order RENAME TO events;

CREATE TRIGGER events_seq_follows BEFORE INSERT ON events
WHEN NEW.seq IS NOT (SELECT coalesce(max(seq), 0) + 1 FROM events WHERE game_id = NEW.game_id)
BEGIN
    SELECT RAISE(ABORT, 'events.seq must follow the last seq of its game');
END;
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are append-only');
END;
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are append-only');
END;
"""

# Issue 17. A state's JSON is checked once, not parsed again by the database on every write:
# games.state and snapshots.state lose their CHECK (json_valid(...)), which was a third of the
# writer's work a command (a 14 KB state parsed twice over in SQLite's JSON parser). The store
# checks every state nobody vouched for itself, on the writer's connection, and refuses it as
# the CHECK did (docs/store.md, "A state's JSON checked once"). Both tables are rebuilt the
# way SQLite documents (new table, copy, drop, rename; foreign keys are off meanwhile), with
# their columns in the same order, their indexes and every other check as they were.
V7_STATES_CHECKED_ONCE = """
CREATE TABLE games_checked_once (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    thread_id       INTEGER,
    scenario_id     TEXT    NOT NULL,
    status          TEXT    NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
    organiser_id    INTEGER NOT NULL,
    state           TEXT    NOT NULL,
    version         INTEGER NOT NULL CHECK (version >= 1),
    created_at      TEXT    NOT NULL,
    updated_at      TEXT    NOT NULL,
    resumed_version INTEGER,
    paused_at       TEXT
) STRICT;
INSERT INTO games_checked_once (id, guild_id, channel_id, thread_id, scenario_id, status, organiser_id, state,
                                version, created_at, updated_at, resumed_version, paused_at)
    SELECT id, guild_id, channel_id, thread_id, scenario_id, status, organiser_id, state,
           version, created_at, updated_at, resumed_version, paused_at FROM games ORDER BY id;
DROP TABLE games;
ALTER TABLE games_checked_once RENAME TO games;
CREATE INDEX games_by_status ON games (status);
CREATE INDEX games_by_channel ON games (channel_id);
CREATE INDEX games_by_thread ON games (thread_id) WHERE thread_id IS NOT NULL;

CREATE TABLE snapshots_checked_once (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    label      TEXT    NOT NULL,
    seq        INTEGER NOT NULL CHECK (seq >= 0),
    version    INTEGER NOT NULL,
    state      TEXT    NOT NULL,
    created_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, label)
) STRICT;
INSERT INTO snapshots_checked_once (game_id, label, seq, version, state, created_at)
    SELECT game_id, label, seq, version, state, created_at FROM snapshots ORDER BY rowid;
DROP TABLE snapshots;
ALTER TABLE snapshots_checked_once RENAME TO snapshots;
CREATE INDEX snapshots_by_seq ON snapshots (game_id, seq);
"""

MIGRATIONS: tuple[str, ...] = (
    V1_GAMES_EVENTS_SEATS_SNAPSHOTS,
    V2_CAMPAIGNS,
    V3_SEATS_BY_USER_DEADLINE_CLAIMS_SEAT_DECISIONS,
    V4_RESUMED_VERSION_PACES,
    V5_PAUSES_SEEN_WATCHERS_RESULTS,
    V6_EVENTS_IN_WRITING_ORDER,
    V7_STATES_CHECKED_ONCE,
)


def statements(script: str) -> Iterator[str]:
    """Split a script into statements, keeping trigger bodies whole (sqlite3.complete_statement)."""
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            yield pending.strip()
            pending = ""
    code = [line for line in pending.splitlines() if not line.strip().startswith("--")]
    if "".join(code).strip():
        raise StoreError(f"migration ends in an incomplete statement: {pending.strip()[:60]!r}")


def migrate(
    path: str | Path, migrations: Sequence[str] = MIGRATIONS, *, timeout: float = 5.0,
    pragmas: Sequence[str] = (),
) -> int:
    """Bring the database at `path` to `len(migrations)` and return that version (`pragmas`:
    run first, on the migrating connection).

    Runs in one `BEGIN IMMEDIATE` transaction, so two processes starting together cannot both
    apply a script; running it again is a no-op. Refuses a database newer than `migrations`.
    """
    if sqlite3.sqlite_version_info < MIN_SQLITE:
        raise StoreError(
            f"SQLite {sqlite3.sqlite_version} is too old; Fieldpost needs "
            f"{'.'.join(map(str, MIN_SQLITE))} or newer"
        )
    known = len(migrations)
    conn = sqlite3.connect(path, timeout=timeout, isolation_level=None)
    try:
        for pragma in pragmas:
            conn.execute(pragma)
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if mode != "wal":
            raise StoreError(f"{path}: cannot use WAL journal mode (got {mode!r})")
        conn.execute("BEGIN IMMEDIATE")
        try:
            found = conn.execute("PRAGMA user_version").fetchone()[0]
            if found > known:
                raise SchemaTooNew(found, known, path)
            for script in migrations[found:]:
                for statement in statements(script):
                    conn.execute(statement)
            if found < known:
                # Foreign keys are off during migrations (table rebuilds need that); check after.
                broken = conn.execute("PRAGMA foreign_key_check").fetchall()
                if broken:
                    raise StoreError(f"migration left broken foreign keys: {broken[:5]}")
                conn.execute(f"PRAGMA user_version = {known:d}")
            conn.execute("COMMIT")
        except BaseException:
            conn.rollback()  # a no-op if the failure already ended the transaction
            raise
        return known
    finally:
        conn.close()
