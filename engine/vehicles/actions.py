"""Carrying out a card's action for a vehicle, a crewman or a man aboard: which rule the command
is, who does it, and the license plate's one hull move a phase (License Plate)."""
from __future__ import annotations

from engine.core import commands as C
from engine.core import rulebook
from engine.core.content import Do
from engine.core.crew import plate_of
from engine.core.errors import RuleError
from engine.core.log import Ctx
from engine.core.state import Source
from engine.infantry.look import draw as look_draw
from engine.infantry.look import draw_count
from engine.vehicles import damage as VD
from engine.vehicles import hide as VH
from engine.vehicles import look as VL
from engine.vehicles import move as VM
from engine.vehicles import shoot as VS


def _explicit(st, src: Source, entry_do: Do | None, what: Do) -> bool:
    """The card itself names the repair or the fire fighting (team bubble or narrator box): no
    check is needed (Repair Wreck; Fighting Fires)."""
    if src.kind == "team":
        return entry_do == what
    if src.kind == "note":
        note = st.card(st.active.card).narrator
        return note is not None and note.kind == what.value
    return False


def _hull_move(ctx: Ctx, cmd, src: Source, plate: int, go) -> None:
    st = ctx.st
    v = st.vehicles[plate]
    by_plate = src.kind == "tag" and cmd.serial == plate
    if by_plate and v.hull_moved:
        raise RuleError(f"the {st.name(plate)}'s license plate has moved its hull this phase already "
                        f"(one license-plate hull move a phase).")
    go()
    if by_plate:
        st.changing_vehicle(plate).hull_moved = True


@rulebook.aboard_action.fill
@rulebook.performs(*C.VEHICLE_COMMANDS)
def perform(ctx: Ctx, cmd, src: Source, entry_do: Do | None) -> None:
    st = ctx.st
    if isinstance(cmd, C.Mount):
        VM.mount(ctx, cmd.serial, cmd.plate, cmd.post)
        return
    if isinstance(cmd, C.Dismount):
        VM.dismount(ctx, cmd.serial)
        return
    if isinstance(cmd, C.Shift):
        VM.shift(ctx, cmd.serial, cmd.post)
        return
    if isinstance(cmd, (C.DrawCmd,)):
        if cmd.serial in st.vehicles:
            n = st.card(st.active.card).narrator.count if src.kind == "note" else 1
            look_draw(ctx, st.active.force, n, st.name(cmd.serial))
        else:
            n = st.card(st.active.card).narrator.count if src.kind == "note" else draw_count(st, cmd.serial)
            look_draw(ctx, st.active.force, n, st.name(cmd.serial))
        return
    plate = plate_of(st, cmd.serial)
    who = cmd.serial
    if isinstance(cmd, C.VMove):
        _hull_move(ctx, cmd, src, plate, lambda: VM.vmove(ctx, plate, who, cmd.tile, road=cmd.road, back=cmd.back))
    elif isinstance(cmd, C.VTurn):
        _hull_move(ctx, cmd, src, plate, lambda: VM.vturn(ctx, plate, who, cmd.facing))
    elif isinstance(cmd, C.Turret):
        VM.turret(ctx, plate, who, cmd.facing)
    elif isinstance(cmd, C.MovePlus):
        VM.move_plus(ctx, plate, who, cmd.double)
    elif isinstance(cmd, C.Unpin):
        VM.unpin(ctx, plate, who)
    elif isinstance(cmd, C.Fire):
        with rulebook.firing_for(st, plate):  # issue 9: a taken-over vehicle shoots off its finder's deck
            if cmd.square:
                VS.fire_at_square(ctx, plate, who, cmd.weapon, cmd.square)
            else:
                VS.fire(ctx, plate, who, cmd.weapon, cmd.target)
    elif isinstance(cmd, C.Load):
        if cmd.back:
            VS.unload(ctx, plate, who)
        else:
            VS.load(ctx, plate, who, cmd.ammo)
    elif isinstance(cmd, C.Acquire):
        VL.acquire(ctx, plate, who, cmd.target)
    elif isinstance(cmd, C.Unbutton):
        VL.unbutton(ctx, plate, who)
    elif isinstance(cmd, C.Button):
        VL.button(ctx, plate, who)
    elif isinstance(cmd, C.HullDown):
        VH.hulldown(ctx, plate, who)
    elif isinstance(cmd, C.VCover):
        VH.vcover(ctx, plate, who)
    elif isinstance(cmd, C.Repair):
        _crewman(st, who, "repair")
        if _explicit(st, src, entry_do, Do.REPAIR):
            VD.repair_free(ctx, plate, who, cmd.location)
        else:
            VD.repair(ctx, plate, who, cmd.location)
        VM._touch(st, plate)
    elif isinstance(cmd, C.Extinguish):
        _crewman(st, who, "fight a fire")
        if _explicit(st, src, entry_do, Do.EXTINGUISH):
            VD.extinguish_free(ctx, plate, who, cmd.location)
        else:
            VD.fight_fire(ctx, plate, who, cmd.location)
        VM._touch(st, plate)
    elif isinstance(cmd, C.SightCmd):
        eye = VL.best_eye(st, plate) if who == plate else who
        if eye is None:
            raise RuleError(f"nobody in the {st.name(plate)} can look out.")
        if cmd.square:
            VL.sight_square(ctx, eye, cmd.square)
        else:
            VL.crew_sight_action(ctx, eye, cmd.target)
    elif isinstance(cmd, C.ShootCmd):
        if who == plate:
            raise RuleError(f"a vehicle fires one of its weapons: `fire {plate} WEAPON {cmd.target}` "
                            f"(weapons: {', '.join(VS.weapon_ids(st.vehicle_def(plate)))}).")
        VS.small_arms(ctx, who, cmd.target)
    elif isinstance(cmd, C.CoverCmd):
        if who != plate:
            raise RuleError(f"{st.name(who)} is aboard: he buttons up (`button {who}`) or the vehicle takes cover "
                            f"(`vcover {plate}`).")
        VH.vcover(ctx, plate, plate)
    else:
        what = {C.MoveCmd: "move on foot", C.Charge: "charge", C.Face: "turn", C.RallyCmd: "rally",
                C.HoldCmd: "hold cards", C.TossCmd: "toss a grenade"}.get(type(cmd), cmd.type)
        if who == plate:
            raise RuleError(f"a vehicle cannot {what}; its MOVE is `vmove`/`vturn`, its SHOOT `fire`.")
        raise RuleError(f"{st.name(who)} is aboard the {st.name(plate)}: he cannot {what} from there"
                        + (" (dismount first)." if what in ("move on foot", "charge", "turn") else "."))


def _crewman(st, serial: int, what: str) -> None:
    if serial in st.vehicles:
        raise RuleError(f"a crewman does that: name him, not the vehicle, to {what}.")
