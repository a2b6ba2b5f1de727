"""Dead cards (core manual, Specialists and Tactics Modules): cards a player holds but cannot use.

A specialist's react, preempt and command cards only work while he is alive and on the board
(on foot or aboard a vehicle, and not a prisoner). A team card that names a panel slot only
works while that slot is filled (engine/advanced/teams.py slot_filled: its man alive and free, on the
board or still to enter). A dead card cannot be placed
on a phase nor played from the hand; it stays in the hand until the turn ends and is discarded
with the rest of the hand. A placed card that has died by the time its phase comes gives no
actions that phase. This is the one place the rule lives: placement, play and the agent ask it.
"""
from __future__ import annotations

from engine.advanced.teams import slot_filled
from engine.core.errors import RuleError

SPECIAL_KINDS = frozenset({"react", "preempt", "command"})


def _alive_on_board(s) -> bool:
    return s.status in ("board", "aboard") and s.captor is None


def dead_reason(st, card_id: str, force: str | None = None) -> str | None:
    """Why the card is dead now, or None when it is live. `force`: the deck holding it (team cards)."""
    card = st.card(card_id)
    if card.tagless:
        if not card.needs_slot:
            return None
        if card.panel and slot_filled(st, force, card.panel, card.needs_slot):
            return None
        return f"{card_id} needs a man in slot {card.needs_slot} of its team panel, and none is left there"
    if card.kind not in SPECIAL_KINDS:
        return None
    s = st.soldiers.get(card.owner)
    if s is None or not _alive_on_board(s):
        who = st.name(card.owner) if s is not None else f"dog tag {card.owner}"
        return f"{card_id} is a dead card: {who} is not alive on the board"
    return None


def is_dead(st, card_id: str, force: str | None = None) -> bool:
    return dead_reason(st, card_id, force) is not None


def require_live_in_hand(st, force: str, card_id: str, kind: str) -> None:
    """Refuse a react or preempt play unless the card is that kind, in the force's hand, and live."""
    hand = st.forces[force].hand
    if card_id not in hand or st.card(card_id).kind != kind:
        raise RuleError(f"{card_id} is not a {kind} card in your hand; {kind} cards there: "
                        + (", ".join(c for c in hand if st.card(c).kind == kind) or "none") + ".")
    reason = dead_reason(st, card_id, force)
    if reason:
        raise RuleError(reason + ".")
