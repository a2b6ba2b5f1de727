"""Carrying out an action card (core manual, Action Cards): its dog tag action for the owner,
its team bubble ("N soldiers DO", each soldier once, entries in printed order) and its narrator
box (white may, blue must, red cost or condition). One part is finished before the next starts;
the player picks the order."""
from __future__ import annotations

from engine.advanced import teams
from engine.advanced.dead_cards import dead_reason
from engine.advanced.preempt import check_forced, forced_problem, note_forced
from engine.advanced.react import finish_react
from engine.advanced.sources import (
    _rally_limit,
    _soldier_ok,
    enter,
    route,
    second_move_problem,
    spend,
)
from engine.battlefield.artillery import look_card_played as radio_look
from engine.core import commands as C
from engine.core import rulebook
from engine.core.action_cards import DO_OF, describe
from engine.core.as_given import as_given
from engine.core.content import NARRATOR_ACTIONS, Action, Do
from engine.core.errors import RuleError
from engine.core.log import Ctx
from engine.core.state import ActiveCard, PayPending, Source
from engine.infantry.look import draw as look_draw
from engine.vehicles.look import look_card_played

# the card in play and its parts, validated by their models' validators without BaseModel.__init__
# around them, as events are (engine/core/log.py): a few of each every apply
_source = Source.__pydantic_validator__.validate_python
_card_in_play = ActiveCard.__pydantic_validator__.validate_python

# ... or, for the values start has (a part's kind one of its own constants; a card in play of exact
# str force and card, int phase, an Action and a fresh list of parts), made as those validators
# make them, without a validator: the fields in the model's order, the defaults (a new list each),
# the fields given as the fields set (tests/engine/test_card_start38.py holds them to the validators)
_PART_GIVEN = frozenset(("kind",))
_CARD_GIVEN = frozenset(("force", "card", "phase", "action", "sources"))


def _part(kind: str) -> Source:
    """_source({"kind": kind}) for kind "tag", "team" or "note" (start's own constants)."""
    return as_given(Source, {"kind": kind, "state": "ready", "entry": 0, "used": [], "uses": 0, "rallied": [],
                             "rally_limit": None, "drawn": []}, set(_PART_GIVEN))


def _in_play(force: str, card: str, phase: int, action, sources: list[Source]) -> ActiveCard:
    """_card_in_play of these fields, made directly when the validator could only take them as
    they are (exact str force and card, exact int phase, an Action, a fresh list of Sources made
    by _part); any other value goes through the validator, to be taken or refused as before."""
    if type(force) is not str or type(card) is not str or type(phase) is not int or type(action) is not Action:
        return _card_in_play({"force": force, "card": card, "phase": phase, "action": action, "sources": sources})
    return as_given(ActiveCard, {"force": force, "card": card, "phase": phase, "action": action, "sources": sources,
                                 "moved_escorts": [], "react": False, "react_after": None, "react_asked": []},
                    set(_CARD_GIVEN))


def start(ctx: Ctx, force_id: str, phase: int, action, card: str | None = None) -> None:
    """Put a revealed card in play (`card`: which of the force's cards on the phase, for an
    officer's extra card; default the ordinary one)."""
    st = ctx.st
    f = st.forces[force_id]
    cid = card or f.placed[phase - 1]
    card = st.card(cid)
    sources = [_part("tag")] if not card.tagless else []  # a team card has no dog tag
    if card.team:
        sources.append(_part("team"))
    if card.narrator and card.narrator.kind in NARRATOR_ACTIONS:
        sources.append(_part("note"))
    st.active = _in_play(force_id, cid, phase, action, sources)
    seat = st.seats[f.seat]
    if f.kind == "vehicle" and action == Action.LOOK and f.plate in st.vehicles \
            and st.vehicles[f.plate].status == "board" \
            and st.vehicles[f.plate].controller == force_id:  # issue 9: a taken-over vehicle's old deck counts no radio LOOKs
        look_card_played(ctx, f.plate)
    elif f.kind == "squad" and action == Action.LOOK:  # radio contact for men with sets (engine/battlefield/artillery.py)
        radio_look(ctx, force_id)
    ctx.say("card", f"{seat.name}'s {action.value.upper()}: {cid} — {describe(st, cid)}", force=force_id, card=cid)
    dead = dead_reason(st, cid, force_id)
    if dead:  # dead cards (owner gone, or a team card's panel slot empty): no actions this phase
        ctx.say("dead_card", f"{dead}: it gives no actions this phase.", card=cid, force=force_id)
        finish(ctx)
        return
    if card.panel is not None or card.identity is not None:  # tactics modules (engine/advanced/teams.py):
        problem = teams.unplayable(st, force_id, cid)  # an empty slot or unmet restriction, then the identity box's checks
        if problem:
            ctx.say("unplayable", f"{cid} is not playable: {problem} It gives no actions this phase.",
                    card=cid, force=force_id)
            finish(ctx)
            return
        if card.identity is not None:
            st.active.sources.append(Source(kind="identity", drawn=teams.identity_start(ctx, force_id, cid)))
    note = card.narrator
    if note and note.color == "red":
        problem = _condition_problem(st, force_id, cid)
        if problem:
            ctx.say("cancelled", f"{cid} is cancelled: {problem}", card=cid)
            finish(ctx)
            return
        if note.kind == "discard":
            st.pending = PayPending(force=force_id, card=cid, count=note.count)
            return
    if note and note.color == "blue" and note.kind in ("spotted", "draw_cards"):
        owner = st.soldiers.get(card.owner) or st.vehicles.get(card.owner)
        if note.kind == "spotted" and owner and (owner.status == "board" and getattr(owner, "captor", None) is None):
            owner = st.changing(card.owner) if card.owner in st.soldiers else st.changing_vehicle(card.owner)
            owner.spotted = True
            it = card.owner in st.vehicles
            ctx.say("spotted", f"{st.name(card.owner)} gives {'itself' if it else 'himself'} away: "
                    f"{'it' if it else 'he'} is spotted.", serial=card.owner)
        elif note.kind == "draw_cards":
            look_draw(ctx, force_id, note.count, seat.name)


def _condition_problem(st, force_id: str, cid: str) -> str | None:
    card = st.card(cid)
    note = card.narrator
    owner = st.soldiers.get(card.owner)
    name = st.name(card.owner) if owner or card.owner in st.vehicles else f"dog tag {card.owner}"
    if note.kind == "discard":
        n = len(st.forces[force_id].hand)
        return None if n >= note.count else f"it costs {note.count} card{'s' if note.count > 1 else ''} " \
                                             f"from the hand and the hand holds {n}."
    v = st.vehicles.get(card.owner)
    if v is not None:
        if v.status != "board" or v.controller != force_id:
            return f"the {name} is not on the board to meet its condition."
        if note.kind == "unpinned" and v.pins:
            return f"the {name} is bogged down (Pin markers)."
        if note.kind == "unspotted" and (v.spotted or v.spotted_by):
            return f"the {name} is spotted."
        if note.kind == "in_cover" and not v.hull_down and (st.board.tiles[v.tile].mods.hide or 0) > -3:
            return f"the {name} is neither hull down nor in a tile of HIDE -3 or less."
        if note.kind == "healthy" and any(v.damage.values()):
            return f"the {name} is damaged."
        return None
    aboard = owner is not None and owner.status == "aboard" and owner.captor is None
    if owner is None or not (owner.free or aboard) or owner.controller != force_id:
        return f"{name} is not on the board to meet its condition."
    if note.kind == "unpinned" and owner.pinned:
        return f"{name} is pinned."
    if note.kind == "unspotted" and (owner.spotted or owner.spotted_by):
        return f"{name} is spotted."
    if note.kind == "in_cover" and (aboard or not st.board.in_cover(owner.at)):
        return f"{name} is not In Cover."
    if note.kind == "healthy" and owner.wounded:
        return f"{name} is wounded."
    return None


def pay(ctx: Ctx, cards: list[str]) -> None:
    st = ctx.st
    p = st.pending
    f = st.forces[p.force]
    if len(cards) != p.count or len(set(cards)) != len(cards) or any(c not in f.hand for c in cards):
        raise RuleError(f"pay exactly {p.count} different card{'s' if p.count > 1 else ''} from your hand: "
                        + ", ".join(f.hand) + ".")
    f = st.changing_force(p.force)
    for c in cards:
        f.hand.remove(c)
        f.discard.append(c)
    st.pending = None
    ctx.say("paid", f"{st.seats[f.seat].name} discards {len(cards)} card{'s' if len(cards) > 1 else ''} to play {p.card}.",
            cards=cards)


def decline(ctx: Ctx) -> None:
    st = ctx.st
    p = st.pending
    st.pending = None
    ctx.say("cancelled", f"{st.seats[st.forces[p.force].seat].name} will not pay; {p.card} is cancelled.")
    finish(ctx)


def finish(ctx: Ctx) -> None:
    st = ctx.st
    if st.active is None:
        return
    if st.active.react:  # a react card ends: the interrupted card carries on (engine/advanced/react.py)
        finish_react(ctx)
        return
    st.done_sources.append(st.active.force)
    st.done_cards.append(st.active.card)
    st.active = None


def act(ctx: Ctx, cmd) -> None:
    """Carry out one action command through the card in play."""
    st = ctx.st
    active = st.active
    do = DO_OF[type(cmd)]
    _soldier_ok(st, active, cmd.serial, do)
    check_forced(st, cmd.serial, do, cmd.via)  # preempted men act first
    i = route(st, active, cmd.serial, do, cmd.via)
    src = active.sources[i]
    _leave_part_under_way(ctx, cmd, src)
    double = isinstance(cmd, C.MovePlus) and cmd.double  # a Move++ takes two MOVE actions (ruling V2)
    if double and (why := second_move_problem(st, active, src, cmd.serial)):
        raise RuleError(why)
    card = st.card(active.card)
    entry = enter(st, card, src, cmd.serial, do)
    _perform(ctx, cmd, src, card.team[entry].do if entry is not None else None)
    if src.kind == "team":
        note_forced(st, cmd.serial)
    if not active.react:  # an action completed: the opponents' react window is due (no react to a react)
        st.react_after = active.force
    spend(st, active, src, entry, cmd.serial, do)
    if double:
        spend(st, active, src, enter(st, card, src, cmd.serial, do), cmd.serial, do)


def _leave_part_under_way(ctx: Ctx, cmd, src: Source) -> None:
    """A part once started is finished before another starts (Action Cards): an action the part
    under way cannot take moves on to another part only when the player names that part, or when
    the part under way has nothing left to do; an unnamed command never gives up its rest."""
    st = ctx.st
    active = st.active
    under_way = next((o for o in active.sources if o is not src and o.state == "open"), None)
    if under_way is None:
        return
    left = rulebook.anything_to_do(st, active.force, only_source=under_way.kind)
    if left and cmd.via is None:
        example = next(iter(rulebook.action_options(st, active.force, only_source=under_way.kind)))
        named = cmd.model_copy(update={"via": src.kind})
        raise RuleError(f"the {under_way.kind} part of {active.card} is under way and can still act "
                        f"(for example `{example}`): finish it first, end it with `done`, or name the part "
                        f"you mean (`{named}`) to leave the rest of it.")
    under_way.state = "closed"
    if left:
        ctx.say("part_left", f"{st.seats[st.forces[active.force].seat].name} leaves the rest of the "
                f"{under_way.kind} part of {active.card} for the {src.kind} part.", card=active.card,
                part=under_way.kind)


def _perform(ctx: Ctx, cmd, src: Source, entry_do: Do | None = None) -> None:
    """Hand the action to its rule (engine/core/rulebook.py ACTIONS); whatever the command, a
    license plate's or a man aboard's action is the vehicle rules' (Hell on Wheels)."""
    st = ctx.st
    if not isinstance(cmd, C.BATTLEFIELD_ACTIONS) and (cmd.serial in st.vehicles or (
            cmd.serial in st.soldiers and st.soldiers[cmd.serial].status == "aboard")):
        rulebook.aboard_action(ctx, cmd, src, entry_do)
        return
    perform = rulebook.ACTIONS.get(type(cmd))
    if perform is None:
        raise RuleError(f"{st.seats[st.forces[st.active.force].seat].name}: {cmd} is not an action.")
    if isinstance(cmd, C.RallyCmd):
        _rally(ctx, cmd, src, perform)
        return
    perform(ctx, cmd, src, entry_do)


def _rally(ctx: Ctx, cmd: C.RallyCmd, src: Source, perform) -> None:
    """A card part rallies each man once, up to its limit (fixed at its first rally); a pinned
    man of a team bubble rallies himself first."""
    st = ctx.st
    if src.kind == "team" and cmd.serial != cmd.target and st.soldiers[cmd.serial].pinned:
        raise RuleError(f"{st.name(cmd.serial)} is pinned himself and must rally himself first.")
    if cmd.target in src.rallied:
        raise RuleError(f"{st.name(cmd.target)} has been rallied with this already.")
    src.rally_limit = _rally_limit(st, st.active, src)
    perform(ctx, cmd, src, None)
    src.rallied.append(cmd.target)


def must_left(st) -> str | None:
    """A blue narrator action not yet taken that is still possible: the card cannot end yet."""
    active = st.active
    card = st.card(active.card)
    note = card.narrator
    if not note or note.color != "blue" or note.kind not in NARRATOR_ACTIONS:
        return None
    src = next(s for s in active.sources if s.kind == "note")
    if src.state == "closed" or src.uses:
        return None
    for cmd in rulebook.action_options(st, active.force, only_source="note"):
        if note.kind == "shoot" and not at_a_target(cmd):
            continue  # popping smoke or loading is no shot: with no target the obligation lapses
        return f"{st.name(card.owner)} must {note.kind} first (blue narrator box): for example `{cmd}`."
    return None


def at_a_target(cmd) -> bool:
    """Does this SHOOT fire at someone (a man's shot or grenade, a vehicle weapon at a soldier or
    vehicle), as a blue 'must shoot' box asks?"""
    return isinstance(cmd, (C.ShootCmd, C.TossCmd)) or (isinstance(cmd, C.Fire) and cmd.target is not None)


def done(ctx: Ctx) -> None:
    st = ctx.st
    active = st.active
    problem = forced_problem(st)
    if problem:
        raise RuleError(problem)
    open_ = [s for s in active.sources if s.state == "open"]
    if open_:
        for s in open_:
            s.state = "closed"
        ctx.say("done", f"{st.seats[st.forces[active.force].seat].name} finishes the {open_[0].kind} part of {active.card}.")
        return
    pass_card(ctx)


def pass_card(ctx: Ctx) -> None:
    st = ctx.st
    problem = must_left(st) or forced_problem(st)
    if problem:
        raise RuleError(problem)
    ctx.say("pass", f"{st.seats[st.forces[st.active.force].seat].name} is done with {st.active.card}.")
    finish(ctx)


# --------------------------------------------------------------------------- what its commands do (engine/core/rulebook.py)


@rulebook.answers(C.Pay)
def pay_answer(ctx: Ctx, cmd: C.Pay, force: str) -> None:
    pay(ctx, cmd.cards)


@rulebook.answers(C.Decline)
def decline_answer(ctx: Ctx, cmd: C.Decline, force: str) -> None:
    decline(ctx)


@rulebook.answers(C.Done)
def done_answer(ctx: Ctx, cmd: C.Done, force: str) -> None:
    done(ctx)


@rulebook.answers(C.Pass)
def pass_answer(ctx: Ctx, cmd: C.Pass, force: str) -> None:
    pass_card(ctx)


@rulebook.answers(*C.ACTION_COMMANDS)
def action_answer(ctx: Ctx, cmd, force: str) -> None:
    act(ctx, cmd)
