"""LOOK with vehicles (Hell on Wheels, LOOK): crew Sight from inside a vehicle (buttoned,
unbuttoned, optics), the vehicle's own Spotted markers, acquiring a target, Unbutton and Button
Up, and radio contact. Line of sight by Climb values and Visibility: engine/core/line_of_sight.py."""
from __future__ import annotations

from collections.abc import Callable

from engine.core import commands as C
from engine.core import rulebook
from engine.core.board import DIRS
from engine.core.content import Action
from engine.core.crew import actor, has_post, is_open, man_at, position_of
from engine.core.errors import RuleError
from engine.core.line_of_sight import (
    at_of,
    look_mods_for,
    los_blocker,
    vehicle_cell,
    visibility,
)
from engine.core.log import Ctx
from engine.core.ratings import current
from engine.core.vehicle_content import ROLE_GUNNER, Role
from engine.core.vehicle_geometry import cell_in_arc, tile_in_arc
from engine.infantry.look import sight
from engine.vehicles.damage import machinery_ok
from engine.vehicles.move import _check_hull, driver_role

# --------------------------------------------------------------------------- crew sight


def crew_optics(st, serial: int) -> int:
    loc = position_of(st, serial)
    return loc.optics if loc else 0


def crew_sight(st, serial: int) -> int:
    """His sight from inside: the vehicle's Sight modifier added while his hatch is shut, unless
    his position has optics (Sight; Optics)."""
    s = st.soldiers[serial]
    loc = position_of(st, serial)
    sight = current(st, serial, "sight")
    if loc is None:
        return sight
    if not is_open(st, s.vehicle, loc.id) and not loc.optics:
        sight += st.vehicle_def(s.vehicle).sight
    return sight


def sight_range_at(st, looker: int, target: int, sight: int | None = None, optics: int | None = None) -> tuple[int, int]:
    """(squares to the target, modified range): sight times the target's Visibility, then the
    LOOK modifiers (Visibility)."""
    (pa, _), (pb, _) = at_of(st, looker), at_of(st, target)
    sight = crew_sight(st, looker) if sight is None else sight
    optics = crew_optics(st, looker) if optics is None else optics
    d = st.board.squares(pa, pb, Action.LOOK)
    return d, _modified_range(st, pa, pb, target, sight, optics)


def _modified_range(st, pa, pb, target: int, sight: int, optics: int) -> int:
    return sight * visibility(st, target) + look_mods_for(st, pa, pb, optics)


def marked_by(st, target: int, plate: int) -> bool:
    if target in st.vehicles:
        return plate in st.vehicles[target].spotted_by
    return plate in st.soldiers[target].spotted_by


def _enemy_targets(st, side: str) -> list[int]:
    """Enemy soldiers on foot and enemy vehicles on the board."""
    out = [s.serial for s in st.soldiers.values() if s.free and s.side != side]
    out += [p for p, v in st.vehicles.items() if v.status == "board" and v.side != side]
    return sorted(out)


def crew_sight_options(st, looker: int) -> tuple[list[int], list[tuple[int, int, int, bool]]]:
    """A crewman's Sight: the closest enemy he can make out that his vehicle has not marked yet
    (ruling 8 as for soldiers), and the whole table (target, squares, range, spottable)."""
    s = st.soldiers[looker]
    plate = s.vehicle
    table = []
    for t in _enemy_targets(st, s.side):
        if marked_by(st, t, plate):
            continue
        if los_blocker(st, looker, t):
            table.append((t, st.board.squares(at_of(st, looker)[0], at_of(st, t)[0], Action.LOOK), -1, False))
            continue
        d, rng = sight_range_at(st, looker, t)
        table.append((t, d, rng, d <= rng))
    ok = [r for r in table if r[3]]
    if not ok:
        return [], table
    best = min(r[1] for r in ok)
    return sorted(r[0] for r in ok if r[1] == best), table


def crew_sight_must(st, looker: int, on_board: list[int] | None = None) -> list[int]:
    """crew_sight_options' targets alone (for listing options): the distance is measured first,
    then the range and the line of sight only of a target no farther than the nearest found so
    far. `on_board`: his enemies on the board (_enemy_targets), when the caller has them."""
    s = st.soldiers[looker]
    plate = s.vehicle
    sight, optics = crew_sight(st, looker), crew_optics(st, looker)
    pa = at_of(st, looker)[0]
    nearest, out = None, []
    for t in _enemy_targets(st, s.side) if on_board is None else on_board:
        if marked_by(st, t, plate):
            continue
        pb = at_of(st, t)[0]
        d = st.board.squares(pa, pb, Action.LOOK)
        if (nearest is not None and d > nearest) or d > _modified_range(st, pa, pb, t, sight, optics) \
                or los_blocker(st, looker, t):
            continue
        if nearest is None or d < nearest:
            nearest, out = d, []
        out.append(t)
    return sorted(out)


def check_crewman(st, serial: int) -> int:
    """The plate of the vehicle he looks out of."""
    s = st.soldiers.get(serial)
    loc = position_of(st, serial) if s else None
    if loc is None:
        raise RuleError(f"{st.name(serial) if s else serial} is not at a crew position.")
    v = st.vehicles[s.vehicle]
    if v.status != "board":
        raise RuleError(f"the {st.name(v.plate)} is not on the board.")
    return v.plate


def place_marker(st, target: int, plate: int) -> None:
    holder = st.vehicles[target] if target in st.vehicles else st.soldiers[target]
    if plate not in holder.spotted_by:
        holder = st.changing_vehicle(target) if target in st.vehicles else st.changing(target)
        holder.spotted_by.append(plate)


def crew_sight_action(ctx: Ctx, looker: int, target: int | None = None) -> int | None:
    """A crewman's Sight: his vehicle's own Spotted marker on the target (Vehicle Spotted Markers)."""
    st = ctx.st
    plate = check_crewman(st, looker)
    must, table = crew_sight_options(st, looker)
    name = st.name(looker)
    if not must:
        ctx.say("sight_fail", f"{name} looks out of the {st.name(plate)} but makes out no enemy it has not marked.",
                serial=looker)
        return None
    if target is None:
        if len(must) > 1:
            raise RuleError(f"{name} has a choice of who to sight: "
                            + ", ".join(f"{st.name(t)} ({t})" for t in must) + ".")
        target = must[0]
    elif target not in must:
        raise RuleError(f"{name} must sight the closest enemy he can see: "
                        + ", ".join(f"{st.name(t)} ({t})" for t in must) + ".")
    row = next(r for r in table if r[0] == target)
    place_marker(st, target, plate)
    _touch(st, plate)
    ctx.say("spotted", f"{name} spots {st.name(target)} from the {st.name(plate)} at {row[1]} squares "
            f"(modified sight {row[2]}): the {st.name(plate)}'s own marker.", serial=looker, target=target,
            plate=plate, squares=row[1], range=row[2])
    return target


def sight_square(ctx: Ctx, looker: int, tile: str) -> None:
    """Sighting a tile for area fire: a Sight marker on it if it lies within the looker's sight
    range (no Visibility: a tile is not a vehicle). A crewman's marker is his vehicle's, a
    soldier's the general one (Sighting Squares). Markers on tiles last to the turn's end (V38)."""
    st = ctx.st
    board = st.board
    if tile not in board.origin:
        raise RuleError(f"there is no tile {tile} on this map.")
    s = st.soldiers[looker]
    crew = position_of(st, looker) is not None
    if crew:
        plate = check_crewman(st, looker)
        here, sight, optics, mark = vehicle_cell(st, plate), crew_sight(st, looker), crew_optics(st, looker), plate
    else:
        if not s.free:
            raise RuleError(f"{st.name(looker)} is not on the board.")
        here, sight, optics, mark = s.at, current(st, looker, "sight"), 0, 0
    there = board.tile_centre(tile)
    d = board.squares(here, there, Action.LOOK)
    reach = sight + look_mods_for(st, here, there, optics)
    name = st.name(looker)
    if d > reach:
        ctx.say("sight_fail", f"{name} cannot make out {tile}: {d} squares against a modified sight of {reach}.",
                serial=looker, tile=tile)
        return
    marks = st.sighted.setdefault(tile, [])
    if mark not in marks:
        marks.append(mark)
    if crew:
        _touch(st, mark)
    ctx.say("sight_square", f"{name} sights {tile} at {d} squares" + (f" for the {st.name(mark)}" if mark else "")
            + ": it may be fired on with area rounds.", serial=looker, tile=tile, plate=mark or None)


def can_command(st, serial: int) -> bool:
    """The Command attribute: a leader in the commander's slot of a Command vehicle may give
    Command actions (the advanced rules' command cards use this)."""
    loc = position_of(st, serial)
    if loc is None or loc.role != Role.COMMANDER:
        return False
    s = st.soldiers[serial]
    d = st.setup.soldiers[serial]
    return st.vehicle_def(s.vehicle).command and len(d.ranks) > 1


def can_see(st, looker: int, target: int) -> tuple[bool, int, int]:
    """A free Sight attempt at one target (Acquiring a Target): in range and in line of sight."""
    if los_blocker(st, looker, target):
        return False, 0, -1
    d, rng = sight_range_at(st, looker, target)
    return d <= rng, d, rng


def _touch(st, plate: int) -> None:
    if plate not in st.panels:
        st.panels.append(plate)


def arc_facing(st, plate: int, target: int, current_facing: str) -> str | None:
    """The facing nearest the current one that brings the target into the arc."""
    v = st.vehicles[plate]
    board = st.board
    for k in (0, 1, -1, 2, -2, 3, -3, 4):
        f = DIRS[(DIRS.index(current_facing) + k) % 8]
        if target in st.vehicles:
            ok = tile_in_arc(board, v.tile, f, st.vehicles[target].tile)
        else:
            ok = cell_in_arc(board, v.tile, f, at_of(st, target)[0])
        if ok:
            return f
    return None


def acquiring_post(vdef) -> tuple[Role | None, str | None]:
    """Who takes Acquiring a Target's free Sight, as actor's role and weapon: the Gunner's post
    if the vehicle has one, else the man at its main gun (or its first machine gun)."""
    if has_post(vdef, ROLE_GUNNER):  # the gun is named only for a vehicle without one
        return ROLE_GUNNER, None
    return None, "main" if vdef.main_gun else vdef.mgs[0].id


def acquire(ctx: Ctx, plate: int, who: int, target: int) -> bool:
    """The Gunner takes a free Sight at a target his vehicle has marked; seen, the turret (or the
    hull, with a Driver at his post) swings to bring it into the arc (Acquiring a Target)."""
    st = ctx.st
    vdef = st.vehicle_def(plate)
    v = st.vehicles[plate]
    role, weapon = acquiring_post(vdef)
    gunner = actor(st, plate, who, role=role, weapon=weapon, what="acquire a target")
    if target not in st.vehicles and (target not in st.soldiers or not st.soldiers[target].free):
        raise RuleError(f"{target} is not a soldier on foot or a vehicle on the board.")
    if not marked_by(st, target, plate):
        raise RuleError(f"the {st.name(plate)} has not spotted {st.name(target)}: sight him first.")
    turret = v.turret is not None and (vdef.main_gun is None or vdef.main_gun.mount == "turret")
    facing = arc_facing(st, plate, target, v.turret if turret else v.facing)
    if facing is None:
        raise RuleError(f"no facing of the {st.name(plate)} brings {st.name(target)} into its arc.")
    if not turret:
        if driver_role(vdef) is not None:
            _driver_of(st, plate)
        _check_hull(st, plate)
    seen, d, rng = can_see(st, gunner, target)
    if not seen:
        ctx.say("acquire_fail", f"{st.name(gunner)} cannot pick out {st.name(target)} ({d} squares against a "
                f"modified sight of {rng}): the {st.name(plate)} does not turn.", serial=gunner, plate=plate)
        return False
    v = st.changing_vehicle(plate)
    if turret:
        v.turret = facing
    else:
        v.facing = facing
        v.hull_down = False
        if v.turret is not None:
            v.turret = facing
    _touch(st, plate)
    ctx.say("acquire", f"{st.name(gunner)} acquires {st.name(target)}: the {st.name(plate)}'s "
            f"{'turret' if turret else 'hull'} swings to {facing.upper()}.", serial=gunner, plate=plate,
            target=target, facing=facing)
    return True


def _driver_of(st, plate: int) -> int:
    man = man_at(st, plate, Role.DRIVER)
    if man is None:
        raise RuleError(f"nobody is at the {st.name(plate)}'s driver position to turn the hull.")
    return man


# --------------------------------------------------------------------------- hatches


def _hatch_man(st, plate: int, who: int, opening: bool) -> tuple[int, str]:
    """(the man, his position) whose hatch a LOOK opens (`opening`) or a HIDE shuts, or a RuleError."""
    man, post, why = _hatch(st, plate, who, opening)
    if why is not None:
        raise RuleError(why())
    return man, post


def hatch_man(st, plate: int, who: int, opening: bool) -> tuple[int, str] | None:
    """(the man, his position) as _hatch_man names them, or None where it refuses: the same rule
    (_hatch), its words never made (the option lists ask it for every vehicle a card moves)."""
    man, post, why = _hatch(st, plate, who, opening)
    return None if why is not None else (man, post)


def _hatch(st, plate: int, who: int, opening: bool) -> tuple[int | None, str | None, Callable[[], str] | None]:
    """(the man, his position, None), or (None, None, what makes the words saying why not)."""
    vdef = st.vehicle_def(plate)
    v = st.vehicles[plate]
    if who != plate:
        loc = position_of(st, who)
        if loc is None or st.soldiers[who].vehicle != plate:
            return None, None, lambda: f"{st.name(who)} is not at a crew position of the {vdef.name}."
        if not loc.hatch:
            return None, None, lambda: f"the {loc.name} has no hatch."
        return who, loc.id, None
    for loc in sorted(vdef.crew_positions, key=lambda p: p.role != Role.COMMANDER):
        if loc.hatch and loc.id in v.crew and ((loc.id not in v.unbuttoned) == opening):
            return v.crew[loc.id], loc.id, None
    return None, None, lambda: f"the {vdef.name} has no crewed hatch to " + ("open." if opening else "close.")


def unbutton(ctx: Ctx, plate: int, who: int) -> None:
    """A LOOK by a crewman under a hatch opens it; it stays open until buttoned (Unbutton)."""
    st = ctx.st
    v = st.changing_vehicle(plate)
    man, pos = _hatch_man(st, plate, who, True)
    if pos in v.unbuttoned:
        raise RuleError(f"{st.name(man)}'s hatch is open already.")
    v.unbuttoned.append(pos)
    _touch(st, plate)
    ctx.say("unbutton", f"{st.name(man)} opens his hatch on the {st.name(plate)}.", serial=man, plate=plate, post=pos)


def button(ctx: Ctx, plate: int, who: int) -> None:
    """A HIDE by the crewman there shuts an open hatch (Button Up)."""
    st = ctx.st
    v = st.changing_vehicle(plate)
    man, pos = _hatch_man(st, plate, who, False)
    if pos not in v.unbuttoned:
        raise RuleError(f"{st.name(man)}'s hatch is shut already.")
    v.unbuttoned.remove(pos)
    _touch(st, plate)
    ctx.say("button", f"{st.name(man)} buttons up on the {st.name(plate)}.", serial=man, plate=plate, post=pos)


# --------------------------------------------------------------------------- radio


def radios(st, side: str) -> list[int]:
    return [p for p, v in sorted(st.vehicles.items())
            if v.side == side and v.status == "board" and st.vehicle_def(p).radio and _radio_works(st, p)]


def _radio_works(st, plate: int) -> bool:
    vdef = st.vehicle_def(plate)
    sets = [loc.id for loc in vdef.locations if loc.radio]
    return not sets or any(machinery_ok(st, plate, lid) for lid in sets)


def _eyes(st, plate: int) -> list[int]:
    """The crewmen aboard at a post, who may look out for the vehicle."""
    return [n for n in st.vehicles[plate].crew.values() if st.soldiers[n].status == "aboard"]


def has_eye(st, plate: int) -> bool:
    """Whether anyone can sight on the vehicle's behalf (best_eye is not None), without ranking them."""
    return bool(_eyes(st, plate))


def best_eye(st, plate: int) -> int | None:
    """The crewman of a vehicle who sees best (for a sight made on its behalf)."""
    men = _eyes(st, plate)
    if not men:
        return None
    return max(men, key=lambda n: (crew_sight(st, n), crew_optics(st, n), -n))


def look_card_played(ctx: Ctx, plate: int) -> None:
    """Each LOOK card a vehicle plays this turn counts toward radio contact; reaching the panel's
    Radio number makes contact at once: every target it has marked gets the marker of each other
    friendly radio vehicle that could sight it (Radio Contact; Sight and Radio Contact). Calling
    artillery by radio reads the same count (engine/battlefield/artillery.py)."""
    st = ctx.st
    v = st.changing_vehicle(plate)
    vdef = st.vehicle_def(plate)
    v.looks += 1
    if not vdef.radio or v.looks != vdef.radio or not _radio_works(st, plate):
        return
    ctx.say("radio", f"The {st.name(plate)} makes radio contact ({v.looks} LOOK cards this turn).", plate=plate)
    shared = []
    for other in radios(st, v.side):
        if other == plate:
            continue
        eye = best_eye(st, other)
        if eye is None:
            continue
        for t in _enemy_targets(st, v.side):
            if marked_by(st, t, plate) and not marked_by(st, t, other) and can_see(st, eye, t)[0]:
                place_marker(st, t, other)
                shared.append((other, t))
    for other, t in shared:
        ctx.say("radio_spot", f"Over the radio the {st.name(other)} marks {st.name(t)} too.", plate=other, target=t)
    rulebook.radio_spot(ctx, plate)  # soldiers with radios mark them too (engine/battlefield/artillery.py)


# --------------------------------------------------------------------------- what its commands do (engine/core/rulebook.py)


@rulebook.performs(C.SightCmd)
def sight_command(ctx: Ctx, cmd: C.SightCmd, src, entry_do) -> None:
    """A man on foot sights a square (a general marker for the guns, Hell on Wheels) or an
    enemy (the core manual's Sight, engine/infantry/look.py)."""
    if cmd.square:
        sight_square(ctx, cmd.serial, cmd.square)
    else:
        sight(ctx, cmd.serial, cmd.target)
