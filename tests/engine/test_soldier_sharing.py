"""The soldiers, forces and vehicles a state copy shares (engine/core/state.py `clone`, `changing`,
`changing_force`, `changing_vehicle`): a rule changes a soldier only through `GameState.changing`,
a force only through `GameState.changing_force` and a vehicle only through
`GameState.changing_vehicle`, so `apply` leaves the state it was given as it was, and reads the
copy it made its own, never the one it left behind."""
from __future__ import annotations

import importlib
import sys

import pytest

from engine import apply, new_game
from engine.agent import RandomAgent
from engine.core.content import Action
from engine.core.state import (
    ForceState,
    GameState,
    SharedForceError,
    SharedSoldierError,
    SharedVehicleError,
    SoldierState,
    VehicleState,
)
from engine.turn.setup import SeatSpec
from tests.engine.autoplay_kit import autoplayed, games, shipped_catalog
from tests.shared_forces import SharedForceChanged
from tests.state_json import SetupsKept, play_json

APPLY = importlib.import_module("engine.apply")  # the module: the package's `apply` is the function
STATE = importlib.import_module("engine.core.state")

# infantry, advanced rules, hidden deployment, vehicles with mines, artillery, a gun, close combat
GAMES = [("fixtures", "advanced-skirmish", 1), ("fixtures", "hidden-yard", 2), ("fixtures", "mined-motor", 3),
         ("fixtures", "teams-woods", 4), ("fixtures", "hazards-farm", 5), ("shipped", "tardieu-bombardment", 6),
         ("shipped", "mill-road-gun", 7), ("shipped", "crossroads-roadblock", 8)]
COMMANDS = 400
WHOLE_GAME = 5000  # commands: more than any autoplayed game takes
SEEDS = games(12, 3)  # seeds a scenario and player count in test_every_scenario_...


class _StaleRead(AssertionError):
    pass


def _stale(cls: type) -> type:
    """`cls` whose every attribute read but a dunder's raises: a replaced object is given it for
    the rest of the apply (`__class__` set, then set back), so the objects still in use pay nothing."""
    def getattribute(self, name: str):
        if not name.startswith("__"):
            raise _StaleRead(f"read of .{name} on a {cls.__name__} the state had replaced by its own copy")
        return object.__getattribute__(self, name)

    return type(cls.__name__, (cls,), {"__slots__": (), "__getattribute__": getattribute, "__module__": __name__})


_STALE = {cls: _stale(cls) for cls in (SoldierState, ForceState, VehicleState)}


@pytest.fixture
def stale_reads_refused(monkeypatch):
    """While apply's rules run, a soldier, force or vehicle object that `changing`
    (`changing_force`, `changing_vehicle`) replaced in the working state refuses every attribute
    read: a rule that kept it from before a change would read old values. apply's last step
    (note_asked) compares with the input state, which still holds it. (Each force and vehicle a
    clone shares refuses a change of its lists in place: tests/engine/conftest.py, tests/shared_forces.py.)"""
    replaced: list = []  # (object, its class) for each object replaced while armed
    armed = [False]
    real_own = STATE._own  # what changing, changing_force and changing_vehicle each call

    def own(items: dict, key, cls):
        before = items[key]
        after = real_own(items, key, cls)
        if armed[0] and after is not before:
            replaced.append((before, type(before)))
            object.__setattr__(before, "__class__", _STALE[type(before)])  # (past a shared one's refusal)
        return after

    def restore() -> None:
        armed[0] = False
        for item, kind in replaced:
            object.__setattr__(item, "__class__", kind)
        replaced.clear()

    def disarmed(before, after, cmd) -> None:
        restore()
        real_note_asked(before, after, cmd)

    real_note_asked = APPLY.note_asked
    monkeypatch.setattr(STATE, "_own", own)
    monkeypatch.setattr(APPLY, "note_asked", disarmed)

    def armed_apply(st, cmd):
        armed[0] = True
        try:
            return apply(st, cmd)
        finally:
            restore()

    return armed_apply


@pytest.mark.parametrize(("content", "scenario", "seed"), GAMES)
def test_apply_leaves_its_input_and_reads_no_soldier_or_force_it_replaced(request, stale_reads_refused, content,
                                                                            scenario, seed):
    catalog = request.getfixturevalue("cat" if content == "fixtures" else "shipped")

    setups = SetupsKept()  # the setup every state shares, checked once at the end (tests/state_json.py)

    def checked(st, cmd):
        before = play_json(setups.see(st))
        out = stale_reads_refused(st, cmd)
        assert play_json(st) == before, cmd
        return out

    for _ in autoplayed(catalog, scenario, seed, COMMANDS, checked):
        pass
    setups.check()


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("content", ["fixtures", "shipped"])
def test_every_scenario_played_whole_leaves_apply_its_input(request, stale_reads_refused, content, players):
    """Every scenario of both catalogues, whole games of two and three players on a few seeds,
    with the checks above: apply leaves its input's JSON as it was, reads no soldier, force or
    vehicle it replaced, and changes no shared force's or vehicle's list in place
    (tests/shared_forces.py, on for every engine test). The rules that change a force or a vehicle
    are many and scattered (a draw, a discard, a placement, a fight card; a move, a shot, a load,
    a damage chain, a fire...): each path a game takes is checked."""
    catalog = request.getfixturevalue("cat") if content == "fixtures" else shipped_catalog()
    setups = SetupsKept()
    played = 0

    def checked(st, cmd):
        nonlocal played
        played += 1
        before = play_json(setups.see(st))
        out = stale_reads_refused(st, cmd)
        assert play_json(st) == before, (scenario, seed, cmd)
        return out

    for scenario in sorted(catalog.scenarios):
        sides = [s.id.value for s in catalog.scenario(scenario).sides]
        for seed in range(SEEDS):
            seats = [SeatSpec(name=f"P{i + 1}", side=sides[i % 2]) for i in range(players)]
            st, _ = new_game(catalog, scenario, seats, seed)
            agent = RandomAgent(seed)
            for _ in range(WHOLE_GAME):
                if st.step == "over":
                    break
                st, _ = checked(st, agent.choose(st, agent.seat_to_act(st)))
            assert st.step == "over", (scenario, seed, players)
    setups.check()
    assert played > 1000 * SEEDS // 3


def _placed(cat) -> GameState:
    sides = [s.id.value for s in cat.scenario("range").sides]
    st, _ = new_game(cat, "range", [SeatSpec(name="A", side=sides[0]), SeatSpec(name="B", side=sides[1])], 3)
    return st


def test_a_shared_soldier_refuses_a_change_in_both_states(cat):
    st = _placed(cat)
    copy = st.clone()
    serial = next(iter(st.soldiers))
    assert copy.soldiers[serial] is st.soldiers[serial]
    for state in (st, copy):
        with pytest.raises(SharedSoldierError, match=str(serial)):
            state.soldiers[serial].pinned = True
        with pytest.raises(SharedSoldierError):
            state.soldiers[serial].step_down()


def test_changing_makes_him_the_states_own_once_and_leaves_the_other(cat):
    st = _placed(cat)
    before = st.model_dump_json()
    copy = st.clone()
    serial, other = list(st.soldiers)[:2]
    mine = copy.changing(serial)
    assert mine is not st.soldiers[serial] and copy.soldiers[serial] is mine
    assert copy.changing(serial) is mine  # his own already: no second copy
    mine.pinned = not mine.pinned
    mine.equipment.append("X")
    mine.deeds["shots"] = 9
    assert st.model_dump_json() == before
    assert copy.soldiers[other] is st.soldiers[other]  # the men it did not change stay shared
    assert mine.equipment is not st.soldiers[serial].equipment


def test_a_fresh_state_owns_its_soldiers(cat):
    st = GameState.model_validate_json(_placed(cat).model_dump_json())
    serial = next(iter(st.soldiers))
    assert st.changing(serial) is st.soldiers[serial]
    st.soldiers[serial].pinned = True


def test_a_shared_force_refuses_a_change_in_both_states_and_changing_force_makes_it_its_own(cat):
    st = _placed(cat)
    before = st.model_dump_json()
    copy = st.clone()
    fid, other = list(st.forces)[:2]
    assert copy.forces[fid] is st.forces[fid]
    for state in (st, copy):
        with pytest.raises(SharedForceError, match=fid):
            state.forces[fid].planned = True
    mine = copy.changing_force(fid)
    assert mine is not st.forces[fid] and copy.forces[fid] is mine and copy.changing_force(fid) is mine
    mine.deck.pop(0)
    mine.placed[1] = "X"
    mine.declared["X"] = Action.MOVE
    mine.planned = not mine.planned
    assert st.model_dump_json() == before
    assert copy.forces[other] is st.forces[other]
    fresh = GameState.model_validate_json(before)  # a state from validation owns its forces
    assert fresh.changing_force(fid) is fresh.forces[fid]


def _with_vehicles(cat) -> GameState:
    sides = [s.id.value for s in cat.scenario("mined-motor").sides]
    st, _ = new_game(cat, "mined-motor", [SeatSpec(name="A", side=sides[0]), SeatSpec(name="B", side=sides[1])], 3)
    return st


def test_a_shared_vehicle_refuses_a_change_in_both_states_and_changing_vehicle_makes_it_its_own(cat):
    st = _with_vehicles(cat)
    before = st.model_dump_json()
    copy = st.clone()
    plate, other = list(st.vehicles)[:2]
    assert copy.vehicles[plate] is st.vehicles[plate]
    for state in (st, copy):
        with pytest.raises(SharedVehicleError, match=str(plate)):
            state.vehicles[plate].pins = 1
    mine = copy.changing_vehicle(plate)
    assert mine is not st.vehicles[plate] and copy.vehicles[plate] is mine and copy.changing_vehicle(plate) is mine
    mine.pins += 1
    mine.crew.pop(next(iter(mine.crew)))
    mine.damage.setdefault("engine", []).append("fire")
    mine.damage["engine"].append("wreck")  # the damage markers' lists are the copy's own too
    mine.mine_load.append(["at", "at"])
    mine.mine_load[0].pop()
    mine.ready["AP"] = 9
    assert st.model_dump_json() == before
    assert copy.vehicles[other] is st.vehicles[other]
    fresh = GameState.model_validate_json(before)  # a state from validation owns its vehicles
    assert fresh.changing_vehicle(plate) is fresh.vehicles[plate]
    fresh.vehicles[plate].pins = 1


def test_a_vehicle_made_its_own_is_written_as_pydantic_writes_it_and_a_shared_one_with_the_kept_text(cat):
    """json_without_setup takes a shared vehicle's entry of the state copied from by identity,
    and a vehicle made its own, changed or not, is written as pydantic writes it."""
    st = _with_vehicles(cat)
    st.json_without_setup()
    copy = st.clone()
    plate, other = list(st.vehicles)[:2]
    copy.changing_vehicle(plate).damage["engine"] = ["fire"]
    copy.changing_vehicle(other)  # made its own, left as it was
    assert copy.json_without_setup() == copy.model_dump_json(exclude={"setup"})
    again = copy.clone()
    assert again.json_without_setup() == again.model_dump_json(exclude={"setup"}) == copy.json_without_setup()


def test_the_guard_catches_a_read_of_a_soldier_force_or_vehicle_the_state_replaced_and_lets_it_be_read_after(
        cat, stale_reads_refused, monkeypatch):
    """The check above is only as good as its trap: a rule that makes a soldier (a force, a
    vehicle) its own and then reads the object it held from before is stopped at that read, and
    once apply is over the object, still the input state's, reads as before."""
    st = _with_vehicles(cat)
    # each kind: where a state holds it, the method that makes one its own, and the one taken
    kinds = {SoldierState: ("soldiers", "changing"), ForceState: ("forces", "changing_force"),
             VehicleState: ("vehicles", "changing_vehicle")}
    keys = {cls: next(iter(getattr(st, items))) for cls, (items, _) in kinds.items()}
    held = {}

    def careless_rule(state, cls):
        work = state.clone()
        items, owning = kinds[cls]
        held[cls] = getattr(work, items)[keys[cls]]
        getattr(work, owning)(keys[cls])
        return getattr(held[cls], next(iter(cls.model_fields)))  # its first field: any read would do

    monkeypatch.setattr(sys.modules[__name__], "apply", careless_rule)
    for cls in (SoldierState, ForceState, VehicleState):
        first = next(iter(cls.model_fields))
        with pytest.raises(_StaleRead, match=f"read of .{first} on a {cls.__name__} the state had replaced"):
            stale_reads_refused(st, cls)
        kept = getattr(st, kinds[cls][0])[keys[cls]]
        assert held[cls] is kept and type(kept) is cls
        assert kept.model_dump() == held[cls].model_dump()


def test_a_shared_forces_lists_refuse_a_change_in_place_at_every_clone_and_its_own_copys_do_not(cat):
    """The other trap (tests/shared_forces.py, on for every engine test): a force's or vehicle's
    list changed in place while two states share it is stopped at that line, at the first clone
    and at every clone after it, which finds it guarded already; the state's own copy changes freely."""
    st = _with_vehicles(cat)
    force, plate = next(iter(st.forces)), next(iter(st.vehicles))
    first = st.clone()
    second = first.clone()
    third = second.clone()
    assert third.forces[force] is st.forces[force] and third.vehicles[plate] is st.vehicles[plate]
    for state in (st, first, second, third):
        with pytest.raises(SharedForceChanged):
            state.forces[force].deck.append("x")
        with pytest.raises(SharedForceChanged):
            state.forces[force].hand.pop()
        with pytest.raises(SharedForceChanged):
            state.vehicles[plate].riders.append(1)
    deck = list(st.forces[force].deck)
    mine = third.changing_force(force)
    mine.deck.append("x")
    assert mine.deck == [*deck, "x"] and st.forces[force].deck == deck
    third.changing_vehicle(plate).riders.append(1)
    assert st.vehicles[plate].riders == []
    with pytest.raises(SharedForceChanged):
        third.clone().forces[force].deck.append("y")  # shared again by the next clone
