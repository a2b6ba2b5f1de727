from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.store import SchemaTooNew, SqliteStore, StoreError
from bot.store.migrations import MIGRATIONS, migrate, statements
from tests.store.sample import new_game

pytestmark = pytest.mark.sqlite_only  # the SQLite file itself; tests/store/test_postgres.py for PostgreSQL

# A made-up later migration (the real campaign tables are migration 2).
LATER = """
CREATE TABLE later_things (
    id   INTEGER PRIMARY KEY,
    name TEXT NOT NULL
) STRICT;
"""


def schema(path: Path) -> list[tuple[str, str, str]]:
    with sqlite3.connect(path) as conn:
        return conn.execute(
            "SELECT type, name, sql FROM sqlite_schema ORDER BY type, name"
        ).fetchall()


def user_version(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return conn.execute("PRAGMA user_version").fetchone()[0]


async def test_a_new_file_gets_every_table_in_wal_mode(db_path: Path) -> None:
    async with SqliteStore(db_path):
        pass
    names = {name for kind, name, _ in schema(db_path) if kind == "table"}
    assert {"games", "events", "seats", "snapshots", "settings", "private_channels",
            "deadlines", "campaigns", "campaign_results", "campaign_log"} <= names
    triggers = {name for kind, name, _ in schema(db_path) if kind == "trigger"}
    assert triggers == {"events_seq_follows", "events_no_update", "events_no_delete",
                        "campaign_log_seq_follows", "campaign_log_no_update", "campaign_log_no_delete"}
    assert user_version(db_path) == len(MIGRATIONS)
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_opening_again_changes_nothing(db_path: Path) -> None:
    async with SqliteStore(db_path) as store:
        game = await new_game(store)
    before = schema(db_path)
    assert migrate(db_path) == len(MIGRATIONS)
    async with SqliteStore(db_path) as store:
        assert (await store.load_game(game.id)).version == 1
    assert schema(db_path) == before
    assert user_version(db_path) == len(MIGRATIONS)


async def test_a_later_migration_applies_on_top_and_keeps_the_data(db_path: Path) -> None:
    async with SqliteStore(db_path) as store:
        game = await new_game(store)
    assert migrate(db_path, (*MIGRATIONS, LATER)) == len(MIGRATIONS) + 1
    assert migrate(db_path, (*MIGRATIONS, LATER)) == len(MIGRATIONS) + 1
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("SELECT count(*) FROM later_things").fetchone() == (0,)
        assert conn.execute("SELECT id FROM games").fetchall() == [(game.id,)]


async def test_a_newer_database_refuses_to_open_and_is_left_alone(db_path: Path) -> None:
    migrate(db_path, (*MIGRATIONS, LATER))
    before = schema(db_path)
    with pytest.raises(SchemaTooNew) as refused:
        async with SqliteStore(db_path):
            pass
    assert (refused.value.found, refused.value.known) == (len(MIGRATIONS) + 1, len(MIGRATIONS))
    assert "newer" in str(refused.value)
    assert schema(db_path) == before
    assert user_version(db_path) == len(MIGRATIONS) + 1


def test_a_failing_migration_applies_nothing(db_path: Path) -> None:
    migrate(db_path)
    broken = "CREATE TABLE later_things (id INTEGER);\nCREATE TABLE games (id INTEGER);\n"
    with pytest.raises(sqlite3.OperationalError, match="games already exists"):
        migrate(db_path, (*MIGRATIONS, broken))
    assert user_version(db_path) == len(MIGRATIONS)
    assert "later_things" not in {name for _, name, _ in schema(db_path)}


def test_scripts_split_into_statements_with_trigger_bodies_whole() -> None:
    script = (
        "CREATE TABLE t (x INTEGER);\n"
        "-- why the trigger\n"
        "CREATE TRIGGER t_guard BEFORE DELETE ON t\n"
        "BEGIN\n"
        "    SELECT RAISE(ABORT, 'no; never');\n"
        "END;\n"
    )
    parts = list(statements(script))
    assert len(parts) == 2
    assert parts[1].endswith("END;") and "RAISE(ABORT, 'no; never')" in parts[1]


def test_a_script_ending_mid_statement_is_refused() -> None:
    with pytest.raises(StoreError, match="incomplete"):
        list(statements("CREATE TABLE t (x INTEGER);\nCREATE TABLE u (x\n-- trailing note\n"))
    assert list(statements("CREATE TABLE t (x INTEGER);\n-- trailing note\n")) == [
        "CREATE TABLE t (x INTEGER);"
    ]


async def test_migration_three_indexes_seats_by_user_and_drops_the_old_user_game_lists(db_path: Path) -> None:
    migrate(db_path, MIGRATIONS[:2])
    with sqlite3.connect(db_path) as conn:
        conn.execute("""INSERT INTO settings VALUES ('user:5', 'games', '[1, 2]'), ('user:5', 'dm_hint', 'true'),
                        ('guild:1', 'games', '[3]')""")
        when = "2026-03-01T12:00:00.000000+00:00"
        conn.execute("INSERT INTO games VALUES (1, 1, 1, NULL, 'yard', 'active', 5, '{}', 1, ?, ?)", (when, when))
        conn.execute("INSERT INTO deadlines (game_id, key, user_id, due) VALUES (1, 'expire:place:0', 5, ?)", (when,))
    async with SqliteStore(db_path) as store:
        assert await store.settings("user:5") == {"dm_hint": True}
        assert await store.settings("guild:1") == {"games": [3]}
        assert [d.key for d in await store.deadlines(1)] == ["expire:place:0"]  # kept, read by its old key
        assert await store.decisions(1) == []
    names = {name for kind, name, _ in schema(db_path) if kind == "index"}
    assert "seats_by_user" in names


async def test_migration_six_keeps_every_event_and_the_log_rules_in_a_table_in_writing_order(db_path: Path) -> None:
    """The event log moves to a rowid table (rows in the order they are written): a database made
    by migration five opens with its events as they were, and the schema still refuses a gap, a
    repeat, an update and a delete."""
    migrate(db_path, MIGRATIONS[:5])
    when = "2026-03-01T12:00:00.000000+00:00"
    later = "2026-03-01T12:00:01.000000+00:00"
    old_rows = [(1, 1, '{"type": "start"}', when), (2, 1, '{"type": "start", "game": 2}', when),
                (1, 2, '{"type": "move", "text": "caf\u00e9"}', later), (1, 3, "[1, 2, 3]", later)]
    with sqlite3.connect(db_path) as conn:
        for game_id in (1, 2):
            conn.execute("INSERT INTO games VALUES (?, 1, 1, NULL, 'yard', 'active', 5, '{}', 1, ?, ?, NULL, NULL)",
                         (game_id, when, when))
        conn.executemany("INSERT INTO events VALUES (?, ?, ?, ?)", old_rows)
        assert "WITHOUT ROWID" in conn.execute("SELECT sql FROM sqlite_schema WHERE name = 'events'").fetchone()[0]
    async with SqliteStore(db_path) as store:
        assert [(e.game_id, e.seq, e.body) for e in await store.events_since(1)] == [
            (1, 1, '{"type": "start"}'), (1, 2, '{"type": "move", "text": "caf\u00e9"}'), (1, 3, "[1, 2, 3]")]
        assert [(e.seq, e.body) for e in await store.events_since(2)] == [(1, '{"type": "start", "game": 2}')]
        assert (await store.commit(1, 1, "{}", ['{"type": "next"}'])).last_seq == 4
        assert [e.seq for e in await store.events_since(1, 2)] == [3, 4]
    assert user_version(db_path) == len(MIGRATIONS)
    with sqlite3.connect(db_path) as conn:
        assert "WITHOUT ROWID" not in conn.execute("SELECT sql FROM sqlite_schema WHERE name = 'events'").fetchone()[0]
        assert {name for (name,) in conn.execute("SELECT name FROM sqlite_schema WHERE type = 'trigger'")} >= {
            "events_seq_follows", "events_no_update", "events_no_delete"}
        for sql, words in (("INSERT INTO events VALUES (1, 6, '{}', ?)", "must follow"),  # a gap
                           ("INSERT INTO events VALUES (1, 4, '{}', ?)", "must follow"),  # a repeat
                           ("INSERT INTO events VALUES (2, 2, '{not json', ?)", "CHECK constraint failed"),
                           ("UPDATE events SET body = '{}' WHERE created_at = ?", "append-only"),
                           ("DELETE FROM events WHERE created_at = ?", "append-only")):
            with pytest.raises(sqlite3.IntegrityError, match=words):
                conn.execute(sql, (when,))
        assert conn.execute("SELECT count(*) FROM events").fetchone() == (5,)
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
