"""Positions with vehicles (docs/position.md): a vehicle's plate, panel, seat, tile, facing,
turret, crew posts, hatches, damage, ammunition and markers, the crewmen's deck and posts, and
each deck's hand keyed by seat or plate, written out and read back without loss; a wrong entry
is refused naming the vehicle and the field."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from engine import SeatSpec, apply, load_catalog, new_game
from engine.agent import RandomAgent
from engine.core.commands import parse_command
from engine.core.errors import ContentError
from engine.position import dump_position, load_position
from tests.yaml_round_trip import through_yaml

DUEL = Path(__file__).resolve().parents[1] / "fixtures" / "positions" / "tank-duel.yaml"
SOLDIER_FIELDS = ("serial", "side", "force", "controller", "rank", "status", "at", "facing", "spotted", "pinned",
                  "wounded", "grenades", "medals", "equipment", "held", "captor", "vehicle", "post", "dismounted",
                  "spotted_by", "on_deck", "on_turret")


def duel() -> dict:
    return yaml.safe_load(DUEL.read_text(encoding="utf-8"))


def assert_same_units(a, b) -> None:
    assert a.vehicles == b.vehicles
    assert a.soldiers.keys() == b.soldiers.keys()
    for n in a.soldiers:
        for field in SOLDIER_FIELDS:
            assert getattr(a.soldiers[n], field) == getattr(b.soldiers[n], field), (n, field)
    for fid, f in a.forces.items():
        g = b.forces[fid]
        assert (f.kind, f.plate, f.seat, sorted(f.hand + [c for c in f.placed if c])) == \
            (g.kind, g.plate, g.seat, sorted(g.hand + [c for c in g.placed if c])), fid
    assert list(a.forces) == list(b.forces)  # squad then vehicles, seat by seat, as new_game


def test_the_duel_loads_each_tank_as_a_deck_with_its_crew_aboard(cat):
    st, _ = load_position(cat, duel())
    assert list(st.forces) == ["US-1", "US-1-901", "DE-2", "DE-2-902"]
    tank = st.vehicles[901]
    assert (tank.vehicle, tank.side, tank.force, tank.status, tank.tile, tank.facing, tank.turret) == \
        ("test-sherman", "US", "US-1-901", "board", "42A", "e", "e")
    assert tank.ready == {"AP": 6, "HE": 4} and tank.in_breach == ["AP"] and st.vehicles[902].spotted
    abbott = st.soldiers[60]
    assert (abbott.status, abbott.vehicle, abbott.post, abbott.force) == ("aboard", 901, "commander", "US-1-901")
    assert st.forces["US-1-901"].hand == ["901-V1", "901-V2", "60-C3"]
    deck = set(st.forces["US-1-901"].deck) | set(st.forces["US-1-901"].hand)
    assert {"901-V5", "901-T1", "61-C1"} <= deck and not deck & set(st.forces["US-1"].deck)
    assert st.step == "place" and not any(f.planned for f in st.forces.values())


def test_a_position_with_vehicles_is_written_and_read_back_losslessly(cat):
    st, _ = load_position(cat, duel())
    st, _ = apply(st, parse_command("plan 1-C1 1-C3 1-C2", seat=0))  # placed cards go back to the hand
    written = through_yaml(dump_position(st))
    assert written["hands"][901] == ["901-V1", "901-V2", "60-C3"] and written["hands"][0] == ["1-C1", "1-C3", "1-C2"]
    assert written["vehicles"][0] == {
        "plate": 901, "vehicle": "test-sherman", "seat": 0, "status": "board", "tile": "42A", "facing": "e",
        "turret": "e", "crew": {"commander": 60, "gunner": 61, "loader": 62, "driver": 63, "co_driver": 64},
        "in_breach": ["AP"], "ready": {"AP": 6, "HE": 4}}
    again, _ = load_position(cat, written)
    assert_same_units(st, again)
    assert through_yaml(dump_position(again))["vehicles"] == written["vehicles"]


@pytest.mark.parametrize("scenario, seed", [("vautrin-crossroads", 1), ("chapel-gun", 2), ("mill-road-gun", 3),
                                            ("vautrin-pair", 1)])  # two Shermans: plates 601 and 1601
def test_a_played_vehicle_game_round_trips_through_its_position(scenario, seed):
    cat = load_catalog()
    sides = [s.id for s in cat.scenarios[scenario].sides]
    st, _ = new_game(cat, scenario, [SeatSpec(name=f"P{i}", side=s) for i, s in enumerate(sides)], seed)
    agent = RandomAgent(seed)
    while not (st.step == "place" and st.turn >= 3 and not any(f.planned for f in st.forces.values())):
        assert st.step != "over"
        st, _ = apply(st, agent.choose(st, agent.seat_to_act(st)))
    written = through_yaml(dump_position(st))
    again, _ = load_position(cat, written)
    assert_same_units(st, again)
    assert through_yaml(dump_position(again))["vehicles"] == written["vehicles"]
    assert through_yaml(dump_position(again))["soldiers"] == written["soldiers"]


@pytest.mark.parametrize("change, message", [
    (lambda d: d["vehicles"][0].update(tile="99Z"), "vehicle 901 (Test Sherman): tile 99Z is not on the map"),
    (lambda d: d["vehicles"][0]["crew"].update(bow=64), "no crew position 'bow'"),
    (lambda d: d["vehicles"][0].update(seat=1), "vehicle 901 (Test Sherman) is US, but seat 1 plays DE"),
    (lambda d: d["vehicles"][0].update(ready={"WP": 2}), "it fires no WP rounds"),
    (lambda d: d["vehicles"][0].update(plate=950), "vehicle 950: no vehicle has this plate"),
    (lambda d: d["vehicles"][0].update(plate=1902, vehicle="test-sherman"), "vehicle 1902: a Test Sherman's plate is 901, 1901, 2901"),
    (lambda d: d["vehicles"][1].update(plate=901), "vehicles: two vehicles have the same plate"),
    (lambda d: d["hands"].update({901: ["1-C4"]}), "hands: 1-C4 is not a card of deck US-1-901"),
    (lambda d: d["hands"].update({903: ["903-V1"]}), "hands: 903 is neither a seat nor a vehicle's plate"),
    (lambda d: d["soldiers"][2].update(crew_of=902), "crew_of 902 belongs to another seat"),
])
def test_a_wrong_vehicle_entry_is_refused_naming_it(cat, change, message):
    data = duel()
    change(data)
    with pytest.raises(ContentError, match="position: .*" + message.replace("(", r"\(").replace(")", r"\)")):
        load_position(cat, data)


def test_a_second_vehicle_of_a_type_loads_under_its_own_plate_with_its_own_cards(cat):
    """A plate per vehicle (docs/vehicles.md, Plates): 1901 is a second Test Sherman, known by its
    plate alone, with copies of the type's cards (1901-V1 ...) in its own deck and its own crew."""
    data = duel()
    data["vehicles"].append({"plate": 1901, "seat": 0, "tile": "41A", "facing": "e",
                             "crew": {"commander": 2, "driver": 3}})  # riflemen, untrained
    data["soldiers"] += [{"serial": 2, "seat": 0}, {"serial": 3, "seat": 0}]
    data["hands"][1901] = ["1901-V1", "1901-V2", "2-C1"]
    st, _ = load_position(cat, data)
    assert list(st.forces) == ["US-1", "US-1-901", "US-1-1901", "DE-2", "DE-2-902"]
    assert st.vehicles[1901].vehicle == "test-sherman" and st.vehicles[1901].crew == {"commander": 2, "driver": 3}
    assert (st.soldiers[2].vehicle, st.soldiers[2].force) == (1901, "US-1-1901")
    mine = set(st.forces["US-1-1901"].deck + st.forces["US-1-1901"].hand)
    assert "1901-V5" in mine and not any(c.startswith("901-") for c in mine)
    assert st.card("1901-V5").owner == 1901 and st.card("901-V5").owner == 901
    written = through_yaml(dump_position(st))
    again, _ = load_position(cat, written)
    assert_same_units(st, again)
