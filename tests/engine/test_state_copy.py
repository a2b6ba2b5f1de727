"""`GameState.clone`, the working copy apply makes: equal to the dump and validate round trip it
replaced (so replays and stored JSON do not change), and sharing nothing a rule may change
without first making it its own: the soldiers, the forces and the vehicles are shared read-only
until `changing` (`changing_force`, `changing_vehicle`) copies one (tests/engine/test_soldier_sharing.py
holds the rules to that)."""
from __future__ import annotations

import pytest
from pydantic import BaseModel

from engine import apply, new_game
from engine.agent import RandomAgent
from engine.core.state import (
    GameState,
    SharedForceError,
    SharedSoldierError,
    SharedVehicleError,
)
from engine.turn.setup import SeatSpec
from tests.state_json import play_json

# fixture games with the advanced rules' state (teams, preempts, equipment) and with vehicles
# and mines, and the shipped vehicle scenario with artillery
GAMES = [("fixtures", "advanced-skirmish"), ("fixtures", "mined-motor"), ("shipped", "tardieu-bombardment")]
COMMANDS = 120


def _round_trip(st: GameState) -> GameState:
    return GameState.model_validate({**st.model_dump(exclude={"setup"}), "setup": st.setup})


def _mutable_ids_in(value) -> set[int]:
    """The ids of every list, dict and unfrozen model inside a value, itself included."""
    out: set[int] = set()

    def walk(value) -> None:
        if isinstance(value, list | dict):
            out.add(id(value))
            for v in value.values() if isinstance(value, dict) else value:
                walk(v)
        elif isinstance(value, BaseModel) and not value.model_config.get("frozen"):
            out.add(id(value))
            for v in value.__dict__.values():
                walk(v)

    walk(value)
    return out


def _mutable_ids(st: GameState) -> set[int]:
    """The ids of every list, dict and unfrozen model inside a state, its setup and the
    SoldierState, ForceState and VehicleState objects in its soldiers, forces and vehicles dicts
    left out (the dicts themselves count)."""
    out = {id(st.soldiers), id(st.forces), id(st.vehicles)}
    for name, value in st.__dict__.items():
        if name not in ("setup", "soldiers", "forces", "vehicles"):
            out |= _mutable_ids_in(value)
    return out


def _states(catalog, scenario: str):
    sides = [s.id.value for s in catalog.scenario(scenario).sides]
    st, _ = new_game(catalog, scenario, [SeatSpec(name="A", side=sides[0]), SeatSpec(name="B", side=sides[1])], 3)
    agent = RandomAgent(3)
    yield st
    for _ in range(COMMANDS):
        if st.step == "over":
            return
        st, _ = apply(st, agent.choose(st, agent.seat_to_act(st)))
        yield st


@pytest.mark.parametrize(("content", "scenario"), GAMES)
def test_copy_equals_the_validated_round_trip_along_a_game(request, content, scenario):
    catalog = request.getfixturevalue("cat" if content == "fixtures" else "shipped")
    for st in _states(catalog, scenario):
        copy = st.clone()
        assert copy == _round_trip(st)  # same values of the same types, field by field
        assert copy.setup is st.setup
        assert play_json(copy) == play_json(st)  # and the setup they share is one object
        for serial in list(copy.soldiers):  # a soldier made the copy's own is equal to him too
            copy.changing(serial)
        for fid in list(copy.forces):  # ... and a force
            copy.changing_force(fid)
        for plate in list(copy.vehicles):  # ... and a vehicle
            copy.changing_vehicle(plate)
        assert copy == _round_trip(st)


@pytest.mark.parametrize(("content", "scenario"), GAMES)
def test_copy_shares_only_soldiers_forces_and_vehicles_that_refuse_a_change(request, content, scenario):
    """Nothing mutable is shared but the SoldierState, ForceState and VehicleState objects (their
    dicts are the copy's own), and each shared one refuses an assignment; made the copy's own, it
    shares nothing either."""
    catalog = request.getfixturevalue("cat" if content == "fixtures" else "shipped")
    for st in _states(catalog, scenario):
        copy = st.clone()
        assert not _mutable_ids(st) & _mutable_ids(copy)
        for serial, s in copy.soldiers.items():
            assert s is st.soldiers[serial]
            with pytest.raises(SharedSoldierError):
                s.kills = s.kills
        serial = next(iter(copy.soldiers))
        own = copy.changing(serial)
        assert not _mutable_ids_in(own) & _mutable_ids_in(st.soldiers[serial])
        for fid, f in copy.forces.items():
            assert f is st.forces[fid]
            with pytest.raises(SharedForceError, match=fid):
                f.planned = f.planned
        fid = next(iter(copy.forces))
        mine = copy.changing_force(fid)
        assert mine == st.forces[fid] and copy.changing_force(fid) is mine
        assert not _mutable_ids_in(mine) & _mutable_ids_in(st.forces[fid])
        for plate, v in copy.vehicles.items():
            assert v is st.vehicles[plate]
            with pytest.raises(SharedVehicleError, match=str(plate)):
                v.pins = v.pins
        for plate in copy.vehicles:
            ours = copy.changing_vehicle(plate)
            assert ours == st.vehicles[plate] and copy.changing_vehicle(plate) is ours
            assert not _mutable_ids_in(ours) & _mutable_ids_in(st.vehicles[plate])


def test_changing_the_copy_leaves_the_original(cat):
    st = next(s for s in _states(cat, "range") if s.step == "place")
    before = st.model_dump_json()
    copy = st.clone()
    force = copy.changing_force(next(iter(copy.forces)))
    force.hand.append("X")
    force.hand.reverse()
    soldier = copy.changing(next(iter(copy.soldiers)))
    soldier.pinned = not soldier.pinned
    soldier.deeds["shots"] = 99
    copy.story_deck.clear()
    assert st.model_dump_json() == before
