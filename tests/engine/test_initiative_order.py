"""Initiative (core manual, Initiative; ruling 2) as the play sequence asks it: the order reads
soldiers only for forces tied on cards in hand, and asked among some forces it is the whole
order with the others left out (the next card part asks among the forces due only)."""
from __future__ import annotations

import pytest

from engine.core import initiative
from tests.engine.autoplay_kit import autoplayed


def by_the_rule(st) -> list[str]:
    """Most cards in hand; then the highest-VP soldier on the board; then the lowest dog tag on
    the board; then the force's id."""
    def key(fid: str) -> tuple:
        men = [s for s in st.soldiers.values()
               if s.controller == fid and s.captor is None and s.status in ("board", "aboard")]
        return (-len(st.forces[fid].hand), -max((st.vp_value(s.serial) for s in men), default=-1),
                min((s.serial for s in men), default=10**9), fid)
    return sorted(st.forces, key=key)


@pytest.mark.parametrize(("scenario", "seed"), [("tardieu-bombardment", 1), ("vautrin-crossroads", 2),
                                                ("hedgerow-dawn", 3)])
def test_the_order_is_the_rules_order_and_a_subset_keeps_it(shipped, scenario, seed):
    ties = 0
    for st in autoplayed(shipped, scenario, seed, 200):
        want = by_the_rule(st)
        assert initiative.order(st) == want
        some = want[1::2] + want[:1]
        assert initiative.order(st, some) == [f for f in want if f in some]
        hands = [len(f.hand) for f in st.forces.values()]
        ties += len(set(hands)) < len(hands)
    assert ties > 10  # the soldiers decided often enough to be checked
