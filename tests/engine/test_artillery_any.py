"""`artillery.has_any`, which prompts ask instead of building a private view: true exactly
when the seat's private view lists ordnance, artillery calls or barrages."""
from __future__ import annotations

from engine import apply, new_game, private_view
from engine.agent import RandomAgent
from engine.battlefield import artillery
from engine.turn.setup import SeatSpec


def test_has_any_is_what_the_private_view_lists(shipped):
    seen = set()
    for scenario, seed in (("tardieu-bombardment", 1), ("tardieu-bombardment", 2), ("hedgerow-dawn", 1)):
        sides = [s.id.value for s in shipped.scenario(scenario).sides]
        st, _ = new_game(shipped, scenario,
                         [SeatSpec(name="A", side=sides[0]), SeatSpec(name="B", side=sides[1])], seed)
        agent = RandomAgent(seed)
        for _ in range(120):
            if st.step == "over":
                break
            for seat in range(len(st.seats)):
                mine = private_view(st, seat)
                listed = bool(mine.ordnance or mine.artillery or mine.barrages)
                assert artillery.has_any(st, seat) == listed
                seen.add(listed)
            st, _ = apply(st, agent.choose(st, agent.seat_to_act(st)))
    assert seen == {True, False}
