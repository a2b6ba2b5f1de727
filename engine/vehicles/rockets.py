"""Anti-tank rockets against vehicles (Hell on Wheels: Hit Location; Penetrating a Vehicle's
Armor; Schürzen): a bazooka or a panzerfaust fired with `use S ITEM PLATE`.

The firer's player pulls one hit check off his deck; as for every man-packed anti-tank weapon
the book details (Fire from Incendiary AT Weapons), its Blast box is the hit: no blast hit, a
miss. A hit strikes the compartment its damage colour names on the aspect the vehicle shows the
firer (a turret hit reads the turret's own aspect; on a Pick the firer takes the thinnest
armour); the rocket's hits plus its penetration, less that armour (doubled by Schürzen, a rocket
being a HEAT round, when the optional rule is on; hull down takes 2 off a shot from the front),
are damage checks chained from there on the Close column, as for every blast hit on a vehicle.
Rulings: docs/advanced.md, "Weapons"."""
from __future__ import annotations

from engine.core import rulebook
from engine.core.deck import check
from engine.core.log import Ctx
from engine.core.vehicle_geometry import aspect
from engine.vehicles.damage import VehicleHit, resolve_vehicle_hit
from engine.vehicles.hide import HULL_DOWN_PROTECTION
from engine.vehicles.shoot import hull_down_against

BANDS = ["blast"]  # the hit check's Blast box is the rocket's hit
CHAIN_BAND = "close"  # blast hits on a vehicle chain their damage on the Close column


@rulebook.rocket_vehicle.fill
def rocket_hit(ctx: Ctx, serial: int, plate: int, penetration: int) -> VehicleHit:
    """One rocket from soldier `serial` at vehicle `plate`: hit check, location, penetration."""
    st = ctx.st
    me, t = st.soldiers[serial], st.vehicles[plate]
    point = (me.at[0] + 0.5, me.at[1] + 0.5)
    hull_down = hull_down_against(st, plate, point)
    return resolve_vehicle_hit(
        ctx, plate, card_id=check(ctx, me.controller), bands=BANDS, band=CHAIN_BAND,
        aspect=aspect(st.board, t.tile, t.facing, point),
        turret_aspect=aspect(st.board, t.tile, t.turret, point) if t.turret else None,
        pen=penetration - (HULL_DOWN_PROTECTION if hull_down else 0), blast_checks=0, heat=True,
        by_force=me.controller, by_soldier=serial, cause="rocket")
