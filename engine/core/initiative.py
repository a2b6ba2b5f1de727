"""Initiative (core manual, Initiative; ruling 2): most cards in hand first; ties to the force
controlling the highest-VP soldier still on the board, then the lowest dog tag on the board.
Recomputed from the hands every time it is asked, so it always follows the current hands."""
from __future__ import annotations


def _keys(st) -> dict[str, tuple]:
    """Every force's sort key, from one pass over the soldiers: (most cards in hand, highest VP
    of his soldiers on the board, lowest dog tag on the board, the force's id)."""
    top: dict[str, int] = {}
    low: dict[str, int] = {}
    for s in st.soldiers.values():
        c = s.controller
        if s.captor is None and s.status in ("board", "aboard"):
            vp = st.vp_value(s.serial)
            if vp > top.get(c, -1):
                top[c] = vp
            if s.serial < low.get(c, 10**9):
                low[c] = s.serial
    return {fid: (-len(f.hand), -top.get(fid, -1), low.get(fid, 10**9), fid) for fid, f in st.forces.items()}


def order(st, forces: list[str] | None = None) -> list[str]:
    ids = list(st.forces) if forces is None else list(forces)
    hands = [len(st.forces[f].hand) for f in ids]
    if len(set(hands)) == len(hands):  # the hands alone decide: the soldiers need not be read
        return [f for _, f in sorted(zip(hands, ids), key=lambda p: -p[0])]
    keys = _keys(st)
    return sorted(ids, key=keys.__getitem__)


def leader(st) -> str:
    return order(st)[0]
