"""Incendiary anti-tank weapons against vehicles (Hell on Wheels, Fire from Incendiary AT Weapons).

A weapon card with `incendiary: true` (a Molotov cocktail, a flamethrower: assets/equipment/
incendiary.yaml) fired with `use S ITEM PLATE` at a vehicle comes here (one hook in
engine/infantry/equipment.py use()). The firer's player pulls a hit check off his deck; only its Blast box
counts: no blast hit, no effect. With one, the damage colour on the target's aspect names the
compartment as for any hit (on a Pick, the firer takes the compartment that burns); the number of
hits is not used. Where the fire starts:

- Turret: the crew in the turret if any hatch of the vehicle is open (or a compartment is
  roofless); otherwise nothing.
- Hull, from the front: the crew in the hull if a hatch is open, otherwise nothing. From the
  rear: the engine. From the side: the target's owner picks one of the two; by default the one
  that does no harm when there is one (buttoned up: nothing), else the engine rather than the men.
- Cabin: the crew and passengers in the cabin.

The damage is always Fire there: on the engine a Fire marker (engine/vehicles/damage.py's fire
rules, V34, take it from there); on the men, as a fire in a square does to a soldier: one blast
hit check each (his own deck, as for a fire with no thrower), each blast hit a damage check
from his own deck, no armour between him and the flames.

Rulings: docs/battlefield.md, "Roadblocks, smoke, incendiaries and optional rules".
"""
from __future__ import annotations

from typing import Literal

from engine.advanced.equipment_use import weapon_problem
from engine.core import rulebook
from engine.core.content import Damage
from engine.core.deck import check
from engine.core.errors import RuleError
from engine.core.formulas import hit_value
from engine.core.line_of_sight import at_of
from engine.core.log import Ctx
from engine.core.state import TrailMark
from engine.core.vehicle_content import Aspect, Compartment
from engine.core.vehicle_geometry import aspect as aspect_of
from engine.infantry.equipment import spend
from engine.vehicles.damage import (
    crew_in,
    damage_machinery,
    hit_location,
    hurt_aboard,
    pick_choices,
)

CREW = "crew"
ENGINE_IDS = ("engine",)


def any_hatch_open(st, plate: int) -> bool:
    """A hatch open anywhere on the vehicle, or a compartment without a roof."""
    return bool(st.vehicles[plate].unbuttoned) or bool(st.vehicle_def(plate).open_top)


def engine_location(vdef) -> str | None:
    """The engine's machinery location (by id, else by name)."""
    for loc in vdef.locations:
        if loc.kind == "machinery" and loc.id in ENGINE_IDS:
            return loc.id
    for loc in vdef.locations:
        if loc.kind == "machinery" and "engine" in loc.name.lower():
            return loc.id
    return None


Side = Literal["front", "rear"]


def owner_side_choice(st, plate: int) -> Side:
    """The owner's default on a hull side hit: the harmless case if there is one, else the engine."""
    return "front" if not any_hatch_open(st, plate) else "rear"


def start_location(st, plate: int, compartment: Compartment, aspect: Aspect, side_choice: Side | None = None
                   ) -> tuple[Compartment, str] | None:
    """Where the fire starts: (compartment, CREW or a machinery location id), or None for no damage."""
    vdef = st.vehicle_def(plate)
    comp = Compartment(compartment)
    if comp == Compartment.TURRET:
        return (comp, CREW) if any_hatch_open(st, plate) else None
    if comp == Compartment.CABIN:
        return (comp, CREW)
    asp = Aspect(aspect)
    if asp == Aspect.SIDE:
        asp = Aspect.FRONT if (side_choice or owner_side_choice(st, plate)) == "front" else Aspect.REAR
    if asp == Aspect.FRONT:
        return (comp, CREW) if any_hatch_open(st, plate) else None
    eng = engine_location(vdef)
    return (comp, eng) if eng is not None else None


def _firer_pick(st, plate: int, aspect: Aspect) -> Compartment:
    """On a Pick the firer takes a compartment where the fire catches: men there first, then the
    engine, else the hull."""
    vdef = st.vehicle_def(plate)
    best = None
    for comp in pick_choices(vdef):
        where = start_location(st, plate, comp, aspect, side_choice="front" if any_hatch_open(st, plate) else "rear")
        if where is None:
            continue
        if where[1] == CREW and crew_in(st, plate, comp):
            return comp
        best = best or comp
    return best or Compartment.HULL


def burn(ctx: Ctx, plate: int, compartment: Compartment, where: str, *, by_force: str | None,
         by_soldier: int | None) -> list[str]:
    """Fire at the starting location: a Fire marker on machinery, or every man in the compartment
    taking one blast hit check as in a burning square. Returns what befell each (or the marker)."""
    st = ctx.st
    if where != CREW:
        return [damage_machinery(ctx, plate, where, Damage.FIRE, by_force=by_force, by_soldier=by_soldier,
                                 cause="fire")]
    men = crew_in(st, plate, Compartment(compartment))
    if not men:
        ctx.say("crew_hit", f"The flames fill the {st.name(plate)}'s {Compartment(compartment).value}, but nobody "
                "is there.", plate=plate, compartment=Compartment(compartment).value)
        return []
    out = []
    for serial in men:
        s = st.soldiers[serial]
        if s.status != "aboard":
            continue
        cid = check(ctx, s.controller)
        hits = hit_value(st.card(cid).hit.blast)[0]
        ctx.say("blast_check", f"Blast check {cid} for {st.name(serial)} in the flames: {st.card(cid).hit.blast}.",
                card=cid, serial=serial, hits=hits)
        outcome = "zip"
        for _ in range(hits):
            if st.soldiers[serial].status != "aboard":
                break
            dcid = check(ctx, s.controller)
            outcome = hurt_aboard(ctx, serial, st.card(dcid).damage, by_force=by_force, by_soldier=by_soldier,
                                  cause="fire")
        out.append(outcome)
    return out


@rulebook.fire_incendiary.fill
def fire_incendiary(ctx: Ctx, serial: int, item: str, target: int, *, hit_pick: Compartment | None = None,
                    side_choice: Side | None = None) -> tuple[Compartment, str] | None:
    """`use S ITEM PLATE` with an incendiary weapon: a SHOOT; firing spots the firer. Returns where
    the fire started (compartment, location), or None for a miss or no damage."""
    st = ctx.st
    problem = weapon_problem(st, serial, item, target)
    if problem:
        raise RuleError(problem)
    if target not in st.vehicles:
        raise RuleError(f"{target} is not a vehicle.")
    eq = st.setup.equipment[item]
    me = st.changing(serial)
    v, vdef = st.vehicles[target], st.vehicle_def(target)
    if hit_pick is not None and hit_pick not in pick_choices(vdef):
        raise RuleError(f"the {vdef.name} has no {hit_pick}.")
    spend(st, serial, item)
    me.spotted = True
    st.trail.append(TrailMark(kind="shot", serial=serial, path=[me.at, at_of(st, target)[0]], target=target))
    if target not in st.panels:
        st.panels.append(target)
    cid = check(ctx, me.controller)
    card = st.card(cid)
    blast = hit_value(card.hit.blast)[0]
    name = st.name(target)
    if blast <= 0:
        ctx.say("weapon_fired", f"{st.name(serial)} fires the {eq.name} at the {name}: hit check {cid}, Blast "
                f"{card.hit.blast} — it misses.", serial=serial, target=target, item=item, card=cid)
        return None
    asp = aspect_of(st.board, v.tile, v.facing, (me.at[0] + 0.5, me.at[1] + 0.5))
    comp = hit_location(vdef, asp, card) or hit_pick or _firer_pick(st, target, asp)
    where = start_location(st, target, comp, asp, side_choice)
    ctx.say("weapon_fired", f"{st.name(serial)} fires the {eq.name} at the {name}: hit check {cid}, Blast "
            f"{card.hit.blast} — it strikes the {comp.value} from the {asp.value}"
            + (": the fire takes hold on the " + ("crew" if where[1] == CREW else vdef.location(where[1]).name)
               if where else ", but finds no way in") + ".",
            serial=serial, target=target, item=item, card=cid, compartment=comp.value, aspect=asp.value,
            location=where[1] if where else None)
    if where is None:
        return None
    burn(ctx, target, where[0], where[1], by_force=me.controller, by_soldier=serial)
    return where
