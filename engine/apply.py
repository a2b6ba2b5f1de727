"""apply(state, command) -> (new state, events): the only way a game changes.

The command is carried out on a copy; a rule that refuses it raises RuleError and the state
passed in is untouched. After the command the engine plays on through every automatic step
to the next decision.

apply checks that the command answers what the game waits for, from whom, and hands it to its
rule through the rulebook's table (engine/core/rulebook.py COMMANDS): it imports no rule itself
but the rule packages, once, so each rule registers its handlers."""
from __future__ import annotations

from collections.abc import Callable

from engine import advanced, battlefield, infantry, turn, vehicles  # noqa: F401  (every rule registers itself)
from engine.core import commands as C
from engine.core import rulebook
from engine.core.errors import RuleError
from engine.core.log import Ctx, Event
from engine.core.references import check_references
from engine.core.state import GameState
from engine.legal import awaiting, note_asked
from engine.turn.sequence import advance

_FREE = (C.Reslot, *C.BATTLEFIELD_FREE)  # free commands: tactics modules, the vehicle battlefield
_THROUGH_CARD = (*C.ACTION_COMMANDS, C.Done, C.Pass)  # commands carried out through the card in play


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


def _rule(ctx: Ctx, cmd: C.Cmd, force: str | None, key=None) -> None:
    """Hand the command to the rule that carries it out (engine/core/rulebook.py COMMANDS)."""
    rulebook.COMMANDS[key or type(cmd)](ctx, cmd, force)


def _dispatch(ctx: Ctx, cmd: C.Cmd) -> None:
    """Hand the command to its route: what it may answer, asked of its class once (`_route`),
    not by a chain of some twenty isinstance checks each command (an action card's command was
    the last of them)."""
    st = ctx.st
    seat = cmd.seat
    if not 0 <= seat < len(st.seats):
        raise RuleError(f"there is no seat {seat}.")
    cls = type(cmd)
    route = _ROUTE.get(cls)
    if route is None:
        route = _ROUTE[cls] = _route(cls)
    route(ctx, st, cmd, seat, st.pending)


def _plan(ctx, st, cmd, seat, p) -> None:
    if st.step != "place" or p is not None:
        raise _not_yours(st, "cards are placed at the start of a turn")
    _rule(ctx, cmd, _plan_force(st, seat, cmd))


def _any_time(ctx, st, cmd, seat, p) -> None:  # the seat changes hands, at any time (engine/turn/seat_names.py)
    _rule(ctx, cmd, None)


def _always_pass(ctx, st, cmd, seat, p) -> None:  # a player's setting, at any time
    st.seats[seat].always_pass = cmd.on
    ctx.tell(seat, "always_pass", "You will " + ("not be asked about react or preempt cards."
                                                if cmd.on else "be asked about react and preempt cards again."))


def _answering(kinds: tuple[str, ...], what: str):
    """The route of a command that answers a pending decision of one of these kinds, the owner's."""
    def route(ctx, st, cmd, seat, p) -> None:
        if p is None or p.kind not in kinds or st.forces[p.force].seat != seat:
            raise _not_yours(st, what)
        _rule(ctx, cmd, p.force)
    return route


def _skip(ctx, st, cmd, seat, p) -> None:
    if p is None or p.kind not in ("react", "preempt", "then") or st.forces[p.force].seat != seat:
        raise _not_yours(st, "there is nothing to skip")
    _rule(ctx, cmd, p.force, key=(C.Skip, "react" if p.kind == "react" else "preempt"))


def _unhold(ctx, st, cmd, seat, p) -> None:
    if p is not None and p.kind == "unhold":
        fid = _holder_force(st, [f for f in p.forces if st.forces[f].seat == seat], cmd.cards) \
            or _force_for(st, seat, "unhold")
        _rule(ctx, cmd, fid)
        _answer_hold(st, fid)
        return
    if st.step == "place" and p is None:
        fid = _holder_force(st, [f.id for f in st.force_of_seat(seat)], cmd.cards) or st.force_of_seat(seat)[0].id
        if st.forces[fid].planned:
            raise RuleError("take held cards back before you place your cards.")
        _rule(ctx, cmd, fid)
        return
    raise _not_yours(st, "held cards come back after the draw or at a phase start")


def _keep(ctx, st, cmd, seat, p) -> None:
    _answer_hold(st, _force_for(st, seat, "unhold"))


def _capture(ctx, st, cmd, seat, p) -> None:
    if p is None or p.kind != "capture" or st.forces[p.force].seat != seat or cmd.victim != p.victim:
        raise _not_yours(st, "no prisoner to decide on")
    _rule(ctx, cmd, p.force)


def _fight(ctx, st, cmd, seat, p) -> None:
    if st.step != "fighting" or p is not None or st.fight is None:
        raise _not_yours(st, "there is no fight going on")
    _rule(ctx, cmd, _force_for(st, seat, "fight"))


def _through_card(ctx, st, cmd, seat, p) -> None:
    if p is not None or st.active is None or st.forces[st.active.force].seat != seat:
        raise _not_yours(st, "it is not your turn to act")
    _rule(ctx, cmd, st.active.force)  # through the card in play (engine/turn/cards.py)


def _answers_nothing(ctx, st, cmd, seat, p) -> None:
    raise _not_yours(st, f"`{cmd}` does not answer anything")


def _or_release(then):
    """The route of the other commands: while a released prisoner's owner is asked where he
    goes, any command of that seat answers it (a move, or staying: engine/infantry/move.py)."""
    def route(ctx, st, cmd, seat, p) -> None:
        if p is not None and p.kind == "release":
            if st.forces[p.force].seat != seat:
                raise _not_yours(st, "not now")
            _rule(ctx, cmd, p.force, key=C.Stay)
            return
        then(ctx, st, cmd, seat, p)
    return route


# What each command class may answer, the first that takes it in this order; a class none takes
# answers a released prisoner's question if one is open, then a fight, a card in play, or nothing.
_ROUTES = (
    ((C.Plan,), _plan),
    ((C.SeatName,), _any_time),
    ((C.AlwaysPass,), _always_pass),
    ((C.ReactCmd,), _answering(("react",), "react cards are played just after an opponent's action")),
    ((C.PreemptCmd,), _answering(("preempt",), "preempt cards are played after a phase's cards are revealed")),
    ((C.Then,), _answering(("then",), "there is no preempt to follow up")),
    ((C.Skip,), _skip),
    ((C.Unhold,), _unhold),
    ((C.Keep,), _keep),
    (_FREE, _any_time),  # free commands: tactics modules, the vehicle battlefield
    ((C.Declare,), _answering(("declare",), "nothing to declare")),
    ((C.HitPlus,), _answering(("hitplus",), "there is no Hit+ to follow")),
    ((C.Pay, C.Decline), _answering(("pay",), "there is no cost to pay")),
    ((C.Capture, C.KillCmd), _capture),
)
_LATE = (((C.FightCmd,), _or_release(_fight)), (_THROUGH_CARD, _or_release(_through_card)))


def _route(cls: type) -> Callable:
    """The route of a command class (tests/engine/test_dispatch_routes.py)."""
    for types, route in (*_ROUTES, *_LATE):
        if issubclass(cls, types):
            return route
    return _OR_NOTHING


_OR_NOTHING = _or_release(_answers_nothing)
_ROUTE: dict[type, Callable] = {}  # command class -> _route(it), found once per class


def _answer_hold(st, fid: str) -> None:
    p = st.pending
    p.forces = [f for f in p.forces if f != fid]
    if not p.forces:
        st.pending = None
