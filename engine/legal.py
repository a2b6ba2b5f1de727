"""What each awaited player may do now, as concrete commands: for the random agent, for hints and
autocomplete, and so a card with nothing left to do ends by itself. Every command listed here
is accepted by apply (a property test holds us to it)."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from operator import itemgetter

from pydantic import BaseModel

from engine.advanced import react
from engine.advanced.equipment_use import use_options
from engine.advanced.preempt import (
    forced_left,
    forced_problem,
    nameable,
    playable,
    targets,
    then_options,
)
from engine.advanced.sources import accepted, acceptor
from engine.battlefield.artillery import adjust_options, barrage_options, call_options
from engine.battlefield.close_combat import assail_options, climb_options
from engine.battlefield.mines import clear_options, lay_options
from engine.battlefield.recovery import move_options
from engine.core import commands as C
from engine.core import rulebook
from engine.core.action_cards import DO_OF, owner_can_act
from engine.core.as_given import as_given
from engine.core.board import DIRS, SQRT2, direction_to, exact_inches
from engine.core.content import (
    ACTION_OF,
    DO_COVER,
    DO_DRAW,
    DO_FACE,
    DO_HOLD,
    DO_MOVE,
    DO_RALLY,
    DO_SHOOT,
    DO_SIGHT,
    DO_TOSS,
    Do,
)
from engine.core.errors import RuleError
from engine.core.ratings import current
from engine.core.state import Source
from engine.core.views import Await
from engine.infantry.blast import aim_fault, thrower_problem
from engine.infantry.contact import Known, enemies_of, escorting, in_contact
from engine.infantry.hide import rally_check
from engine.infantry.look import check_can_look, sight_any, sight_must
from engine.infantry.move import (
    charge_cell,
    destination_cells,
    reachable,
    some_destination,
    walk_allowance,
)
from engine.infantry.shoot import check_can_shoot, shoot_targets, target_fault
from engine.turn import fight as fights
from engine.turn.cards import must_left
from engine.turn.matching import fits
from engine.turn.officer import command_value
from engine.turn.placement import auto_plan, most_filled
from engine.turn.placement import fitting as placement_fitting
from engine.vehicles import legal as vehicle_legal
from engine.vehicles.legal import CHEAP, CHECK, SEARCH, Check

# Commands a player may give while another decision is open, answering none
FREE_COMMANDS = (C.AlwaysPass, C.Reslot, C.SeatName, *C.BATTLEFIELD_FREE)


def decision_key(st, kind: str, force: str | None) -> str:
    """A decision's identity, the same while it is the same decision and new when it is new:
    placing a deck's cards in a turn; the part in use of the card in play (the turn, phase, slot,
    force, which of its cards, its action and how many of its parts are finished); the held-card
    window of a phase;
    any other decision (a Hit+, a fight card, a react...) is tied to one moment, and told apart
    by the command after which it was asked (GameState.asked_at, set by note_asked)."""
    if kind == "place":
        return f"place:T{st.turn}:{force}"
    if kind == "unhold":
        return f"unhold:T{st.turn}:P{st.phase}:{force}"
    if kind == "act":
        a = st.active
        finished = 0  # counted in a loop, not by a generator made and summed: asked at every command
        for s in a.sources:
            if s.state == "closed":
                finished += 1
        # a card by how many came before it in the slot: a hidden man's card id is secret (a
        # react card is played openly, and several may interrupt one card)
        card = a.card if a.react else len(st.done_cards)
        # (a StrEnum formats as its value, without enum's `.value` descriptor)
        return f"act:T{st.turn}:P{st.phase}:S{st.slot}:{a.force}:{card}:{a.action}:{finished}"
    return f"{kind}:T{st.turn}:P{st.phase}:{st.asked_at}"


def awaiting(st) -> list[Await]:
    """Who the engine waits for, and for what (each with its decision_key). Empty when the game is over."""
    return _awaiting(st)


def answerable(st, seat: int) -> list[Await]:
    """The decisions a seat may answer now: those he is awaited for and, while cards are placed,
    the placement of each of his decks (he may change it until the last player has placed)."""
    out = [a for a in awaiting(st) if a.seat == seat]
    if st.step == "place" and st.pending is None:
        placing = {a.force for a in out if a.kind == "place"}
        for f in st.force_of_seat(seat):
            if f.id not in placing:
                out.append(Await(seat=seat, kind="place", force=f.id, detail="change the cards placed",
                                 key=decision_key(st, "place", f.id)))
    return out


def _moment(st) -> tuple[BaseModel, int] | None:
    """The one-moment decision open now as a value (the pending decision, or the fight whose
    turn it is), and the seat it waits for."""
    p = st.pending
    if p is not None:
        return None if p.kind == "unhold" else (p, st.forces[p.force].seat)
    if st.step == "fighting" and st.fight is not None:
        f = fights.whose_turn(st)
        if f:
            return st.fight, st.forces[f].seat
    return None


def note_asked(before, after, cmd: C.Cmd) -> None:
    """After `cmd` took `before` to `after`: number a one-moment decision that is newly asked
    (another than before, or the same kind again once the one before was answered) by the
    command count, so its decision_key is new; one left open keeps its number."""
    now = _moment(after)
    if now is None:
        return
    was = _moment(before)
    answered = was is not None and cmd.seat == was[1] and not isinstance(cmd, FREE_COMMANDS)
    if was is None or answered or was[0] != now[0]:
        after.asked_at = after.seq


# what _await and _with_cards set on a new model, each through its own slot's descriptor (as the
# state's copiers do, engine/core/state.py _SETTERS)
_AWAIT_FIELDS = ("seat", "kind", "force", "detail", "key")


def _await(seat: int, kind: str, force: str | None, detail: str, key: str) -> Await:
    """`Await(seat=seat, kind=kind, force=force, detail=detail, key=key)` without pydantic's
    `__init__` and validator around it: every field is given, each already of its type (an int
    seat, str words), so the same model is made (fields, fields set, no extra or private values;
    tests/engine/test_sequence_cuts38.py holds it to the validated one). The service asks
    `awaiting` at every command."""
    return as_given(Await, {"seat": seat, "kind": kind, "force": force, "detail": detail, "key": key},
                    set(_AWAIT_FIELDS))


def _awaiting(st) -> list[Await]:
    """awaiting's decisions, each made with its key (a field given once, not set afterwards), by
    `_await` (every field given, each already of its type: nothing for a validator to do)."""
    if st.step == "over":
        return []
    p = st.pending
    if p is not None:
        if p.kind == "unhold":
            return [_await(st.forces[f].seat, "unhold", f, "take held cards back into your hand, or keep them",
                       decision_key(st, "unhold", f)) for f in p.forces]
        seat = st.forces[p.force].seat
        if p.kind in ("react", "preempt", "then"):
            detail = {"react": "play a react card after that action, or skip",
                      "preempt": f"preempt a card revealed for phase {st.phase}, or skip",
                      "then": f"follow the preempt up ({getattr(p, 'do', '')}), or skip"}[p.kind]
            return [_await(seat, p.kind, p.force, detail, decision_key(st, p.kind, p.force))]
        detail = {
            "declare": f"say how {getattr(p, 'card', '')} is used",
            "hitplus": "choose where the Hit+ burst goes",
            "pay": f"pay the cost of {getattr(p, 'card', '')} or decline",
            "capture": f"take {st.name(p.victim) if p.kind == 'capture' else ''} prisoner or kill him",
            "release": f"move {st.name(p.prisoner) if p.kind == 'release' else ''}, just released, or stay",
        }[p.kind]
        return [_await(seat, p.kind, p.force, detail, decision_key(st, p.kind, p.force))]
    if st.step == "place":
        out = []
        for f in st.forces.values():
            if f.planned:
                continue
            n = command_value(st, f.id)
            more = f", and up to {n} extra with your officer (+PHASE=CARD)" if n else ""
            out.append(_await(f.seat, "place", f.id, "place three action cards" + more, decision_key(st, "place", f.id)))
        return out
    if st.step == "slot" and st.active is not None:
        a = st.active
        return [_await(st.forces[a.force].seat, "act", a.force, f"carry out {a.card} ({a.action.upper()})",
                       decision_key(st, "act", a.force))]
    if st.step == "fighting" and st.fight is not None:
        f = fights.whose_turn(st)
        if f:
            return [_await(st.forces[f].seat, "fight", f, "play a fight card", decision_key(st, "fight", f))]
    return []


# --------------------------------------------------------------------------- action commands


def _men(st, force: str, vehicular: bool) -> list[int]:
    """The force's men on foot on the board or still to enter, then (`vehicular`) its vehicles
    and men aboard in its command (vehicles/legal.py actors), the soldiers read in one pass
    (tests/engine/test_anything_to_do.py holds it to the two lists made apart)."""
    men: list[int] = []
    aboard: list[int] = []
    for s in st.soldiers.values():
        status = s.status
        if status == "board":
            if s.controller == force and s.free:
                men.append(s.serial)
        elif status == "waiting":
            if s.force == force:
                men.append(s.serial)
        elif status == "aboard" and vehicular and s.controller == force and s.captor is None:
            aboard.append(s.serial)
    men.sort()
    if vehicular:
        men += [p for p, v in sorted(st.vehicles.items()) if v.controller == force and v.status in ("board", "waiting")]
        aboard.sort()
        men += aboard
    return men


@rulebook.action_options.fill
def action_options(st, force: str, only_source: str | None = None,
                   only_men: list[int] | None = None) -> Iterator[C.Cmd]:
    """Concrete action commands the card in play allows, each naming its source (whether there is
    any at all: anything_to_do)."""
    active = st.active
    if active is None or active.force != force:
        return
    if only_men is None and st.preempts and not active.react:
        left = forced_left(st)
        if left:  # a preempted card: the named men act first, with the team bubble's required action
            for m, serial in left:
                for cmd in action_options(st, force, only_source="team", only_men=[serial]):
                    if ACTION_OF[DO_OF[type(cmd)]] == m.action:
                        yield cmd
            return
    seat = st.forces[force].seat
    vehicular = bool(st.vehicles)
    for kind, src, men in _parts(st, active, force, only_source, vehicular):
        if only_men is not None:
            men = [m for m in men if m in only_men]
        for m in men:
            if m in st.vehicles:
                yield from vehicle_legal.plate_options(st, active, kind, m, seat)
                yield from _lay_options(st, active, kind, m, seat)
            elif st.soldiers[m].status == "aboard":
                yield from vehicle_legal.aboard_options(st, active, kind, m, seat)
                yield from _lay_options(st, active, kind, m, seat)
            else:
                acc = accepted(st, active, src, m)  # what this part takes from him, for both listings
                yield from _soldier_options(st, active, kind, m, seat, acc)
                if vehicular:
                    yield from vehicle_legal.foot_options(st, active, kind, m, seat, acc)
            if st.artillery.calls:  # a Sight for an artillery call under way (engine/battlefield/artillery.py)
                yield from adjust_options(st, active, kind, m, seat)


def _parts(st, active, force: str, only_source: str | None, vehicular: bool) -> Iterator[tuple[str, Source, list[int]]]:
    """Each open part of the card in play (only `only_source`, if given) with the men and plates
    who may act for it: the owner for the dog tag and the note, the rest of the force (and its
    vehicles) for the others, minus the men the part has already used."""
    force_men: list[int] | None = None  # the force's men and plates, read once for every part
    owner: list[int] | None = None  # the tag's and the note's man, once either is asked (owner_can_act)
    # (a card's parts are of different kinds: engine/turn/cards.py start, engine/advanced/react.py)
    for src in tuple(active.sources):  # (a copy, as a listing's reader may go on after a change)
        if src.state == "closed":
            continue
        kind = src.kind
        if only_source is not None and kind != only_source:
            continue
        if kind in ("tag", "note"):
            if owner is None:
                owner = [st.card(active.card).owner] if owner_can_act(st, active) else []
            if owner:
                yield kind, src, owner
            continue
        if force_men is None:
            force_men = _men(st, force, vehicular)
        used = src.used
        if not used:
            yield kind, src, force_men
        else:  # a plate may act again for a part; the vehicles read once, not once a man
            vehicles = st.vehicles
            yield kind, src, [m for m in force_men if m not in used or m in vehicles]


@rulebook.anything_to_do.fill
def anything_to_do(st, force: str, only_source: str | None = None) -> bool:
    """Whether the card in play (or its part `only_source`) gives `force` anything to do: exactly
    whether action_options lists a command (tests/engine/test_anything_to_do.py holds the two
    together), answered without listing: each man (or plate) of each part in turn, his questions
    cheapest first, stopping at the first yes, so the men after him are never asked; a SHOOT,
    toss or Sight is asked only when an enemy it could aim at exists at all, and each search
    stops at its first find (docs/architecture.md)."""
    active = st.active
    if active is None or active.force != force:
        return False
    if st.preempts and not active.react and forced_left(st):  # preempted men act first: seldom asked
        return next(iter(action_options(st, force, only_source)), None) is not None
    seat = st.forces[force].seat
    vehicular = bool(st.vehicles)
    calls = st.artillery.calls  # adjust_options offers nothing without one of this seat's
    calls = bool(calls) and any(c.seat == seat for c in calls)
    # the question's memory (_Foes), made at the first man with a question to ask: a card with no
    # part open, or whose men all wait to enter while it moves nobody, makes none
    foes: _Foes | None = None
    targets = None
    vehicles, soldiers = st.vehicles, st.soldiers
    for kind, src, men in _parts(st, active, force, only_source, vehicular):
        of = acceptor(st, active, src)  # what the part takes from each man, its own facts read once
        for m in men:
            v = vehicles.get(m) if vehicular else None
            s = None if v is not None else soldiers[m]
            if v is not None or s.status == "aboard":
                if foes is None:
                    foes = _Foes(st, vehicular)
                    targets = foes.targets
                if v is not None:
                    checks = vehicle_legal.plate_checks(st, active, kind, m, seat, targets, of)
                else:
                    checks = vehicle_legal.aboard_checks(st, active, kind, m, seat, targets, of)
                    v = vehicles[s.vehicle]
                if v.mine_load:  # _lay_options' first test
                    checks.append((CHECK, lambda m=m, kind=kind: next(_lay_options(st, active, kind, m, seat), None)
                                   is not None))
            else:
                acc = of(m)
                if not calls and (not acc or (DO_MOVE not in acc and s.status == "waiting")):
                    continue  # nothing for him to be asked (a man still to enter may only MOVE)
                if foes is None:
                    foes = _Foes(st, vehicular)
                    targets = foes.targets
                checks = _soldier_checks(st, active, kind, m, seat, acc, foes)
                if vehicular:
                    checks += vehicle_legal.foot_checks(st, active, kind, m, seat, acc, targets)
            if calls:
                checks.append((SEARCH, lambda m=m, kind=kind: next(adjust_options(st, active, kind, m, seat), None)
                               is not None))
            if len(checks) > 1:
                checks.sort(key=itemgetter(0))  # his questions cheapest first
            for _, ask in checks:
                if ask():
                    return True
    return False


class _Foes:
    """The enemies a man's SHOOT, toss or Sight could aim at, per side, found once per question:
    a shot and a toss need a spotted enemy soldier on the board, a Sight an enemy not yet spotted
    (the rules' own first tests, target_fault, aim_fault and sight_any). Each man's contact
    and escort, asked by several rule checks, are remembered in `known` (contact.Known), which
    the vehicle checks' `targets` share; without vehicles no vehicle check is asked, and no
    `Targets` is made. Each scan compares a man's side and spotted fields before asking the
    `free` property: the same answer (the tests have no side effects), and no call for the men
    of the asking side."""

    __slots__ = ("_once", "_spotted", "_unseen", "known", "st", "targets")

    def __init__(self, st, vehicular: bool = True) -> None:
        self.st = st
        self.targets = vehicle_legal.Targets(st) if vehicular else None
        self.known = self.targets.known if vehicular else Known(st)
        self._spotted: dict[str, list[int]] = {}
        self._unseen: dict[str, bool] = {}
        self._once: dict[tuple, bool] = {}

    def spotted(self, side: str) -> list[int]:
        got = self._spotted.get(side)
        if got is None:
            got = self._spotted[side] = [s.serial for s in self.st.soldiers.values()
                                         if s.side != side and s.spotted and s.free]
        return got

    def once(self, key: tuple, ask: Callable[[], bool]) -> bool:
        """A man's answer that does not depend on the part he is asked through (his shots,
        tosses, Sight), worked out at the first part that asks it."""
        got = self._once.get(key)
        if got is None:
            got = self._once[key] = ask()
        return got

    def unseen(self, side: str) -> bool:
        got = self._unseen.get(side)
        if got is None:
            st = self.st
            got = self._unseen[side] = any(s.side != side and not s.spotted and s.free for s in st.soldiers.values()) \
                or any(v.status == "board" and v.side != side and not v.spotted for v in st.vehicles.values())
        return got


def _soldier_checks(st, active, kind: str, m: int, seat: int, acc: frozenset[Do], foes: _Foes) -> list[Check]:
    """Whether _soldier_options offers anything, as questions with their costs: its tests in
    another order, a turn (always possible) and what a field or two tell at once; a question
    only for what the part takes from him, and a shot, toss or Sight only with an enemy to aim
    at. What does not depend on the part (his shots, tosses, Sight) is asked once per question.
    A man in combat contact may do none of these: each question's yes is checked against his
    contact (`clear`), so the soldiers are scanned for it only once something says yes, never
    for a man with nothing to do (tests/engine/test_advance_cuts37.py)."""
    if not acc:
        return []
    s = st.soldiers[m]
    ok = acc.__contains__
    if s.status == "waiting":
        return [(SEARCH, lambda: _can_move(st, m, seat, kind))] if ok(DO_MOVE) else []
    if ok(DO_FACE):
        return [(CHEAP, lambda: True)]  # a quarter turn is always offered
    known = foes.known
    out: list[Check] = []  # each yes asks `clear` (made below, once there is a question to ask)
    if ok(DO_COVER) or ok(DO_DRAW) or ok(DO_HOLD):
        f = st.forces[active.force]
        out.append((CHEAP, lambda: ((ok(DO_COVER) and s.spotted and st.board.in_cover(s.at))
                                    or (ok(DO_DRAW) and bool(f.deck or f.discard))
                                    or (ok(DO_HOLD) and bool(f.hand) and current(st, m, "hold") > len(s.held)))
                    and clear()))
    if ok(DO_RALLY):
        out.append((CHECK, lambda: _can_rally(st, active, kind, m) and clear()))
    # the enemies a shot, toss or Sight could aim at are looked for when that question is asked,
    # not when it is made: a man whose cheaper question says yes has the soldiers scanned for none
    # (the question with no enemy to aim at says no, as leaving it out did)
    if ok(DO_SHOOT) or ok(DO_TOSS):
        side = s.side

        def shoots() -> bool:
            try:
                check_can_shoot(st, m, known)
                return any(target_fault(st, m, t, known) is None for t in foes.spotted(side))
            except RuleError:
                return False

        def tosses() -> bool:
            return s.grenades > 0 and thrower_problem(st, m, known) is None \
                and any(aim_fault(st, m, t) is None for t in foes.spotted(side))
        out.append((SEARCH, lambda: bool(foes.spotted(side))
                    and ((ok(DO_SHOOT) and foes.once(("shoot", m), shoots))
                         or (ok(DO_TOSS) and foes.once(("toss", m), tosses))) and clear()))
    if ok(DO_SIGHT):
        def sight() -> bool:
            try:
                check_can_look(st, m, known)
                return sight_any(st, m)
            except RuleError:
                return False
        out.append((SEARCH, lambda: foes.unseen(s.side) and foes.once(("sight", m), sight) and clear()))
    if ok(DO_TOSS) and s.equipment:
        out.append((SEARCH, lambda: bool(use_options(st, m, seat, kind)) and clear()))
    if ok(DO_MOVE):
        def moves() -> bool:
            if not s.dismounted and not (m in active.moved_escorts and known.escorting(m)):
                if _can_move(st, m, seat, kind):
                    return clear()
                if st.vehicles and next(iter(climb_options(st, m, seat, kind)), None) is not None:
                    return clear()
            if next(iter(move_options(st, m, seat, kind)), None) is not None:
                return clear()
            return bool(st.minefields or st.mines) and next(iter(clear_options(st, m, seat, kind)), None) is not None \
                and clear()
        out.append((SEARCH, moves))
    if out:
        def clear() -> bool:
            return not (s.free and known.contact(m))
    return out


def _can_rally(st, active, kind: str, m: int) -> bool:
    """Whether _soldier_options offers this man a Rally of anyone. (A man's pinned field is read
    before the free property: most men are not pinned, and the test has no side effects.)"""
    s = st.soldiers[m]
    src = next(x for x in active.sources if x.kind == kind)
    for o in st.soldiers.values():
        if not (o.pinned and o.free and o.controller == s.controller) or o.serial in src.rallied:
            continue
        if kind == "team" and s.pinned and o.serial != m:
            continue
        try:
            rally_check(st, m, o.serial, done_self=m in src.rallied)
        except RuleError:
            continue
        return True
    return False


def _lay_options(st, active, kind: str, m: int, seat: int) -> Iterator[C.Cmd]:
    """Mines from a vehicle's load (engine/battlefield/mines.py): a MOVE of its plate or a man aboard."""
    plate = m if m in st.vehicles else st.soldiers[m].vehicle
    if st.vehicles[plate].mine_load and vehicle_legal.oker(st, active, kind, m)(DO_MOVE):
        yield from lay_options(st, m, seat, kind)


def _soldier_options(st, active, kind: str, m: int, seat: int, acc: frozenset[Do]) -> Iterator[C.Cmd]:
    s = st.soldiers[m]
    if not acc:
        return
    ok = acc.__contains__
    if s.status == "waiting":
        if ok(DO_MOVE):
            yield from _moves(st, m, seat, kind)
        return
    contact = None
    if ok(DO_FACE):
        # a quarter turn (always possible, and cheap to offer first), then turns toward an
        # enemy in contact or the nearest enemies
        quarter = DIRS[(DIRS.index(s.facing) + 2) % 8]
        yield C.Face(seat=seat, serial=m, facing=quarter, via=kind)
        contact = in_contact(st, m)
        foes = contact or enemies_of(st, m)
        want = {direction_to(s.at, st.soldiers[e].at) for e in foes[:2]} - {s.facing, quarter}
        for d in sorted(want):
            yield C.Face(seat=seat, serial=m, facing=d, via=kind)
    if s.free and (in_contact(st, m) if contact is None else contact):
        return
    if ok(DO_MOVE) and not s.dismounted and not (m in active.moved_escorts and escorting(st, m)):
        yield from _moves(st, m, seat, kind)
        if st.vehicles:  # onto an enemy vehicle's deck to fight at its hatches (engine/battlefield/close_combat.py)
            yield from climb_options(st, m, seat, kind)
    if ok(DO_MOVE):  # issue 9: handing off equipment, searching for it, taking over a vehicle
        yield from move_options(st, m, seat, kind)
        if st.minefields or st.mines:  # lifting mines with a detector (engine/battlefield/mines.py)
            yield from clear_options(st, m, seat, kind)
    if ok(DO_SIGHT):
        try:
            check_can_look(st, m)
            must = sight_must(st, m)
        except RuleError:
            must = []
        if len(must) == 1:
            yield C.SightCmd(seat=seat, serial=m, via=kind)
        else:
            for t in must:
                yield C.SightCmd(seat=seat, serial=m, target=t, via=kind)
    if ok(DO_SHOOT):
        try:
            check_can_shoot(st, m)
            for t in shoot_targets(st, m):
                yield C.ShootCmd(seat=seat, serial=m, target=t, via=kind)
        except RuleError:
            pass
    if ok(DO_TOSS) and s.grenades > 0 and thrower_problem(st, m) is None:
        for t in enemies_of(st, m):
            if aim_fault(st, m, t) is None:
                yield C.TossCmd(seat=seat, serial=m, target=t, via=kind)
    if ok(DO_TOSS) and s.equipment:  # equipment: smoke and weapons (engine/infantry/equipment.py)
        yield from use_options(st, m, seat, kind)
    if ok(DO_COVER) and s.spotted and st.board.in_cover(s.at):
        yield C.CoverCmd(seat=seat, serial=m, via=kind)
    if ok(DO_RALLY):
        src = next(x for x in active.sources if x.kind == kind)
        for t in sorted(o.serial for o in st.soldiers.values() if o.free and o.pinned and o.controller == s.controller):
            if t in src.rallied:
                continue
            if kind == "team" and s.pinned and t != m:
                continue
            try:
                rally_check(st, m, t, done_self=m in src.rallied)
            except RuleError:
                continue
            yield C.RallyCmd(seat=seat, serial=m, target=t, via=kind)
    if ok(DO_DRAW):
        f = st.forces[active.force]
        if f.deck or f.discard:
            yield C.DrawCmd(seat=seat, serial=m, via=kind)
    if ok(DO_HOLD):
        f = st.forces[active.force]
        room = current(st, m, "hold") - len(s.held)
        if room > 0 and f.hand:
            yield C.HoldCmd(seat=seat, serial=m, cards=f.hand[:room], via=kind)
            if room > 1 and len(f.hand) > 1:
                yield C.HoldCmd(seat=seat, serial=m, cards=f.hand[:1], via=kind)


def _moves(st, m: int, seat: int, kind: str | None) -> Iterator[C.Cmd]:
    costs, parents, _ = reachable(st, m)
    for t, cover in sorted(destination_cells(st, m, costs, parents)):
        yield C.MoveCmd(seat=seat, serial=m, tile=t, cover=cover, via=kind)
    yield from _exits_and_charges(st, m, seat, kind, costs)


def _can_move(st, m: int, seat: int, kind: str) -> bool:
    """Whether _moves offers anything: a tile found at the first cell he may end on, else an exit or a charge."""
    costs, parents, _ = reachable(st, m)
    return (some_destination(st, m, costs, parents) is not None
            or next(_exits_and_charges(st, m, seat, kind, costs), None) is not None)


def _exits_and_charges(st, m: int, seat: int, kind: str | None, costs) -> Iterator[C.Cmd]:
    """A man on the board walking off by an exit area (or, escorting a prisoner, his entry area),
    or charging an enemy within his allowance."""
    s = st.soldiers[m]
    board = st.board
    if s.status != "board":
        return
    sc = st.setup.scenario
    exits = set(sc.exit_areas)
    prisoners = escorting(st, m)
    if prisoners:
        exits |= set(sc.side(s.side).entry)
    allowance = walk_allowance(st, m)
    for name in sorted(exits):
        area = sc.exit_areas.get(name) or sc.entry_areas.get(name)
        if any(c in costs and costs[c] + 1 <= allowance + 1e-9 for c in board.edge_cells(area.tile, area.edge)):
            yield C.MoveCmd(seat=seat, serial=m, exit=True, area=name, via=kind)
    if prisoners:
        return
    for e in enemies_of(st, m):
        # a charge ends at most a diagonal step short of its target: one farther off is out of reach
        if exact_inches(s.at, st.soldiers[e].at) > allowance + SQRT2 + 1e-6:
            continue
        try:
            _, length = charge_cell(st, m, e)
        except RuleError:
            continue
        if length <= allowance + 1e-9:
            yield C.Charge(seat=seat, serial=m, target=e, via=kind)


# --------------------------------------------------------------------------- every decision


def plan_options(st, force: str, limit: int = 400) -> list[C.Plan]:
    seat, named, hand, phases, picks = _plan_picks(st, force, limit)
    out = [C.Plan(seat=seat, cards=list(cards), force=named) for cards in picks]
    return out + _extra_plans(st, force, hand, phases, out[:20])


def plan_drafts(st, force: str, limit: int = 400) -> list[C.Plan]:
    """`plan_options`, for their words only (a placement prompt's lines and labels): the first
    plan validated, the others copies of it with their own cards, not validated again (the
    validation was some 40% of the search). Equal to `plan_options` (a property test
    holds us to it); a pressed answer is parsed from its line again before it is carried out."""
    seat, named, hand, phases, picks = _plan_picks(st, force, limit)
    if not picks:
        return _extra_plans(st, force, hand, phases, [])
    first = C.Plan(seat=seat, cards=list(picks[0]), force=named)
    out = [first] + [_with_cards(first, list(cards)) for cards in picks[1:]]
    return out + _extra_plans(st, force, hand, phases, out[:20])


_REPLACED = frozenset({"cards", "declare", "extra"})  # the fields _with_cards gives a plan of its own


def _with_cards(first: C.Plan, cards: list[str | None]) -> C.Plan:
    """`first.model_copy(update={"cards": cards, "declare": {}, "extra": {}})`, made at once: the
    same fields, fields set and (no) extra and private values, a third of the time (a placement
    prompt makes some two dozen; tests/engine/test_prompt_shortcuts35.py holds it to model_copy)."""
    return as_given(C.Plan, {**first.__dict__, "cards": cards, "declare": {}, "extra": {}},
                    first.__pydantic_fields_set__ | _REPLACED, first.__pydantic_extra__, first.__pydantic_private__)


def _plan_picks(st, force: str, limit: int) -> tuple[int, str | None, list[str], list, list[tuple[str | None, ...]]]:
    """The plan search of `plan_options` as plain data: the seat, the deck a plan names (when the
    seat has several), the cards to place from, the phases' story cards, and each plan's cards
    (distinct, as many phases filled as the hand can fill, at most `limit`)."""
    f = st.forces[force]
    hand = f.hand + ([c for c in f.placed if c] + [c for c in f.extra if c] if f.planned else [])
    phases = [st.setup.story[c] for c in st.phase_cards]
    fitting = placement_fitting(st, hand, force)  # `fits` once a card, not once a phase
    target = most_filled(fitting)  # max_filled, from the same lists
    out: list[tuple[str | None, ...]] = []
    seat = f.seat
    named = force if len(st.force_of_seat(seat)) > 1 else None

    def search(i: int, acc: tuple, filled: int) -> None:
        if len(out) >= limit or filled + 3 - i < target:  # too few phases left to place enough cards
            return
        if i == 3:
            if filled == target:
                out.append(acc)
            return
        for c in fitting[i]:
            if c not in acc:
                search(i + 1, acc + (c,), filled + 1)
        search(i + 1, acc + (None,), filled)

    search(0, (), 0)
    del search  # it refers to itself: unbound now, it and the plans are freed at once, not by the collector
    return seat, named, hand, phases, out


def _extra_plans(st, force: str, hand: list[str], phases, base: list[C.Plan]) -> list[C.Plan]:
    """Officers: variants of the first plans with extra cards (one phase, then two), bounded."""
    n = command_value(st, force)
    if not n:
        return []
    out: list[C.Plan] = []
    for plan in base:
        free = [c for c in hand if c not in plan.cards]
        chosen: dict[int, str] = {}
        for ph in range(1, 4):
            if plan.cards[ph - 1] is None:
                continue
            for c in free:
                if c not in chosen.values() and fits(st, c, phases[ph - 1], force):
                    out.append(plan.model_copy(update={"extra": {ph: c}}))
                    if len(chosen) < n:
                        chosen[ph] = c
                    break
        if len(chosen) > 1:
            out.append(plan.model_copy(update={"extra": dict(chosen)}))
    return out


def legal_commands(st, seat: int) -> list[C.Cmd]:
    """Every command (of a bounded, representative set) this seat may give now."""
    out: list[C.Cmd] = []
    for a in awaiting(st):
        if a.seat != seat:
            continue
        p = st.pending
        if a.kind == "place":
            out += plan_options(st, a.force)
            if not any(isinstance(c, C.BarrageCmd) for c in out):  # barrages planned in secret (engine/battlefield/artillery.py)
                out += barrage_options(st, seat)
        elif a.kind == "declare":
            out += [C.Declare(seat=seat, card=p.card, action=x.value) for x in p.options]
        elif a.kind == "unhold":
            held = [c for s in st.soldiers.values() if s.force == a.force for c in s.held]
            out.append(C.Keep(seat=seat))
            out.append(C.Unhold(seat=seat, cards=held))
        elif a.kind == "act":
            opts = list(action_options(st, a.force))
            out += opts
            forced = bool(st.preempts) and forced_problem(st) is not None
            if any(s.state == "open" for s in st.active.sources) and not forced:
                out.append(C.Done(seat=seat))
            if must_left(st) is None and not forced:
                out.append(C.Pass(seat=seat))
            out += call_options(st, seat)
            out += [C.AssailCmd(seat=seat, serial=n, plate=pl, part=part, grenade=g)
                    for n, pl, part, g in assail_options(st, seat)]
        elif a.kind == "hitplus":
            out += [C.HitPlus(seat=seat, target=t) for t in p.candidates]
        elif a.kind == "pay":
            hand = st.forces[a.force].hand
            out.append(C.Pay(seat=seat, cards=hand[:p.count]))
            out.append(C.Decline(seat=seat))
        elif a.kind == "fight":
            for card in st.forces[a.force].fight_pool:
                for t in fights.targets(st, a.force):
                    out.append(C.FightCmd(seat=seat, card=card, target=t))
        elif a.kind == "capture":
            out += [C.Capture(seat=seat, victim=p.victim, escort=e) for e in p.escorts]
            out.append(C.KillCmd(seat=seat, victim=p.victim))
        elif a.kind == "release":
            out.append(C.Stay(seat=seat))
            out += [m.model_copy(update={"via": None}) for m in _moves(st, p.prisoner, seat, None)
                    if isinstance(m, C.MoveCmd) and not m.exit]
        elif a.kind == "react":
            out += [C.ReactCmd(seat=seat, card=c) for c in react.playable(st, a.force)]
            out.append(C.Skip(seat=seat))
        elif a.kind == "preempt":
            out += _preempt_options(st, a.force, seat)
            out.append(C.Skip(seat=seat))
        elif a.kind == "then":
            m = next(x for x in st.preempts if x.card == p.card)
            out += [C.Then(seat=seat, serial=me, target=t) for me, t in then_options(st, m, p.targets)]
            out.append(C.Skip(seat=seat))
    return out


def _preempt_options(st, force: str, seat: int) -> list[C.Cmd]:
    """Each playable preempt against each card it fits: naming as many men as allowed (the
    lowest dog tags), and each man alone."""
    out: list[C.Cmd] = []
    for pc in playable(st, force):
        for tf, card, room in targets(st, force, pc):
            men = nameable(st, tf)
            out.append(C.PreemptCmd(seat=seat, card=pc, target=card, soldiers=men[:room]))
            if room > 1:
                out += [C.PreemptCmd(seat=seat, card=pc, target=card, soldiers=[m]) for m in men[:4]]
    return out



def default_command(st, seat: int) -> C.Cmd | None:
    """What happens when a seat's deadline runs out (docs/rulings.md): the default of the
    first decision he is awaited for (default_for)."""
    a = next((a for a in awaiting(st) if a.seat == seat), None)
    return None if a is None else default_for(st, a)


def default_for(st, a: Await) -> C.Cmd | None:
    """The default answer to one awaited decision: cards placed by the first maximal fit, the
    rest of a card passed, the first fight card at the first target, a Hit+ kept on the same
    man, prisoners taken, held cards kept, costs declined, react and preempt chances skipped."""
    seat = a.seat
    p = st.pending
    if a.kind == "place":
        return C.Plan(seat=seat, cards=auto_plan(st, a.force),
                      force=a.force if len(st.force_of_seat(seat)) > 1 else None)
    if a.kind == "declare":
        return C.Declare(seat=seat, card=p.card, action=p.options[0].value)
    if a.kind == "unhold":
        return C.Keep(seat=seat)
    if a.kind == "act":
        if st.preempts and forced_problem(st) is not None:  # preempted men act first
            return next(iter(action_options(st, a.force)))
        if must_left(st) is None:
            return C.Pass(seat=seat)
        return next(iter(action_options(st, a.force, only_source="note")))
    if a.kind == "hitplus":
        return C.HitPlus(seat=seat, target=p.target if p.target in p.candidates else p.candidates[0])
    if a.kind == "pay":
        return C.Decline(seat=seat)
    if a.kind == "fight":
        card = st.forces[a.force].fight_pool[0]
        return C.FightCmd(seat=seat, card=card, target=fights.targets(st, a.force)[0])
    if a.kind == "capture":
        return C.Capture(seat=seat, victim=p.victim, escort=p.escorts[0])
    if a.kind == "release":
        return C.Stay(seat=seat)
    if a.kind in ("react", "preempt", "then"):
        return C.Skip(seat=seat)
    return None
