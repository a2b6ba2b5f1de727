"""Vehicle smoke (Hell on Wheels, Pop Smoke; Smoke Generators).

Pop smoke is a SHOOT action (`popsmoke ACTOR`, routed here by engine/turn/cards.py). A vehicle that can
carry tank riders or a combat team (its panel gives riders or passengers; a gun never) pops it;
so does one with a smoke generator (`VehicleDef.smoke_generator`) or with a man aboard carrying
a smoke pot (the equipment ids in `SMOKE_POTS`). The man who pops it sits at the gunner's or the
commander's position or at any position with a hatch (through the license plate: the first of
those, trained there).

Popping lays 2x smoke on the vehicle's tile and makes an automatic Take Cover with a further
HIDE -3 in its own tile (so it is tried in any tile): the general Spotted marker against the
nearest enemy soldiers on foot (the nearest enemies of any kind when none is on foot), each
enemy vehicle's own marker against that vehicle alone (engine/vehicles/hide.py's cover value,
the -3 added in the vehicle's tile before the -3-or-less test).

A generator, or a lit smoke pot, keeps laying: for the rest of that turn every new tile the
vehicle drives into gets 2x smoke (`lay_trail`, hooked into engine/vehicles/move.py). A smoke pot
is used up by the pop that lights it; a generator never runs dry.

Rulings: docs/battlefield.md, "Roadblocks, smoke, incendiaries and optional rules".
"""
from __future__ import annotations

from engine.advanced.equipment_use import lay_smoke
from engine.core import commands as C
from engine.core import rulebook
from engine.core.content import Action
from engine.core.crew import plate_of, position_of, trained_at
from engine.core.errors import RuleError
from engine.core.line_of_sight import at_of
from engine.core.log import Ctx
from engine.core.vehicle_content import Role
from engine.infantry.equipment import carried, spend
from engine.vehicles.damage import position_ok
from engine.vehicles.hide import _nearest, cover_value_against, shed_markers

POP_DENSITY = 2  # Pop Smoke: a 2x smoke marker
POP_HIDE = -3  # the extra HIDE modifier in the vehicle's own tile
SMOKE_POTS = ("smoke-pot",)  # equipment cards that let a vehicle lay smoke like a generator


def _pot_carrier(st, plate: int) -> tuple[int, str] | None:
    """A man aboard carrying a smoke pot (the lowest dog tag), and the pot's id."""
    for s in sorted(st.soldiers.values(), key=lambda x: x.serial):
        if s.status == "aboard" and s.vehicle == plate:
            for item in carried(st, s.serial):
                if item in SMOKE_POTS:
                    return s.serial, item
    return None


def can_pop(st, plate: int) -> bool:
    """Riders or a team aboard, a smoke generator, or a smoke pot aboard (Pop Smoke)."""
    vdef = st.vehicle_def(plate)
    if vdef.smoke_generator or _pot_carrier(st, plate) is not None:
        return True
    return vdef.kind != "gun" and (vdef.passengers > 0 or vdef.rider_limit > 0)


def _eligible(loc) -> bool:
    return loc.role in (Role.GUNNER, Role.COMMANDER) or loc.hatch


def popper(st, plate: int, who: int) -> int:
    """Who pops the smoke: a named crewman at the gunner's, commander's or a hatch position; for
    the license plate the first such position manned by a man trained there (the rule:
    _popper_fault, worded here)."""
    fault, man = _popper_fault(st, plate, who)
    if fault is None:
        return man
    vdef = st.vehicle_def(plate)
    if fault == "untrained":
        raise RuleError(f"nobody trained sits at the {vdef.name}'s gunner's, commander's or a hatch position "
                        f"to pop smoke.")
    if fault == "post":
        raise RuleError(f"{st.name(who)} is not at a crew position of the {vdef.name}.")
    raise RuleError(f"{st.name(who)} is at the {position_of(st, who).name}: smoke is popped from the gunner's, "
                    f"the commander's or a position with a hatch.")


def _popper_fault(st, plate: int, who: int) -> tuple[str | None, int | None]:
    """popper's rule without its words: (None, the man who pops the smoke), or (why not, None):
    "untrained" (the plate: no such position manned by a man trained there), "post" (`who` is
    at no crew position of it), "eligible" (his position is not one smoke is popped from)."""
    if who == plate:
        v = st.vehicles[plate]
        order = sorted((loc for loc in st.vehicle_def(plate).crew_positions if _eligible(loc)),
                       key=lambda loc: (loc.role != Role.GUNNER, loc.role != Role.COMMANDER))
        for loc in order:
            man = v.crew.get(loc.id)
            if man is not None and position_ok(st, plate, loc.id) and trained_at(st, man, plate, loc):
                return None, man
        return "untrained", None
    loc = position_of(st, who)
    if loc is None or st.soldiers[who].vehicle != plate:
        return "post", None
    if not _eligible(loc):
        return "eligible", None
    return None, who


def pop_fault(st, serial: int) -> str | None:
    """The rule pop_problem words: why this plate or crewman cannot pop smoke now, as a key
    ("vehicle": he is with none, plate_of's refusal; "board": the vehicle is not on the board;
    "kind": it cannot pop smoke; "popper": nobody to pop it, popper's refusal), or None. Without
    the words, so the option lists (options) ask it without naming anyone."""
    try:
        plate = plate_of(st, serial)  # (the option lists ask only plates and men aboard: it never refuses them)
    except RuleError:
        return "vehicle"
    v = st.vehicles[plate]
    if v.status != "board" or not v.tile:
        return "board"
    if not can_pop(st, plate):
        return "kind"
    if _popper_fault(st, plate, serial)[0] is not None:
        return "popper"
    return None


def pop_problem(st, serial: int) -> str | None:
    """Why this plate or crewman cannot pop smoke now, or None (the rule: pop_fault, worded here;
    plate_of and popper word their own refusals)."""
    fault = pop_fault(st, serial)
    if fault is None:
        return None
    try:
        plate = plate_of(st, serial)
        if fault == "popper":
            popper(st, plate, serial)
    except RuleError as e:
        return str(e).rstrip(".")
    name = st.name(plate)
    if fault == "board":
        return f"the {name} is not on the board"
    return f"the {name} cannot pop smoke: it carries no riders or team, no smoke generator and no smoke pot"


# --------------------------------------------------------------------------- the take cover


def _nearest_soldiers(st, plate: int) -> list[int]:
    v = st.vehicles[plate]
    here = at_of(st, plate)[0]
    rows = [(st.board.squares(here, s.at, Action.HIDE), s.serial) for s in st.soldiers.values()
            if s.free and s.side != v.side and s.at is not None]
    if not rows:
        return _nearest(st, plate)
    d0 = min(d for d, _ in rows)
    return sorted(n for d, n in rows if d == d0)


def cover_value(st, plate: int, enemy: int) -> int:
    """The vehicle's HIDE value plus the HIDE modifiers of -3 or less from its tile to the enemy's,
    its own tile counting a further -3 (the smoke it has just popped is on the map already)."""
    return cover_value_against(st, plate, enemy, POP_HIDE)


def _take_cover(st, plate: int) -> list[str]:
    return [f"it {words}" for words in shed_markers(st, plate, _nearest_soldiers(st, plate), POP_HIDE)]


# --------------------------------------------------------------------------- popping and laying


def pop_smoke(ctx: Ctx, serial: int) -> None:
    """A SHOOT: 2x smoke on the vehicle's tile, then the automatic Take Cover at HIDE -3."""
    st = ctx.st
    problem = pop_problem(st, serial)
    if problem:
        raise RuleError(problem + ".")
    plate = plate_of(st, serial)
    v = st.vehicles[plate]
    vdef = st.vehicle_def(plate)
    by = popper(st, plate, serial)
    lay_smoke(ctx, v.tile, POP_DENSITY)
    how = "smoke dischargers"
    if vdef.smoke_generator:
        st.changing_vehicle(plate).smoke_trail = st.turn
        how = "its smoke generator"
    else:
        pot = _pot_carrier(st, plate)
        if pot is not None:
            spend(st, pot[0], pot[1])
            st.changing_vehicle(plate).smoke_trail = st.turn
            how = f"{st.name(pot[0])}'s {st.setup.equipment[pot[1]].name}"
    report = _take_cover(st, plate)
    if plate not in st.panels:
        st.panels.append(plate)
    tile = st.vehicles[plate].tile  # read again: taking cover may have made the vehicle the state's own
    ctx.say("popsmoke", f"{st.name(by)} pops smoke from the {st.name(plate)} ({how}): {POP_DENSITY}x smoke over "
            f"{tile}; taking cover, " + ("; ".join(report) or "nobody had marked it") + ".",
            plate=plate, serial=by, tile=tile, density=POP_DENSITY)


@rulebook.smoke_trail.fill
def lay_trail(ctx: Ctx, plate: int, tile: str) -> None:
    """A vehicle laying smoke enters a new tile: 2x smoke there (Smoke Generators)."""
    st = ctx.st
    v = st.vehicles[plate]
    if v.smoke_trail != st.turn:
        return
    lay_smoke(ctx, tile, POP_DENSITY)
    ctx.say("smoke_trail", f"The {st.name(plate)} lays {POP_DENSITY}x smoke over {tile}.", plate=plate, tile=tile,
            density=POP_DENSITY)


def options(st, serial: int, seat: int, via: str) -> list:
    """The popsmoke command for this plate or crewman, when legal (engine/vehicles/legal.py)."""
    if pop_fault(st, serial) is not None:
        return []
    return [C.PopSmokeCmd(seat=seat, serial=serial, via=via)]


# --------------------------------------------------------------------------- what its commands do (engine/core/rulebook.py)


@rulebook.performs(C.PopSmokeCmd)
def pop_smoke_command(ctx: Ctx, cmd: C.PopSmokeCmd, src, entry_do) -> None:
    pop_smoke(ctx, cmd.serial)
