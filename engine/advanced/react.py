"""React cards (core manual, Advanced Rules, React Cards).

After a player completes an action with a card (one soldier's action), before the next one,
every opposing player holding a live react card may play one. They are asked one at a time in
initiative order; a later player decides after the earlier one's react has been carried out.
A player holding no playable react is never asked, nor is one who set always_pass, so the
window opens only when somebody can use it (the hands are looked at first: it stays cheap).

The reacting player carries out the react card's team bubble with his own soldiers; a react card
has no dog-tag action, and actions taken through a react open no react window (no react to a
react). If at least one action is taken, the card's VP cost is taken from that player for good
(a negative VP entry of kind "card") and the card leaves the game for his VP pile; a react that
ends with nothing done goes to the discard pile and costs nothing. Declining keeps the card in
the hand. Then the interrupted card carries on.
"""
from __future__ import annotations

from engine.advanced.dead_cards import is_dead, require_live_in_hand
from engine.advanced.teams import unplayable
from engine.core import commands as C
from engine.core import initiative, rulebook
from engine.core.action_cards import describe
from engine.core.errors import RuleError
from engine.core.log import Ctx
from engine.core.state import ActiveCard, ReactPending, Source, VpEntry


def playable(st, force_id: str) -> list[str]:
    """The react cards in the hand that are live and, for a team's react, whose restriction
    (its men in one square) holds now."""
    f = st.forces[force_id]
    return [c for c in f.hand if st.card(c).kind == "react" and not is_dead(st, c, force_id)
            and unplayable(st, force_id, c) is None]


def open_window(ctx: Ctx, after: str | None = None, asked: list[str] | None = None) -> None:
    """Ask the next opposing force (initiative order) holding a playable react, if any."""
    st = ctx.st
    after = after or st.react_after
    st.react_after = None
    if after is None or after not in st.forces:
        return
    side = st.forces[after].side
    asked = list(asked or [])
    candidates = [f.id for f in st.forces.values() if f.side != side and f.id not in asked
                  and any(st.setup.cards[c].kind == "react" for c in f.hand)]  # the cheap look first
    if not candidates:
        return
    for fid in initiative.order(st, candidates):
        if st.seats[st.forces[fid].seat].always_pass:
            continue
        if playable(st, fid):
            st.pending = ReactPending(force=fid, after=after, asked=asked + [fid])
            return


def play(ctx: Ctx, cid: str) -> None:
    st = ctx.st
    p = st.pending
    fid = p.force
    f = st.forces[fid]
    require_live_in_hand(st, fid, cid, "react")
    problem = unplayable(st, fid, cid)
    if problem:
        raise RuleError(f"{cid} cannot be played now: {problem}")
    card = st.card(cid)
    f = st.changing_force(fid)
    f.hand.remove(cid)
    st.pending = None
    st.interrupted = st.active
    sources = [Source(kind="team")] if card.team else []  # no dog tag action with a react
    st.active = ActiveCard(force=fid, card=cid, phase=st.phase, action=card.actions[0], sources=sources,
                           react=True, react_after=p.after, react_asked=list(p.asked))
    cost = f" (costs {card.vp_cost} VP if used)" if card.vp_cost else ""
    ctx.say("react", f"{st.seats[f.seat].name} plays a react card: {cid} — {describe(st, cid)}{cost}",
            force=fid, card=cid)
    if not sources:  # nothing to do with it: it ends at once (what the card in play's finish does for a react)
        finish_react(ctx)


def skip(ctx: Ctx) -> None:
    st = ctx.st
    p = st.pending
    st.pending = None
    open_window(ctx, p.after, p.asked)


def finish_react(ctx: Ctx) -> None:
    """The react card is done: its cost if it was used, then the interrupted card carries on."""
    st = ctx.st
    a = st.active
    f = st.changing_force(a.force)
    card = st.card(a.card)
    seat = st.seats[f.seat]
    used = any(s.uses or s.used or s.rallied or s.entry for s in a.sources)
    if used:
        if card.vp_cost:
            st.vp.append(VpEntry(seat=f.seat, side=f.side, amount=-card.vp_cost, kind="card",
                                 reason=f"react card {a.card}"))
        f.vp_pile.append(a.card)
        ctx.say("react_done", f"{seat.name}'s react {a.card} goes to the VP pile"
                + (f": {card.vp_cost} VP less." if card.vp_cost else "."), card=a.card, cost=card.vp_cost)
    else:
        f.discard.append(a.card)
        ctx.say("react_done", f"{seat.name}'s react {a.card} is discarded unused.", card=a.card, cost=0)
    st.active = st.interrupted
    st.interrupted = None
    open_window(ctx, a.react_after, a.react_asked)


# --------------------------------------------------------------------------- what its commands do (engine/core/rulebook.py)


@rulebook.answers(C.ReactCmd)
def react_answer(ctx: Ctx, cmd: C.ReactCmd, force: str) -> None:
    play(ctx, cmd.card)


@rulebook.answers((C.Skip, "react"))
def skip_answer(ctx: Ctx, cmd: C.Skip, force: str) -> None:
    skip(ctx)
