"""A state's JSON checked once (docs/store.md): SQLite's games.state and snapshots.state lost their
CHECK (json_valid(...)) in migration 7; the store checks every state nobody vouched for itself and
refuses it as the CHECK did, and keeps a `JsonText` (a serializer's output) without parsing it.

On real SQLite files: the refusals on every way a state comes in, the fast and the slow way giving
the same answers and rows with vouched states among the others, the makers of `JsonText` giving
JSON, and a database of migration 6 opening with its rows and rules as they were."""
from __future__ import annotations

import ast
import asyncio
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as S

from bot.app.documents import StateCodec
from bot.store import GameStatus, JsonText, Seat, SnapshotNotFound, VersionConflict
from bot.store.migrations import MIGRATIONS, migrate
from bot.store.sqlite import SqliteStore
from tests.engine.autoplay_kit import autoplayed
from tests.store.test_fast_commits import (
    _clock,
    _compare,
    _in_one_batch,
    _ops,
    _play,
    _setup,
    _tables,
)

ROOT = Path(__file__).resolve().parents[2]
NOT_JSON = ("{not json", "", '{"a": NaN}', '{"a": 1', "[1, 2,]")  # NaN: Python's json takes it, SQLite not


def _count(path: Path, table: str) -> int:
    with sqlite3.connect(path) as conn:
        return conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


@pytest.mark.parametrize("text", NOT_JSON)
async def test_a_state_nobody_vouched_for_is_refused_as_the_check_did_on_every_way_in(db_path: Path, text: str) -> None:
    async with SqliteStore(db_path, clock=_clock) as store:
        with pytest.raises(sqlite3.IntegrityError, match="CHECK constraint failed"):
            await store.create_game(guild_id=1, channel_id=2, scenario_id="s", organiser_id=3, state=text,
                                    events=['{"type": "created"}'], snapshot="start")
        assert _count(db_path, "games") == _count(db_path, "events") == _count(db_path, "snapshots") == 0

        game = await store.create_game(guild_id=1, channel_id=2, scenario_id="s", organiser_id=3, state='{"n": 1}',
                                       snapshot="start")
        with pytest.raises(sqlite3.IntegrityError, match="CHECK constraint failed"):
            await store.commit(game.id, 1, text, ['{"type": "moved"}'], snapshot="turn:1")
        if text:  # (a rollback given "" writes the snapshot's own state, as ever)
            with pytest.raises(sqlite3.IntegrityError, match="CHECK constraint failed"):
                await store.rollback(game.id, 1, "start", state=text)
        # as the CHECK, which looked only at a row written: a stale version is a conflict first
        with pytest.raises(VersionConflict):
            await store.commit(game.id, 7, text)
        with pytest.raises(SnapshotNotFound):
            await store.rollback(game.id, 1, "no such label", state=text)
        loaded = await store.load_game(game.id)
        assert (loaded.version, loaded.state) == (1, '{"n": 1}')
        assert [s.label for s in await store.snapshots(game.id)] == ["start"]
        assert await store.events_since(game.id) == []


async def test_in_one_batch_the_unvouched_bad_state_alone_is_refused_and_the_vouched_go_through(db_path: Path) -> None:
    async with SqliteStore(db_path, clock=_clock, busy_timeout=1.0, busy_backoff=()) as store:
        await _setup(store)
        done = await _in_one_batch(store, _play(store, [
            ("commit", 1, 2, JsonText('{"n": 2}'), {"events": ['{"a": 1}']}),
            ("commit", 2, 2, "{not json", {"events": ['{"b": 1}']}),
            ("commit", 3, 2, '{"n": 2}', {"snapshot": "turn:2"}),
        ]))
        assert [d.version for d in (done[0], done[2])] == [3, 3]
        assert isinstance(done[1], sqlite3.IntegrityError) and "CHECK constraint failed" in str(done[1])
        assert [(await store.load_game(g)).version for g in (1, 2, 3)] == [3, 2, 3]
        assert [e.body for e in await store.events_since(2)] == ['{"type": "created"}']


async def test_a_vouched_state_is_kept_as_given_without_a_parse(db_path: Path) -> None:
    """The contract, shown: the store does not parse a JsonText again. Its makers vouch for it
    (the next tests hold them to that), so a text no one could load is never made one."""
    async with SqliteStore(db_path, clock=_clock) as store:
        game = await store.create_game(guild_id=1, channel_id=2, scenario_id="s", organiser_id=3,
                                       state=JsonText('{"n": 1}'), seats=[Seat(0, "US", 5, "Able")])
        vouched = JsonText("vouched for, so not parsed")
        await store.commit(game.id, 1, vouched, snapshot="turn:1", status=GameStatus.ACTIVE)
        assert (await store.load_game(game.id)).state == vouched
        assert (await store.load_snapshot(game.id, "turn:1")).state == vouched
        # a rollback writes the snapshot's own text again: kept by the store, so not parsed either
        assert (await store.rollback(game.id, 2, "turn:1")).version == 3


_STATES = S.sampled_from(['{"n": 2}', '{"n": "\u00e9"}', '{"n": 3}'])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=_ops(), vouch=S.lists(S.booleans(), min_size=24, max_size=24))
def test_the_fast_way_and_the_slow_way_agree_with_vouched_states_among_the_others(
        ops: list[tuple], vouch: list[bool], monkeypatch: pytest.MonkeyPatch) -> None:
    """tests/store/test_fast_commits.py's comparison, with some of the JSON states vouched for:
    the same answers and the same rows either way (a text that is not JSON stays unvouched)."""
    mixed = []
    for op, wrap in zip(ops, vouch, strict=False):
        if op[0] == "commit" and wrap and op[3] != "not json":
            op = (*op[:3], JsonText(op[3]), *op[4:])
        mixed.append(op)
    _compare(mixed, monkeypatch)


def test_what_the_codec_vouches_for_is_json_to_sqlite(shipped) -> None:
    """Every state text the service stores is the codec's JsonText, and SQLite's own json_valid
    (the check of old) takes it, written or made again from the kept pieces: autoplayed states
    of an infantry scenario and of a vehicle one."""
    codec = StateCodec()
    conn = sqlite3.connect(":memory:")
    seen = 0
    for scenario in ("hedgerow-dawn", "tardieu-bombardment"):
        for seed in (1, 2):
            for state in autoplayed(shipped, scenario, seed, 25):
                text = codec.dumps(state)
                kept = codec.dumps_kept(state)
                assert type(text) is JsonText and type(kept) is JsonText and kept == text
                assert conn.execute("SELECT json_valid(?)", (text,)).fetchone() == (1,)
                seen += 1
    assert seen > 50


def test_only_the_codec_and_the_store_make_json_text() -> None:
    """A JsonText is made where the text is known to be JSON: the state codec's serializer
    output and the SQLite store's own kept snapshot text; nowhere else in the program."""
    makers = set()
    for path in [*ROOT.glob("bot/**/*.py"), *ROOT.glob("engine/**/*.py"), *ROOT.glob("tools/*.py")]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "JsonText":
                makers.add(path.relative_to(ROOT).as_posix())
    assert makers == {"bot/app/documents.py", "bot/store/sqlite.py"}


def test_migration_seven_keeps_every_game_and_snapshot_and_the_other_rules(db_path: Path) -> None:
    """A database of migration 6 opens with its games and snapshots as they were, column by
    column, with their indexes and keys; the state columns no longer parse, every other CHECK
    and the event log's JSON check still refuse, and the store still refuses a state that is
    not JSON."""
    migrate(db_path, MIGRATIONS[:6])
    when = "2026-03-01T12:00:00.000000+00:00"
    with sqlite3.connect(db_path) as conn:
        conn.execute("INSERT INTO games VALUES (1, 1, 2, NULL, 'yard', 'active', 5, '{\"n\": 1}', 3, ?, ?, 2, NULL)",
                     (when, when))
        conn.execute("INSERT INTO games VALUES (7, 1, 2, 9, 'mill', 'finished', 6, '{\"n\": \"\u00e9\"}', 1, ?, ?,"
                     " NULL, ?)", (when, when, when))
        conn.execute("INSERT INTO events VALUES (1, 1, '{\"type\": \"start\"}', ?)", (when,))
        conn.execute("INSERT INTO seats VALUES (7, 0, 'US', 5, 'Able')")
        conn.execute("INSERT INTO snapshots VALUES (1, 'turn:1', 1, 2, '{\"n\": 0}', ?)", (when,))
        conn.execute("INSERT INTO deadlines (game_id, key, user_id, due) VALUES (1, 'orders', 5, ?)", (when,))
    before = _tables(db_path)
    assert migrate(db_path) == len(MIGRATIONS) == 7
    after = _tables(db_path)
    assert after == before
    with sqlite3.connect(db_path) as conn:
        tables = dict(conn.execute("SELECT name, sql FROM sqlite_schema WHERE type = 'table'").fetchall())
        assert "json_valid(state)" not in tables["games"] and "json_valid(state)" not in tables["snapshots"]
        assert "json_valid(body)" in tables["events"]
        indexes = {name for (name,) in conn.execute("SELECT name FROM sqlite_schema WHERE type = 'index'")}
        assert {"games_by_status", "games_by_channel", "games_by_thread", "snapshots_by_seq"} <= indexes
        for sql in ("UPDATE games SET status = 'lost' WHERE id = 1", "UPDATE games SET version = 0 WHERE id = 1",
                    "INSERT INTO snapshots VALUES (1, 'x', -1, 1, '{}', '')",
                    "INSERT INTO events VALUES (1, 2, '{not json', '')"):
            with pytest.raises(sqlite3.IntegrityError, match="CHECK constraint failed"):
                conn.execute(sql)
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    with sqlite3.connect(db_path, isolation_level=None) as conn:
        conn.execute("PRAGMA foreign_keys = ON")
        with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
            conn.execute("INSERT INTO snapshots VALUES (99, 'x', 1, 1, '{}', '')")

    async def through_the_store() -> None:
        async with SqliteStore(db_path, clock=_clock) as store:
            with pytest.raises(sqlite3.IntegrityError, match="CHECK constraint failed"):
                await store.commit(1, 3, "{not json")
            assert (await store.commit(1, 3, '{"n": 2}', snapshot="turn:2")).version == 4
            assert (await store.load_snapshot(1, "turn:1")).state == '{"n": 0}'

    asyncio.run(through_the_store())


def test_the_schema_made_new_equals_the_one_migrated(tmp_path: Path) -> None:
    """Migration 7 on a database of migration 6 leaves the same tables as a new file gets."""
    old, new = tmp_path / "old.db", tmp_path / "new.db"
    migrate(old, MIGRATIONS[:6])
    migrate(old)
    migrate(new)

    def schema(path: Path) -> list[tuple]:
        with sqlite3.connect(path) as conn:
            return sorted(conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_schema").fetchall(), key=repr)

    assert schema(old) == schema(new)


@pytest.mark.both_stores
async def test_either_store_keeps_a_vouched_state_and_gives_it_back(store) -> None:
    """PostgreSQL keeps its own CHECK (its JSON parse is not on the benchmarks' path); a JsonText
    is text to both, kept and given back as written."""
    text = JsonText('{"setup_ref":"ab","n":"caf\u00e9 \U0001f600"}')
    game = await store.create_game(guild_id=1, channel_id=2, scenario_id="s", organiser_id=3, state=text,
                                   snapshot="start")
    await store.commit(game.id, 1, JsonText('{"n":2}'), ['{"type":"moved"}'], snapshot="turn:1")
    assert (await store.load_game(game.id)).state == '{"n":2}'
    assert (await store.load_snapshot(game.id, "start")).state == text
