"""The advanced-rules content (docs/advanced-content.md): specialists, medics and officers on
both sides, the two tactics modules with their team panels and team cards, the specialists'
story cards, and The Ridge at Croix-Verte, which puts all of it on one table."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from engine.advanced.teams import qualifies
from engine.agent import RandomAgent
from engine.apply import apply
from engine.core.content import (
    Action,
    Catalog,
    Do,
    FireEvent,
    ForceEntry,
    SmokeEvent,
    load_catalog,
)
from engine.infantry.equipment import entry_problem
from engine.turn.setup import SeatSpec, check_force, force_cost, new_game, preset_share

REPO = Path(__file__).resolve().parents[2]
SCENARIO = "croix-verte-ridge"
SIDES = ("US", "DE")


@pytest.fixture(scope="module")
def cat() -> Catalog:
    return load_catalog(REPO)


def with_badge(cat: Catalog, nat: str, badge: str):
    return [s for s in cat.soldiers.values() if s.nationality == nat and s.badge == badge]


def panels_of(cat: Catalog, nat: str):
    return [p for p in cat.panels.values() if p.nationality == nat]


def panel_cards(cat: Catalog, nat: str):
    return [cat.cards[c] for p in panels_of(cat, nat) for c in p.cards]


# ---------------------------------------------------------------------------- specialists


@pytest.mark.parametrize("nat, badge", [("US", "scout"), ("DE", "sniper")])
def test_each_side_has_a_specialist_with_every_kind_of_optional_card(cat, nat, badge):
    (man,) = with_badge(cat, nat, badge)
    assert man.serial in (range(121, 130) if nat == "US" else range(221, 230))
    # his three badge cards are his rank profile's cards; the four core cards come with them
    assert len(man.core_cards) == 4 and [len(p.cards) for p in man.ranks] == [3]
    special = [cat.cards[c] for c in man.special_cards]
    assert all(c.role == "special" and c.owner == man.serial for c in special)
    kinds = Counter(c.kind for c in special)
    assert kinds == {"react": 1, "preempt": 1, "command": 1}
    react = next(c for c in special if c.kind == "react")
    assert react.vp_cost >= 1 and react.team
    preempt = next(c for c in special if c.kind == "preempt")
    assert preempt.preempt is not None and preempt.preempt.requires == Action.MOVE
    assert preempt.preempt.then == Do.SHOOT and 1 <= preempt.preempt.count <= 2
    any_card = next(c for c in special if c.kind == "command")
    assert any_card.any_action and set(any_card.actions) == set(Action)
    assert man.story and all(sid in cat.story for sid in man.story)
    assert man.kit and all(eq in cat.equipment for eq in man.kit)


def test_the_scout_sees_far_and_hides_well_and_the_sniper_reaches_far(cat):
    (scout,) = with_badge(cat, "US", "scout")
    (sniper,) = with_badge(cat, "DE", "sniper")
    assert scout.ranks[0].healthy.sight == 18 and scout.ranks[0].healthy.cover <= 0
    assert scout.ranks[0].healthy.climb == 2
    assert sniper.ranks[0].healthy.long == 14 and sniper.ranks[0].healthy.toss == 0
    assert "sniper-scope" in sniper.kit


@pytest.mark.parametrize("nat", SIDES)
def test_each_side_has_a_medic_who_fights_little(cat, nat):
    (medic,) = with_badge(cat, nat, "medic")
    (profile,) = medic.ranks
    assert 1 <= profile.healthy.medic <= 3 and profile.wounded.medic <= profile.healthy.medic
    assert profile.healthy.fight == 1 and profile.healthy.toss == 0 and medic.grenades == 0
    own = [cat.cards[c] for c in (*medic.core_cards, *profile.cards)]
    assert sum(c.hit.short == "Miss" for c in own) >= 5, "a medic's cards seldom hit"


@pytest.mark.parametrize("nat", SIDES)
def test_each_side_has_an_officer_whose_command_rises_with_his_grade(cat, nat):
    (officer,) = with_badge(cat, nat, "officer")
    commands = [p.healthy.command for p in officer.ranks]
    assert commands == [1, 2, 3]
    assert all(1 <= p.wounded.command <= p.healthy.command for p in officer.ranks)
    assert [p.vp for p in officer.ranks] == sorted({p.vp for p in officer.ranks})
    assert all(c.command == 0 for s in cat.soldiers.values() if s.badge != "officer"
               for p in s.ranks for c in (p.healthy, p.wounded)), "only officers give Command"


# Issue 18: a second specialist a side, of a badge the rules already use: the US bazooka man fills
# the Base of Fire team's slot II and carries the bazooka; the German scout fills the Assault
# Squad's slot I.
SECOND = {"US": (125, "anti-tank", "us-base-of-fire", 1), "DE": (225, "scout", "de-stosstrupp", 0)}


@pytest.mark.parametrize("nat", SIDES)
def test_each_side_has_a_second_specialist_whose_badge_fills_a_team_slot(cat, nat):
    serial, badge, panel, slot = SECOND[nat]
    (man,) = with_badge(cat, nat, badge)
    assert man.serial == serial
    others = {s.badge for s in cat.soldiers.values() if s.nationality == nat and s.serial != serial and s.badge}
    assert badge not in others and {"scout", "sniper"} & others, "a specialist of another badge already serves"
    assert len(man.core_cards) == 4 and [len(p.cards) for p in man.ranks] == [3] and len(man.medal_cards) == 3
    assert man.special_cards and man.kit
    need = cat.panels[panel].slots[slot]
    assert need.any_of and qualifies(man, man.ranks[0].rank, man.grenades, need)
    assert not qualifies(man.model_copy(update={"badge": None}), man.ranks[0].rank, man.grenades, need)


def test_only_the_bazooka_man_of_the_us_riflemen_may_take_the_bazooka(cat):
    assert entry_problem(cat, ForceEntry(serial=125, equipment=["bazooka"])) is None
    assert "cannot use the Bazooka" in entry_problem(cat, ForceEntry(serial=109, equipment=["bazooka"]))


def test_the_second_specialists_are_picked_into_their_slots_and_play(cat):
    """Each takes a preset man's place on his team panel; random agents play the Ridge to the
    end, both men's cards come to the table and the bazooka is fired from the team slot."""
    sc = cat.scenario(SCENARIO)
    us = [ForceEntry(serial=125, equipment=["bazooka"], panel="us-base-of-fire", slot=1) if e.serial == 105 else e
          for e in sc.side("US").preset if e.serial != 110]
    de = [ForceEntry(serial=225, panel="de-stosstrupp", slot=0) if e.serial == 209 else e
          for e in sc.side("DE").preset]
    assert check_force(cat, sc, "US", us, players=2) <= 45 and check_force(cat, sc, "DE", de, players=2) <= 45
    fired = 0
    for seed in range(3):
        st, _ = new_game(cat, SCENARIO, [SeatSpec(name="Ann", side="US", force=us),
                                         SeatSpec(name="Bo", side="DE", force=de)], seed)
        assert {125, 225} <= set(st.soldiers) and st.soldiers[125].panel == "us-base-of-fire"
        agent, placed, n = RandomAgent(seed), set(), 0
        while st.step != "over" and n < 3000:
            st, events = apply(st, agent.choose(st, agent.seat_to_act(st)))
            placed |= {c.split("-")[0] for f in st.forces.values() for c in f.placed if c}
            fired += sum(e.kind == "weapon_fired" and e.data.get("serial") == 125 for e in events)
            n += 1
        assert st.step == "over" and {"125", "225"} <= placed, seed
    assert fired


# ---------------------------------------------------------------------------- tactics modules


@pytest.mark.parametrize("nat", SIDES)
def test_each_side_has_a_tactics_module_of_at_least_three_panels(cat, nat):
    panels = panels_of(cat, nat)
    assert len(panels) >= 3 and len({p.module for p in panels}) == 1
    for p in panels:
        assert 2 <= len(p.slots) <= 8
        labels = [s.label for s in p.slots if s.label]
        assert labels and len(labels) == len(set(labels)) and set(labels) <= {"I", "II"}
        assert any(s.any_of for s in p.slots), f"{p.id} has a slot with requirements"
        assert len(p.cards) >= 2
        for cid in p.cards:
            c = cat.cards[cid]
            assert c.tagless and c.role == "panel" and c.panel == p.id
            assert c.needs_slot is None or c.needs_slot in labels


@pytest.mark.parametrize("nat", SIDES)
def test_each_module_carries_every_kind_of_team_card(cat, nat):
    cards = panel_cards(cat, nat)
    teamwork = [c for c in cards if any(e.who == "team" for e in c.team)]
    assert len(teamwork) >= 4
    react = [c for c in cards if c.kind == "react"]
    assert react and all(c.vp_cost >= 1 for c in react)
    assert any(c.kind == "command" and c.any_action and set(c.actions) == set(Action) for c in cards)
    ident = [c for c in cards if c.identity is not None]
    assert len(ident) == 1 and ident[0].kind == "command"
    assert ident[0].identity.draws == 3 and ident[0].identity.actions == [Action.SHOOT, Action.MOVE]
    assert {c.needs_slot for c in cards} >= {"I", "II"}
    assert any(c.restriction == "one_square" for c in cards)
    assert any(c.narrator and c.narrator.color == "red" and c.narrator.kind == "discard" for c in cards)


@pytest.mark.parametrize("nat", SIDES)
def test_the_teamwork_card_that_sends_every_team_to_ground_needs_slot_one(cat, nat):
    (card,) = [c for c in panel_cards(cat, nat) if c.all_teams]
    assert card.actions == [Action.HIDE] and card.needs_slot == "I"
    assert {e.do for e in card.team if e.who == "team"} == {Do.COVER, Do.RALLY, Do.HOLD}
    assert card.narrator is None  # all_teams says it; a team card has no dog tag to take a box


def test_card_titles_do_not_repeat_within_a_side_with_the_team_cards(cat):
    plates = {v.plate: v.nationality.value for v in cat.vehicles.values()}

    def side_of(c):
        if c.owner == 0:
            return cat.panels[c.panel].nationality.value
        return cat.soldiers[c.owner].nationality.value if c.owner in cat.soldiers else plates[c.owner]

    for nat in SIDES:
        titles = Counter(c.title for c in cat.cards.values() if side_of(c) == nat)
        assert [t for t, k in titles.items() if k > 1] == [], nat


# ---------------------------------------------------------------------------- story cards


def test_fire_and_smoke_story_cards_belong_to_specialists(cat):
    owned = {sid: s for s in cat.soldiers.values() for sid in s.story}
    special = {cid: c for cid, c in cat.story.items() if cid.startswith("SP")}
    assert set(special) == set(owned), "every specialist story card has its man, and no more"
    events = Counter(type(c.effect.event) for c in special.values())
    assert events[FireEvent] >= 2 and events[SmokeEvent] >= 2
    for side in SIDES:
        mine = [c for cid, c in special.items() if owned[cid].nationality == side]
        assert any(isinstance(c.effect.event, FireEvent) for c in mine)
        assert any(isinstance(c.effect.event, SmokeEvent) for c in mine)
    for c in special.values():
        assert getattr(c.effect.event, "where", "random") == "random" and c.top != c.bottom


def test_specialists_story_cards_stay_out_of_other_scenarios(cat):
    st, _ = new_game(cat, "hedgerow-dawn", [SeatSpec(name="a", side="US"), SeatSpec(name="b", side="DE")], seed=3)
    assert not [c for c in st.story_deck if c.startswith("SP")]


# ---------------------------------------------------------------------------- the scenario


def test_the_ridge_fields_specialists_medics_officers_and_teams_on_both_sides(cat):
    sc = cat.scenario(SCENARIO)
    costs = []
    for side in sc.sides:
        badges = {cat.soldiers[e.serial].badge for e in side.preset}
        assert {"medic", "officer"} <= badges and badges & {"scout", "sniper"}
        panels = {e.panel for e in side.preset if e.panel}
        assert len(panels) == 3
        assert any(e.equipment for e in side.preset)
        costs.append(check_force(cat, sc, side.id, list(side.preset), players=2))
        assert costs[-1] == force_cost(cat, sc, side.id, list(side.preset)) <= side.force_vp[2]
    assert costs[0] == costs[1], "both sides buy the same VP"
    assert sc.mines and sc.fires


def test_the_ridge_sets_up_with_panel_special_and_story_cards_in_play(cat):
    st, _ = new_game(cat, SCENARIO, [SeatSpec(name="Ann", side="US"), SeatSpec(name="Bo", side="DE")], seed=7)
    sc = cat.scenario(SCENARIO)
    for f in st.forces.values():
        held = {c for s in st.soldiers.values() if s.force == f.id for c in s.held}
        cards = {c for c in (*f.deck, *f.hand, *f.discard, *f.placed, *f.extra, *f.fight_pool) if c} | held
        side = sc.side(f.side)
        for pid in {e.panel for e in side.preset if e.panel}:
            assert set(cat.panels[pid].cards) <= cards, pid
        for e in side.preset:
            assert set(cat.soldiers[e.serial].special_cards) <= cards
            s = st.soldiers[e.serial]
            assert (s.panel, s.slot) == (e.panel, e.slot)
    owned = {sid for e in (*sc.sides[0].preset, *sc.sides[1].preset) for sid in cat.soldiers[e.serial].story}
    assert owned <= {*st.story_deck, *st.phase_cards, *st.story_discard}


@pytest.mark.parametrize("players", [3, 4])
def test_sharing_the_preset_keeps_every_panel_with_one_player(cat, players):
    sc = cat.scenario(SCENARIO)
    for side in sc.sides:
        holder = {}
        for k in range(2):
            for e in preset_share(cat, sc, side.id, k, 2):
                if e.panel:
                    assert holder.setdefault(e.panel, k) == k, (side.id, e.panel)
    seats = [SeatSpec(name=f"p{i}", side=("US", "DE")[i % 2]) for i in range(players)]
    new_game(cat, SCENARIO, seats, seed=11)


def test_a_player_may_take_only_some_of_a_specialists_optional_cards(cat):
    sc = cat.scenario(SCENARIO)
    us = [e.model_copy(update={"special": ["121-X1", "SP01"]}) if e.serial == 121 else e for e in sc.side("US").preset]
    st, _ = new_game(cat, SCENARIO, [SeatSpec(name="Ann", side="US", force=us), SeatSpec(name="Bo", side="DE")],
                     seed=5)
    f = next(f for f in st.forces.values() if f.side == "US")
    cards = {*f.deck, *f.hand}
    assert "121-X1" in cards and not {"121-X2", "121-X3"} & cards
    story = {*st.story_deck, *st.phase_cards, *st.story_discard}
    assert "SP01" in story and "SP03" not in story and {"SP02", "SP04", "SP05", "SP06"} <= story
