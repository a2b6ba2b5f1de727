"""SHOOT with vehicles (Hell on Wheels, SHOOT): a vehicle's weapons (main gun, machine guns,
auto-cannons) at soldiers and at vehicles, the shooting arc, ROF, loading, Hit+, Damage X,
tracers, hull down; and small arms fired at vehicles, at exposed crew and from aboard.

Where a shot strikes a vehicle the rest (hit location, penetration, the damage chain, crew
hits, the blast on the tile) is engine.vehicles.damage.resolve_vehicle_hit."""
from __future__ import annotations

from engine.core import commands as C
from engine.core import rulebook
from engine.core.board import in_arc, inches
from engine.core.content import ACTION_SHOOT
from engine.core.crew import actor, crewman, is_open, position_of, post_for
from engine.core.deck import check
from engine.core.errors import RuleError
from engine.core.line_of_sight import at_of, vehicle_cell
from engine.core.log import Ctx
from engine.core.ratings import current
from engine.core.state import HitPlusPending, SmokeMarker, TrailMark
from engine.core.vehicle_content import ROLE_LOADER
from engine.core.vehicle_geometry import (
    arc_takes_in,
    aspect,
    cell_in_arc,
    centre_point,
    enemy_vehicle_with,
    in_vehicle_arc,
    nearest_inches,
    tile_in_arc,
)
from engine.infantry.contact import Known
from engine.infantry.damage import apply_damage, damage_check
from engine.infantry.equipment import carried
from engine.infantry.look import _roadblock
from engine.infantry.shoot import (
    HIT_PLUS_SHIFT,
    bands_in_range,
    read_hits,
    shoot,
)
from engine.vehicles.damage import (
    blast_square,
    exposed_protection,
    hurt_aboard,
    protected_hits,
    resolve_vehicle_hit,
    weapon_ok,
)
from engine.vehicles.hide import HULL_DOWN_PROTECTION, HULL_DOWN_SHOOT
from engine.vehicles.look import marked_by
from engine.vehicles.roadblocks import protect

HIT_PLUS_LIMIT = 12  # a Hit+ chain stops after this many hit checks (a safety net; ruling V24)


# --------------------------------------------------------------------------- weapons


def weapon(vdef, wid: str):
    if wid == "main":
        if vdef.main_gun is None:
            raise RuleError(f"the {vdef.name} has no main gun.")
        return vdef.main_gun
    for mg in vdef.mgs:
        if mg.id == wid:
            return mg
    raise RuleError(f"the {vdef.name} has no weapon {wid!r}; it has "
                    + ", ".join((["main"] if vdef.main_gun else []) + [m.id for m in vdef.mgs]) + ".")


def weapon_ids(vdef) -> list[str]:
    return (["main"] if vdef.main_gun else []) + [m.id for m in vdef.mgs]


def arc_facing(st, plate: int, wid: str) -> str | None:
    """The facing a weapon's arc follows: turret weapons the turret, hull weapons the hull; an AA
    or cabin gun fires all round (Shooting Arc)."""
    v = st.vehicles[plate]
    vdef = st.vehicle_def(plate)
    if wid == "main":
        return v.turret if vdef.main_gun.mount == "turret" and v.turret else v.facing
    mount = weapon(vdef, wid).mount
    if mount == "coax":
        return v.turret or v.facing
    if mount == "hull":
        return v.facing
    return None


def target_cell(st, target: int):
    return at_of(st, target)[0]


def in_weapon_arc(st, plate: int, wid: str, target: int) -> bool:
    facing = arc_facing(st, plate, wid)
    if facing is None:
        return True
    v = st.vehicles[plate]
    if target in st.vehicles:
        return tile_in_arc(st.board, v.tile, facing, st.vehicles[target].tile)
    return cell_in_arc(st.board, v.tile, facing, target_cell(st, target))


def shoot_mods_for(st, a, b, optics: int = 0) -> int:
    """SHOOT modifiers on the line, tiles of -1 to -optics ignored (Optics)."""
    total = 0
    for lt in st.board.line(a, b, ACTION_SHOOT, smoke=st.smoke_map()):
        if optics and -optics <= lt.mod < 0:
            continue
        total += lt.mod
    return total + st.weather.shoot + st.lasting_weather.shoot + _roadblock(st, a, b, ACTION_SHOOT, optics)


def hull_down_against(st, target: int, shooter_point) -> bool:
    """A hull-down vehicle shot from the side it faces and that side's corners (Hull Down)."""
    if target not in st.vehicles:
        return False
    t = st.vehicles[target]
    return t.hull_down and in_vehicle_arc(st.board, t.tile, t.facing, shooter_point)


def _tile_of(st, serial: int) -> str | None:
    if serial in st.vehicles:
        return st.vehicles[serial].tile
    s = st.soldiers[serial]
    if s.status == "aboard":
        return st.vehicles[s.vehicle].tile
    return None


def geometry(st, shooter: int, target: int, long: int, short: int, close: int, optics: int = 0):
    """(squares, inches, SHOOT modifiers, bands) from a shooter (soldier, crewman or vehicle) to a target."""
    a, b = target_cell(st, shooter), target_cell(st, target)
    sq = st.board.squares(a, b, ACTION_SHOOT)
    # close range counts from a vehicle's nearest edge (Distance Moved; ruling V1)
    inch = nearest_inches(st.board, _tile_of(st, shooter), a, _tile_of(st, target), b)
    mods = shoot_mods_for(st, a, b, optics)
    if hull_down_against(st, target, (a[0] + 0.5, a[1] + 0.5)):
        mods += HULL_DOWN_SHOOT
    return sq, inch, mods, bands_in_range(long, short, close, mods, sq, inch)


def best_band(bands: list[str]) -> str:
    """The damage-table column of a shot reading several bands: the closest (ruling V22)."""
    for b in ("close", "short", "long"):
        if b in bands:
            return b
    return "long"


def breach_ready(st, plate: int) -> str | None:
    """The round ready to fire: In Breach whole (a two-part round with its charge)."""
    v = st.vehicles[plate]
    if not v.in_breach:
        return None
    rid = v.in_breach[0]
    a = st.vehicle_def(plate).main_gun.ammo_type(rid)
    if a is None:
        return None
    if a.parts == 2 and f"{rid}/charge" not in v.in_breach:
        return None
    return rid


def _valid_target(st, plate: int, target: int) -> str | None:
    v = st.vehicles[plate]
    if target in st.vehicles:
        t = st.vehicles[target]
        if t.status != "board" or t.side == v.side:
            return f"{target} is not an enemy vehicle on the board"
        return None
    s = st.soldiers.get(target)
    if s is None or s.side == v.side:
        return f"{target} is not an enemy soldier"
    if s.free:
        return None
    if s.status == "aboard" and st.vehicles[s.vehicle].status == "board" and exposed_protection(st, target) is not None:
        return None
    return f"{st.name(target)} is not a target: he is not on the board, or shut inside his vehicle"


def fire_problem(st, plate: int, gunner: int, wid: str, target: int) -> str | None:
    """Why the vehicle cannot fire this weapon at the target now, or None."""
    v = st.vehicles[plate]
    vdef = st.vehicle_def(plate)
    if v.status != "board":
        return f"the {st.name(plate)} is not on the board"
    w = weapon(vdef, wid)
    if not weapon_ok(st, plate, wid):
        return f"the {w.name} is wrecked"
    if wid == "main":
        if enemy_vehicle_with(st, plate):
            return f"an enemy vehicle shares {v.tile}: the main gun cannot fire (Same Square)"
        if v.shots >= w.rof:
            return f"the {w.name} has fired {v.shots} time{'s' if v.shots != 1 else ''} this phase (ROF {w.rof})"
        if breach_ready(st, plate) is None:
            return f"the {w.name} is not loaded" + (f" (In Breach: {', '.join(v.in_breach)})" if v.in_breach else "")
    why = _valid_target(st, plate, target)
    if why:
        return why
    crew_target = target in st.soldiers and st.soldiers[target].status == "aboard"
    marker_on = st.soldiers[target].vehicle if crew_target else target
    if not marked_by(st, marker_on, plate):
        return f"the {st.name(plate)} has not spotted {st.name(target)} (its own Spotted marker is needed)"
    if not in_weapon_arc(st, plate, wid, target):
        return f"{st.name(target)} is outside the arc of the {w.name}"
    loc = position_of(st, gunner)
    _, _, _, bands = geometry(st, plate, target, w.long, w.short, w.close, loc.optics if loc else 0)
    if not bands:
        return f"{st.name(target)} is out of range of the {w.name}"
    return None


def _mark_panel(st, *plates: int) -> None:
    for p in plates:
        if p in st.vehicles and p not in st.panels:
            st.panels.append(p)


def fire(ctx: Ctx, plate: int, who: int, wid: str, target: int) -> None:
    """A vehicle weapon's SHOOT: the man serving it fires; firing spots the vehicle (general
    marker); the main gun spends the round in the breach and one of its ROF shots."""
    st = ctx.st
    v = st.changing_vehicle(plate)
    vdef = st.vehicle_def(plate)
    w = weapon(vdef, wid)
    gunner = actor(st, plate, who, weapon=wid, what=f"fire the {w.name}")
    problem = fire_problem(st, plate, gunner, wid, target)
    if problem:
        raise RuleError(problem + ".")
    loc = position_of(st, gunner)
    sq, inch, mods, bands = geometry(st, plate, target, w.long, w.short, w.close, loc.optics if loc else 0)
    where = _tile_of(st, target) or st.board.tile_at(target_cell(st, target))  # before he falls
    ammo = None
    if wid == "main":
        rid = breach_ready(st, plate)
        ammo = w.ammo_type(rid)
        v.in_breach = []
        v.shots += 1
    v.spotted = True
    _mark_panel(st, plate, target)
    st.trail.append(TrailMark(kind="shot", serial=plate, path=[vehicle_cell(st, plate), target_cell(st, target)],
                              target=target))
    what = w.name + (f" ({ammo.name})" if ammo else "")
    ctx.say("vfire", f"{st.name(gunner)} fires the {st.name(plate)}'s {what} at {st.name(target)}: {sq} squares, "
            f"{inch}\", SHOOT modifiers {mods:+d}, reading {', '.join(b.capitalize() for b in bands)}.",
            plate=plate, serial=gunner, target=target, weapon=wid, ammo=ammo.id if ammo else None, bands=bands)
    if getattr(w, "tracers", False):
        _tracer(ctx, target)
    _burst(ctx, plate, gunner, wid, ammo.id if ammo else None, target, bands, force=v.force, first=target,
           where=where, checks=0)


def _burst(ctx: Ctx, plate: int, gunner: int, wid: str, ammo_id: str | None, target: int, bands: list[str], *,
           force: str, first: int, where: str, checks: int) -> None:
    """Hit checks at the target until one reads no Hit+. Each check's hits are struck at once (the
    vehicle book resolves a hit before the next check); after a Hit+ the player nominates the same
    target or another one his vehicle has marked within 3\" of it, in the weapon's arc (Damage X:
    the standard Hit+ rule; ruling V24). The round's effect on the first target's tile comes last.
    `force`: whose deck draws the checks and who scores (a taken-over vehicle's finder)."""
    st = ctx.st
    w = weapon(st.vehicle_def(plate), wid)
    ammo = w.ammo_type(ammo_id) if ammo_id else None
    band = best_band(bands)
    while checks < HIT_PLUS_LIMIT:
        checks += 1
        at = target_cell(st, target)  # where he stood when the check was drawn
        cid = check(ctx, force)
        hits, chain, seen = read_hits(st.card(cid), bands, w.hit_plus)
        if target in st.vehicles:
            t = st.vehicles[target]
            shooter_pt = centre_point(st.board, st.vehicles[plate].tile)
            hd = hull_down_against(st, target, shooter_pt)
            pen = (ammo.pen.of(band) if ammo else w.pen.of(band)) - (HULL_DOWN_PROTECTION if hd else 0)
            resolve_vehicle_hit(
                ctx, target, card_id=cid, bands=bands, band=band,
                aspect=aspect(st.board, t.tile, t.facing, shooter_pt),
                turret_aspect=aspect(st.board, t.tile, t.turret, shooter_pt) if t.turret else None,
                pen=pen, blast_checks=ammo.blast.of(band) if ammo else 0, damage_x=w.damage_x,
                heat=bool(ammo and ammo.heat), by_force=force, by_soldier=gunner, cause=f"{w.name}")
            still = st.vehicles[target].status == "board"
        else:
            ctx.say("hit_check", f"Hit check {cid}: {'; '.join(seen)} — {hits} hit{'s' if hits != 1 else ''}"
                    + (", Hit+!" if chain else "."), card=cid, hits=hits, chain=chain)
            _hits_on_man(ctx, target, hits * w.damage_x, by_force=force, by_soldier=gunner, cause=w.name)
            still = _still_there(st, target)
        if not chain or st.vehicles[plate].status != "board" or checks >= HIT_PLUS_LIMIT:
            break
        cands = hit_plus_targets(st, plate, wid, target, at, still)
        if not cands:
            break
        if len(cands) > 1:
            st.pending = HitPlusPending(force=force, shooter=gunner, bands=bands, target=target, hits=0,
                                        candidates=cands, plate=plate, weapon=wid, ammo=ammo_id, first=first,
                                        where=where, checks=checks)
            return
        shifted, target = cands[0] != target, cands[0]
        ctx.say("shift" if shifted else "hit_plus", f"Hit+: the {w.name} "
                f"{'shifts fire to' if shifted else 'fires again at'} {st.name(target)}.", plate=plate, target=target)
    if ammo is not None:
        _area_effects(ctx, plate, gunner, first, ammo, band, where, force)


def hit_plus_targets(st, plate: int, wid: str, target: int, at, still: bool) -> list[int]:
    """After a Hit+: the same target while he is one, or another enemy the vehicle has marked
    within 3\" of where he stood, in the weapon's arc (Use Hit+)."""
    out = [target] if still else []
    others = [p for p, x in sorted(st.vehicles.items()) if x.status == "board"] + sorted(st.soldiers)
    for t in others:
        if t == target or _valid_target(st, plate, t) is not None:
            continue
        crew = t in st.soldiers and st.soldiers[t].status == "aboard"
        if not marked_by(st, st.soldiers[t].vehicle if crew else t, plate) or not in_weapon_arc(st, plate, wid, t):
            continue
        if inches(target_cell(st, t), at) <= HIT_PLUS_SHIFT:
            out.append(t)
    return out


@rulebook.vehicle_hit_plus.fill
def hit_plus(ctx: Ctx, pending: HitPlusPending, choice: int) -> None:
    """The nominated target of a vehicle weapon's Hit+ takes the next hit check."""
    st = ctx.st
    if choice not in pending.candidates:
        raise RuleError("after a Hit+ the next hit check goes to " + ", ".join(
            f"{st.name(c)} ({c})" for c in pending.candidates) + ".")
    st.pending = None
    w = weapon(st.vehicle_def(pending.plate), pending.weapon)
    shifted = choice != pending.target
    ctx.say("shift" if shifted else "hit_plus", f"Hit+: the {w.name} "
            f"{'shifts fire to' if shifted else 'fires again at'} {st.name(choice)}.", plate=pending.plate, target=choice)
    _burst(ctx, pending.plate, pending.shooter, pending.weapon, pending.ammo, choice, pending.bands,
           force=pending.force, first=pending.first, where=pending.where, checks=pending.checks)


def fire_at_square(ctx: Ctx, plate: int, who: int, wid: str, tile: str) -> None:
    """Area fire at a tile the vehicle has sighted (its own Sight marker there): the main gun's
    round in the breach, HE-type (a Blast number), smoke or fire, strikes the whole tile — every
    soldier, exposed man and vehicle there — with no hit check (Sighting Squares; Blast)."""
    st = ctx.st
    v = st.vehicles[plate]
    vdef = st.vehicle_def(plate)
    if wid != "main" or vdef.main_gun is None:
        raise RuleError("only a main gun fires area rounds at a tile.")
    w = vdef.main_gun
    gunner = actor(st, plate, who, weapon=wid, what=f"fire the {w.name}")
    if v.status != "board":
        raise RuleError(f"the {st.name(plate)} is not on the board.")
    if tile not in st.board.origin:
        raise RuleError(f"there is no tile {tile} on this map.")
    if not weapon_ok(st, plate, wid):
        raise RuleError(f"the {w.name} is wrecked.")
    if enemy_vehicle_with(st, plate):
        raise RuleError(f"an enemy vehicle shares {v.tile}: the main gun cannot fire (Same Square).")
    if v.shots >= w.rof:
        raise RuleError(f"the {w.name} has fired {v.shots} time{'s' if v.shots != 1 else ''} this phase (ROF {w.rof}).")
    rid = breach_ready(st, plate)
    if rid is None:
        raise RuleError(f"the {w.name} is not loaded.")
    ammo = w.ammo_type(rid)
    band = None
    if plate not in st.sighted.get(tile, []):
        raise RuleError(f"the {st.name(plate)} has not sighted {tile} (sight it first: `sight {plate} {tile}`).")
    if not tile_in_arc(st.board, v.tile, arc_facing(st, plate, wid) or v.facing, tile):
        raise RuleError(f"{tile} is outside the arc of the {w.name}.")
    a, b = vehicle_cell(st, plate), st.board.tile_centre(tile)
    sq = st.board.squares(a, b, ACTION_SHOOT)
    mods = shoot_mods_for(st, a, b, (position_of(st, gunner).optics if position_of(st, gunner) else 0))
    bands = bands_in_range(w.long, w.short, 0, mods, sq, 10 ** 6)
    if not bands:
        raise RuleError(f"{tile} is out of range of the {w.name} ({sq} squares, SHOOT modifiers {mods:+d}).")
    if not (ammo.blast.of(best_band(bands)) or ammo.smoke or ammo.fire):
        raise RuleError(f"a {ammo.name} round does nothing to a tile: area fire takes HE, smoke or fire rounds.")
    band = best_band(bands)
    v = st.changing_vehicle(plate)
    v.in_breach = []
    v.shots += 1
    v.spotted = True
    _mark_panel(st, plate)
    st.trail.append(TrailMark(kind="shot", serial=plate, path=[a, b]))
    ctx.say("vfire", f"{st.name(gunner)} fires the {st.name(plate)}'s {w.name} ({ammo.name}) into {tile}: {sq} squares.",
            plate=plate, serial=gunner, tile=tile, weapon=wid, ammo=ammo.id)
    _area_effects(ctx, plate, gunner, None, ammo, band, tile, v.force)


def _still_there(st, target: int) -> bool:
    s = st.soldiers[target]
    return s.free or (s.status == "aboard" and exposed_protection(st, target) is not None)


def sniper_protection(st, shooter: int | None, protection: int) -> int:
    """Trained Snipers (optional): a sniper carrying a scope halves the armour protection of
    unbuttoned or on-deck crew (rounded down). Small arms here and close combat
    (engine/battlefield/close_combat.py) both read it."""
    if not protection or shooter is None or not st.setup.scenario.options.trained_snipers:
        return protection
    if shooter not in st.soldiers or st.setup.soldiers[shooter].badge != "sniper":
        return protection
    scopes = [q for q in carried(st, shooter) if q in st.setup.equipment
              and st.setup.equipment[q].kind == "optics" and (st.setup.equipment[q].optics or 0) >= 6]
    return protection // 2 if scopes else protection


def _hits_on_man(ctx: Ctx, target: int, hits: int, *, by_force: str, by_soldier: int | None, cause: str) -> None:
    """Each hit a damage check from the man's own deck; a man aboard has his protection first."""
    st = ctx.st
    s = st.soldiers[target]
    if s.status == "aboard":
        prot = exposed_protection(st, target) or 0
        prot = sniper_protection(st, by_soldier, prot)  # Trained Snipers, optional (issue 9)
        left = protected_hits(hits, prot)
        if prot:
            ctx.say("protection", f"The {st.name(s.vehicle)} shields {st.name(target)}: {hits} hit"
                    f"{'s' if hits != 1 else ''} less {prot} = {left}.", serial=target, hits=left)
        deck = s.controller  # read once: `s` is the man before hurt_aboard makes him the state's own
        for _ in range(left):
            if st.soldiers[target].status != "aboard":
                return
            cid = check(ctx, deck)
            hurt_aboard(ctx, target, st.card(cid).damage, by_force=by_force, by_soldier=by_soldier, cause=cause)
        return
    if st.setup.scenario.roadblocks:  # issue 9: a roadblock's fighting position, -2 hits (engine/vehicles/roadblocks.py)
        hits = protect(ctx, target, hits)
    for _ in range(hits):
        if st.soldiers[target].status != "board":
            return
        result = damage_check(ctx, target)
        apply_damage(ctx, target, result, by_force=by_force, by_soldier=by_soldier, cause=cause)


def _tracer(ctx: Ctx, target: int) -> None:
    """Tracers give everyone who uses general markers the target (Tracers)."""
    st = ctx.st
    if target in st.vehicles:
        st.changing_vehicle(target).spotted = True
    elif st.soldiers[target].status == "board":
        st.changing(target).spotted = True
    else:
        st.changing_vehicle(st.soldiers[target].vehicle).spotted = True
    ctx.say("tracers", f"Tracers mark {st.name(target)} for everyone.", target=target)


def _area_effects(ctx: Ctx, plate: int, gunner: int, target: int, ammo, band: str, tile: str, force: str) -> None:
    """A round's effect on the target's tile: HE blast at soldiers (a blast on a vehicle is its
    hit's), smoke and fire markers; what the blast does scores for `force`."""
    st = ctx.st
    n = ammo.blast.of(band)
    if n and (target is None or target not in st.vehicles):
        blast_square(ctx, tile, n, by_force=force, by_soldier=gunner, cause=ammo.name,
                     what=f"The {ammo.name} round")
    if ammo.smoke and not any(m.tile == tile for m in st.smoke):
        st.smoke.append(SmokeMarker(tile=tile, turn=st.turn))
        ctx.say("smoke", f"Smoke rounds blanket {tile}.", tile=tile)
    if ammo.fire and tile not in st.fires:
        st.fires.append(tile)
        ctx.say("fire", f"The round sets {tile} alight.", tile=tile)


# --------------------------------------------------------------------------- loading


def _loads(vdef) -> tuple:
    """Who loads the main gun (role, weapon): the Loader's position, else whoever serves the gun."""
    return post_for(vdef, ROLE_LOADER, "main")


def loader(st, plate: int, who: int) -> int:
    role, weapon = _loads(st.vehicle_def(plate))
    return actor(st, plate, who, role=role, weapon=weapon, what="load")


def can_load(st, plate: int, who: int) -> bool:
    """Whether loader names a man: the option lists' yes/no, without a refusal's words."""
    role, weapon = _loads(st.vehicle_def(plate))
    return crewman(st, plate, who, role=role, weapon=weapon) is not None


def _at_the_gun(st, plate: int, who: int, verb: str):
    """The vehicle, the state's own (loading changes it), and the man who loads its main gun, or why there is none."""
    vdef = st.vehicle_def(plate)
    if vdef.main_gun is None:
        raise RuleError(f"the {vdef.name} has no gun to {verb}.")
    return st.changing_vehicle(plate), loader(st, plate, who)


def unload(ctx: Ctx, plate: int, who: int) -> None:
    """A loader's SHOOT taking one loading step back, to change rounds (Loading: In Breach -> In
    Hand, then In Hand -> Ready Ammo): a round in hand goes back to the rack; a charge in hand is
    set down, its round staying in the breach; a rammed charge comes out into his hands; a round
    in the breach comes out into them."""
    st = ctx.st
    v, man = _at_the_gun(st, plate, who, "unload")
    if v.in_hand:
        part = v.in_hand.pop()
        if "/" in part:
            what = f"sets the charge for the {part.split('/')[0]} round down"
        else:
            v.ready[part] = v.ready.get(part, 0) + 1
            what = f"puts the {part} round back in the ready rack"
    elif v.in_breach:
        part = v.in_breach.pop()  # the charge behind a two-part round first, then the round
        v.in_hand = [part]
        what = (f"draws the charge of the {part.split('/')[0]} round out of the breach" if "/" in part
                else f"takes the {part} round out of the breach")
    else:
        raise RuleError(f"nothing to take back: {st.name(man)}'s hands and the breach are empty.")
    _mark_panel(st, plate)
    ctx.say("load", f"{st.name(man)} {what} ({st.name(plate)}).", plate=plate, serial=man,
            in_hand=list(v.in_hand), in_breach=list(v.in_breach))


def load(ctx: Ctx, plate: int, who: int, ammo: str | None) -> None:
    """A loader's SHOOT: a named round Ready -> In Hand, or what is In Hand -> In Breach; a two-part
    round goes in, then its charge (Loading; Multi-Part Ammunition). ROF never stops loading."""
    st = ctx.st
    v, man = _at_the_gun(st, plate, who, "load")
    gun = st.vehicle_def(plate).main_gun
    if ammo is not None:
        a = gun.ammo_type(ammo)
        if a is None:
            raise RuleError(f"the {gun.name} fires " + ", ".join(x.id for x in gun.ammo) + f", not {ammo}.")
        if v.in_hand:
            raise RuleError(f"{st.name(man)} has a {v.in_hand[0]} in hand already: load it first.")
        if v.ready.get(ammo, 0) < 1:
            left = ", ".join(f"{k} {n}" for k, n in v.ready.items() if n) or "none"
            raise RuleError(f"no {ammo} rounds left in Ready Ammo ({left}).")
        v.ready[ammo] -= 1
        if not v.ready[ammo]:
            del v.ready[ammo]
        v.in_hand = [ammo]
        what = f"takes a {a.name} round from the ready rack"
    elif v.in_hand:
        part = v.in_hand[0]
        if "/" in part:
            v.in_breach.append(part)
            what = f"rams the charge behind the {part.split('/')[0]} round: the gun is ready"
        else:
            if v.in_breach:
                raise RuleError(f"the breach holds {', '.join(v.in_breach)} already.")
            v.in_breach = [part]
            two = gun.ammo_type(part).parts == 2
            what = f"loads the {part} round" + (" (its charge next)" if two else ": the gun is ready")
        v.in_hand = []
    else:
        rid = v.in_breach[0] if v.in_breach else None
        a = gun.ammo_type(rid) if rid else None
        if a is not None and a.parts == 2 and f"{rid}/charge" not in v.in_breach:
            v.in_hand = [f"{rid}/charge"]
            what = f"picks up the charge for the {rid} round"
        else:
            raise RuleError("nothing to load: name a round from Ready Ammo ("
                            + (", ".join(f"{k} {n}" for k, n in v.ready.items() if n) or "none left") + ").")
    _mark_panel(st, plate)
    ctx.say("load", f"{st.name(man)} {what} ({st.name(plate)}).", plate=plate, serial=man,
            in_hand=list(v.in_hand), in_breach=list(v.in_breach))


# --------------------------------------------------------------------------- small arms and vehicles


def can_shoot_from_aboard(st, serial: int) -> str | None:
    """Who fires his own weapon from a vehicle: tank riders, passengers of an open half-track or
    truck, crewmen at an open hatch; never while pinned (SHOOT; Tank Riders)."""
    s = st.soldiers[serial]
    v = st.vehicles[s.vehicle]
    vdef = st.vehicle_def(s.vehicle)
    if s.pinned:
        return f"{st.name(serial)} is pinned: pinned passengers never shoot"
    if serial in v.riders:
        return None
    if serial in v.passengers:
        return None if vdef.kind in ("halftrack", "truck") or is_open(st, s.vehicle, "cabin") \
            else f"the {vdef.name}'s passengers cannot shoot out"
    if is_open(st, s.vehicle, s.post):
        return None
    return f"{st.name(serial)} is shut inside the {vdef.name}: open the hatch first"


def small_arms_problem(st, shooter: int, target: int) -> str | None:
    return small_arms_shooter_problem(st, shooter) or small_arms_target_problem(st, shooter, target)


def small_arms_shooter_problem(st, shooter: int, known: Known | None = None) -> str | None:
    """Why this man cannot fire his own weapon at anyone now, or None (asked once per man when
    his shots are listed). `known`: the question's remembered answers (contact.Known), when the
    caller has them."""
    me = st.soldiers[shooter]
    if me.status == "aboard":
        return can_shoot_from_aboard(st, shooter)
    if not me.free:
        return f"{st.name(shooter)} is not on the board"
    known = known or Known(st)
    if known.contact(shooter):
        return f"{st.name(shooter)} is in combat contact"
    if known.escorting(shooter):
        return f"{st.name(shooter)} is escorting a prisoner and cannot shoot"
    return None


def small_arms_target_fault(st, shooter: int, target: int) -> str | None:
    """The rule small_arms_target_problem words: the first test a man able to fire fails at this
    target, as a key, or None when he may fire at it. Without the words, so the option lists
    (engine/vehicles/legal.py) may ask it of every target. Its tests of the target alone
    (small_arms_aim_fault: the same for every man of a side), then his arc and range
    (small_arms_reach_fault)."""
    me = st.soldiers[shooter]
    return small_arms_aim_fault(st, me.side, target) or small_arms_reach_fault(st, me, target)


def small_arms_aim_fault(st, side: str, target: int) -> str | None:
    """small_arms_target_fault's tests of the target alone, for a man of `side`: an enemy vehicle
    on the board and spotted, or an enemy soldier on foot spotted, or one aboard a spotted vehicle
    on the board, not shut inside it."""
    if target in st.vehicles:
        t = st.vehicles[target]
        if t.status != "board" or t.side == side:
            return "enemy vehicle"
        if not t.spotted:
            return "unspotted vehicle"
    else:
        t = st.soldiers.get(target)
        if t is None or t.side == side:
            return "enemy"
        if t.status == "aboard":
            if st.vehicles[t.vehicle].status != "board":
                return "board"
            if exposed_protection(st, target) is None:
                return "shut"
            if not st.vehicles[t.vehicle].spotted:
                return "his vehicle unspotted"
        elif not t.free:
            return "board"
        elif not t.spotted:
            return "unspotted"
    return None


def small_arms_reach_fault(st, me, target: int) -> str | None:
    """small_arms_target_fault's tests of the man (a soldier state) against a target that passed
    small_arms_aim_fault: in his arc (on foot) and within his weapon's range."""
    if me.status == "board":
        tile = _tile_of(st, target)
        if not (arc_takes_in(st.board, me.facing, me.at, tile) if tile
                else in_arc(me.facing, me.at, target_cell(st, target))):  # any cell of it will do
            return "arc"
    _, _, _, bands = _small_geometry(st, me.serial, target)
    if not bands:
        return "range"
    return None


def small_arms_target_problem(st, shooter: int, target: int) -> str | None:
    """Why a man able to fire cannot fire at this target, or None (the rule: small_arms_target_fault)."""
    fault = small_arms_target_fault(st, shooter, target)
    if fault is None:
        return None
    if fault == "enemy vehicle":
        return f"{target} is not an enemy vehicle on the board"
    if fault == "enemy":
        return f"{target} is not an enemy soldier"
    if fault == "unspotted vehicle":
        return f"the {st.name(target)} is not spotted"
    if fault == "board":
        return f"{st.name(target)} is not on the board"
    if fault == "shut":
        return f"{st.name(target)} is shut inside his vehicle"
    if fault == "his vehicle unspotted":
        return f"the {st.name(st.soldiers[target].vehicle)} is not spotted"
    if fault == "unspotted":
        return f"{st.name(target)} is not spotted"
    if fault == "arc":
        me = st.soldiers[shooter]
        return f"{st.name(target)} is outside {st.name(shooter)}'s shooting arc (he faces {me.facing.upper()})"
    return f"{st.name(target)} is out of range"


def _small_geometry(st, shooter: int, target: int):
    return geometry(st, shooter, target, current(st, shooter, "long"), current(st, shooter, "short"),
                    current(st, shooter, "close"))


def small_arms(ctx: Ctx, shooter: int, target: int) -> None:
    """A soldier's own weapon where a vehicle is involved: at a vehicle (no penetration of its
    own: only thin armour gives), at a crewman exposed on it (his protection off the hits), or
    fired from aboard at anyone (SHOOT; Protection by Vehicle Armor)."""
    st = ctx.st
    problem = small_arms_problem(st, shooter, target)
    if problem:
        raise RuleError(problem + ".")
    me = st.soldiers[shooter]
    sq, inch, mods, bands = _small_geometry(st, shooter, target)
    if me.status == "board":
        me = st.changing(shooter)
        me.spotted = True
    else:
        st.changing_vehicle(me.vehicle).spotted = True
    ctx.say("shoot", f"{st.name(shooter)} fires at {st.name(target)}: {sq} squares, {inch}\", SHOOT modifiers "
            f"{mods:+d}, reading {', '.join(b.capitalize() for b in bands)}.", serial=shooter, target=target,
            bands=bands)
    st.trail.append(TrailMark(kind="shot", serial=shooter, path=[target_cell(st, shooter), target_cell(st, target)],
                              target=target))
    _mark_panel(st, *(p for p in (me.vehicle, target, getattr(st.soldiers.get(target), "vehicle", None)) if p))
    band = best_band(bands)
    for _ in range(HIT_PLUS_LIMIT):
        cid = check(ctx, me.controller)
        card = st.card(cid)
        hits, chain, seen = read_hits(card, bands, st.stats(shooter).hit_plus)
        if target in st.vehicles:
            t = st.vehicles[target]
            pt = target_cell(st, shooter)
            pt = (pt[0] + 0.5, pt[1] + 0.5)
            hd = hull_down_against(st, target, pt)
            resolve_vehicle_hit(ctx, target, card_id=cid, bands=bands, band=band,
                                aspect=aspect(st.board, t.tile, t.facing, pt),
                                turret_aspect=aspect(st.board, t.tile, t.turret, pt) if t.turret else None,
                                pen=-(HULL_DOWN_PROTECTION if hd else 0), blast_checks=0,
                                by_force=me.controller, by_soldier=shooter, cause="shot")
            still = st.vehicles[target].status == "board"
        else:
            ctx.say("hit_check", f"Hit check {cid}: {'; '.join(seen)} — {hits} hit{'s' if hits != 1 else ''}"
                    + (", Hit+!" if chain else "."), card=cid, hits=hits, chain=chain)
            _hits_on_man(ctx, target, hits, by_force=me.controller, by_soldier=shooter, cause="shot")
            still = _still_there(st, target)
        if not chain or not still:
            break


def involves_vehicle(st, shooter: int, target: int) -> bool:
    """Does this SHOOT need the vehicle rules rather than the core ones?"""
    me, t = st.soldiers.get(shooter), st.soldiers.get(target)
    return target in st.vehicles or (me is not None and me.status == "aboard") or \
        (t is not None and t.status == "aboard")


# --------------------------------------------------------------------------- what its commands do (engine/core/rulebook.py)


@rulebook.performs(C.ShootCmd)
def shoot_command(ctx: Ctx, cmd: C.ShootCmd, src, entry_do) -> None:
    """A man on foot shoots: small arms when a vehicle or a man aboard is shooter or target
    (Hell on Wheels), the core manual's shot otherwise (engine/infantry/shoot.py)."""
    if involves_vehicle(ctx.st, cmd.serial, cmd.target):
        small_arms(ctx, cmd.serial, cmd.target)
    else:
        shoot(ctx, cmd.serial, cmd.target)
