"""Optics (advanced rules, Markers and Equipment: Optics): binoculars and scopes let a soldier
disregard the smaller LOOK and SHOOT modifiers on every square from his own to his target's,
the target's square included. How small is small is on the equipment card (look_ignore,
shoot_ignore: 3x glasses 3 and 2, a 6x scope 4 or 5 by quality and 3).

Smoke is applied first (engine/core/board.py mod_sum), so a doubled or tripled modifier may grow past
what the optics can ignore. A soldier uses the best optics he carries and may use, without asking
(docs/advanced.md, Equipment, optics, smoke).
"""
from __future__ import annotations

from engine.core.content import Action, EquipmentDef
from engine.infantry.equipment import carried, may_use


def optics_of(st, serial: int) -> list[EquipmentDef]:
    """The optics the soldier carries and is able to use."""
    return [st.setup.equipment[q] for q in carried(st, serial)
            if q in st.setup.equipment and st.setup.equipment[q].kind == "optics" and may_use(st, serial, q) is None]


def ignore(st, serial: int, action: Action) -> int:
    """The largest modifier (by size) his optics let him disregard for a LOOK or a SHOOT; 0: none."""
    best = 0
    for e in optics_of(st, serial):
        best = max(best, (e.look_ignore if action is Action.LOOK else e.shoot_ignore) or 0)
    return best


def ignored(mod: int, limit: int) -> int:
    """A square's modifier after optics: a hindering modifier no bigger than the limit counts 0;
    a helping (positive) one always counts."""
    return 0 if limit and 0 < -mod <= limit else mod
