"""The campaign rules one at a time, on the shipped campaign with results made by hand:
sharing the company, fates, wounds and recovery, medals and badges, promotions, recruits,
branches, forces from rosters, and what a medal does to the deck."""
from __future__ import annotations

import pytest

from engine import new_game
from engine.campaign import (
    CampaignError,
    Status,
    apply_result,
    award,
    check_pick,
    choose_branch,
    enlist,
    fill_open_places,
    join,
    mark,
    medals_in_play,
    new_campaign,
    next_step,
    pick,
    promote,
    result_from_game,
    seat_specs,
)
from engine.campaign.forces import auto_force, force_entry
from tests.campaign.conftest import ANN, BO, DATE, OLGA, autoplay, outcome, started

CAROL = type(ANN)(33, "Carol")
DAN = type(ANN)(44, "Dan")


def confirm(st, cdef, cat, result, *, settle: bool = True):
    """Apply a result; with `settle`, a branch the winner must choose takes its first road."""
    st = apply_result(st, cdef, cat, result, DATE)[0]
    if settle and st.choice is not None:
        st = choose_branch(st, cdef, OLGA.user_id, st.choice.options[0], organiser=True)[0]
    return st


# ---------------------------------------------------------------------------- joining


def test_one_player_a_side_gets_the_whole_company(cat, cdef):
    st = started(cat, cdef)
    ann = st.player(ANN.user_id)
    assert [e.serial for e in ann.roster] == [101, 102, 104, 105, 106, 108, 109, 111]
    assert ann.strength == 8 and ann.open_places == 0
    assert st.entry(101).rank == "junior_nco" and st.entry(104).rank == "private"


def test_two_players_share_the_company_fairly_and_the_leaders_are_spread(cat, cdef):
    st = started(cat, cdef, ((ANN, "US"), (BO, "DE"), (CAROL, "US"), (DAN, "DE")))
    ann, carol = st.player(ANN.user_id), st.player(CAROL.user_id)
    assert len(ann.roster) + len(carol.roster) == 8
    assert not {e.serial for e in ann.roster} & {e.serial for e in carol.roster}

    def cost(p):
        return sum(cat.soldiers[e.serial].profile(e.rank).vp for e in p.roster)

    assert abs(cost(ann) - cost(carol)) <= 3
    assert (101 in {e.serial for e in ann.roster}) != (102 in {e.serial for e in ann.roster})


def test_a_player_joining_later_is_dealt_in_while_the_campaign_enlists(cat, cdef):
    st = new_campaign(cdef, None, OLGA.user_id, DATE)
    st = join(st, cdef, cat, ANN.user_id, "Ann", "US", DATE)
    assert len(st.player(ANN.user_id).roster) == 8
    st = join(st, cdef, cat, CAROL.user_id, "Carol", "US", DATE)
    assert len(st.player(ANN.user_id).roster) == 4 == len(st.player(CAROL.user_id).roster)


def test_nobody_joins_once_the_campaign_has_begun(cat, cdef):
    st = started(cat, cdef)
    with pytest.raises(CampaignError, match="has begun"):
        join(st, cdef, cat, CAROL.user_id, "Carol", "US", DATE)


# ---------------------------------------------------------------------------- results


def test_the_dead_the_taken_and_the_wounded(cat, cdef):
    st = started(cat, cdef)
    r = outcome(st, {102: "killed", 105: "captured", 106: "wounded", 201: "wounded"}, winner="DE",
                kills={101: 1}, captures={202: 1})
    st, lines = apply_result(st, cdef, cat, r, DATE)
    assert st.entry(102).status == Status.KILLED
    assert st.entry(105).status == Status.CAPTURED
    assert st.entry(106).status == Status.WOUNDED and st.entry(106).out_until == 2
    assert st.entry(201).status == Status.FIT and st.entry(201).wounds == 1  # his side held the field
    assert st.entry(101).kills == 1 and st.entry(202).captures == 1
    assert all(len(st.entry(s).served) == 1 for s in (101, 102, 105, 106, 201, 202))
    assert any("Kowalczyk (102) of Ann is killed in action" in x for x in lines)
    assert st.number == 1 and st.step == "mill"


def test_a_wounded_man_sits_out_the_next_scenario_and_is_back_after_it(cat, cdef):
    st = confirm(started(cat, cdef), cdef, cat, outcome(started(cat, cdef), {106: "wounded"}, winner="DE"))
    step = cdef.step(st.step)
    assert 106 not in {fe.serial for _, spec in seat_specs(st, cdef, cat) for fe in spec.force}
    with pytest.raises(CampaignError, match="Ruggiero is wounded"):
        pick(st, cdef, cat, ANN.user_id, "101 106")
    st = confirm(st, cdef, cat, outcome(st, winner="US"))
    assert st.entry(106).status == Status.FIT and step.id == "mill"
    assert "Back on duty" in st.entry(106).log[-1].text


def test_a_result_naming_a_killed_soldier_is_refused(cat, cdef):
    st = started(cat, cdef)
    st = confirm(st, cdef, cat, outcome(st, {102: "killed"}))
    r = outcome(st, serials=[101, 102, 201])
    with pytest.raises(CampaignError, match="Kowalczyk .* is killed"):
        apply_result(st, cdef, cat, r, DATE)


def test_the_same_result_is_never_applied_twice(cat, cdef):
    st = started(cat, cdef)
    r = outcome(st)
    st = confirm(st, cdef, cat, r)
    with pytest.raises(CampaignError, match="applied already"):
        apply_result(st, cdef, cat, r, DATE)


def test_a_result_for_another_step_is_refused(cat, cdef):
    st = started(cat, cdef)
    r = outcome(st).model_copy(update={"step": "bells"})
    with pytest.raises(CampaignError, match="for step 'bells'"):
        apply_result(st, cdef, cat, r, DATE)


def test_vp_of_a_scenario_go_to_the_players_and_the_history(cat, cdef):
    st = started(cat, cdef)
    st = confirm(st, cdef, cat, outcome(st, vp={ANN.user_id: 7, BO.user_id: 3}))
    assert st.history[0].vp == {ANN.user_id: 7, BO.user_id: 3}
    assert st.history[0].side_vp == {"US": 7, "DE": 3}


# ---------------------------------------------------------------------------- medals and badges


def test_two_enemies_out_of_the_fight_earn_the_silver_star_or_the_iron_cross(cat, cdef):
    st = started(cat, cdef)
    st = confirm(st, cdef, cat, outcome(st, kills={101: 1, 201: 2}, captures={101: 1}))
    assert [h.name for h in st.entry(101).honours] == ["Silver Star"]
    assert [h.name for h in st.entry(201).honours] == ["Iron Cross 1st Class"]
    assert st.entry(101).honours[0].rank == "junior_nco" and st.entry(101).honours[0].result == 1


def test_rallying_under_fire_and_orders_earn_the_lesser_medals(cat, cdef):
    st = started(cat, cdef)
    st = confirm(st, cdef, cat, outcome(st, deeds={105: {"rallied_under_fire": 1}, 209: {"orders": 1}}))
    assert [h.name for h in st.entry(105).honours] == ["Bronze Star"]
    assert [h.name for h in st.entry(209).honours] == ["War Merit Cross with Swords"]


def test_at_most_one_automatic_medal_and_one_badge_a_scenario(cat, cdef):
    st = started(cat, cdef)
    st = confirm(st, cdef, cat, outcome(st, kills={105: 2}, deeds={105: {"rallied_under_fire": 1, "orders": 1,
                                                                         "hits": 4, "charges": 1}}))
    assert [(h.category, h.award) for h in st.entry(105).honours] == [("medal", "silver"),
                                                                      ("badge", "close_combat")]


def test_a_fallen_man_is_decorated_but_earns_no_badge_for_coming_back(cat, cdef):
    st = started(cat, cdef)
    st = confirm(st, cdef, cat, outcome(st, {105: "killed"}, kills={105: 2}, deeds={105: {"charges": 1}}))
    assert [h.award for h in st.entry(105).honours] == ["silver"]


def test_the_combat_badge_comes_with_a_second_scenario_at_the_rank(cat, cdef):
    st = started(cat, cdef)
    st = confirm(st, cdef, cat, outcome(st, serials=[105, 201]))
    assert not st.entry(105).honours
    st = confirm(st, cdef, cat, outcome(st, serials=[105, 201]))
    assert [h.name for h in st.entry(105).honours] == ["Combat Infantryman Badge"]
    assert [h.name for h in st.entry(201).honours] == ["Infantry Assault Badge"]


def test_no_more_than_three_medals_and_one_badge_per_rank(cat, cdef):
    st = started(cat, cdef)
    e = st.entry(105)
    for kind in ("silver", "bronze", "distinguished"):
        award(e, kind, date=DATE, citation="brave")
    with pytest.raises(CampaignError, match="already has 3 medals at the rank of private"):
        award(e, "merit", date=DATE, citation="brave")
    award(e, "marksman", date=DATE, citation="good shot")
    with pytest.raises(CampaignError, match="at most 1 per rank"):
        award(e, "combat", date=DATE, citation="again")
    # the automatic award past the limit becomes a line in his log, not a fourth medal
    e.status = Status.FIT
    st = confirm(st, cdef, cat, outcome(st, kills={105: 3}))
    assert len(st.entry(105).honours_at("medal")) == 3
    assert "already wears 3 medals" in st.entry(105).log[-1].text


def test_an_unknown_award_names_the_ones_there_are(cat, cdef):
    st = started(cat, cdef)
    with pytest.raises(CampaignError, match="silver, bronze, merit, distinguished, close_combat"):
        award(st.entry(105), "purple_heart", date=DATE)


def test_a_medal_puts_his_medal_card_in_the_deck(cat, cdef):
    st = started(cat, cdef)
    award(st.entry(101), "silver", date=DATE, citation="held the lane")
    assert medals_in_play(st.entry(101), cat.soldiers[101]) == 1
    specs = seat_specs(st, cdef, cat)
    brannigan = next(fe for _, s in specs for fe in s.force if fe.serial == 101)
    assert brannigan.medals == 1
    game, _ = new_game(cat, "hedgerow-dawn", [s for _, s in specs], seed=5)
    cards = [c for f in game.forces.values() for c in (*f.deck, *f.hand)]
    assert "101-M1" in cards and "101-C1" not in cards  # Medals and Badges: the medal card replaces C1
    assert cat.cards["101-M1"].multi


def test_medals_count_in_play_only_as_far_as_he_has_medal_cards(cat, cdef):
    st = started(cat, cdef)
    e = st.entry(104)
    for kind in ("silver", "bronze"):
        award(e, kind, date=DATE, citation="x")
    assert medals_in_play(e, cat.soldiers[104]) == 2
    one_card = cat.soldiers[104].model_copy(update={"medal_cards": cat.soldiers[104].medal_cards[:1]})
    assert medals_in_play(e, one_card) == 1
    assert medals_in_play(e, one_card.model_copy(update={"medal_cards": []})) == 0


def test_a_man_without_medal_cards_before_issue_18_plays_his_once_decorated(cat, cdef):
    """Whitcomb had no medal cards until every soldier got three: two medals in the campaign now
    put his first two medal cards in his deck, each in place of the core card it names."""
    st = started(cat, cdef)
    for kind, why in (("silver", "two down at the gate"), ("bronze", "rallied Pruitt under fire")):
        award(st.entry(104), kind, date=DATE, citation=why)
    st = pick(st, cdef, cat, ANN.user_id, "104 101 105")[0]
    specs = [s for _, s in seat_specs(st, cdef, cat)]
    whitcomb = next(fe for s in specs for fe in s.force if fe.serial == 104)
    assert whitcomb.medals == 2
    game, _ = new_game(cat, "hedgerow-dawn", specs, seed=5)
    cards = [c for f in game.forces.values() for c in (*f.deck, *f.hand) if c.startswith("104-")]
    m1, m2, m3 = cat.soldiers[104].medal_cards
    replaced = {cat.cards[m1].replaces, cat.cards[m2].replaces}
    assert {m1, m2} <= set(cards) and m3 not in cards and not replaced & set(cards)
    kept = set(cat.soldiers[104].core_cards) - replaced
    assert kept <= set(cards) and len([c for c in cards if c in cat.soldiers[104].core_cards]) == 2


# ---------------------------------------------------------------------------- promotions


def test_a_leader_rises_after_two_scenarios_at_his_rank(cat, cdef):
    st = started(cat, cdef)
    st = confirm(st, cdef, cat, outcome(st, serials=[101, 104, 201]))
    assert st.entry(101).rank == "junior_nco"
    st = confirm(st, cdef, cat, outcome(st, serials=[101, 104, 201]))
    assert st.entry(101).rank == "senior_nco" and st.entry(101).served_at_rank == 0
    assert st.entry(104).rank == "junior_nco"  # a leader who started as a private
    assert "Promoted from junior NCO to senior NCO (Sgt.)" in st.entry(101).log[-1].text


def test_a_private_who_is_no_leader_is_never_promoted(cat, cdef):
    st = started(cat, cdef)
    for _ in range(3):
        st = confirm(st, cdef, cat, outcome(st, serials=[105]))
    assert st.entry(105).rank == "private"
    with pytest.raises(CampaignError, match="only leaders are promoted"):
        promote(st.entry(105), cat, date=DATE, why="x")


def test_the_organiser_promotes_a_leader_which_changes_his_cost_and_rank_cards(cat, cdef):
    st = started(cat, cdef)
    e = st.entry(104)
    before = force_entry(e, cat)
    promote(e, cat, date=DATE, why="took command when the corporal fell")
    after = force_entry(e, cat)
    assert (before.rank, after.rank) == ("private", "junior_nco")
    assert cat.soldiers[104].profile(after.rank).vp > cat.soldiers[104].profile(before.rank).vp
    promote(e, cat, date=DATE, why="again")
    with pytest.raises(CampaignError, match="as high as his cards go"):
        promote(e, cat, date=DATE, why="and again")


def test_his_medals_stay_with_the_rank_that_earned_them(cat, cdef):
    st = started(cat, cdef)
    e = st.entry(101)
    award(e, "silver", date=DATE, citation="x")
    promote(e, cat, date=DATE, why="y")
    assert len(e.honours) == 1 and e.honours_at("medal") == []
    assert medals_in_play(e, cat.soldiers[101]) == 0
    for kind in ("silver", "bronze", "merit"):  # three more at the new rank
        award(e, kind, date=DATE, citation="z")
    assert len(e.honours_at("medal")) == 3 and len(e.honours) == 4


# ---------------------------------------------------------------------------- recruits


def test_the_fallen_open_places_that_recruits_fill_as_privates(cat, cdef):
    st = started(cat, cdef)
    st = confirm(st, cdef, cat, outcome(st, {102: "killed", 105: "captured"}))
    ann = st.player(ANN.user_id)
    assert ann.open_places == 2
    st, line = enlist(st, cat, ANN.user_id, 103, DATE)
    assert line == "Mendoza (103) joins Ann's roster as a private."
    assert st.entry(103).rank == "private" and st.entry(103).joined == 1  # a leader starts as a private
    st, lines = fill_open_places(st, cat, DATE)
    assert lines == ["Lindqvist (107) joins Ann's roster as a private."]
    assert st.player(ANN.user_id).open_places == 0 and st.depot["US"] == [112, 114]
    with pytest.raises(CampaignError, match="at full strength"):
        enlist(st, cat, ANN.user_id, None, DATE)
    st, _ = enlist(st, cat, ANN.user_id, None, DATE, organiser=True)
    assert st.entry(112).joined == 1


def test_a_recruit_must_come_from_the_depot(cat, cdef):
    st = started(cat, cdef)
    st = confirm(st, cdef, cat, outcome(st, {102: "killed"}))
    with pytest.raises(CampaignError, match="already on Ann's roster"):
        enlist(st, cat, ANN.user_id, 101, DATE)
    with pytest.raises(CampaignError, match="not in the US depot"):
        enlist(st, cat, ANN.user_id, 113, DATE)


# ---------------------------------------------------------------------------- branches


def test_the_winner_chooses_the_road_and_only_the_winner(cat, cdef):
    st = started(cat, cdef)
    st = confirm(st, cdef, cat, outcome(st))
    st = confirm(st, cdef, cat, outcome(st, winner="DE"), settle=False)
    assert st.step is None and st.choice.side == "DE" and st.choice.options == ["crossing", "farm"]
    with pytest.raises(CampaignError, match="The winners"):
        seat_specs(st, cdef, cat)
    with pytest.raises(CampaignError, match=r"The winners \(DE\) choose"):
        choose_branch(st, cdef, ANN.user_id, "farm")
    with pytest.raises(CampaignError, match="Choose one of crossing, farm"):
        choose_branch(st, cdef, BO.user_id, "bells")
    st, _ = choose_branch(st, cdef, BO.user_id, "farm")
    assert st.step == "farm" and st.choice is None


def test_a_drawn_mill_takes_the_draw_road(cat, cdef):
    st = started(cat, cdef)
    st = confirm(st, cdef, cat, outcome(st))
    st = confirm(st, cdef, cat, outcome(st, winner=None))
    assert st.step == "crossing" and st.choice is None


def test_the_last_scenario_ends_the_campaign(cat, cdef):
    st = started(cat, cdef)
    for winner in ("US", "US", "US", "DE"):
        st = confirm(st, cdef, cat, outcome(st, winner=winner, vp={ANN.user_id: 5, BO.user_id: 2}))
    assert st.status == "finished" and st.step is None
    with pytest.raises(CampaignError, match="over"):
        apply_result(st, cdef, cat, outcome(st.model_copy(update={"step": "bells"}), winner="US"), DATE)


# ---------------------------------------------------------------------------- forces


def test_a_pick_within_the_budget_with_grenades_and_equipment(cat, cdef):
    st = started(cat, cdef)
    st, entries, vehicles, cost = pick(st, cdef, cat, ANN.user_id, "101 105 109:g6 111:radio")
    assert [e.serial for e in entries] == [101, 105, 109, 111] and vehicles == []
    assert cost == 8 + 6 + (3 + 1) + (4 + cat.equipment["radio"].vp)
    assert st.player(ANN.user_id).pick == entries


def test_a_pick_over_the_budget_or_the_head_count_is_refused(cat, cdef):
    st = started(cat, cdef)
    with pytest.raises(CampaignError, match="budget for 2 players is 30 VP"):
        pick(st, cdef, cat, ANN.user_id, "101 102 105 106 108 109")
    with pytest.raises(CampaignError, match="at most 6 men"):
        pick(st, cdef, cat, ANN.user_id, "101 102 104 105 106 108 109")
    with pytest.raises(CampaignError, match="not on your roster"):
        pick(st, cdef, cat, ANN.user_id, "101 201")


def test_a_soldier_fights_at_his_roster_rank_with_his_own_medals(cat, cdef):
    st = started(cat, cdef)
    p = st.player(ANN.user_id)
    sergeant = force_entry(st.entry(101), cat).model_copy(update={"rank": "senior_nco"})
    with pytest.raises(CampaignError, match="roster rank"):
        check_pick(st, cdef, cat, p, [sergeant])


def test_the_force_chosen_for_a_player_fits_the_step(cat, cdef):
    st = started(cat, cdef)
    force, vehicles = auto_force(st, cdef, cat, st.player(ANN.user_id))
    assert force[0].serial == 101 and len(force) <= 6 and vehicles == []
    assert check_pick(st, cdef, cat, st.player(ANN.user_id), force) <= 30


# ---------------------------------------------------------------------------- a real game's result


def test_a_finished_game_reads_into_a_result_and_every_vp_is_accounted_for(cat, cdef):
    st = started(cat, cdef)
    specs = seat_specs(st, cdef, cat)
    game = autoplay(cat, "hedgerow-dawn", [s for _, s in specs], seed=3)
    r = result_from_game(st, cdef, game, [u for u, _ in specs])
    assert {p.user_id: p.vp for p in r.players} == {ANN.user_id: game.seat_vp(0) + r.players[0].shared_vp,
                                                    BO.user_id: game.seat_vp(1) + r.players[1].shared_vp}
    for side in ("US", "DE"):
        assert sum(p.vp for p in r.players if p.side == side) == game.result.vp[side]
    assert sum(o.kills for o in r.soldiers) == sum(s.kills for s in game.soldiers.values())
    fates = {o.serial: o.fate for o in r.soldiers}
    for serial, s in game.soldiers.items():
        if s.status == "dead":
            assert fates[serial] == "killed"


def test_a_game_played_at_the_wrong_rank_is_refused(cat, cdef):
    st = started(cat, cdef)
    specs = seat_specs(st, cdef, cat)
    us = specs[0][1]
    promoted = us.model_copy(update={"force": [fe.model_copy(update={"rank": "senior_nco"}) if fe.serial == 101
                                               else fe for fe in us.force[:-1]]})
    game = autoplay(cat, "hedgerow-dawn", [promoted, specs[1][1]], seed=3)
    with pytest.raises(CampaignError, match="Brannigan .* fought as senior_nco"):
        result_from_game(st, cdef, game, [u for u, _ in specs])


def test_a_game_of_another_scenario_is_refused(cat, cdef):
    st = started(cat, cdef)
    game = autoplay(cat, "bells-of-sainte-gisele", [s for _, s in seat_specs(st, cdef, cat)], seed=1)
    with pytest.raises(CampaignError, match="next scenario is hedgerow-dawn"):
        result_from_game(st, cdef, game, [ANN.user_id, BO.user_id])


# ---------------------------------------------------------------------------- the organiser's marks


def test_the_organiser_marks_a_man_missing_exchanged_or_treated_but_never_raises_the_dead(cat, cdef):
    st = started(cat, cdef)
    st = confirm(st, cdef, cat, outcome(st, {102: "killed", 105: "captured", 106: "wounded"}, winner="DE"))
    st, _ = mark(st, 105, "fit", "exchanged for two prisoners", DATE)
    st, _ = mark(st, 106, "fit", "the medic patched him up", DATE)
    st, _ = mark(st, 108, "missing", "lost in the night", DATE)
    assert [st.entry(s).status for s in (105, 106, 108)] == ["fit", "fit", "missing"]
    with pytest.raises(CampaignError, match="a killed soldier never fights again"):
        mark(st, 102, "fit", "a miracle", DATE)


def test_the_sides_preset_artillery_and_mines_are_priced_in_its_first_players_pick(cat, cdef):
    # Issue 18: a scenario's preset fire missions and minefields go to the side's first player at
    # the start, where they count against his budget; the campaign's pick prices them too, so a
    # pick that fits here is not refused when the game starts.
    from engine.core.content import MinefieldDef
    st = started(cat, cdef)
    sc = cat.scenario(next_step(st, cdef).scenario)

    def with_side(side: str, **change):
        new = sc.side(side).model_copy(update=change)
        return cat.model_copy(update={"scenarios": {**cat.scenarios, sc.id: sc.model_copy(update={
            "sides": [new if s.id.value == side else s for s in sc.sides], "mines_allowed": True})}})

    ann, bo = st.player(ANN.user_id), st.player(BO.user_id)
    force = auto_force(st, cdef, cat, ann)[0][:2]  # two men: room left for a mission
    plain = check_pick(st, cdef, cat, ann, force)
    armed = with_side("US", ordnance=["medium-artillery"])
    assert check_pick(st, cdef, armed, ann, force) == plain + cat.equipment["medium-artillery"].vp
    over = with_side("US", ordnance=["medium-artillery"] * 8)
    with pytest.raises(CampaignError, match=f"that force costs {plain + 8 * 5} VP; the budget for 2 players is 30"):
        check_pick(st, cdef, over, ann, force)
    de = auto_force(st, cdef, cat, bo)[0][:2]
    laid = with_side("DE", minefields=[MinefieldDef(tile=sc.map[0][1], tokens=["gp", "gp"])])
    assert check_pick(st, cdef, laid, bo, de) == check_pick(st, cdef, cat, bo, de) + cat.equipment["mine-gp"].vp
