"""The battlefield as numbers: 5" map squares and 10" landmarks on an inch grid.

A soldier stands on an integer inch cell (x east, y south, 0 at the north-west corner of
the board). Distance in squares counts the tiles a straight line from centre to centre
passes through (core manual, Measuring Distance); inches are the straight-line distance
rounded to a whole inch. Everything here is static per map and cached per map.
"""
from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field

from engine.core.content import Action, TileDef, layout_slots

Cell = tuple[int, int]

SQUARE = 5  # inches per map square; a landmark is 2x2 squares

# Eight facings, clockwise from north; y grows southward.
DIRS = ("n", "ne", "e", "se", "s", "sw", "w", "nw")
DIR_VEC = {"n": (0, -1), "ne": (1, -1), "e": (1, 0), "se": (1, 1),
           "s": (0, 1), "sw": (-1, 1), "w": (-1, 0), "nw": (-1, -1)}
NEIGHBOURS = tuple(DIR_VEC.values())
SQRT2 = math.sqrt(2)


def inches(a: Cell, b: Cell) -> int:
    """Straight-line distance in whole inches, centre to centre, halves rounded up."""
    return math.floor(math.hypot(a[0] - b[0], a[1] - b[1]) + 0.5)


def exact_inches(a: Cell, b: Cell) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def direction_to(a: Cell, b: Cell) -> str:
    """The facing (of eight) that points most nearly from a to b."""
    if a == b:
        return "n"
    ang = math.degrees(math.atan2(b[0] - a[0], -(b[1] - a[1]))) % 360  # 0 = north, clockwise
    return DIRS[int((ang + 22.5) // 45) % 8]


def in_arc(facing: str, origin: Cell, target: Cell) -> bool:
    """The 90 degree shooting arc around the facing, edges included (ARCHITECTURE, Geometry)."""
    if origin == target:
        return False
    fx, fy = DIR_VEC[facing]
    dx, dy = target[0] - origin[0], target[1] - origin[1]
    # angle between facing and target <= 45 degrees  <=>  cos >= 1/sqrt2
    dot = fx * dx + fy * dy
    if dot <= 0:
        return False
    return dot * dot * 2 >= (dx * dx + dy * dy) * (fx * fx + fy * fy) - 1e-9


def in_rear(facing: str, origin: Cell, target: Cell) -> bool:
    """The opposite 90 degree wedge: a soldier standing there strikes origin in the rear."""
    back = DIRS[(DIRS.index(facing) + 4) % 8]
    return in_arc(back, origin, target)


def adjacent(a: Cell, b: Cell) -> bool:
    return a != b and abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


@dataclass(frozen=True)
class LineTile:
    """One tile crossed by a line, with its modifier for the action and the area modifiers crossed."""

    tile: str
    mod: int


@dataclass
class Board:
    rows: list[list[str]]
    tiles: dict[str, TileDef]
    width: int = 0
    height: int = 0
    origin: dict[str, Cell] = field(default_factory=dict)
    _cell_tile: list[str] = field(default_factory=list)
    _nomove: bytearray = field(default_factory=bytearray)
    _cover: bytearray = field(default_factory=bytearray)
    _road: bytearray = field(default_factory=bytearray)
    _building: bytearray = field(default_factory=bytearray)
    _level: bytearray = field(default_factory=bytearray)
    _move_area: list[int] = field(default_factory=list)
    _in_cover: bytearray = field(default_factory=bytearray)
    _paths_cache: dict = field(default_factory=dict)
    _blocked_paths: dict = field(default_factory=dict)
    _walkable_by_climb: dict = field(default_factory=dict)
    _cells: list = field(default_factory=list)
    _nbrs: list = field(default_factory=list)
    _centres: dict = field(default_factory=dict)
    _tile_cells: dict = field(default_factory=dict)
    _area_rects: dict[str, list[tuple[float, float, float, float, dict]]] = field(default_factory=dict)
    _line_cache: dict = field(default_factory=dict)
    _landmarks: tuple[str, ...] | None = None
    _shapes: dict[tuple, object] = field(default_factory=dict)  # engine/core/vehicle_geometry's answers

    def __post_init__(self) -> None:
        self.width = len(self.rows[0]) * SQUARE
        self.height = len(self.rows) * SQUARE
        slots = layout_slots(self.rows)
        for tid, cells in slots.items():
            c0 = min(c for c, _ in cells)
            r0 = min(r for _, r in cells)
            self.origin[tid] = (c0 * SQUARE, r0 * SQUARE)
        n = self.width * self.height
        self._cell_tile = [""] * n
        self._nomove = bytearray(n)
        self._cover = bytearray(n)
        self._road = bytearray(n)
        self._building = bytearray(n)
        self._level = bytearray([1]) * n
        self._move_area = [0] * n
        for y in range(self.height):
            for x in range(self.width):
                self._cell_tile[y * self.width + x] = self.rows[y // SQUARE][x // SQUARE]
        for tid, (ox, oy) in self.origin.items():
            t = self.tiles[tid]
            for f in t.features:
                for r in f.rects:
                    for cx, cy in r.cells():
                        i = (oy + cy) * self.width + ox + cx
                        if f.kind == "nomove" or f.kind == "water":
                            self._nomove[i] = 1
                        elif f.kind in ("cover", "building"):
                            self._cover[i] = 1
                            if f.kind == "building":
                                self._building[i] = 1
                        elif f.kind == "road":
                            self._road[i] = 1
                        if f.level > 1:
                            self._level[i] = f.level
            rects = []
            for a in t.areas:
                for r in a.rects:
                    rects.append((ox + r.x0, oy + r.y0, ox + r.x1 + 1, oy + r.y1 + 1,
                                  a.mods.model_dump()))
                    if a.mods.move:
                        for cx, cy in r.cells():
                            self._move_area[(oy + cy) * self.width + ox + cx] = a.mods.move
            self._area_rects[tid] = rects
        self._in_cover = bytearray(n)
        for y in range(self.height):
            for x in range(self.width):
                i = y * self.width + x
                if self._cover[i] or any(
                        0 <= x + dx < self.width and 0 <= y + dy < self.height
                        and self._nomove[(y + dy) * self.width + x + dx] for dx, dy in NEIGHBOURS):
                    self._in_cover[i] = 1

    def __deepcopy__(self, memo: dict) -> Board:
        """The map never changes and its memory holds answers of the map alone: a deep copy of
        something holding a Board (a setup remembers its own) shares it."""
        return self

    # ----------------------------------------------------------------- cells and tiles

    def on_board(self, c: Cell) -> bool:
        return 0 <= c[0] < self.width and 0 <= c[1] < self.height

    def tile_at(self, c: Cell) -> str:
        return self._cell_tile[c[1] * self.width + c[0]]

    def tile(self, tid: str) -> TileDef:
        return self.tiles[tid]

    def tile_cells(self, tid: str) -> tuple[Cell, ...]:
        """The tile's cells, row by row (kept: the map alone answers)."""
        got = self._tile_cells.get(tid)
        if got is None:
            ox, oy = self.origin[tid]
            size = self.tiles[tid].size
            got = self._tile_cells[tid] = tuple((ox + x, oy + y) for y in range(size) for x in range(size))
        return got

    def tile_rings(self, tid: str) -> tuple[tuple[Cell, ...], ...]:
        """The tile's cells grouped by their squared distance from its centre, nearest group
        first (a tile destination's rank, engine/infantry/move.py choose_cell; kept)."""
        key = ("rings", tid)
        got = self._tile_cells.get(key)
        if got is None:
            cx, cy = self.tile_centre(tid)
            by: dict[int, list[Cell]] = {}
            for c in self.tile_cells(tid):
                by.setdefault((c[0] - cx) ** 2 + (c[1] - cy) ** 2, []).append(c)
            got = self._tile_cells[key] = tuple(tuple(by[d]) for d in sorted(by))
        return got

    def tile_cover_cells(self, tid: str) -> tuple[Cell, ...]:
        """The tile's cells In Cover (kept)."""
        key = ("cover", tid)
        got = self._tile_cells.get(key)
        if got is None:
            got = self._tile_cells[key] = tuple(c for c in self.tile_cells(tid) if self.in_cover(c))
        return got

    def tile_centre(self, tid: str) -> Cell:
        c = self._centres.get(tid)
        if c is None:
            ox, oy = self.origin[tid]
            half = self.tiles[tid].size // 2
            c = self._centres[tid] = (ox + half, oy + half)
        return c

    def nomove(self, c: Cell) -> bool:
        return bool(self._nomove[c[1] * self.width + c[0]])

    def road(self, c: Cell) -> bool:
        return bool(self._road[c[1] * self.width + c[0]])

    def building(self, c: Cell) -> bool:
        """A building: soldiers go in, vehicles never (Hell on Wheels, Same Square)."""
        return bool(self._building[c[1] * self.width + c[0]])

    def level(self, c: Cell) -> int:
        return self._level[c[1] * self.width + c[0]]

    def in_cover(self, c: Cell) -> bool:
        """In Cover (core manual, In Cover): on a cover feature, or leaning on NO MOVE terrain."""
        return bool(self._in_cover[c[1] * self.width + c[0]])

    def landmarks(self) -> tuple[str, ...]:
        """The landmark tiles in map order (looked at every phase end: kept)."""
        if self._landmarks is None:
            self._landmarks = tuple(tid for tid in self.origin if self.tiles[tid].landmark)
        return self._landmarks

    def piece_tile(self, piece: str) -> str | None:
        """The tile id on the map for a landmark piece such as 'L1'."""
        for tid in self.origin:
            if self.tiles[tid].piece == piece:
                return tid
        return None

    # ----------------------------------------------------------------- lines

    def line(self, a: Cell, b: Cell, action: Action, *, include_own: bool = False,
             smoke: dict[str, int] | None = None) -> list[LineTile]:
        """The tiles a straight line from a's centre to b's centre crosses, in order.

        The start tile is left out unless include_own (HIDE counts the hider's own tile). A line
        exactly through a tile corner takes the touched tile with the smallest modifier for the
        action (core manual, Measuring Distance; docs/rulings.md). Each tile's entry holds its
        modifier for the action plus any area modifiers the line crosses inside it; smoke
        multiplies the LOOK/SHOOT/HIDE modifiers from the smoky tile on toward the target.
        """
        key = (a, b, action, include_own)
        cached = self._line_cache.get(key)
        if cached is None:
            cached = self._line_uncached(a, b, action, include_own)
            if len(self._line_cache) > 200_000:
                self._line_cache.clear()
            self._line_cache[key] = cached
        if not smoke:
            return cached
        mult = smoke.get(self.tile_at(a), 1) if action is not Action.MOVE else 1
        for k, lt in enumerate(cached):
            mult = max(mult, smoke.get(lt.tile, 1))
            if mult != 1:  # smoke from here on: a new list, the tiles before it as they were
                out = cached[:k]
                for rest in cached[k:]:
                    mult = max(mult, smoke.get(rest.tile, 1))
                    out.append(LineTile(rest.tile, rest.mod * mult))
                return out
        return cached

    def _line_uncached(self, a: Cell, b: Cell, action: Action, include_own: bool) -> list[LineTile]:
        tiles = self._tiles_crossed(a, b, action)
        start = self.tile_at(a)
        if include_own:
            tiles = [start, *tiles]
        seg = ((a[0] + 0.5, a[1] + 0.5), (b[0] + 0.5, b[1] + 0.5))
        out = []
        for tid in tiles:
            mod = self.tiles[tid].mods.of(action)
            for x0, y0, x1, y1, mods in self._area_rects.get(tid, ()):
                am = mods.get(action.value)
                if am and _segment_hits_rect(seg, (x0, y0, x1, y1)):
                    mod += am
            out.append(LineTile(tid, mod))
        return out

    def _tiles_crossed(self, a: Cell, b: Cell, action: Action) -> list[str]:
        # Doubled coordinates: cell centres are odd numbers, tile boundaries multiples of 10,
        # so every comparison below is exact integer arithmetic.
        X0, Y0 = 2 * a[0] + 1, 2 * a[1] + 1
        X1, Y1 = 2 * b[0] + 1, 2 * b[1] + 1
        B = 2 * SQUARE
        i, j = X0 // B, Y0 // B
        i1, j1 = X1 // B, Y1 // B
        dx, dy = X1 - X0, Y1 - Y0
        sx = (dx > 0) - (dx < 0)
        sy = (dy > 0) - (dy < 0)
        # distance (numerator) to the next boundary along each axis, and the denominators
        nx = ((i + 1) * B - X0) if sx > 0 else (X0 - i * B)
        ny = ((j + 1) * B - Y0) if sy > 0 else (Y0 - j * B)
        adx, ady = abs(dx), abs(dy)
        seq: list[str] = []
        current = self.rows[j][i]

        def push(tid: str) -> None:
            nonlocal current
            if tid != current and (not seq or seq[-1] != tid):
                seq.append(tid)
            current = tid

        while (i, j) != (i1, j1):
            if sx == 0:
                step = "y"
            elif sy == 0:
                step = "x"
            else:
                lhs, rhs = nx * ady, ny * adx  # compare nx/adx with ny/ady
                step = "x" if lhs < rhs else "y" if rhs < lhs else "xy"
            if step == "x":
                i += sx
                nx += B
            elif step == "y":
                j += sy
                ny += B
            else:
                # exactly through a corner: of the two tiles touched there, the one with the
                # smallest modifier for this action counts, unless the line is already inside
                # one of them (a landmark spanning the corner)
                c1, c2 = self.rows[j][i + sx], self.rows[j + sy][i]
                nxt = self.rows[j + sy][i + sx]
                if current not in (c1, c2) and nxt not in (c1, c2):
                    pick = min((c1, c2), key=lambda t: (abs(self.tiles[t].mods.of(action)), t))
                    push(pick)
                i += sx
                j += sy
                nx += B
                ny += B
            push(self.rows[j][i])
        return seq

    def squares(self, a: Cell, b: Cell, action: Action = Action.LOOK) -> int:
        """Distance in squares: tiles crossed, not counting the start tile, landmarks as 2."""
        key = ("squares", a, b, action)
        got = self._line_cache.get(key)
        if got is None:
            got = self._line_cache[key] = sum(2 if self.tiles[lt.tile].landmark else 1
                                              for lt in self.line(a, b, action))
        return got

    def mod_sum(self, a: Cell, b: Cell, action: Action, *, include_own: bool = False,
                smoke: dict[str, int] | None = None, ignore: int = 0, smoke_toward_a: bool = False) -> int:
        """The modifiers for an action on the line from a to b (see line()).

        Smoke (Markers and Equipment, Smoke) doubles or triples the modifier of its square and of
        every square after it on the way to the target. The target is b, unless smoke_toward_a
        (Take Cover: the hider at a is the one the enemy at b looks for), when smoke multiplies
        from its square back to a. Optics come after smoke: `ignore` is the largest hindering
        modifier a square may have and still count nothing (engine/infantry/optics.py). Without
        smoke the sum depends on the map alone: kept."""
        if not smoke:
            key = ("mod_sum", a, b, action, include_own, ignore)
            got = self._line_cache.get(key)
            if got is None:
                got = self._line_cache[key] = self._mod_total(
                    [lt.mod for lt in self.line(a, b, action, include_own=include_own)], ignore)
            return got
        if smoke_toward_a and action is not Action.MOVE:
            tiles = self.line(a, b, action, include_own=include_own)
            mods, mult = [], smoke.get(self.tile_at(b), 1)
            for lt in reversed(tiles):
                mult = max(mult, smoke.get(lt.tile, 1))
                mods.append(lt.mod * mult)
        else:
            mods = [lt.mod for lt in self.line(a, b, action, include_own=include_own, smoke=smoke)]
        return self._mod_total(mods, ignore)

    @staticmethod
    def _mod_total(mods: list[int], ignore: int) -> int:
        """The modifiers summed, those from -1 to -ignore counted as nothing (Optics)."""
        return sum(m for m in mods if not 0 < -m <= ignore)

    # ----------------------------------------------------------------- movement

    def move_mod(self, c: Cell) -> int:
        """MOVE modifier of the tile a move starts in (core manual, Walk)."""
        return self.tiles[self.tile_at(c)].mods.move or 0

    def passable(self, c: Cell, climb: int) -> bool:
        return self.on_board(c) and not self.nomove(c) and self.level(c) <= climb

    def paths(self, starts: dict[Cell, float], budget: float, climb: int,
              blocked: set[Cell]) -> tuple[dict[Cell, float], dict[Cell, Cell]]:
        """Cheapest walking cost (inches) to every cell within budget, and each cell's predecessor.

        Steps go to the eight neighbours (diagonals cost sqrt 2, and may not cut the corner of
        NO MOVE terrain or of terrain too high to climb). Entering a MOVE area modifier's cell
        from outside it pays the area's modifier in inches. Cells in `blocked` cannot be entered.

        Kept per map (the same question is asked several times a command, and by every game of
        the map): the search over the map alone, without `blocked`, keyed by the starts, budget
        and Climb. A blocked cell can only change the answer if the map-alone search reaches it
        (blocking takes steps away, so it never makes a cell cheaper: a cell the map-alone search
        does not reach within the budget is reached by no blocked search either), so with no
        blocked cell among its cells the map-alone answer is the answer; otherwise the search is
        made again with the blocked cells it reaches, and kept under those
        (tests/engine/test_board_memory.py holds both to the search with every blocked cell)."""
        key = (tuple(sorted(starts.items())), budget, climb)
        cache = self._paths_cache
        free = cache.get(key)
        if free is None:
            free = self._search(starts, budget, climb, ())
            if len(cache) > 512:
                cache.clear()
            cache[key] = free
        reached = free[0]
        hit = [c for c in blocked if c in reached]
        if not hit:
            return free
        bkey = (key, frozenset(hit))
        kept = self._blocked_paths  # apart, so that these never push the map-alone answers out
        got = kept.get(bkey)
        if got is None:
            got = self._search(starts, budget, climb, hit)
            if len(kept) > 512:
                kept.clear()
            kept[bkey] = got
        return got

    def _search(self, starts: dict[Cell, float], budget: float, climb: int,
                blocked) -> tuple[dict[Cell, float], dict[Cell, Cell]]:
        """paths() worked out afresh (Dijkstra over the cell grid)."""
        W = self.width
        terrain = self._walkable(climb)
        ok = bytearray(terrain)  # terrain he can stand on, less the cells others block
        for (bx, by) in blocked:
            if 0 <= bx < W and 0 <= by < self.height:
                ok[by * W + bx] = 0
        area, nbrs = self._move_area, self._neighbours()
        best: dict[int, float] = {}
        parent: dict[int, int] = {}
        heap = []
        for (x, y), c0 in starts.items():
            i = y * W + x
            best[i] = c0
            heap.append((c0, i))
        heapq.heapify(heap)
        limit = budget + 1e-9
        while heap:
            cost, i = heapq.heappop(heap)
            if cost > best[i]:
                continue
            here_area = area[i]
            for n, diagonal, side_a, side_b in nbrs[i]:
                if not ok[n]:
                    continue
                if diagonal:
                    if not (terrain[side_a] and terrain[side_b]):  # no cutting corners
                        continue
                    step = SQRT2
                else:
                    step = 1.0
                a = area[n]
                if a and a != here_area:
                    step += abs(a)
                nc = cost + step
                if nc <= limit and nc < best.get(n, math.inf) - 1e-12:
                    best[n] = nc
                    parent[n] = i
                    heapq.heappush(heap, (nc, n))
        cells = self._cell_list()
        costs = {cells[i]: c for i, c in best.items()}
        parents = {cells[i]: cells[p] for i, p in parent.items()}
        return costs, parents

    def _walkable(self, climb: int) -> bytearray:
        """1 for every cell a soldier with this Climb may stand on (not NO MOVE, not too high)."""
        got = self._walkable_by_climb.get(climb)
        if got is None:
            got = self._walkable_by_climb[climb] = bytearray(
                1 if not self._nomove[i] and self._level[i] <= climb else 0 for i in range(self.width * self.height))
        return got

    def _cell_list(self) -> list[Cell]:
        if not self._cells:
            self._cells = [(i % self.width, i // self.width) for i in range(self.width * self.height)]
        return self._cells

    def _neighbours(self) -> list[list[tuple[int, bool, int, int]]]:
        """For each cell index: (neighbour, diagonal?, the two side cells a diagonal passes)."""
        if not self._nbrs:
            W, H = self.width, self.height
            for i in range(W * H):
                x, y = i % W, i // W
                row = []
                for dx, dy in NEIGHBOURS:
                    nx, ny = x + dx, y + dy
                    if 0 <= nx < W and 0 <= ny < H:
                        row.append((ny * W + nx, bool(dx and dy), y * W + nx, ny * W + x))
                self._nbrs.append(row)
        return self._nbrs

    def straight_path(self, a: Cell, b: Cell) -> list[Cell]:
        """The cells a straight line from a to b steps through (a excluded, b included)."""
        n = max(abs(b[0] - a[0]), abs(b[1] - a[1]))
        out = []
        for k in range(1, n + 1):
            t = k / n
            out.append((round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t)))
        return out

    def edge_cells(self, tid: str, edge: str) -> tuple[Cell, ...]:
        """The tile's cells on the board edge `edge` (none if the tile is not on it; kept)."""
        key = ("edge", tid, edge)
        got = self._tile_cells.get(key)
        if got is None:
            cells = self.tile_cells(tid)
            if edge == "w":
                got = tuple(c for c in cells if c[0] == 0)
            elif edge == "e":
                got = tuple(c for c in cells if c[0] == self.width - 1)
            elif edge == "n":
                got = tuple(c for c in cells if c[1] == 0)
            else:
                got = tuple(c for c in cells if c[1] == self.height - 1)
            self._tile_cells[key] = got
        return got


def _segment_hits_rect(seg, rect) -> bool:
    (x0, y0), (x1, y1) = seg
    rx0, ry0, rx1, ry1 = rect
    t0, t1 = 0.0, 1.0
    for p, q in ((-(x1 - x0), x0 - rx0), (x1 - x0, rx1 - x0), (-(y1 - y0), y0 - ry0), (y1 - y0, ry1 - y0)):
        if p == 0:
            if q < 0:
                return False
            continue
        r = q / p
        if p < 0:
            t0 = max(t0, r)
        else:
            t1 = min(t1, r)
        if t0 > t1:
            return False
    return True


_BOARDS: dict[str, Board] = {}


def board_for(key: str, rows: list[list[str]], tiles: dict[str, TileDef]) -> Board:
    """The Board for a map layout, built once per process and keyed by a digest of the map and
    its tiles (static data, never game state, so a cache can never go stale)."""
    b = _BOARDS.get(key)
    if b is None:
        if len(_BOARDS) > 256:
            _BOARDS.clear()
        b = _BOARDS[key] = Board(rows=[list(r) for r in rows], tiles=dict(tiles))
    return b
