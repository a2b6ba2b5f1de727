"""Matching a card to a phase (play sequence step 5): a card may go on a phase whose story card
shows one of its actions; react and preempt cards are played from the hand and never placed, and
a dead card cannot be placed. Placement (engine/turn/placement.py) and an officer's extra cards
(engine/turn/officer.py) both ask it."""
from __future__ import annotations

from engine.advanced.dead_cards import is_dead
from engine.core.content import Action


def matching(card, phase_card) -> list[Action]:
    """The card's actions that match either action of the phase card."""
    return [a for a in card.actions if a in (phase_card.top, phase_card.bottom)]


def placeable(st, cid: str, force: str | None = None) -> bool:
    """React and preempt cards are played from the hand, never placed; dead cards cannot be placed."""
    card = st.card(cid)
    return card.kind not in ("react", "preempt") and not is_dead(st, cid, force)


def fits(st, cid: str, phase_card, force: str | None = None) -> list[Action]:
    """The actions a card could be used for on a phase, or none when it cannot go there at all."""
    return matching(st.card(cid), phase_card) if placeable(st, cid, force) else []
