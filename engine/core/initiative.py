"""Initiative (core manual, Initiative; ruling 2): most cards in hand first; ties to the force
controlling the highest-VP soldier still on the board, then the lowest dog tag on the board.
Recomputed from the hands every time it is asked, so it always follows the current hands."""
from __future__ import annotations


def _key(st, force_id: str) -> tuple:
    f = st.forces[force_id]
    mine = [s for s in st.soldiers.values() if s.controller == force_id and s.captor is None
            and s.status in ("board", "aboard")]
    top_vp = max((st.vp_value(s.serial) for s in mine), default=-1)
    low_serial = min((s.serial for s in mine), default=10**9)
    return (-len(f.hand), -top_vp, low_serial, force_id)


def order(st, forces: list[str] | None = None) -> list[str]:
    ids = list(st.forces) if forces is None else list(forces)
    return sorted(ids, key=lambda fid: _key(st, fid))


def leader(st) -> str:
    return order(st)[0]
