"""The walk's start cells for a man entering the board are kept per setup (move._entry_starts:
by his side, the entry areas the state leaves his force and his Climb), and _blocked reads the
soldiers' fields directly. Held here to the plain way, worked out afresh from entry_options and
the soldiers' properties, for every man on the board or still to enter, at positions along
seeded games of the infantry and the vehicle scenario, with the force's entry area claimed or
not, and his budget his own or another."""
from __future__ import annotations

import pytest

from engine.core.ratings import current
from engine.infantry import move as M
from tests.engine.autoplay_kit import autoplayed

SCENARIOS = ("hedgerow-dawn", "tardieu-bombardment")


def plain_blocked(st, serial: int) -> tuple[set, set]:
    me = st.soldiers[serial]
    block, occupied = set(), set()
    for s in st.soldiers.values():
        if s.serial == serial or not s.on_board or s.at is None:
            continue
        occupied.add(s.at)
        if not (s.free and s.side == me.side):
            block.add(s.at)
    return block, occupied


def plain_reachable(st, serial: int, budget: float | None = None):
    """move.reachable as it was: entry_options asked each time, each edge cell tried."""
    s = st.soldiers[serial]
    board = st.board
    climb = current(st, serial, "climb")
    block, _ = plain_blocked(st, serial)
    budget = M.walk_allowance(st, serial) if budget is None else budget
    area_of = {}
    if s.status == "board":
        starts = {s.at: 0.0}
    else:
        starts = {}
        for name, cells in M.entry_options(st, s.force).items():
            for c, _edge in cells:
                if board.passable(c, climb) and c not in block and 1.0 <= budget:
                    starts[c] = 1.0
                    area_of[c] = name
    costs, parents = board._search(starts, budget, climb, block)
    return costs, parents, area_of


@pytest.fixture(scope="module")
def positions(shipped) -> list:
    return [st for sc in SCENARIOS for seed in (5, 17)
            for n, st in enumerate(autoplayed(shipped, sc, seed, 50)) if n % 3 == 0]


def test_reachable_with_kept_entry_cells_is_the_plain_walk(positions):
    asked = entering = 0
    for game in positions:
        for m, s in game.soldiers.items():
            if s.status not in ("board", "waiting"):
                continue
            assert M._blocked(game, m) == plain_blocked(game, m)
            for budget in (None, 0.5, 3.0) if asked % 7 else (None, 10_000):
                got, plain = M.reachable(game, m, budget), plain_reachable(game, m, budget)
                assert got == plain, (m, budget)
                assert list(got[2]) == list(plain[2])  # the same order
                asked += 1
            entering += s.status == "waiting"
    assert asked > 300 and entering > 20


def test_the_kept_entry_cells_follow_the_force_claiming_an_area(positions):
    tried = 0
    for game in positions:
        waiting = [s for s in game.soldiers.values() if s.status == "waiting"]
        for s in waiting[:3]:
            areas = list(game.setup.scenario.entry_areas)
            for area in [None, *areas]:
                st = game.clone()
                st.changing_force(s.force).entry_area = area
                assert M.reachable(st, s.serial) == plain_reachable(st, s.serial), (s.serial, area)
                tried += 1
    assert tried > 20
