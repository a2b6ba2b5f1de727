"""A phase's end reads who stands free in each tile once (`close_combat.free_by_tile`) and asks
every vehicle and every chosen attack from it (issue 17: the fights set up at a phase's end).
It must find what reading every soldier for each vehicle finds: the same enemies in each
vehicle's tile, the same attackers at each opening, the same fights due and the same choices
forgotten."""
from __future__ import annotations

from engine.battlefield import close_combat as cc
from tests.engine.autoplay_kit import vehicle_states
from tests.state_json import SetupsKept, play_json


def _due_one_by_one(st) -> list[tuple[int, str]]:
    """close_combat.due as it was written: every soldier read again for each vehicle and attack."""
    cc.tidy(st)
    return [(plate, part) for plate in sorted(st.vehicles)
            for part, men in cc.assignments(st, plate).items() if men]


def test_the_tiles_read_once_find_every_vehicles_enemies_attackers_and_fights_as_reading_each_soldier():
    seen = {"states": 0, "enemies": 0, "attackers": 0, "assaults": 0}
    setups = SetupsKept()  # the setup both copies share, dumped once and checked at the end
    for st in vehicle_states(3, 150):
        seen["states"] += 1
        setups.see(st)
        by_tile = cc.free_by_tile(st)
        for plate in st.vehicles:
            enemies = cc.enemies_in_tile(st, plate)
            assert cc.enemies_in_tile(st, plate, by_tile) == enemies
            seen["enemies"] += bool(enemies)
            attackers = cc.assignments(st, plate)
            assert cc.assignments(st, plate, by_tile) == attackers
            seen["attackers"] += bool(attackers)
        seen["assaults"] += bool(st.assaults)
        quick, slow = st.clone(), st.clone()
        assert cc.due(quick) == _due_one_by_one(slow)
        assert quick.assaults == slow.assaults
        assert quick.setup is slow.setup
        assert play_json(quick) == play_json(slow)
    setups.check()
    # the games reach what is compared: men in an enemy vehicle's tile, attackers, chosen attacks
    assert (seen["states"] > 1000 and seen["enemies"] > 50 and seen["attackers"] > 20
            and seen["assaults"] > 20), seen
