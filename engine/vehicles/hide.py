"""HIDE with vehicles (Hell on Wheels, HIDE): a vehicle taking cover, and going hull down."""
from __future__ import annotations

from engine.core.content import Action
from engine.core.errors import RuleError
from engine.core.line_of_sight import at_of
from engine.core.log import Ctx
from engine.core.vehicle_geometry import on_board
from engine.vehicles.move import _check_hull, bog, bog_checks, driver

VEHICLE_COVER = -3  # only HIDE modifiers of -3 or less hide a vehicle (Take Cover)
HULL_DOWN_SHOOT = -3  # SHOOT modifier against a hull-down vehicle from its front (Hull Down)
HULL_DOWN_PROTECTION = 2  # hits taken off such a shot


def vehicle_hide_mods(st, a, b, own: int = 0) -> int:
    """HIDE modifiers from the vehicle's own tile to the enemy's, counting only those of -3 or
    less (Take Cover), smoke included. `own`: a further modifier in the vehicle's own tile (the
    -3 of popped smoke, engine/vehicles/smoke.py)."""
    line = st.board.line(a, b, Action.HIDE, include_own=True, smoke=st.smoke_map())
    return sum(m for m in (lt.mod + (own if i == 0 else 0) for i, lt in enumerate(line)) if m <= VEHICLE_COVER)


def _nearest(st, plate: int) -> list[int]:
    """The nearest enemies (soldiers on foot and vehicles) by squares; all of them when they tie."""
    v = st.vehicles[plate]
    here = at_of(st, plate)[0]
    rows = []
    for s in st.soldiers.values():
        if s.free and s.side != v.side:
            rows.append((st.board.squares(here, s.at, Action.HIDE), s.serial))
    for p in on_board(st):
        if st.vehicles[p].side != v.side:
            rows.append((st.board.squares(here, at_of(st, p)[0], Action.HIDE), p))
    if not rows:
        return []
    d0 = min(d for d, _ in rows)
    return sorted(n for d, n in rows if d == d0)


def cover_value_against(st, plate: int, enemy: int, own: int = 0) -> int:
    return st.vehicle_def(plate).hide + vehicle_hide_mods(st, at_of(st, plate)[0], at_of(st, enemy)[0], own)


def shed_markers(st, plate: int, nearest: list[int], own: int = 0) -> list[str]:
    """What taking cover does to a vehicle's Spotted markers (V19): the general marker goes when
    its cover value is below zero against every enemy in `nearest`; each other vehicle's own
    marker is tried against that vehicle alone (one no longer on the board loses it). Returns
    the words for the report."""
    v = st.vehicles[plate]
    report = []
    if v.spotted:
        rows = [(e, cover_value_against(st, plate, e, own)) for e in nearest]
        if all(val < 0 for _, val in rows):
            v = st.changing_vehicle(plate)
            v.spotted = False
            report.append("sheds the general Spotted marker")
        else:
            e, val = next(r for r in rows if r[1] >= 0)
            report.append(f"stays spotted by everyone ({st.name(e)}: cover {val})")
    for p in list(v.spotted_by):
        on = p in st.vehicles and st.vehicles[p].status == "board"
        val = cover_value_against(st, plate, p, own) if on else -1
        if val < 0:
            v = st.changing_vehicle(plate)
            v.spotted_by.remove(p)
            report.append(f"loses the {st.name(p)}'s marker" + (f" (cover {val})" if on else ""))
        else:
            report.append(f"keeps the {st.name(p)}'s marker (cover {val})")
    return report


def vcover(ctx: Ctx, plate: int, who: int) -> bool:
    """Take Cover: only in a tile of HIDE -3 or less; the general Spotted marker goes when the
    vehicle's HIDE value plus those modifiers is below zero against the nearest enemies, and each
    vehicle's own marker is tried separately against that vehicle (Take Cover)."""
    st = ctx.st
    v = st.vehicles[plate]
    name = st.name(plate)
    if v.status != "board":
        raise RuleError(f"the {name} is not on the board.")
    by = driver(st, plate, who, "take cover")
    own = st.board.tiles[v.tile].mods.hide or 0
    if own > VEHICLE_COVER:
        raise RuleError(f"the {name} can take cover only in a tile of HIDE {VEHICLE_COVER} or less; {v.tile} is "
                        f"{own:+d}.")
    report = shed_markers(st, plate, _nearest(st, plate))
    _touch(st, plate)
    ctx.say("vcover", f"{st.name(by)} takes the {name} into cover in {st.vehicles[plate].tile}: "
            + ("; ".join(report) or "nobody had marked it") + ".", plate=plate, serial=by)
    return True


def hulldown(ctx: Ctx, plate: int, who: int) -> bool:
    """Hull Down: in a tile with negative LOOK and MOVE modifiers, after a bog check passed."""
    st = ctx.st
    v = st.vehicles[plate]
    name = st.name(plate)
    if v.status != "board":
        raise RuleError(f"the {name} is not on the board.")
    by = driver(st, plate, who, "take it hull down")
    _check_hull(st, plate)
    if v.hull_down:
        raise RuleError(f"the {name} is hull down already.")
    mods = st.board.tiles[v.tile].mods
    if (mods.look or 0) >= 0 or (mods.move or 0) >= 0:
        raise RuleError(f"hull down needs a tile with negative LOOK and MOVE modifiers; {v.tile} has LOOK "
                        f"{mods.look or 0:+d}, MOVE {mods.move or 0:+d}.")
    if bog(ctx, plate, bog_checks(st, plate), "go hull down"):
        return False
    v = st.changing_vehicle(plate)  # taken after the bog checks, which may have made it the state's own
    v.hull_down = True
    _touch(st, plate)
    ctx.say("hulldown", f"{st.name(by)} takes the {name} hull down in {v.tile}, facing {v.facing.upper()}.",
            plate=plate, serial=by)
    return True


def _touch(st, plate: int) -> None:
    if plate not in st.panels:
        st.panels.append(plate)
