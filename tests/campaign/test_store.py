"""Campaign persistence on both stores (a real SQLite file, a real PostgreSQL database):
versions, results recorded once, confirm and revert in one transaction, the append-only log,
and an SQLite database from before campaigns."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.store import (
    CampaignNotFound,
    CampaignVersionConflict,
    DuplicateResult,
    NewResult,
    ResultChange,
    ResultConflict,
    ResultNotFound,
    ResultStatus,
    SqliteStore,
    StoreError,
)
from bot.store.migrations import MIGRATIONS, migrate
from tests.store import raw

pytestmark = pytest.mark.both_stores

STATE = '{"n": 1}'


async def created(store):
    return await store.create_campaign(guild_id=9, channel_id=5, definition_id="road", name="Road",
                                       organiser_id=1, state=STATE, log=['{"type": "created"}'])


def result(key: str = "game:7") -> NewResult:
    return NewResult(key=key, step="regroup", scenario_id="hedgerow-dawn", body='{"r": 1}', game_id=7,
                     submitted_by=2)


async def test_a_campaign_is_stored_at_version_one_and_found_in_its_channel(store):
    c = await created(store)
    loaded = await store.load_campaign(c.id)
    assert (loaded.version, loaded.state, loaded.status) == (1, STATE, "enlisting")
    assert [x.id for x in await store.campaigns_in_channel(5)] == [c.id]
    assert [x.id for x in await store.campaigns([c.id, 999])] == [c.id]
    with pytest.raises(CampaignNotFound):
        await store.load_campaign(999)


async def test_a_commit_checks_the_version_and_a_stale_one_writes_nothing(store):
    c = await created(store)
    done = await store.commit_campaign(c.id, 1, '{"n": 2}', ['{"type": "x"}'], status="running")
    assert (done.version, done.last_seq) == (2, 2)
    with pytest.raises(CampaignVersionConflict) as conflict:
        await store.commit_campaign(c.id, 1, '{"n": 3}', ['{"type": "y"}'])
    assert (conflict.value.expected, conflict.value.current) == (1, 2)
    loaded = await store.load_campaign(c.id)
    assert (loaded.state, loaded.version, loaded.status) == ('{"n": 2}', 2, "running")
    assert len(await store.campaign_log(c.id)) == 2


async def test_a_result_is_recorded_once_and_a_second_try_writes_nothing(store):
    c = await created(store)
    done = await store.commit_campaign(c.id, 1, STATE, new_result=result())
    assert done.result_number == 1
    with pytest.raises(DuplicateResult) as dup:
        await store.commit_campaign(c.id, 2, '{"n": 9}', ['{"type": "again"}'], new_result=result())
    assert dup.value.number == 1
    assert (await store.load_campaign(c.id)).version == 2
    assert len(await store.campaign_log(c.id)) == 1
    second = await store.commit_campaign(c.id, 2, STATE, new_result=result("game:8"))
    assert second.result_number == 2


async def test_confirm_keeps_the_state_before_and_revert_gives_it_back(store):
    c = await created(store)
    await store.commit_campaign(c.id, 1, STATE, new_result=result())
    await store.commit_campaign(c.id, 2, '{"n": 2}', change=ResultChange(
        number=1, expected=ResultStatus.PENDING, status=ResultStatus.CONFIRMED, before=STATE, decided_by=1))
    r = await store.load_result(c.id, 1)
    assert (r.status, r.before, r.decided_by) == ("confirmed", STATE, 1)
    with pytest.raises(ResultConflict):  # confirming twice
        await store.commit_campaign(c.id, 3, '{"n": 3}', change=ResultChange(
            number=1, expected=ResultStatus.PENDING, status=ResultStatus.CONFIRMED, before=STATE))
    assert (await store.load_campaign(c.id)).state == '{"n": 2}'
    await store.commit_campaign(c.id, 3, r.before, change=ResultChange(
        number=1, expected=ResultStatus.CONFIRMED, status=ResultStatus.PENDING))
    r = await store.load_result(c.id, 1)
    assert (r.status, r.before, r.decided_at) == ("pending", None, None)
    assert (await store.load_campaign(c.id)).state == STATE


async def test_a_confirmation_without_the_state_before_is_refused(store):
    c = await created(store)
    await store.commit_campaign(c.id, 1, STATE, new_result=result())
    with pytest.raises(StoreError, match="keeps the campaign before it"):
        await store.commit_campaign(c.id, 2, STATE, change=ResultChange(
            number=1, expected=ResultStatus.PENDING, status=ResultStatus.CONFIRMED))
    with pytest.raises(ResultNotFound):
        await store.commit_campaign(c.id, 2, STATE, change=ResultChange(
            number=5, expected=ResultStatus.PENDING, status=ResultStatus.REJECTED))
    assert (await store.load_campaign(c.id)).version == 2


async def test_the_campaign_log_is_append_only(store, store_kind, store_url):
    c = await created(store)
    refused = raw.REFUSED[store_kind]
    with pytest.raises(refused, match="append-only"):
        await raw.execute(store_kind, store_url, "UPDATE campaign_log SET body = '{}' WHERE campaign_id = ?", c.id)
    with pytest.raises(refused, match="append-only"):
        await raw.execute(store_kind, store_url, "DELETE FROM campaign_log WHERE campaign_id = ?", c.id)
    with pytest.raises(refused, match="must follow"):
        await raw.execute(store_kind, store_url,
                          f"INSERT INTO campaign_log VALUES (?, 5, '{{}}', '{raw.A_TIME}')", c.id)
    assert [e.seq for e in await store.campaign_log(c.id)] == [1]


@pytest.mark.sqlite_only  # SQLite's migration 2; PostgreSQL's schema began with campaigns
async def test_a_database_from_before_campaigns_gains_them_and_keeps_its_games(tmp_path: Path):
    path = tmp_path / "old.db"
    assert migrate(path, MIGRATIONS[:1]) == 1
    with sqlite3.connect(path) as conn:  # a game stored by a Fieldpost without campaigns
        conn.execute("INSERT INTO games (id, guild_id, channel_id, scenario_id, status, organiser_id, state,"
                     " version, created_at, updated_at) VALUES (7, 1, 2, 'hedgerow-dawn', 'active', 3, '{}', 4,"
                     " '2024-01-01T00:00:00.000000+00:00', '2024-01-01T00:00:00.000000+00:00')")
    async with SqliteStore(path) as store:  # opening migrates to the current schema
        assert (await store.load_game(7)).version == 4
        c = await created(store)
        assert (await store.load_campaign(c.id)).name == "Road"
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
