"""PostgreSQL itself, on the throwaway cluster: its migrations, the databases it refuses at open,
and a server that is busy, full, cut off or gone — always the store's own errors, never
asyncpg's, and never the password. (What both stores do alike is in the other test files.)"""
from __future__ import annotations

import asyncio
import json

import asyncpg
import pytest

from bot.store import BadDatabase, SchemaTooNew, StoreUnavailable, open_store
from bot.store.pg_migrations import PG_MIGRATIONS, migrate
from bot.store.postgres import PostgresStore, is_busy, is_unavailable
from tests.pg import Cluster
from tests.store import raw
from tests.store.sample import new_game, state

pytestmark = pytest.mark.postgres

LATER = "CREATE TABLE later_things (id bigint PRIMARY KEY, name text NOT NULL);"
FAST = {"busy_timeout": 0.1, "busy_backoff": (0.05, 0.05)}


@pytest.fixture
async def empty_dsn(postgres_cluster: Cluster):
    """A database with nothing in it, not even Fieldpost's schema."""
    name = await postgres_cluster.create_database(migrated=False)
    yield postgres_cluster.dsn(name)
    await postgres_cluster.drop_database(name)


async def fetch(dsn: str, sql: str, *args):
    conn = await asyncpg.connect(dsn)
    try:
        return await conn.fetch(sql, *args)
    finally:
        await conn.close()


async def tables(dsn: str) -> set[str]:
    return {r[0] for r in await fetch(dsn, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}


async def version(dsn: str) -> int:
    return (await fetch(dsn, "SELECT version FROM schema_version"))[0][0]


# -- migrations ------------------------------------------------------------------------------

async def test_a_new_database_gets_every_table_and_the_log_guards(empty_dsn: str) -> None:
    async with open_store(empty_dsn):
        pass
    assert {"games", "events", "seats", "snapshots", "settings", "private_channels", "deadlines",
            "campaigns", "campaign_results", "campaign_log", "schema_version"} <= await tables(empty_dsn)
    triggers = {r[0] for r in await fetch(empty_dsn, "SELECT tgname FROM pg_trigger WHERE NOT tgisinternal")}
    assert triggers == {"events_seq_follows", "events_no_update", "events_no_truncate",
                        "campaign_log_seq_follows", "campaign_log_no_update", "campaign_log_no_truncate"}
    assert await version(empty_dsn) == len(PG_MIGRATIONS)


async def test_two_processes_migrating_at_once_apply_each_script_once(empty_dsn: str) -> None:
    conns = [await asyncpg.connect(empty_dsn) for _ in range(4)]
    try:
        done = await asyncio.gather(*(migrate(conn) for conn in conns))
    finally:
        for conn in conns:
            await conn.close()
    assert done == [len(PG_MIGRATIONS)] * 4
    assert await version(empty_dsn) == len(PG_MIGRATIONS)
    assert len(await fetch(empty_dsn, "SELECT * FROM schema_version")) == 1


async def test_opening_again_changes_nothing_and_keeps_the_games(postgres_dsn: str) -> None:
    async with open_store(postgres_dsn) as store:
        game = await new_game(store)
    before = await tables(postgres_dsn)
    async with open_store(postgres_dsn) as store:
        assert (await store.load_game(game.id)).version == 1
    assert await tables(postgres_dsn) == before
    assert await version(postgres_dsn) == len(PG_MIGRATIONS)


async def test_a_later_migration_applies_on_top_and_keeps_the_data(empty_dsn: str) -> None:
    async with open_store(empty_dsn) as store:
        game = await new_game(store)
    conn = await asyncpg.connect(empty_dsn)
    try:
        assert await migrate(conn, (*PG_MIGRATIONS, LATER)) == len(PG_MIGRATIONS) + 1
        assert await migrate(conn, (*PG_MIGRATIONS, LATER)) == len(PG_MIGRATIONS) + 1
    finally:
        await conn.close()
    assert [r[0] for r in await fetch(empty_dsn, "SELECT id FROM games")] == [game.id]
    assert "later_things" in await tables(empty_dsn)


async def test_a_newer_database_refuses_to_open_and_is_left_alone(empty_dsn: str) -> None:
    conn = await asyncpg.connect(empty_dsn)
    try:
        await migrate(conn, (*PG_MIGRATIONS, LATER))
    finally:
        await conn.close()
    before = await tables(empty_dsn)
    with pytest.raises(SchemaTooNew) as refused:
        async with open_store(empty_dsn):
            pass
    assert (refused.value.found, refused.value.known) == (len(PG_MIGRATIONS) + 1, len(PG_MIGRATIONS))
    assert "newer" in str(refused.value) and "postgresql://" in str(refused.value)
    assert await tables(empty_dsn) == before
    assert await version(empty_dsn) == len(PG_MIGRATIONS) + 1


async def test_a_failing_migration_applies_nothing(postgres_dsn: str) -> None:
    broken = "CREATE TABLE later_things (id bigint); CREATE TABLE games (id bigint);"
    conn = await asyncpg.connect(postgres_dsn)
    try:
        with pytest.raises(asyncpg.DuplicateTableError):
            await migrate(conn, (*PG_MIGRATIONS, broken))
    finally:
        await conn.close()
    assert await version(postgres_dsn) == len(PG_MIGRATIONS)
    assert "later_things" not in await tables(postgres_dsn)


async def test_migration_two_indexes_seats_by_user_and_drops_the_old_user_game_lists(empty_dsn: str) -> None:
    conn = await asyncpg.connect(empty_dsn)
    try:
        await migrate(conn, PG_MIGRATIONS[:1])
        await conn.execute("""INSERT INTO settings VALUES ('user:5', 'games', '[1, 2]'), ('user:5', 'dm_hint', 'true'),
                              ('guild:1', 'games', '[3]')""")
        await conn.execute("INSERT INTO games VALUES (1, 1, 1, NULL, 'yard', 'active', 5, '{}', 1, now(), now())")
        await conn.execute("INSERT INTO deadlines (game_id, key, user_id, due) VALUES (1, 'expire:place:0', 5, now())")
    finally:
        await conn.close()
    async with open_store(empty_dsn) as store:
        assert await store.settings("user:5") == {"dm_hint": True}
        assert await store.settings("guild:1") == {"games": [3]}
        assert [d.key for d in await store.deadlines(1)] == ["expire:place:0"]  # kept, read by its old key
        assert await store.decisions(1) == []
    indexes = {r[0] for r in await fetch(empty_dsn, "SELECT indexname FROM pg_indexes WHERE tablename = 'seats'")}
    assert "seats_by_user" in indexes


# -- databases refused at open -----------------------------------------------------------------

async def test_another_programs_database_is_refused_and_left_alone(empty_dsn: str) -> None:
    await fetch(empty_dsn, "CREATE TABLE invoices (id bigint)")
    with pytest.raises(BadDatabase, match="another program"):
        async with open_store(empty_dsn):
            pass
    assert await tables(empty_dsn) == {"invoices"}


async def test_a_database_not_in_utf8_is_refused(postgres_cluster: Cluster) -> None:
    name = postgres_cluster.new_name()
    await fetch(postgres_cluster.dsn("postgres"),
                f"CREATE DATABASE {name} ENCODING 'LATIN1' TEMPLATE template0")
    try:
        with pytest.raises(BadDatabase, match="LATIN1"):
            async with open_store(postgres_cluster.dsn(name)):
                pass
        assert await tables(postgres_cluster.dsn(name)) == set()
    finally:
        await postgres_cluster.drop_database(name)


async def test_a_database_that_does_not_exist_is_a_wrong_setting(postgres_cluster: Cluster) -> None:
    with pytest.raises(BadDatabase, match="FIELDPOST_DB"):
        async with open_store(postgres_cluster.dsn("no_such_database")):
            pass


async def test_a_server_that_is_not_there_is_unavailable_and_its_password_never_shown(tmp_path) -> None:
    dsn = f"postgresql://fieldpost:s3cret@/fieldpost?host={tmp_path}"  # no server's socket there
    with pytest.raises(StoreUnavailable) as refused:
        await PostgresStore(dsn, connect_timeout=2).open()
    assert "s3cret" not in refused.value.reason and "s3cret" not in str(refused.value)
    assert "postgresql://fieldpost@/fieldpost" in refused.value.reason
    assert not refused.value.busy
    assert "nothing was changed" in str(refused.value)


# -- a server busy, crowded or cutting connections ---------------------------------------------

async def test_a_row_lock_held_elsewhere_makes_a_commit_busy_and_writes_nothing(postgres_dsn: str) -> None:
    async with PostgresStore(postgres_dsn, **FAST) as store:
        game = await new_game(store)
        holder = await asyncpg.connect(postgres_dsn)
        try:
            locked = holder.transaction()
            await locked.start()
            await holder.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", game.id)
            started = asyncio.get_running_loop().time()
            with pytest.raises(StoreUnavailable) as refused:
                await store.commit(game.id, 1, state(turn=2), ['{"e": 1}'])
            waited = asyncio.get_running_loop().time() - started
            await locked.rollback()
        finally:
            await holder.close()
        assert refused.value.busy and "LockNotAvailable" in refused.value.reason
        assert 0.3 <= waited < 5  # three tries of 0.1 s and two pauses of 0.05 s, then told
        assert (await store.load_game(game.id)).version == 1
        assert await store.events_since(game.id) == []
        assert (await store.commit(game.id, 1, state(turn=2), ['{"e": 1}'])).version == 2


async def test_a_lock_released_while_the_store_backs_off_costs_the_caller_nothing(postgres_dsn: str) -> None:
    async with PostgresStore(postgres_dsn, busy_timeout=0.1, busy_backoff=(0.3,)) as store:
        game = await new_game(store)
        holder = await asyncpg.connect(postgres_dsn)
        try:
            locked = holder.transaction()
            await locked.start()
            await holder.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", game.id)
            commit = asyncio.create_task(store.commit(game.id, 1, state(turn=2), ['{"e": 1}']))
            await asyncio.sleep(0.2)  # the first try has met the lock; the store pauses
            await locked.rollback()
        finally:
            await holder.close()
        assert (await commit).version == 2
        assert [e.seq for e in await store.events_since(game.id)] == [1]


async def test_too_many_connections_is_busy_not_a_crash(postgres_cluster: Cluster, postgres_dsn: str) -> None:
    role = f"limited_{postgres_cluster.new_name()}"
    await raw.execute("postgres", postgres_dsn, f"CREATE ROLE {role} LOGIN CONNECTION LIMIT 1;"
                f" GRANT ALL ON ALL TABLES IN SCHEMA public TO {role};"
                f" GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO {role}")
    limited = postgres_dsn.replace("postgresql://fieldpost@", f"postgresql://{role}@")
    try:
        async with PostgresStore(limited, pool_size=1) as first:
            await new_game(first)
            with pytest.raises(StoreUnavailable) as refused:
                await PostgresStore(limited).open()
            assert refused.value.busy and "53300" in refused.value.reason
    finally:
        await raw.execute("postgres", postgres_dsn, f"DROP OWNED BY {role}; DROP ROLE {role}")


async def test_connections_cut_by_the_server_are_replaced(postgres_dsn: str) -> None:
    async with PostgresStore(postgres_dsn) as store:
        game = await new_game(store)
        await fetch(postgres_dsn, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE application_name = 'fieldpost' AND pid <> pg_backend_pid()")
        outcomes = []
        for _ in range(3):
            try:
                outcomes.append((await store.load_game(game.id)).version)
            except StoreUnavailable as exc:  # a connection that died under a call, at most
                outcomes.append(exc)
        assert outcomes[-1] == 1 and sum(isinstance(o, StoreUnavailable) for o in outcomes) <= 1
        assert (await store.commit(game.id, 1, state(turn=2))).version == 2


@pytest.mark.parametrize(("error", "unavailable", "busy"), [
    (asyncpg.LockNotAvailableError, True, True),
    (asyncpg.DeadlockDetectedError, True, True),
    (asyncpg.SerializationError, True, True),
    (asyncpg.TooManyConnectionsError, True, True),
    (asyncpg.CannotConnectNowError, True, True),
    (asyncpg.DiskFullError, True, False),
    (asyncpg.AdminShutdownError, True, False),
    (asyncpg.ConnectionDoesNotExistError, True, False),
    (asyncpg.ReadOnlySQLTransactionError, True, False),
    (asyncpg.InternalServerError, True, False),
    (asyncpg.UniqueViolationError, False, False),
    (asyncpg.InvalidTextRepresentationError, False, False),
    (asyncpg.UndefinedTableError, False, False),
])
def test_what_counts_as_the_database_failing(error: type[Exception], unavailable: bool, busy: bool) -> None:
    assert (is_unavailable(error("x")), is_busy(error("x"))) == (unavailable, busy)
    assert is_unavailable(ConnectionRefusedError()) and is_unavailable(TimeoutError())
    assert is_unavailable(asyncpg.InternalClientError("cannot switch to state 11"))


async def test_settings_are_json_text_in_the_table(postgres_dsn: str) -> None:
    async with open_store(postgres_dsn) as store:
        await store.set_setting("guild:1", "roles", {"big": 2**62, "names": ["é"]})
    (value,), = await fetch(postgres_dsn, "SELECT value FROM settings")
    assert json.loads(value) == {"big": 2**62, "names": ["é"]}
