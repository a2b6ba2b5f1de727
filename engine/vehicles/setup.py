"""Vehicles and guns joining a game (Hell on Wheels, Action Deck; Purchasing Equipment).

Each vehicle is a force of its own: one action deck (its vehicle cards, its team tactics cards
when at least one crewman is trained on it, and every crewman's core and rank cards), one
hand, one initiative, beside its player's infantry squad."""
from __future__ import annotations

from engine.core.content import ActionCardDef, Catalog, VehicleEntry
from engine.core.errors import RuleError
from engine.core.state import SoldierState, VehicleState
from engine.core.vehicle_content import PLATE_STEP, VehicleDef


def type_of_plate(cat: Catalog, plate: int) -> VehicleDef | None:
    """The vehicle type whose plates `plate` is one of (the scheme: engine/core/vehicle_content.py)."""
    return next((v for v in cat.vehicles.values() if v.has_plate(plate)), None)


def plates(cat: Catalog, rolling: list[list[VehicleEntry]]) -> list[list[int]]:
    """Each vehicle's plate in the game, seat by seat in entry order: the plate an entry names
    (a campaign's roster vehicle), else the lowest of its type's plates nobody holds yet."""
    named: dict[int, str] = {}
    for vents in rolling:
        for ve in vents:
            if ve.plate is None:
                continue
            v = cat.vehicles[ve.vehicle]
            if not v.has_plate(ve.plate):
                raise RuleError(f"plate {ve.plate} is not a plate of the {v.name} ({v.plate}, {v.plate + PLATE_STEP}, "
                                f"{v.plate + 2 * PLATE_STEP} ...).")
            if ve.plate in named:
                raise RuleError(f"plate {ve.plate} is given to two vehicles.")
            named[ve.plate] = ve.vehicle
    out = []
    for vents in rolling:
        row = []
        for ve in vents:
            plate = ve.plate
            if plate is None:
                plate = cat.vehicles[ve.vehicle].plate
                while plate in named:
                    plate += PLATE_STEP
                named[plate] = ve.vehicle
            row.append(plate)
        out.append(row)
    return out


def own_cards(cat: Catalog, v: VehicleDef, plate: int) -> dict[str, ActionCardDef]:
    """The vehicle cards and team cards of the vehicle with this plate: the catalogue's for the
    type's own plate, else copies owned by this plate, ids PLATE-Vn and PLATE-Tn as the catalogue's."""
    if plate == v.plate:
        return {c: cat.cards[c] for c in v.cards}
    head = str(v.plate)
    out = {}
    for c in v.cards:
        cid = f"{plate}{c[len(head):]}"
        out[cid] = cat.cards[c].model_copy(update={"id": cid, "owner": plate})
    return out


def trained(cat_soldiers, serial: int, vehicle_id: str) -> bool:
    crew = cat_soldiers[serial].crew
    return crew is not None and crew.vehicle == vehicle_id


def crew_rank(cat: Catalog, ve: VehicleEntry, serial: int):
    return ve.ranks.get(serial, cat.soldiers[serial].ranks[0].rank)


def entry_cost(cat: Catalog, ve: VehicleEntry) -> int:
    """The vehicle's VP, its crew's VP at their ranks and the rounds bought."""
    v = cat.vehicles[ve.vehicle]
    crew = sum(cat.soldiers[s].profile(crew_rank(cat, ve, s)).vp for s in ve.crew.values())
    rounds = sum(n * v.main_gun.ammo_type(a).vp for a, n in ve.ammo.items()) if v.main_gun else 0
    return v.vp + crew + rounds


def check_entry(cat: Catalog, side: str, ve: VehicleEntry, foot: set[int], taken: set[int]) -> None:
    """A vehicle entry a player chose: a real vehicle of his side, crewmen in real positions,
    passengers from his own squad, ammunition it fires and within its limits."""
    v = cat.vehicles.get(ve.vehicle)
    if v is None:
        raise RuleError(f"there is no vehicle {ve.vehicle!r}; there are " + ", ".join(sorted(cat.vehicles)) + ".")
    if v.nationality != side:
        raise RuleError(f"the {v.name} fights for {v.nationality}, not {side}.")
    positions = {loc.id for loc in v.crew_positions}
    if len(set(ve.crew.values())) < len(ve.crew):
        raise RuleError(f"a man sits in two of the {v.name}'s positions.")
    for pos, serial in ve.crew.items():
        if pos not in positions:
            raise RuleError(f"the {v.name} has no position {pos!r}; it has {', '.join(sorted(positions))}.")
        s = cat.soldiers.get(serial)
        if s is None or s.nationality != side:
            raise RuleError(f"dog tag {serial} is not a {side} soldier.")
        if serial in foot or serial in taken:
            raise RuleError(f"{s.name} ({serial}) is picked twice.")
    for serial in ve.passengers:
        if serial not in foot:
            raise RuleError(f"passenger {serial} must be one of your own soldiers on foot.")
    room = v.passengers or v.rider_limit
    if len(ve.passengers) > room:
        raise RuleError(f"the {v.name} carries {room} passengers.")
    for serial, rank in ve.ranks.items():
        if serial not in ve.crew.values():
            raise RuleError(f"dog tag {serial} has a rank here but is not in the {v.name}'s crew.")
        if rank not in {r.rank for r in cat.soldiers[serial].ranks}:
            raise RuleError(f"{cat.soldiers[serial].name} cannot serve as {rank}.")
    for aid, n in ve.ammo.items():
        a = v.main_gun.ammo_type(aid) if v.main_gun else None
        if a is None:
            raise RuleError(f"the {v.name} fires no {aid} rounds.")
        if n > a.max_rounds:
            raise RuleError(f"the {v.name} carries at most {a.max_rounds} {aid} rounds.")
    if ve.in_breach and ve.ammo.get(ve.in_breach, 0) < 1:
        raise RuleError(f"no {ve.in_breach} round was bought to start in the breach.")


STANDARD_ROUNDS = ("HE", "AP")  # Ammo Loadouts: the rounds the limit leaves alone


def other_rounds_vp(cat: Catalog, ve: VehicleEntry) -> int:
    """VP of the main-gun rounds bought other than HE and AP (special and smoke rounds)."""
    v = cat.vehicles[ve.vehicle]
    if v.main_gun is None:
        return 0
    return sum(n * a.vp for aid, n in ve.ammo.items()
               if aid not in STANDARD_ROUNDS and (a := v.main_gun.ammo_type(aid)) is not None)


def check_loadout(cat: Catalog, sc, ve: VehicleEntry) -> None:
    """Optional rule Ammo Loadouts (scenario option `ammo_loadouts`): at most `other_ammo_vp` VP (12
    unless the scenario says otherwise) of main-gun rounds other than HE and AP per vehicle or gun."""
    opts = sc.options
    if not opts.ammo_loadouts:
        return
    spent = other_rounds_vp(cat, ve)
    if spent > opts.other_ammo_vp:
        v = cat.vehicles[ve.vehicle]
        raise RuleError(f"the {v.name} loads {spent} VP of rounds other than HE and AP; this scenario's ammo "
                        f"loadouts allow {opts.other_ammo_vp} VP.")


def deck_for(cat: Catalog, ve: VehicleEntry, plate: int, soldier_cards) -> list[str]:
    """Its own vehicle cards, team tactics cards if a crewman is trained on it, and the crew's cards."""
    v = cat.vehicles[ve.vehicle]
    own = own_cards(cat, v, plate)
    cards = [c for c, d in own.items() if d.role == "vehicle"]
    if any(trained(cat.soldiers, s, v.id) for s in ve.crew.values()):
        cards += [c for c, d in own.items() if d.role == "team"]
    for serial in ve.crew.values():
        cards += soldier_cards(cat.soldiers[serial], crew_rank(cat, ve, serial), ve.medals.get(serial, 0), cat.cards)
    return cards


def build(cat: Catalog, ve: VehicleEntry, plate: int, side: str, fid: str,
          soldiers: dict[int, SoldierState]) -> VehicleState:
    """The vehicle's state, its crew aboard at their posts and its passengers aboard."""
    v = cat.vehicles[ve.vehicle]
    onboard = ve.tile is not None
    rounds = dict(ve.ammo)
    breach = []
    if ve.in_breach:
        rounds[ve.in_breach] -= 1
        a = v.main_gun.ammo_type(ve.in_breach)
        breach = [ve.in_breach] + ([f"{ve.in_breach}/charge"] if a.parts == 2 else [])
    state = VehicleState(
        plate=plate, vehicle=v.id, side=side, force=fid, controller=fid,
        status="board" if onboard else "waiting", tile=ve.tile, facing=ve.facing,
        turret=(ve.turret or ve.facing) if v.has_turret else None, crew=dict(ve.crew),
        ready={a: n for a, n in rounds.items() if n}, in_breach=breach,
        passengers=list(ve.passengers) if v.passengers else [], riders=[] if v.passengers else list(ve.passengers),
        hull_down=ve.hull_down and onboard, mine_load=[list(f) for f in ve.mines])
    for pos, serial in ve.crew.items():
        d = cat.soldiers[serial]
        soldiers[serial] = SoldierState(serial=serial, side=side, force=fid, controller=fid,
                                        rank=crew_rank(cat, ve, serial), medals=ve.medals.get(serial, 0),
                                        status="aboard", vehicle=plate, post=pos, grenades=d.grenades)
    for serial in ve.passengers:
        s = soldiers[serial]
        s.status, s.vehicle, s.at = "aboard", plate, None
        s.post = "cabin" if v.passengers else "deck"
    return state


def preset_vehicles(entries: list[VehicleEntry], index: int, teammates: int) -> list[VehicleEntry]:
    """Teammates share the preset's vehicles in turn, first vehicle to the first teammate."""
    return list(entries[index::teammates])

