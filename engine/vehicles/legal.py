"""Concrete vehicle and crew commands a card in play allows (for prompts, suggestions, deadlines
and autoplay): what the license plate, each man aboard or beside a vehicle, and each soldier
on foot near one may do. Each option is checked with the same rule functions that carry it
out, so a listed command is a legal one."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import lru_cache, partial
from itertools import islice
from typing import TypeVar

from engine.advanced.sources import _soldier_ok, accepted, second_move_problem
from engine.core import commands as C
from engine.core.board import DIRS
from engine.core.content import (
    DO_ACQUIRE,
    DO_BUTTON,
    DO_COVER,
    DO_DISMOUNT,
    DO_EXTINGUISH,
    DO_FACE,
    DO_HULLDOWN,
    DO_LOAD,
    DO_MOUNT,
    DO_MOVE,
    DO_REPAIR,
    DO_SHIFT,
    DO_SHOOT,
    DO_SIGHT,
    DO_TURRET,
    DO_UNBUTTON,
    DO_UNPIN,
    Do,
)
from engine.core.crew import crewman, position_of
from engine.core.errors import RuleError
from engine.core.vehicle_geometry import neighbours, on_board
from engine.infantry.contact import Known
from engine.vehicles import look as VL
from engine.vehicles import move as VM
from engine.vehicles import shoot as VS
from engine.vehicles.damage import exposed_protection, position_ok
from engine.vehicles.smoke import options

MAX_MOVES = 8  # destinations listed per kind of move (nearest first)
T = TypeVar("T")


def actors(st, force: str) -> list[int]:
    """License plates of the force's vehicles in the game and men aboard under its command."""
    out = [p for p, v in sorted(st.vehicles.items()) if v.controller == force and v.status in ("board", "waiting")]
    out += sorted(s.serial for s in st.soldiers.values()
                  if s.status == "aboard" and s.controller == force and s.captor is None)
    return out


def oker(st, active, kind: str, serial: int, acc: frozenset[Do] | None = None):
    """ok(do): may this man (or plate) take the sub-action through this part of the card now?
    Worked out once per man and part (`sources.accepted`, or `acc` when the caller has it), then
    per sub-action as asked."""
    if acc is None:
        src = next((s for s in active.sources if s.kind == kind), None)
        acc = accepted(st, active, src, serial) if src is not None else frozenset()
    ok = _ok(st, active, serial, acc, {})
    ok.any = bool(acc)
    ok.acc = acc
    return ok


def _ok(st, active, serial: int, acc: frozenset[Do], memo: dict) -> Callable[[Do], bool]:
    """oker's question: `do` among what the part takes from him (`acc`), and the man (or plate)
    able to take it at all (sources._soldier_ok, which reads neither the part nor its kind: so
    `memo`, keyed by man and sub-action, may be one question's for every part, Targets.ok)."""
    def ok(do: Do) -> bool:
        if do not in acc:
            return False
        key = (serial, do)
        got = memo.get(key)
        if got is None:
            try:
                _soldier_ok(st, active, serial, do)
                got = True
            except RuleError:
                got = False
            memo[key] = got
        return got
    return ok


def _enemy_targets(st, side: str, on_board: list[int] | None = None) -> list[int]:
    """What a man's own weapon may aim at: enemy soldiers on foot and vehicles on the board
    (`on_board`, when the caller has them) and enemy crewmen exposed on their vehicles."""
    out = list(VL._enemy_targets(st, side) if on_board is None else on_board)
    out += sorted(s.serial for s in st.soldiers.values()
                  if s.status == "aboard" and s.side != side and st.vehicles[s.vehicle].status == "board"
                  and exposed_protection(st, s.serial) is not None)
    return out


def _armour(st, targets: list[int]) -> list[int]:
    """What a man on foot fires his own weapon at here: the vehicles and the men aboard them."""
    return [t for t in targets if t in st.vehicles or st.soldiers[t].status == "aboard"]


def _can_drive(st, plate: int, who: int, known: Targets | None = None) -> bool:
    """`who` drives the plate and its hull may move (move.hull_fault: no refusal's words);
    `known`: the question's Targets, which asks the hull once a plate for all its crew."""
    return VM.drives(st, plate, who) and (VM.hull_fault(st, plate) is None if known is None else known.hull_free(plate))


def _moves(st, active, kind: str, plate: int, who: int, seat: int, known: Targets | None = None) -> Iterator[C.Cmd]:
    v = st.vehicles[plate]
    if kind == "tag" and who == plate and v.hull_moved:
        return
    if not _can_drive(st, plate, who, known):
        return
    if v.status == "board" and VM._dismounted_crew(st, plate):
        return
    road_ok = v.status == "waiting" or (v.facing in VM.SIDES and v.facing in VM.road_sides(st.board, v.tile))
    for road, back in ((False, False), (True, False), (False, True)):
        if road and not road_ok or back and v.status == "waiting":
            continue
        dest = VM.destinations(st, plate, road=road, back=back)
        for t in sorted(dest, key=lambda t: (dest[t][0], t))[:MAX_MOVES]:
            yield C.VMove(seat=seat, serial=who, tile=t, road=road, back=back, via=kind)
    if v.status != "board":
        return
    # saving up is worth it only when a tile ahead costs more than one MOVE gives
    allow = VM.allowance(st, plate, False)
    ahead = [nb for d in VM.forward_dirs(v.facing) for nb in neighbours(st.board, v.tile, d)
             if not VM.entry_problem(st, nb)]
    if any(VM.first_step_cost(st, v.tile, nb) > allow for nb in ahead) and not (VM.smg(st) and v.move_plus):  # issue 9
        yield C.MovePlus(seat=seat, serial=who, via=kind)
        # a Move++ only where this part still has two MOVEs for him (ruling V2)
        if second_move_problem(st, active, next(s for s in active.sources if s.kind == kind), who) is None:
            yield C.MovePlus(seat=seat, serial=who, via=kind, double=True)


def _turns(st, plate: int, who: int, seat: int, kind: str, hull: bool, check: bool = False) -> Iterator[C.Cmd]:
    """Hull or turret turns toward the first enemies, and a quarter turn. `check` (anything_to_do
    asks only whether there is one): the quarter turn alone when it is offered, without reading
    the enemies."""
    v = st.vehicles[plate]
    now = v.facing if hull else v.turret
    quarter = DIRS[(DIRS.index(now) + 2) % 8]  # offered with nothing to aim at
    if check and VM.turn_steps(now, quarter) <= VM.MAX_TURN:
        yield (C.VTurn if hull else C.Turret)(seat=seat, serial=who, facing=quarter, via=kind)
        return
    want = set()
    for t in _enemy_targets(st, v.side)[:6]:
        if t in st.vehicles and st.vehicles[t].status != "board":
            continue
        f = VL.arc_facing(st, plate, t, now)
        if f and f != now:
            want.add(f)
    want.add(quarter)  # a quarter turn, so the turn is offered with nothing to aim at
    for f in sorted(want):
        if VM.turn_steps(now, f) <= VM.MAX_TURN:
            yield (C.VTurn if hull else C.Turret)(seat=seat, serial=who, facing=f, via=kind)


# what a part costs the check (is there anything to do?), cheapest first: a field or two read, a
# rule check, a search
CHEAP, CHECK, SEARCH = 0, 1, 2

Part = tuple[int, Callable[[], Iterator[C.Cmd]]]


def _listed(parts: list[Part]) -> Iterator[C.Cmd]:
    for _, part in parts:
        yield from part()


# a question with its cost: does this part offer a command? (engine/legal.py anything_to_do
# asks every man's cheap ones first, then the rest cheapest first)
Check = tuple[int, Callable[[], bool]]


def _offers(part: Callable[[object], Iterator[C.Cmd]], me: object) -> bool:
    """A check's question: does this part, bound to what it reads, offer a command?"""
    return next(part(me), None) is not None


class Targets:
    """Whether a vehicle part's commands can have a target at all, worked out once per question
    (engine/legal.py anything_to_do) from fields alone: a Fire or an Acquire needs a target its
    vehicle has marked, a crew's Sight one it has not, a man's own weapon a spotted one. Each is a
    condition the rule itself requires, so a part skipped for want of it offers nothing."""

    def __init__(self, st) -> None:
        self.st = st
        self.known = Known(st)  # in_contact and escorting as answered for each man in this question
        self.ok: dict[tuple[int, Do], bool] = {}  # sources._soldier_ok's answers, for every part (_ok)
        self._memo: dict[tuple, object] = {}

    def _ask(self, key: tuple, fn: Callable[[], T]) -> T:
        got = self._memo.get(key)
        if got is None:
            got = self._memo[key] = fn()
        return got  # type: ignore[return-value]

    def on_board(self, side: str) -> list[int]:
        """Enemy soldiers on foot and enemy vehicles on the board (look._enemy_targets)."""
        return self._ask(("board", side), lambda: VL._enemy_targets(self.st, side))

    def enemies(self, side: str) -> list[int]:
        """Those and the enemy crewmen exposed on their vehicles (_enemy_targets): what a man's
        own weapon may aim at."""
        return self._ask(("enemies", side), lambda: _enemy_targets(self.st, side, self.on_board(side)))

    def armour(self, side: str) -> list[int]:
        """Those of them a man on foot fires at from foot_options (_armour)."""
        return self._ask(("armour", side), lambda: _armour(self.st, self.enemies(side)))

    def small_arms_aims(self, side: str, on_foot: bool) -> list[int]:
        """Those of armour(side) (`on_foot`: what a man on foot fires at) or enemies(side) (a man
        aboard) that pass the small arms tests of the target alone (vehicles/shoot.py
        small_arms_aim_fault), found once for every man of the side."""
        return self._ask(("small arms aims", side, on_foot), lambda: [
            t for t in (self.armour(side) if on_foot else self.enemies(side))
            if VS.small_arms_aim_fault(self.st, side, t) is None])

    def crew_sight(self, looker: int, side: str) -> list[int]:
        """look.crew_sight_must for a man aboard, at this question's enemies of `side`: it reads
        of him only his vehicle, his Sight and his optics (where he looks from and what blocks his
        line are his vehicle's), so the crewmen with the same two numbers are asked once."""
        st = self.st
        key = ("crew sight", st.soldiers[looker].vehicle, side, VL.crew_sight(st, looker), VL.crew_optics(st, looker))
        return self._ask(key, lambda: VL.crew_sight_must(st, looker, self.on_board(side)))

    def marked(self, plate: int, side: str) -> bool:
        """An enemy of `side` (or a man aboard one) carries this vehicle's Spotted marker."""
        def ask() -> bool:
            st = self.st
            if any(VL.marked_by(st, t, plate) for t in self.on_board(side)):
                return True
            return any(s.status == "aboard" and s.side != side and st.vehicles[s.vehicle].status == "board"
                       and VL.marked_by(st, s.vehicle, plate) for s in st.soldiers.values())
        return self._ask(("marked", plate, side), ask)

    def unmarked(self, plate: int, side: str) -> bool:
        """An enemy of `side` on the board this vehicle has not marked yet (a crew's Sight)."""
        return self._ask(("unmarked", plate, side), lambda: any(
            not VL.marked_by(self.st, t, plate) for t in self.on_board(side)))

    def first(self, key: tuple, found: Callable[[], Iterator[int]]) -> tuple[int, ...]:
        """The first of what `found` finds (or nothing), worked out once per question: for a
        search whose answer does not depend on the part of the card a man is asked through (his
        own weapon's shots), so a second part asks nothing again."""
        return self._ask(key, lambda: tuple(islice(found(), 1)))

    def hull_free(self, plate: int) -> bool:
        """The plate's hull may move (move.hull_fault), asked once a plate for all its crew."""
        return self._ask(("hull", plate), lambda: VM.hull_fault(self.st, plate) is None)

    def spotted(self, side: str, armour_only: bool = False) -> bool:
        """A spotted target for a man's own weapon: an enemy soldier on foot, an enemy vehicle, or a
        man aboard a spotted vehicle (`armour_only`: the last two alone)."""
        def ask() -> bool:
            st = self.st
            if any(v.status == "board" and v.side != side and v.spotted for v in st.vehicles.values()):
                return True
            for s in st.soldiers.values():
                if s.side == side:
                    continue
                if s.status == "aboard":
                    if st.vehicles[s.vehicle].status == "board" and st.vehicles[s.vehicle].spotted:
                        return True
                elif not armour_only and s.free and s.spotted:
                    return True
            return False
        return self._ask(("spotted", side, armour_only), ask)


def plate_options(st, active, kind: str, plate: int, seat: int) -> Iterator[C.Cmd]:
    """What the license plate itself may do through this part of the card."""
    return _listed(_plate_parts(st, active, kind, plate, seat))


def plate_checks(st, active, kind: str, plate: int, seat: int, targets: Targets,
                 accept: Callable[[int], frozenset[Do]] | None = None) -> list[Check]:
    """Whether plate_options offers anything, as one question per part."""
    return _plate_parts(st, active, kind, plate, seat, targets, accept)


def _plate_parts(st, active, kind: str, plate: int, seat: int, targets: Targets | None = None,
                 accept: Callable[[int], frozenset[Do]] | None = None) -> list[Part]:
    """plate_options by part, in listing order, each with its cost; with `targets` (a check) a
    part whose targets cannot exist offers nothing at once, and each part comes as its
    question (a Check). `accept`: the part's sources.acceptor, when the caller has it. The parts
    are written once (_PLATE, _WAITING) and bound to the plate only when the card takes one of
    their sub-actions."""
    acc = _acc(st, active, kind, plate) if accept is None else accept(plate)
    if not acc:
        return []
    v = st.vehicles[plate]
    return _bound(acc, (_PLATE if v.status == "board" else _WAITING,), lambda: _Plate(
        st, active, kind, plate, seat, targets, _ok(st, active, plate, acc, {} if targets is None else targets.ok), v),
        targets is not None)


def _acc(st, active, kind: str, serial: int) -> frozenset[Do]:
    """What the part `kind` of the card in play takes from this man or plate (sources.accepted)."""
    src = next((s for s in active.sources if s.kind == kind), None)
    return accepted(st, active, src, serial) if src is not None else frozenset()


def _bound(acc: frozenset[Do], tables: tuple, facts: Callable[[], object], check: bool = False) -> list:
    """The parts of these tables offering a sub-action the card takes from him (`acc`: each part
    asks `ok` for its own before anything else, so the others would offer nothing), each bound
    to the facts it reads, made once at the first; `check`: each as its question (_offers)."""
    offered = _offering(tables, acc)
    if not offered:
        return []
    me = facts()
    if check:
        return [(cost, partial(_offers, part, me)) for cost, part in offered]
    return [(cost, partial(part, me)) for cost, part in offered]


@lru_cache(maxsize=512)
def _offering(tables: tuple[_Table, ...], acc: frozenset[Do]) -> tuple[tuple[int, Callable], ...]:
    """The parts of these tables (constants) offering a sub-action of `acc`, with their costs, in
    the tables' order: a pure function of the two, so remembered (a few tables, the few sets of
    sub-actions cards give)."""
    return tuple((cost, part) for table in tables for cost, dos, part in table if not acc.isdisjoint(dos))


class _Table(tuple):
    """A table of parts, written once: hashed and compared as itself, so _offering's memo finds
    it without hashing each of its parts at every ask."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return self is other

    __hash__ = object.__hash__


class _Plate:
    """A license plate asked through one part of the card: what the parts of plate_options read."""

    __slots__ = ("active", "kind", "ok", "plate", "seat", "st", "targets", "v")

    def __init__(self, st, active, kind: str, plate: int, seat: int, targets: Targets | None, ok, v) -> None:
        self.st, self.active, self.kind, self.plate, self.seat = st, active, kind, plate, seat
        self.targets, self.ok, self.v = targets, ok, v


def _pl_moves(a: _Plate) -> Iterator[C.Cmd]:
    if a.ok(DO_MOVE):
        yield from _moves(a.st, a.active, a.kind, a.plate, a.plate, a.seat, a.targets)


def _pl_unpin(a: _Plate) -> Iterator[C.Cmd]:
    if a.ok(DO_UNPIN) and a.v.pins and VM.drives(a.st, a.plate, a.plate):
        yield C.Unpin(seat=a.seat, serial=a.plate, via=a.kind)


def _pl_turns(a: _Plate) -> Iterator[C.Cmd]:
    if a.ok(DO_FACE) and _can_drive(a.st, a.plate, a.plate, a.targets) and not (a.kind == "tag" and a.v.hull_moved):
        yield from _turns(a.st, a.plate, a.plate, a.seat, a.kind, hull=True, check=a.targets is not None)


def _pl_turret(a: _Plate) -> Iterator[C.Cmd]:
    if a.ok(DO_TURRET) and a.v.turret is not None and _turret_man(a.st, a.plate, a.plate) is not None:
        yield from _turns(a.st, a.plate, a.plate, a.seat, a.kind, hull=False, check=a.targets is not None)


def _pl_fire(a: _Plate) -> Iterator[C.Cmd]:
    if a.ok(DO_SHOOT) and (a.targets is None or a.targets.marked(a.plate, a.v.side)):
        yield from _fire_options(a.st, a.plate, a.plate, a.seat, a.kind, VS.weapon_ids(a.st.vehicle_def(a.plate)),
                                 a.targets)


def _pl_smoke(a: _Plate) -> Iterator[C.Cmd]:
    if a.ok(DO_SHOOT):
        yield from _popsmoke(a.st, a.plate, a.seat, a.kind)  # issue 9: engine/vehicles/smoke.py


def _pl_load(a: _Plate) -> Iterator[C.Cmd]:
    if a.ok(DO_LOAD):
        yield from _load_options(a.st, a.plate, a.plate, a.seat, a.kind)


def _pl_acquire(a: _Plate) -> Iterator[C.Cmd]:
    if a.ok(DO_ACQUIRE) and (a.targets is None or a.targets.marked(a.plate, a.v.side)):
        yield from _acquire_options(a.st, a.plate, a.plate, a.seat, a.kind, a.targets)


def _pl_sight(a: _Plate) -> Iterator[C.Cmd]:
    if a.ok(DO_SIGHT):
        st, targets = a.st, a.targets
        eye = VL.best_eye(st, a.plate)
        side = None if eye is None else st.soldiers[eye].side
        if eye is not None and (targets is None or targets.unmarked(a.plate, side)):
            must = VL.crew_sight_must(st, eye) if targets is None else targets.crew_sight(eye, side)
            for t in must if len(must) > 1 else must[:1]:
                yield C.SightCmd(seat=a.seat, serial=a.plate, target=t if len(must) > 1 else None, via=a.kind)


def _pl_hatches(a: _Plate) -> Iterator[C.Cmd]:
    for do, cls, opening in ((DO_UNBUTTON, C.Unbutton, True), (DO_BUTTON, C.Button, False)):
        if a.ok(do) and VL.hatch_man(a.st, a.plate, a.plate, opening) is not None:
            yield cls(seat=a.seat, serial=a.plate, via=a.kind)


def _pl_hull_down(a: _Plate) -> Iterator[C.Cmd]:
    v = a.v
    if a.ok(DO_HULLDOWN) and not v.hull_down and _can_drive(a.st, a.plate, a.plate, a.targets):
        mods = a.st.board.tiles[v.tile].mods
        if (mods.look or 0) < 0 and (mods.move or 0) < 0:
            yield C.HullDown(seat=a.seat, serial=a.plate, via=a.kind)


def _pl_cover(a: _Plate) -> Iterator[C.Cmd]:
    v = a.v
    if a.ok(DO_COVER) and (v.spotted or v.spotted_by) and (a.st.board.tiles[v.tile].mods.hide or 0) <= -3 \
            and VM.drives(a.st, a.plate, a.plate):
        yield C.VCover(seat=a.seat, serial=a.plate, via=a.kind)


_WAITING = _Table(((SEARCH, (DO_MOVE,), _pl_moves),))  # a vehicle still to enter: its MOVE onto the board
_PLATE = _Table(((SEARCH, (DO_MOVE,), _pl_moves), (CHEAP, (DO_UNPIN,), _pl_unpin), (CHECK, (DO_FACE,), _pl_turns),
                 (CHECK, (DO_TURRET,), _pl_turret), (SEARCH, (DO_SHOOT,), _pl_fire), (CHECK, (DO_SHOOT,), _pl_smoke),
                 (CHEAP, (DO_LOAD,), _pl_load), (SEARCH, (DO_ACQUIRE,), _pl_acquire), (SEARCH, (DO_SIGHT,), _pl_sight),
                 (CHECK, (DO_UNBUTTON, DO_BUTTON), _pl_hatches), (CHECK, (DO_HULLDOWN,), _pl_hull_down),
                 (CHECK, (DO_COVER,), _pl_cover)))


def _popsmoke(st, who: int, seat: int, kind: str) -> list:
    return options(st, who, seat, kind)


def _turret_man(st, plate: int, who: int) -> int | None:
    """The man move.turret would have turn the turret, or None (crewman: no refusal's words)."""
    role, weapon = VM.turret_post(st.vehicle_def(plate))
    return crewman(st, plate, who, role=role, weapon=weapon)


def _fire_options(st, plate: int, who: int, seat: int, kind: str, weapons: list[str],
                  known: Targets | None = None) -> Iterator[C.Cmd]:
    """`known`: the question's Targets (a check), whose enemy list is the one made here."""
    v = st.vehicles[plate]
    targets = None  # the same for every weapon: found once, when a weapon has a gunner
    for wid in weapons:
        gunner = crewman(st, plate, who, weapon=wid)
        if gunner is None:
            continue
        if targets is None:
            targets = _enemy_targets(st, v.side) if known is None else known.enemies(v.side)
        for t in targets:
            if VS.fire_problem(st, plate, gunner, wid, t) is None:
                yield C.Fire(seat=seat, serial=who, weapon=wid, target=t, via=kind)


def _load_options(st, plate: int, who: int, seat: int, kind: str) -> Iterator[C.Cmd]:
    v = st.vehicles[plate]
    vdef = st.vehicle_def(plate)
    if vdef.main_gun is None or not VS.can_load(st, plate, who):
        return
    if v.in_hand or v.in_breach:
        yield C.Load(seat=seat, serial=who, back=True, via=kind)
    if v.in_hand:
        part = v.in_hand[0]
        if "/" in part or not v.in_breach:
            yield C.Load(seat=seat, serial=who, via=kind)
        return
    rid = v.in_breach[0] if v.in_breach else None
    a = vdef.main_gun.ammo_type(rid) if rid else None
    if a is not None and a.parts == 2 and f"{rid}/charge" not in v.in_breach:
        yield C.Load(seat=seat, serial=who, via=kind)
        return
    if not v.in_breach:
        for aid, n in sorted(v.ready.items()):
            if n:
                yield C.Load(seat=seat, serial=who, ammo=aid, via=kind)


def _acquire_options(st, plate: int, who: int, seat: int, kind: str, known: Targets | None = None) -> Iterator[C.Cmd]:
    """`known`: the question's Targets (a check), whose enemy list is the one made here, and which
    finds the plate's first target once for all its crew (Targets.first)."""
    v = st.vehicles[plate]
    vdef = st.vehicle_def(plate)
    wid = "main" if vdef.main_gun else (vdef.mgs[0].id if vdef.mgs else None)
    if wid is None:
        return
    turret = v.turret is not None and (vdef.main_gun is None or vdef.main_gun.mount == "turret")
    if known is None:
        aims = _acquirable(st, plate, wid, turret, _enemy_targets(st, v.side))
    else:
        aims = known.first(("acquire", plate), lambda: _acquirable(st, plate, wid, turret, known.enemies(v.side)))
    ready = None  # a man to acquire and, for a hull gun, a hull free to turn: the same for every target
    for t in aims:
        if ready is None:
            ready = (turret or _can_drive(st, plate, plate, known)) and _acquirer(st, plate, who) is not None
        if not ready:
            return
        yield C.Acquire(seat=seat, serial=who, target=t, via=kind)


def _acquirable(st, plate: int, wid: str, turret: bool, targets: list[int]) -> Iterator[int]:
    """The targets the plate may acquire, of `targets`, whoever does it: marked by it, outside the
    weapon's arc and brought into it by a turn (of the turret, `turret`, or else of the hull)."""
    v = st.vehicles[plate]
    for t in targets:
        if t in st.soldiers and st.soldiers[t].status == "aboard":
            continue
        if not VL.marked_by(st, t, plate) or VS.in_weapon_arc(st, plate, wid, t):
            continue
        if VL.arc_facing(st, plate, t, v.turret if turret else v.facing):
            yield t


def _acquirer(st, plate: int, who: int) -> int | None:
    """The man look.acquire would have acquire, or None (crewman: no refusal's words)."""
    role, weapon = VL.acquiring_post(st.vehicle_def(plate))
    return crewman(st, plate, who, role=role, weapon=weapon)


def aboard_options(st, active, kind: str, m: int, seat: int) -> Iterator[C.Cmd]:
    """A man aboard: his post's work (drive, fire, load, turret, hatch), sight, shifting about,
    repairs and fires, his own weapon where allowed, and getting off."""
    return _listed(_aboard_parts(st, active, kind, m, seat))


def aboard_checks(st, active, kind: str, m: int, seat: int, targets: Targets,
                  accept: Callable[[int], frozenset[Do]] | None = None) -> list[Check]:
    """Whether aboard_options offers anything, as one question per part."""
    return _aboard_parts(st, active, kind, m, seat, targets, accept)


def _aboard_parts(st, active, kind: str, m: int, seat: int, targets: Targets | None = None,
                  accept: Callable[[int], frozenset[Do]] | None = None) -> list[Part]:
    """aboard_options by part, as _plate_parts (_POST, _CREW, _ANY)."""
    s = st.soldiers[m]
    v = st.vehicles[s.vehicle]
    if v.status != "board":
        return []
    acc = _acc(st, active, kind, m) if accept is None else accept(m)
    if not acc:
        return []
    loc = position_of(st, m)
    crewman = m not in v.passengers and m not in v.riders
    return _bound(acc, _ABOARD[loc is not None, crewman], lambda: _Aboard(
        st, active, kind, m, seat, targets, _ok(st, active, m, acc, {} if targets is None else targets.ok), s, v, loc),
        targets is not None)


class _Aboard:
    """One man aboard asked through one part of the card: what the parts of aboard_options read."""

    __slots__ = ("active", "kind", "loc", "m", "ok", "plate", "s", "seat", "st", "targets", "v")

    def __init__(self, st, active, kind: str, m: int, seat: int, targets: Targets | None, ok, s, v, loc) -> None:
        self.st, self.active, self.kind, self.m, self.seat, self.targets = st, active, kind, m, seat, targets
        self.ok, self.s, self.plate, self.v, self.loc = ok, s, s.vehicle, v, loc


def _ab_moves(a: _Aboard) -> Iterator[C.Cmd]:
    if a.ok(DO_MOVE):
        yield from _moves(a.st, a.active, a.kind, a.plate, a.m, a.seat, a.targets)


def _ab_turns(a: _Aboard) -> Iterator[C.Cmd]:
    if a.ok(DO_FACE) and _can_drive(a.st, a.plate, a.m, a.targets):
        yield from _turns(a.st, a.plate, a.m, a.seat, a.kind, hull=True, check=a.targets is not None)


def _ab_turret(a: _Aboard) -> Iterator[C.Cmd]:
    if a.ok(DO_TURRET) and a.v.turret is not None and _turret_man(a.st, a.plate, a.m) is not None:
        yield from _turns(a.st, a.plate, a.m, a.seat, a.kind, hull=False, check=a.targets is not None)


def _ab_fire(a: _Aboard) -> Iterator[C.Cmd]:
    if a.ok(DO_SHOOT) and (a.targets is None or a.targets.marked(a.plate, a.v.side)):
        yield from _fire_options(a.st, a.plate, a.m, a.seat, a.kind, [w for w in a.loc.weapons], a.targets)


def _ab_smoke(a: _Aboard) -> Iterator[C.Cmd]:
    if a.ok(DO_SHOOT):
        yield from _popsmoke(a.st, a.m, a.seat, a.kind)  # issue 9: engine/vehicles/smoke.py


def _ab_load(a: _Aboard) -> Iterator[C.Cmd]:
    if a.ok(DO_LOAD):
        yield from _load_options(a.st, a.plate, a.m, a.seat, a.kind)


def _ab_acquire(a: _Aboard) -> Iterator[C.Cmd]:
    if a.ok(DO_ACQUIRE) and (a.targets is None or a.targets.marked(a.plate, a.v.side)):
        yield from _acquire_options(a.st, a.plate, a.m, a.seat, a.kind, a.targets)


def _ab_sight(a: _Aboard) -> Iterator[C.Cmd]:
    side = a.s.side
    if a.ok(DO_SIGHT) and (a.targets is None or a.targets.unmarked(a.plate, side)):
        must = VL.crew_sight_must(a.st, a.m) if a.targets is None else a.targets.crew_sight(a.m, side)
        for t in must if len(must) > 1 else must[:1]:
            yield C.SightCmd(seat=a.seat, serial=a.m, target=t if len(must) > 1 else None, via=a.kind)


def _ab_hatch(a: _Aboard) -> Iterator[C.Cmd]:
    loc, v = a.loc, a.v
    if loc.hatch and a.ok(DO_UNBUTTON) and loc.id not in v.unbuttoned:
        yield C.Unbutton(seat=a.seat, serial=a.m, via=a.kind)
    if loc.hatch and a.ok(DO_BUTTON) and loc.id in v.unbuttoned:
        yield C.Button(seat=a.seat, serial=a.m, via=a.kind)


def _ab_shift(a: _Aboard) -> Iterator[C.Cmd]:
    if a.ok(DO_SHIFT):
        st, v, post = a.st, a.v, a.s.post
        for other in st.vehicle_def(a.plate).locations:
            if other.id == post or other.outside:
                continue
            if other.kind == "crew" and (other.id in v.crew or not position_ok(st, a.plate, other.id)):
                continue
            if other.kind == "machinery" and not v.damage.get(other.id):
                continue  # only worth going where there is work
            yield C.Shift(seat=a.seat, serial=a.m, post=other.id, via=a.kind)


def _ab_repairs(a: _Aboard) -> Iterator[C.Cmd]:
    post = a.s.post
    marks = a.v.damage.get(post or "", [])
    if a.ok(DO_REPAIR) and "wreck" in marks and "fire" not in marks:
        yield C.Repair(seat=a.seat, serial=a.m, location=post, via=a.kind)
    if a.ok(DO_EXTINGUISH) and "fire" in marks:
        yield C.Extinguish(seat=a.seat, serial=a.m, location=post, via=a.kind)


def _ab_small_arms(a: _Aboard) -> Iterator[C.Cmd]:
    st, m, side, targets = a.st, a.m, a.s.side, a.targets
    if not a.ok(DO_SHOOT):
        return
    if targets is None:
        aims = _small_arms(st, m, _enemy_targets(st, side))
    elif targets.spotted(side):
        aims = targets.first(("small arms", m), lambda: _small_arms(st, m, targets.small_arms_aims(side, False),
                                                                    targets.known, aimed=True))
    else:
        return
    for t in aims:
        yield C.ShootCmd(seat=a.seat, serial=m, target=t, via=a.kind)


def _ab_dismount(a: _Aboard) -> Iterator[C.Cmd]:
    v = a.v
    if a.ok(DO_DISMOUNT) and v.moved <= 1 and v.status == "board" and v.tile is not None \
            and VM.dismount_cell(a.st, a.m) is not None:
        yield C.Dismount(seat=a.seat, serial=a.m, via=a.kind)


_POST = _Table(((SEARCH, (DO_MOVE,), _ab_moves), (CHECK, (DO_FACE,), _ab_turns), (CHECK, (DO_TURRET,), _ab_turret),
                (SEARCH, (DO_SHOOT,), _ab_fire), (CHECK, (DO_SHOOT,), _ab_smoke), (CHEAP, (DO_LOAD,), _ab_load),
                (SEARCH, (DO_ACQUIRE,), _ab_acquire), (SEARCH, (DO_SIGHT,), _ab_sight),
                (CHEAP, (DO_UNBUTTON, DO_BUTTON), _ab_hatch)))
_CREW = _Table(((CHECK, (DO_SHIFT,), _ab_shift), (CHEAP, (DO_REPAIR, DO_EXTINGUISH), _ab_repairs)))
_ANY = _Table(((SEARCH, (DO_SHOOT,), _ab_small_arms), (CHECK, (DO_DISMOUNT,), _ab_dismount)))
# an aboard man's tables: (at a post, a crewman) -> the work of a post only at one, a crewman's only for the crew
_ABOARD = {(post, crew): (_POST,) * post + (_CREW,) * crew + (_ANY,)
           for post in (True, False) for crew in (True, False)}


def foot_options(st, active, kind: str, m: int, seat: int, acc: frozenset[Do] | None = None) -> Iterator[C.Cmd]:
    """A soldier on foot: getting on a friendly vehicle in his tile, working on its outside when he
    is its dismounted crewman, and his weapon against vehicles and exposed crew. `acc`: what the
    part takes from him (sources.accepted), when the caller has worked it out."""
    return _listed(_foot_parts(st, active, kind, m, seat, acc))


def foot_checks(st, active, kind: str, m: int, seat: int, acc: frozenset[Do], targets: Targets) -> list[Check]:
    """Whether foot_options offers anything, as one question per part."""
    return _foot_parts(st, active, kind, m, seat, acc, targets)


def _foot_parts(st, active, kind: str, m: int, seat: int, acc: frozenset[Do] | None,
                targets: Targets | None = None) -> list[Part]:
    """foot_options by part, as _plate_parts (_FOOT)."""
    s = st.soldiers[m]
    if not s.free:
        return []
    if acc is None:
        acc = _acc(st, active, kind, m)
    if not acc:
        return []
    return _bound(acc, (_FOOT,), lambda: _Foot(
        st, kind, m, seat, targets, _ok(st, active, m, acc, {} if targets is None else targets.ok), s), targets is not None)


class _Foot:
    """A man on foot asked through one part of the card: what the parts of foot_options read."""

    __slots__ = ("kind", "m", "ok", "s", "seat", "st", "targets")

    def __init__(self, st, kind: str, m: int, seat: int, targets: Targets | None, ok, s) -> None:
        self.st, self.kind, self.m, self.seat, self.targets, self.ok, self.s = st, kind, m, seat, targets, ok, s


def _ft_mount(a: _Foot) -> Iterator[C.Cmd]:
    if a.ok(DO_MOUNT):
        st, m = a.st, a.m
        for p in on_board(st, st.board.tile_at(a.s.at)):
            if VM.mount_post(st, m, p, None) is not None:
                yield C.Mount(seat=a.seat, serial=m, plate=p, via=a.kind)


def _ft_shift(a: _Foot) -> Iterator[C.Cmd]:
    st, s = a.st, a.s
    if s.dismounted and s.vehicle in st.vehicles and st.vehicles[s.vehicle].status == "board" and a.ok(DO_SHIFT):
        vdef = st.vehicle_def(s.vehicle)
        v = st.vehicles[s.vehicle]
        for loc in vdef.locations:
            if loc.outside and v.damage.get(loc.id):
                yield C.Shift(seat=a.seat, serial=a.m, post=loc.id, via=a.kind)


def _ft_shoot(a: _Foot) -> Iterator[C.Cmd]:
    st, m, side, targets = a.st, a.m, a.s.side, a.targets
    if not a.ok(DO_SHOOT):
        return
    if targets is None:
        aims = _small_arms(st, m, _armour(st, _enemy_targets(st, side)))
    elif targets.spotted(side, armour_only=True):
        aims = targets.first(("small arms", m), lambda: _small_arms(st, m, targets.small_arms_aims(side, True), targets.known,
                                                                    aimed=True))
    else:
        return
    for t in aims:
        yield C.ShootCmd(seat=a.seat, serial=m, target=t, via=a.kind)


def _small_arms(st, m: int, targets: list[int], known: Known | None = None, aimed: bool = False) -> Iterator[int]:
    """The targets a man's own weapon may fire at, of `targets` (vehicles/shoot.py's rules, asked
    through their yes/no paths); `known`: the question's contact.Known; `aimed`: the targets have
    passed the tests of the target alone (Targets.small_arms_aims), so only his arc and range
    are asked."""
    if VS.small_arms_shooter_problem(st, m, known) is None:
        if aimed:
            me = st.soldiers[m]
            for t in targets:
                if VS.small_arms_reach_fault(st, me, t) is None:
                    yield t
            return
        for t in targets:
            if VS.small_arms_target_fault(st, m, t) is None:
                yield t


_FOOT = _Table(((CHECK, (DO_MOUNT,), _ft_mount), (CHEAP, (DO_SHIFT,), _ft_shift), (SEARCH, (DO_SHOOT,), _ft_shoot)))
