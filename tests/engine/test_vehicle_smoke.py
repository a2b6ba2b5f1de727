"""Vehicle smoke (Hell on Wheels, Pop Smoke; Smoke Generators; Play Sequence step 4): who may pop
smoke, the 2x marker and the automatic take cover traced against each enemy vehicle, smoke
generators and smoke pots laying smoke in each new tile, and smoke dissipating after the events.

The 'motor' map (tests/engine/test_vehicles.py): 41A gate, 42A-44A a lane, 45A thicket (HIDE -3)
below 41A, 49A a farmhouse two rows further down."""
from __future__ import annotations

import pytest

from engine.apply import apply
from engine.core import commands as C
from engine.core.errors import RuleError
from engine.core.log import Ctx
from engine.legal import legal_commands
from engine.position import load_position
from engine.vehicles import move as VM
from engine.vehicles import smoke as VSm
from tests.engine.conftest import two_players
from tests.engine.test_vehicle_damage import add_vehicle
from tests.engine.test_vehicles import (
    PANZER,
    SHERMAN,
    at_work,
    card_of,
    fid_of,
    halftrack,
    motor,
    panzer,
    sherman,
)

HALFTRACK = 903


def patch_def(st, plate, **changes):
    """Give one vehicle a variant panel (a gun, a smoke generator, a bulky hull)."""
    vid = st.vehicles[plate].vehicle
    st.setup = st.setup.model_copy(update={
        "vehicles": {**st.setup.vehicles, vid: st.setup.vehicles[vid].model_copy(update=changes)}})


def test_a_tank_pops_smoke_through_its_gunner_commander_or_a_hatch(cat):
    st = motor(cat, us=[sherman("41A")], de=[panzer("44A")])
    assert VSm.can_pop(st, SHERMAN)  # a tank carries tank riders
    assert VSm.popper(st, SHERMAN, SHERMAN) == 61  # the license plate: the gunner first
    assert VSm.popper(st, SHERMAN, 60) == 60  # the commander
    assert VSm.popper(st, SHERMAN, 63) == 63  # the driver sits under a hatch
    del st.vehicles[SHERMAN].crew["gunner"]
    st.changing(61).post = None
    assert VSm.popper(st, SHERMAN, SHERMAN) == 60  # no gunner: the commander


def test_a_position_without_a_hatch_and_a_gun_cannot_pop_smoke(cat):
    st = motor(cat, us=[sherman("41A"), halftrack("53A")], de=[panzer("44A")])
    ht = st.vehicles[HALFTRACK]
    ht.crew = {"driver": 63}
    st.changing(63).post, st.changing(63).vehicle = "driver", HALFTRACK
    assert VSm.can_pop(st, HALFTRACK)  # a half-track carries a team
    with pytest.raises(RuleError, match="gunner's, the commander's or a position with a hatch"):
        VSm.popper(st, HALFTRACK, 63)
    patch_def(st, SHERMAN, kind="gun", riders=0)
    assert not VSm.can_pop(st, SHERMAN)
    assert "cannot pop smoke" in VSm.pop_problem(st, SHERMAN)
    patch_def(st, SHERMAN, kind="gun", riders=0, smoke_generator=True)
    assert VSm.pop_problem(st, SHERMAN) is None  # a smoke generator is the exception


def test_popping_smoke_lays_2x_smoke_and_takes_cover_at_hide_minus_3(cat):
    st = motor(cat, us=[sherman("41A")], de=[panzer("49A")])
    ctx = Ctx(st)
    v = st.vehicles[SHERMAN]
    v.spotted, v.spotted_by = True, [PANZER]
    VSm.pop_smoke(ctx, SHERMAN)
    assert [(m.tile, m.density) for m in st.smoke] == [("41A", 2)]
    # open 41A counts 0 x 2 - 3 = -3, the thicket on the way -3 x 2: -2 - 3 - 6 = -11 against the Panzer
    assert VSm.cover_value(st, SHERMAN, PANZER) == -11
    assert not v.spotted and v.spotted_by == []
    assert any(e.kind == "popsmoke" and "41A" in e.text for e in ctx.events)


def test_the_take_cover_is_traced_separately_for_each_enemy_vehicle(cat):
    # a bulky hull (HIDE +4): against the Panzer in 49A the smoked thicket hides it (4 - 3 - 6 = -5),
    # against the half-track down the lane in 43A only its own tile's -3 counts (4 - 3 = +1)
    st = motor(cat, us=[sherman("41A")], de=[panzer("49A")], de_men=(4,))
    add_vehicle(st, cat, "test-halftrack", seat=1, tile="43A", crew={})
    patch_def(st, SHERMAN, hide=4)
    ctx = Ctx(st)
    v = st.vehicles[SHERMAN]
    v.spotted, v.spotted_by = True, [PANZER, HALFTRACK]
    st.changing(4).at = (7, 17)  # the German rifleman beside the farmhouse, past the thicket
    VSm.pop_smoke(ctx, SHERMAN)
    assert VSm.cover_value(st, SHERMAN, PANZER) == -5
    assert VSm.cover_value(st, SHERMAN, HALFTRACK) == 1
    assert v.spotted_by == [HALFTRACK]  # the Panzer's own marker goes, the half-track's stays
    assert not v.spotted  # the general marker: the nearest enemy soldier looks through the thicket


def test_pop_smoke_is_listed_for_a_shoot_card_and_accepted(cat):
    st = motor(cat, us=[sherman("41A")], de=[panzer("44A")])
    fid = fid_of(st, SHERMAN)
    cid = card_of(st, fid, owner=SHERMAN, action="shoot", team=[])
    at_work(st, fid, cid, "shoot")
    cmds = [c for c in legal_commands(st, 0) if isinstance(c, C.PopSmokeCmd)]
    assert cmds and all(c.serial in (SHERMAN, 60, 61, 62, 63, 64) for c in cmds)
    st2, events = apply(st, next(c for c in cmds if c.serial == SHERMAN))
    assert st2.smoke_map() == {"41A": 2}
    assert any(e.kind == "popsmoke" for e in events)
    assert C.parse_command(" ".join(cmds[0].words()), 0) == cmds[0]


def test_a_smoke_generator_lays_smoke_in_each_new_tile(cat):
    st = motor(cat, us=[sherman("41A", facing="e")], de=[panzer("48A")])
    patch_def(st, SHERMAN, smoke_generator=True, open_move=2)
    ctx = Ctx(st)
    VSm.pop_smoke(ctx, SHERMAN)
    VM.vmove(ctx, SHERMAN, SHERMAN, "43A")
    assert st.smoke_map() == {"41A": 2, "42A": 2, "43A": 2}
    assert [e.data["tile"] for e in ctx.events if e.kind == "smoke_trail"] == ["42A", "43A"]
    st.turn += 1  # the generator lays smoke for the turn it was popped
    VM.vmove(ctx, SHERMAN, SHERMAN, "44A")
    assert "44A" not in st.smoke_map()


def test_a_smoke_pot_aboard_lets_the_vehicle_lay_smoke_and_is_used_up(cat):
    st = motor(cat, us=[sherman("41A", facing="e")], de=[panzer("48A")], us_men=(1,))
    s = st.soldiers[1]
    s.status, s.vehicle, s.post, s.at = "aboard", SHERMAN, "deck", None
    st.changing_vehicle(SHERMAN).riders.append(1)
    s.equipment.append("smoke-pot")
    st.setup = st.setup.model_copy(update={"equipment": {**st.setup.equipment,
                                                         "smoke-pot": cat.equipment["smoke-pot"]}})
    ctx = Ctx(st)
    VSm.pop_smoke(ctx, SHERMAN)
    assert "smoke-pot" not in s.equipment  # lit and spent
    VM.vmove(ctx, SHERMAN, SHERMAN, "42A")
    assert st.smoke_map() == {"41A": 2, "42A": 2}


def test_smoke_dissipation_is_decided_after_the_random_events(cat):
    # turn 2: phase cards green, green, tan; the weather trigger makes "Burning hay" lay fresh smoke
    # on 25A (step 3). Then step 4: last turn's smoke on 24A will go after phase 3; 25A's is new.
    st, events = load_position(cat, {
        "scenario": "range", "players": two_players(), "seed": 1, "turn": 1, "smoke": {"24A": 2, "25A": 2},
        "story_top": ["TR-WX", "EV-SMOKE", "S10"],
        "soldiers": [{"serial": 1, "seat": 0, "at": [2, 2]}, {"serial": 4, "seat": 1, "at": [32, 2]}]})
    assert {m.tile: m.clears_after for m in st.smoke} == {"24A": 3, "25A": None}
    kinds = [e.kind for e in events]
    assert kinds.index("smoke") < kinds.index("smoke_thins")  # the event first, then the dissipation step
    assert [e.data["tile"] for e in events if e.kind == "smoke_thins"] == ["24A"]
