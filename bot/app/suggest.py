"""Suggestions for a half-typed command option: the caller's soldiers, legal targets, tiles,
cards in his hand. Built from `legal_commands` and the caller's own view, so a suggestion is
something the engine would accept and shows nothing the caller may not see.

Each suggestion is (label, value): the label is what a menu shows, the value what goes into
the script line. At most LIMIT, those containing what was typed first.
"""
from __future__ import annotations

from collections.abc import Iterable

from engine import GameState
from engine import commands as C
from engine.view import private_view

LIMIT = 25

# which command field each option names, per verb
_SOLDIER_FIELD = {"capture": "victim", "kill": "victim"}
_TARGET_FIELD = {"capture": "escort", "hitplus": "target"}


def _who(st: GameState, serial: int) -> str:
    return f"{st.name(serial)} ({serial})"


def pick(pairs: Iterable[tuple[str, str]], typed: str) -> list[tuple[str, str]]:
    """Unique pairs matching `typed` (in label or value), best matches first, trimmed."""
    typed = typed.strip().lower()
    seen: dict[str, str] = {}
    for label, value in pairs:
        seen.setdefault(value, label)
    hits = [(label, value) for value, label in seen.items()
            if not typed or typed in label.lower() or typed in value.lower()]
    hits.sort(key=lambda p: not (p[1].lower().startswith(typed) or p[0].lower().startswith(typed)))
    return [(label[:100], value[:100]) for label, value in hits[:LIMIT]]


def _of_verb(cmds: list[C.Cmd], verb: str) -> list[C.Cmd]:
    return [c for c in cmds if getattr(c, "type", None) == verb]


def soldiers(st: GameState, seat: int, cmds: list[C.Cmd], verb: str | None) -> list[tuple[str, str]]:
    """The caller's soldiers that can do `verb` now; without one (or none can), all his men."""
    field = _SOLDIER_FIELD.get(verb or "", "serial")
    serials = [getattr(c, field) for c in _of_verb(cmds, verb or "") if getattr(c, field, None) is not None]
    if not serials:
        mine = {f.id for f in st.forces.values() if f.seat == seat}
        serials = sorted(s.serial for s in st.soldiers.values()
                         if s.controller in mine and s.status in ("board", "waiting"))
    return [(_who(st, s), str(s)) for s in serials]


def targets(st: GameState, cmds: list[C.Cmd], verb: str, soldier: str | None) -> list[tuple[str, str]]:
    """Legal targets of `verb` (for `soldier` if given): spotted enemies in arc and so on."""
    field = _TARGET_FIELD.get(verb, "target")
    out = []
    for c in _of_verb(cmds, verb):
        if soldier and str(getattr(c, "serial", getattr(c, "victim", ""))) != soldier.strip():
            continue
        t = getattr(c, field, None)
        if t is not None:
            out.append((_who(st, t), str(t)))
    return out


def destinations(st: GameState, cmds: list[C.Cmd], soldier: str | None) -> list[tuple[str, str]]:
    """Where `soldier` may move: tiles, their cover, exits (a cell x,y may also be typed)."""
    out = []
    for c in _of_verb(cmds, "move"):
        if soldier and str(c.serial) != soldier.strip():
            continue
        if c.exit:
            value = "exit" + (f" {c.area}" if c.area else "")
            out.append((f"leave the board ({c.area or 'any exit'})", value))
        elif c.tile:
            value = c.tile + (":cover" if c.cover else "")
            out.append((f"{c.tile}{' in cover' if c.cover else ''}", value))
    return out


def cards(st: GameState, seat: int, phase: int | None = None, cmds: list[C.Cmd] = ()) -> list[tuple[str, str]]:
    """Cards in the caller's hand (for a phase: those his legal placements put there)."""
    mine = private_view(st, seat)
    if mine is None:
        return []
    ids = None
    if phase is not None:
        ids = {c.cards[phase] for c in cmds if isinstance(c, C.Plan) and len(c.cards) > phase}
    pool = [*mine.hand, *(c for c in mine.placed if c), *mine.fight_cards,
            *(c for held in mine.held.values() for c in held)]
    out = [(f"{c.id} {c.title} ({'/'.join(a.upper() for a in c.actions)}, {c.owner_name})", c.id)
           for c in pool if ids is None or c.id in ids]
    if phase is not None and None in (ids or set()):
        out.append(("— leave this phase empty", "-"))
    return out
