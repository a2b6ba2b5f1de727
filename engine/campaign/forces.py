"""From rosters to a game: which roster men and vehicles may fight the next step, a player's
pick within the step's budget (or one chosen for him), and the `SeatSpec`s `new_game` takes.

A soldier on foot fights at his roster rank with the medal cards of his medals at that rank
(`ForceEntry.medals`); his player adds grenades and equipment as in any force selection. A
vehicle goes where the scenario fields its type, placed and loaded as the scenario's own
vehicle entry says, with its crew seated by their training (`seat_crew`; docs/campaigns.md,
Crews and vehicles).
"""
from __future__ import annotations

import re
from typing import Literal

from engine.campaign.definition import RANK_ORDER, CampaignDef, StepDef, with_budget
from engine.campaign.honours import medals_in_play
from engine.campaign.roster import (
    SHORT_CREWS,
    STATUS_WORDS,
    CampaignError,
    CampaignState,
    Kind,
    Player,
    RosterEntry,
    Status,
)
from engine.core.content import Catalog, ForceEntry, ScenarioDef, VehicleEntry
from engine.core.errors import RuleError
from engine.core.vehicle_content import PLATE_STEP, Role, VehicleDef
from engine.turn.setup import SeatSpec, budget, check_force, force_cost
from engine.vehicles.setup import entry_cost

PICK_SYNTAX = ("dog tags and plates from your roster, e.g. `101 105 109:g6 107:radio 601:AP6:HE4:gunner=153` "
               "(gN grenades or an equipment id after a man; rounds and seats after a vehicle)")
Trained = Literal["trained", "cross_trained", "untrained"]
ALLOWED: dict[str, tuple[str, ...]] = {  # the short-crews rule -> who may sit where his training is not
    "stay_home": ("trained",),
    "cross_trained": ("trained", "cross_trained"),
    "untrained": ("trained", "cross_trained", "untrained"),
}


def next_step(st: CampaignState, cdef: CampaignDef) -> StepDef:
    if st.status == "finished":
        raise CampaignError("This campaign is over.")
    if st.step is None:
        raise CampaignError(f"The winners ({st.choice.side.value}) first choose where the campaign goes "
                            f"next: {', '.join(st.choice.options)} (`campaign choose`)." if st.choice else
                            "This campaign has no next scenario.")
    return cdef.step(st.step)


def step_scenario(cat: Catalog, step: StepDef) -> ScenarioDef:
    return with_budget(cat.scenario(step.scenario), step.budget)


def eligible(entry: RosterEntry, step: StepDef) -> str | None:
    """Why he may not fight on foot in this step, or None if he may (a crewman may: Crew as
    Soldiers, when he is not in a vehicle's crew)."""
    if entry.kind == Kind.VEHICLE:
        return f"{entry.name} is a vehicle"
    if entry.status != Status.FIT:
        return f"{entry.name} is {STATUS_WORDS[entry.status]}"
    if entry.rank not in step.eligible.ranks:
        return f"{entry.name}'s rank may not take part in this step"
    if len(entry.served) < step.eligible.min_served:
        return f"{entry.name} has fought {len(entry.served)} scenarios, this step takes men with " \
               f"{step.eligible.min_served}"
    return None


def preset_entry(sc: ScenarioDef, side: str, vehicle: str, nth: int = 0) -> VehicleEntry | None:
    """The scenario's own entry for a vehicle type on this side: where it starts, its rounds; for
    the type's second plate (nth 1) its second entry, or its last when it fields fewer."""
    entries = [ve for ve in sc.side(side).vehicles if ve.vehicle == vehicle]
    return entries[min(nth, len(entries) - 1)] if entries else None


def nth_of_type(cat: Catalog, e: RosterEntry) -> int:
    """Which of its type a roster vehicle is by its plate: 0 for the catalogue's, 1 for + 1000 ..."""
    return (e.serial - cat.vehicles[e.vehicle].plate) // PLATE_STEP


def vehicle_eligible(entry: RosterEntry, step: StepDef, sc: ScenarioDef, cat: Catalog) -> str | None:
    """Why a roster vehicle may not go to this step, or None if it may."""
    if entry.status != Status.FIT:
        return f"{entry.name} is {STATUS_WORDS[entry.status]}"
    if step.vehicle_rule(entry.side) == "none":
        return f"{step.title or step.id} is fought without {entry.side.value} vehicles"
    if preset_entry(sc, entry.side, entry.vehicle) is None:
        return f"{sc.name} fields no {cat.vehicles[entry.vehicle].name} for {entry.side.value}"
    return None


def player_budget(st: CampaignState, cdef: CampaignDef, cat: Catalog, p: Player) -> int:
    sc = step_scenario(cat, next_step(st, cdef))
    return budget(sc, p.side, len(st.players), len(st.side_players(p.side)))


# ---------------------------------------------------------------------------- crews


def vital_posts(vdef: VehicleDef) -> list[str]:
    """The seats a vehicle does not go without: the driver's (a gun has none) and the one that
    serves the main gun."""
    posts = []
    if vdef.kind != "gun":
        posts += [loc.id for loc in vdef.crew_positions if loc.role == Role.DRIVER][:1]
    posts += [loc.id for loc in vdef.crew_positions if "main" in loc.weapons][:1]
    return posts


def training_at(cat: Catalog, serial: int, vdef: VehicleDef, post: str) -> Trained:
    """Trained for the seat (his role on this vehicle, or its Commander anywhere), cross-trained
    (this vehicle, another role) or untrained (Hell on Wheels, Crew; Cross-Trained Crew)."""
    t = cat.soldiers[serial].crew
    if t is None or t.vehicle != vdef.id:
        return "untrained"
    return "trained" if t.role in (vdef.location(post).role, Role.COMMANDER) else "cross_trained"


def seat_crew(cat: Catalog, vdef: VehicleDef, crew: list[int], spares: list[int], rule: str,
              fixed: dict[str, int] | None = None) -> tuple[dict[str, int], list[str]]:
    """Seat a vehicle's fit crewmen: each at a seat of his trained role, a Commander in his own
    or any empty one. An empty driver's or gunner's seat is then filled as the campaign's
    short-crews rule allows: by the Commander moving over (always), a crewman of this vehicle
    trained in another role (cross_trained), then one of `spares`, the player's men left over
    (untrained). `fixed` seats the player named himself. Returns (seats, vital seats still empty)."""
    seats = dict(fixed or {})
    free = [s for s in crew if s not in seats.values()]
    allowed = ALLOWED[rule]
    vital = vital_posts(vdef)

    def trained_on(serial: int, role: Role | None = None) -> bool:
        t = cat.soldiers[serial].crew
        return t is not None and t.vehicle == vdef.id and (role is None or t.role == role)

    for loc in vdef.crew_positions:
        man = next((s for s in free if trained_on(s, loc.role)), None)
        if loc.id not in seats and man is not None:
            seats[loc.id] = man
            free.remove(man)
    for serial in [s for s in free if trained_on(s, Role.COMMANDER)]:  # a second commander: any seat
        empty = next((p for p in [*vital, *(loc.id for loc in vdef.crew_positions)] if p not in seats), None)
        if empty is not None:
            seats[empty] = serial
            free.remove(serial)
    for post in vital:
        if post in seats:
            continue
        movable = [p for p, s in seats.items() if p not in vital and p not in (fixed or {})
                   and training_at(cat, s, vdef, post) in allowed]
        commander = next((p for p in movable if trained_on(seats[p], Role.COMMANDER)), None)
        spare = next((s for s in free if trained_on(s) and training_at(cat, s, vdef, post) in allowed), None)
        if commander is not None:  # a Commander serves in any seat
            seats[post] = seats.pop(commander)
        elif spare is not None:
            seats[post] = spare
            free.remove(spare)
        elif movable:
            seats[post] = seats.pop(movable[0])
        elif "untrained" in allowed and spares:
            seats[post] = spares.pop(0)
    order = [loc.id for loc in vdef.crew_positions]
    return dict(sorted(seats.items(), key=lambda kv: order.index(kv[0]))), [p for p in vital if p not in seats]


def crewed(st: CampaignState, cdef: CampaignDef, cat: Catalog, p: Player, e: RosterEntry, taken: set[int], *,
           seats: dict[str, int] | None = None, ammo: dict[str, int] | None = None) -> VehicleEntry:
    """A roster vehicle as a `VehicleEntry` for the next step: its fit crewmen not `taken`
    seated, the player's own `seats` kept, placed where the scenario places its type and loaded
    with `ammo` (default: the scenario's rounds for it). Refused, saying why, if it cannot go."""
    step = next_step(st, cdef)
    sc = step_scenario(cat, step)
    why = vehicle_eligible(e, step, sc, cat)
    if why:
        raise CampaignError(f"{why}, so it cannot go to {step.title or step.id}.")
    vdef = cat.vehicles[e.vehicle]
    for post, serial in (seats or {}).items():
        if post not in {loc.id for loc in vdef.crew_positions}:
            raise CampaignError(f"The {vdef.name} has no seat {post!r}; it has "
                                f"{', '.join(loc.id for loc in vdef.crew_positions)}.")
        man = p.entry(serial)
        if man is None or man.kind == Kind.VEHICLE:
            raise CampaignError(f"Dog tag {serial} is no man on your roster.")
        if serial in taken:
            raise CampaignError(f"{man.name} ({serial}) is picked twice.")
    crew = [s for s in e.crew if s not in taken and p.entry(s) is not None and p.entry(s).status == Status.FIT]
    spares = spare_men(p, taken | set(crew) | set((seats or {}).values()))
    placed, missing = seat_crew(cat, vdef, crew, spares, st_rule(st, cdef), seats)
    if missing:
        raise CampaignError(f"{e.name} ({e.serial}) has nobody for its {' and '.join(missing)} seat"
                            f"{'s' if len(missing) > 1 else ''} under the campaign's short-crews rule "
                            f"({st_rule(st, cdef)}), so it stays home.")
    pre = preset_entry(sc, e.side, e.vehicle, nth_of_type(cat, e))
    rounds = {a: n for a, n in (pre.ammo if ammo is None else ammo).items() if n}
    breach = pre.in_breach if pre.in_breach and rounds.get(pre.in_breach) else None
    men = {serial: p.entry(serial) for serial in placed.values()}
    ranks = {serial: m.rank for serial, m in men.items() if m is not None and m.rank is not None
             and m.rank != cat.soldiers[serial].ranks[0].rank}
    medals = {serial: n for serial, m in men.items() if m is not None
              and (n := medals_in_play(m, cat.soldiers[serial]))}
    # its roster plate, the game's plate too (None for the type's own plate: the game gives it that)
    plate = e.serial if e.serial != vdef.plate else None
    return VehicleEntry(vehicle=e.vehicle, plate=plate, crew=placed, ranks=ranks, medals=medals, ammo=rounds,
                        in_breach=breach, tile=pre.tile, facing=pre.facing, turret=pre.turret,
                        hull_down=pre.hull_down)


def st_rule(st: CampaignState, cdef: CampaignDef) -> str:
    """The short-crews rule in force: the organiser's, else the definition's."""
    return st.short_crews or cdef.short_crews


def spare_men(p: Player, taken: set[int]) -> list[int]:
    """Fit men of the player free to sit in an empty seat untrained: privates before leaders,
    the cheapest first, so the squad loses least."""
    men = [e for e in p.roster if e.kind != Kind.VEHICLE and e.status == Status.FIT and e.serial not in taken
           and e.serial not in {s for v in p.roster if v.kind == Kind.VEHICLE and v.status == Status.FIT
                                for s in v.crew}]
    return [e.serial for e in sorted(men, key=lambda e: (RANK_ORDER.index(e.rank), e.kind != Kind.SOLDIER,
                                                         e.serial))]


# ---------------------------------------------------------------------------- picks


def parse_pick(text: str) -> list[tuple[int, list[str]]]:
    """`"101 109:g6 601:AP4"` -> [(101, []), (109, ["g6"]), (601, ["AP4"])]."""
    out = []
    for word in re.split(r"[\s,;]+", text.strip()):
        if not word:
            continue
        serial, *extras = word.split(":")
        if not serial.isdigit():
            raise CampaignError(f"{word!r}: a pick lists {PICK_SYNTAX}.")
        out.append((int(serial), [x for x in extras if x]))
    if not out:
        raise CampaignError(f"Name at least one soldier or vehicle: {PICK_SYNTAX}.")
    return out


def soldier_extras(extras: list[str]) -> tuple[int | None, list[str]]:
    """`["g6", "radio"]` -> (6, ["radio"])."""
    grenades, equipment = None, []
    for extra in extras:
        if re.fullmatch(r"[gG]\d+", extra):
            grenades = int(extra[1:])
        else:
            equipment.append(extra.lower())
    return grenades, equipment


def vehicle_extras(extras: list[str]) -> tuple[dict[str, int] | None, dict[str, int]]:
    """`["AP6", "HE4", "gunner=153"]` -> ({"AP": 6, "HE": 4}, {"gunner": 153}); no rounds named:
    None (the scenario's)."""
    ammo: dict[str, int] = {}
    seats: dict[str, int] = {}
    for extra in extras:
        if m := re.fullmatch(r"([A-Za-z]+)(\d+)", extra):
            ammo[m[1].upper()] = int(m[2])
        elif m := re.fullmatch(r"([a-z_]+)=(\d+)", extra.lower()):
            seats[m[1]] = int(m[2])
        else:
            raise CampaignError(f"{extra!r}: after a vehicle come rounds (`AP6`) or seats (`gunner=153`).")
    return (ammo or None), seats


def force_entry(entry: RosterEntry, cat: Catalog, grenades: int | None = None,
                equipment: list[str] | None = None) -> ForceEntry:
    return ForceEntry(serial=entry.serial, rank=entry.rank, grenades=grenades,
                      medals=medals_in_play(entry, cat.soldiers[entry.serial]), equipment=equipment or [])


def plate_entry(p: Player, cat: Catalog, ve: VehicleEntry) -> RosterEntry | None:
    """The roster vehicle a game's vehicle entry is: by the plate it names, else its type's own."""
    if ve.plate is not None:
        return p.entry(ve.plate)
    return p.entry(cat.vehicles[ve.vehicle].plate) if ve.vehicle in cat.vehicles else None


def check_pick(st: CampaignState, cdef: CampaignDef, cat: Catalog, p: Player, entries: list[ForceEntry],
               vehicles: list[VehicleEntry] = ()) -> int:
    """Validate a force for the next step; returns its cost. Rank and medals come from the
    roster; vehicles are the player's, fit, where the scenario fields them and seated as the
    short-crews rule allows."""
    step = next_step(st, cdef)
    sc = step_scenario(cat, step)
    if step.eligible.max_soldiers and len(entries) > step.eligible.max_soldiers:
        raise CampaignError(f"This step takes at most {step.eligible.max_soldiers} men on foot per player.")
    for fe in entries:
        e = p.entry(fe.serial)
        if e is None:
            raise CampaignError(f"Dog tag {fe.serial} is not on your roster.")
        why = eligible(e, step)
        if why:
            raise CampaignError(f"{why}, so he cannot fight in {step.title or step.id}.")
        if fe.rank != e.rank or fe.medals != medals_in_play(e, cat.soldiers[e.serial]):
            raise CampaignError(f"{e.name} fights at his roster rank with his own medals.")
    rule = st_rule(st, cdef)
    for ve in vehicles:
        e = plate_entry(p, cat, ve)
        if e is None:
            raise CampaignError(f"The {ve.vehicle} is not on your roster.")
        why = vehicle_eligible(e, step, sc, cat)
        if why:
            raise CampaignError(f"{why}, so it cannot go to {step.title or step.id}.")
        pre = preset_entry(sc, p.side, e.vehicle, nth_of_type(cat, e))
        if (ve.tile, ve.facing, ve.turret, ve.passengers) != (pre.tile, pre.facing, pre.turret, []):
            raise CampaignError(f"{e.name} starts where {sc.name} places the {cat.vehicles[e.vehicle].name}.")
        vdef = cat.vehicles[e.vehicle]
        for post, serial in ve.crew.items():
            man = p.entry(serial)
            if man is None or man.kind == Kind.VEHICLE:
                raise CampaignError(f"Dog tag {serial} in {e.name}'s crew is not a man on your roster.")
            if man.status != Status.FIT:
                raise CampaignError(f"{man.name} is {STATUS_WORDS[man.status]}, so he cannot crew {e.name}.")
            if post in {loc.id for loc in vdef.crew_positions} and \
                    training_at(cat, serial, vdef, post) not in ALLOWED[rule]:
                raise CampaignError(f"{man.name} is {training_at(cat, serial, vdef, post).replace('_', '-')} as "
                                    f"{e.name}'s {post.replace('_', ' ')}; the campaign's short-crews rule "
                                    f"({rule}) does not let him sit there.")
        missing = [post for post in vital_posts(vdef) if post not in ve.crew]
        if missing:
            raise CampaignError(f"{e.name} needs someone in its {' and '.join(missing)} seat to go.")
    if step.vehicle_rule(p.side) == "required":
        going = {plate_entry(p, cat, ve).serial for ve in vehicles}
        crews = {s for ve in vehicles for s in ve.crew.values()} | {fe.serial for fe in entries}
        for e in p.roster:
            if e.kind == Kind.VEHICLE and e.serial not in going and vehicle_eligible(e, step, sc, cat) is None:
                try:
                    crewed(st, cdef, cat, p, e, crews)
                except CampaignError:
                    continue  # it cannot be crewed: it stays home even where vehicles are required
                raise CampaignError(f"{step.title or step.id} requires the {p.side.value} vehicles: "
                                    f"{e.name} ({e.serial}) must go.")
    # the side's preset artillery, barrages and mines go to its first player (new_game's seat
    # purchases): priced in his pick, so a pick that fits here fits when the game starts
    first = st.side_players(p.side)[0].user_id == p.user_id
    side = sc.side(p.side)
    try:
        return check_force(cat, sc, p.side, entries, len(st.players), teammates=len(st.side_players(p.side)),
                           vehicles=list(vehicles), ordnance=side.ordnance if first else [],
                           barrages=side.barrages if first else [], minefields=side.minefields if first else [])
    except RuleError as exc:
        raise CampaignError(str(exc)) from None


def pick(st: CampaignState, cdef: CampaignDef, cat: Catalog, user_id: int, text: str | None
         ) -> tuple[CampaignState, list[ForceEntry], list[VehicleEntry], int]:
    """Set the player's force for the next step (None or "auto": chosen for him at the start).
    Returns the campaign, the men on foot, the vehicles with their crews, and the cost."""
    st = st.model_copy(deep=True)
    p = st.player(user_id)
    if text is None or text.strip().lower() in ("", "auto"):
        p.pick, p.pick_vehicles = None, []
        entries, vehicles = auto_force(st, cdef, cat, p)
    else:
        entries, wanted = [], []
        for serial, extras in parse_pick(text):
            e = p.entry(serial)
            if e is None:
                raise CampaignError(f"Dog tag {serial} is not on your roster.")
            if e.kind == Kind.VEHICLE:
                wanted.append((e, *vehicle_extras(extras)))
            else:
                entries.append(force_entry(e, cat, *soldier_extras(extras)))
        taken = {fe.serial for fe in entries}
        vehicles = []
        for i, (e, ammo, seats) in enumerate(wanted):
            others = {s for j, (_, _, named) in enumerate(wanted) if j != i for s in named.values()}
            ve = crewed(st, cdef, cat, p, e, taken | others, seats=seats, ammo=ammo)
            taken |= set(ve.crew.values())
            vehicles.append(ve)
        p.pick, p.pick_vehicles = entries, vehicles
    return st, entries, vehicles, check_pick(st, cdef, cat, p, entries, vehicles)


def auto_force(st: CampaignState, cdef: CampaignDef, cat: Catalog, p: Player
               ) -> tuple[list[ForceEntry], list[VehicleEntry]]:
    """The force chosen for a player who picked none: first his vehicles that may go, each
    with its crew and the scenario's rounds if it fits the budget; then leaders, then the
    dearest soldiers, then crewmen whose vehicle is gone, each taken if he still fits the
    budget (and the step's head count). A crewman whose vehicle stays home waits with it."""
    step = next_step(st, cdef)
    sc = step_scenario(cat, step)
    limit = player_budget(st, cdef, cat, p)
    vehicles: list[VehicleEntry] = []
    taken: set[int] = set()
    spent = 0
    for e in sorted((e for e in p.roster if e.kind == Kind.VEHICLE), key=lambda e: e.serial):
        try:
            ve = crewed(st, cdef, cat, p, e, taken)
        except CampaignError:
            continue
        if spent + entry_cost(cat, ve) <= limit or step.vehicle_rule(p.side) == "required":
            vehicles.append(ve)
            taken |= set(ve.crew.values())
            spent += entry_cost(cat, ve)
    in_service = {s for v in p.roster if v.kind == Kind.VEHICLE and v.status in (Status.FIT, Status.WORKSHOP)
                  for s in v.crew}
    men = [e for e in p.roster if e.serial not in taken | in_service and eligible(e, step) is None]
    men.sort(key=lambda e: (e.kind != Kind.SOLDIER, -RANK_ORDER.index(e.rank),
                            -cat.soldiers[e.serial].profile(e.rank).vp, e.serial))
    chosen: list[ForceEntry] = []
    for e in men:
        if step.eligible.max_soldiers and len(chosen) >= step.eligible.max_soldiers:
            break
        fe = force_entry(e, cat)
        if spent + force_cost(cat, sc, p.side, [*chosen, fe]) <= limit:
            chosen.append(fe)
    if not chosen and not vehicles:
        raise CampaignError(f"{p.name} has nobody fit to fight {step.title or step.id} within {limit} VP; "
                            "recruits fill open places (`campaign enlist`).")
    return sorted(chosen, key=lambda fe: fe.serial), vehicles


def seat_specs(st: CampaignState, cdef: CampaignDef, cat: Catalog) -> list[tuple[int, SeatSpec]]:
    """The next step's seats, one per player in the order they joined: (user id, SeatSpec with
    his men and vehicles from his roster). Each pick is checked again here, since rosters
    change. A seat always names its vehicles, none too: the scenario's own never join."""
    next_step(st, cdef)
    if st.status != "running":
        raise CampaignError("This campaign has not begun.")
    out = []
    for p in st.players:
        if p.pick is not None:
            entries, vehicles = p.pick, p.pick_vehicles
        else:
            entries, vehicles = auto_force(st, cdef, cat, p)
        check_pick(st, cdef, cat, p, entries, vehicles)
        out.append((p.user_id, SeatSpec(name=p.name, side=p.side, force=entries, vehicles=list(vehicles))))
    return out


def set_short_crews(st: CampaignState, cdef: CampaignDef, rule: str) -> tuple[CampaignState, str]:
    """The organiser's short-crews rule for the rest of the campaign: who fills an empty driver's
    or gunner's seat. Picks with vehicles are cleared, since their crews may no longer stand."""
    rule = rule.strip().lower().replace("-", "_")
    if rule not in SHORT_CREWS:
        raise CampaignError(f"The short-crews rule is one of {', '.join(SHORT_CREWS)}, not {rule!r}.")
    st = st.model_copy(deep=True)
    st.short_crews = None if rule == cdef.short_crews else rule
    for p in st.players:
        if p.pick_vehicles:
            p.pick, p.pick_vehicles = None, []
    return st, f"Short crews: {SHORT_CREW_WORDS[rule]}."


SHORT_CREW_WORDS = {
    "stay_home": "a vehicle without a trained driver and gunner (its Commander may take either seat) stays home",
    "cross_trained": "a crewman trained on the vehicle in another role may take an empty driver's or gunner's "
                     "seat; without one the vehicle stays home",
    "untrained": "a cross-trained crewman, else one of the player's own men, untrained, takes an empty driver's "
                 "or gunner's seat",
}
