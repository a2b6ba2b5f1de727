"""Action decks: drawing, checks pulled off the top, discards and the reshuffle. Each change goes
through GameState.changing_force: a state's copy shares its forces until one is changed."""
from __future__ import annotations

from engine.core.errors import RuleError
from engine.core.log import Ctx


def reshuffle(ctx: Ctx, force_id: str) -> bool:
    """When a draw finds the deck empty, the discards become a new shuffled deck (ruling 14)."""
    if not ctx.st.forces[force_id].discard:
        return False
    f = ctx.st.changing_force(force_id)
    f.deck = f.discard
    f.discard = []
    ctx.rng.shuffle(f.deck)
    ctx.say("reshuffle", f"{ctx.st.seats[f.seat].name} shuffles the discards into a new action deck.",
            force=force_id)
    return True


def take_top(ctx: Ctx, force_id: str) -> str:
    f = ctx.st.changing_force(force_id)
    if not f.deck and not reshuffle(ctx, force_id):
        raise RuleError("the action deck and the discards are both empty")
    return f.deck.pop(0)


def deal(ctx: Ctx, force_id: str, n: int) -> list[str]:
    """Take n cards off the top (fewer only if every card is in hands or in play)."""
    f = ctx.st.changing_force(force_id)
    got = []
    for _ in range(n):
        if not f.deck and not reshuffle(ctx, force_id):
            break
        got.append(f.deck.pop(0))
    return got


def draw(ctx: Ctx, force_id: str, n: int) -> list[str]:
    """Draw n cards into the hand."""
    got = deal(ctx, force_id, n)
    ctx.st.changing_force(force_id).hand.extend(got)
    return got


def check(ctx: Ctx, force_id: str) -> str:
    """Pull the top card for a check (hit, damage, identity) and discard it at once."""
    cid = take_top(ctx, force_id)
    ctx.st.changing_force(force_id).discard.append(cid)
    return cid


def pull_check(ctx: Ctx, force_id: str, what: str, serial: int) -> str | None:
    """`check`, or None when the deck and the discards are both empty (every card is in a hand, on
    the panel or held): with no card to pull the check is not made (ruling R69). `serial`: the man
    the check is for (hidden deployment screens the line by him)."""
    if not can_check(ctx, force_id):
        ctx.say("no_check", f"{ctx.st.seats[ctx.st.forces[force_id].seat].name} has no card left in the action deck "
                f"or the discards for {what}: it is not made.", force=force_id, serial=serial)
        return None
    return check(ctx, force_id)


def can_check(ctx: Ctx, force_id: str) -> bool:
    f = ctx.st.forces[force_id]
    return bool(f.deck or f.discard)
