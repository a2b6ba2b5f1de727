"""Orders (core manual, Orders): each player's secret objective, checked where it can be met.

A completed order is announced (its VP go to the player's pile); until then nobody else
learns what it is. Progress counters live in the state, private to the seat."""
from __future__ import annotations

from engine.core import rulebook
from engine.core.content import OrderKind
from engine.core.log import Ctx
from engine.core.state import VpEntry
from engine.infantry.blast import blast_tile
from engine.infantry.equipment import device_of


def _order(st, seat: int):
    oid = st.seats[seat].order
    return st.setup.orders.get(oid) if oid else None


def _landmark_tile(st, order) -> str | None:
    return st.board.piece_tile(order.landmark) if order and order.landmark else None


def _seat_of(st, serial: int) -> int:
    return st.forces[st.soldiers[serial].force].seat


def complete(ctx: Ctx, seat: int, amount: int | None = None, actor: int | None = None) -> None:
    st = ctx.st
    s = st.seats[seat]
    if s.order_done:
        return
    order = _order(st, seat)
    s.order_done = True
    vp = order.vp if amount is None else amount
    if actor is not None and actor in st.soldiers:
        deeds = st.changing(actor).deeds
        deeds["orders"] = deeds.get("orders", 0) + 1
    st.vp.append(VpEntry(seat=seat, side=s.side, amount=vp, reason=f"orders: {order.title}", kind="orders",
                         by=actor))
    ctx.say("orders", f"{s.name} completes the orders '{order.title}' ({order.text}) for {vp} VP.",
            seat=seat, order=order.id, vp=vp)
    if st.vehicles:
        rulebook.orders_completed(ctx, seat)


def _in_tile(st, tile: str, seat: int | None = None, side: str | None = None) -> list[int]:
    board = st.board
    return [s.serial for s in st.soldiers.values()
            if s.free and s.at and board.tile_at(s.at) == tile
            and (seat is None or _seat_of(st, s.serial) == seat) and (side is None or s.side == side)]


def _progress(st, seat: int) -> dict[str, int]:
    return st.order_progress.setdefault(seat, {})


def after_move(ctx: Ctx, serial: int, start, end) -> None:
    st = ctx.st
    seat = _seat_of(st, serial)
    order = _order(st, seat)
    if order is None or st.seats[seat].order_done or st.soldiers[serial].captor is not None:
        return
    tile = _landmark_tile(st, order)
    board = st.board
    if order.kind == OrderKind.SEARCH and tile and end and board.tile_at(end) == tile and board.in_cover(end):
        complete(ctx, seat, actor=serial)
    elif order.kind == OrderKind.RECON and tile and len(_in_tile(st, tile, seat=seat)) >= 2:
        complete(ctx, seat, actor=serial)
    elif order.kind == OrderKind.DEMOLITION and tile and start and board.tile_at(start) == tile \
            and (end is None or board.tile_at(end) != tile) and "explosives" in st.soldiers[serial].equipment \
            and _progress(st, seat).get("held_turns", 0) >= 3:
        complete(ctx, seat, actor=serial)


def after_exit(ctx: Ctx, serial: int, area: str) -> None:
    st = ctx.st
    seat = _seat_of(st, serial)
    order = _order(st, seat)
    if order and not st.seats[seat].order_done and order.kind == OrderKind.PATROL and order.exit == area \
            and st.soldiers[serial].captor is None:
        complete(ctx, seat, actor=serial)
    after_move(ctx, serial, st.soldiers[serial].at, None)


def after_casualty(ctx: Ctx) -> None:
    """Skirmish: more than half of an opposing force killed or captured."""
    st = ctx.st
    for seat in st.seats:
        order = _order(st, seat.index)
        if not order or seat.order_done or order.kind != OrderKind.SKIRMISH:
            continue
        for f in st.forces.values():
            if f.side == seat.side:
                continue
            men = [s for s in st.soldiers.values() if s.force == f.id and s.status != "reserve"]
            down = [s for s in men if s.status == "dead" or s.captor is not None]
            if men and len(down) * 2 > len(men):
                complete(ctx, seat.index)
                break


def _is_radio(st, item: str) -> bool:
    """A radio, walkie-talkie or field telephone calls the guns (the device kinds of
    engine/infantry/equipment.py device_of)."""
    return device_of(st.setup.equipment.get(item)) is not None


def turn_start(ctx: Ctx) -> None:
    """Registered Fire falls at the start of its turn if an operator with a radio or a field
    telephone is alive and free."""
    st = ctx.st
    for seat in st.seats:
        order = _order(st, seat.index)
        if not order or seat.order_done or order.kind != OrderKind.REGISTERED_FIRE or order.turn != st.turn:
            continue
        radio = [s for s in st.soldiers.values() if _seat_of(st, s.serial) == seat.index and s.in_play
                 and any(_is_radio(st, e) for e in s.equipment)]
        tile = _landmark_tile(st, order)
        if not radio or not tile:
            continue
        force = st.soldiers[radio[0].serial].force
        complete(ctx, seat.index)
        blast_tile(ctx, tile, checks=order.checks, by_force=force, cause="artillery", what="Registered artillery")
    sample_landmarks(ctx, start=True)


def sample_landmarks(ctx: Ctx, start: bool = False) -> None:
    """Capture needs a player's soldiers alone in a landmark for a whole turn: occupancy is
    sampled at the turn start and at every phase end (docs/rulings.md)."""
    st = ctx.st
    prog = st.order_progress.setdefault(-1, {})
    for tile in st.board.landmarks():
        present = _in_tile(st, tile)
        sides = {st.soldiers[s].side for s in present}
        seats = {_seat_of(st, s) for s in present}
        key = f"cap:{tile}"
        bits = 0
        if len(sides) == 1:
            for seat in seats:
                bits |= 1 << seat
        prog[key] = bits if start else prog.get(key, 0) & bits


def turn_end(ctx: Ctx) -> None:
    st = ctx.st
    prog = st.order_progress.setdefault(-1, {})
    for tile in st.board.landmarks():
        bits = prog.get(f"cap:{tile}", 0)
        for seat in st.seats:
            if bits & (1 << seat.index):
                if st.landmark_holders.get(tile) != str(seat.index):
                    st.landmark_holders[tile] = str(seat.index)
                    ctx.say("landmark", f"{seat.name}'s soldiers have held {tile} alone for a whole turn: "
                            f"it is captured.", tile=tile, seat=seat.index)
    rulebook.orders_turn_end(ctx)
    for seat in st.seats:
        order = _order(st, seat.index)
        if not order or seat.order_done:
            continue
        tile = _landmark_tile(st, order)
        if order.kind == OrderKind.CAPTURE and tile and st.landmark_holders.get(tile) == str(seat.index):
            complete(ctx, seat.index)
        elif order.kind == OrderKind.ATTACK:
            held = sum(1 for v in st.landmark_holders.values() if v == str(seat.index))
            if held * 2 > len(st.board.landmarks()):
                complete(ctx, seat.index)
        elif order.kind == OrderKind.DEMOLITION and tile:
            carriers = [s for s in _in_tile(st, tile, seat=seat.index) if "explosives" in st.soldiers[s].equipment]
            enemies = [s for s in _in_tile(st, tile) if st.soldiers[s].side != seat.side]
            p = _progress(st, seat.index)
            p["held_turns"] = p.get("held_turns", 0) + 1 if carriers and not enemies else 0


def game_end(ctx: Ctx) -> None:
    """Orders settled at the end: Hold, and General Attack's bonus per enemy killed or captured."""
    st = ctx.st
    rulebook.orders_game_end(ctx)
    for seat in st.seats:
        order = _order(st, seat.index)
        if not order or seat.order_done:
            continue
        tile = _landmark_tile(st, order)
        if order.kind == OrderKind.HOLD and tile:
            mine = _in_tile(st, tile, seat=seat.index)
            enemies = [s for s in _in_tile(st, tile) if st.soldiers[s].side != seat.side]
            if mine and not enemies:
                complete(ctx, seat.index)
        elif order.kind == OrderKind.GENERAL_ATTACK:
            kills = sum(1 for e in st.vp if e.seat == seat.index and e.kind == "kill")
            prisoners = sum(1 for p in st.soldiers.values()
                            if p.captor is not None and st.forces[p.controller].seat == seat.index)
            n = kills + prisoners
            if n:
                complete(ctx, seat.index, amount=order.vp * n)
