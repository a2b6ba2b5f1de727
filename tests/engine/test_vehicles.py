"""Vehicles on the map (Hell on Wheels: LOOK, HIDE, MOVE, SHOOT, License Plate, Crew): the book's
worked examples, read like the book (position, stacked deck, action, outcome), then the rules one
at a time. Damage once a shot lands is tests/engine/test_vehicle_damage.py.

The 'motor' fixture map (tests/fixtures/rules/campaigns/scenarios/motor.yaml):
    41A gate   42A lane  43A lane  44A lane        (a road runs west-east through 42A-44A)
    45A thicket (LOOK -2, SHOOT -1, HIDE -3, MOVE -1)  46A marsh (LOOK -1, MOVE -3)
    47A high knoll (Climb 4)  48A paddock
    53A hay field  50A stubble  51A low rise (Climb 2)  52A pasture
    54A open  49A farmhouse (a building in its middle)  55A yard  56A back lane
"""
from __future__ import annotations

import pytest

from engine.apply import apply
from engine.core import commands as C
from engine.core import line_of_sight as LOS
from engine.core.board import board_for
from engine.core.content import Action, Damage, ForceEntry, VehicleEntry
from engine.core.errors import RuleError
from engine.core.log import Ctx
from engine.core.vehicle_content import Aspect
from engine.core.vehicle_geometry import (
    aspect,
    centre_point,
    strictly_in_arc,
    tile_in_arc,
)
from engine.turn import cards
from engine.turn.setup import SeatSpec, new_game
from engine.vehicles import hide as VH
from engine.vehicles import look as VL
from engine.vehicles import move as VM
from engine.vehicles import shoot as VS

SHERMAN, PANZER, HALFTRACK = 901, 902, 903
SHERMAN_CREW = {"commander": 60, "gunner": 61, "loader": 62, "driver": 63, "co_driver": 64}
PANZER_CREW = {"commander": 70, "gunner": 71, "loader": 72, "driver": 73, "co_driver": 74}


def motor(cat, us=(), de=(), us_men=(1,), de_men=(4,), seed=1):
    seats = [SeatSpec(name="Ann", side="US", force=[ForceEntry(serial=s) for s in us_men], vehicles=list(us)),
             SeatSpec(name="Bo", side="DE", force=[ForceEntry(serial=s) for s in de_men], vehicles=list(de))]
    st, _ = new_game(cat, "motor", seats, seed)
    return st


def sherman(tile="41A", facing="e", **kw):
    kw.setdefault("ammo", {"AP": 2, "HE": 1})
    return VehicleEntry(vehicle="test-sherman", crew=SHERMAN_CREW, tile=tile, facing=facing, **kw)


def panzer(tile="44A", facing="w", **kw):
    return VehicleEntry(vehicle="test-panzer", crew=PANZER_CREW, tile=tile, facing=facing, **kw)


def halftrack(tile, facing="n", **kw):
    return VehicleEntry(vehicle="test-halftrack", tile=tile, facing=facing, **kw)


def stack(st, fid, *top):
    f = st.forces[fid]
    for c in top:
        for pile in (f.deck, f.hand, f.discard):
            if c in pile:
                pile.remove(c)
                break
        else:
            raise AssertionError(f"{c} is not a card of {fid}")
    f.deck[:0] = list(top)


def cards_with(st, fid, result: Damage) -> list[str]:
    f = st.forces[fid]
    return sorted(c for c in f.deck + f.hand + f.discard if st.card(c).damage == result)


def fid_of(st, plate):
    return st.vehicles[plate].force


def at_work(st, fid, cid, action):
    """Put a card in play for a force, as the play sequence does in a phase (its slot)."""
    f = st.changing_force(fid)
    for pile in (f.deck, f.hand, f.discard):
        if cid in pile:
            pile.remove(cid)
    f.placed = [cid, None, None]
    f.revealed = [True, False, False]
    for other in st.forces:
        st.changing_force(other).planned = True
    st.phase, st.step, st.pending = 1, "slot", None
    ctx = Ctx(st)
    cards.start(ctx, fid, 1, Action(action))
    return st


def card_of(st, fid, *, owner, action, team=None, narrator=None):
    """A card of the force with this owner and action (and team entry words, if given)."""
    f = st.forces[fid]
    for c in sorted(f.deck + f.hand + f.discard):
        d = st.card(c)
        if d.owner != owner or Action(action) not in d.actions:
            continue
        if team is not None and [(e.count, e.who, e.do.value) for e in d.team] != team:
            continue
        return c
    raise AssertionError(f"no {action} card of {owner} with team {team}")


# =========================================================================== LOOK


def test_line_of_sight_by_climb_values_the_three_tank_examples(cat):
    # 1. Tank A (Climb 3) tries to spot C past tank B (Climb 3), all on flat ground: clear.
    st = motor(cat, us=[sherman("41A"), halftrack("43A")], de=[panzer("42A")])
    assert LOS.vehicle_climb(st, SHERMAN) == 3 and LOS.vehicle_climb(st, PANZER) == 3
    assert LOS.los_blocker(st, SHERMAN, HALFTRACK) is None
    # 2. A half-track (Climb 2) on a Climb 2 rise in between: 4, only one more than A's 3: clear.
    st = motor(cat, us=[sherman("50A"), halftrack("51A")], de=[panzer("52A")])
    assert LOS.vehicle_climb(st, HALFTRACK) == 4
    assert LOS.los_blocker(st, SHERMAN, PANZER) is None
    # 3. Tank C on a Climb 4 knoll in between: 3 + 4 = 7, four more than A: blocked.
    st = motor(cat, us=[sherman("46A"), halftrack("48A")], de=[panzer("47A")])
    assert LOS.vehicle_climb(st, PANZER) == 7
    assert LOS.los_blocker(st, SHERMAN, HALFTRACK) == "the Test Panzer 902"


def test_a_building_always_blocks_a_vehicle_line_of_sight(cat):
    st = motor(cat, us=[sherman("54A")], de=[panzer("55A")])
    assert LOS.los_blocker(st, SHERMAN, PANZER) == "a building in 49A"
    st.changing_vehicle(PANZER).tile = "50A"  # past the house's corner, not through its walls
    assert LOS.los_blocker(st, SHERMAN, PANZER) is None
    assert VM.entry_problem(st, "49A") and not VM.entry_problem(st, "55A")


def test_buttoned_crew_add_the_vehicle_sight_modifier_13_minus_6_is_7(cat):
    st = motor(cat, us=[sherman()], de=[panzer()])
    driver = SHERMAN_CREW["driver"]
    assert st.stats(driver).sight == 13 and st.vehicle_def(SHERMAN).sight == -6
    assert VL.crew_sight(st, driver) == 7  # buttoned: 13 - 6
    st.changing_vehicle(SHERMAN).unbuttoned.append("driver")
    assert VL.crew_sight(st, driver) == 13  # head out of the hatch: the core rules as they are
    # optics cancel the vehicle's Sight modifier: the gunner (optics 0-3) sees with his own 12
    assert VL.crew_sight(st, SHERMAN_CREW["gunner"]) == 12


def test_visibility_multiplies_sight_before_look_modifiers_7_times_10_is_70(cat):
    st = motor(cat, us=[sherman("41A")], de=[panzer("44A")])
    driver = SHERMAN_CREW["driver"]
    squares, reach = VL.sight_range_at(st, driver, PANZER)
    assert squares == 3 and reach == 70  # 7 x 10; no LOOK modifiers along the lane
    # a man in the thicket (LOOK -2) is seen at 7 - 2: no visibility for soldiers
    st.changing(4).at = (2, 7)
    assert VL.sight_range_at(st, driver, 4) == (1, 5)


def test_optics_ignore_look_modifiers_down_to_their_value(cat):
    st = motor(cat, us=[sherman("41A")], de=[panzer("44A")])
    a, b = (2, 12), (17, 12)  # 49A -> 52A across the stubble and the rise: no LOOK modifiers
    assert LOS.look_mods_for(st, (2, 7), (17, 7)) == -1  # thicket to paddock: the marsh's -1 (the knoll has none)
    assert LOS.look_mods_for(st, (2, 7), (17, 7), optics=1) == 0
    assert LOS.look_mods_for(st, (17, 2), (2, 7), optics=0) == LOS.look_mods_for(st, (17, 2), (2, 7))
    assert LOS.look_mods_for(st, a, b) == 0


def test_a_crewman_sight_places_his_vehicles_own_marker_and_the_closest_rule(cat):
    st = motor(cat, us=[sherman("41A")], de=[panzer("44A")])
    ctx = Ctx(st)
    commander = SHERMAN_CREW["commander"]
    st.changing_vehicle(SHERMAN).unbuttoned.append("commander")
    must, table = VL.crew_sight_options(st, commander)
    # the soldier in 44A and the panzer in 44A tie at three squares: the player picks
    assert set(must) == {4, PANZER}
    with pytest.raises(RuleError, match="has a choice"):
        VL.crew_sight_action(ctx, commander)
    VL.crew_sight_action(ctx, commander, PANZER)
    assert st.vehicles[PANZER].spotted_by == [SHERMAN] and not st.vehicles[PANZER].spotted
    # marked already: the next Sight goes to the man
    assert VL.crew_sight_options(st, commander)[0] == [4]


def test_acquiring_a_target_turns_the_turret_after_a_free_sight(cat):
    st = motor(cat, us=[sherman("41A", facing="e", turret="s")], de=[panzer("44A")])
    ctx = Ctx(st)
    with pytest.raises(RuleError, match="has not spotted"):
        VL.acquire(ctx, SHERMAN, SHERMAN, PANZER)
    st.changing_vehicle(PANZER).spotted_by.append(SHERMAN)
    assert not VS.in_weapon_arc(st, SHERMAN, "main", PANZER)
    assert VL.acquire(ctx, SHERMAN, SHERMAN, PANZER)
    assert st.vehicles[SHERMAN].turret == "e" and VS.in_weapon_arc(st, SHERMAN, "main", PANZER)
    assert st.vehicles[SHERMAN].facing == "e"


def test_hatches_open_with_a_look_and_close_with_a_hide(cat):
    st = motor(cat, us=[sherman()], de=[panzer()])
    ctx = Ctx(st)
    VL.unbutton(ctx, SHERMAN, SHERMAN_CREW["loader"])
    assert st.vehicles[SHERMAN].unbuttoned == ["loader"]
    with pytest.raises(RuleError, match="no hatch"):
        VL.unbutton(ctx, SHERMAN, SHERMAN_CREW["gunner"])
    with pytest.raises(RuleError, match="open already"):
        VL.unbutton(ctx, SHERMAN, SHERMAN_CREW["loader"])
    VL.unbutton(ctx, SHERMAN, SHERMAN)  # the plate: the commander's hatch first
    assert "commander" in st.vehicles[SHERMAN].unbuttoned
    VL.button(ctx, SHERMAN, SHERMAN_CREW["loader"])
    assert st.vehicles[SHERMAN].unbuttoned == ["commander"]


def test_radio_contact_after_the_panels_number_of_look_cards_shares_a_marker(cat):
    # Radio 2: the second LOOK card of the turn makes contact; every other friendly radio vehicle
    # that could sight a target the caller has marked gets its own marker on it. (The position
    # puts the fixture's second radio tank on the American side.)
    st = motor(cat, us=[sherman("41A")], de=[panzer("52A", facing="n")], de_men=(4,))
    st.changing_vehicle(PANZER).side = "US"
    st.changing(4).at = (12, 2)  # in the lane, 43A, in view of both
    st.changing(4).spotted_by.append(SHERMAN)
    ctx = Ctx(st)
    VL.look_card_played(ctx, SHERMAN)
    assert not any(e.kind == "radio" for e in ctx.events) and st.soldiers[4].spotted_by == [SHERMAN]
    VL.look_card_played(ctx, SHERMAN)
    assert any(e.kind == "radio" for e in ctx.events)
    assert st.soldiers[4].spotted_by == [SHERMAN, PANZER]
    # a wrecked radio set makes no contact
    st.changing(4).spotted_by = [SHERMAN]
    st.changing_vehicle(SHERMAN).looks = 0
    st.changing_vehicle(SHERMAN).damage["radio"] = ["wreck"]
    VL.look_card_played(ctx, SHERMAN)
    VL.look_card_played(ctx, SHERMAN)
    assert st.soldiers[4].spotted_by == [SHERMAN]


def test_radio_contact_lasts_one_turn(cat):
    from engine.turn.sequence import _turn_end
    st = motor(cat, us=[sherman("41A")], de=[panzer("52A")])
    ctx = Ctx(st)
    VL.look_card_played(ctx, SHERMAN)
    _turn_end(ctx)
    assert st.vehicles[SHERMAN].looks == 0


# =========================================================================== HIDE


def test_a_vehicle_takes_cover_only_in_a_hide_minus_3_tile_and_each_marker_separately(cat):
    st = motor(cat, us=[sherman("41A")], de=[panzer("48A")])
    ctx = Ctx(st)
    v = st.vehicles[SHERMAN]
    v.spotted, v.spotted_by = True, [PANZER]
    with pytest.raises(RuleError, match="HIDE -3 or less"):
        VH.vcover(ctx, SHERMAN, SHERMAN)
    v.tile = "45A"
    # HIDE -3 of the thicket counts, the marsh's nothing: -2 (the Sherman) - 3 = -5 against both
    assert VH.cover_value_against(st, SHERMAN, PANZER) == -5
    VH.vcover(ctx, SHERMAN, SHERMAN)
    assert not v.spotted and v.spotted_by == []


def test_only_hide_modifiers_of_minus_3_or_less_count_for_a_vehicle(cat):
    st = motor(cat, us=[sherman("45A")], de=[panzer("48A")])
    # 45A thicket -3 counts; any -1 or -2 on the way would not
    assert VH.vehicle_hide_mods(st, (2, 7), (17, 7)) == -3


def test_hull_down_needs_negative_look_and_move_and_a_bog_check(cat):
    st = motor(cat, us=[sherman("41A")], de=[panzer("48A")])
    ctx = Ctx(st)
    with pytest.raises(RuleError, match="negative LOOK and MOVE"):
        VH.hulldown(ctx, SHERMAN, SHERMAN)
    st.changing_vehicle(SHERMAN).tile = "45A"  # LOOK -2, MOVE -1: one bog check
    zip_ = [c for c in cards_with(st, fid_of(st, SHERMAN), Damage.ZIP)][0]
    stack(st, fid_of(st, SHERMAN), zip_)
    assert VH.hulldown(ctx, SHERMAN, SHERMAN)
    assert st.vehicles[SHERMAN].hull_down


def test_hull_down_gives_minus_3_shoot_from_the_front_and_is_lost_on_turning(cat):
    st = motor(cat, us=[sherman("45A", facing="e")], de=[panzer("48A", facing="w")])
    ctx = Ctx(st)
    st.changing_vehicle(SHERMAN).hull_down = True
    front = centre_point(st.board, "48A")
    behind = centre_point(st.board, "41A")
    assert VS.hull_down_against(st, SHERMAN, front)
    assert not VS.hull_down_against(st, SHERMAN, behind)
    _, _, with_hd, _ = VS.geometry(st, PANZER, SHERMAN, 20, 10, 10)
    st.changing_vehicle(SHERMAN).hull_down = False
    _, _, without, _ = VS.geometry(st, PANZER, SHERMAN, 20, 10, 10)
    assert with_hd == without - 3
    st.changing_vehicle(SHERMAN).hull_down = True
    stack(st, fid_of(st, SHERMAN), cards_with(st, fid_of(st, SHERMAN), Damage.ZIP)[0])
    VM.vturn(ctx, SHERMAN, SHERMAN, "n")
    assert not st.vehicles[SHERMAN].hull_down


# =========================================================================== MOVE


def test_the_move_plus_example_a_sherman_leaves_a_minus_1_square(cat):
    # A Sherman moves 1 square across open ground. Leaving the thicket (MOVE -1) through a side
    # costs 2: it saves a Move+ (2 squares) with one MOVE, and moves with the next.
    st = motor(cat, us=[sherman("45A", facing="e")], de=[panzer("44A")])
    ctx = Ctx(st)
    fid = fid_of(st, SHERMAN)
    with pytest.raises(RuleError, match="cannot reach 46A"):
        VM.vmove(ctx, SHERMAN, SHERMAN, "46A")
    VM.move_plus(ctx, SHERMAN, SHERMAN)
    assert st.vehicles[SHERMAN].move_plus == 2
    stack(st, fid, cards_with(st, fid, Damage.ZIP)[0])  # the bog check for leaving MOVE -1
    VM.vmove(ctx, SHERMAN, SHERMAN, "46A")
    v = st.vehicles[SHERMAN]
    assert v.tile == "46A" and v.move_plus == 0 and v.facing == "e"


def test_a_move_plus_plus_stores_3_squares_and_is_lost_when_the_tank_enters_a_square_needing_2(cat):
    # How to Move: a Move++ marker counts as 3 squares; markers are not saved once the vehicle moves
    # into a new square, so a tank that stored a Move++ and then enters a square needing only 2
    # keeps no square for later. Markers add up before that: a Move+ and a Move++ are 5 squares.
    st = motor(cat, us=[sherman("45A", facing="e")], de=[panzer("44A")])
    ctx = Ctx(st)
    fid = fid_of(st, SHERMAN)
    VM.move_plus(ctx, SHERMAN, SHERMAN, double=True)
    assert st.vehicles[SHERMAN].move_plus == 3 and VM.allowance(st, SHERMAN, False) == 3
    assert ctx.events[-1].data["marker"] == "Move++"
    VM.move_plus(ctx, SHERMAN, SHERMAN)
    assert st.vehicles[SHERMAN].move_plus == 5
    stack(st, fid, cards_with(st, fid, Damage.ZIP)[0])  # the bog check for leaving MOVE -1
    VM.vmove(ctx, SHERMAN, SHERMAN, "46A")
    v = st.vehicles[SHERMAN]
    assert v.tile == "46A" and v.move_plus == 0


def test_bog_pins_are_pin_results_times_the_bog_number_2_x_3_is_6(cat):
    # A PzKw IV H (Bog 3 Pins) in a MOVE -3 square pulls 2 Pins in its 3 bog checks: 6 Pin markers,
    # the move is lost, and it cannot move until they are gone.
    st = motor(cat, us=[sherman("41A")], de=[panzer("46A", facing="e")])
    ctx = Ctx(st)
    fid = fid_of(st, PANZER)
    pins = cards_with(st, fid, Damage.PIN)[:2]
    zip_ = cards_with(st, fid, Damage.ZIP)[0]
    stack(st, fid, pins[0], zip_, pins[1])
    st.changing_vehicle(PANZER).move_plus = 4
    VM.vmove(ctx, PANZER, PANZER, "47A")
    v = st.vehicles[PANZER]
    assert v.tile == "46A" and v.pins == 6
    assert any(e.kind == "bogged" and "2 Pin results x bog 3 = 6" in e.text for e in ctx.events)
    with pytest.raises(RuleError, match="bogged down"):
        VM.vmove(ctx, PANZER, PANZER, "47A")
    VM.unpin(ctx, PANZER, PANZER)
    assert v.pins == 5


def test_a_vehicle_moves_through_the_side_or_corner_it_faces_and_the_two_beside_it(cat):
    st = motor(cat, us=[sherman("46A", facing="e")], de=[panzer("44A")])
    st.changing_vehicle(SHERMAN).move_plus = 4  # plenty of movement out of the marsh
    dests = VM.destinations(st, SHERMAN)
    # facing E from 46A: 47A (E), 43A (NE) and 51A (SE) without turning; never back to 45A
    assert {"47A", "43A", "51A"} <= set(dests) and "45A" not in dests and "41A" not in dests
    back = VM.destinations(st, SHERMAN, back=True)
    assert set(back) == {"45A", "41A", "53A"}
    assert all(len(p) == 2 for _, p, _ in back.values())  # backing up: one square only


def test_road_movement_follows_the_road_and_needs_a_road_side_faced(cat):
    st = motor(cat, us=[sherman("42A", facing="e")], de=[panzer("48A")])
    ctx = Ctx(st)
    dests = VM.destinations(st, SHERMAN, road=True)
    assert set(dests) == {"43A", "44A"}  # 3 squares of road, but the lane ends at 44A
    VM.vmove(ctx, SHERMAN, SHERMAN, "44A", road=True)
    assert st.vehicles[SHERMAN].tile == "44A" and st.vehicles[SHERMAN].moved == 2
    st.changing_vehicle(SHERMAN).facing = "n"
    with pytest.raises(RuleError, match="road runs"):
        VM.vmove(ctx, SHERMAN, SHERMAN, "43A", road=True)


def test_no_road_move_into_a_tile_holding_another_vehicle(cat):
    st = motor(cat, us=[sherman("42A", facing="e"), halftrack("43A")], de=[panzer("48A")])
    assert VM.destinations(st, SHERMAN, road=True) == {}
    assert "43A" in VM.destinations(st, SHERMAN)  # an Open move may share the tile


def test_turning_is_up_to_four_points_and_the_turret_turns_apart(cat):
    st = motor(cat, us=[sherman("41A", facing="e", turret="e")], de=[panzer("48A")])
    ctx = Ctx(st)
    VM.vturn(ctx, SHERMAN, SHERMAN, "w")  # four points
    assert st.vehicles[SHERMAN].facing == "w" and st.vehicles[SHERMAN].turret == "e"
    VM.turret(ctx, SHERMAN, SHERMAN, "n")
    assert st.vehicles[SHERMAN].turret == "n"
    with pytest.raises(RuleError, match="faces W already"):
        VM.vturn(ctx, SHERMAN, SHERMAN, "w")


def test_a_vehicle_displaces_soldiers_and_runs_over_a_pinned_enemy(cat):
    st = motor(cat, us=[sherman("41A", facing="e")], de=[panzer("48A")], us_men=(1,), de_men=(4, 5))
    ctx = Ctx(st)
    st.changing(4).at, st.changing(5).at = (7, 2), (8, 3)  # in the middle of 42A
    st.changing(4).pinned = True
    de = st.soldiers[4].force
    kill = cards_with(st, de, Damage.KILL)[0]
    zip_ = cards_with(st, de, Damage.ZIP)[0]
    stack(st, de, zip_, kill)  # two damage checks for the pinned man: a Kill runs him over
    VM.vmove(ctx, SHERMAN, SHERMAN, "42A")
    assert st.soldiers[4].status == "dead"
    assert st.soldiers[5].status == "board" and st.soldiers[5].at not in VM.footprint(st.board, "42A")
    assert st.board.tile_at(st.soldiers[5].at) == "42A"  # room beside it in the same tile


def test_mounting_needs_climb_2_a_stopped_vehicle_and_room(cat):
    st = motor(cat, us=[sherman("41A"), halftrack("42A")], de=[panzer("48A")], us_men=(1, 2))
    ctx = Ctx(st)
    st.changing(1).status, st.changing(1).at = "board", (6, 1)
    assert st.stats(1).climb == 1
    with pytest.raises(RuleError, match="needs Climb 2"):
        VM.mount(ctx, 1, HALFTRACK, None)
    # a crewman trained on it ignores Climb; a dismounted Sherman crewman returns to his post
    VM.dismount(ctx, SHERMAN_CREW["loader"])
    loader = st.soldiers[SHERMAN_CREW["loader"]]
    assert loader.status == "board" and loader.dismounted and "loader" not in st.vehicles[SHERMAN].crew
    with pytest.raises(RuleError, match="stays beside his vehicle"):
        from engine.infantry.move import Dest, move
        move(ctx, loader.serial, Dest(tile="42A"))
    st.changing_vehicle(SHERMAN).moved = 1
    with pytest.raises(RuleError, match="is moving"):
        VM.mount(ctx, loader.serial, SHERMAN, None)
    st.changing_vehicle(SHERMAN).moved = 0
    VM.mount(ctx, loader.serial, SHERMAN, None)
    assert st.vehicles[SHERMAN].crew["loader"] == loader.serial and loader.status == "aboard"


def test_a_vehicle_that_moved_two_squares_lets_nobody_off(cat):
    st = motor(cat, us=[sherman("42A", facing="e")], de=[panzer("48A")])
    ctx = Ctx(st)
    VM.vmove(ctx, SHERMAN, SHERMAN, "44A", road=True)
    with pytest.raises(RuleError, match="moved 2 squares"):
        VM.dismount(ctx, SHERMAN_CREW["commander"])


def test_crew_move_about_the_panel_to_empty_posts_and_outside_only_dismounted(cat):
    st = motor(cat, us=[sherman("41A")], de=[panzer("48A")])
    ctx = Ctx(st)
    gunner, loader = SHERMAN_CREW["gunner"], SHERMAN_CREW["loader"]
    with pytest.raises(RuleError, match="taken by"):
        VM.shift(ctx, gunner, "loader")
    VM.shift(ctx, gunner, "main_gun")  # a machinery location inside the turret
    assert st.soldiers[gunner].post == "main_gun" and "gunner" not in st.vehicles[SHERMAN].crew
    with pytest.raises(RuleError, match="dismounts first"):
        VM.shift(ctx, loader, "engine")
    VM.dismount(ctx, loader)
    VM.shift(ctx, loader, "engine")
    assert st.soldiers[loader].post == "engine" and st.soldiers[loader].status == "aboard"


def test_a_vehicle_enters_the_board_from_its_entry_area_facing_in(cat):
    st = motor(cat, us=[sherman(tile=None)], de=[panzer("48A")])
    assert st.vehicles[SHERMAN].status == "waiting"
    ctx = Ctx(st)
    VM.vmove(ctx, SHERMAN, SHERMAN, "41A")
    v = st.vehicles[SHERMAN]
    assert v.status == "board" and v.tile == "41A" and v.facing == "e"


# =========================================================================== SHOOT


def arc_board(cat):
    """A layout that reproduces the book's arc-and-aspect example (the text gives verdicts, not
    the map figure): Sherman S1 (the book's 24A) faces a side (N), Sherman S2 (8A) a corner (NE);
    Panzers G1 (9A) facing S, G2 (20B) facing NW, G3 in the landmark (L4B) facing S."""
    rows = [["21A", "22A", "23A", "24A", "25A", "26A"],
            ["L9A", "L9A", "27A", "28A", "31A", "32A"],
            ["L9A", "L9A", "33A", "34A", "35A", "36A"],
            ["37A", "38A", "41A", "42A", "43A", "44A"],
            ["45A", "46A", "47A", "48A", "49A", "50A"]]
    return board_for("arc-test", rows, cat.tiles)


S1, S2, G1, G2, G3 = "49A", "45A", "31A", "36A", "L9A"
FACING = {S1: "n", S2: "ne", G1: "s", G2: "nw", G3: "s"}


def test_the_shooting_arc_example_every_german_is_in_both_shermans_arcs(cat):
    b = arc_board(cat)
    for shooter in (S1, S2):
        for target in (G1, G2, G3):
            assert tile_in_arc(b, shooter, FACING[shooter], target), (shooter, target)
    # the landmark is in both arcs only because they cross part of it: its centre is not inside
    for shooter in (S1, S2):
        assert not strictly_in_arc(b, shooter, FACING[shooter], centre_point(b, G3))
    # "the Panzer in L4B only has the Sherman in 8A in its arc"
    assert tile_in_arc(b, G3, "s", S2) and not tile_in_arc(b, G3, "s", S1)


def test_the_target_aspect_example(cat):
    b = arc_board(cat)

    def seen(target, shooter):
        return aspect(b, target, FACING[target], centre_point(b, shooter))

    assert seen(G1, S1) == Aspect.FRONT and seen(G2, S1) == Aspect.SIDE
    assert seen(G1, S2) == Aspect.SIDE and seen(G2, S2) == Aspect.SIDE and seen(G3, S2) == Aspect.FRONT
    # The book also calls L4B "Front" from 24A, yet says 24A is outside L4B's arc, and Front is
    # exactly "the shooter in the target's arc": we follow the rule, so it is Side.
    assert seen(G3, S1) == Aspect.SIDE
    # L4B firing at the Sherman in 8A: its centre is on the edge of 8A's arc, not in it: Side
    assert seen(S2, G3) == Aspect.SIDE


def test_a_shot_exactly_through_a_corner_of_the_target_tile_is_on_the_side(cat):
    b = arc_board(cat)
    # 47A faces NE; a shooter on the line through its NE corner, seen from 47A's centre
    x0, y0, x1, y1 = 10, 20, 15, 25
    assert aspect(b, "47A", "ne", (x1 + 5, y0 - 5)) == Aspect.SIDE
    assert aspect(b, "47A", "ne", (x1 + 5, y0 - 6)) == Aspect.FRONT


def test_the_main_gun_needs_a_round_in_the_breach_and_keeps_to_its_rof(cat):
    st = motor(cat, us=[sherman("41A", facing="e", turret="e")], de=[panzer("44A")])
    ctx = Ctx(st)
    v = st.vehicles[SHERMAN]
    st.changing_vehicle(PANZER).spotted_by.append(SHERMAN)
    gunner = SHERMAN_CREW["gunner"]
    assert "is not loaded" in VS.fire_problem(st, SHERMAN, gunner, "main", PANZER)
    VS.load(ctx, SHERMAN, SHERMAN, "AP")
    assert v.in_hand == ["AP"] and v.ready == {"AP": 1, "HE": 1}
    VS.load(ctx, SHERMAN, SHERMAN, None)
    assert v.in_breach == ["AP"] and v.in_hand == []
    assert VS.fire_problem(st, SHERMAN, gunner, "main", PANZER) is None
    VS.fire(ctx, SHERMAN, SHERMAN, "main", PANZER)
    assert v.in_breach == [] and v.shots == 1 and v.spotted
    rof = st.vehicle_def(SHERMAN).main_gun.rof
    v.shots = rof
    v.in_breach = ["AP"]
    assert "ROF" in VS.fire_problem(st, SHERMAN, gunner, "main", PANZER)
    # ROF never stops loading
    VS.load(ctx, SHERMAN, SHERMAN, "HE")
    assert v.in_hand == ["HE"]


def test_a_two_part_round_goes_in_then_its_charge(cat):
    # round Ready -> In Hand -> In Breach, then its charge In Breach -> In Hand -> In Breach
    st = motor(cat, us=[sherman()], de=[panzer("44A", ammo={"SEP": 1}, facing="w")])
    ctx = Ctx(st)
    v = st.vehicles[PANZER]
    VS.load(ctx, PANZER, PANZER, "SEP")
    VS.load(ctx, PANZER, PANZER, None)
    assert v.in_breach == ["SEP"] and VS.breach_ready(st, PANZER) is None
    VS.load(ctx, PANZER, PANZER, None)
    assert v.in_hand == ["SEP/charge"]
    VS.load(ctx, PANZER, PANZER, None)
    assert v.in_breach == ["SEP", "SEP/charge"] and VS.breach_ready(st, PANZER) == "SEP"
    with pytest.raises(RuleError, match="nothing to load"):
        VS.load(ctx, PANZER, PANZER, None)


def test_the_loader_changes_rounds_by_taking_them_back_out_step_by_step(cat):
    # Loading: the reverse is done too, to change rounds — In Breach -> In Hand, then In Hand ->
    # Ready Ammo, each a SHOOT. The Sherman has AP in the breach and wants HE.
    st = motor(cat, us=[sherman("41A", in_breach="AP")], de=[panzer()])
    ctx = Ctx(st)
    v = st.vehicles[SHERMAN]
    assert v.ready == {"AP": 1, "HE": 1}
    VS.unload(ctx, SHERMAN, SHERMAN)
    assert (v.in_breach, v.in_hand) == ([], ["AP"])
    VS.unload(ctx, SHERMAN, SHERMAN)
    assert (v.in_hand, v.ready) == ([], {"AP": 2, "HE": 1})
    with pytest.raises(RuleError, match="nothing to take back"):
        VS.unload(ctx, SHERMAN, SHERMAN)
    VS.load(ctx, SHERMAN, SHERMAN, "HE")
    VS.load(ctx, SHERMAN, SHERMAN, None)
    assert v.in_breach == ["HE"] and v.ready == {"AP": 2}


def test_a_two_part_round_comes_out_charge_first(cat):
    # the loading steps of a two-part round undone in reverse: the charge out of the breach into
    # his hands and set down, then the round out and back to the rack
    st = motor(cat, us=[sherman()], de=[panzer("44A", ammo={"SEP": 1}, facing="w")])
    ctx = Ctx(st)
    v = st.vehicles[PANZER]
    for _ in range(4):
        VS.load(ctx, PANZER, PANZER, "SEP" if not v.in_hand and not v.in_breach else None)
    assert v.in_breach == ["SEP", "SEP/charge"]
    steps = []
    for _ in range(4):
        VS.unload(ctx, PANZER, PANZER)
        steps.append((list(v.in_breach), list(v.in_hand), v.ready.get("SEP", 0)))
    assert steps == [(["SEP"], ["SEP/charge"], 0), (["SEP"], [], 0), ([], ["SEP"], 0), ([], [], 1)]


def test_taking_a_step_back_is_a_loader_command_listed_and_read(cat):
    from engine.core.commands import Load, parse_command
    st = motor(cat, us=[sherman("41A", in_breach="AP")], de=[panzer()])
    cmd = parse_command("load 901 back", 0)
    assert cmd == Load(seat=0, serial=SHERMAN, back=True) and str(cmd) == "load 901 back"
    with pytest.raises(RuleError, match="back names no round"):
        parse_command("load 901 AP back", 0)
    from engine.vehicles.legal import _load_options
    assert Load(seat=0, serial=SHERMAN, back=True, via="tag") in list(_load_options(st, SHERMAN, SHERMAN, 0, "tag"))


def test_a_round_may_start_in_the_breach(cat):
    st = motor(cat, us=[sherman(in_breach="AP")], de=[panzer()])
    v = st.vehicles[SHERMAN]
    assert v.in_breach == ["AP"] and v.ready == {"AP": 1, "HE": 1}


def test_no_main_gun_with_an_enemy_vehicle_in_the_same_tile_and_only_move_or_shoot(cat):
    st = motor(cat, us=[sherman("43A", facing="e", turret="e", in_breach="AP")], de=[panzer("43A")])
    st.changing_vehicle(PANZER).spotted_by.append(SHERMAN)
    assert "Same Square" in VS.fire_problem(st, SHERMAN, SHERMAN_CREW["gunner"], "main", PANZER)
    fid = fid_of(st, SHERMAN)
    look = card_of(st, fid, owner=SHERMAN, action="look")
    at_work(st, fid, look, "look")
    with pytest.raises(RuleError, match="may only MOVE or SHOOT"):
        apply(st, C.Unbutton(seat=0, serial=SHERMAN, via="tag"))


def test_a_vehicle_needs_its_own_marker_on_the_target(cat):
    st = motor(cat, us=[sherman("41A", facing="e", turret="e", in_breach="AP")], de=[panzer("44A")])
    st.changing_vehicle(PANZER).spotted = True  # a general marker is the infantry's, not the Sherman's
    assert "own Spotted marker" in VS.fire_problem(st, SHERMAN, SHERMAN_CREW["gunner"], "main", PANZER)


def test_shooting_at_soldiers_draws_damage_x_checks_per_hit_and_tracers_mark_the_target(cat):
    from engine.infantry.shoot import read_hits
    st = motor(cat, us=[sherman("41A", facing="e", turret="e")], de=[panzer("48A")], de_men=(4,))
    ctx = Ctx(st)
    st.changing(4).at = (12, 2)  # in 43A
    st.changing(4).spotted_by.append(SHERMAN)
    mg = next(m for m in st.vehicle_def(SHERMAN).mgs if m.mount == "coax")
    fid = fid_of(st, SHERMAN)
    _, _, _, bands = VS.geometry(st, SHERMAN, 4, mg.long, mg.short, mg.close, 3)
    pile = st.forces[fid].deck + st.forces[fid].hand + st.forces[fid].discard
    card = next(c for c in sorted(pile) if read_hits(st.card(c), bands, mg.hit_plus)[0] >= 1
                and not read_hits(st.card(c), bands, mg.hit_plus)[1])
    hits = read_hits(st.card(card), bands, mg.hit_plus)[0]
    stack(st, fid, card)
    de = st.soldiers[4].force
    stack(st, de, *cards_with(st, de, Damage.ZIP)[:hits * mg.damage_x])
    VS.fire(ctx, SHERMAN, SHERMAN, mg.id, 4)
    checks = [e for e in ctx.events if e.kind == "damage_check" and e.data.get("serial") == 4]
    assert len(checks) == hits * mg.damage_x
    assert st.vehicles[SHERMAN].spotted  # firing gives the vehicle away
    assert st.soldiers[4].spotted == mg.tracers


# =========================================================================== cards and the license plate


def test_the_license_plate_moves_the_hull_once_a_phase(cat):
    st = motor(cat, us=[sherman("42A", facing="e")], de=[panzer("48A")])
    fid = fid_of(st, SHERMAN)
    move = card_of(st, fid, owner=SHERMAN, action="move")
    at_work(st, fid, move, "move")
    st.changing_vehicle(SHERMAN).hull_moved = True  # the plate drove the hull earlier this phase
    with pytest.raises(RuleError, match="once a phase|already"):
        apply(st, C.VMove(seat=0, serial=SHERMAN, tile="43A", road=True, via="tag"))
    st.changing_vehicle(SHERMAN).hull_moved = False
    st2, _ = apply(st, C.VMove(seat=0, serial=SHERMAN, tile="43A", road=True, via="tag"))
    assert st2.vehicles[SHERMAN].tile == "43A" and st2.vehicles[SHERMAN].hull_moved


def test_crew_entries_are_for_trained_crew_and_vehicle_entries_for_the_plate(cat):
    st = motor(cat, us=[sherman("42A", facing="e")], de=[panzer("48A")])
    fid = fid_of(st, SHERMAN)
    team = [c for c in st.forces[fid].deck + st.forces[fid].hand
            if any(e.who == "crew" and e.do.value == "move" for e in st.card(c).team)]
    assert team, "the Sherman deck holds its team cards (a trained crew rides in it)"
    at_work(st, fid, team[0], "move")
    with pytest.raises(RuleError, match="cannot move with this card|nothing|left"):
        apply(st, C.VMove(seat=0, serial=SHERMAN, tile="43A", road=True, via="team"))
    st2, _ = apply(st, C.VMove(seat=0, serial=SHERMAN_CREW["driver"], tile="43A", road=True, via="team"))
    assert st2.vehicles[SHERMAN].tile == "43A"


def test_a_cross_trained_man_cannot_serve_through_the_license_plate(cat):
    crew = dict(SHERMAN_CREW)
    crew["driver"], crew["co_driver"] = SHERMAN_CREW["co_driver"], SHERMAN_CREW["driver"]  # swapped seats
    st = motor(cat, us=[sherman("42A", facing="e", crew=crew) if False else
                        VehicleEntry(vehicle="test-sherman", crew=crew, tile="42A", facing="e")], de=[panzer("48A")])
    ctx = Ctx(st)
    with pytest.raises(RuleError, match="not trained as its driver"):
        VM.vmove(ctx, SHERMAN, SHERMAN, "43A", road=True)
    # he may drive in his own name (a soldier entry or his own dog tag)
    VM.vmove(ctx, SHERMAN, crew["driver"], "43A", road=True)
    assert st.vehicles[SHERMAN].tile == "43A"


def test_vehicle_cards_name_the_vehicle_when_revealed_and_in_views(cat):
    from engine.view import card_view
    st = motor(cat, us=[sherman()], de=[panzer()])
    fid = fid_of(st, SHERMAN)
    cid = card_of(st, fid, owner=SHERMAN, action="move")
    assert card_view(st, cid).owner_name == "Test Sherman 901"


def test_legal_commands_for_a_vehicle_are_all_accepted(cat):
    st = motor(cat, us=[sherman("42A", facing="e", in_breach="AP")], de=[panzer("44A")])
    fid = fid_of(st, SHERMAN)
    st.changing_vehicle(PANZER).spotted_by.append(SHERMAN)
    from engine.legal import legal_commands
    for action in ("move", "shoot", "look", "hide"):
        try:
            cid = card_of(st, fid, owner=SHERMAN, action=action)
        except AssertionError:
            continue
        work = at_work(st.clone(), fid, cid, action)
        opts = [c for c in legal_commands(work, 0) if c.type not in ("pass", "done")]
        for c in opts:
            apply(work, c)  # raises if the listed command is refused


def test_a_soldier_sights_a_vehicle_at_his_sight_times_its_visibility_and_gives_a_general_marker(cat):
    from engine.infantry.look import sight, sight_options
    st = motor(cat, us=[sherman("52A")], de=[panzer("44A")], us_men=(1,))
    st.changing(1).status, st.changing(1).at = "board", (2, 2)  # in 41A, three squares from 44A
    st.changing(4).spotted = True  # the German infantryman is marked already
    must, table = sight_options(st, 1)
    row = next(r for r in table if r[0] == PANZER)
    assert row[1] == 3 and row[2] == st.stats(1).sight * 10  # Visibility x10, no LOOK modifiers
    assert must == [PANZER]
    sight(Ctx(st), 1)
    v = st.vehicles[PANZER]
    assert v.spotted and v.spotted_by == []  # everyone's marker, not a vehicle's own


def test_an_area_blast_strikes_a_vehicle_at_its_lowest_armour(cat):
    # Artillery (here any area blast) on a vehicle's tile: its blast hits against the lowest armour
    # anywhere on it; what gets through is chained damage from that compartment.
    from engine.core.formulas import hit_value
    from engine.infantry.blast import blast_tile
    from engine.vehicles.damage import weakest
    st = motor(cat, us=[halftrack("43A")], de=[panzer("48A")])
    ctx = Ctx(st)
    comp, armour = weakest(st.vehicle_def(HALFTRACK))
    assert armour == 1 and comp.value == "hull"  # side and rear hull 1
    fid = fid_of(st, HALFTRACK)
    pile = st.forces[fid].deck + st.forces[fid].hand + st.forces[fid].discard
    by_blast = sorted(pile, key=lambda c: -hit_value(st.card(c).hit.blast)[0])
    top = by_blast[:2]
    tally = sum(hit_value(st.card(c).hit.blast)[0] for c in top)
    stack(st, fid, *top)
    blast_tile(ctx, "43A", checks=2, by_force=None, cause="artillery", what="A shell")
    ev = next(e for e in ctx.events if e.kind == "vehicle_blast")
    assert ev.data["hits"] == tally and ev.data["armour"] == 1 and ev.data["damage"] == max(0, tally - 1)
    steps = [e for e in ctx.events if e.kind == "vehicle_damage"]
    assert len(steps) == max(0, tally - 1)


# =========================================================================== the vehicle book's orders


def with_order(st, seat, kind, vp=5):
    from engine.core.content import OrderDef
    o = OrderDef(id=f"t-{kind}", kind=kind, title=kind, text=kind, vp=vp)
    st.setup = st.setup.model_copy(update={"orders": {**st.setup.orders, o.id: o}})
    st.seats[seat].order, st.seats[seat].order_done = o.id, False
    return o


def test_overrun_is_met_by_destroying_an_enemy_vehicle(cat):
    from engine.vehicles.damage import destroy_vehicle
    from engine.vehicles.orders import phase_end
    st = motor(cat, us=[sherman("41A")], de=[panzer("48A")])
    with_order(st, 0, "overrun", vp=6)
    ctx = Ctx(st)
    phase_end(ctx)
    assert not st.seats[0].order_done
    destroy_vehicle(ctx, PANZER, by_force=fid_of(st, SHERMAN), by_soldier=SHERMAN_CREW["gunner"], cause="shot")
    phase_end(ctx)
    assert st.seats[0].order_done and any(e.kind == "orders" and e.amount == 6 for e in st.vp)


def test_screen_and_overwatch_pay_for_destroyed_vehicles_at_the_end(cat):
    from engine.vehicles.damage import destroy_vehicle
    from engine.vehicles.orders import game_end
    for kind, want in (("screen", 32), ("overwatch", 4)):
        st = motor(cat, us=[sherman("41A")], de=[panzer("48A")])
        with_order(st, 0, kind, vp=4)
        ctx = Ctx(st)
        destroy_vehicle(ctx, PANZER, by_force=fid_of(st, SHERMAN), cause="shot")
        game_end(ctx)
        assert [e.amount for e in st.vp if e.kind == "orders"] == [want], kind  # the Panzer is worth 32


def test_ambush_counts_the_three_largest_awards_again(cat):
    from engine.core.state import VpEntry
    from engine.vehicles.orders import game_end
    st = motor(cat, us=[sherman("41A")], de=[panzer("48A")])
    with_order(st, 1, "ambush", vp=0)
    st.vp += [VpEntry(seat=1, side="DE", amount=a, reason="kill") for a in (3, 9, 4, 7)]
    game_end(Ctx(st))
    assert [e.amount for e in st.vp if e.kind == "orders"] == [9 + 7 + 4]


def test_reconnaissance_needs_a_road_move_then_everything_spotted(cat):
    from engine.vehicles.orders import phase_end
    st = motor(cat, us=[sherman("42A", facing="e")], de=[panzer("48A")], de_men=(4, 5))
    with_order(st, 0, "reconnaissance", vp=6)
    ctx = Ctx(st)
    st.changing_vehicle(PANZER).spotted_by.append(SHERMAN)
    st.changing(4).spotted = st.changing(5).spotted = True
    phase_end(ctx)
    assert not st.seats[0].order_done  # no road yet
    VM.vmove(ctx, SHERMAN, SHERMAN, "43A", road=True)
    phase_end(ctx)
    assert st.seats[0].order_done


def test_armor_support_is_met_when_a_teammate_completes_his_orders(cat):
    from engine.infantry.orders import complete
    seats = [SeatSpec(name="Ann", side="US", force=[ForceEntry(serial=1)], vehicles=[sherman("41A")]),
             SeatSpec(name="Cy", side="US", force=[ForceEntry(serial=2)], vehicles=[]),
             SeatSpec(name="Bo", side="DE", force=[ForceEntry(serial=4)], vehicles=[panzer("48A")])]
    st, _ = new_game(cat, "motor", seats, 1)
    with_order(st, 0, "armor_support", vp=5)
    with_order(st, 1, "overrun", vp=6)
    complete(Ctx(st), 1)
    assert st.seats[0].order_done


def test_a_sighted_tile_takes_area_fire_from_a_main_gun(cat):
    # Sighting Squares: a crewman's Sight marker on a tile in his sight range makes it a target for
    # rounds that strike the whole tile — here an HE round into the thicket where a man hides.
    st = motor(cat, us=[sherman("42A", facing="e", turret="s", in_breach="HE")], de=[panzer("48A")], de_men=(4,))
    ctx = Ctx(st)
    st.changing(4).at, st.changing(4).spotted = (7, 7), False  # unspotted, in the marsh 46A
    with pytest.raises(RuleError, match="has not sighted 46A"):
        VS.fire_at_square(ctx, SHERMAN, SHERMAN, "main", "46A")
    VL.sight_square(ctx, SHERMAN_CREW["commander"], "46A")
    assert st.sighted == {"46A": [SHERMAN]}
    VS.fire_at_square(ctx, SHERMAN, SHERMAN, "main", "46A")
    assert st.vehicles[SHERMAN].in_breach == [] and st.vehicles[SHERMAN].shots == 1
    blast = next(e for e in ctx.events if e.kind == "blast")
    assert blast.data["tile"] == "46A" and blast.data["victims"] == [4]
    # the sight marker is the Sherman's own: the Panzer may not use it
    assert PANZER not in st.sighted["46A"]


def test_sight_markers_on_tiles_last_the_turn(cat):
    from engine.turn.sequence import _turn_end
    st = motor(cat, us=[sherman("42A")], de=[panzer("48A")])
    ctx = Ctx(st)
    VL.sight_square(ctx, SHERMAN_CREW["commander"], "46A")
    _turn_end(ctx)
    assert st.sighted == {}


def test_the_command_attribute_needs_a_leader_in_the_commanders_seat(cat):
    st = motor(cat, us=[sherman()], de=[panzer()])
    vdef = st.vehicle_def(SHERMAN)
    commander = SHERMAN_CREW["commander"]
    leader = len(st.setup.soldiers[commander].ranks) > 1
    assert VL.can_command(st, commander) == (vdef.command and leader)
    assert not VL.can_command(st, SHERMAN_CREW["driver"])


def test_a_captured_crewman_is_never_liberated_he_leaves_the_game(cat):
    # Prisoners: once taken, a crewman freed from his escort is removed from play, his VP for nobody.
    from engine.infantry.damage import free_prisoner
    from engine.turn.fight import liberate
    st = motor(cat, us=[sherman("41A")], de=[panzer("48A")], us_men=(1,), de_men=(4,))
    ctx = Ctx(st)
    loader = SHERMAN_CREW["loader"]
    VM.dismount(ctx, loader)
    s = st.soldiers[loader]
    s.at, s.captor, s.controller = (22, 7), 4, st.soldiers[4].force
    st.changing(4).at = (23, 7)
    free_prisoner(ctx, loader, reason="his escort fell")
    assert s.status == "removed" and s.captor is None and s.at is None
    # a soldier of the squad is liberated as the core rules say
    st.changing(1).status, st.changing(1).at = "board", (22, 8)
    st.changing(1).captor, st.changing(1).controller = 4, st.soldiers[4].force
    free_prisoner(ctx, 1, reason="his escort fell")
    assert st.soldiers[1].status == "board" and st.soldiers[1].pinned
    # and a crewman reached by his friends while under escort leaves the game too
    st2 = motor(cat, us=[sherman("41A")], de=[panzer("48A")], us_men=(1,), de_men=(4,))
    c = st2.soldiers[SHERMAN_CREW["driver"]]
    c.status, c.at, c.post, c.captor, c.controller = "board", (22, 7), None, 4, st2.soldiers[4].force
    st2.changing_vehicle(SHERMAN).crew.pop("driver")
    st2.changing(4).at = (23, 7)
    st2.changing(1).status, st2.changing(1).at, st2.changing(1).facing = "board", (21, 7), "e"
    liberate(Ctx(st2))
    assert c.status == "removed"
    assert all(e.serial != c.serial for e in st2.vp)
