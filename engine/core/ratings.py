"""A soldier's ratings as the rules see them right now: his card side, halved while pinned."""
from __future__ import annotations

from engine.core.content import Stats
from engine.core.formulas import halve


def rating(stats: Stats, name: str, pinned: bool) -> int:
    value = getattr(stats, name)
    return halve(value) if pinned else value


def current(st, serial: int, name: str) -> int:
    """One rating of a soldier in the state: wounded side if wounded, halved if pinned."""
    return rating(st.stats(serial), name, st.soldiers[serial].pinned)
