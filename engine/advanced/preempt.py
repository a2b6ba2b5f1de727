"""Preempt cards (core manual, Advanced Rules, Preempt Cards).

When: once a phase, after every card for the phase is revealed (and multi-action and ANY cards
declared), before the held-card window and before anyone acts. Each force holding a live preempt
card that fits some opponent's revealed card is asked once, in initiative order (a force that
preempts is asked no more; always_pass players are never asked).

Against what: an opponent's revealed ordinary or extra card whose own actions include the one
the preempt requires (the use the opponent declared does not matter), and whose team bubble has
at least one entry of that action. Never a command card (ANY cards name no phase action), never
a react or preempt card (those are never revealed on a phase, so a preempt cannot answer a
preempt). The preempt has no dog-tag action.

What it does: the preempting player names up to min(the preempt's count, the number of that
action's team-bubble places on the card not yet claimed by an earlier preempt) enemy soldiers
of the card's force, free on the board. When the preempted card is carried out, those men must
take that card's team-bubble actions of the required kind before anything else on the card;
their player still chooses how (where to move, whom to shoot). A named man who has no such
action left is passed over. Right after the last named man has acted, the preempting player
gets the `then`: one of his soldiers may carry it out (shoot, toss, sight) against one of the
named men who acted, or skip. The preempt card goes to its deck's discard pile.
"""
from __future__ import annotations

from engine.advanced.dead_cards import is_dead, require_live_in_hand
from engine.core import commands as C
from engine.core import initiative, rulebook
from engine.core.action_cards import DO_OF
from engine.core.content import ACTION_OF, Action, Do
from engine.core.errors import RuleError
from engine.core.log import Ctx
from engine.core.state import PreemptMark, PreemptPending, ThenPending
from engine.infantry.blast import toss, toss_problem
from engine.infantry.look import check_can_look, sight, sight_options
from engine.infantry.shoot import check_can_shoot, shoot, shoot_targets


def _opponent_forces(st, force_id: str) -> list[str]:
    side = st.forces[force_id].side
    return [f.id for f in st.forces.values() if f.side != side]


def bubble_places(card, action: Action) -> int:
    """How many soldiers the card's team bubble lets take the action."""
    return sum(e.count for e in card.team if ACTION_OF[e.do] == action and e.who != "vehicle")


def targets(st, force_id: str, pcid: str) -> list[tuple[str, str, int]]:
    """(enemy force, its revealed card, how many of its men may still be named) this preempt fits."""
    box = st.card(pcid).preempt
    out = []
    for fid in _opponent_forces(st, force_id):
        f = st.forces[fid]
        if not f.revealed[st.phase - 1]:
            continue
        for c in (f.placed[st.phase - 1], f.extra[st.phase - 1]):
            if c is None:
                continue
            card = st.card(c)
            if card.kind != "action" or box.requires not in card.actions:
                continue
            taken = sum(len(m.soldiers) for m in st.preempts if m.target == c)
            room = min(box.count, bubble_places(card, box.requires) - taken)
            if room > 0 and nameable(st, fid):
                out.append((fid, c, room))
    return out


def nameable(st, fid: str) -> list[int]:
    named = {s for m in st.preempts for s in m.soldiers}
    return sorted(s.serial for s in st.soldiers.values()
                  if s.controller == fid and s.free and s.serial not in named)


def playable(st, force_id: str) -> list[str]:
    """The preempt cards this force could play now (hand first: the cheap test)."""
    f = st.forces[force_id]
    out = []
    for c in f.hand:
        card = st.card(c)
        if card.kind == "preempt" and card.preempt is not None and not is_dead(st, c, force_id) \
                and targets(st, force_id, c):
            out.append(c)
    return out


def open_window(ctx: Ctx, asked: list[str] | None = None) -> None:
    """Ask the next force (initiative order) that holds a playable preempt, if any."""
    st = ctx.st
    asked = list(asked or [])
    cards = st.setup.cards
    candidates = [f.id for f in st.forces.values() if f.id not in asked and not st.seats[f.seat].always_pass
                  and any(cards[c].kind == "preempt" for c in f.hand)]  # the cheap look first, as react's
    if not candidates:
        return  # most phases: nobody holds a preempt card, and no initiative order is worked out
    for fid in initiative.order(st, candidates):  # a pair's order is the same among any forces holding both
        if playable(st, fid):
            st.pending = PreemptPending(force=fid, asked=asked + [fid])
            return


def play(ctx: Ctx, pcid: str, target: str, soldiers: list[int]) -> None:
    st = ctx.st
    p = st.pending
    fid = p.force
    f = st.forces[fid]
    require_live_in_hand(st, fid, pcid, "preempt")
    card = st.card(pcid)
    box = card.preempt
    tcard = st.setup.cards.get(target)
    if tcard is not None and tcard.kind == "command":
        raise RuleError(f"{target} is a command card: command cards cannot be preempted.")
    if tcard is not None and tcard.kind in ("react", "preempt"):
        raise RuleError(f"{target} is a {tcard.kind} card: only revealed action cards can be preempted.")
    fits = {c: (tf, room) for tf, c, room in targets(st, fid, pcid)}
    if target not in fits:
        raise RuleError(f"{pcid} needs a revealed enemy card with {box.requires.value.upper()} in its team bubble; "
                        f"it fits " + (", ".join(sorted(fits)) or "no card") + " this phase.")
    tf, room = fits[target]
    if not soldiers:
        raise RuleError("name at least one enemy soldier.")
    if len(soldiers) > room:
        raise RuleError(f"{target}'s team bubble lets only {room} soldier{'s' if room != 1 else ''} "
                        f"{box.requires.value}: name at most {room}.")
    ok = nameable(st, tf)
    for s in soldiers:
        if s not in ok or soldiers.count(s) > 1:
            raise RuleError(f"{s} cannot be named: pick different enemy soldiers of {target}'s player on the board ("
                            + ", ".join(str(x) for x in ok) + ").")
    f = st.changing_force(fid)
    f.hand.remove(pcid)
    f.discard.append(pcid)
    st.preempts.append(PreemptMark(by=fid, card=pcid, force=tf, target=target, action=box.requires,
                                   soldiers=list(soldiers), then=box.then))
    seat = st.seats[f.seat]
    ctx.say("preempt", f"{seat.name} preempts {target} with {pcid} ({card.title}): "
            + ", ".join(st.name(s) for s in soldiers) + f" must {box.requires.value.upper()} first.",
            force=fid, card=pcid, target=target, soldiers=list(soldiers))
    st.pending = None
    open_window(ctx, p.asked)


def skip(ctx: Ctx) -> None:
    st = ctx.st
    p = st.pending
    st.pending = None
    if p.kind == "preempt":
        open_window(ctx, p.asked)
    else:  # a preempt's follow-up not taken
        for m in st.preempts:
            if m.card == p.card:
                m.then_done = True


# ----------------------------------------------------------------------- while the card is played


def _marks(st) -> list[PreemptMark]:
    a = st.active
    if a is None or a.react:
        return []
    return [m for m in st.preempts if m.target == a.card and m.force == a.force]


def _options_for(st, serial: int, action: Action) -> bool:
    for cmd in rulebook.action_options(st, st.active.force, only_source="team", only_men=[serial]):
        if ACTION_OF[DO_OF[type(cmd)]] == action:
            return True
    return False


def forced_left(st) -> list[tuple[PreemptMark, int]]:
    """Named men who must still act first, with the preempt naming them."""
    out = []
    for m in _marks(st):
        for s in m.soldiers:
            if s in m.acted:
                continue
            if _options_for(st, s, m.action):
                out.append((m, s))
    return out


def forced_problem(st) -> str | None:
    left = forced_left(st)
    if not left:
        return None
    m, s = left[0]
    return (f"{m.target} is preempted: {st.name(s)} must {m.action.value.upper()} with the team bubble "
            f"before anything else on the card.")


def check_forced(st, serial: int, do: Do, via: str | None) -> None:
    marks = _marks(st)
    if not marks:
        return
    left = forced_left(st)
    if not left:
        return
    for m, s in left:
        if s == serial and ACTION_OF[do] == m.action and via in (None, "team"):
            return
    m, s = left[0]
    raise RuleError(f"{m.target} is preempted: first " + ", ".join(st.name(x) for _, x in left)
                    + f" must {m.action.value.upper()} with the team bubble.")


def note_forced(st, serial: int) -> None:
    for m in _marks(st):
        if serial in m.soldiers and serial not in m.acted:
            m.acted.append(serial)
            return


def then_due(ctx: Ctx) -> bool:
    """Once no named man is left to act, the preempting player's follow-up (asked once)."""
    st = ctx.st
    marks = [m for m in _marks(st) if m.then is not None and not m.then_done]
    if not marks or forced_left(st):
        return False
    for m in marks:
        acted = [s for s in m.acted if st.soldiers[s].free]
        if not acted:
            m.then_done = True
            continue
        if not then_options(st, m, acted):
            m.then_done = True
            ctx.say("preempt_then", f"{m.card}: none of {st.seats[st.forces[m.by].seat].name}'s soldiers can "
                    f"{m.then.value} at the men who acted.", card=m.card)
            continue
        st.pending = ThenPending(force=m.by, card=m.card, do=m.then, targets=acted)
        return True
    return False


def then_options(st, m, targets_: list[int]) -> list[tuple[int, int]]:
    """(own soldier, named man) pairs for the follow-up."""
    out = []
    men = sorted(s.serial for s in st.soldiers.values() if s.controller == m.by and s.free)
    for me in men:
        if m.then == Do.SHOOT:
            try:
                check_can_shoot(st, me)
                ok = set(shoot_targets(st, me))
            except RuleError:
                continue
            out += [(me, t) for t in targets_ if t in ok]
        elif m.then == Do.TOSS:
            if st.soldiers[me].grenades > 0:
                out += [(me, t) for t in targets_ if toss_problem(st, me, t) is None]
        elif m.then == Do.SIGHT:
            try:
                check_can_look(st, me)
                must = set(sight_options(st, me)[0])
            except RuleError:
                continue
            out += [(me, t) for t in targets_ if t in must]
    return out


def carry_out_then(ctx: Ctx, serial: int, target: int) -> None:
    st = ctx.st
    p = st.pending
    m = next(x for x in st.preempts if x.card == p.card)
    if (serial, target) not in then_options(st, m, p.targets):
        raise RuleError(f"{p.card}: one of your soldiers may {p.do.value} at " + ", ".join(
            st.name(t) for t in p.targets) + "; " + (", ".join(f"{a}->{b}" for a, b in then_options(st, m, p.targets))
                                                       or "none can") + ".")
    st.pending = None
    m.then_done = True
    ctx.say("preempt_then", f"{st.seats[st.forces[m.by].seat].name} follows the preempt up: "
            f"{st.name(serial)} {p.do.value}s at {st.name(target)}.", card=m.card, serial=serial, target=target)
    if p.do == Do.SHOOT:
        shoot(ctx, serial, target)
    elif p.do == Do.TOSS:
        toss(ctx, serial, target, None)
    elif p.do == Do.SIGHT:
        sight(ctx, serial, target)


# --------------------------------------------------------------------------- what its commands do (engine/core/rulebook.py)


@rulebook.answers(C.PreemptCmd)
def preempt_answer(ctx: Ctx, cmd: C.PreemptCmd, force: str) -> None:
    play(ctx, cmd.card, cmd.target, cmd.soldiers)


@rulebook.answers(C.Then)
def then_answer(ctx: Ctx, cmd: C.Then, force: str) -> None:
    carry_out_then(ctx, cmd.serial, cmd.target)


@rulebook.answers((C.Skip, "preempt"))
def skip_answer(ctx: Ctx, cmd: C.Skip, force: str) -> None:
    """A preempt chance, or a preempt's follow-up, let go."""
    skip(ctx)
