"""apply(state, command) -> (new state, events): the only way a game changes.

The command is carried out on a copy; a rule that refuses it raises RuleError and the state
passed in is untouched. After the command the engine plays on through every automatic step
to the next decision."""
from __future__ import annotations

from engine import cards, commands as C, fight, placement, preempt, react
from engine.errors import RuleError
from engine.hide import unhold
from engine.legal import awaiting, note_asked
from engine.log import Ctx, Event
from engine.move import Dest, move
from engine.references import check_references
from engine.sequence import advance
from engine.shoot import resolve_hit_plus
from engine.state import GameState


def apply(state: GameState, cmd: C.Cmd) -> tuple[GameState, list[Event]]:
    if state.step == "over":
        raise RuleError("the game is over.")
    cmd = check_references(state, cmd)
    st = state.clone()
    ctx = Ctx(st)
    _dispatch(ctx, cmd)
    advance(ctx)
    st.seq += 1
    note_asked(state, st, cmd)
    ctx.close()
    return st, ctx.events


def _waiting_text(st) -> str:
    waits = awaiting(st)
    if not waits:
        return "nobody is awaited."
    return "; ".join(f"{st.seats[a.seat].name} to {a.detail}" for a in waits) + "."


def _not_yours(st, what: str) -> RuleError:
    return RuleError(f"{what}: the game is waiting for {_waiting_text(st)}")


def _force_for(st, seat: int, kind: str) -> str:
    for a in awaiting(st):
        if a.seat == seat and a.kind == kind:
            return a.force
    raise _not_yours(st, "not now")


def _plan_force(st, seat: int, cmd: C.Plan) -> str:
    """The deck a placement is for: the one named, else the one whose hand holds the cards
    (a seat may have a squad and vehicles, each with its own hand), else the first unplanned."""
    mine = st.force_of_seat(seat)
    if cmd.force is not None:
        if cmd.force not in {f.id for f in mine}:
            raise RuleError(f"{cmd.force} is not one of your decks: " + ", ".join(f.id for f in mine) + ".")
        return cmd.force
    named = [c for c in cmd.cards if c]
    if named and len(mine) > 1:
        for f in mine:
            hand = set(f.hand) | ({c for c in f.placed if c} if f.planned else set())
            if named[0] in hand:
                return f.id
    unplanned = [f.id for f in mine if not f.planned]
    return (unplanned or [f.id for f in mine])[0]


def _holder_force(st, forces: list[str], cards: list[str]) -> str | None:
    """Of a seat's decks, the one whose soldiers hold the first card named."""
    for fid in forces:
        if cards and any(cards[0] in s.held for s in st.soldiers.values() if s.force == fid):
            return fid
    return None


def _dispatch(ctx: Ctx, cmd: C.Cmd) -> None:
    st = ctx.st
    seat = cmd.seat
    if not 0 <= seat < len(st.seats):
        raise RuleError(f"there is no seat {seat}.")
    p = st.pending
    if isinstance(cmd, C.Plan):
        if st.step != "place" or p is not None:
            raise _not_yours(st, "cards are placed at the start of a turn")
        placement.plan(ctx, _plan_force(st, seat, cmd), cmd.cards, cmd.declare, cmd.extra)
        return
    if isinstance(cmd, C.SeatName):  # the seat changes hands, at any time (engine/seat_names.py)
        from engine.seat_names import rename
        rename(st, seat, cmd.name)
        return
    if isinstance(cmd, C.AlwaysPass):  # a player's setting, at any time
        st.seats[seat].always_pass = cmd.on
        ctx.tell(seat, "always_pass", "You will " + ("not be asked about react or preempt cards."
                                                    if cmd.on else "be asked about react and preempt cards again."))
        return
    if isinstance(cmd, C.ReactCmd):
        if p is None or p.kind != "react" or st.forces[p.force].seat != seat:
            raise _not_yours(st, "react cards are played just after an opponent's action")
        react.play(ctx, cmd.card)
        return
    if isinstance(cmd, C.PreemptCmd):
        if p is None or p.kind != "preempt" or st.forces[p.force].seat != seat:
            raise _not_yours(st, "preempt cards are played after a phase's cards are revealed")
        preempt.play(ctx, cmd.card, cmd.target, cmd.soldiers)
        return
    if isinstance(cmd, C.Then):
        if p is None or p.kind != "then" or st.forces[p.force].seat != seat:
            raise _not_yours(st, "there is no preempt to follow up")
        preempt.carry_out_then(ctx, cmd.serial, cmd.target)
        return
    if isinstance(cmd, C.Skip):
        if p is None or p.kind not in ("react", "preempt", "then") or st.forces[p.force].seat != seat:
            raise _not_yours(st, "there is nothing to skip")
        (react.skip if p.kind == "react" else preempt.skip)(ctx)
        return
    if isinstance(cmd, C.Unhold):
        if p is not None and p.kind == "unhold":
            fid = _holder_force(st, [f for f in p.forces if st.forces[f].seat == seat], cmd.cards) \
                or _force_for(st, seat, "unhold")
            unhold(ctx, fid, cmd.cards)
            _answer_hold(st, fid)
            return
        if st.step == "place" and p is None:
            fid = _holder_force(st, [f.id for f in st.force_of_seat(seat)], cmd.cards) or st.force_of_seat(seat)[0].id
            if st.forces[fid].planned:
                raise RuleError("take held cards back before you place your cards.")
            unhold(ctx, fid, cmd.cards)
            return
        raise _not_yours(st, "held cards come back after the draw or at a phase start")
    if isinstance(cmd, C.Keep):
        fid = _force_for(st, seat, "unhold")
        _answer_hold(st, fid)
        return
    if isinstance(cmd, C.Reslot):  # tactics modules: a free command while cards are placed (engine/teams.py)
        from engine.teams import reslot
        reslot(ctx, seat, cmd.serial, cmd.slot)
        return
    if isinstance(cmd, C.BATTLEFIELD_FREE):  # the vehicle battlefield (issue 9): free commands
        if isinstance(cmd, C.AssailCmd):
            from engine.close_combat import assail
            assail(ctx, cmd)
        elif isinstance(cmd, C.CallCmd):
            from engine.artillery import call
            call(ctx, cmd)
        else:
            from engine.artillery import plan_barrage
            plan_barrage(ctx, cmd)
        return
    if isinstance(cmd, C.Declare):
        if p is None or p.kind != "declare" or st.forces[p.force].seat != seat:
            raise _not_yours(st, "nothing to declare")
        st.pending = None
        placement.declare(ctx, p, cmd.action)
        return
    if isinstance(cmd, C.HitPlus):
        if p is None or p.kind != "hitplus" or st.forces[p.force].seat != seat:
            raise _not_yours(st, "there is no Hit+ to follow")
        resolve_hit_plus(ctx, p, cmd.target)
        return
    if isinstance(cmd, (C.Pay, C.Decline)):
        if p is None or p.kind != "pay" or st.forces[p.force].seat != seat:
            raise _not_yours(st, "there is no cost to pay")
        cards.pay(ctx, cmd.cards) if isinstance(cmd, C.Pay) else cards.decline(ctx)
        return
    if isinstance(cmd, (C.Capture, C.KillCmd)):
        if p is None or p.kind != "capture" or st.forces[p.force].seat != seat or cmd.victim != p.victim:
            raise _not_yours(st, "no prisoner to decide on")
        st.pending = None
        if isinstance(cmd, C.Capture):
            fight.capture(ctx, p, cmd.escort)
        else:
            fight.refuse_capture(ctx, p)
        return
    if p is not None and p.kind == "release":
        if st.forces[p.force].seat != seat:
            raise _not_yours(st, "not now")
        if isinstance(cmd, C.Stay):
            _released(ctx, p.prisoner, moved=False)
            return
        if isinstance(cmd, C.MoveCmd) and cmd.serial == p.prisoner and not cmd.exit:
            move(ctx, cmd.serial, Dest(cell=cmd.cell, tile=cmd.tile, cover=cmd.cover), cmd.facing)
            _released(ctx, p.prisoner, moved=True)
            return
        raise RuleError(f"move {st.name(p.prisoner)} ({p.prisoner}) somewhere, or stay.")
    if isinstance(cmd, C.FightCmd):
        if st.step != "fighting" or p is not None or st.fight is None:
            raise _not_yours(st, "there is no fight going on")
        fid = _force_for(st, seat, "fight")
        fight.play(ctx, fid, cmd.card, cmd.target)
        return
    if isinstance(cmd, (*C.ACTION_COMMANDS, C.Done, C.Pass)):
        if p is not None or st.active is None or st.forces[st.active.force].seat != seat:
            raise _not_yours(st, "it is not your turn to act")
        if isinstance(cmd, C.Done):
            cards.done(ctx)
        elif isinstance(cmd, C.Pass):
            cards.pass_card(ctx)
        else:
            cards.act(ctx, cmd)
        return
    raise _not_yours(st, f"`{cmd}` does not answer anything")


def _answer_hold(st, fid: str) -> None:
    p = st.pending
    p.forces = [f for f in p.forces if f != fid]
    if not p.forces:
        st.pending = None


def _released(ctx: Ctx, prisoner: int, moved: bool) -> None:
    st = ctx.st
    s = st.soldiers[prisoner]
    s.pinned = True
    s.spotted = False
    st.pending = None
    ctx.say("released", f"{st.name(prisoner)} is back with his own side, unspotted and pinned"
            + ("" if moved else ", staying where he was") + ".", serial=prisoner)
