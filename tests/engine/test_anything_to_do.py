"""The rules' "is there anything to do?" (`legal.anything_to_do`): it answers exactly whether the
full listing (`action_options`) has a command, on every question the rules ask in autoplayed
games, and it reads like the rules in worked positions."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from engine.advanced.sources import accepted
from engine.core import rulebook
from engine.legal import action_options, anything_to_do
from engine.position import load_position
from engine.script import run_script
from engine.vehicles import legal as vehicle_legal
from tests.engine.autoplay_kit import autoplayed

DUEL = Path(__file__).resolve().parents[1] / "fixtures" / "positions" / "tank-duel.yaml"

# infantry, advanced rules, hidden deployment, teams, hazards, vehicles with mines, artillery,
# a gun, roadblocks, close combat
GAMES = [("fixtures", "advanced-skirmish", 1), ("fixtures", "hidden-yard", 2), ("fixtures", "mined-motor", 3),
         ("fixtures", "teams-woods", 4), ("fixtures", "hazards-farm", 5), ("shipped", "hedgerow-dawn", 6),
         ("shipped", "tardieu-bombardment", 7), ("shipped", "mill-road-gun", 8),
         ("shipped", "crossroads-roadblock", 9), ("shipped", "vautrin-crossroads", 10)]
COMMANDS = 150


@pytest.mark.parametrize(("content", "scenario", "seed"), GAMES)
def test_the_check_agrees_with_the_listing_on_every_question_the_rules_ask(request, monkeypatch,
                                                                          content, scenario, seed):
    """Every time the rules ask whether the card in play leaves anything to do (the play sequence,
    in the middle of an apply, where a "no" ends the card; a command that leaves a part under
    way, about that part), and at every decision state for each force and each open part, the
    check says yes exactly when the listing has a command."""
    catalog = request.getfixturevalue("cat" if content == "fixtures" else "shipped")
    answers = {True: 0, False: 0}
    wrong = []

    def asked(st, force: str, only_source: str | None = None) -> bool:
        want = next(iter(action_options(st, force, only_source)), None) is not None
        if anything_to_do(st, force, only_source) != want:
            wrong.append((st.turn, st.phase, st.active.card, st.active.action.value, only_source, want))
        answers[want] += 1
        return want

    monkeypatch.setattr(rulebook.anything_to_do, "_fn", asked)
    for st in autoplayed(catalog, scenario, seed, COMMANDS):
        for force in st.forces:
            assert anything_to_do(st, force) == bool(list(action_options(st, force))), (force, st.active)
        if st.active is not None:
            for kind in {s.kind for s in st.active.sources if s.state != "closed"}:
                want = next(iter(action_options(st, st.active.force, only_source=kind)), None) is not None
                assert anything_to_do(st, st.active.force, kind) == want, (kind, st.active)
    assert not wrong, wrong
    assert answers[True] > 5 and answers[False] > 5, answers


VEHICLE_GAMES = [("fixtures", "mined-motor", 3), ("shipped", "tardieu-bombardment", 3),
                 ("shipped", "mill-road-gun", 3)]


@pytest.mark.parametrize(("content", "scenario", "seed"), VEHICLE_GAMES)
def test_each_vehicle_check_agrees_with_its_listing_for_every_plate_and_man(request, content, scenario, seed):
    """For each plate, each man aboard and each man on foot, on every open part of the card in
    play: some question of plate_checks, aboard_checks and foot_checks says yes exactly when
    plate_options, aboard_options and foot_options list something."""
    catalog = request.getfixturevalue("cat" if content == "fixtures" else "shipped")
    found = {True: 0, False: 0}
    for st in autoplayed(catalog, scenario, seed, COMMANDS):
        a = st.active
        if a is None:
            continue
        seat = st.forces[a.force].seat
        targets = vehicle_legal.Targets(st)
        for src in [s for s in a.sources if s.state != "closed"]:
            kind = src.kind
            for m in vehicle_legal.actors(st, a.force):
                if m in st.vehicles:
                    want = bool(list(vehicle_legal.plate_options(st, a, kind, m, seat)))
                    got = any(ask() for _, ask in vehicle_legal.plate_checks(st, a, kind, m, seat, targets))
                else:
                    want = bool(list(vehicle_legal.aboard_options(st, a, kind, m, seat)))
                    got = any(ask() for _, ask in vehicle_legal.aboard_checks(st, a, kind, m, seat, targets))
                assert got == want, (kind, m)
                found[want] += 1
            for s in st.soldiers.values():
                if s.controller == a.force and s.free:
                    acc = accepted(st, a, src, s.serial)
                    want = bool(list(vehicle_legal.foot_options(st, a, kind, s.serial, seat, acc)))
                    checks = vehicle_legal.foot_checks(st, a, kind, s.serial, seat, acc, targets)
                    assert any(ask() for _, ask in checks) == want
    assert found[True] > 10 and found[False] > 10, found


@pytest.mark.parametrize(("content", "scenario", "seed"), VEHICLE_GAMES + [("shipped", "hedgerow-dawn", 6)])
def test_a_forces_men_read_in_one_pass_are_its_men_on_foot_then_its_actors(request, content, scenario, seed):
    """The parts' men (legal._men, the soldiers read once) are the force's free men and men still
    to enter, by dog tag, then its plates and men aboard as vehicles/legal.py actors lists them."""
    from engine.legal import _men
    catalog = request.getfixturevalue("cat" if content == "fixtures" else "shipped")
    some = 0
    for st in autoplayed(catalog, scenario, seed, COMMANDS):
        for force in st.forces:
            foot = sorted(s.serial for s in st.soldiers.values()
                          if (s.controller == force and s.free) or (s.status == "waiting" and s.force == force))
            assert _men(st, force, False) == foot
            assert _men(st, force, True) == foot + vehicle_legal.actors(st, force)
            some += bool(foot)
    assert some > 50


# --------------------------------------------------------------------------- worked positions


def _shoot_first(cat, ann: dict, bo: dict):
    """Phase 1 is SHOOT: Ann plans her SHOOT card 1-C2 first, Bo his SHOOT card 4-C2; the play
    sequence runs to the first decision. Returns the state and what was said."""
    data = {"scenario": "yard", "players": [{"name": "Ann", "side": "US"}, {"name": "Bo", "side": "DE"}], "seed": 1,
            "phase_cards": ["S10", "S01", "S04"], "hands": {0: ["1-C2", "1-C3", "1-C4"], 1: ["4-C2", "4-C3", "4-C4"]},
            "soldiers": [{"serial": 1, "seat": 0, **ann}, {"serial": 4, "seat": 1, **bo}]}
    st, _ = load_position(cat, data)
    st, done = run_script(st, "@Ann\nplan 1-C2 1-C3 1-C4\n@Bo\nplan 4-C2 4-C3 4-C4\n", seat=0)
    return st, [e for _, evs in done for e in evs]


def _nothing_left(events) -> list[str]:
    return [e.text for e in events if e.kind == "nothing_left"]


def test_a_shoot_card_with_a_spotted_enemy_in_arc_and_range_has_something_to_do(cat):
    st, said = _shoot_first(cat, {"at": [10, 2], "facing": "e"}, {"at": [14, 2], "facing": "w", "spotted": True})
    assert st.active.card == "1-C2" and not _nothing_left(said)
    assert anything_to_do(st, st.active.force)


def test_a_shoot_card_with_no_spotted_enemy_has_nothing_to_do(cat):
    # SHOOT: only a spotted enemy may be shot at (or have a grenade aimed at him)
    st, said = _shoot_first(cat, {"at": [10, 2], "facing": "e"}, {"at": [14, 2], "facing": "w"})
    assert any(line.startswith("Nothing more can be done with 1-C2") for line in _nothing_left(said))
    assert st.active.card == "1-C3"  # the LOOK card of phase 2 comes instead


def test_the_same_card_turns_to_nothing_when_its_enemy_is_unspotted_or_behind_the_shooter(cat):
    st, _ = _shoot_first(cat, {"at": [10, 2], "facing": "e"}, {"at": [14, 2], "facing": "w", "spotted": True})
    force = st.active.force
    hidden = st.clone()
    hidden.changing(4).spotted = False
    turned = st.clone()
    turned.changing(1).facing = "w"  # the enemy now stands outside his shooting arc
    for position in (hidden, turned):
        assert not anything_to_do(position, force) and not list(action_options(position, force))


def test_a_man_in_combat_contact_cannot_shoot_so_his_shoot_card_has_nothing_to_do(cat):
    # Combat contact: a man in contact may only turn to face, and that only with a MOVE
    _, said = _shoot_first(cat, {"at": [10, 2], "facing": "e"}, {"at": [11, 2], "facing": "w", "spotted": True})
    assert any(line.startswith("Nothing more can be done with 1-C2") for line in _nothing_left(said))


def test_a_dead_owner_leaves_nothing_on_his_card_with_no_other_man(cat):
    # the dog tag works only while its owner is alive (ruling 4); the team bubble needs a man too
    st, _ = _shoot_first(cat, {"at": [10, 2], "facing": "e"}, {"at": [14, 2], "facing": "w", "spotted": True})
    force = st.active.force
    dead = st.clone()
    dead.changing(1).status = "dead"
    assert not anything_to_do(dead, force) and not list(action_options(dead, force))


def test_only_the_deck_whose_card_is_in_play_has_anything_to_do(cat):
    st, _ = _shoot_first(cat, {"at": [10, 2], "facing": "e"}, {"at": [14, 2], "facing": "w", "spotted": True})
    other = next(f for f in st.forces if f != st.active.force)
    assert anything_to_do(st, st.active.force) and not anything_to_do(st, other)


def _rifleman_looks(cat, panzer_spotted: bool):
    """tests/fixtures/positions/tank-duel.yaml with phase 1 a LOOK: Ann's rifleman 1 plays his
    LOOK card 1-C3 once both tanks' LOOK cards are passed. Bo's rifleman is spotted already; the
    Panzer is spotted or not. Ann's deck and discard are empty, so the dog tag cannot Draw."""
    data = yaml.safe_load(DUEL.read_text(encoding="utf-8"))
    data["vehicles"][1]["spotted"] = panzer_spotted
    data["soldiers"][1]["spotted"] = True
    data["phase_cards"] = ["S03", "S09", "S10"]
    data["hands"].update({0: ["1-C3", "1-C1", "1-C2"], 1: ["4-C3", "4-C1", "4-C2"]})
    st, _ = load_position(cat, data)
    st, _ = run_script(st, "@Ann\nplan 1-C3 1-C1 1-C2\nplan for US-1-901 60-C3 901-V1 901-V2\n"
                           "@Bo\nplan 4-C3 4-C1 4-C2\nplan 902-V3 902-V5 902-V1\n@Ann\npass\n@Bo\npass\n", seat=0)
    assert st.active.card == "1-C3"
    force = st.changing_force(st.active.force)
    force.deck, force.discard = [], []
    return st


def test_a_look_card_has_a_sight_while_an_enemy_vehicle_is_unspotted_though_every_soldier_is(cat):
    # LOOK: a Sight looks for an unspotted enemy, a vehicle as much as a man (Hell on Wheels, Visibility)
    st = _rifleman_looks(cat, panzer_spotted=False)
    assert anything_to_do(st, st.active.force)
    assert {type(c).__name__ for c in action_options(st, st.active.force)} == {"SightCmd"}
    st = _rifleman_looks(cat, panzer_spotted=True)
    assert not anything_to_do(st, st.active.force) and not list(action_options(st, st.active.force))
