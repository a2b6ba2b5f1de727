"""Roadblocks and barricades (Hell on Wheels, Roadblocks and Barricades; Vehicles as Roadblocks).

A roadblock is an overlay on the road of one tile, set by the scenario (`ScenarioDef.roadblocks`,
`RoadblockDef`): a set of cells of that tile (by default the tile's road cells). On our grid:

- a soldier is on the overlay when his cell is one of its cells; a vehicle (which stands on its
  tile's middle, docs/vehicles.md V1) when the overlay reaches into that middle — then the whole
  middle counts as on the overlay;
- LOOK and SHOOT at a target on the overlay read the roadblock's modifiers instead of the ones
  printed on the tile (`target_delta`, hooked into engine/infantry/look.py, engine/infantry/shoot.py and the
  vehicle versions); everyone else in the tile keeps the tile's;
- a vehicle may only stand on the overlay if it is fully tracked, and gets there only by an Open
  move; a Road move never enters a roadblock's tile and never starts on an overlay
  (`open_entry_problem`, `road_entry_problem`, `road_start_problem`, hooked into
  engine/vehicles/move.py); leaving the overlay costs the roadblock's 'T' MOVE modifier (paid and
  bog-checked like a tile's, `move_mod`);
- one soldier holds the fighting position (a cell of the overlay): shots at him lose 2 hits
  (`protect`);
- a destroyed, abandoned or immobilised vehicle whose middle covers a road is a roadblock too
  (no LOOK or SHOOT modifiers of its own, the same movement rules).

Rulings: docs/battlefield.md, "Roadblocks, smoke, incendiaries and optional rules".
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.core import rulebook
from engine.core.content import Action
from engine.core.log import Ctx
from engine.core.vehicle_geometry import footprint
from engine.vehicles.damage import immobilised

Cell = tuple[int, int]

WRECK_T_MOVE = -2  # a wreck on the road: the 'T' MOVE modifier to climb off it
FIGHTING_POSITION_HITS = 2  # the fighting position's protection: -2 hits


@dataclass(frozen=True)
class Block:
    """A roadblock in play: a scenario's overlay, or a wreck on the road (`wreck`: its plate)."""

    tile: str
    kind: str
    name: str
    cells: frozenset[Cell]  # board cells of the overlay
    look: int | None  # None: the tile's own modifier stays (a wreck)
    shoot: int | None
    move: int
    post: Cell | None  # the fighting position (board cell)
    middle: bool  # the overlay reaches the middle where a vehicle stands
    wreck: int | None = None


def fully_tracked(vdef) -> bool:
    """Tracks all the way: a half-track is not (its panel says so)."""
    return bool(vdef.tracked) and vdef.kind != "halftrack"


def _footprint(board, tid: str) -> set[Cell]:
    return footprint(board, tid)


def _scenario_block(board, rb) -> Block | None:
    if rb.tile not in board.origin:
        return None
    ox, oy = board.origin[rb.tile]
    if rb.cells is not None:
        cells = frozenset((ox + x, oy + y) for x, y in rb.cells)
    else:
        cells = frozenset(c for c in board.tile_cells(rb.tile) if board.road(c))
    middle = _footprint(board, rb.tile)
    if rb.post is not None:
        post = (ox + rb.post[0], oy + rb.post[1])
    else:
        cx, cy = board.tile_centre(rb.tile)
        free = sorted((c for c in cells if c not in middle and not board.nomove(c)),
                      key=lambda c: (abs(c[0] - cx) + abs(c[1] - cy), c[1], c[0]))
        post = free[0] if free else None
    return Block(tile=rb.tile, kind=rb.kind, name=rb.name or rb.kind, cells=cells, look=rb.look, shoot=rb.shoot,
                 move=rb.move, post=post, middle=bool(cells & middle))


def _wreck_block(st, plate: int) -> Block | None:
    v = st.vehicles[plate]
    if not v.tile or v.status not in ("destroyed", "abandoned", "board"):
        return None
    if v.status == "board" and not immobilised(st, plate):
        return None
    board = st.board
    middle = _footprint(board, v.tile)
    if not any(board.road(c) for c in middle):
        return None
    return Block(tile=v.tile, kind="wreck", name=f"the {st.name(plate)}", cells=frozenset(middle), look=None,
                 shoot=None, move=WRECK_T_MOVE, post=None, middle=True, wreck=plate)


def blocks(st) -> list[Block]:
    """Every roadblock in play: the scenario's, then wrecks on roads (by plate)."""
    rbs = st.setup.scenario.roadblocks
    if not rbs and not st.vehicles:
        return []
    board = st.board
    out = [b for rb in rbs if (b := _scenario_block(board, rb)) is not None]
    for plate in sorted(st.vehicles):
        b = _wreck_block(st, plate)
        if b is not None:
            out.append(b)
    return out


def in_tile(st, tid: str) -> list[Block]:
    """The roadblocks in one tile (the scenario's, then wrecks), built for that tile only."""
    board = None
    out = []
    for rb in st.setup.scenario.roadblocks:
        if rb.tile == tid:
            board = board or st.board
            b = _scenario_block(board, rb)
            if b is not None:
                out.append(b)
    for plate in sorted(st.vehicles):
        if st.vehicles[plate].tile == tid:
            b = _wreck_block(st, plate)
            if b is not None:
                out.append(b)
    return out


def _on(b: Block, cell: Cell, board) -> bool:
    return cell in b.cells or (b.middle and cell in _footprint(board, b.tile))


# --------------------------------------------------------------------------- vehicles moving


def open_entry_problem(st, plate: int, tid: str) -> str | None:
    """Only a fully tracked vehicle may go onto an overlay that fills the middle of its tile."""
    if not st.setup.scenario.roadblocks and len(st.vehicles) < 2:
        return None
    vdef = st.vehicle_def(plate)
    for b in in_tile(st, tid):
        if b.middle and b.wreck != plate and not fully_tracked(vdef):
            return f"{b.name} in {tid} leaves no room: only a fully tracked vehicle may cross it"
    return None


def road_entry_problem(st, plate: int, tid: str) -> str | None:
    """A Road move stops before a roadblock: crossing it, or going round, is an Open move."""
    if not st.setup.scenario.roadblocks and len(st.vehicles) < 2:
        return None
    for b in in_tile(st, tid):
        if b.wreck != plate:
            return f"{b.name} blocks the road in {tid}: a Road move stops before it"
    return None


def road_start_problem(st, plate: int) -> str | None:
    """A vehicle on an overlay leaves it by an Open move (paying the 'T' modifier)."""
    v = st.vehicles[plate]
    if not v.tile or (not st.setup.scenario.roadblocks and len(st.vehicles) < 2):
        return None
    for b in in_tile(st, v.tile):
        if b.middle and b.wreck != plate:
            return f"the {st.name(plate)} stands on {b.name}: it leaves by an Open move"
    return None


def move_mod(st, tid: str, base: int) -> int:
    """The MOVE modifier to leave a tile: the overlay's 'T' modifier when a vehicle there stands on
    it (the worse of the two), else the tile's."""
    if not st.setup.scenario.roadblocks and not st.vehicles:
        return base
    for b in in_tile(st, tid):
        if b.middle:
            base = min(base, b.move)
    return base


# --------------------------------------------------------------------------- LOOK and SHOOT at a target on it


@rulebook.roadblock_delta.fill
def target_delta(st, a: Cell, b: Cell, action: Action, ignore: int = 0) -> int:
    """What changes in the LOOK or SHOOT modifiers from a to b when the target at b is on an
    overlay: its tile's printed modifier is replaced by the roadblock's (smoke multiplies it as
    it would the tile's; optics ignore it as they would the tile's). 0 when nothing changes,
    and when looker and target share the tile (no tile modifier counts then)."""
    rbs = st.setup.scenario.roadblocks
    if not rbs or a is None or b is None:
        return 0
    board = st.board
    tid = board.tile_at(b)
    if tid == board.tile_at(a):
        return 0
    for blk in in_tile(st, tid):
        new = blk.look if action is Action.LOOK else blk.shoot if action is Action.SHOOT else None
        if new is None or not _on(blk, b, board):
            continue
        line = board.line(a, b, action)
        if not line or line[-1].tile != tid:
            return 0
        smoke = st.smoke_map()
        mult = max([smoke.get(board.tile_at(a), 1), *(smoke.get(lt.tile, 1) for lt in line)]) if smoke else 1
        raw = line[-1].mod
        swapped = raw - board.tiles[tid].mods.of(action) + new

        def counted(m: int) -> int:
            return 0 if ignore and 0 < -m <= ignore else m
        return counted(swapped * mult) - counted(raw * mult)
    return 0


# --------------------------------------------------------------------------- the fighting position


def defender(st, blk: Block) -> int | None:
    """The soldier in the fighting position, if any."""
    if blk.post is None:
        return None
    for s in st.soldiers.values():
        if s.on_board and s.at == blk.post:
            return s.serial
    return None


def position_of(st, serial: int) -> Block | None:
    """The roadblock whose fighting position this soldier holds."""
    if not st.setup.scenario.roadblocks:
        return None
    s = st.soldiers.get(serial)
    if s is None or not s.on_board or s.at is None:
        return None
    tid = st.board.tile_at(s.at)
    return next((b for b in in_tile(st, tid) if b.post == s.at), None)


@rulebook.roadblock_protect.fill
def protect(ctx: Ctx, target: int, hits: int) -> int:
    """Hits of a shot on the man in a fighting position, less its 2."""
    if hits <= 0 or not ctx.st.setup.scenario.roadblocks:
        return hits
    blk = position_of(ctx.st, target)
    if blk is None:
        return hits
    left = max(0, hits - FIGHTING_POSITION_HITS)
    ctx.say("protection", f"{ctx.st.name(target)} fights from {blk.name}'s fighting position: {hits} hit"
            f"{'s' if hits != 1 else ''} less {FIGHTING_POSITION_HITS} = {left}.", serial=target, hits=left)
    return left


# --------------------------------------------------------------------------- the public view


def view_rows(st) -> list[dict]:
    """Rows for View.roadblocks: every roadblock in play and its defender."""
    return [{"tile": b.tile, "kind": b.kind, "name": b.name, "defender": defender(st, b)} for b in blocks(st)]
