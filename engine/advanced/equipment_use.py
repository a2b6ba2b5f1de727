"""Using equipment (advanced rules, Markers and Equipment): thrown smoke, fired weapons (rifle
grenade, anti-tank rockets, a charge on a vehicle), handing equipment to a friend, and the VP
for equipment the enemy captures. Who carries what and may use it is engine/infantry/equipment.py."""
from __future__ import annotations

from engine.core import commands as C
from engine.core import rulebook
from engine.core.board import in_arc, inches
from engine.core.content import EquipmentDef
from engine.core.errors import RuleError
from engine.core.line_of_sight import at_of
from engine.core.log import Ctx
from engine.core.ratings import current
from engine.core.state import SmokeMarker, TrailMark, VpEntry
from engine.infantry.blast import blast_victim, toss_range, under_blast
from engine.infantry.contact import escorting, in_contact
from engine.infantry.equipment import (
    USED,
    carried,
    load_problem,
    may_use,
    spend,
    uses_left,
)
from engine.infantry.shoot import shoot_mods


def _ready_problem(st, serial: int, item: str, kind: str, wrong_kind: str, none_left: str,
                   escorting_says: str) -> str | None:
    """What stops a soldier using an item of this kind at all: off the board, not his to use,
    the wrong kind, none left, locked in contact or escorting a prisoner."""
    name = st.name(serial)
    if not st.soldiers[serial].free:
        return f"{name} is not on the board."
    problem = may_use(st, serial, item)
    if problem:
        return problem
    eq = st.setup.equipment[item]
    if eq.kind != kind:
        return f"the {eq.name} {wrong_kind}."
    if uses_left(st, serial, item) == 0:
        return f"{name} " + none_left.format(eq.name) + "."
    if in_contact(st, serial):
        return f"{name} is in combat contact: he may only turn to face with a MOVE."
    if escorting(st, serial):
        return f"{name} is escorting a prisoner and {escorting_says}."
    return None


# --------------------------------------------------------------------------- thrown smoke


def _smoke_ready(st, serial: int, item: str) -> str | None:
    return _ready_problem(st, serial, item, "smoke", "does not make smoke", "has no {} left", "cannot throw anything")


def smoke_problem(st, serial: int, item: str, cell, ready: bool = False) -> str | None:
    """Why the soldier cannot throw smoke to that cell, or None. `ready`: the caller has found
    _smoke_ready's None already (use_options, once a man and item rather than once a cell)."""
    me = st.soldiers[serial]
    problem = None if ready else _smoke_ready(st, serial, item)
    if problem:
        return problem
    cell = tuple(cell)
    if not st.board.on_board(cell):
        return "the smoke must land on the board."
    if not in_arc(me.facing, me.at, cell):
        return f"{cell[0]},{cell[1]} is outside {st.name(serial)}'s arc (he faces {me.facing.upper()})."
    toss = current(st, serial, "toss")
    if toss <= 0:
        return f"{st.name(serial)} cannot throw."
    reach = toss_range(toss, shoot_mods(st, me.at, cell))
    dist = inches(me.at, cell)
    if dist > reach:
        return f"that is {dist}\" away; {st.name(serial)}'s modified toss range is {reach}\"."
    return None


def lay_smoke(ctx: Ctx, tile: str, density: int) -> None:
    """A smoke marker on a tile; thicker smoke replaces thinner, a fresh marker restarts its time."""
    st = ctx.st
    old = max((m.density for m in st.smoke if m.tile == tile), default=0)
    st.smoke = [m for m in st.smoke if m.tile != tile]
    st.smoke.append(SmokeMarker(tile=tile, density=max(old, density), turn=st.turn))


def throw_smoke(ctx: Ctx, serial: int, item: str, cell) -> None:
    """A SHOOT: a smoke canister thrown like a grenade lays its smoke on the tile it lands in.
    Throwing does not spot the thrower (like a grenade)."""
    st = ctx.st
    problem = smoke_problem(st, serial, item, cell)
    if problem:
        raise RuleError(problem)
    eq = st.setup.equipment[item]
    tile = st.board.tile_at(tuple(cell))
    spend(st, serial, item)
    lay_smoke(ctx, tile, eq.smoke)
    st.trail.append(TrailMark(kind="toss", serial=serial, path=[st.soldiers[serial].at, tuple(cell)]))
    ctx.say("smoke_thrown", f"{st.name(serial)} throws smoke: {eq.smoke}x smoke over {tile}.",
            serial=serial, tile=tile, density=eq.smoke)


# --------------------------------------------------------------------------- fired weapons


def weapon_reach(st, serial: int, eq: EquipmentDef, cell) -> int:
    """A weapon's reach in inches to that cell: its range (or the soldier's toss range) plus the
    SHOOT modifiers on the way, inch for inch, as for a toss."""
    base = eq.range if eq.range is not None else current(st, serial, "toss")
    return base + shoot_mods(st, st.soldiers[serial].at, cell)


def _weapon_ready(st, serial: int, item: str) -> str | None:
    return _ready_problem(st, serial, item, "weapon", "is not a weapon", "has nothing left to fire from the {}",
                          "cannot use his weapons")


def weapon_problem(st, serial: int, item: str, target: int, ready: bool = False) -> str | None:
    """Why the soldier cannot fire the weapon at that target (a spotted enemy soldier, or an enemy
    vehicle for an anti-tank weapon), or None. `ready`: the caller has found _weapon_ready's None
    already (use_options, once a man and item rather than once a target)."""
    me = st.soldiers[serial]
    problem = None if ready else _weapon_ready(st, serial, item)
    if problem:
        return problem
    eq = st.setup.equipment[item]
    if target in getattr(st, "vehicles", {}) and target not in st.soldiers:
        v = st.vehicles[target]
        if not eq.anti_tank:
            return f"the {eq.name} cannot hurt a vehicle."
        if v.status != "board" or v.side == me.side:
            return f"{target} is not an enemy vehicle on the board."
        if not v.spotted:
            return f"the {st.name(target)} is not spotted."
        cell = at_of(st, target)[0]
    else:
        t = st.soldiers.get(target)
        if t is None or not t.free or t.side == me.side:
            return f"{target} is not an enemy soldier on the board."
        if not t.spotted:
            return f"{st.name(target)} is not spotted."
        if eq.blast is None:
            return f"the {eq.name} is for vehicles."
        cell = t.at
    if not in_arc(me.facing, me.at, cell):
        return f"{st.name(target)} is outside {st.name(serial)}'s shooting arc (he faces {me.facing.upper()})."
    reach = weapon_reach(st, serial, eq, cell)
    dist = inches(me.at, cell)
    if dist > reach:
        return f"that is {dist}\" away; the {eq.name} reaches {reach}\" after SHOOT modifiers."
    return None


def fire_weapon(ctx: Ctx, serial: int, item: str, target: int) -> None:
    """A SHOOT with a weapon card. Against soldiers it bursts on the target's cell: every soldier
    in the blast takes the weapon's blast checks (the firer's deck, as for a grenade). Against a
    vehicle a rocket strikes where its hit check and the vehicle's aspect put it
    (engine/vehicles/rockets.py); a charge puts its penetration in blast checks against the
    vehicle's weakest armour (engine/vehicles/damage.py blast_vehicle). Firing spots the firer."""
    st = ctx.st
    problem = weapon_problem(st, serial, item, target)
    if problem:
        raise RuleError(problem)
    eq = st.setup.equipment[item]
    me = st.changing(serial)
    spend(st, serial, item)
    me.spotted = True
    if target in st.vehicles and target not in st.soldiers:
        st.trail.append(TrailMark(kind="shot", serial=serial, path=[me.at, at_of(st, target)[0]]))
        ctx.say("weapon_fired", f"{st.name(serial)} fires the {eq.name} at the {st.name(target)}.",
                serial=serial, target=target, item=item)
        if eq.rocket:
            rulebook.rocket_vehicle(ctx, serial, target, eq.penetration or 0)
        else:  # a charge set against the hull: its blast on the weakest armour
            rulebook.blast_vehicle(ctx, target, eq.penetration or 1, by_force=me.controller, cause="demolition",
                                   by_soldier=serial)
        return
    centre = st.soldiers[target].at
    victims = under_blast(st, centre)
    st.trail.append(TrailMark(kind="shot", serial=serial, path=[me.at, centre], target=target))
    ctx.say("weapon_fired", f"{st.name(serial)} fires the {eq.name} at {st.name(target)}; the burst catches "
            + ", ".join(st.name(v) for v in victims) + ".", serial=serial, target=target, item=item, victims=victims)
    for v in victims:
        blast_victim(ctx, v, checks=eq.blast, check_force=me.controller, by_force=me.controller,
                     by_soldier=serial, cause="weapon")


# --------------------------------------------------------------------------- captured equipment


def captured_vp(ctx: Ctx) -> None:
    """At the end of the game each prisoner's equipment scores its VP for the captor's player:
    it fell to the enemy with him. Kept uses do not matter; cards thrown away are gone."""
    st = ctx.st
    for p in sorted(st.soldiers.values(), key=lambda s: s.serial):
        if p.captor is None or p.status not in ("board", "exited"):
            continue
        items = [q for q in carried(st, p.serial) if q in st.setup.equipment]
        vp = sum(st.setup.equipment[q].vp for q in items)
        if not vp:
            continue
        f = st.forces[p.controller]
        st.vp.append(VpEntry(seat=f.seat, side=f.side, amount=vp, kind="prisoner", serial=p.serial, by=p.captor,
                             reason=f"captured equipment of {st.name(p.serial)}"))
        ctx.say("equipment_vp", f"{st.seats[f.seat].name} captures {st.name(p.serial)}'s "
                + ", ".join(st.setup.equipment[q].name for q in items) + f": {vp} VP.", serial=p.serial)


# --------------------------------------------------------------------------- the `use` command


def use(ctx: Ctx, serial: int, item: str, target: int | None, at) -> None:
    """Carry out `use S ITEM T|at x,y`: smoke goes to a cell, a weapon at a target."""
    st = ctx.st
    eq = st.setup.equipment.get(item)
    if eq is None:
        raise RuleError(f"there is no equipment {item!r}.")
    if eq.kind == "smoke":
        if at is None:
            raise RuleError(f"the {eq.name} is thrown at a cell: use {serial} {item} at x,y.")
        throw_smoke(ctx, serial, item, at)
    elif eq.kind == "weapon":
        if target is None:
            raise RuleError(f"the {eq.name} is fired at a target: use {serial} {item} TARGET.")
        if eq.incendiary and target in st.vehicles and target not in st.soldiers:  # issue 9: engine/battlefield/incendiary.py
            rulebook.fire_incendiary(ctx, serial, item, target)
            return
        fire_weapon(ctx, serial, item, target)
    else:
        raise RuleError(f"the {eq.name} is not used with an action; it works by itself.")


def use_options(st, serial: int, seat: int, via) -> list:
    """Legal `use` commands for one soldier: each weapon at each target it can reach, and smoke
    onto the centre of every tile in reach (the cell he would most likely pick)."""
    out = []
    s = st.soldiers[serial]
    if not s.free:
        return out
    for item in dict.fromkeys(carried(st, serial)):
        eq = st.setup.equipment.get(item)
        if eq is None:
            continue
        # what stops him using the item at all is asked once, not once a target or a cell
        if eq.kind == "weapon" and _weapon_ready(st, serial, item) is None:
            targets = [e.serial for e in st.soldiers.values() if e.free and e.side != s.side]
            targets += [p for p, v in st.vehicles.items() if v.status == "board" and v.side != s.side]
            for t in sorted(targets):
                if weapon_problem(st, serial, item, t, ready=True) is None:
                    out.append(C.UseCmd(seat=seat, serial=serial, item=item, target=t, via=via))
        elif eq.kind == "smoke" and _smoke_ready(st, serial, item) is None:
            for tid in st.board.origin:
                cell = st.board.tile_centre(tid)
                if smoke_problem(st, serial, item, cell, ready=True) is None:
                    out.append(C.UseCmd(seat=seat, serial=serial, item=item, at=cell, via=via))
    return out


# --------------------------------------------------------------------------- handing a card on


def take_card(st, serial: int, item: str) -> int:
    """Take one copy of a card off a man; returns the uses already spent on that copy. He keeps
    the most worn copies and gives the freshest; copies left with no use are thrown away."""
    mine = st.changing(serial).equipment
    eq = st.setup.equipment.get(item)
    copies, marks = mine.count(item), mine.count(item + USED)
    mine.remove(item)
    if eq is None or eq.uses is None or not marks:
        return 0
    kept = min(marks, (copies - 1) * eq.uses)
    for _ in range(marks - kept):
        mine.remove(item + USED)
    if copies > 1 and uses_left(st, serial, item) == 0:
        while item in mine:
            mine.remove(item)
        while item + USED in mine:
            mine.remove(item + USED)
    return marks - kept


def give_card(st, serial: int, item: str, used: int = 0) -> None:
    """A copy of a card, with the uses already spent on it, goes under a man's soldier card."""
    st.changing(serial).equipment.extend([item] + [item + USED] * used)


def hand_off_problem(st, serial: int, item: str, to: int) -> str | None:
    """Why the man cannot hand this card to that friend now, or None (Handing Off Equipment):
    both free on foot in the same tile and in base-to-base contact (neighbouring cells), neither
    locked in combat contact, the card his and not a grenade pouch already in his pockets, and
    the receiver within his equip limits."""
    me = st.soldiers.get(serial)
    if me is None or not me.free:
        return f"{st.name(serial) if me else serial} is not on the board on foot."
    eq = st.setup.equipment.get(item)
    if eq is None:
        return f"there is no equipment {item!r}."
    if item not in carried(st, serial):
        return f"{st.name(serial)} does not carry the {eq.name}."
    if eq.kind == "grenade":
        return f"the {eq.name}'s grenades are already in {st.name(serial)}'s pockets; hand-offs move cards."
    friend = st.soldiers.get(to)
    if friend is None or to == serial or not friend.free or friend.side != me.side:
        return f"{to} is not another friendly soldier on the board on foot."
    board = st.board
    if board.tile_at(me.at) != board.tile_at(friend.at):
        return f"{st.name(to)} is not in {st.name(serial)}'s square ({board.tile_at(me.at)})."
    if max(abs(me.at[0] - friend.at[0]), abs(me.at[1] - friend.at[1])) > 1:
        return f"{st.name(to)} is not in base contact with {st.name(serial)}: they must stand side by side."
    for who in (serial, to):
        if in_contact(st, who):
            return f"{st.name(who)} is in combat contact: he may only turn to face with a MOVE."
    return load_problem(st, to, [item])


def hand_off(ctx: Ctx, serial: int, item: str, to: int) -> None:
    """A MOVE: one man hands a card to a friend beside him; one action for the two of them."""
    st = ctx.st
    problem = hand_off_problem(st, serial, item, to)
    if problem:
        raise RuleError(problem)
    used = take_card(st, serial, item)
    give_card(st, to, item, used)
    ctx.say("hand_off", f"{st.name(serial)} hands the {st.setup.equipment[item].name} to {st.name(to)}.",
            serial=serial, to=to, item=item)


def hand_off_options(st, serial: int, seat: int, via) -> list:
    """Legal `handoff` commands for one man: each card he carries to each friend beside him."""
    s = st.soldiers[serial]
    if not s.free:
        return []
    out = []
    friends = sorted(f.serial for f in st.soldiers.values()
                     if f.free and f.side == s.side and f.serial != serial
                     and max(abs(f.at[0] - s.at[0]), abs(f.at[1] - s.at[1])) <= 1)
    for item in dict.fromkeys(carried(st, serial)):
        for to in friends:
            if hand_off_problem(st, serial, item, to) is None:
                out.append(C.HandOffCmd(seat=seat, serial=serial, item=item, to=to, via=via))
    return out


# --------------------------------------------------------------------------- what its commands do (engine/core/rulebook.py)


@rulebook.performs(C.UseCmd)
def use_command(ctx: Ctx, cmd: C.UseCmd, src, entry_do) -> None:
    use(ctx, cmd.serial, cmd.item, cmd.target, cmd.at)


@rulebook.performs(C.HandOffCmd)
def hand_off_command(ctx: Ctx, cmd: C.HandOffCmd, src, entry_do) -> None:
    hand_off(ctx, cmd.serial, cmd.item, cmd.to)
