"""Victory (core manual, Victory; ruling 15): VPs from kills, prisoners held at the end (double),
orders and events; an instant victory when a side has nobody left to fight; otherwise the most
VPs when the story deck runs out."""
from __future__ import annotations

from engine.advanced.equipment_use import captured_vp
from engine.core.log import Ctx
from engine.core.state import Result, VpEntry
from engine.infantry import orders
from engine.vehicles.damage import abandoned_vp


def check_instant(ctx: Ctx, fighting: dict[str, int] | None = None) -> bool:
    """Whether the game has just ended in an instant victory (ending it if so). `fighting`: a man
    of each side found still fighting by the last check of the same play sequence, kept up to date
    here; while those men are still in play nothing more is read (most steps kill nobody)."""
    st = ctx.st
    if st.step == "over":
        return True
    soldiers = st.soldiers
    if fighting:
        for serial in fighting.values():
            s = soldiers.get(serial)
            if s is None or not s.in_play:
                break
        else:  # every side's man of the last check still fights
            return False
    unseen = {s.side for s in st.seats}
    found: dict[str, int] = {}
    # a side still fights while anyone of it is alive, free, and on the board or still to enter
    # it; it stops at the first man of each side, read from both ends of the roster at once (each
    # side's men are listed together)
    men = list(soldiers.values())
    i, j = 0, len(men) - 1
    while i <= j:
        for s in (men[i], men[j]) if i < j else (men[i],):
            if s.side in unseen and s.in_play:
                unseen.discard(s.side)
                found[s.side] = s.serial
                if not unseen:
                    if fighting is not None:
                        fighting.clear()
                        fighting.update(found)
                    return False
        i, j = i + 1, j - 1
    sides = sorted({s.side for s in st.seats})
    gone = [side for side in sides if side in unseen]
    if not gone:
        return False
    if len(gone) == len(sides):
        end_game(ctx, "no soldier of either side is left to fight", winner=None, instant=True)
    else:
        winner = next(s for s in sides if s not in gone)
        end_game(ctx, f"{gone[0]} has no soldier left to fight: instant victory", winner=winner, instant=True)
    return True


def end_game(ctx: Ctx, reason: str, winner: str | None = None, instant: bool = False) -> None:
    st = ctx.st
    orders.game_end(ctx)
    if st.vehicles:
        abandoned_vp(ctx)
    for p in sorted(st.soldiers.values(), key=lambda s: s.serial):
        if p.captor is not None and p.status in ("board", "exited"):
            captor_force = st.forces[p.controller]
            vp = 2 * st.vp_value(p.serial)
            st.vp.append(VpEntry(seat=captor_force.seat, side=captor_force.side, amount=vp,
                                 reason=f"prisoner {st.name(p.serial)}", kind="prisoner", serial=p.serial,
                                 by=p.captor))
            ctx.say("prisoner_vp", f"{st.seats[captor_force.seat].name} holds {st.name(p.serial)} prisoner: "
                    f"{vp} VP (double).", serial=p.serial)
    captured_vp(ctx)  # a prisoner's equipment scores for his captor (engine/infantry/equipment.py)
    totals = {side: st.side_vp(side) for side in sorted({s.side for s in st.seats})}
    if not instant:
        best = max(totals.values())
        leaders = [s for s, v in totals.items() if v == best]
        winner = leaders[0] if len(leaders) == 1 else None
    st.result = Result(winner=winner, reason=reason, vp=totals)
    st.step = "over"
    st.active = None
    st.pending = None
    st.pending_queue = []
    st.fight = None
    score = ", ".join(f"{s} {v} VP" for s, v in totals.items())
    ctx.say("game_over", f"Game over — {reason}. {score}. "
            + (f"{winner} wins." if winner else "It is a draw."), winner=winner, vp=totals)
