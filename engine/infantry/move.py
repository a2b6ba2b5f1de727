"""MOVE (core manual, MOVE): Walk, Climb, facing, moving into combat contact, entering and
leaving the board, and escorts taking their prisoners along."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from engine.core import commands as C
from engine.core import per_setup, rulebook
from engine.core.as_given import as_given
from engine.core.board import (
    DIRS,
    NEIGHBOURS,
    adjacent,
    direction_to,
    exact_inches,
    in_arc,
)
from engine.core.errors import RuleError
from engine.core.log import Ctx
from engine.core.ratings import current
from engine.core.state import ReleasePending, TrailMark
from engine.infantry.contact import escorting, in_contact
from engine.infantry.orders import after_exit, after_move

Cell = tuple[int, int]
MAX_PRISONERS = 2  # one escort guards at most two prisoners


@dataclass(frozen=True)
class Dest:
    """Where a move goes: a cell, a tile (optionally a cover cell in it), or off the board."""

    cell: Cell | None = None
    tile: str | None = None
    cover: bool = False
    exit: bool = False
    area: str | None = None

    def describe(self) -> str:
        if self.exit:
            return "off the board" + (f" through area {self.area}" if self.area else "")
        if self.tile:
            return self.tile + (" (in cover)" if self.cover else "")
        return f"{self.cell[0]},{self.cell[1]}"


def walk_allowance(st, serial: int) -> float:
    """Walk plus the MOVE modifier of the tile he starts in; entering counts no terrain (Entry Areas)."""
    s = st.soldiers[serial]
    walk = current(st, serial, "walk")
    if s.status != "board":
        return float(max(0, walk))
    return float(max(0, walk + st.board.move_mod(s.at)))


def _blocked(st, serial: int) -> tuple[set[Cell], set[Cell]]:
    """(cells he cannot cross, cells he may cross but not stop on)."""
    side = st.soldiers[serial].side
    block, occupied = set(), set()
    for s in st.soldiers.values():
        at = s.at  # (on_board and free read as the fields they are: status, captor)
        if at is None or s.status != "board" or s.serial == serial:
            continue
        occupied.add(at)
        if s.captor is not None or s.side != side:  # not a free man of his side
            block.add(at)
    return block, occupied


def _entry_names(st, force_id: str) -> list[str]:
    """The entry areas a force may still use, by name (entry_options' first half: what the
    state decides; the rest is the setup's)."""
    f = st.forces[force_id]
    if f.entry_area:
        return [f.entry_area]
    seat = st.seats[f.seat]
    order = st.setup.orders.get(seat.order) if seat.order else None
    if order and order.entry:
        return [order.entry]
    names = list(st.setup.scenario.side(f.side).entry)
    claimed = {o.entry_area for o in st.forces.values()
               if o.side == f.side and o.id != force_id and o.entry_area}
    free = [n for n in names if n not in claimed]
    return free or names


def entry_options(st, force_id: str) -> dict[str, list[tuple[Cell, str]]]:
    """Entry areas a force may still use, with their edge cells (Orders; Entry Areas)."""
    f = st.forces[force_id]
    sc = st.setup.scenario
    board = st.board
    side = sc.side(f.side)
    names = _entry_names(st, force_id)
    out: dict[str, list[tuple[Cell, str]]] = {}
    for n in names:
        area = sc.entry_areas.get(n)
        if area is None:
            continue
        out[n] = [(c, area.edge) for c in board.edge_cells(area.tile, area.edge)]
    if not out and not side.entry:
        # a deployed side's reinforcements come on along the board edges of its deployment tiles
        for tid in side.deploy:
            for edge in ("n", "e", "s", "w"):
                cells = board.edge_cells(tid, edge)
                if cells:
                    out.setdefault(tid, []).extend((c, edge) for c in cells)
    return out


def reachable(st, serial: int, budget: float | None = None) -> tuple[dict[Cell, float], dict[Cell, Cell], dict[Cell, str]]:
    """Every cell he could walk to now with its cost, the path parents, and for an entering
    soldier the entry area each edge cell belongs to."""
    s = st.soldiers[serial]
    climb = current(st, serial, "climb")
    block, _ = _blocked(st, serial)
    budget = walk_allowance(st, serial) if budget is None else budget
    area_of: dict[Cell, str] = {}
    if s.status == "board":
        starts = {s.at: 0.0}
    else:
        starts = {}
        if 1.0 <= budget:
            for c, name in _entry_starts(st, s.force, climb):
                if c not in block:
                    starts[c] = 1.0
                    area_of[c] = name
    costs, parents = st.board.paths(starts, budget, climb, block)
    return costs, parents, area_of


def _entry_starts(st, force_id: str, climb: int) -> tuple[tuple[Cell, str], ...]:
    """The cells an entering man of the force may step onto, each with its entry area, in
    entry_options' order (a cell of two areas twice): those his Climb lets him stand on. Kept
    per setup by his side, the areas the state leaves the force (_entry_names) and his Climb: the
    map and the scenario's areas are the setup's and never change (tests/engine/test_move_memo37.py
    holds it to entry_options)."""
    names = tuple(_entry_names(st, force_id))
    key = (st.forces[force_id].side, names, climb)
    kept = per_setup.memo(st.setup, "move.entry_starts")
    got = kept.get(key)
    if got is None:
        board = st.board
        got = kept[key] = tuple((c, name) for name, cells in entry_options(st, force_id).items()
                                for c, _edge in cells if board.passable(c, climb))
    return got


def _area_for(cell: Cell, parents: dict[Cell, Cell], area_of: dict[Cell, str]) -> str | None:
    c = cell
    while c in parents:
        c = parents[c]
    return area_of.get(c)


def touches_enemy(st, serial: int, at: Cell, facing: str) -> list[int]:
    """Enemies (or prisoners of his own side) he would be in contact with standing at `at`."""
    beside = [o for o in st.soldiers.values()
              if o.serial != serial and o.on_board and o.at is not None and adjacent(at, o.at)]
    return _touching(st.soldiers[serial], beside, at, facing)


def _touching(me, beside: list, at: Cell, facing: str) -> list[int]:
    """Of the men beside `at`, those `me` would be in contact with there, facing `facing`."""
    out = []
    for o in beside:
        if o.free and o.side != me.side:
            if in_arc(facing, at, o.at) or in_arc(o.facing, o.at, at):
                out.append(o.serial)
        elif o.captor is not None and o.side == me.side and in_arc(facing, at, o.at):
            out.append(o.serial)
    return out


def _check_can_move(st, serial: int) -> None:
    s = st.soldiers[serial]
    if s.status not in ("board", "waiting") or (s.status == "board" and s.captor is not None):
        raise RuleError(f"{st.name(serial)} cannot move: he is {'a prisoner' if s.captor else s.status}.")
    if s.status == "board" and in_contact(st, serial):
        raise RuleError(f"{st.name(serial)} is in combat contact (locked in combat): he may only turn to face.")
    if s.dismounted:
        raise RuleError(f"{st.name(serial)} stays beside his vehicle while dismounted (Hell on Wheels, Dismounted "
                        f"Crew Movement): he mounts it again, or works on its outside (shift).")


def end_facing(st, serial: int, cell: Cell, parents: dict[Cell, Cell]) -> str:
    """Where he faces after a move unless told otherwise: the way he went, from where he stood
    (or from the board edge he stepped over when entering)."""
    me = st.soldiers[serial]
    start = me.at
    if start is None:
        start = cell
        while start in parents:
            start = parents[start]
    return direction_to(start, cell) if start != cell else me.facing


def _may_end(st, serial: int, parents: dict[Cell, Cell]) -> Callable[[Cell], bool]:
    """Whether he may end a move on a reached cell: free, not where he stands, and not in contact
    with an enemy there (facing the way he went). The other men are placed once; each cell asked
    looks at itself and its eight neighbours."""
    me = st.soldiers[serial]
    here = me.at
    men_at: dict[Cell, list] = {}
    for o in st.soldiers.values():
        if o.serial != serial and o.on_board and o.at is not None:
            men_at.setdefault(o.at, []).append(o)
    get = men_at.get

    def may_end(c: Cell) -> bool:
        if c in men_at or c == here:
            return False
        x, y = c
        near = [o for dx, dy in NEIGHBOURS for o in get((x + dx, y + dy), ())]
        return not (near and _touching(me, near, c, end_facing(st, serial, c, parents)))
    return may_end


def _end_cells(st, serial: int, costs: dict[Cell, float], parents: dict[Cell, Cell],
               only: str | None = None) -> Iterator[tuple[Cell, float]]:
    """The reachable cells (in the tile `only`) where he may end a move (_may_end). In no set
    order: destination_cells ranks them by a key unique to each cell, and some_destination takes
    any."""
    may_end = _may_end(st, serial, parents)
    if only is None:
        cells = costs.items()
    else:  # the tile's own cells he reaches, not every cell he reaches (the same cells, in another order)
        get = costs.get
        cells = [(c, cost) for c in st.board.tile_cells(only) if (cost := get(c)) is not None]
    for c, cost in cells:
        if may_end(c):
            yield c, cost


def some_destination(st, serial: int, costs: dict[Cell, float], parents: dict[Cell, Cell]) -> str | None:
    """A tile he can move to (one of destination_cells' tiles, not necessarily the first), found
    at the first cell that will do: for asking whether he can move at all."""
    first = next(_end_cells(st, serial, costs, parents), None)
    return None if first is None else st.board.tile_at(first[0])


def destination_cells(st, serial: int, costs: dict[Cell, float], parents: dict[Cell, Cell],
                      only: str | None = None) -> dict[tuple[str, bool], Cell]:
    """For every tile he can reach (or only the tile `only`), the cell a tile destination means
    (R28): the free reachable cell nearest the tile's centre, and (key cover=True) the nearest
    reachable cell In Cover; cells where he would end in contact are left out."""
    board = st.board
    best: dict[tuple[str, bool], tuple] = {}
    tile_at, centre, in_cover = board.tile_at, board.tile_centre, board.in_cover
    for c, cost in _end_cells(st, serial, costs, parents, only):
        t = tile_at(c)
        x, y = c
        cx, cy = centre(t)
        dx, dy = x - cx, y - cy
        rank = (dx * dx + dy * dy, cost, y, x)
        key = (t, False)
        old = best.get(key)
        if old is None or rank < old[0]:
            best[key] = (rank, c)
        if in_cover(c):
            rank = (cost, y, x)
            key = (t, True)
            old = best.get(key)
            if old is None or rank < old[0]:
                best[key] = (rank, c)
    return {k: v[1] for k, v in best.items()}


def choose_cell(st, serial: int, dest: Dest, costs: dict[Cell, float], parents: dict[Cell, Cell]) -> Cell:
    """The cell a tile destination means (R28: destination_cells' cell for the tile), or a
    RuleError saying why there is none. Found without ranking every cell of the tile: the tile's
    cells are kept by their distance from its centre (Board.tile_rings), so the nearest ring
    holding a cell he may end on holds the answer; a cover cell is the cheapest reached cover
    cell he may end on (tests/engine/test_listing_shortcuts.py holds it to destination_cells)."""
    board = st.board
    tile = dest.tile
    if tile not in board.origin:
        raise RuleError(f"there is no tile {tile} on this map.")
    may_end = _may_end(st, serial, parents)
    get = costs.get
    cell = None
    if dest.cover:
        reached = sorted((cost, c[1], c[0]) for c in board.tile_cover_cells(tile) if (cost := get(c)) is not None)
        cell = next(((x, y) for _, y, x in reached if may_end((x, y))), None)
    else:
        for ring in board.tile_rings(tile):  # (cost, y, x) decides within a ring
            best = None
            for c in ring:
                cost = get(c)
                if cost is not None and (best is None or (cost, c[1], c[0]) < best[0]) and may_end(c):
                    best = ((cost, c[1], c[0]), c)
            if best is not None:
                cell = best[1]
                break
    if cell is None:
        what = "a free cover cell" if dest.cover else "a free cell"
        raise RuleError(f"{st.name(serial)} cannot reach {what} in {tile} this move "
                        f"(modified Walk {walk_allowance(st, serial):g}\").")
    return cell


def move(ctx: Ctx, serial: int, dest: Dest, facing: str | None = None, *, release: bool = False,
         take: int | None = None) -> Cell | None:
    """Walk to a destination. Returns the cell he ends on (None when he left the board)."""
    st = ctx.st
    _check_can_move(st, serial)
    s = st.changing(serial)
    name = st.name(serial)
    board = st.board
    allowance = walk_allowance(st, serial)
    costs, parents, area_of = reachable(st, serial, allowance)  # reachable's own budget, worked out once
    if dest.exit:
        return exit_board(ctx, serial, dest.area, costs, allowance)
    if dest.cell is not None:
        cell = tuple(dest.cell)
        if not board.on_board(cell):
            raise RuleError(f"{cell[0]},{cell[1]} is off the board (it is {board.width}\" x {board.height}\").")
        if cell not in costs or cell == s.at:
            full, _, _ = reachable(st, serial, budget=10_000)
            if cell == s.at:
                raise RuleError(f"{name} is already there; to turn, use face.")
            if cell not in full:
                raise RuleError(f"{name} cannot get to {cell[0]},{cell[1]}: NO MOVE terrain, terrain he cannot "
                                f"climb, or enemies are in the way.")
            raise RuleError(f"{cell[0]},{cell[1]} is {full[cell]:.1f}\" away for {name} by the shortest legal "
                            f"path; his modified Walk is {allowance:g}\".")
        _, occupied = _blocked(st, serial)
        if cell in occupied:
            raise RuleError(f"{cell[0]},{cell[1]} is taken by another soldier.")
    else:
        cell = choose_cell(st, serial, dest, costs, parents)
    start = s.at
    face = facing or end_facing(st, serial, cell, parents)
    hit = touches_enemy(st, serial, cell, face)
    if hit:
        raise RuleError(f"ending there would put {name} in combat contact with {st.name(hit[0])}: "
                        f"to move into contact, charge in a straight line (charge {serial} {hit[0]}).")
    prisoners = escorting(st, serial)
    if prisoners and not release and take is None:
        place_prisoners(st, serial, cell, face, prisoners, check_only=True)
    entering = s.status == "waiting"
    if entering:
        area = _area_for(cell, parents, area_of)
        if st.forces[s.force].entry_area is None and area in st.setup.scenario.entry_areas:
            st.changing_force(s.force).entry_area = area
        s.status = "board"
    walked = path_cells(parents, cell)  # the whole path, walked once for the mines and the trail
    if rulebook.mine_walk(ctx, serial, walked):  # mines (engine/battlefield/mines.py): stopped on the way
        return s.at if s.status == "board" else None
    s.at = cell
    s.facing = face
    s.step_down()
    path = _corners(walked)
    st.trail.append(_move_mark(serial, path if start is None else [start, *path[1:]]))
    verb = "enters the board and moves" if entering else "moves"
    where = "into cover at" if board.in_cover(cell) else "to"  # said, so a player knows he is In Cover
    ctx.say("move", f"{name} {verb} {where} {board.tile_at(cell)} ({cell[0]},{cell[1]}), {costs[cell]:.1f}\" of "
            f"{allowance:g}\", facing {face.upper()}.", serial=serial, to=list(cell), cost=round(costs[cell], 2))
    if release:
        for p in prisoners:
            _release(ctx, serial, p)
    elif prisoners:
        place_prisoners(st, serial, cell, face, prisoners)
    if take is not None:
        take_prisoner(ctx, serial, take)
    if st.vehicles:  # into an enemy vehicle's tile: both spotted at once (engine/battlefield/close_combat.py)
        rulebook.spot_on_contact(ctx, serial=serial)
    after_move(ctx, serial, start, cell)
    return cell


def path_cells(parents: dict, cell: Cell) -> list[Cell]:
    """The whole path to `cell` from a move's parents map, its start first."""
    out = [cell]
    while out[-1] in parents:
        out.append(parents[out[-1]])
    out.reverse()
    return out


def _corners(out: list[Cell]) -> list[Cell]:
    """The corners of a whole path: its ends and each cell where it turns."""
    if len(out) <= 2:
        return out
    keep = [out[0]]
    for a, b, c in zip(out, out[1:], out[2:]):
        if (b[0] - a[0], b[1] - a[1]) != (c[0] - b[0], c[1] - b[1]):
            keep.append(b)
    keep.append(out[-1])
    return keep


# a move's trail mark made as TrailMark's validator makes it, without the validator, where it could
# only take the values as they are: an exact int serial and a fresh list of (int, int) tuples (a
# walk's cells are); anything else goes through the model (tests/engine/test_move_mark38.py)
_MARK_GIVEN = frozenset(("kind", "serial", "path"))


def _move_mark(serial: int, path: list[Cell]) -> TrailMark:
    """TrailMark(kind="move", serial=serial, path=[*path])."""
    path = [*path]
    if type(serial) is not int or not all(type(c) is tuple and len(c) == 2 and type(c[0]) is int
                                          and type(c[1]) is int for c in path):
        return TrailMark(kind="move", serial=serial, path=path)
    return as_given(TrailMark, {"kind": "move", "serial": serial, "path": path, "target": None}, set(_MARK_GIVEN))


def place_prisoners(st, escort: int, cell: Cell, facing: str, prisoners: list[int], check_only: bool = False) -> None:
    """Prisoners go with their escort and stand in base contact with him, in his arc if there is room."""
    own = {st.soldiers[p].at for p in prisoners}
    occ = set(st.occupied()) - own - {st.soldiers[escort].at}
    spots = [c for c in _all_neighbours(st, cell) if c not in occ]
    spots.sort(key=lambda c: (not in_arc(facing, cell, c), c[1], c[0]))
    if len(spots) < len(prisoners):
        raise RuleError(f"there is no room beside {cell[0]},{cell[1]} for {st.name(escort)}'s prisoners.")
    if check_only:
        return
    for p, c in zip(prisoners, spots):
        q = st.changing(p)
        q.at = c
        q.facing = direction_to(c, cell)


def _all_neighbours(st, cell: Cell) -> list[Cell]:
    board = st.board
    return [(cell[0] + dx, cell[1] + dy) for dx, dy in NEIGHBOURS
            if board.on_board((cell[0] + dx, cell[1] + dy)) and not board.nomove((cell[0] + dx, cell[1] + dy))]


def _release(ctx: Ctx, escort: int, prisoner: int) -> None:
    """An escort walking away from a prisoner releases him (core manual, Prisoners): he goes back
    to his own side, may make an immediate move, and is unspotted and pinned."""
    st = ctx.st
    p = st.changing(prisoner)
    p.captor = None
    p.controller = p.force
    p.spotted = False
    ctx.say("release", f"{st.name(escort)} releases {st.name(prisoner)}.", serial=escort, prisoner=prisoner)
    st.pending_queue.append(ReleasePending(force=p.force, prisoner=prisoner))


def take_prisoner(ctx: Ctx, serial: int, prisoner: int) -> None:
    """Swap escorts: a friendly soldier in contact with the escort or the prisoner takes him over."""
    st = ctx.st
    me = st.soldiers[serial]
    p = st.soldiers.get(prisoner)
    if p is None or p.captor is None or p.status != "board":
        raise RuleError(f"{prisoner} is not a prisoner on the board.")
    old = st.soldiers[p.captor]
    if old.side != me.side or p.captor == serial:
        raise RuleError(f"{st.name(prisoner)} is not held by another of your soldiers.")
    if not (adjacent(me.at, p.at) or adjacent(me.at, old.at)):
        raise RuleError(f"{st.name(serial)} must be in base contact with {st.name(prisoner)} or his escort.")
    if len(escorting(st, serial)) >= 2:
        raise RuleError(f"{st.name(serial)} already escorts two prisoners.")
    p = st.changing(prisoner)
    p.captor = serial
    p.controller = me.controller
    place_prisoners(st, serial, me.at, me.facing, [prisoner])
    ctx.say("swap", f"{st.name(serial)} takes over {st.name(prisoner)} from {st.name(old.serial)}.",
            serial=serial, prisoner=prisoner)


def exit_board(ctx: Ctx, serial: int, area_name: str | None, costs: dict[Cell, float], allowance: float) -> None:
    """Leave the board through an exit area, or with prisoners through one of his side's entry areas."""
    st = ctx.st
    s = st.changing(serial)
    sc = st.setup.scenario
    board = st.board
    name = st.name(serial)
    if s.status != "board":
        raise RuleError(f"{name} is not on the board.")
    areas = dict(sc.exit_areas)
    prisoners = escorting(st, serial)
    if prisoners:
        areas.update({n: a for n, a in sc.entry_areas.items() if n in sc.side(s.side).entry})
    if area_name:
        if area_name not in areas:
            raise RuleError(f"{name} may leave only through " + (", ".join(sorted(areas)) or "no area") + ".")
        areas = {area_name: areas[area_name]}
    if not areas:
        raise RuleError("this scenario has no exit area for him.")
    best = None
    for n, a in areas.items():
        for c in board.edge_cells(a.tile, a.edge):
            if c in costs and costs[c] + 1 <= allowance + 1e-9:
                if best is None or costs[c] < best[0]:
                    best = (costs[c], n, c)
    if best is None:
        raise RuleError(f"{name} cannot reach the edge of " + " or ".join(a.tile for a in areas.values())
                        + f" and step off with his modified Walk of {allowance:g}\".")
    cost, n, c = best
    if rulebook.mine_walk_to(ctx, serial, c, off_board=True):  # mines (engine/battlefield/mines.py)
        return None
    st.trail.append(TrailMark(kind="move", serial=serial, path=[s.at, c]))
    s.status = "exited"
    s.spotted = False
    for p in prisoners:
        st.changing(p).status = "exited"
    ctx.say("exit", f"{name} leaves the board through area {n}"
            + (f" with his prisoner{'s' if len(prisoners) > 1 else ''} "
               + ", ".join(st.name(p) for p in prisoners) if prisoners else "") + ".",
            serial=serial, area=n)
    after_exit(ctx, serial, n)
    return None


def face(ctx: Ctx, serial: int, facing: str) -> None:
    st = ctx.st
    s = st.changing(serial)
    if not s.free:
        raise RuleError(f"{st.name(serial)} is not on the board.")
    if facing not in DIRS:
        raise RuleError(f"facing must be one of {', '.join(DIRS)}.")
    if rulebook.mine_turn(ctx, serial):  # mines (engine/battlefield/mines.py): turning moves within the tile
        return
    s.facing = facing
    ctx.say("face", f"{st.name(serial)} turns to face {facing.upper()}.", serial=serial, facing=facing)


def charge_cell(st, serial: int, target: int) -> tuple[Cell, float]:
    """The cell a straight-line move at the target ends on, and its length."""
    me, t = st.soldiers[serial], st.soldiers[target]
    board = st.board
    line = board.straight_path(me.at, t.at)
    if len(line) < 2:
        raise RuleError(f"{st.name(serial)} is already in base contact with {st.name(target)}; to face him, use face.")
    end = line[-2]
    block, occupied = _blocked(st, serial)
    climb = current(st, serial, "climb")
    prev = me.at
    for c in line[:-1]:
        if not board.passable(c, climb) or c in block:
            raise RuleError(f"the straight line from {st.name(serial)} to {st.name(target)} is blocked at "
                            f"{c[0]},{c[1]}.")
        if c[0] != prev[0] and c[1] != prev[1] and (
                not board.passable((c[0], prev[1]), climb) or not board.passable((prev[0], c[1]), climb)):
            raise RuleError(f"the straight line from {st.name(serial)} to {st.name(target)} cuts through "
                            f"NO MOVE terrain near {c[0]},{c[1]}.")
        prev = c
    if end in occupied:
        raise RuleError(f"{end[0]},{end[1]}, in front of {st.name(target)}, is taken.")
    return end, exact_inches(me.at, end)


def charge(ctx: Ctx, serial: int, target: int) -> None:
    """Move into combat contact: a straight line at the target (core manual, Combat Contact)."""
    st = ctx.st
    _check_can_move(st, serial)
    me = st.changing(serial)
    name = st.name(serial)
    if me.status != "board":
        raise RuleError(f"{name} must be on the board to charge.")
    t = st.soldiers.get(target)
    if t is None or not t.on_board or (t.side == me.side and t.captor is None):
        raise RuleError(f"{target} is not an enemy soldier (or a prisoner of your side) on the board.")
    if escorting(st, serial):
        raise RuleError(f"{name} is escorting prisoners and cannot charge.")
    end, length = charge_cell(st, serial, target)
    allowance = walk_allowance(st, serial)
    if length > allowance + 1e-9:
        raise RuleError(f"{st.name(target)} is {length:.1f}\" away in a straight line; {name}'s modified "
                        f"Walk is {allowance:g}\".")
    if rulebook.mine_walk(ctx, serial, [me.at, *st.board.straight_path(me.at, t.at)[:-1]]):  # mines (engine/battlefield/mines.py)
        return
    t = st.soldiers[target]  # the mines may have changed him too
    start = me.at
    me.at = end
    me.facing = direction_to(end, t.at)
    me.step_down()
    st.trail.append(TrailMark(kind="charge", serial=serial, path=[start, end], target=target))
    ctx.say("charge", f"{name} charges {st.name(target)} ({length:.1f}\") and is in combat contact.",
            serial=serial, target=target)
    me.spotted = True
    st.changing(target).spotted = True
    me.deeds["charges"] = me.deeds.get("charges", 0) + 1
    after_move(ctx, serial, start, end)


# --------------------------------------------------------------------------- what its commands do (engine/core/rulebook.py)


@rulebook.performs(C.MoveCmd)
def move_command(ctx: Ctx, cmd: C.MoveCmd, src, entry_do) -> None:
    """A walk; an escort moves his prisoners along once per action card."""
    st = ctx.st
    if escorting(st, cmd.serial):
        if cmd.serial in st.active.moved_escorts:
            raise RuleError(f"{st.name(cmd.serial)} is escorting prisoners: one move per action card.")
        st.active.moved_escorts.append(cmd.serial)
    move(ctx, cmd.serial, Dest(cell=cmd.cell, tile=cmd.tile, cover=cmd.cover, exit=cmd.exit, area=cmd.area),
         cmd.facing, release=cmd.release, take=cmd.take)


@rulebook.performs(C.Charge)
def charge_command(ctx: Ctx, cmd: C.Charge, src, entry_do) -> None:
    charge(ctx, cmd.serial, cmd.target)


@rulebook.performs(C.Face)
def face_command(ctx: Ctx, cmd: C.Face, src, entry_do) -> None:
    face(ctx, cmd.serial, cmd.facing)


@rulebook.answers(C.Stay)
def release_answer(ctx: Ctx, cmd, force: str) -> None:
    """A prisoner just released moves somewhere (not off the board) or stays; either way he is
    back with his own side."""
    st = ctx.st
    p = st.pending
    if isinstance(cmd, C.Stay):
        _released(ctx, p.prisoner, moved=False)
        return
    if isinstance(cmd, C.MoveCmd) and cmd.serial == p.prisoner and not cmd.exit:
        move(ctx, cmd.serial, Dest(cell=cmd.cell, tile=cmd.tile, cover=cmd.cover), cmd.facing)
        _released(ctx, p.prisoner, moved=True)
        return
    raise RuleError(f"move {st.name(p.prisoner)} ({p.prisoner}) somewhere, or stay.")


def _released(ctx: Ctx, prisoner: int, moved: bool) -> None:
    st = ctx.st
    s = st.changing(prisoner)
    s.pinned = True
    s.spotted = False
    st.pending = None
    ctx.say("released", f"{st.name(prisoner)} is back with his own side, unspotted and pinned"
            + ("" if moved else ", staying where he was") + ".", serial=prisoner)
