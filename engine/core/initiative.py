"""Initiative (core manual, Initiative; ruling 2): most cards in hand first; ties to the force
controlling the highest-VP soldier still on the board, then the lowest dog tag on the board.
Recomputed from the hands every time it is asked, so it always follows the current hands."""
from __future__ import annotations

from engine.core import per_setup


def _keys(st, tied: set[str]) -> dict[str, tuple]:
    """The sort key of each force in `tied`, from one pass over the soldiers: (most cards in hand,
    highest VP of his soldiers on the board, lowest dog tag on the board, the force's id)."""
    top: dict[str, int] = {}
    low: dict[str, int] = {}
    vps = per_setup.memo(st.setup, "vp")  # a man's VP at his rank (GameState.vp_of): the setup's cards alone
    for s in st.soldiers.values():
        c = s.controller
        if c in tied and s.captor is None and s.status in ("board", "aboard"):
            vp = vps.get((s.serial, s.rank))
            if vp is None:
                vp = vps[s.serial, s.rank] = st.vp_of(s)
            if vp > top.get(c, -1):
                top[c] = vp
            serial = s.serial
            if serial < low.get(c, 10**9):
                low[c] = serial
    return {fid: (-len(st.forces[fid].hand), -top.get(fid, -1), low.get(fid, 10**9), fid) for fid in tied}


def order(st, forces: list[str] | None = None) -> list[str]:
    ids = list(st.forces) if forces is None else list(forces)
    every = st.forces
    hands = {f: len(every[f].hand) for f in ids}
    sizes = list(hands.values())
    # soldiers are read only for forces tied on cards in hand: the others' hands alone place them
    tied = {f for f in ids if sizes.count(hands[f]) > 1}
    keys = _keys(st, tied) if tied else {}
    return sorted(ids, key=lambda f: keys.get(f) or (-hands[f], 0, 0, f))


def leader(st) -> str:
    return order(st)[0]
