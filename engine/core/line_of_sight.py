"""Line of sight with vehicles on the board (Hell on Wheels, LOOK; ruling V14): where a man or a
vehicle is seen from, Climb sums, what blocks a line, a vehicle's Visibility and the LOOK
modifiers on a line. Every sighting reads it, on foot (engine/infantry/look.py) and aboard
(engine/vehicles/look.py), so it sits in core beside the board."""
from __future__ import annotations

from engine.core import rulebook
from engine.core.board import Cell
from engine.core.content import Action

BLOCK_CLIMB = 4  # an intervening vehicle or terrain this many Climb above the higher end blocks


# --------------------------------------------------------------------------- where things are seen from


def vehicle_cell(st, plate: int) -> Cell:
    """A vehicle is seen, sights and is measured from its tile's centre (ruling 17): the cell
    holding the centre point, which the board keeps per tile."""
    return st.board.tile_centre(st.vehicles[plate].tile)


def terrain_climb(st, cell: Cell) -> int:
    """Climb summed under a cell: 0 on the ground, a level-3 hill top 2 (X-terrain levels)."""
    return st.board.level(cell) - 1


def vehicle_climb(st, plate: int) -> int:
    return st.vehicle_def(plate).climb + terrain_climb(st, vehicle_cell(st, plate))


def at_of(st, serial: int) -> tuple[Cell, int]:
    """A soldier's or vehicle's place and Climb sum for a line of sight."""
    if serial in st.vehicles:
        plate = serial
    else:
        s = st.soldiers[serial]
        if s.status != "aboard":
            return s.at, terrain_climb(st, s.at)
        plate = s.vehicle
    cell = vehicle_cell(st, plate)
    return cell, st.vehicle_def(plate).climb + terrain_climb(st, cell)


def los_blocker(st, a: int, b: int) -> str | None:
    """What blocks the line between two soldiers or vehicles: a vehicle or terrain whose Climb is
    at least 4 above the higher of the two ends, or a building (Line of Sight; ruling V14).
    None when the line is clear. The two ends' own tiles never block."""
    board = st.board
    (pa, ca), (pb, cb) = at_of(st, a), at_of(st, b)
    high = max(ca, cb)
    building, (top, where), crossed = _terrain_on_line(board, pa, pb)
    if st.vehicles:
        skip = {x for x in (a, b) if x in st.vehicles}
        for serial in (a, b):
            s = st.soldiers.get(serial)
            if s is not None and s.status == "aboard":
                skip.add(s.vehicle)
        for plate, v in sorted(st.vehicles.items()):
            if v.tile not in crossed or plate in skip or v.status not in ("board", "destroyed", "abandoned"):
                continue
            if vehicle_climb(st, plate) >= high + BLOCK_CLIMB:
                return f"the {st.name(plate)}"
    if building:
        return f"a building in {building}"
    if top >= high + BLOCK_CLIMB:
        return f"high ground in {where}"
    return None


def _terrain_on_line(board, pa: Cell, pb: Cell):
    """(the first building's tile or None, (the highest terrain Climb, its tile), the tiles the
    LOOK line crosses) on the way between two points, the two end tiles left out. The map never
    changes: kept per board."""
    key = ("los", pa, pb)
    got = board._line_cache.get(key)
    if got is None:
        ends = {board.tile_at(pa), board.tile_at(pb)}
        crossed = frozenset(lt.tile for lt in board.line(pa, pb, Action.LOOK) if lt.tile not in ends)
        building, top = None, (-1, None)
        for c in board.straight_path(pa, pb):
            t = board.tile_at(c)
            if t in ends:
                continue
            if building is None and board.building(c):
                building = t
            climb = board.level(c) - 1
            if climb > top[0]:
                top = (climb, t)
        got = board._line_cache[key] = (building, top, crossed)
    return got


def involves_vehicle(st, a: int, b: int) -> bool:
    return any(x in st.vehicles or (x in st.soldiers and st.soldiers[x].status == "aboard") for x in (a, b))


def look_mods_for(st, a: Cell, b: Cell, optics: int = 0) -> int:
    """LOOK modifiers on the line, each tile's modifier from -1 to -optics ignored (Optics); a
    target on a roadblock's overlay reads the roadblock's modifier instead of its tile's
    (Roadblocks and Barricades), for a crew looking out of a vehicle as for a man on foot."""
    smoke = st.smoke_map()
    total = 0
    for lt in st.board.line(a, b, Action.LOOK, smoke=smoke):
        if optics and -optics <= lt.mod < 0:
            continue
        total += lt.mod
    if st.setup.scenario.roadblocks:
        total += rulebook.roadblock_delta(st, a, b, Action.LOOK, optics)
    return total + st.weather.look + st.lasting_weather.look


def visibility(st, target: int) -> int:
    return st.vehicle_def(target).visibility if target in st.vehicles else 1
