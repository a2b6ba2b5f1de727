"""The play sequence's "is there anything to do?" (`action_options(..., probe=True)`): it finds
an option exactly when the full listing has one, and what it finds is one of the listing's."""
from __future__ import annotations

import pytest

from engine import apply, new_game
from engine.agent import RandomAgent
from engine.legal import action_options
from engine.vehicles import legal as vehicle_legal
from engine.turn.setup import SeatSpec

GAMES = [("fixtures", "advanced-skirmish"), ("fixtures", "mined-motor"), ("shipped", "tardieu-bombardment")]
COMMANDS = 150


@pytest.mark.parametrize(("content", "scenario"), GAMES)
def test_the_probe_agrees_with_the_full_listing(request, content, scenario):
    catalog = request.getfixturevalue("cat" if content == "fixtures" else "shipped")
    sides = [s.id.value for s in catalog.scenario(scenario).sides]
    st, _ = new_game(catalog, scenario, [SeatSpec(name="A", side=sides[0]), SeatSpec(name="B", side=sides[1])], 5)
    agent = RandomAgent(5)
    asked = 0
    for _ in range(COMMANDS):
        if st.step == "over":
            break
        for force in st.forces if st.active is not None else ():
            full = list(action_options(st, force))
            first = next(iter(action_options(st, force, probe=True)), None)
            assert (first is None) == (not full)
            assert first is None or first in full
            asked += 1
        st, _ = apply(st, agent.choose(st, agent.seat_to_act(st)))
    assert asked > 20


VEHICLE_GAMES = [("fixtures", "mined-motor"), ("shipped", "tardieu-bombardment"), ("shipped", "mill-road-gun")]


@pytest.mark.parametrize(("content", "scenario"), VEHICLE_GAMES)
def test_a_vehicle_probe_agrees_with_its_full_listing_for_every_plate_and_man_aboard(request, content, scenario):
    """The vehicle listings ask their cheap parts first when probing: for each plate and each
    man aboard, on every part of the card, the probe still finds an option exactly when the
    listing has one, and one of the listing's."""
    catalog = request.getfixturevalue("cat" if content == "fixtures" else "shipped")
    sides = [s.id.value for s in catalog.scenario(scenario).sides]
    st, _ = new_game(catalog, scenario, [SeatSpec(name="A", side=sides[0]), SeatSpec(name="B", side=sides[1])], 3)
    agent = RandomAgent(3)
    found = {True: 0, False: 0}
    for _ in range(COMMANDS):
        if st.step == "over":
            break
        a = st.active
        if a is not None:
            seat = st.forces[a.force].seat
            for kind in {src.kind for src in a.sources if src.state != "closed"}:
                for m in vehicle_legal.actors(st, a.force):
                    options = vehicle_legal.plate_options if m in st.vehicles else vehicle_legal.aboard_options
                    full = list(options(st, a, kind, m, seat))
                    first = next(options(st, a, kind, m, seat, probe=True), None)
                    assert (first is None) == (not full), (kind, m, full)
                    assert first is None or first in full
                    found[first is not None] += 1
        st, _ = apply(st, agent.choose(st, agent.seat_to_act(st)))
    assert found[True] > 10 and found[False] > 10, found
