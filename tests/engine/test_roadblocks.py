"""Roadblocks and barricades (Hell on Wheels, Roadblocks and Barricades; Vehicles as Roadblocks):
modifiers only for targets on the overlay, wheeled vehicles stopped and tracked ones crossing by an
Open move, the 'T' modifier to leave, the fighting position's -2 hits, wrecks on a road.

The 'motor' map (tests/engine/test_vehicles.py): 41A gate, then the lane 42A-43A-44A, its road on
the middle row of cells (y = 2). The roadblock sits on 43A (cells x 10-14): its overlay is that
road row, the fighting position its west end (10, 2), a vehicle's middle x 11-13, y 1-3."""
from __future__ import annotations

import pytest

from engine.core.content import RoadblockDef
from engine.core.errors import RuleError
from engine.core.log import Ctx
from engine.infantry.look import look_mods
from engine.infantry.shoot import shoot_mods
from engine.vehicles import move as VM
from engine.vehicles import roadblocks as RB
from engine.view import view
from tests.engine.test_vehicles import (
    PANZER,
    SHERMAN,
    halftrack,
    motor,
    panzer,
    sherman,
)

HALFTRACK = 903


def with_roadblock(st, **kw):
    sc = st.setup.scenario
    st.setup = st.setup.model_copy(update={"scenario": sc.model_copy(update={"roadblocks": [
        RoadblockDef(tile="43A", **kw)]})})
    return st


def test_the_overlay_is_the_tiles_road_and_its_fighting_position_the_end_nearest_the_middle(cat):
    st = with_roadblock(motor(cat, de=[panzer("48A")]))
    (blk,) = RB.blocks(st)
    assert blk.cells == frozenset((x, 2) for x in range(10, 15))
    assert blk.post == (10, 2) and blk.middle  # the road runs through where a vehicle stands


def test_look_and_shoot_modifiers_apply_only_to_a_target_on_the_overlay(cat):
    st = with_roadblock(motor(cat, de=[panzer("48A")]), look=-3, shoot=-2)
    me = st.changing(1).at = (2, 2)
    on_it, beside = (14, 2), (14, 4)  # on the road row of 43A, and a step off it in the same tile
    assert look_mods(st, me, on_it) == -3 and shoot_mods(st, me, on_it) == -2
    assert look_mods(st, me, beside) == 0 and shoot_mods(st, me, beside) == 0
    # looking out from the roadblock, the target's own tile counts as printed
    assert look_mods(st, on_it, (2, 2)) == 0
    # smoke on the roadblock doubles its modifier like a tile's
    st.smoke = []
    from engine.advanced.equipment_use import lay_smoke
    lay_smoke(Ctx(st), "43A", 2)
    assert shoot_mods(st, me, on_it) == -4


def test_a_crew_looking_out_of_a_vehicle_reads_the_roadblocks_look_modifier_too(cat):
    # The Sherman's driver, buttoned up in 41A (sight 13 - 6 = 7), looks down the lane at a man
    # in 43A: on the overlay the roadblock's LOOK -3 counts, a step off it the tile's own 0.
    from engine.vehicles import look as VL
    from tests.engine.test_vehicles import SHERMAN_CREW
    st = with_roadblock(motor(cat, us=[sherman("41A")], de=[panzer("48A")]), look=-3)
    driver = SHERMAN_CREW["driver"]
    st.changing(4).at = (14, 2)
    assert VL.sight_range_at(st, driver, 4) == (2, 7 - 3)
    st.changing(4).at = (14, 4)
    assert VL.sight_range_at(st, driver, 4) == (2, 7)
    # optics that ignore a -3 ignore the roadblock's as they would the tile's
    st.changing(4).at = (14, 2)
    assert VL.sight_range_at(st, driver, 4, optics=3) == (2, 7)


def test_a_vehicle_on_the_roadblock_is_a_target_on_the_overlay(cat):
    st = with_roadblock(motor(cat, us=[sherman("41A")], de=[panzer("43A")]), shoot=-2)
    from engine.core.line_of_sight import at_of
    from engine.vehicles.shoot import shoot_mods_for
    assert shoot_mods_for(st, at_of(st, SHERMAN)[0], at_of(st, PANZER)[0]) == -2


def test_a_wheeled_vehicle_is_stopped_and_a_tracked_one_crosses_by_an_open_move(cat):
    st = with_roadblock(motor(cat, us=[sherman("42A", facing="e"), halftrack("42A", facing="e")],
                              de=[panzer("48A")]))
    assert "43A" not in VM.destinations(st, HALFTRACK)  # a half-track is not fully tracked
    assert VM.destinations(st, SHERMAN, road=True) == {}  # a road move stops before the roadblock
    assert "43A" in VM.destinations(st, SHERMAN)  # the Sherman crosses it in the open
    st.changing_vehicle(HALFTRACK).tile = "41A"
    ctx = Ctx(st)
    VM.vmove(ctx, SHERMAN, SHERMAN, "43A")
    assert st.vehicles[SHERMAN].tile == "43A"
    # off the overlay: never by road, and the 'T' modifier (-2) is paid and bog-checked
    with pytest.raises(RuleError, match="leaves by an Open move"):
        VM.vmove(ctx, SHERMAN, SHERMAN, "44A", road=True)
    assert VM.step_cost(st, "43A", "44A") == 3 and VM.bog_checks(st, SHERMAN) == 2
    assert "44A" not in VM.destinations(st, SHERMAN)  # one square a MOVE: it saves up first


def test_the_man_in_the_fighting_position_takes_two_hits_fewer(cat):
    st = with_roadblock(motor(cat, de=[panzer("48A")]))
    ctx = Ctx(st)
    st.changing(4).at = (10, 2)
    assert RB.protect(ctx, 4, 3) == 1 and RB.protect(ctx, 4, 2) == 0
    assert any(e.kind == "protection" and "fighting position" in e.text for e in ctx.events)
    st.changing(4).at = (14, 2)  # on the overlay, but not in the fighting position
    assert RB.protect(ctx, 4, 3) == 3
    st.changing(4).at = (10, 2)
    assert [(r.tile, r.kind, r.defender) for r in view(st).roadblocks] == [("43A", "roadblock", 4)]


def test_a_wrecked_or_immobilised_vehicle_on_a_road_is_a_roadblock(cat):
    st = motor(cat, us=[sherman("41A", facing="e"), halftrack("42A", facing="e")], de=[panzer("43A")])
    assert RB.blocks(st) == []
    st.changing_vehicle(PANZER).status = "destroyed"
    (blk,) = RB.blocks(st)
    assert (blk.tile, blk.wreck, blk.look) == ("43A", PANZER, None)
    assert "43A" not in VM.destinations(st, HALFTRACK)  # no room for wheels past the wreck
    st.changing_vehicle(HALFTRACK).tile = "41A"
    st.changing_vehicle(SHERMAN).tile = "42A"
    assert VM.destinations(st, SHERMAN, road=True) == {} and "43A" in VM.destinations(st, SHERMAN)
    assert [(r.tile, r.kind) for r in view(st).roadblocks] == [("43A", "wreck")]
    # immobilised (a Critical on its drive) is a roadblock too; off the road it is not
    st.changing_vehicle(PANZER).status = "board"
    st.changing_vehicle(PANZER).damage = {"engine": ["critical"]}
    assert [b.wreck for b in RB.blocks(st)] == [PANZER]
    st.changing_vehicle(PANZER).tile = "45A"
    assert RB.blocks(st) == []


def test_an_overlay_off_the_vehicles_middle_stops_no_one_in_the_open(cat):
    # a barricade on the lane's northern verge only (cells of 43A's top row): wheels go round it in the
    # open, a road move still stops before it, and its fighting position is where the scenario puts it
    st = with_roadblock(motor(cat, us=[halftrack("42A", facing="e")], de=[panzer("48A")]),
                        kind="barricade", cells=[(0, 0), (1, 0), (2, 0)], post=(2, 0))
    (blk,) = RB.blocks(st)
    assert not blk.middle and blk.post == (12, 0) and blk.kind == "barricade"
    assert "43A" in VM.destinations(st, HALFTRACK) and VM.destinations(st, HALFTRACK, road=True) == {}
    assert VM.step_cost(st, "43A", "44A") == 1  # no 'T' to pay: it never stood on the overlay
