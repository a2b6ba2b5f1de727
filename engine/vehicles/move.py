"""MOVE for vehicles and guns (Hell on Wheels, MOVE: How to Move, Facing, Same Square, Bog
Checks, Removing Pins, Road Vehicle Movement, Backing Up, Passing Vehicles, Mount and Dismount,
Tank Riders, Vehicle Panel Crew Movement). The square-based default of the book; rulings in
docs/vehicles.md (V1 on)."""
from __future__ import annotations

import heapq
from collections.abc import Callable

from engine.core import rulebook
from engine.core.board import DIRS
from engine.core.content import Damage
from engine.core.crew import actor, crewman, has_post, position_of, post_for
from engine.core.deck import check
from engine.core.errors import RuleError
from engine.core.log import Ctx
from engine.core.state import TrailMark
from engine.core.vehicle_content import ROLE_DRIVER, ROLE_GUNNER, Role
from engine.core.vehicle_geometry import (
    SIDES,
    centre_point,
    footprint,
    neighbours,
    others_in,
    road_link,
    road_sides,
    turn_steps,
)
from engine.core.wording import plural
from engine.infantry.damage import damage_check, kill
from engine.infantry.move import entry_options
from engine.vehicles import orders as vehicle_orders
from engine.vehicles.damage import destroy_vehicle, drive_ok, immobilised, position_ok
from engine.vehicles.roadblocks import (
    move_mod,
    open_entry_problem,
    road_entry_problem,
    road_start_problem,
)

MOVE_PLUS = 2  # squares a Move+ marker stores; one MOVE action places one (ruling V2)
MOVE_PLUS_PLUS = 3  # squares a Move++ marker stores; two MOVE actions of one part place one (ruling V2)
MAX_TURN = 4  # compass points of a turn in one MOVE action (Facing)
RUN_OVER_BOG_CHECKS = 3
OPPOSITE = {"n": "s", "s": "n", "e": "w", "w": "e"}


def unarmoured(vdef) -> bool:
    return all(a.front == 0 and a.side == 0 and a.rear == 0 for a in vdef.armour.values())


def rotate(facing: str, steps: int) -> str:
    return DIRS[(DIRS.index(facing) + steps) % 8]


def forward_dirs(facing: str) -> tuple[str, ...]:
    """The side or corner faced and the two beside it: a move through them needs no turn (Facing)."""
    return rotate(facing, -1), facing, rotate(facing, 1)


def back_dirs(facing: str) -> tuple[str, ...]:
    return forward_dirs(rotate(facing, 4))


def tile_move_mod(st, tid: str) -> int:
    return move_mod(st, tid, st.board.tiles[tid].mods.move or 0)


def step_cost(st, frm: str, to: str) -> int:
    """Squares to go from one tile into the next: one (two into a landmark), plus the MOVE
    modifier of the tile being left, paid on leaving (How to Move)."""
    return (2 if st.board.tiles[to].landmark else 1) + max(0, -tile_move_mod(st, frm))


def entry_problem(st, tid: str) -> str | None:
    """Why a vehicle cannot stand in a tile: NO MOVE terrain, water or a building in its middle."""
    board = st.board
    for c in footprint(board, tid):
        if board.nomove(c) or board.building(c):
            return f"{tid} has NO MOVE ground or a building where a vehicle would stand"
    return None


# --------------------------------------------------------------------------- who drives


def driver_role(vdef) -> Role | None:
    return ROLE_DRIVER if has_post(vdef, ROLE_DRIVER) else None


def driver(st, plate: int, who: int, what: str) -> int:
    """The crewman who moves the hull: the Driver (a gun with no driver: any crewman at a post)."""
    vdef = st.vehicle_def(plate)
    role = driver_role(vdef)
    if role is not None:
        return actor(st, plate, who, role=role, what=what)
    man = _gun_crewman(st, plate, who, vdef)
    if man is None:
        raise RuleError(f"nobody crews the {vdef.name} to {what}." if who == plate
                        else f"{st.name(who)} is not at a post on the {vdef.name}.")
    return man


def turret_post(vdef) -> tuple:
    """Who turns the turret (role, weapon): the Gunner's position, else whoever serves the main gun."""
    return post_for(vdef, ROLE_GUNNER, "main")


def drives(st, plate: int, who: int) -> bool:
    """Whether driver names a man: the option lists' yes/no, without a refusal's words."""
    vdef = st.vehicle_def(plate)
    role = driver_role(vdef)
    if role is not None:
        return crewman(st, plate, who, role=role) is not None
    return _gun_crewman(st, plate, who, vdef) is not None


def _gun_crewman(st, plate: int, who: int, vdef) -> int | None:
    """Who moves a gun with no driver: the plate's first man at a working post, or `who` at a post."""
    if who == plate:
        v = st.vehicles[plate]
        for loc in vdef.crew_positions:
            if loc.id in v.crew and position_ok(st, plate, loc.id):
                return v.crew[loc.id]
        return None
    if position_of(st, who) is None or st.soldiers[who].vehicle != plate:
        return None
    return who


def check_vehicle(st, plate: int, force: str) -> None:
    v = st.vehicles.get(plate)
    if v is None:
        raise RuleError(f"there is no vehicle {plate} in this game.")
    if v.controller != force:
        raise RuleError(f"the {st.name(plate)} is not one of yours to command with this card.")
    if v.status not in ("board", "waiting"):
        raise RuleError(f"the {st.name(plate)} is {v.status}.")


def hull_fault(st, plate: int) -> str | None:
    """The rule _hull_problem words: why the hull may not move or turn now, as a key ("pins",
    "immobilised", "drive"), or None. Without the words, so the option lists (engine/vehicles/legal.py)
    may ask it of every plate and crewman."""
    if st.vehicles[plate].pins:
        return "pins"
    if immobilised(st, plate):
        return "immobilised"
    if not drive_ok(st, plate):
        return "drive"
    return None


def _hull_problem(st, plate: int) -> str | None:
    fault = hull_fault(st, plate)
    if fault is None:
        return None
    name = st.name(plate)
    if fault == "pins":
        pins = st.vehicles[plate].pins
        return f"the {name} is bogged down under {pins} Pin marker{'s' if pins != 1 else ''}: shed them first (unpin)"
    if fault == "immobilised":
        return f"the {name} is immobilised (a Critical on its drive)"
    return f"the {name}'s drive is wrecked: repair it first"


def _check_hull(st, plate: int) -> None:
    problem = _hull_problem(st, plate)
    if problem:
        raise RuleError(problem + ".")


def _dismounted_crew(st, plate: int) -> list[int]:
    return sorted(s.serial for s in st.soldiers.values()
                  if s.vehicle == plate and s.dismounted and s.status == "board")


# --------------------------------------------------------------------------- where a move can go


def open_reach(st, plate: int, allowance: int, *, back: bool = False,
               start: str | None = None, start_cost: int = 0) -> dict[str, tuple[int, str | None]]:
    """Tiles an Open move reaches: through the side or corner faced and the two beside it, the
    hull keeping its facing; backing up, one square through the rear ones (Backing Up)."""
    v = st.vehicles[plate]
    t0 = start or v.tile
    dirs = back_dirs(v.facing) if back else forward_dirs(v.facing)
    best: dict[str, tuple[int, str | None]] = {t0: (start_cost, None)}
    heap = [(start_cost, t0)]
    while heap:
        cost, t = heapq.heappop(heap)
        if cost > best[t][0]:
            continue
        if back and t != t0:
            continue  # backing up: one square only
        for d in dirs:
            for nb in neighbours(st.board, t, d):
                c = cost + (smg_step(st, t, nb, t == t0) if smg(st) else step_cost(st, t, nb))  # issue 9
                if c > allowance or entry_problem(st, nb):
                    continue
                if _roadblock_open(st, plate, nb):  # issue 9: only fully tracked vehicles cross a roadblock
                    continue
                if nb not in best or c < best[nb][0]:
                    best[nb] = (c, t)
                    heapq.heappush(heap, (c, nb))
    return best


def road_reach(st, plate: int, allowance: int, *, start: str | None = None, facing: str | None = None,
               start_cost: int = 0) -> dict[str, tuple[int, str | None, str]]:
    """Tiles a Road move reaches: out through the side faced where a road leaves, then along the
    road, the hull turning with it; never into a tile holding another vehicle (Road Vehicle
    Movement). Each tile entered is one square (two for a landmark); a road pays no MOVE modifier."""
    board = st.board
    t0 = start or st.vehicles[plate].tile
    f0 = facing or st.vehicles[plate].facing
    best: dict[str, tuple[int, str | None, str]] = {t0: (start_cost, None, f0)}
    if f0 not in SIDES or f0 not in road_sides(board, t0) or _roadblock_road(st, plate, None):
        return best
    frontier = [(start_cost, t0, f0, True)]
    while frontier:
        cost, t, came, first = heapq.heappop(frontier)
        dirs = [came] if first else [d for d in SIDES if d != OPPOSITE[came]]
        for d in dirs:
            for nb in neighbours(board, t, d):
                if not road_link(board, t, nb, d) or others_in(st, plate, nb) or entry_problem(st, nb):
                    continue
                if _roadblock_road(st, plate, nb):  # issue 9: a road move stops before a roadblock
                    continue
                c = cost + (2 if board.tiles[nb].landmark else 1) * (SMG_INCHES if smg(st) else 1)  # issue 9
                if c > allowance or (nb in best and best[nb][0] <= c):
                    continue
                best[nb] = (c, t, d)
                heapq.heappush(frontier, (c, nb, d, False))
    return best


def _roadblock_open(st, plate: int, tid: str) -> str | None:
    return open_entry_problem(st, plate, tid)


def _roadblock_road(st, plate: int, tid: str | None) -> str | None:
    """issue 9 (engine/vehicles/roadblocks.py): into a roadblock's tile (tid), or off an overlay (None)."""
    return road_start_problem(st, plate) if tid is None else road_entry_problem(st, plate, tid)


def path_to(reach: dict, tile: str) -> list[str]:
    out = [tile]
    while reach[out[-1]][1] is not None:
        out.append(reach[out[-1]][1])
    return out[::-1]


def allowance(st, plate: int, road: bool) -> int:
    """Squares for this MOVE: the panel's Open or Road rate, or the Move+ markers saved up."""
    vdef = st.vehicle_def(plate)
    rate = vdef.road_move if road else vdef.open_move
    if smg(st):  # issue 9: SMG-style movement counts inches, a Move+ carrying up to 2 of them
        return rate * SMG_INCHES + st.vehicles[plate].move_plus
    return max(rate, st.vehicles[plate].move_plus)


# --------------------------------------------------------------------------- SMG-style movement (issue 9)
# The vehicle book's optional rule (scenario option `smg_vehicle_movement`), read for our tiles
# (docs/battlefield.md): a MOVE is worth 5 inches per square of the panel's Open or Road rate; each
# tile entered costs 5 inches (10 for a landmark); an Open move pays the MOVE modifier of the tile it
# starts in once, as inches (a Road move none); a Move+ carries 2 inches over to the next MOVE.

SMG_INCHES = 5  # a square's width
SMG_CARRY = 2  # inches a Move+ carries over


def smg(st) -> bool:
    return st.setup.scenario.options.smg_vehicle_movement


def smg_step(st, frm: str, to: str, first: bool) -> int:
    """Inches to go from one tile into the next in an Open move; the start tile's MOVE modifier once."""
    return (2 if st.board.tiles[to].landmark else 1) * SMG_INCHES + (max(0, -tile_move_mod(st, frm)) if first else 0)


def first_step_cost(st, frm: str, to: str) -> int:
    """What leaving a tile into the next costs, in the unit `allowance` counts (squares, or inches)."""
    return smg_step(st, frm, to, True) if smg(st) else step_cost(st, frm, to)


def entry_tiles(st, plate: int) -> list[tuple[str, str]]:
    """(tile, facing) a waiting vehicle may come on at: its force's entry areas, facing inward."""
    v = st.vehicles[plate]
    sc = st.setup.scenario
    out = []
    for name in entry_options(st, v.force):
        area = sc.entry_areas.get(name)
        if area is not None and not entry_problem(st, area.tile):
            out.append((area.tile, OPPOSITE[area.edge]))
    return out


def destinations(st, plate: int, *, road: bool = False, back: bool = False) -> dict[str, tuple[int, list[str], str]]:
    """Every tile one MOVE can reach now: tile -> (cost, path, facing at the end)."""
    v = st.vehicles[plate]
    allow = allowance(st, plate, road)
    out: dict[str, tuple[int, list[str], str]] = {}
    if v.status == "waiting":
        for tid, facing in entry_tiles(st, plate):
            enter = (2 if st.board.tiles[tid].landmark else 1) * (SMG_INCHES if smg(st) else 1)  # issue 9: SMG
            if enter > allow:
                continue
            shadow = v.model_copy(update={"facing": facing, "tile": tid})
            st.vehicles[plate] = shadow
            try:
                reach = road_reach(st, plate, allow, start_cost=enter) if road else \
                    open_reach(st, plate, allow, start_cost=enter)
            finally:
                st.vehicles[plate] = v
            for t, row in reach.items():
                if t not in out or row[0] < out[t][0]:
                    out[t] = (row[0], path_to(reach, t), row[2] if road else facing)
        return out
    if road and back:
        return {}
    if back:
        reach = open_reach(st, plate, allowance(st, plate, False), back=True)
    elif road:
        reach = road_reach(st, plate, allow)
    else:
        reach = open_reach(st, plate, allow)
    for t, row in reach.items():
        if t != v.tile:
            out[t] = (row[0], path_to(reach, t), row[2] if road else v.facing)
    return out


# --------------------------------------------------------------------------- bogging


def bog_checks(st, plate: int, *, road: bool = False) -> int:
    """Damage checks at the start of a MOVE out of, or turning or going hull down in, a tile
    with a negative MOVE modifier: one per point (Bog Checks); one more to pass another vehicle
    on a road (Passing Vehicles)."""
    v = st.vehicles[plate]
    n = max(0, -tile_move_mod(st, v.tile)) if v.tile else 0
    if road and others_in(st, plate, v.tile):
        n += 1
    return n


def bog(ctx: Ctx, plate: int, checks: int, what: str) -> bool:
    """Pull the checks off the vehicle's deck; any Pin bogs it: the action is lost and it takes
    the panel's Bog pins for each Pin (Bog Checks). Returns whether it bogged."""
    st = ctx.st
    if checks <= 0:
        return False
    v = st.vehicles[plate]
    vdef = st.vehicle_def(plate)
    pins, cards = 0, []
    for _ in range(checks):
        cid = check(ctx, v.force)
        cards.append(cid)
        if st.card(cid).damage == Damage.PIN:
            pins += 1
    if not pins:
        ctx.say("bog_check", f"The {st.name(plate)} makes {checks} bog check{'s' if checks != 1 else ''} "
                f"({', '.join(cards)}): no Pin, it {what}.", plate=plate, cards=cards)
        return False
    markers = pins * vdef.bog_pins
    st.changing_vehicle(plate).pins += markers
    _touch(st, plate)
    ctx.say("bogged", f"The {st.name(plate)} bogs down ({', '.join(cards)}: {plural(pins, 'Pin result')} "
            f"x bog {vdef.bog_pins} = {plural(markers, 'Pin marker')}) and cannot {what}.",
            plate=plate, cards=cards, pins=markers)
    return True


# --------------------------------------------------------------------------- displacing soldiers


def _room(st, serial: int, tile: str, fp: set, taken: set, keep_cover: bool) -> tuple[int, int] | None:
    board = st.board
    s = st.soldiers[serial]
    climb = st.stats(serial).climb
    near = [c for c in board.tile_cells(tile)
            if c not in fp and c not in taken and board.passable(c, climb)]
    if keep_cover:
        covered = [c for c in near if board.in_cover(c)]
        near = covered or near
    if not near:
        ox, oy = board.origin[tile]
        size = board.tiles[tile].size
        ring = [(x, y) for x in range(ox - 2, ox + size + 2) for y in range(oy - 2, oy + size + 2)
                if board.on_board((x, y)) and board.tile_at((x, y)) != tile]
        near = [c for c in ring if c not in taken and board.passable(c, climb)]
    if not near:
        return None
    x, y = s.at
    return min(near, key=lambda c: ((c[0] - x) ** 2 + (c[1] - y) ** 2, c))


def displace(ctx: Ctx, plate: int, tile: str, by: int | None) -> None:
    """Soldiers where the vehicle comes to stand make room: in cover they stay in cover if they
    can, else they step aside or out of the tile; a friend who cannot blocks the vehicle; a
    pinned enemy makes two damage checks and any Wound or Kill runs him over (Same Square)."""
    st = ctx.st
    board = st.board
    v = st.vehicles[plate]
    fp = footprint(board, tile)
    under = sorted(s.serial for s in st.soldiers.values() if s.on_board and s.at in fp)
    for serial in under:
        s = st.soldiers[serial]
        if s.status != "board":
            continue
        if s.side != v.side and s.pinned:
            results = [damage_check(ctx, serial) for _ in range(2)]
            if any(r in (Damage.WOUND, Damage.KILL) for r in results):
                ctx.say("run_over", f"The {st.name(plate)} runs over {st.name(serial)}.", plate=plate, serial=serial)
                kill(ctx, serial, by_force=v.force, by_soldier=by, cause="run over")
                continue
        taken = set(st.occupied()) - {s.at}
        cell = _room(st, serial, tile, fp, taken, board.in_cover(s.at))
        if cell is None:
            if s.side == v.side:
                raise RuleError(f"{st.name(serial)} has no room to step aside in {tile}: the {st.name(plate)} "
                                f"cannot go there.")
            ctx.say("run_over", f"{st.name(serial)} has nowhere to go and the {st.name(plate)} runs him over.",
                    plate=plate, serial=serial)
            kill(ctx, serial, by_force=v.force, by_soldier=by, cause="run over")
            continue
        s = st.changing(serial)
        s.at = cell
        s.step_down()
        ctx.say("displaced", f"{st.name(serial)} makes room for the {st.name(plate)}.", serial=serial,
                plate=plate, at=list(cell))


def _run_over_vehicles(ctx: Ctx, plate: int, tile: str, by: int | None) -> bool:
    """A fully tracked vehicle may crush an unarmoured one in the tile it enters, taking three
    bog checks (Same Square). Returns whether it bogged doing so."""
    st = ctx.st
    vdef = st.vehicle_def(plate)
    soft = [p for p in others_in(st, plate, tile) if unarmoured(st.vehicle_def(p))]
    if not soft or not vdef.tracked:
        return False
    for p in soft:
        ctx.say("crush", f"The {st.name(plate)} rolls over the {st.name(p)}.", plate=plate, target=p)
        destroy_vehicle(ctx, p, by_force=st.vehicles[plate].force, by_soldier=by, cause="run over")
        if bog(ctx, plate, RUN_OVER_BOG_CHECKS, "move on"):
            return True
    return False


# --------------------------------------------------------------------------- the hull


def _touch(st, plate: int) -> None:
    if plate not in st.panels:
        st.panels.append(plate)


def _hull_moved(st, plate: int, squares: int) -> None:
    v = st.changing_vehicle(plate)
    v.moved += squares
    v.hull_down = False
    v.move_plus = 0
    _touch(st, plate)


def vmove(ctx: Ctx, plate: int, who: int, tile: str, *, road: bool = False, back: bool = False) -> None:
    """One MOVE of the hull: Open (or Road, or one square back) to a tile it can reach."""
    st = ctx.st
    v = st.changing_vehicle(plate)  # its own from the start: a bog check, a mine or a crush changes it too
    vdef = st.vehicle_def(plate)
    name = st.name(plate)
    by = driver(st, plate, who, "drive it")
    _check_hull(st, plate)
    if back and v.status == "waiting":
        raise RuleError(f"the {name} comes onto the board forward.")
    if v.status == "board" and _dismounted_crew(st, plate):
        men = ", ".join(st.name(n) for n in _dismounted_crew(st, plate))
        raise RuleError(f"{men} stand{'s' if len(_dismounted_crew(st, plate)) == 1 else ''} beside the {name}: "
                        f"the crew mounts before it drives off.")
    if road and v.status == "board" and (v.facing not in SIDES or v.facing not in road_sides(st.board, v.tile)):
        raise RuleError(f"the {name} does not face a side of {v.tile} where a road runs: only an Open move.")
    if road and v.status == "board" and (why := _roadblock_road(st, plate, None)):  # issue 9: roadblocks
        raise RuleError(why + ".")
    options = destinations(st, plate, road=road, back=back)
    kind = "a Road move" if road else ("backing up" if back else "an Open move")
    if tile not in options:
        allow = allowance(st, plate, road)
        near = ", ".join(sorted(options)[:12]) or "nowhere"
        raise RuleError(f"the {name} cannot reach {tile} with {kind} ({allow} square{'s' if allow != 1 else ''}"
                        f", facing {v.facing.upper()}): it can reach {near}.")
    cost, path, facing = options[tile]
    entering = v.status == "waiting"
    if not entering and bog(ctx, plate, bog_checks(st, plate, road=road), "move this time"):
        return
    start = v.tile
    if not entering and rulebook.mine_vehicle_leaves(ctx, plate):  # mines (engine/battlefield/mines.py): set off leaving its tile
        return
    if entering:
        v.status = "board"
        v.facing = _entry_facing(st, plate, path[0])
        if v.turret is not None:
            v.turret = v.facing
    squares = 0
    travelled = [path[0]] if entering else [start]
    steps = path if entering else path[1:]
    prev = None if entering else start
    for t in steps:
        if prev is not None:
            squares += step_cost(st, prev, t) if not road else (2 if st.board.tiles[t].landmark else 1)
        else:
            squares += 2 if st.board.tiles[t].landmark else 1
        v.tile = t
        if road and prev is not None:
            v.facing = next(d for d in SIDES if t in neighbours(st.board, prev, d) and road_link(st.board, prev, t, d))
        displace(ctx, plate, t, by)
        _smoke_trail(ctx, plate, t)  # issue 9: a smoke generator or pot lays smoke in each new tile
        travelled.append(t)
        prev = t
        if rulebook.mine_vehicle_enters(ctx, plate, t):  # mines (engine/battlefield/mines.py): set off rolling in; it stops there
            break
        if _run_over_vehicles(ctx, plate, t, by):
            break
    _hull_moved(st, plate, squares)
    rulebook.thrown_off(ctx, plate)  # enemies on its deck fall off (engine/battlefield/close_combat.py)
    st.trail.append(TrailMark(kind="move", serial=plate,
                              path=[_centre_cell(st, t) for t in travelled]))
    how = {True: "along the road", False: "backing up" if back else "across country"}[road]
    verb = "comes on at" if entering else "moves"
    ctx.say("vmove", f"{st.name(by)} drives the {name}: it {verb} {' -> '.join(travelled if not entering else travelled[1:])}"
            f" {how} ({squares} square{'s' if squares != 1 else ''}), facing {v.facing.upper()}.",
            plate=plate, serial=by, path=travelled, facing=v.facing)
    if v.status == "board" and v.tile is not None:  # onto enemy men: both spotted at once (engine/battlefield/close_combat.py)
        rulebook.spot_on_contact(ctx, plate=plate)
    if vdef.kind != "gun":
        _orders_after(ctx, plate, road)


def _smoke_trail(ctx: Ctx, plate: int, tid: str) -> None:
    if ctx.st.vehicles[plate].smoke_trail is not None:  # issue 9 (engine/vehicles/smoke.py)
        rulebook.smoke_trail(ctx, plate, tid)


def _entry_facing(st, plate: int, tid: str) -> str:
    for t, facing in entry_tiles(st, plate):
        if t == tid:
            return facing
    return st.vehicles[plate].facing


def _centre_cell(st, tid: str):
    x, y = centre_point(st.board, tid)
    return int(x), int(y)


def _orders_after(ctx: Ctx, plate: int, road: bool) -> None:
    vehicle_orders.after_vehicle_move(ctx, plate, road)


def vturn(ctx: Ctx, plate: int, who: int, facing: str) -> None:
    """Turn the hull in its tile, up to four compass points, as one MOVE (Facing); it loses hull down."""
    st = ctx.st
    v = st.vehicles[plate]
    name = st.name(plate)
    if v.status != "board":
        raise RuleError(f"the {name} is not on the board.")
    by = driver(st, plate, who, "turn it")
    _check_hull(st, plate)
    steps = turn_steps(v.facing, facing)
    if steps == 0:
        raise RuleError(f"the {name} faces {facing.upper()} already.")
    if steps > MAX_TURN:
        raise RuleError(f"a turn is at most {MAX_TURN} compass points.")
    if bog(ctx, plate, bog_checks(st, plate), "turn"):
        return
    if rulebook.mine_vehicle_leaves(ctx, plate):  # mines (engine/battlefield/mines.py): a hull turn moves within the tile
        return
    v = st.changing_vehicle(plate)  # taken after the bog checks and mines, which may have made it the state's own
    before = v.facing
    turret_follows = v.turret is not None and st.vehicle_def(plate).main_gun is not None \
        and st.vehicle_def(plate).main_gun.mount == "hull"
    v.facing = facing
    if turret_follows:
        v.turret = facing
    v.hull_down = False
    _touch(st, plate)
    ctx.say("vturn", f"{st.name(by)} turns the {name} from {before.upper()} to {facing.upper()}.", plate=plate,
            serial=by, facing=facing)
    rulebook.thrown_off(ctx, plate)  # enemies on its deck fall off (engine/battlefield/close_combat.py)


def turret(ctx: Ctx, plate: int, who: int, facing: str) -> None:
    """Turn the turret, up to four compass points, as one MOVE by the Gunner (Facing)."""
    st = ctx.st
    v = st.vehicles[plate]
    vdef = st.vehicle_def(plate)
    name = st.name(plate)
    if v.status != "board":
        raise RuleError(f"the {name} is not on the board.")
    if v.turret is None:
        raise RuleError(f"the {name} has no turret: turn the hull instead (vturn).")
    role, weapon = turret_post(vdef)
    by = actor(st, plate, who, role=role, weapon=weapon, what="turn the turret")
    steps = turn_steps(v.turret, facing)
    if steps == 0:
        raise RuleError(f"the {name}'s turret faces {facing.upper()} already.")
    if steps > MAX_TURN:
        raise RuleError(f"a turn is at most {MAX_TURN} compass points.")
    st.changing_vehicle(plate).turret = facing
    _touch(st, plate)
    ctx.say("turret", f"{st.name(by)} traverses the {name}'s turret to {facing.upper()}.", plate=plate, serial=by,
            facing=facing)


def move_plus(ctx: Ctx, plate: int, who: int, double: bool = False) -> None:
    """Save movement up for a later MOVE (How to Move; ruling V2): a Move+ marker worth two
    squares, or with `double` (two MOVE actions, counted by engine/turn/cards.py) a Move++ worth three."""
    st = ctx.st
    v = st.changing_vehicle(plate)
    marker = "Move++" if double else "Move+"
    if v.status != "board":
        raise RuleError(f"the {st.name(plate)} is not on the board.")
    by = driver(st, plate, who, "save up movement")
    _check_hull(st, plate)
    if smg(st):  # issue 9: SMG-style movement: a Move+ or a Move++ carries 2 inches to the next MOVE (Turning)
        if v.move_plus >= SMG_CARRY:
            raise RuleError(f"the {st.name(plate)} carries {SMG_CARRY} inches over already (SMG-style movement).")
        v.move_plus = SMG_CARRY
        _touch(st, plate)
        ctx.say("moveplus", f"{st.name(by)} carries {SMG_CARRY} inches of the {st.name(plate)}'s movement over to "
                f"its next MOVE (a {marker} marker).", plate=plate, serial=by, inches=SMG_CARRY, marker=marker)
        return
    v.move_plus += MOVE_PLUS_PLUS if double else MOVE_PLUS
    _touch(st, plate)
    ctx.say("moveplus", f"{st.name(by)} saves up the {st.name(plate)}'s movement with a {marker} marker: markers "
            f"worth {v.move_plus} squares.", plate=plate, serial=by, squares=v.move_plus, marker=marker)


def unpin(ctx: Ctx, plate: int, who: int) -> None:
    """A MOVE taken by the vehicle removes one Pin marker (Removing Pins)."""
    st = ctx.st
    v = st.changing_vehicle(plate)
    if not v.pins:
        raise RuleError(f"the {st.name(plate)} has no Pin markers.")
    by = driver(st, plate, who, "work it free")
    v.pins -= 1
    _touch(st, plate)
    ctx.say("unpin", f"{st.name(by)} works the {st.name(plate)} free of one Pin marker ({v.pins} left).",
            plate=plate, serial=by, pins=v.pins)


# --------------------------------------------------------------------------- men getting on and off


DECK_CLIMB = 2  # from the ground onto the hull deck or into the cabin (Mount and Dismount)
TURRET_CLIMB = 1  # from the hull deck on up onto the turret (Mount and Dismount)


def climb_to(part: str, start: str | None = None) -> int:
    """The Climb a man needs to get from `start` (None: the ground; "hull": the deck; "turret")
    up to `part` ("hull": the deck or cabin; "turret"): each climb is its own step that his Climb
    must reach, so from the ground to the turret he needs the deck's 2 (ruling V11). Down is free."""
    steps = {None: 0, "hull": 1, "turret": 2}
    costs = [DECK_CLIMB, TURRET_CLIMB][steps[start]:steps[part]]
    return max(costs, default=0)


def climb_problem(st, serial: int, plate: int, climb: int) -> str | None:
    """Why he cannot climb this high on the vehicle (his Climb rating against the level), or None."""
    if climbs(st, serial, plate, climb):
        return None
    return (f"{st.name(serial)} has Climb {st.stats(serial).climb}; getting on the {st.name(plate)} there "
            f"needs Climb {climb}.")


def climbs(st, serial: int, plate: int, climb: int) -> bool:
    """Whether he can climb this high on the vehicle: climb_problem's rule, without its words."""
    d = st.setup.soldiers[serial]
    if d.crew is not None and d.crew.vehicle == st.vehicles[plate].vehicle:
        return True  # trained crew ignore Climb (Mount and Dismount)
    return st.stats(serial).climb >= climb


def mount_plan(st, serial: int, plate: int, post: str | None) -> str:
    """Where he would get on (a crew position, "cabin", "deck" or "turret"), or a RuleError."""
    where, why = _boarding(st, serial, plate, post)
    if why is not None:
        raise RuleError(why())
    return where


def mount_post(st, serial: int, plate: int, post: str | None) -> str | None:
    """Where he would get on, or None where mount_plan refuses: the same rule (_boarding), its
    words never made (the option lists ask it for every man and vehicle in a tile)."""
    return _boarding(st, serial, plate, post)[0]


def _boarding(st, serial: int, plate: int, post: str | None) -> tuple[str | None, Callable[[], str] | None]:
    """(where he would get on, None) or (None, what makes the words saying why not)."""
    s = st.soldiers[serial]
    v = st.vehicles.get(plate)
    if v is None:
        return None, lambda: f"there is no vehicle {plate} in this game."
    vdef = st.vehicle_def(plate)
    if not s.free:
        return None, lambda: f"{st.name(serial)} is not on the board on foot."
    if v.status != "board" or v.tile is None:
        return None, lambda: f"the {st.name(plate)} is not on the board."
    if v.side != s.side:
        return None, lambda: f"the {st.name(plate)} is the enemy's."
    if st.board.tile_at(s.at) != v.tile:
        return None, lambda: f"{st.name(serial)} must be in {v.tile}, the {st.name(plate)}'s tile, to get on."
    if v.moved or v.move_plus:
        return None, lambda: (f"the {st.name(plate)} is moving (it moved this phase or holds Move+ markers): "
                              "nobody gets on.")
    crewman = s.dismounted and s.vehicle == plate
    positions = {loc.id: loc for loc in vdef.crew_positions}
    if post is None:
        if crewman:
            empty = [p for p in positions if p not in v.crew and position_ok(st, plate, p)]
            if not empty:
                return None, lambda: f"every crew position of the {st.name(plate)} is taken."
            post = next((p for p in empty if st.setup.soldiers[serial].crew
                         and positions[p].role == st.setup.soldiers[serial].crew.role), empty[0])
        else:
            post = "cabin" if vdef.passengers else "deck"
    if post in positions:
        if not crewman:
            return None, lambda: (f"only the {st.name(plate)}'s own crew take its crew positions; "
                                  f"{st.name(serial)} rides as a passenger (cabin) or on the deck or turret.")
        if post in v.crew:
            return None, lambda: f"{positions[post].name} is taken by {st.name(v.crew[post])}."
        if not position_ok(st, plate, post):
            return None, lambda: f"the {positions[post].name} is on fire."
        climb = climb_to("turret" if positions[post].compartment == "turret" else "hull")
    elif post == "cabin":
        if not vdef.passengers:
            return None, lambda: f"the {st.name(plate)} has no cabin; ride on the deck or turret."
        if len(v.passengers) >= vdef.passengers:
            return None, lambda: f"the {st.name(plate)}'s cabin is full ({vdef.passengers})."
        climb = climb_to("hull")
    elif post in ("deck", "turret"):
        if post == "turret" and not vdef.has_turret:
            return None, lambda: f"the {st.name(plate)} has no turret."
        if len(v.riders) >= vdef.rider_limit:
            return None, lambda: f"the {st.name(plate)} carries no more tank riders (at most {vdef.rider_limit})."
        climb = climb_to("turret" if post == "turret" else "hull")
    else:
        return None, lambda: (f"{post!r} is not a place on the {st.name(plate)}: a crew position ("
                              + ", ".join(positions) + "), cabin, deck or turret.")
    if not climbs(st, serial, plate, climb):
        return None, lambda: climb_problem(st, serial, plate, climb)
    return post, None


def mount(ctx: Ctx, serial: int, plate: int, post: str | None) -> None:
    """From the vehicle's tile onto it, as a MOVE: a passenger into the Cabin (or onto the deck
    or turret as a tank rider), a crewman into an empty crew position; Climb 2 onto the hull or
    cabin, and 1 more step from there into the turret (`climb_to`), trained crew excepted. The vehicle must not have moved this phase
    nor hold Move+ markers (Mount and Dismount; Tank Riders)."""
    st = ctx.st
    post = mount_plan(st, serial, plate, post)
    s = st.changing(serial)
    v = st.changing_vehicle(plate)
    positions = {loc.id: loc for loc in st.vehicle_def(plate).crew_positions}
    if post in positions:
        v.crew[post] = serial
    elif post == "cabin":
        v.passengers.append(serial)
    else:
        v.riders.append(serial)
    s.status, s.at, s.vehicle, s.post, s.dismounted = "aboard", None, plate, post, False
    s.spotted = False
    _touch(st, plate)
    name = st.name(plate)
    where = positions[post].name if post in positions else post
    ctx.say("mount", f"{st.name(serial)} gets on the {name} ({where}).", serial=serial, plate=plate, post=post)


def dismount_cell(st, serial: int):
    """Where a man aboard would stand on getting off: the free, passable cell of the vehicle's
    tile nearest its middle, off its footprint; None when there is no room."""
    v = st.vehicles[st.soldiers[serial].vehicle]
    board = st.board
    fp = footprint(board, v.tile)
    taken = set(st.occupied())
    climb = st.stats(serial).climb
    free = [c for c in board.tile_cells(v.tile) if c not in fp and c not in taken and board.passable(c, climb)]
    if not free:
        return None
    cx, cy = board.tile_centre(v.tile)
    return min(free, key=lambda c: ((c[0] - cx) ** 2 + (c[1] - cy) ** 2, c))


def dismount(ctx: Ctx, serial: int) -> None:
    """Off the vehicle into its tile, as a MOVE, while it has moved at most one square this phase;
    a crewman gets a Dismounted marker and stays in the tile (Mount and Dismount)."""
    st = ctx.st
    s = st.changing(serial)
    if s.status != "aboard" or s.vehicle is None:
        raise RuleError(f"{st.name(serial)} is not aboard a vehicle.")
    plate = s.vehicle
    v = st.changing_vehicle(plate)
    name = st.name(plate)
    if v.status != "board" or v.tile is None:
        raise RuleError(f"the {name} is not on the board.")
    if v.moved > 1:
        raise RuleError(f"the {name} has moved {v.moved} squares this phase: nobody gets off until it slows down.")
    cell = dismount_cell(st, serial)
    if cell is None:
        raise RuleError(f"there is no room beside the {name} in {v.tile}.")
    crewman = serial not in v.passengers and serial not in v.riders
    v.crew = {p: n for p, n in v.crew.items() if n != serial}
    v.passengers = [n for n in v.passengers if n != serial]
    v.riders = [n for n in v.riders if n != serial]
    s.status, s.at, s.post = "board", cell, None
    s.facing = v.facing
    s.spotted_by = []
    if crewman:
        s.dismounted = True
    else:
        s.vehicle = None
    _touch(st, plate)
    ctx.say("dismount", f"{st.name(serial)} gets off the {name}" + (" and stands beside it" if crewman else "")
            + f" at {cell[0]},{cell[1]}.", serial=serial, plate=plate, at=list(cell))


def shift(ctx: Ctx, serial: int, post: str) -> None:
    """A crewman moves on the panel to an empty crew position or to a machinery location to fight
    a fire or repair; the outside ones (track, wheel, engine, drive train) only from beside the
    vehicle, after dismounting (Vehicle Panel Crew Movement)."""
    st = ctx.st
    s = st.changing(serial)
    plate = s.vehicle
    if plate is None or plate not in st.vehicles:
        raise RuleError(f"{st.name(serial)} is not a crewman of a vehicle.")
    v = st.changing_vehicle(plate)
    vdef = st.vehicle_def(plate)
    loc = vdef.place(post)
    if v.status != "board":
        raise RuleError(f"the {st.name(plate)} is not on the board.")
    beside = s.status == "board" and s.dismounted
    inside = s.status == "aboard" and s.post not in (None, "cabin", "deck", "turret") \
        and s.serial not in v.passengers and s.serial not in v.riders
    if not (beside or inside):
        raise RuleError(f"{st.name(serial)} is not at a crew post or machinery location of the {vdef.name}.")
    if s.post == post:
        raise RuleError(f"{st.name(serial)} is there already.")
    if loc.kind == "crew":
        if beside:
            raise RuleError(f"{st.name(serial)} must mount to reach the {loc.name}.")
        if post in v.crew:
            raise RuleError(f"the {loc.name} is taken by {st.name(v.crew[post])}.")
        if not position_ok(st, plate, post):
            raise RuleError(f"the {loc.name} is on fire.")
    elif loc.outside and not beside:
        raise RuleError(f"the {loc.name} is outside the vehicle: {st.name(serial)} dismounts first.")
    elif not loc.outside and beside:
        raise RuleError(f"the {loc.name} is inside: {st.name(serial)} mounts first.")
    v.crew = {p: n for p, n in v.crew.items() if n != serial}
    if loc.kind == "crew":
        v.crew[post] = serial
    if beside:
        s.status, s.at, s.dismounted = "aboard", None, True
    s.post = post
    _touch(st, plate)
    ctx.say("shift", f"{st.name(serial)} moves to the {loc.name} of the {vdef.name}.", serial=serial, plate=plate,
            post=post)
