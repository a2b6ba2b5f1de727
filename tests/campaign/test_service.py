"""The campaign use-cases on a real SQLite file: review, confirm, revert and reject; who may
do what; the private and public rosters; export and import."""
from __future__ import annotations

import asyncio
import csv
import io
import json

import pytest

from bot.app.campaign import CampaignService
from bot.app.errors import NotYours, Refused
from bot.app.replies import Where
from bot.store import SqliteStore
from engine.campaign import ScenarioResult
from tests.campaign.conftest import ANN, BO, HERE, OLGA, autoplay, opened, outcome


async def played(service: CampaignService, cid: int, seed: int = 3, *, game_id: int | None = 1):
    _, prepared = await service.prepare(OLGA, cid)
    game = autoplay(service.catalog, prepared.scenario, prepared.seats, seed)
    await service.submit_game(OLGA, cid, game, list(prepared.users), game_id=game_id)
    return game


async def test_a_result_waits_for_review_and_changes_nothing_until_confirmed(service, store):
    cid = await opened(service)
    _, prepared = await service.prepare(OLGA, cid)
    before = (await store.load_campaign(cid)).state
    game = autoplay(service.catalog, prepared.scenario, prepared.seats, 3)
    await service.submit_game(OLGA, cid, game, list(prepared.users), game_id=1)
    assert (await store.load_campaign(cid)).state == before
    assert (await store.load_result(cid, 1)).status == "pending"
    review = await service.review(OLGA, cid)
    text = review.ephemeral[0]
    assert "Confirming it would do this:" in text and "- Ann:" in text and "Next: The Miller's Loft." in text
    r = await service.confirm(OLGA, cid)
    assert r.public[0].startswith("**Result #1 confirmed.**")
    assert (await service.load_state(cid)).number == 1


async def test_the_same_game_is_never_recorded_twice(service):
    cid = await opened(service)
    _, prepared = await service.prepare(OLGA, cid)
    game = autoplay(service.catalog, prepared.scenario, prepared.seats, 3)
    await service.submit_game(OLGA, cid, game, list(prepared.users), game_id=7)
    with pytest.raises(Refused, match="recorded already, as result #1"):
        await service.submit_game(ANN, cid, game, list(prepared.users))  # the same game, from a record
    other = autoplay(service.catalog, prepared.scenario, prepared.seats, 4)
    with pytest.raises(Refused, match="Result #1 waits for the organiser's review"):
        await service.submit_game(ANN, cid, other, list(prepared.users))
    await service.confirm(OLGA, cid)
    result = (await service.store.load_result(cid, 1)).body
    with pytest.raises(Refused, match="applied already"):
        await service.submit_result(ANN, cid, ScenarioResult.model_validate_json(result))


async def test_only_the_organiser_confirms_reverts_rejects_awards_and_promotes(service):
    cid = await opened(service)
    await played(service, cid)
    for call in (service.confirm(ANN, cid), service.reject(ANN, cid),
                 service.award(ANN, cid, "101", "silver", "for me"), service.promote(BO, cid, "201", "me")):
        with pytest.raises(NotYours, match="organiser"):
            await call
    organiser_by_permission = type(ANN)(77, "Mod", organiser=True)
    await service.confirm(organiser_by_permission, cid)


async def test_revert_restores_the_campaign_exactly_and_undoes_what_came_after(service, store):
    cid = await opened(service)
    await played(service, cid)
    before = (await store.load_campaign(cid)).state
    await service.confirm(OLGA, cid)
    await service.award(OLGA, cid, "Brannigan", "distinguished", "led the stick out of the hedgerows")
    r = await service.revert(OLGA, cid)
    assert (await store.load_campaign(cid)).state == before
    assert "Undone with it: Brannigan (101) is awarded the Distinguished Service Cross" in r.public[-1]
    assert (await store.load_result(cid, 1)).status == "pending"
    await service.confirm(OLGA, cid)  # and it can be confirmed again, once
    with pytest.raises(Refused, match="no pending result"):
        await service.confirm(OLGA, cid)


async def test_only_the_last_confirmed_result_is_reverted(service, store):
    cid = await opened(service)
    await played(service, cid, game_id=1)
    await service.confirm(OLGA, cid)
    await played(service, cid, seed=4, game_id=2)
    await service.confirm(OLGA, cid)
    with pytest.raises(Refused, match="not the last one applied"):
        await service.revert(OLGA, cid, 1)
    await service.revert(OLGA, cid, 2)
    await service.revert(OLGA, cid, 1)
    assert (await service.load_state(cid)).number == 0


async def test_two_organisers_confirming_at_once_apply_the_result_once(service):
    cid = await opened(service)
    await played(service, cid)
    outcomes = await asyncio.gather(service.confirm(OLGA, cid), service.confirm(OLGA, cid),
                                    return_exceptions=True)
    assert sum(isinstance(o, Refused) for o in outcomes) == 1
    assert (await service.load_state(cid)).number == 1


async def test_a_rejected_result_changes_nothing_and_cannot_come_back(service):
    cid = await opened(service)
    st = await service.load_state(cid)
    await service.prepare(OLGA, cid)
    result = outcome(await service.load_state(cid), {101: "killed"})
    before = (await service.store.load_campaign(cid)).state
    await service.submit_result(OLGA, cid, result)
    await service.reject(OLGA, cid)
    assert (await service.store.load_campaign(cid)).state == before
    assert (await service.load_state(cid)).entry(101).status == "fit" and st.number == 0
    with pytest.raises(Refused, match="recorded already"):
        await service.submit_result(OLGA, cid, result)


async def test_the_players_own_roster_is_private_with_vp_and_the_public_one_has_none(service):
    cid = await opened(service)
    mine = await service.roster(ANN, cid)
    assert not mine.public and "8 VP" in mine.ephemeral[0]
    public = await service.roster(ANN, cid, public=True)
    assert not public.ephemeral and "VP" not in public.public[0]
    theirs = await service.roster(ANN, cid, "Bo")
    assert "VP" not in theirs.ephemeral[0] and "Brenner" in theirs.ephemeral[0]


async def test_a_service_record_shows_vp_to_his_own_player_only(service):
    cid = await opened(service)
    own = await service.soldier(ANN, cid, "Brannigan")
    assert own.ephemeral_images[0].view.vp == 8 and "only you see this" in own.ephemeral[0]
    other = await service.soldier(BO, cid, "101")
    assert other.ephemeral_images[0].view.vp is None and "VP" not in other.ephemeral[0]
    public = await service.soldier(ANN, cid, "101", public=True)
    assert public.images[0].view.vp is None and public.public


async def test_status_tells_the_next_scenario_and_who_has_picked(service):
    cid = await opened(service)
    await service.pick(ANN, cid, "101 105 109")
    text = (await service.status(BO, cid)).public[0]
    assert "Scenario 1: Regroup at First Light — Dawn in the Hedgerows" in text
    assert "Ann (US): 8 men fit to fight, 30 VP a player, force chosen" in text
    assert "Bo (DE): 8 men fit to fight, 30 VP a player, force not chosen yet" in text


async def test_the_prepared_seats_use_the_picks_and_the_rosters(service):
    cid = await opened(service)
    await service.pick(ANN, cid, "101 105 109:g6")
    _, prepared = await service.prepare(OLGA, cid)
    assert prepared.users == (ANN.user_id, BO.user_id)
    assert [(fe.serial, fe.grenades) for fe in prepared.seats[0].force] == [(101, None), (105, None), (109, 6)]
    assert prepared.seats[0].force[0].rank == "junior_nco"


async def test_a_player_enlists_into_an_open_place_and_the_organiser_anywhere(service):
    cid = await opened(service)
    await service.prepare(OLGA, cid)
    await service.submit_result(OLGA, cid, outcome(await service.load_state(cid), {102: "killed"}))
    await service.confirm(OLGA, cid)
    r = await service.enlist(ANN, cid, "Hollis")
    assert r.public == ["Hollis (112) joins Ann's roster as a private."]
    with pytest.raises(Refused, match="full strength"):
        await service.enlist(ANN, cid)
    with pytest.raises(NotYours):
        await service.enlist(ANN, cid, player="Bo")
    await service.enlist(OLGA, cid, player="Bo")
    assert len((await service.load_state(cid)).player(BO.user_id).roster) == 9


async def test_a_campaign_is_found_in_its_channel(service):
    cid = await opened(service)
    assert (await service.status(ANN, HERE)).campaign_id == cid
    with pytest.raises(Refused, match="no campaign here"):
        await service.status(ANN, Where(channel_id=12345))


# ---------------------------------------------------------------------------- export and import


async def test_an_exported_campaign_reimports_as_an_equal_campaign(service, store, db_path, cat, clock):
    cid = await opened(service)
    await played(service, cid)
    await service.confirm(OLGA, cid)
    await service.award(OLGA, cid, "102", "distinguished", "stayed with the wounded")
    await played(service, cid, seed=4, game_id=2)  # one result still pending
    text = (await service.export(OLGA, cid)).files[0].data.decode()
    r = await service.import_json(OLGA, Where(channel_id=600, guild_id=900), text)
    assert r.campaign_id != cid
    again = json.loads(await service.export_json(r.campaign_id))
    first = json.loads(text)
    assert again.pop("channel_id") == 600 and first.pop("channel_id") == 500
    assert again == first
    # and the copy goes on like the original: its pending result can be confirmed there
    await service.confirm(OLGA, r.campaign_id)
    assert (await service.load_state(r.campaign_id)).number == 2


async def test_the_csv_has_a_row_per_man_and_a_player_gets_only_his_own(service):
    cid = await opened(service)
    organiser = await service.export(OLGA, cid)
    rows = list(csv.DictReader(io.StringIO(organiser.files[1].data.decode())))
    assert len(rows) == 16 and rows[0]["name"] == "Brannigan" and rows[0]["rank"] == "Cpl."
    mine = await service.export(ANN, cid)
    assert len(mine.files) == 1
    own = list(csv.DictReader(io.StringIO(mine.files[0].data.decode())))
    assert {r["player"] for r in own} == {"Ann"} and len(own) == 8


async def test_a_broken_import_is_refused_with_a_reason(service):
    with pytest.raises(Refused, match="not a Fieldpost campaign export: format"):
        await service.import_json(OLGA, HERE, '{"format": "something-else"}')


async def test_a_restart_between_two_commands_loses_nothing(db_path, cat, clock):
    async with SqliteStore(db_path) as store:
        cid = await opened(CampaignService(store, cat, clock=clock))
        await CampaignService(store, cat, clock=clock).pick(ANN, cid, "101 105")
    async with SqliteStore(db_path) as store:
        st = await CampaignService(store, cat, clock=clock).load_state(cid)
        assert [fe.serial for fe in st.player(ANN.user_id).pick] == [101, 105]
