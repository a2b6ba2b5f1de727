"""A random player for autoplay and tests: it picks among the legal commands.

It draws from its own RNG, never the game's, so the game's randomness stays the game's. It
leans toward fighting (shoot, toss, charge and sight weigh more than turning or passing) and
toward moving closer to the enemy, so autoplayed games look like games; within a kind of
command the choice is uniform.
"""
from __future__ import annotations

from engine.core import commands as C
from engine.core.board import inches
from engine.core.rng import Rng
from engine.legal import awaiting, legal_commands

WEIGHTS = {
    "shoot": 8, "toss": 6, "charge": 4, "sight": 5, "cover": 3, "rally": 5, "move": 3, "draw": 2,
    "hold": 1, "face": 0.3, "pass": 0.15, "done": 0.15,
    # advanced cards: play a react or preempt about as often as not; a preempt's follow-up mostly
    "react": 1, "preempt": 1, "skip": 1, "then": 4,
    # the vehicle battlefield: mostly choose a compartment when standing in an enemy vehicle's tile (rare
    # enough), call and walk artillery in when possible, pop smoke, hand kit over and search for it only
    # sometimes, climb onto a tank as often as a walk
    "assail": 8, "call": 4, "adjust": 5, "barrage": 1, "popsmoke": 0.3, "handoff": 0.5, "recover": 2, "climb": 3,
    # lay a vehicle's mines now and then (it should mostly drive on), lift mines whenever a detector can
    "laymines": 0.2, "clearmines": 3,
    "use": 6,  # equipment: fired or thrown as often as a grenade is tossed
}


class RandomAgent:
    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed ^ 0x5EED)

    def choose(self, st, seat: int) -> C.Cmd:
        opts = legal_commands(st, seat)
        if not opts:
            raise RuntimeError(f"seat {seat} is awaited but has no legal command")
        kinds: dict[str, list[C.Cmd]] = {}
        for c in opts:
            kinds.setdefault(c.type, []).append(c)
        if len(kinds) == 1:
            return self._within(st, next(iter(kinds.values())))
        names = sorted(kinds)
        weights = [WEIGHTS.get(n, 1) for n in names]
        total = sum(weights)
        pick = self.rng.randbelow(int(total * 100)) / 100
        for n, w in zip(names, weights):
            pick -= w
            if pick < 0:
                return self._within(st, kinds[n])
        return self._within(st, kinds[names[-1]])

    def _within(self, st, cmds: list[C.Cmd]) -> C.Cmd:
        if cmds[0].type == "plan":  # an officer's extra cards: used about half the time
            extra = [c for c in cmds if c.extra]
            plain = [c for c in cmds if not c.extra]
            if extra and (not plain or self.rng.randbelow(2)):
                return self.rng.choice(extra)
            return self.rng.choice(plain)
        if cmds[0].type == "declare":  # an ANY card: any of the phase's two actions
            return self.rng.choice(cmds)
        if cmds[0].type != "move" or len(cmds) < 3:
            return self.rng.choice(cmds)
        # of three random moves, the one that ends nearest an enemy
        sample = [self.rng.choice(cmds) for _ in range(3)]
        return min(sample, key=lambda c: _closeness(st, c))

    def seat_to_act(self, st) -> int:
        waits = awaiting(st)
        return waits[self.rng.randbelow(len(waits))].seat


def _closeness(st, cmd) -> float:
    if cmd.tile is None:
        return 1e9
    me = st.soldiers[cmd.serial]
    board = st.board
    dest = board.tile_centre(cmd.tile)
    foes = [s.at for s in st.soldiers.values() if s.free and s.side != me.side]
    return min((inches(dest, f) for f in foes), default=1e9)
