"""Incendiary anti-tank weapons against vehicles (Hell on Wheels, Fire from Incendiary AT Weapons):
a hit check whose Blast box must hit, the compartment by the damage colour on the aspect, then
where the fire starts by the book's three cases, the damage always Fire.

Avery (US, dog tag 1) throws Molotov cocktails at the Test Panzer (902) on 43A of the 'motor' lane,
its hull facing west: from 42A he sees its front, from 44A its rear, from 47A below its side. His
cards: 1-C1 Blast Hit, red; 1-C2 Blast 2 Hits, yellow; 1-C3 Blast Miss; 1-C4 Blast Hit, white.
The Panzer's colours: front red hull / yellow turret; side yellow hull; rear white hull."""
from __future__ import annotations

from engine.battlefield import incendiary as INC
from engine.core.log import Ctx
from engine.core.vehicle_content import Aspect, Compartment
from tests.engine.test_vehicle_damage import add_vehicle
from tests.engine.test_vehicles import PANZER, motor, panzer, stack

FRONT, REAR, SIDE = (9, 2), (15, 2), (12, 6)


def molotov_at(cat, where, facing, *, unbuttoned=()):
    st = motor(cat, de=[panzer("43A", facing="w")])
    st.setup = st.setup.model_copy(update={"equipment": {**st.setup.equipment, "molotov": cat.equipment["molotov"],
                                                         "flamethrower": cat.equipment["flamethrower"]}})
    avery = st.soldiers[1]
    avery.status, avery.at, avery.facing = "board", where, facing
    avery.equipment = ["molotov"]
    v = st.vehicles[PANZER]
    v.spotted, v.unbuttoned = True, list(unbuttoned)
    return st, Ctx(st)


def burned(ctx, serials):
    return sorted(e.data["serial"] for e in ctx.events if e.kind == "blast_check" and e.data["serial"] in serials)


def test_a_turret_hit_burns_the_turret_crew_only_with_a_hatch_open(cat):
    st, ctx = molotov_at(cat, FRONT, "e")
    stack(st, "US-1", "1-C2")  # Blast 2 Hits, yellow: the turret from the front
    assert INC.fire_incendiary(ctx, 1, "molotov", PANZER) is None  # buttoned up: the flames run off
    assert burned(ctx, [70, 71, 72]) == [] and "molotov" in st.soldiers[1].equipment  # one bottle left
    st, ctx = molotov_at(cat, FRONT, "e", unbuttoned=["driver"])  # any hatch open will do
    stack(st, "US-1", "1-C2")
    assert INC.fire_incendiary(ctx, 1, "molotov", PANZER) == (Compartment.TURRET, "crew")
    assert burned(ctx, [70, 71, 72, 73, 74]) == [70, 71, 72]  # a fire among the turret crew


def test_a_hull_front_hit_burns_the_crew_with_a_hatch_open_else_nothing(cat):
    st, ctx = molotov_at(cat, FRONT, "e")
    stack(st, "US-1", "1-C1")  # Blast Hit, red: the hull from the front
    assert INC.fire_incendiary(ctx, 1, "molotov", PANZER) is None
    st, ctx = molotov_at(cat, FRONT, "e", unbuttoned=["commander"])
    stack(st, "US-1", "1-C1")
    assert INC.fire_incendiary(ctx, 1, "molotov", PANZER) == (Compartment.HULL, "crew")
    assert burned(ctx, [70, 71, 72, 73, 74]) == [73, 74]


def test_a_hull_rear_hit_sets_the_engine_on_fire(cat):
    st, ctx = molotov_at(cat, REAR, "w")
    stack(st, "US-1", "1-C4")  # Blast Hit, white: the hull from the rear
    assert INC.fire_incendiary(ctx, 1, "molotov", PANZER) == (Compartment.HULL, "engine")
    assert st.vehicles[PANZER].damage["engine"] == ["fire"]  # Fire, whatever the card's damage result (Zip)
    assert st.soldiers[1].spotted


def test_a_hull_side_hit_is_the_owners_choice_of_the_two(cat):
    st, ctx = molotov_at(cat, SIDE, "n")
    assert INC.start_location(st, PANZER, Compartment.HULL, Aspect.SIDE) is None  # buttoned: he picks nothing
    st.changing_vehicle(PANZER).unbuttoned = ["driver"]
    assert INC.start_location(st, PANZER, Compartment.HULL, Aspect.SIDE) == (Compartment.HULL, "engine")
    assert INC.start_location(st, PANZER, Compartment.HULL, Aspect.SIDE, "front") == (Compartment.HULL, "crew")
    stack(st, "US-1", "1-C2")  # Blast 2 Hits, yellow: the hull from the side
    assert INC.fire_incendiary(ctx, 1, "molotov", PANZER) == (Compartment.HULL, "engine")


def test_a_cabin_hit_burns_the_men_in_the_cabin(cat):
    st, ctx = molotov_at(cat, FRONT, "e")
    add_vehicle(st, cat, "test-halftrack", seat=1, tile="43A", crew={"commander": 5})
    st.changing_vehicle(903).spotted = True  # facing north: Avery, to its west, sees its side (red: the cabin)
    stack(st, "US-1", "1-C1")
    assert INC.fire_incendiary(ctx, 1, "molotov", 903) == (Compartment.CABIN, "crew")
    assert burned(ctx, [5]) == [5]


def test_no_blast_hit_no_fire(cat):
    st, ctx = molotov_at(cat, REAR, "w", unbuttoned=["driver"])
    stack(st, "US-1", "1-C3")
    assert INC.fire_incendiary(ctx, 1, "molotov", PANZER) is None
    assert st.vehicles[PANZER].damage == {}


def test_the_use_command_sends_an_incendiary_at_a_vehicle_here(cat):
    st, _ = molotov_at(cat, REAR, "w")
    st.changing(1).equipment = ["flamethrower"]
    stack(st, "US-1", "1-C4")
    from engine.advanced.equipment_use import use
    ctx = Ctx(st)
    use(ctx, 1, "flamethrower", PANZER, None)
    assert st.vehicles[PANZER].damage["engine"] == ["fire"]
    assert any(e.kind == "weapon_fired" and "Flamethrower" in e.text for e in ctx.events)
