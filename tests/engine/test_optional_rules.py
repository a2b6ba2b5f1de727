"""The vehicle book's optional rules as scenario toggles (Hell on Wheels, Optional Rules): Schurzen,
Ammo Loadouts and SMG-style vehicle movement, each on and off. (Trained Snipers, Shooting in Combat
Contact and Fight Buttoned-Up belong to the close-combat rules.)"""
from __future__ import annotations

import pytest

from engine.core.content import ForceEntry, ScenarioOptions, VehicleEntry
from engine.core.errors import RuleError
from engine.core.log import Ctx
from engine.turn.setup import SeatSpec, new_game
from engine.vehicles import move as VM
from engine.vehicles.damage import resolve_vehicle_hit
from tests.engine.test_vehicle_damage import PANZER_CREW, tank_duel
from tests.engine.test_vehicles import SHERMAN, motor, panzer, sherman

PANZER = 902


def with_options(st, **opts):
    sc = st.setup.scenario
    st.setup = st.setup.model_copy(update={"scenario": sc.model_copy(update={
        "options": sc.options.model_copy(update=opts)})})
    return st


# --------------------------------------------------------------------------- Schurzen


@pytest.mark.parametrize("schurzen, armour, through", [(True, 6, 3), (False, 3, 6)])
def test_schurzen_double_the_side_armour_against_heat_only_while_the_rule_is_on(cat, schurzen, armour, through):
    # a HEAT round (+8) from the Sherman: card 60-C3 reads a Long Hit, blue, on the Panzer's side: its
    # hull, side armour 3 behind the skirts: 1 + 8 - 6 = 3 with Schurzen, 1 + 8 - 3 = 6 without
    st, ctx = tank_duel(cat)
    with_options(st, schurzen=schurzen)
    out = resolve_vehicle_hit(ctx, PANZER, card_id="60-C3", bands=["long"], band="long", aspect="side",
                              pen=8, blast_checks=0, heat=True, by_force="V901")
    assert out.compartment.value == "hull" and (out.armour, out.penetrating) == (armour, through)


def test_schurzen_is_on_unless_a_scenario_switches_it_off():
    assert ScenarioOptions().schurzen and not ScenarioOptions().ammo_loadouts
    assert not ScenarioOptions().smg_vehicle_movement


# --------------------------------------------------------------------------- Ammo Loadouts


def seats(vehicle: VehicleEntry):
    return [SeatSpec(name="Ann", side="US", force=[ForceEntry(serial=1)], vehicles=[]),
            SeatSpec(name="Bo", side="DE", force=[ForceEntry(serial=4)], vehicles=[vehicle])]


def test_ammo_loadouts_cap_the_rounds_other_than_he_and_ap_at_12_vp(cat):
    # seven two-part shells at 2 VP are 14 VP of special rounds; the fixture Panzer takes at most 4
    sc = cat.scenario("motor")
    heavy = VehicleEntry(vehicle="test-panzer", crew=PANZER_CREW, tile="44A", facing="w",
                         ammo={"AP": 10, "HE": 10, "SEP": 4})
    from engine.vehicles import setup as vehicle_setup
    assert vehicle_setup.other_rounds_vp(cat, heavy) == 8
    vehicle_setup.check_loadout(cat, sc.model_copy(update={"options": ScenarioOptions(ammo_loadouts=True,
                                                                                       other_ammo_vp=8)}), heavy)
    with pytest.raises(RuleError, match="8 VP of rounds other than HE and AP.*allow 6 VP"):
        vehicle_setup.check_loadout(cat, sc.model_copy(update={"options": ScenarioOptions(
            ammo_loadouts=True, other_ammo_vp=6)}), heavy)
    vehicle_setup.check_loadout(cat, sc, heavy)  # the rule off: anything goes


def test_ammo_loadouts_are_checked_at_force_selection(cat, monkeypatch):
    sc = cat.scenario("motor")
    strict = sc.model_copy(update={"options": ScenarioOptions(ammo_loadouts=True, other_ammo_vp=6)})
    monkeypatch.setattr(type(cat), "scenario", lambda self, sid: strict if sid == "motor" else sc)
    heavy = VehicleEntry(vehicle="test-panzer", crew=PANZER_CREW, tile="44A", facing="w", ammo={"AP": 2, "SEP": 4})
    with pytest.raises(RuleError, match="other than HE and AP"):
        new_game(cat, "motor", seats(heavy), 1)
    light = VehicleEntry(vehicle="test-panzer", crew=PANZER_CREW, tile="44A", facing="w", ammo={"AP": 2, "SEP": 3})
    st, _ = new_game(cat, "motor", seats(light), 1)
    assert st.vehicles[PANZER].ready["SEP"] == 3


# --------------------------------------------------------------------------- SMG-style movement


def test_smg_movement_off_counts_squares(cat):
    st = motor(cat, us=[sherman("45A", facing="e")], de=[panzer("48A")])
    assert VM.allowance(st, SHERMAN, False) == 1 and VM.allowance(st, SHERMAN, True) == 3
    assert "46A" not in VM.destinations(st, SHERMAN)  # the thicket's -1: two squares to leave


def test_smg_movement_a_move_plus_plus_carries_up_to_2_inches_too(cat):
    # Turning (SMG movement): a Move+ or a Move++ marker carries up to 2 inches to the next MOVE
    st = with_options(motor(cat, us=[sherman("45A", facing="e")], de=[panzer("48A")]), smg_vehicle_movement=True)
    ctx = Ctx(st)
    VM.move_plus(ctx, SHERMAN, SHERMAN, double=True)
    assert st.vehicles[SHERMAN].move_plus == 2 and VM.allowance(st, SHERMAN, False) == 7
    assert "a Move++ marker" in ctx.events[-1].text


def test_smg_movement_the_sherman_example(cat):
    # a Sherman (Open 1, Road 3) moves 5" in the open, 15" on the road; out of a -1 square only 4":
    # short of the next square, it carries 2" over with a Move+ and goes on the next MOVE
    st = with_options(motor(cat, us=[sherman("45A", facing="e")], de=[panzer("48A")]), smg_vehicle_movement=True)
    ctx = Ctx(st)
    assert VM.allowance(st, SHERMAN, False) == 5 and VM.allowance(st, SHERMAN, True) == 15
    assert VM.first_step_cost(st, "45A", "46A") == 6 and "46A" not in VM.destinations(st, SHERMAN)
    VM.move_plus(ctx, SHERMAN, SHERMAN)
    with pytest.raises(RuleError, match="carries 2 inches over already"):
        VM.move_plus(ctx, SHERMAN, SHERMAN)
    with pytest.raises(RuleError, match="carries 2 inches over already"):
        VM.move_plus(ctx, SHERMAN, SHERMAN, double=True)
    assert VM.allowance(st, SHERMAN, False) == 7 and "46A" in VM.destinations(st, SHERMAN)
    st.changing_vehicle(SHERMAN).move_plus = 0
    st.changing_vehicle(SHERMAN).tile = "41A"
    # on open ground the modifier of the start only: 5" is one square
    assert set(VM.destinations(st, SHERMAN)) == {"42A", "46A"}  # ahead: east, north-east, south-east
    st.changing_vehicle(SHERMAN).tile = "42A"
    assert set(VM.destinations(st, SHERMAN, road=True)) == {"43A", "44A"}  # 15": the lane ends at 44A
