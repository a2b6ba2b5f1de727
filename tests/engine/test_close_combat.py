"""Close combat against vehicles (Hell on Wheels, Combat Contact; Close Combat; Prisoners) and the
optional rules Shooting in Combat Contact, Fight and Buttoned-Up and Trained Snipers
(engine/battlefield/close_combat.py; rulings in docs/battlefield.md, "Close combat against vehicles").

The fixture paratroopers (tests/fixtures/rules/assets/soldiers/paratroopers.yaml) are Doyle (90,
Thompson), Ames (91) and Master Sergeant Candy (92, Fight 5); the Test Panzer (902) has the
Panzer IV H's armour: lowest hull 2, lowest turret 3. Decks are stacked card by card as
tests/engine/test_vehicle_damage.py does.
"""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from engine import apply
from engine.agent import RandomAgent
from engine.battlefield import close_combat
from engine.core.board import DIRS
from engine.core.commands import AssailCmd, parse_command
from engine.core.content import ScenarioOptions
from engine.core.errors import RuleError
from engine.core.log import Ctx
from engine.infantry.contact import fight_groups, groups_of, touching
from engine.legal import legal_commands
from engine.position import load_position
from engine.turn import fight
from engine.view import view
from tests.engine.conftest import two_players

PANZER, SHERMAN = 902, 901
PANZER_CREW = {"commander": 70, "gunner": 71, "loader": 72, "driver": 73, "co_driver": 74}
US, TANK = "US-1", "DE-2-902"
DOYLE, AMES, CANDY = 90, 91, 92
# the ring of cells around the Panzer's middle in 24A (docs/vehicles.md V1)
FAR = [{"serial": DOYLE, "seat": 0, "at": [2, 2]}, {"serial": AMES, "seat": 0, "at": [2, 4]}]  # out of it
RING = [(15, 2), (19, 2), (17, 0), (17, 4), (15, 0), (19, 4)]


def assault(cat, men=(DOYLE, AMES, CANDY), *, unbuttoned=("driver", "commander"), options=None, more=(),
            vehicles=None, turret=(), deck=True):
    """The Panzer IV on 24A of the range lane, its crew at their posts, paratroopers around it and
    up on it (SMG: a man fights the hull from its deck): on its turret those named in `turret`;
    with `deck` False they stand on the ground beside it."""
    soldiers = [{"serial": n, "seat": 0, "at": list(RING[i]), "facing": "e",
                 **({"on_deck": PANZER, "on_turret": n in turret} if deck else {})} for i, n in enumerate(men)]
    soldiers += [{"serial": 4, "seat": 1, "at": [37, 2], "facing": "w"}, *more]
    soldiers += [{"serial": n, "seat": 1, "crew_of": PANZER} for n in PANZER_CREW.values()]
    st, _ = load_position(cat, {
        "scenario": "range", "players": two_players(), "seed": 3, "soldiers": soldiers,
        "vehicles": vehicles or [{"plate": PANZER, "seat": 1, "tile": "24A", "facing": "e", "crew": PANZER_CREW,
                                  "unbuttoned": list(unbuttoned), "spotted": True}],
        "hands": {0: [], 1: [], PANZER: []}})
    if options:
        scenario = st.setup.scenario.model_copy(update={"options": ScenarioOptions(**options)})
        st.setup = st.setup.model_copy(update={"scenario": scenario})
    return st


def stack(st, fid, *top):
    """These cards of the force on top of its deck, in this order (taken from deck, hand or discard)."""
    f = st.changing_force(fid)
    for c in top:
        for pile in (f.deck, f.hand, f.discard):
            if c in pile:
                pile.remove(c)
                break
        else:
            raise AssertionError(f"{c} is not a card of {fid}")
    f.deck[:0] = list(top)


def hand(st, fid, *cards):
    f = st.changing_force(fid)
    for c in cards:
        for pile in (f.deck, f.discard):
            if c in pile:
                pile.remove(c)
        f.hand.append(c)


def said(ctx, kind):
    return [e for e in ctx.events if e.kind == kind]


def run(st, line, seat=0):
    st, _ = apply(st, parse_command(line, seat=seat))
    return st


# --------------------------------------------------------------------------- the book's example


def test_the_close_combat_example(cat):
    st = assault(cat, turret=(AMES,))
    # Ames has climbed onto the hull and on up onto the turret, to the commander's open hatch, and
    # will drop a grenade in; Doyle and Candy, on the hull deck, take the driver's open hull hatch
    # (the default: the open hatch, hull first)
    st = run(st, "assail 91 902 turret grenade")
    assert {p: [a.serial for a in m] for p, m in close_combat.assignments(st, PANZER).items()} == \
        {"hull": [DOYLE, CANDY], "turret": [AMES]}
    hand(st, US, "91-C4", "92-C4", "90-P2", "91-P2", "92-P2")  # 5 cards in the paratroopers' hand
    hand(st, TANK, "902-V1", "902-V2", "902-V3", "902-T1")  # 4 in the Panzer's
    stack(st, US,
          "90-C1", "92-C2",  # hull shots: Doyle's Thompson 4 hits, Candy's M1 2 hits
          "90-P1", "91-P1",  # Doyle's damage checks: Wound, Wound
          "92-C1", "90-C2", "90-C3", "91-C3", "90-C4",  # Candy's five fight cards: Kill, Wound, Pin, Pin, Zip
          "91-C1",  # turret: Ames's grenade, Blast 3 Hits
          "91-C2", "92-P1", "92-C3",  # the grenade's first hit on each man off the thrower's deck
          "91-P3")  # the commander's hit on Ames: a Pin
    stack(st, TANK,
          "73-P3", "74-P1",  # the driver misses, the assistant driver scores 2 hits
          "73-C4", "902-V10",  # the driver's damage checks: a Wound, then a gear result (no effect on crew)
          "74-C4", "73-C3", "74-C3", "902-V9",  # the crew's four fight cards: Wound, Pin, Pin, Wreck
          "70-C2", "72-P3",  # turret: the commander scores one hit, the loader misses
          "70-C1", "72-C1", "71-C1")  # the grenade's second hit on each man off his own deck: Kills
    ctx = Ctx(st)
    assert fight.start_fights(ctx)
    # the shoot step at the hull: protection 2 (the hull's lowest armour) makes 4 hits 2 and 2 hits 0
    assert [(e.data["hits"], e.data["protection"]) for e in said(ctx, "protection")] == [(2, 2), (0, 2)]
    assert st.soldiers[73].wounded and st.soldiers[73].status == "aboard"
    assert st.soldiers[DOYLE].status == "dead"
    candy = st.soldiers[CANDY]
    assert not candy.wounded and not candy.pinned
    # combat initiative: 5 in hand + 5 fight cards = 10 against 4 + 2 + 2 = 8
    assert [(e.data["force"], e.data["value"]) for e in said(ctx, "cc_initiative")] == [(US, 10), (TANK, 8)]
    assert (st.fight.plate, st.fight.part, st.fight.order) == (PANZER, "hull", [US, TANK])
    plays = [(US, "92-C1", 73), (TANK, "74-C4", CANDY), (US, "90-C2", 74), (TANK, "73-C3", CANDY),
             (US, "90-C3", 74), (TANK, "74-C3", CANDY), (US, "91-C3", 74), (TANK, "902-V9", CANDY),
             (US, "90-C4", 74)]
    for force, card, target in plays:
        assert fight.whose_turn(st) == force
        fight.play(ctx, force, card, target)
    assert fight.whose_turn(st) is None
    assert candy.wounded and candy.pinned and st.soldiers[74].wounded and st.soldiers[74].pinned
    fight.end_fight(ctx)
    # the hull stays contested; the turret is next: Blast 3 doubled to 6 hits, two on each of the
    # three men, and the crew's answer lands at the same time
    assert said(ctx, "locked") and said(ctx, "cc_grenade")[0].data["hits"] == 6
    assert all(st.soldiers[n].status == "dead" for n in (70, 71, 72))
    assert st.soldiers[AMES].pinned and st.soldiers[AMES].grenades == 1
    assert st.fight is None  # nothing else to fight this phase
    # the driver, beaten, waits on Candy's decision; the hull will be fought again next phase
    assert st.pending_queue[0].kind == "capture" and st.pending_queue[0].victim == 73
    assert close_combat.due(st) == [(PANZER, "hull")]
    fight.refuse_capture(ctx, st.pending_queue.pop(0))
    assert st.soldiers[73].status == "dead" and "driver" not in st.vehicles[PANZER].crew
    assert close_combat.crew(st, PANZER, "hull") == [74]


def test_combat_initiative_is_cards_in_hand_plus_fight_cards(cat):
    # three action cards in hand, Candy's Fight 5 at the open hatch: 3 + 5 = 8
    st = assault(cat, men=(CANDY,), unbuttoned=("driver",), more=FAR)
    hand(st, US, "92-C4", "92-C2", "92-P3")
    stack(st, US, "92-P2")  # his shot: all misses
    stack(st, TANK, "73-P3", "74-P3")  # both crewmen miss
    ctx = Ctx(st)
    fight.start_fights(ctx)
    values = {e.data["force"]: (e.data["hand"], e.data["n"], e.data["value"]) for e in said(ctx, "cc_initiative")}
    assert values[US] == (3, 5, 8)
    assert values[TANK] == (0, 4, 4)


def test_a_tie_goes_to_the_side_with_the_highest_vp_man(cat):
    st = assault(cat)
    # Doyle (4 VP) against two crewmen of 4 VP: the lowest dog tag decides, the driver's 73
    assert close_combat.initiative_order(st, {US: 6, TANK: 6}, [DOYLE, 73, 74]) == [TANK, US]
    # Master Sergeant Candy's 10 VP win the tie
    assert close_combat.initiative_order(st, {US: 6, TANK: 6}, [CANDY, 73, 74]) == [US, TANK]
    assert close_combat.initiative_order(st, {US: 5, TANK: 6}, [CANDY, 73, 74]) == [TANK, US]


def test_against_a_buttoned_hatch_the_fight_cards_are_halved(cat):
    # every hatch shut: Candy's Fight 5 against the buttoned turret becomes 2; nobody may shoot
    st = assault(cat, men=(CANDY,), unbuttoned=(), turret=(CANDY,))
    st = run(st, "assail 92 902 turret")
    ctx = Ctx(st)
    fight.start_fights(ctx)
    assert not said(ctx, "hit_check")
    assert st.fight.part == "turret"
    values = {e.data["force"]: e.data["n"] for e in said(ctx, "cc_initiative")}
    assert values == {US: 2, TANK: 6}  # three turret crewmen (two per hatch, two hatches) draw in full
    assert len(st.forces[US].fight_pool) == 2


def test_the_book_s_two_soldiers_at_a_buttoned_turret(cat):
    st = assault(cat, men=(DOYLE, AMES), unbuttoned=(), turret=(DOYLE, AMES))
    st = run(st, "assail 90 902 turret")
    st = run(st, "assail 91 902 turret")
    men = close_combat.assignments(st, PANZER)["turret"]
    assert [a.opening.open for a in men] == [False, False]
    st.changing(AMES).pinned = True  # 2 + 1 = 3 ... halved to 1
    assert close_combat.fight_cards(st, PANZER, "turret", US, men, []) == 1
    st.changing(AMES).pinned = False
    st.changing(DOYLE).wounded = False
    assert close_combat.fight_cards(st, PANZER, "turret", US, men, []) == 2  # 2 + 2 = 4, halved


def test_two_soldiers_a_side_per_hatch(cat):
    more = [{"serial": 1, "seat": 0, "at": [17, 4], "facing": "n", "on_deck": PANZER},
            {"serial": 2, "seat": 0, "at": [15, 0], "on_deck": PANZER}]
    st = assault(cat, men=(DOYLE, AMES, CANDY), unbuttoned=("driver",), more=more)
    # by default: the open hatch first (two men), then the shut ones; all five are on the hull deck,
    # so the fifth finds no room (the turret is fought only from on top of it)
    got = {p: [(a.serial, a.opening.key) for a in m] for p, m in close_combat.assignments(st, PANZER).items()}
    assert got == {"hull": [(1, "driver"), (2, "driver"), (DOYLE, "co_driver"), (AMES, "co_driver")]}
    # the hull has two hatches: room for four; a fifth is refused
    for n in (1, 2, DOYLE, AMES):
        st = run(st, f"assail {n} 902 hull")
    with pytest.raises(RuleError, match="room for 4"):
        run(st, "assail 92 902 hull")
    # only the two men at the open hatch shoot, and only two crewmen answer through it
    stack(st, US, "1-C3", "2-C3")
    stack(st, TANK, "73-P3", "74-P3")
    ctx = Ctx(st)
    fight.start_fights(ctx)
    shooters = [e.data["serial"] for e in said(ctx, "hit_check")]
    assert shooters == [1, 2, 73, 74]


def test_the_crew_shooting_through_one_hatch_are_two_at_most(cat):
    st = assault(cat, men=(AMES,), unbuttoned=("commander",), turret=(AMES,))
    st = run(st, "assail 91 902 turret")
    stack(st, US, "91-C3")
    stack(st, TANK, "70-P3", "72-P3", "71-P3")
    ctx = Ctx(st)
    fight.start_fights(ctx)
    assert [e.data["serial"] for e in said(ctx, "hit_check")] == [AMES, 70, 72]  # the gunner waits


def test_opposing_vehicles_never_fight_each_other(cat):
    sherman = {"commander": 60, "gunner": 61, "loader": 62, "driver": 63, "co_driver": 64}
    vehicles = [{"plate": PANZER, "seat": 1, "tile": "24A", "facing": "e", "crew": PANZER_CREW},
                {"plate": SHERMAN, "seat": 0, "tile": "24A", "facing": "w", "crew": sherman}]
    more = [{"serial": n, "seat": 0, "crew_of": SHERMAN} for n in sherman.values()]
    st = assault(cat, men=(), more=[{"serial": 1, "seat": 0, "at": [2, 2]}, *more], vehicles=vehicles)
    assert close_combat.due(st) == []
    assert not fight.start_fights(Ctx(st))
    with pytest.raises(RuleError):
        run(st, "assail 60 902 hull")


def test_assail_is_refused_outside_the_tile_and_for_an_empty_compartment(cat):
    st = assault(cat, men=(DOYLE,), more=[{"serial": 1, "seat": 0, "at": [7, 2]}])
    with pytest.raises(RuleError, match="not in"):
        run(st, "assail 1 902 hull")
    with pytest.raises(RuleError, match="nobody is inside"):
        run(st, "assail 90 902 cabin")
    st.changing(DOYLE).grenades = 0
    with pytest.raises(RuleError, match="no grenades"):
        run(st, "assail 90 902 hull grenade")
    with pytest.raises(RuleError, match="not one of your"):
        run(st, "assail 90 902 hull", seat=1)


# --------------------------------------------------------------------------- prisoners (V40)


def test_a_crewman_taken_in_close_combat_never_goes_back_to_his_side(cat):
    st = assault(cat, men=(CANDY,), unbuttoned=("driver",),
                 more=[{"serial": 5, "seat": 1, "at": [22, 2], "facing": "w"}])
    stack(st, US, "92-C3", "92-C1", "92-C4", "92-P2", "92-P3", "92-C2")  # a miss, then Kill, Zip, Zip, Pin, Wound
    stack(st, TANK, "73-C4", "74-C4", "73-P2", "74-P2", "73-P3", "74-P3")  # two misses, then four Zips
    ctx = Ctx(st)
    fight.start_fights(ctx)
    assert st.fight.order[0] == US
    fight.play(ctx, US, "92-C1", 73)
    while (turn := fight.whose_turn(st)) is not None:
        fight.play(ctx, turn, st.forces[turn].fight_pool[0], fight.targets(st, turn)[0])
    fight.end_fight(ctx)
    pending = st.pending_queue.pop(0)
    assert (pending.victim, pending.escorts) == (73, [CANDY])
    fight.capture(ctx, pending, CANDY)
    driver = st.soldiers[73]
    assert (driver.status, driver.captor, driver.vehicle) == ("board", CANDY, None)
    assert "driver" not in st.vehicles[PANZER].crew and driver.at is not None
    # Engel reaches Candy: an ordinary prisoner would be free; a crewman leaves the game instead
    candy = st.soldiers[CANDY]
    st.changing(5).at = (candy.at[0] + 1, candy.at[1])
    st.changing(5).facing = "w"
    fight.liberate(ctx)
    assert driver.status == "removed" and driver.captor is None
    assert not [e for e in st.vp if e.serial == 73]


def test_a_close_combat_the_shooting_ends_has_no_fight(cat):
    # Candy alone at the hull's open hatch: his shot misses, the assistant driver's two hits kill
    # him, so nobody is left to fight for the compartment: no fight cards, no initiative
    st = run(assault(cat, men=(CANDY,)), "assail 92 902 hull")
    stack(st, US, "92-P2",  # Candy's shot: Close Miss
          "92-C1")  # his damage check: Kill
    stack(st, TANK, "73-P3", "74-P1")  # the driver misses, the assistant driver scores 2 hits
    ctx = Ctx(st)
    assert fight.start_fights(ctx)
    assert [e.data["hits"] for e in said(ctx, "hit_check")] == [0, 0, 2]
    assert st.soldiers[CANDY].status == "dead"
    assert [(e.data["plate"], e.data["part"]) for e in said(ctx, "cc_over")] == [(PANZER, "hull")]
    assert not said(ctx, "cc_initiative") and st.fight is None
    assert close_combat.crew(st, PANZER, "hull") == [73, 74] and close_combat.due(st) == []


# --------------------------------------------------------------------------- the optional rules


def test_shooting_in_combat_contact_fires_before_the_fight(cat, position):
    men = [{"serial": 1, "seat": 0, "at": [10, 2], "facing": "e"}, {"serial": 4, "seat": 1, "at": [11, 2],
                                                                    "facing": "w"}]
    for opts, shots in ((None, 0), ({"shooting_in_contact": True}, 2)):
        st = position(soldiers=men, hands={0: [], 1: []})
        if opts:
            scenario = st.setup.scenario.model_copy(update={"options": ScenarioOptions(**opts)})
            st.setup = st.setup.model_copy(update={"scenario": scenario})
        stack(st, "US-1", "1-C3")  # Avery: a miss
        stack(st, "DE-2", "4-C3")
        ctx = Ctx(st)
        assert fight.start_fights(ctx)
        assert len(said(ctx, "hit_check")) == shots
        assert st.fight.members == [1, 4]


def test_fight_buttoned_up_lets_a_shut_crew_shoot_first(cat):
    # without the option nobody shoots at a buttoned-up tank; with it the crew fire first
    st = assault(cat, men=(CANDY,), unbuttoned=())
    ctx = Ctx(st)
    fight.start_fights(ctx)
    assert not said(ctx, "hit_check")
    st = assault(cat, men=(CANDY,), unbuttoned=(), options={"fight_buttoned_up": True})
    stack(st, TANK, "73-C1", "74-P3")  # the driver scores 2 hits, the assistant misses
    stack(st, US, "92-C2", "92-C3")  # Candy's damage checks: Wound, Pin
    ctx = Ctx(st)
    fight.start_fights(ctx)
    assert [e.data["serial"] for e in said(ctx, "hit_check")] == [73, 74]
    assert said(ctx, "cc_buttoned") and st.soldiers[CANDY].wounded and st.soldiers[CANDY].pinned


def test_trained_snipers_halve_the_crew_protection(cat):
    pike = {"serial": 40, "seat": 0, "at": [19, 2], "facing": "w", "equipment": ["sniper-scope"]}
    st = assault(cat, men=(), more=[pike])
    assert close_combat.crew_protection_against(st, PANZER, "turret", 40) == 3
    st = assault(cat, men=(), more=[pike], options={"trained_snipers": True})
    assert close_combat.crew_protection_against(st, PANZER, "turret", 40) == 1  # 3 halved, rounded down
    assert close_combat.crew_protection_against(st, PANZER, "hull", 40) == 1
    st.changing(40).equipment = []
    assert close_combat.crew_protection_against(st, PANZER, "turret", 40) == 3  # no scope, no halving
    assert close_combat.sniper_protection(st, 1, 3) == 3  # not a sniper


def test_a_trained_sniper_firing_at_an_exposed_commander_halves_his_protection(cat):
    from engine.vehicles.shoot import _hits_on_man
    pike = {"serial": 40, "seat": 0, "at": [2, 2], "facing": "e", "equipment": ["sniper-scope"]}
    st = assault(cat, men=(), more=[pike], options={"trained_snipers": True})
    stack(st, TANK, "70-C1")  # the one hit left: a Kill
    ctx = Ctx(st)
    _hits_on_man(ctx, 70, 2, by_force=US, by_soldier=40, cause="shot")  # 2 hits less 3 // 2 = 1
    assert st.soldiers[70].status == "dead"


# --------------------------------------------------------------------------- view, legal commands, play


def test_the_view_shows_the_close_combats_due(cat):
    st = assault(cat, turret=(AMES,))
    st = run(st, "assail 91 902 turret grenade")
    got = [(c.plate, c.part, c.attackers, c.crew, c.step) for c in view(st).close_combats]
    assert got == [(PANZER, "hull", [DOYLE, CANDY], [73, 74], "due"),
                   (PANZER, "turret", [AMES], [70, 72, 71], "due")]


def test_assail_is_listed_while_the_seat_acts_and_everything_listed_is_accepted(cat):
    st = assault(cat)
    agent = RandomAgent(7)
    seen = False
    for _ in range(400):
        if st.step == "over":
            break
        seat = agent.seat_to_act(st)
        cmds = legal_commands(st, seat)
        assails = [c for c in cmds if isinstance(c, AssailCmd)]
        for c in assails:
            apply(st, c)  # accepted
        seen = seen or bool(assails)
        st, _ = apply(st, agent.choose(st, seat))
    assert seen


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=hs.integers(0, 10_000))
def test_autoplay_around_a_tank_never_breaks(cat, seed):
    st = assault(cat)
    agent = RandomAgent(seed)
    fought = False
    for _ in range(600):
        if st.step == "over":
            break
        seat = agent.seat_to_act(st)
        st, events = apply(st, agent.choose(st, seat))
        fought = fought or any(e.kind == "close_combat" for e in events)
        for s in st.soldiers.values():  # nobody is both aboard and on the board, no prisoner aboard
            assert not (s.status == "aboard" and s.captor is not None)
        for v in st.vehicles.values():
            assert all(st.soldiers[n].status == "aboard" and st.soldiers[n].vehicle == v.plate
                       for n in v.crew.values())
    assert fought


def test_the_grenade_plan_is_told_only_to_its_player(cat):
    st = assault(cat, turret=(AMES,))
    st, events = apply(st, parse_command("assail 91 902 turret grenade", seat=0))
    public = [e for e in events if e.public]
    assert public and not any("grenade" in e.text for e in public)
    assert [e.to for e in events if "grenade" in e.text] == [0]


def test_a_half_track_is_assailed_through_its_cabin_door_and_a_shut_port(cat):
    # a US half-track on 24A: Avery drives, Cole rides in the cabin; Dorn is up on its deck, Engel
    # stands beside it: the cabin is fought from the ground, the hull only from the deck (SMG only)
    st, _ = load_position(cat, {
        "scenario": "range", "players": two_players(), "seed": 3,
        "soldiers": [{"serial": 1, "seat": 0, "crew_of": 903}, {"serial": 3, "seat": 0, "crew_of": 903},
                     {"serial": 2, "seat": 0, "at": [2, 2]},
                     {"serial": 4, "seat": 1, "at": [15, 2], "facing": "e", "on_deck": 903},
                     {"serial": 5, "seat": 1, "at": [19, 2], "facing": "w"}],
        "vehicles": [{"plate": 903, "seat": 0, "tile": "24A", "facing": "e", "crew": {"driver": 1, "commander": 3}}],
        "hands": {0: [], 1: [], 903: []}})
    assert close_combat.openings(st, 903, "hull") == [close_combat.Opening("port", False)]
    assert close_combat.openings(st, 903, "cabin") == [close_combat.Opening("door", False)]
    got = {p: [(a.serial, a.opening.key) for a in m] for p, m in close_combat.assignments(st, 903).items()}
    assert got == {"hull": [(4, "port")], "cabin": [(5, "door")]}
    with pytest.raises(RuleError, match="not up on the"):
        run(st, "assail 5 903 hull", seat=1)
    ctx = Ctx(st)
    fight.start_fights(ctx)
    assert not said(ctx, "hit_check")  # nothing open: nobody shoots
    assert (st.fight.part, {e.data["force"]: e.data["n"] for e in said(ctx, "cc_initiative")}) == \
        ("hull", {"DE-2": 1, "US-1-903": 2})  # Dorn's Fight 2 halved at the shut port


def test_a_contested_compartment_fights_again_at_the_end_of_the_next_phase(cat):
    # played through the sequence: the hull's close combat leaves both sides standing, and the next
    # phase's end fights it again (a seed whose men stay up on the deck: a man who steps off it
    # no longer fights the hull)
    st = assault(cat)
    agent = RandomAgent(1)
    when, fights_at, locked_at = (0, 0), [], []
    for _ in range(800):
        if st.step == "over" or any(w2 > w for w in locked_at for w2, p in fights_at if p == "hull"):
            break
        seat = agent.seat_to_act(st)
        st, events = apply(st, agent.choose(st, seat))
        for e in events:
            if e.kind == "turn":
                when = (e.data["turn"], 0)
            elif e.kind == "phase":
                when = (when[0], e.data["phase"])
            elif e.kind == "close_combat":
                fights_at.append((when, e.data["part"]))
            elif e.kind == "locked" and e.data.get("part") == "hull":
                locked_at.append(when)
    hull = sorted({w for w, p in fights_at if p == "hull"})
    assert any(later > w for w in locked_at for later in hull), (hull, locked_at)


def test_a_choice_lapses_when_the_man_leaves_the_tile(cat):
    st = assault(cat, men=(DOYLE, CANDY), turret=(CANDY,))
    st = run(st, "assail 92 902 turret")
    st.changing(CANDY).at = (7, 2)  # he has gone back to 22A
    st = run(st, "assail 90 902 hull")
    assert set(st.assaults) == {DOYLE}


def test_stepping_into_an_enemy_vehicles_tile_spots_both_at_once(cat):
    """Combat Contact: soldiers moving into contact with an enemy vehicle are spotted at once (and
    the vehicle with them), not only when the close combat starts at the phase's end."""
    from engine.infantry.move import Dest, move
    st = assault(cat, men=(), more=[{"serial": DOYLE, "seat": 0, "at": [12, 2], "facing": "e"}],
                 vehicles=[{"plate": PANZER, "seat": 1, "tile": "24A", "facing": "e", "crew": PANZER_CREW}])
    assert not st.soldiers[DOYLE].spotted and not st.vehicles[PANZER].spotted
    ctx = Ctx(st)
    move(ctx, DOYLE, Dest(cell=(15, 2)))
    assert st.board.tile_at(st.soldiers[DOYLE].at) == "24A"
    assert st.soldiers[DOYLE].spotted and st.vehicles[PANZER].spotted
    assert [e.data["serials"] for e in said(ctx, "contact_spotted")] == [[DOYLE]]


def test_a_vehicle_ending_its_move_among_enemy_men_spots_them_and_itself(cat):
    st = assault(cat, men=(DOYLE, AMES), vehicles=[{"plate": PANZER, "seat": 1, "tile": "24A", "facing": "e",
                                                    "crew": PANZER_CREW}])
    for n in (DOYLE, AMES):
        st.changing(n).spotted = False
    ctx = Ctx(st)
    close_combat.spot_on_contact(ctx, plate=PANZER)
    assert st.vehicles[PANZER].spotted and st.soldiers[DOYLE].spotted and st.soldiers[AMES].spotted
    # an empty tank (nobody inside) is no combat contact
    st2 = assault(cat, men=(DOYLE,), vehicles=[{"plate": PANZER, "seat": 1, "tile": "24A", "facing": "e"}])
    st2.changing(DOYLE).spotted = False
    ctx2 = Ctx(st2)
    close_combat.spot_on_contact(ctx2, plate=PANZER)
    assert not st2.soldiers[DOYLE].spotted and said(ctx2, "contact_spotted") == []


def _fight_groups_pairwise(st) -> list[list[int]]:
    """fight_groups' rule asked of every pair of free men (what it asked before it looked only
    at each man's neighbouring cells)."""
    free = [s for s in st.soldiers.values() if s.free]
    links: dict[int, set[int]] = {s.serial: set() for s in free}
    for i, a in enumerate(free):
        for b in free[i + 1:]:
            if a.side != b.side and touching(a, b):
                links[a.serial].add(b.serial)
                links[b.serial].add(a.serial)
    return groups_of(links)


_MEN = (1, 2, 3, 4, 5, 6)
_spots = hs.tuples(hs.integers(8, 12), hs.integers(1, 5), hs.sampled_from(DIRS),
                   hs.sampled_from(["board", "board", "board", "dead", "waiting"]))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(spots=hs.lists(_spots, min_size=len(_MEN), max_size=len(_MEN)))
def test_the_fight_groups_found_around_each_man_are_those_of_every_pair(cat, spots):
    st = load_position(cat, {"scenario": "range", "seed": 1,
                             "players": [{"name": "Ann", "side": "US"}, {"name": "Bo", "side": "DE"}],
                             "soldiers": [{"serial": m, "seat": 0 if m < 4 else 1, "at": [m, 2]} for m in _MEN]})[0]
    for m, (x, y, facing, status) in zip(_MEN, spots):
        s = st.changing(m)
        s.at, s.facing, s.status = ((x, y) if status == "board" else None), facing, status
    assert fight_groups(st) == _fight_groups_pairwise(st)
