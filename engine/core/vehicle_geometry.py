"""Where vehicles and guns stand: whole tiles, facing one of a tile's four sides or four corners
(rulings 17-19). Tile neighbours by side and corner, the vehicle shooting arc, target aspect,
and the cells a vehicle covers inside its tile (soldiers there are displaced)."""
from __future__ import annotations

from engine.core.board import DIR_VEC, DIRS, Board, Cell, in_arc, inches
from engine.core.vehicle_content import Aspect

SIDES = ("n", "e", "s", "w")


def turn_steps(a: str, b: str) -> int:
    """Compass points between two facings (0-4)."""
    d = abs(DIRS.index(a) - DIRS.index(b)) % 8
    return min(d, 8 - d)


def rect(board: Board, tid: str) -> tuple[float, float, float, float]:
    """The tile's extent in inches: x0, y0, x1, y1 (x1, y1 exclusive edges)."""
    ox, oy = board.origin[tid]
    size = board.tiles[tid].size
    return ox, oy, ox + size, oy + size


def centre_point(board: Board, tid: str) -> tuple[float, float]:
    x0, y0, x1, y1 = rect(board, tid)
    return (x0 + x1) / 2, (y0 + y1) / 2


def neighbours(board: Board, tid: str, direction: str) -> list[str]:
    """Tiles beyond the tile's side or corner in this direction (two squares beyond a landmark's
    side, for instance); none off the board."""
    x0, y0, x1, y1 = rect(board, tid)
    dx, dy = DIR_VEC[direction]
    step = 5
    if dx and dy:
        points = [(x1 + 2 if dx > 0 else x0 - 3, y1 + 2 if dy > 0 else y0 - 3)]
    elif dx:
        x = x1 + 2 if dx > 0 else x0 - 3
        points = [(x, y) for y in range(int(y0) + 2, int(y1), step)]
    else:
        y = y1 + 2 if dy > 0 else y0 - 3
        points = [(x, y) for x in range(int(x0) + 2, int(x1), step)]
    out: list[str] = []
    for px, py in points:
        if board.on_board((int(px), int(py))):
            t = board.tile_at((int(px), int(py)))
            if t not in out:
                out.append(t)
    return out


def in_vehicle_arc(board: Board, tid: str, facing: str, point: tuple[float, float]) -> bool:
    """Ruling 18: facing a side, the point lies beyond that side between the 45 degree lines from
    its two ends; facing a corner, in the quarter beyond the two edges meeting there."""
    x0, y0, x1, y1 = rect(board, tid)
    px, py = point
    eps = 1e-9
    if facing == "n":
        return py < y0 - eps and x0 - (y0 - py) - eps <= px <= x1 + (y0 - py) + eps
    if facing == "s":
        return py > y1 + eps and x0 - (py - y1) - eps <= px <= x1 + (py - y1) + eps
    if facing == "w":
        return px < x0 - eps and y0 - (x0 - px) - eps <= py <= y1 + (x0 - px) + eps
    if facing == "e":
        return px > x1 + eps and y0 - (px - x1) - eps <= py <= y1 + (px - x1) + eps
    dx, dy = DIR_VEC[facing]
    cx = x1 if dx > 0 else x0
    cy = y1 if dy > 0 else y0
    return (px - cx) * dx >= -eps and (py - cy) * dy >= -eps and (px, py) != (cx, cy)


def strictly_in_arc(board: Board, tid: str, facing: str, point: tuple[float, float]) -> bool:
    """In the arc and not on its boundary lines (ruling 19: a line through a corner is Side)."""
    x0, y0, x1, y1 = rect(board, tid)
    px, py = point
    if facing in SIDES:
        d = {"n": y0 - py, "s": py - y1, "w": x0 - px, "e": px - x1}[facing]
        lo, hi = ((x0, x1) if facing in ("n", "s") else (y0, y1))
        along = px if facing in ("n", "s") else py
        return d > 0 and lo - d < along < hi + d
    dx, dy = DIR_VEC[facing]
    cx = x1 if dx > 0 else x0
    cy = y1 if dy > 0 else y0
    return (px - cx) * dx > 0 and (py - cy) * dy > 0


def tile_in_arc(board: Board, tid: str, facing: str, target: str) -> bool:
    """A tile is in a vehicle's arc when its centre is; a landmark partly in the arc is wholly in.
    Kept per board."""
    if target == tid:
        return False
    key = ("tile_in_arc", tid, facing, target)
    got = board._shapes.get(key)
    if got is None:
        if not board.tiles[target].landmark:
            got = in_vehicle_arc(board, tid, facing, centre_point(board, target))
        else:
            x0, y0, x1, y1 = rect(board, target)
            samples = [(x0 + 0.5 + i, y0 + 0.5 + j) for i in range(int(x1 - x0)) for j in range(int(y1 - y0))]
            got = any(in_vehicle_arc(board, tid, facing, p) for p in samples)
        _keep(board, key, got)
    return got


def cell_in_arc(board: Board, tid: str, facing: str, cell: Cell) -> bool:
    return in_vehicle_arc(board, tid, facing, (cell[0] + 0.5, cell[1] + 0.5))


def through_corner(board: Board, tid: str, point: tuple[float, float]) -> bool:
    """Does the line from a point to the tile's centre pass exactly through a corner of the tile?"""
    x0, y0, x1, y1 = rect(board, tid)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    px, py = point
    for kx, ky in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)):
        cross = (kx - cx) * (py - cy) - (ky - cy) * (px - cx)
        if abs(cross) < 1e-9 and (kx - cx) * (px - cx) + (ky - cy) * (py - cy) > 0:
            return True
    return False


def aspect(board: Board, target_tile: str, target_facing: str, shooter_point: tuple[float, float]) -> Aspect:
    """Ruling 19: Front when the shooter lies in the target's arc, Rear when in the arc of its
    opposite facing, otherwise Side; a line exactly through a corner of the target's tile, and
    the arc's boundary lines, count as Side."""
    if through_corner(board, target_tile, shooter_point):
        return Aspect.SIDE
    if strictly_in_arc(board, target_tile, target_facing, shooter_point):
        return Aspect.FRONT
    back = DIRS[(DIRS.index(target_facing) + 4) % 8]
    if strictly_in_arc(board, target_tile, back, shooter_point):
        return Aspect.REAR
    return Aspect.SIDE


def footprint(board: Board, tid: str) -> frozenset[Cell]:
    """The cells a vehicle covers: the middle 3x3 of a square, the middle 4x4 of a landmark.
    Soldiers may stand on the ring around it, in base contact with the vehicle. The map never
    changes: kept per board (asked for every shooter and target pair)."""
    key = ("footprint", tid)
    got = board._shapes.get(key)
    if got is None:
        ox, oy = board.origin[tid]
        size = board.tiles[tid].size
        k = 3 if size == 5 else 4
        start = (size - k) // 2
        got = _keep(board, key, frozenset((ox + start + i, oy + start + j) for i in range(k) for j in range(k)))
    return got


def _keep(board: Board, key: tuple, answer):
    """Remember an answer that depends on the map alone (never on the game) on its board."""
    if len(board._shapes) > 200_000:
        board._shapes.clear()
    board._shapes[key] = answer
    return answer


def nearest_inches(board: Board, a_tile: str | None, a: Cell, b_tile: str | None, b: Cell) -> int:
    """Whole inches between the nearest cells of two things: a vehicle's footprint when its tile
    is given, else the cell. Kept per board."""
    key = ("nearest", a_tile, a if a_tile is None else None, b_tile, b if b_tile is None else None)
    got = board._shapes.get(key)
    if got is None:
        aa = sorted(footprint(board, a_tile)) if a_tile else [a]
        bb = sorted(footprint(board, b_tile)) if b_tile else [b]
        got = _keep(board, key, min(inches(x, y) for x in aa for y in bb))
    return got


def arc_takes_in(board: Board, facing: str, origin: Cell, tid: str) -> bool:
    """Whether a man's shooting arc from origin takes in any cell of a vehicle's footprint in
    this tile. Kept per board."""
    key = ("arc", facing, origin, tid)
    got = board._shapes.get(key)
    if got is None:
        got = _keep(board, key, any(in_arc(facing, origin, p) for p in footprint(board, tid)))
    return got


def centre_cell(board: Board, tid: str) -> Cell:
    return board.tile_centre(tid)


def road_sides(board: Board, tid: str) -> set[str]:
    """The tile sides a road crosses (a road cell on the tile's edge)."""
    ox, oy = board.origin[tid]
    size = board.tiles[tid].size
    out = set()
    for i in range(size):
        if board.road((ox + i, oy)):
            out.add("n")
        if board.road((ox + i, oy + size - 1)):
            out.add("s")
        if board.road((ox, oy + i)):
            out.add("w")
        if board.road((ox + size - 1, oy + i)):
            out.add("e")
    return out


def road_link(board: Board, a: str, b: str, direction: str) -> bool:
    """A road runs from tile a into tile b across a's side in this direction."""
    if direction not in SIDES:
        return False
    opposite = {"n": "s", "s": "n", "e": "w", "w": "e"}[direction]
    return direction in road_sides(board, a) and opposite in road_sides(board, b)


# --------------------------------------------------------------------------- where vehicles are


def on_board(st, tile: str | None = None) -> list[int]:
    return sorted(p for p, v in st.vehicles.items() if v.status == "board" and (tile is None or v.tile == tile))


def others_in(st, plate: int, tile: str) -> list[int]:
    return [p for p in on_board(st, tile) if p != plate]


def enemy_vehicle_with(st, plate: int) -> bool:
    """An enemy vehicle in the same tile: only MOVE and SHOOT, and no main gun (Same Square)."""
    v = st.vehicles[plate]
    tile, side = v.tile, v.side
    if not tile:
        return False
    # others_in read in one plain loop: asked for every vehicle sub-action of every man aboard
    # (another side's vehicle is never this one)
    for o in st.vehicles.values():
        if o.tile == tile and o.side != side and o.status == "board":
            return True
    return False
