"""Equipment cards (advanced rules, Markers and Equipment; core manual, Equipment).

Equipment is bought with force VP at set-up (engine/setup.py force_cost, check_force) and is
carried by one soldier (SoldierState.equipment, a list of equipment ids). The same list keeps
what the game does to a card, so positions and clones carry it for free:

  "<id>!used"     one use of a limited card spent (smoke canisters, rockets, rifle grenades)
  "dug@x,y"       the soldier dug a scrape at cell x,y with his entrenching tool

This module answers who may use what, how many uses are left, and resolves the equipment that
acts on its own: thrown smoke, fired weapons (rifle grenade, anti-tank rockets, a charge on a
vehicle), the scrape of an entrenching tool, and the VP for equipment the enemy captures.
"""
from __future__ import annotations

from engine.board import in_arc, inches
from engine.content import EquipmentDef
from engine.errors import RuleError
from engine.log import Ctx
from engine.ratings import current
from engine.state import SmokeMarker, TrailMark, VpEntry

USED = "!used"
DUG = "dug@"


# --------------------------------------------------------------------------- what he carries


def carried(st, serial: int) -> list[str]:
    """The equipment ids the soldier carries (marks left out)."""
    return [q for q in st.soldiers[serial].equipment if USED not in q and not q.startswith(DUG)]


def uses_left(st, serial: int, item: str) -> int | None:
    """Uses left of a limited card (None: no limit); 0 when he does not carry it."""
    eq = st.setup.equipment.get(item)
    if eq is None or item not in carried(st, serial):
        return 0
    if eq.uses is None:
        return None
    mine = st.soldiers[serial].equipment
    return max(0, eq.uses * mine.count(item) - mine.count(item + USED))


def spend(st, serial: int, item: str) -> None:
    """One use spent; the last use throws the card away (an empty tube, no more canisters)."""
    mine = st.soldiers[serial].equipment
    mine.append(item + USED)
    if uses_left(st, serial, item) == 0:
        while item in mine:
            mine.remove(item)
        while item + USED in mine:
            mine.remove(item + USED)


def meets(sdef, stats, need) -> bool:
    """Does a soldier (his card and current ratings) meet an equipment card's requirement?"""
    if need is None:
        return True
    if need.badge is not None and sdef.badge == need.badge:
        return True
    if need.cover_max is not None and stats.cover <= need.cover_max:
        return True
    if need.sight is not None and stats.sight >= need.sight:
        return True
    return False


def entry_problem(cat, entry) -> str | None:
    """Force selection: may this soldier carry all the equipment he is given? A card with a
    requirement goes to the specialist whose kit lists it or to a man who meets it; the whole
    load keeps within his equip limit (`equip_problem`)."""
    d = cat.soldiers[entry.serial]
    stats = d.profile(entry.rank).healthy
    for q in entry.equipment:
        eq = cat.equipment.get(q)
        if eq is None or eq.requires is None or q in d.kit or meets(d, stats, eq.requires):
            continue
        return f"{d.name} ({d.serial}) cannot use the {eq.name}: {need_words(eq)}."
    return equip_problem(cat.equipment, entry.serial, f"{d.name} ({d.serial})", d.profile(entry.rank).vp,
                         list(entry.equipment))


# --------------------------------------------------------------------------- the equip limit


def counts_against(eq: EquipmentDef, serial: int) -> bool:
    """Does this card weigh on the man's equip limit? Only cards on the chart with Equip "Yes",
    and never a card bearing his own name or dog tag (the SMG reading: ruling E2)."""
    return eq.chart and eq.equip and eq.owner != serial


def equip_problem(catalogue: dict[str, EquipmentDef], serial: int, who: str, vp: int,
                  items: list[str]) -> str | None:
    """Why a man worth `vp` may not carry all these cards at once, or None (vehicle book, Equip):
    the cards that count add up to at most twice his VP, and of any card worth more than he is
    he carries one at most. His own named cards, cards off the chart and Equip "No" cards are free."""
    total, count = 0, {}
    for q in items:
        eq = catalogue.get(q)
        if eq is None or not counts_against(eq, serial):
            continue
        total += eq.vp
        count[q] = count.get(q, 0) + 1
    for q, n in count.items():
        eq = catalogue[q]
        if n > 1 and eq.vp > vp:
            return (f"{who} may carry only one {eq.name}: at {eq.vp} VP it is worth more than he is ({vp} VP), "
                    f"and he would have {n}.")
    if total > 2 * vp:
        return (f"{who} may carry {2 * vp} VP of equipment (twice his {vp} VP); "
                f"that load is worth {total} VP.")
    return None


def load_problem(st, serial: int, extra: list[str] = ()) -> str | None:
    """In play: could the man carry what he has plus `extra` (a hand-off, a find)?"""
    return equip_problem(st.setup.equipment, serial, st.name(serial), st.vp_value(serial),
                         carried(st, serial) + list(extra))


def need_words(eq: EquipmentDef) -> str:
    n = eq.requires
    parts = []
    if n.badge:
        parts.append(f"{'an' if n.badge[0] in 'aeiou' else 'a'} {n.badge} badge")
    if n.cover_max is not None:
        parts.append(f"a cover value of {n.cover_max} or less")
    if n.sight is not None:
        parts.append(f"a sight of {n.sight} or more")
    return "it needs " + " or ".join(parts)


def may_use(st, serial: int, item: str) -> str | None:
    """Why the soldier cannot use an item he holds, or None when he can."""
    eq = st.setup.equipment.get(item)
    if eq is None:
        return f"there is no equipment {item!r}."
    if item not in carried(st, serial):
        return f"{st.name(serial)} does not carry the {eq.name}."
    d = st.setup.soldiers[serial]
    if eq.requires is None or item in d.kit or meets(d, st.stats(serial), eq.requires):
        return None
    return f"{st.name(serial)} cannot use the {eq.name}: {need_words(eq)}."


def grenade_bonus(cat, entry) -> int:
    """Grenades a grenade pouch adds to the soldier's own."""
    return sum(cat.equipment[q].grenades for q in entry.equipment if q in cat.equipment)


# --------------------------------------------------------------------------- the scrape


def dig_bonus(st, serial: int) -> int:
    """How much a scrape dug where he stands improves his cover (0: none)."""
    s = st.soldiers[serial]
    if s.at is None:
        return 0
    here = f"{DUG}{s.at[0]},{s.at[1]}"
    if here not in s.equipment:
        return 0
    return max((st.setup.equipment[q].dig or 0 for q in carried(st, serial)
                if q in st.setup.equipment and st.setup.equipment[q].kind == "tool"), default=0)


def dig_in(ctx: Ctx, serial: int) -> None:
    """After a successful Take Cover, a man with an entrenching tool scrapes a hole where he lies:
    it counts from his next Take Cover on, as long as he does not leave the cell."""
    st = ctx.st
    s = st.soldiers[serial]
    tools = [q for q in carried(st, serial) if q in st.setup.equipment and st.setup.equipment[q].kind == "tool"]
    if not tools or s.at is None or may_use(st, serial, tools[0]) is not None:
        return
    s.equipment[:] = [q for q in s.equipment if not q.startswith(DUG)]
    s.equipment.append(f"{DUG}{s.at[0]},{s.at[1]}")
    ctx.say("dig_in", f"{st.name(serial)} digs a scrape with his {st.setup.equipment[tools[0]].name}.", serial=serial)


def _ready_problem(st, serial: int, item: str, kind: str, wrong_kind: str, none_left: str,
                   escorting_says: str) -> str | None:
    """What stops a soldier using an item of this kind at all: off the board, not his to use,
    the wrong kind, none left, locked in contact or escorting a prisoner."""
    from engine.contact import in_contact
    from engine.shoot import escorting
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


def smoke_problem(st, serial: int, item: str, cell) -> str | None:
    """Why the soldier cannot throw smoke to that cell, or None."""
    from engine.blast import toss_range
    from engine.shoot import shoot_mods
    me = st.soldiers[serial]
    name = st.name(serial)
    problem = _ready_problem(st, serial, item, "smoke", "does not make smoke", "has no {} left",
                             "cannot throw anything")
    if problem:
        return problem
    cell = tuple(cell)
    if not st.board.on_board(cell):
        return "the smoke must land on the board."
    if not in_arc(me.facing, me.at, cell):
        return f"{cell[0]},{cell[1]} is outside {name}'s arc (he faces {me.facing.upper()})."
    toss = current(st, serial, "toss")
    if toss <= 0:
        return f"{name} cannot throw."
    reach = toss_range(toss, shoot_mods(st, me.at, cell))
    dist = inches(me.at, cell)
    if dist > reach:
        return f"that is {dist}\" away; {name}'s modified toss range is {reach}\"."
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
    from engine.shoot import shoot_mods
    base = eq.range if eq.range is not None else current(st, serial, "toss")
    return base + shoot_mods(st, st.soldiers[serial].at, cell)


def weapon_problem(st, serial: int, item: str, target: int) -> str | None:
    """Why the soldier cannot fire the weapon at that target (a spotted enemy soldier, or an enemy
    vehicle for an anti-tank weapon), or None."""
    me = st.soldiers[serial]
    name = st.name(serial)
    problem = _ready_problem(st, serial, item, "weapon", "is not a weapon", "has nothing left to fire from the {}",
                             "cannot use his weapons")
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
        from engine.vehicle_look import at_of
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
        return f"{st.name(target)} is outside {name}'s shooting arc (he faces {me.facing.upper()})."
    reach = weapon_reach(st, serial, eq, cell)
    dist = inches(me.at, cell)
    if dist > reach:
        return f"that is {dist}\" away; the {eq.name} reaches {reach}\" after SHOOT modifiers."
    return None


def fire_weapon(ctx: Ctx, serial: int, item: str, target: int) -> None:
    """A SHOOT with a weapon card. Against soldiers it bursts on the target's cell: every soldier
    in the blast takes the weapon's blast checks (the firer's deck, as for a grenade). An anti-tank
    weapon against a vehicle puts its penetration in blast checks against the vehicle's weakest
    armour (engine.vehicle_damage.blast_vehicle). Firing spots the firer."""
    from engine.blast import blast_victim, under_blast
    st = ctx.st
    problem = weapon_problem(st, serial, item, target)
    if problem:
        raise RuleError(problem)
    eq = st.setup.equipment[item]
    me = st.soldiers[serial]
    spend(st, serial, item)
    me.spotted = True
    if target in st.vehicles and target not in st.soldiers:
        from engine.vehicle_damage import blast_vehicle
        from engine.vehicle_look import at_of
        st.trail.append(TrailMark(kind="shot", serial=serial, path=[me.at, at_of(st, target)[0]]))
        ctx.say("weapon_fired", f"{st.name(serial)} fires the {eq.name} at the {st.name(target)}.",
                serial=serial, target=target, item=item)
        blast_vehicle(ctx, target, eq.penetration or 1, by_force=me.controller, cause="rocket", by_soldier=serial)
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
        if eq.incendiary and target in st.vehicles and target not in st.soldiers:  # issue 9: engine/incendiary.py
            from engine.incendiary import fire_incendiary
            fire_incendiary(ctx, serial, item, target)
            return
        fire_weapon(ctx, serial, item, target)
    else:
        raise RuleError(f"the {eq.name} is not used with an action; it works by itself.")


def use_options(st, serial: int, seat: int, via) -> list:
    """Legal `use` commands for one soldier: each weapon at each target it can reach, and smoke
    onto the centre of every tile in reach (the cell he would most likely pick)."""
    from engine import commands as C
    out = []
    s = st.soldiers[serial]
    if not s.free:
        return out
    for item in dict.fromkeys(carried(st, serial)):
        eq = st.setup.equipment.get(item)
        if eq is None:
            continue
        if eq.kind == "weapon":
            targets = [e.serial for e in st.soldiers.values() if e.free and e.side != s.side]
            targets += [p for p, v in st.vehicles.items() if v.status == "board" and v.side != s.side]
            for t in sorted(targets):
                if weapon_problem(st, serial, item, t) is None:
                    out.append(C.UseCmd(seat=seat, serial=serial, item=item, target=t, via=via))
        elif eq.kind == "smoke":
            for tid in st.board.origin:
                cell = st.board.tile_centre(tid)
                if smoke_problem(st, serial, item, cell) is None:
                    out.append(C.UseCmd(seat=seat, serial=serial, item=item, at=cell, via=via))
    return out


# --------------------------------------------------------------------------- handing a card on


def take_card(st, serial: int, item: str) -> int:
    """Take one copy of a card off a man; returns the uses already spent on that copy. He keeps
    the most worn copies and gives the freshest; copies left with no use are thrown away."""
    mine = st.soldiers[serial].equipment
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
    st.soldiers[serial].equipment.extend([item] + [item + USED] * used)


def hand_off_problem(st, serial: int, item: str, to: int) -> str | None:
    """Why the man cannot hand this card to that friend now, or None (Handing Off Equipment):
    both free on foot in the same tile and in base-to-base contact (neighbouring cells), neither
    locked in combat contact, the card his and not a grenade pouch already in his pockets, and
    the receiver within his equip limits."""
    from engine.contact import in_contact
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
    from engine import commands as C
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
