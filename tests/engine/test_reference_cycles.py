"""The engine makes no reference cycles: everything a command and the option listing make is
freed by reference counting the moment it is dropped. The long-running processes rely on it to
run the cycle collector rarely (bot/startup.py); a cycle here would be garbage kept until then."""
from __future__ import annotations

import gc
from collections import Counter

import pytest

from engine import apply, legal_commands, new_game
from engine.agent import RandomAgent
from engine.turn.setup import SeatSpec

# infantry, vehicles, hidden deployment, the battlefield rules
SCENARIOS = ["hedgerow-dawn", "tardieu-bombardment", "night-orchard", "crossroads-roadblock"]


def _cyclic_garbage(play) -> Counter:
    """What `play()` left for the cycle collector, by type."""
    gc.collect()
    flags = gc.get_debug()
    gc.set_debug(gc.DEBUG_SAVEALL)  # a collection keeps what it finds in gc.garbage
    try:
        play()
        gc.collect()
        return Counter(getattr(o, "__qualname__", type(o).__name__) for o in gc.garbage)
    finally:
        gc.set_debug(flags)
        gc.garbage.clear()


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_a_whole_game_leaves_nothing_for_the_cycle_collector(shipped, scenario):
    sides = [s.id.value for s in shipped.scenario(scenario).sides]

    def play() -> None:
        st, _ = new_game(shipped, scenario, [SeatSpec(name="A", side=sides[0]), SeatSpec(name="B", side=sides[1])], 3)
        agent = RandomAgent(3)
        while st.step != "over":
            seat = agent.seat_to_act(st)
            legal_commands(st, seat)  # the listing a prompt is made from (the plans' search too)
            st, _ = apply(st, agent.choose(st, seat))

    play()  # once unwatched: what is built on first use (a command's schema, pydantic's own cycles) is built
    assert _cyclic_garbage(play) == Counter()  # the same game again


def test_the_check_finds_a_cycle():
    def play() -> None:
        knot: list = []
        knot.append(knot)

    assert _cyclic_garbage(play) == Counter({"list": 1})
