"""A soldier's ratings as the rules see them right now: his card side, halved while pinned."""
from __future__ import annotations

from engine.core import per_setup
from engine.core.content import Stats
from engine.core.formulas import halve


def rating(stats: Stats, name: str, pinned: bool) -> int:
    value = getattr(stats, name)
    return halve(value) if pinned else value


def current(st, serial: int, name: str) -> int:
    """One rating of a soldier in the state: wounded side if wounded, halved if pinned."""
    return rating(st.stats(serial), name, st.soldiers[serial].pinned)


def draws_by_controller(st) -> dict[str, int]:
    """Every man in play's current LOOK draw value (`current(st, serial, "draw")`), summed by the
    force controlling him, in one pass over the soldiers (the play sequence's draw, step 1). A
    man's printed value is read from his card's side once per setup, keyed by what picks that
    side (dog tag, rank, wounded): the setup is frozen, so it never goes stale; the pin is the
    state's and is applied here each time, as `rating` does."""
    printed = per_setup.memo(st.setup, "draw")
    out: dict[str, int] = {}
    for s in st.soldiers.values():
        if s.in_play:
            key = (s.serial, s.rank, s.wounded)
            value = printed.get(key)
            if value is None:
                value = printed[key] = st.stats(s.serial).draw
            c = s.controller
            out[c] = out.get(c, 0) + (halve(value) if s.pinned else value)
    return out
