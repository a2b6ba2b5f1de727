"""Climbing onto a vehicle to fight (Hell on Wheels, Combat Contact, the SMG-only paragraph, with the
Climb numbers of Mount and Dismount): at SMG scale a soldier fights a vehicle's hull or turret at
its hatches only from up on it. He climbs onto the hull deck (Climb 2) and from there onto the
turret (Climb 1 more); the cabin is fought from the ground. Rulings C1 and C15-C17 in
docs/battlefield.md; the command is `climb S PLATE [turret]`, a MOVE.

The fixture paratroopers Doyle (90), Ames (91) and Master Sergeant Candy (92) have Climb 2; Avery (1)
has Climb 1. The Test Panzer (902) stands on 24A with its driver's and commander's hatches open.
"""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from engine import apply
from engine.agent import RandomAgent
from engine.battlefield import close_combat
from engine.core import commands as C
from engine.core.commands import parse_command
from engine.core.errors import RuleError
from engine.core.log import Ctx
from engine.infantry.damage import kill
from engine.infantry.move import Dest, move
from engine.legal import legal_commands
from engine.position import dump_position, load_position
from engine.turn import fight
from engine.vehicles.move import vturn
from engine.view import view
from tests.engine.test_close_combat import (
    AMES,
    CANDY,
    DOYLE,
    PANZER,
    US,
    assault,
    said,
    stack,
)
from tests.engine.test_vehicles import at_work, card_of

AVERY = 1


def beside(cat, men=(DOYLE,), *, mover=None, more=()):
    """The paratroopers on the ground around the Panzer (in its tile, not on it), and a MOVE card
    of `mover` (the first man) in play."""
    st = assault(cat, men=men, deck=False, more=more)
    who = mover if mover is not None else men[0]
    at_work(st, US, card_of(st, US, owner=who, action="move"), "move")
    return st


def climb(serial: int, part: str = "hull") -> C.ClimbCmd:
    return C.ClimbCmd(seat=0, serial=serial, plate=PANZER, part=part, via="tag")


def attackers(st) -> dict[str, list[int]]:
    return {p: [a.serial for a in m] for p, m in close_combat.assignments(st, PANZER).items()}


def test_a_man_with_climb_2_climbs_onto_the_deck_and_then_fights_at_the_drivers_hatch(cat):
    st = beside(cat)
    assert attackers(st) == {} and close_combat.due(st) == []  # beside the tank he reaches no hatch
    assert climb(DOYLE) in legal_commands(st, 0)
    stack(st, US, "90-C1")  # his Thompson through the open driver's hatch
    st, events = apply(st, climb(DOYLE))  # his card's only MOVE: the phase ends and the fights begin
    assert [e.text for e in events if e.kind == "climb"] == ["Pvt. Doyle climbs (Climb 2) onto the Test Panzer 902's deck."]
    fought = [e for e in events if e.kind == "close_combat"]
    assert [(e.data["part"], e.data["attackers"]) for e in fought] == [("hull", [DOYLE])]
    assert next(e.data["serial"] for e in events if e.kind == "hit_check") == DOYLE


def test_the_books_paratroopers_climb_in_the_move_that_takes_them_into_contact(cat):
    # the book's example: the paratroopers reach the Panzer and climb onto its hull, one of them on
    # up onto its turret, in the move that takes them into contact; one MOVE walks Doyle from 23A
    # to the tank and up onto its turret
    far = {"serial": DOYLE, "seat": 0, "at": [12, 2], "facing": "e"}
    st = beside(cat, men=(), mover=DOYLE, more=[far])
    assert climb(DOYLE, "turret") in legal_commands(st, 0)
    st, events = apply(st, climb(DOYLE, "turret"))
    kinds = [e.kind for e in events]
    assert kinds.index("move") < kinds.index("contact_spotted") < kinds.index("climb")  # contact spots both
    assert "Doyle moves to 24A" in events[kinds.index("move")].text
    assert "climbs (Climb 2) onto the Test Panzer 902's turret" in events[kinds.index("climb")].text
    fought = [e for e in events if e.kind == "close_combat"]
    assert [(e.data["part"], e.data["attackers"]) for e in fought] == [("turret", [DOYLE])]


def test_from_the_hull_deck_the_turret_is_climb_1(cat):
    st = assault(cat, men=(CANDY,))
    at_work(st, US, card_of(st, US, owner=CANDY, action="move"), "move")
    assert attackers(st) == {"hull": [CANDY]}
    st, events = apply(st, climb(CANDY, "turret"))
    assert "climbs (Climb 1) onto the Test Panzer 902's turret" in next(e.text for e in events if e.kind == "climb")
    fought = [e for e in events if e.kind == "close_combat"]
    assert [(e.data["part"], e.data["attackers"]) for e in fought] == [("turret", [CANDY])]


def test_down_from_the_turret_onto_the_deck_needs_no_climb(cat):
    st = assault(cat, men=(CANDY,), turret=(CANDY,))
    at_work(st, US, card_of(st, US, owner=CANDY, action="move"), "move")
    assert close_combat.climb_on_problem(st, 0, CANDY, PANZER, "hull") is None
    st, events = apply(st, climb(CANDY, "hull"))
    assert "Candy climbs down onto the Test Panzer 902's deck" in next(e.text for e in events if e.kind == "climb")


def test_a_man_who_cannot_climb_that_high_is_refused_and_fights_no_hatch(cat):
    avery = {"serial": AVERY, "seat": 0, "at": [15, 4], "facing": "e"}  # Climb 1, beside the tank
    st = beside(cat, men=(), mover=AVERY, more=[avery])
    before = st.model_dump()
    with pytest.raises(RuleError, match=r"Avery has Climb 1; getting on the Test Panzer 902 there needs Climb 2"):
        apply(st, climb(AVERY))
    with pytest.raises(RuleError, match="Climb 2"):
        apply(st, climb(AVERY, "turret"))
    assert st.model_dump() == before
    assert not [c for c in legal_commands(st, 0) if isinstance(c, C.ClimbCmd)]
    assert attackers(st) == {}


def test_a_man_in_contact_but_not_on_the_deck_neither_fires_through_nor_fights_at_a_hatch(cat):
    st = assault(cat, men=(DOYLE,), deck=False)
    with pytest.raises(RuleError, match=r"Doyle is not up on the Test Panzer 902's deck: a man climbs there first "
                                        r"\(climb 90 902\) to fire or fight at its hull hatches"):
        apply(st, parse_command("assail 90 902 hull", seat=0))
    with pytest.raises(RuleError, match="not up on the Test Panzer 902's turret"):
        apply(st, parse_command("assail 90 902 turret grenade", seat=0))
    ctx = Ctx(st)
    fight.start_fights(ctx)
    assert not said(ctx, "close_combat") and not said(ctx, "hit_check")


def test_a_cabin_is_fought_from_the_ground(cat):
    # a US half-track on 24A, Cole in its cabin: Dorn beside it attacks the cabin's door without climbing
    st, _ = load_position(cat, {
        "scenario": "range", "players": [{"name": "Ann", "side": "US"}, {"name": "Bo", "side": "DE"}], "seed": 3,
        "soldiers": [{"serial": 1, "seat": 0, "crew_of": 903}, {"serial": 3, "seat": 0, "crew_of": 903},
                     {"serial": 4, "seat": 1, "at": [15, 2], "facing": "e"}],
        "vehicles": [{"plate": 903, "seat": 0, "tile": "24A", "facing": "e", "crew": {"driver": 1, "commander": 3}}],
        "hands": {0: [], 1: [], 903: []}})
    assert {p: [a.serial for a in m] for p, m in close_combat.assignments(st, 903).items()} == {"cabin": [4]}


def test_he_leaves_the_deck_when_he_moves_off_it(cat):
    st = assault(cat, men=(DOYLE,))
    move(Ctx(st), DOYLE, Dest(cell=(12, 2)))
    assert st.soldiers[DOYLE].on_deck is None
    st.changing(DOYLE).at = (15, 2)  # walking straight back into the tile is not climbing
    assert attackers(st) == {}


def test_the_tank_moving_throws_the_men_on_its_deck_off(cat):
    st = assault(cat, men=(DOYLE, CANDY), turret=(CANDY,))
    ctx = Ctx(st)
    vturn(ctx, PANZER, PANZER, "n")
    assert [e.data["serials"] for e in said(ctx, "thrown_off")] == [[DOYLE, CANDY]]
    assert all(st.soldiers[n].on_deck is None for n in (DOYLE, CANDY)) and attackers(st) == {}


def test_a_moving_tank_cannot_be_climbed(cat):
    st = beside(cat)
    st.changing_vehicle(PANZER).moved = 1
    with pytest.raises(RuleError, match="is moving"):
        apply(st, climb(DOYLE))
    st.changing_vehicle(PANZER).moved, st.changing_vehicle(PANZER).move_plus = 0, 2
    with pytest.raises(RuleError, match="is moving"):
        apply(st, climb(DOYLE))


def test_wounded_and_pinned_he_stays_up_and_fights_again_but_falls_when_killed(cat):
    # the book's example: Candy, wounded and pinned in the hull's fight, fights it again next phase
    st = assault(cat, men=(CANDY, DOYLE))
    st.changing(CANDY).wounded = st.changing(CANDY).pinned = True
    assert attackers(st) == {"hull": [DOYLE, CANDY]}
    ctx = Ctx(st)
    kill(ctx, DOYLE, by_force="DE-2-902", by_soldier=73, cause="shot")
    assert close_combat.deck_of(st, DOYLE) is None
    close_combat.tidy(st)
    assert st.soldiers[DOYLE].on_deck is None and st.soldiers[CANDY].on_deck == PANZER


def test_who_is_on_a_deck_is_public_and_a_position_keeps_it(cat):
    st = assault(cat, men=(DOYLE, AMES), turret=(AMES,))
    public = {s.serial: (s.on_deck, s.on_turret) for s in view(st).soldiers}
    assert public[DOYLE] == (PANZER, False) and public[AMES] == (PANZER, True)
    rows = {r["serial"]: r for r in dump_position(st)["soldiers"]}
    assert (rows[DOYLE]["on_deck"], rows[AMES]["on_turret"]) == (PANZER, True)
    again, _ = load_position(cat, dump_position(st))
    assert (again.soldiers[AMES].on_deck, again.soldiers[AMES].on_turret) == (PANZER, True)


def test_the_script_reads_climb(cat):
    cmd = parse_command("tag climb 90 902 turret", seat=0)
    assert cmd == C.ClimbCmd(seat=0, serial=90, plate=902, part="turret", via="tag")
    assert " ".join(cmd.words()) == "tag climb 90 902 turret"
    assert parse_command("climb 90 902", seat=0).part == "hull"
    with pytest.raises(RuleError, match=r"usage: \[via\] climb S PLATE \[turret\]"):
        parse_command("climb 90 902 roof", seat=0)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=hs.integers(0, 10_000))
def test_autoplay_from_the_ground_keeps_every_man_on_a_deck_where_he_can_be(cat, seed):
    """Random play from beside the tank: whoever is on a deck stands free in that enemy vehicle's
    tile, and every hull or turret attacker in a close combat is up there."""
    st = assault(cat, deck=False)
    agent = RandomAgent(seed)
    for _ in range(300):
        if st.step == "over":
            break
        seat = agent.seat_to_act(st)
        st, _ = apply(st, agent.choose(st, seat))
        for s in st.soldiers.values():
            where = close_combat.deck_of(st, s.serial)
            if where is not None:
                v = st.vehicles[s.on_deck]
                assert v.side != s.side and st.board.tile_at(s.at) == v.tile
        for part, men in close_combat.assignments(st, PANZER).items():
            assert part == "cabin" or all(close_combat.deck_of(st, a.serial) == part for a in men)
