"""The ten orders the vehicle book adds (Hell on Wheels, Orders), met where they can be met.

The book names each in a line; what "controlling", "assisting" and "double" mean in play is our
call, written in docs/vehicles.md (V28) and on each order card in assets/orders.yaml:
- Reconnaissance: one of the player's vehicles has moved along a road, and at some phase end every
  enemy vehicle on the board is marked and more than half the enemy soldiers on foot are spotted.
- Overrun: the player has destroyed an enemy vehicle or killed ten enemy soldiers.
- Armor Assault: at a turn end the player has captured a landmark and destroyed an enemy vehicle.
- Armor Support: another player of his side completes his orders while one of this player's
  vehicles is on the board.
- Observer: artillery called by the player (the artillery rules' hook `after_artillery`).
- Ambush (bonus at the end): his three largest VP awards count once more.
- Screen (bonus): the VP of the enemy vehicles he destroyed count once more.
- Rear Guard (bonus): the VP of his soldiers who left the board by an exit.
- Positional Defense: at the end he holds a landmark (his men in it, no enemy) and has destroyed
  an enemy vehicle.
- Overwatch (bonus): the order's VP for every enemy vehicle he destroyed."""
from __future__ import annotations

from engine.core import rulebook
from engine.core.content import OrderKind
from engine.core.log import Ctx
from engine.infantry.orders import _in_tile, complete

VEHICLE_ORDERS = {OrderKind.RECONNAISSANCE, OrderKind.OVERRUN, OrderKind.ARMOR_ASSAULT, OrderKind.ARMOR_SUPPORT,
                  OrderKind.OBSERVER, OrderKind.AMBUSH, OrderKind.SCREEN, OrderKind.REAR_GUARD,
                  OrderKind.POSITIONAL_DEFENSE, OrderKind.OVERWATCH}
OVERRUN_SOLDIERS = 10


def _open(st, seat: int, kind: OrderKind):
    s = st.seats[seat]
    oid = s.order
    order = st.setup.orders.get(oid) if oid else None
    if order is None or s.order_done or order.kind != kind:
        return None
    return order


def _seat_of_plate(st, plate: int) -> int:
    return st.forces[st.vehicles[plate].force].seat


def vehicles_destroyed_by(st, seat: int) -> list[int]:
    """Enemy vehicles this player destroyed (the VP log names them)."""
    return [e.serial for e in st.vp if e.seat == seat and e.kind == "kill" and e.serial in st.vehicles
            and e.amount > 0]


def soldiers_killed_by(st, seat: int) -> int:
    return sum(1 for e in st.vp if e.seat == seat and e.kind == "kill" and e.serial in st.soldiers and e.amount > 0)


def after_vehicle_move(ctx: Ctx, plate: int, road: bool) -> None:
    """Reconnaissance asks for a vehicle that has entered a road."""
    st = ctx.st
    if not road:
        return
    seat = _seat_of_plate(st, plate)
    if _open(st, seat, OrderKind.RECONNAISSANCE):
        st.order_progress.setdefault(seat, {})["road"] = 1


def _recon_met(st, seat: int) -> bool:
    side = st.seats[seat].side
    if not st.order_progress.get(seat, {}).get("road"):
        return False
    mine = {p for p, v in st.vehicles.items() if st.forces[v.force].seat == seat}
    for v in st.vehicles.values():
        if v.side != side and v.status == "board" and not (v.spotted or set(v.spotted_by) & mine):
            return False
    foes = [s for s in st.soldiers.values() if s.side != side and s.free]
    return 2 * sum(1 for s in foes if s.spotted) > len(foes)


def phase_end(ctx: Ctx) -> None:
    st = ctx.st
    for seat in st.seats:
        i = seat.index
        if _open(st, i, OrderKind.RECONNAISSANCE) and _recon_met(st, i):
            complete(ctx, i)
        elif _open(st, i, OrderKind.OVERRUN) and (vehicles_destroyed_by(st, i)
                                                  or soldiers_killed_by(st, i) >= OVERRUN_SOLDIERS):
            complete(ctx, i)


@rulebook.orders_turn_end.fill
def turn_end(ctx: Ctx) -> None:
    st = ctx.st
    for seat in st.seats:
        i = seat.index
        if _open(st, i, OrderKind.ARMOR_ASSAULT) and vehicles_destroyed_by(st, i) \
                and any(v == str(i) for v in st.landmark_holders.values()):
            complete(ctx, i)


@rulebook.orders_completed.fill
def after_complete(ctx: Ctx, seat: int) -> None:
    """Armor Support: a teammate's orders met while this player has a vehicle on the board."""
    st = ctx.st
    side = st.seats[seat].side
    for other in st.seats:
        if other.index == seat or other.side != side or not _open(st, other.index, OrderKind.ARMOR_SUPPORT):
            continue
        if any(v.status == "board" and st.forces[v.force].seat == other.index for v in st.vehicles.values()):
            complete(ctx, other.index)


def after_artillery(ctx: Ctx, seat: int) -> None:
    """Observer: called by the artillery rules when this player's artillery arrives."""
    if _open(ctx.st, seat, OrderKind.OBSERVER):
        complete(ctx, seat)


@rulebook.orders_game_end.fill
def game_end(ctx: Ctx) -> None:
    st = ctx.st
    for seat in st.seats:
        i = seat.index
        if (o := _open(st, i, OrderKind.AMBUSH)) is not None:
            top = sorted((e.amount for e in st.vp if e.seat == i and e.amount > 0 and e.kind != "orders"),
                         reverse=True)[:3]
            if top:
                complete(ctx, i, amount=sum(top))
        elif _open(st, i, OrderKind.SCREEN) is not None:
            gone = vehicles_destroyed_by(st, i)
            if gone:
                complete(ctx, i, amount=sum(st.vehicle_def(p).vp for p in gone))
        elif _open(st, i, OrderKind.REAR_GUARD) is not None:
            out = [s for s in st.soldiers.values() if s.status == "exited" and s.captor is None
                   and st.forces[s.force].seat == i]
            if out:
                complete(ctx, i, amount=sum(st.vp_value(s.serial) for s in out))
        elif _open(st, i, OrderKind.POSITIONAL_DEFENSE) is not None and vehicles_destroyed_by(st, i):
            for tile in st.board.landmarks():
                mine = _in_tile(st, tile, seat=i)
                enemies = [n for n in _in_tile(st, tile) if st.soldiers[n].side != seat.side]
                if mine and not enemies:
                    complete(ctx, i)
                    break
        elif (o := _open(st, i, OrderKind.OVERWATCH)) is not None:
            gone = vehicles_destroyed_by(st, i)
            if gone:
                complete(ctx, i, amount=o.vp * len(gone))
