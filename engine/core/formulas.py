"""The rulebook's small formulas on plain numbers and words: a rating halved, a sight range, the
bands a shot reads, a cover value, the rally reach, a hit check result's hits. No state and no
content models, so the rule rolls (engine/rolls) use the very same arithmetic as a game and still
start in a moment."""
from __future__ import annotations

import re

RALLY_DISTANCE = 10  # inches: the length of the ruler


def halve(value: int) -> int:
    """Pinned (core manual, Damage Results; ruling 11): halved rounding down, and negative
    cover values toward zero, which integer truncation does for both."""
    return int(value / 2)


def sight_range(sight: int, look_mods: int) -> int:
    """Modified sight range in squares: the rating plus the (mostly negative) LOOK modifiers."""
    return sight + look_mods


def bands_in_range(long: int, short: int, close: int, shoot_mods: int, squares: int, inches_: int) -> list[str]:
    """The bands a hit check reads (Hit Check; ruling 7): Long and Short when the distance in
    squares is within the rating plus SHOOT modifiers, Close when the distance in inches is
    within the close rating plus the same modifiers counted as inches."""
    out = []
    if squares <= long + shoot_mods:
        out.append("long")
    if squares <= short + shoot_mods:
        out.append("short")
    if inches_ <= close + shoot_mods:
        out.append("close")
    return out


def cover_value(cover: int, hide_mods: int, pinned: bool = False) -> int:
    """Modified cover: the rating (halved toward zero when pinned) plus the HIDE modifiers."""
    return (halve(cover) if pinned else cover) + hide_mods


def hides(value: int) -> bool:
    """Taking cover succeeds when the modified cover value is below zero."""
    return value < 0


def rally_reach(hide_mods: int) -> int:
    """Rally reach in inches: the 10" ruler plus the HIDE modifiers counted as inches (ruling 10)."""
    return RALLY_DISTANCE + hide_mods


def hit_value(result: str) -> tuple[int, bool]:
    """('2 Hits') -> (2, False); ('Hit+') -> (1, True)."""
    if result == "Miss":
        return 0, False
    if result == "Hit":
        return 1, False
    if result == "Hit+":
        return 1, True
    m = re.fullmatch(r"(\d) Hits", result)
    if not m:
        raise ValueError(f"unknown hit check result {result!r}")
    return int(m.group(1)), False
