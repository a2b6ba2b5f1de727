"""Creating, joining, leaving, choosing forces, starting and abandoning a game."""
from __future__ import annotations

from dataclasses import replace

import pytest

from bot.app import Caller, GameService, NoGame, NotYours, Refused, Where
from bot.store import GameStatus
from engine import load_catalog
from tests.app.table import ANN, BO, CY, EVE, HERE, open_table


@pytest.mark.both_stores
async def test_a_new_game_is_a_lobby_in_the_channel_with_its_creator_seated(service, store):
    r = await service.new_game(ANN, HERE, "yard", side="US")
    game = await store.load_game(r.game_id)
    assert game.status == GameStatus.LOBBY and game.channel_id == HERE.channel_id
    assert game.organiser_id == ANN.user_id
    assert [(s.user_id, s.side) for s in game.seats] == [(ANN.user_id, "US")]
    assert r.join_sides == ("US", "DE") and r.channel_id == HERE.channel_id
    assert "Farmyard" in r.public[0] and "join" in r.public[0]


async def test_an_unknown_scenario_or_a_direct_message_is_refused(service):
    with pytest.raises(Refused, match="yard"):
        await service.new_game(ANN, HERE, "nowhere")
    with pytest.raises(Refused, match="channel"):
        await service.new_game(ANN, Where(channel_id=None), "yard")


@pytest.mark.both_stores
async def test_join_switch_side_and_leave(service, store):
    gid = (await service.new_game(ANN, HERE, "yard", side="US")).game_id
    r = await service.join(BO, HERE, "de")
    assert r.public[0] == "Bo joins DE." and "Bo (DE)" in r.public[1]
    await service.join(BO, HERE, "US")
    assert [(s.user_id, s.side) for s in (await store.load_game(gid)).seats] == [(11, "US"), (22, "US")]
    with pytest.raises(Refused, match="already play US"):
        await service.join(BO, HERE, "US")
    with pytest.raises(Refused, match="sides are US and DE"):
        await service.join(CY, HERE, "FR")
    await service.leave(BO, HERE)
    assert [s.user_id for s in (await store.load_game(gid)).seats] == [ANN.user_id]
    with pytest.raises(NotYours):
        await service.leave(BO, HERE)


async def test_a_game_seats_four_at_most(service):
    await service.new_game(ANN, HERE, "yard", side="US")
    for n, side in zip(range(3), ("DE", "US", "DE")):
        await service.join(Caller(100 + n, f"P{n}"), HERE, side)
    with pytest.raises(Refused, match="full"):
        await service.join(EVE, HERE, "US")


async def test_forces_are_checked_against_the_budget_and_told_only_to_the_chooser(service):
    await service.new_game(ANN, HERE, "yard", side="US")
    await service.join(BO, HERE, "DE")
    r = await service.choose_force(BO, HERE, "4 6:sgt")
    assert r.public == ["Bo has chosen a force of 2 soldiers."]
    assert "VP" not in r.public[0] and "VP" in r.ephemeral[0]
    with pytest.raises(Refused, match="fights for DE"):
        await service.choose_force(ANN, HERE, "4")
    with pytest.raises(Refused, match="dog tag"):
        await service.choose_force(ANN, HERE, "avery")
    with pytest.raises(NotYours):
        await service.choose_force(EVE, HERE, "1")
    r = await service.choose_force(BO, HERE, "preset")
    assert "preset" in r.public[0]


async def test_only_the_organiser_starts_and_only_when_both_sides_have_players(service, store):
    gid = (await service.new_game(ANN, HERE, "yard", side="US")).game_id
    with pytest.raises(Refused, match="two to four|both sides"):
        await service.start(ANN, HERE)
    await service.join(BO, HERE, "DE")
    with pytest.raises(NotYours, match="organiser"):
        await service.start(BO, HERE)
    r = await service.start(replace(BO, organiser=True), HERE)  # Manage Channels
    assert (await store.load_game(gid)).status == GameStatus.ACTIVE
    assert r.public[0] == f"**Game #{gid} begins.**"
    assert {w.user_id for w in r.waiting} == {ANN.user_id, BO.user_id}
    assert {p.user_id for p in r.prompts} == {ANN.user_id, BO.user_id}
    assert all(p.kind == "place" and p.choices for p in r.prompts)
    assert [i.kind for i in r.images] == ["board"] and r.images[0].view.mine is None
    assert {p.user_id for p in r.private} == {ANN.user_id, BO.user_id}
    with pytest.raises(Refused, match="already started"):
        await service.join(CY, HERE, "US")
    snaps = await store.snapshots(gid)
    assert [s.label for s in snaps] == ["T1P0"]


@pytest.mark.both_stores
async def test_abandon_is_for_the_organiser_and_ends_the_game(service, store):
    r = await open_table(service)
    with pytest.raises(NotYours):
        await service.abandon(BO, HERE)
    done = await service.abandon(ANN, HERE)
    assert done.ended and (await store.load_game(r.game_id)).status == GameStatus.ABANDONED
    assert await store.deadlines(r.game_id) == []
    with pytest.raises(NoGame):
        await service.command(ANN, HERE, "pass")


async def test_a_channel_with_two_games_needs_the_game_named(service):
    a = (await service.new_game(ANN, HERE, "yard", side="US")).game_id
    b = (await service.new_game(BO, HERE, "range", side="DE")).game_id
    with pytest.raises(NoGame, match=f"#{a}.*#{b}"):
        await service.join(CY, HERE, "US")
    r = await service.join(CY, Where(channel_id=HERE.channel_id, game_id=b), "US")
    assert r.game_id == b


async def test_a_player_is_found_from_a_direct_message_through_his_one_game(service):
    gid = (await open_table(service)).game_id
    r = await service.status(ANN, Where(channel_id=None))
    assert r.game_id == gid
    with pytest.raises(NoGame):
        await service.status(EVE, Where(channel_id=None))


# ----------------------------------------------------------------------------- buying the battlefield
# Issue 18: a custom force may buy fire missions, barrages and minefields within the VP budget,
# priced as the scenario presets are (Hell on Wheels, Purchasing Artillery and Purchasing Mines).

SECRETS = ("artillery", "mortar", "rocket", "barrage", "mine", "L9A", "33A", "36A")


async def test_artillery_and_a_barrage_are_bought_with_the_force_and_priced_in_it(service, store):
    gid = (await service.new_game(ANN, HERE, "artillery-yard", side="US")).game_id
    await service.join(BO, HERE, "DE")
    # Avery with his radio (5 + 1) and Brooks (5): 11 VP; light artillery 3 and heavy mortars 4,
    # rockets for turn 3 on the farmhouse 5: 23 of 40
    r = await service.choose_force(ANN, HERE, "1:radio 2", artillery="light artillery heavy-mortars",
                                   barrages="rockets 3 L9A")
    assert r.public == ["Ann has chosen a force of 2 soldiers."]
    assert not any(w in r.public[0] for w in SECRETS)
    assert "costing 23 of 40 VP" in r.ephemeral[0]
    assert r.ephemeral[1] == ("Bought with it, in the cost (secret): artillery: light-artillery heavy-mortars; "
                              "barrages: rockets 3 L9A.")
    started = await service.start(ANN, HERE)
    for text in started.public:
        assert not any(w in text for w in SECRETS), text
    st = await service.load_state(gid)
    assert st.artillery.ordnance[0] == ["light-artillery", "heavy-mortars"]
    assert [(b.kind, b.turn, b.tile) for b in st.artillery.barrages] == [("rockets", 3, "L9A")]
    assert "medium-mortars" not in st.artillery.bought[0], "his own purchases replace the preset's"


async def test_purchases_over_the_budget_or_unknown_are_refused_and_change_nothing(service, store):
    gid = (await service.new_game(ANN, HERE, "artillery-yard", side="US")).game_id
    await service.join(BO, HERE, "DE")
    before = (await store.load_game(gid)).state
    # 11 for the men, six medium artillery missions at 5, the preset's rockets at 5: 46
    with pytest.raises(Refused, match="that force costs 46 VP; the budget for 2 players is 40 VP"):
        await service.choose_force(ANN, HERE, "1:radio 2", artillery=" ".join(["medium-artillery"] * 6))
    with pytest.raises(Refused, match="'howitzers' is no artillery to buy; the chart has field-guns"):
        await service.choose_force(ANN, HERE, None, artillery="howitzers")
    with pytest.raises(Refused, match="a barrage falls on a landmark|a barrage is planned"):
        await service.choose_force(ANN, HERE, None, barrages="rockets 3 31A")
    with pytest.raises(Refused, match="'32A gp gp gp gp gp': a minefield is `TILE TOKEN...`"):
        await service.choose_force(ANN, HERE, None, mines="31A gp gp; 32A gp gp gp gp gp")
    with pytest.raises(Refused, match=r"a minefield in a map square takes 2 tokens, not 1 \(31A\)"):
        await service.choose_force(ANN, HERE, None, mines="31A gp")
    assert (await store.load_game(gid)).state == before


async def test_none_buys_nothing_and_preset_takes_the_sides_own_back(service, store):
    gid = (await service.new_game(ANN, HERE, "artillery-yard", side="US")).game_id
    await service.join(BO, HERE, "DE")
    r = await service.choose_force(ANN, HERE, None, artillery="none", barrages="none")
    assert r.ephemeral[0].startswith("You take your share of the scenario's preset squad, costing 11 of 40 VP")
    await service.choose_force(ANN, HERE, None, barrages="preset")
    await service.start(ANN, HERE)
    st = await service.load_state(gid)
    assert st.artillery.ordnance.get(0, []) == []
    assert [(b.kind, b.turn) for b in st.artillery.barrages] == [("rockets", 2)]


async def test_minefields_bought_by_a_player_with_hold_orders_are_laid_face_down(service, store):
    gid = (await service.new_game(ANN, HERE, "mined-yard", side="US")).game_id
    await service.join(BO, HERE, "DE")
    with pytest.raises(Refused, match="33A already has a minefield: one per tile"):
        await service.choose_force(BO, HERE, None, mines="33A gp gp; 33A gp fake")
    r = await service.choose_force(BO, HERE, None, mines="36A gp gp; 32A at gp")
    assert r.public == ["Bo takes a share of the preset squad."]
    assert "mines: 36A gp gp; 32A at gp" in r.ephemeral[1]
    await service.start(ANN, HERE)
    st = await service.load_state(gid)
    assert sorted(m.tile for m in st.minefields) == ["32A", "36A"], "his own replace the side's preset fields"
    assert all(m.seat == 1 for m in st.minefields)


# Issue 18: each side's second specialist (the US bazooka man, the German scout) is offered in
# the force choice of the advanced scenario like the first, and a force with him starts.
async def test_the_second_specialists_are_offered_and_picked_in_the_force_choice(store, clock):
    service = GameService(store, load_catalog(), clock=clock, seed=lambda: 7)
    gid = (await service.new_game(ANN, HERE, "croix-verte-ridge", side="US")).game_id
    await service.join(BO, HERE, "DE")
    us = {v: label for label, v in await service.suggest(ANN, HERE, "force", "12")}
    assert us["125"].startswith("125 Quillen (Pfc. 5 VP)") and us["121"].startswith("121 Larkin")
    de = {v: label for label, v in await service.suggest(BO, HERE, "force", "22")}
    assert de["225"].startswith("225 Reiter") and de["221"].startswith("221 Haberl")
    await service.choose_force(ANN, HERE, "125:bazooka 121 101")
    await service.choose_force(BO, HERE, "225 221 201")
    await service.start(ANN, Where(channel_id=HERE.channel_id, game_id=gid))
    st = await service.load_state(gid)
    assert {125, 225} <= set(st.soldiers) and "bazooka" in st.soldiers[125].equipment
