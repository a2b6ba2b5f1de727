"""Identity checks (core manual, Glossary): a card pulled off a deck to see whose dog tag it bears.

An identity check succeeds for a soldier when the card drawn is one of his own; team cards
(tactics modules) carry no dog tag and never succeed. An identity hit check draws hit checks
until one bears the dog tag of the soldier taking the hit (bounded by the deck's size, so a deck
without his cards cannot loop)."""
from __future__ import annotations

from engine.core.deck import can_check, check
from engine.core.log import Ctx


def owner_of(st, card_id: str) -> int | None:
    """The dog tag on a card, None for a team card."""
    owner = st.card(card_id).owner
    return owner or None


def identity_check(ctx: Ctx, force_id: str, serial: int, *, why: str = "") -> bool:
    """One identity check for `serial` off `force_id`'s deck; the card is discarded."""
    if not can_check(ctx, force_id):
        return False
    cid = check(ctx, force_id)
    hit = owner_of(ctx.st, cid) == serial
    ctx.say("identity_check", f"Identity check for {ctx.st.name(serial)}{' (' + why + ')' if why else ''}: "
            f"{cid} — {'his own card' if hit else 'not his'}.", card=cid, serial=serial, success=hit)
    return hit


def identity_draws(ctx: Ctx, force_id: str, n: int) -> list[int]:
    """Draw n identity checks off a deck: the dog tags drawn, in order, team cards left out."""
    out = []
    for _ in range(n):
        if not can_check(ctx, force_id):
            break
        cid = check(ctx, force_id)
        owner = owner_of(ctx.st, cid)
        ctx.say("identity_check", f"Identity check: {cid}.", card=cid, serial=owner)
        if owner is not None:
            out.append(owner)
    return out


def identity_hit_check(ctx: Ctx, force_id: str, serial: int) -> str | None:
    """Draw hit checks off `force_id`'s deck until one bears `serial`'s dog tag; that card is the
    hit check. None if a whole pass through the deck and discards finds none of his cards."""
    f = ctx.st.forces[force_id]
    for _ in range(len(f.deck) + len(f.discard) + 1):
        if not can_check(ctx, force_id):
            return None
        cid = check(ctx, force_id)
        if owner_of(ctx.st, cid) == serial:
            return cid
    return None
