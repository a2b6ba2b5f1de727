"""Damage to vehicles and guns (Hell on Wheels: Main Gun Hit Checks, Damage Location, Damage
Against the Vehicle, the Crew and the Square, Machinery Damage Types, Protection by Vehicle
Armor). Pure rules: every card comes off a force's deck through engine.core.deck.

How the rest of the engine calls in:
- the shooting code pulls the hit check and works out the geometry, then calls
  `resolve_vehicle_hit` with the hit card, the bands read, the band whose damage-table column
  applies, the hull aspect and the turret's own aspect, the round's penetration and blast checks
  at that band, Damage X and whether the round is HEAT; the rest of the shot happens here;
- at every phase end `fire_at_phase_end` (cook-offs, then spreading fire) for each vehicle;
- at every turn end `check_abandon` for each vehicle (Out of Control Fire);
- at the end of the game `abandoned_vp` (victory);
- crew actions: `fight_fire`, `extinguish_free`, `repair`, `repair_free`;
- moving, shooting and the radio ask `machinery_ok`, `position_ok`, `drive_ok`, `immobilised`
  and `weapon_ok`; small arms against men aboard use `exposed_protection` and `protected_hits`;
- other damage sources use `damage_machinery` and `destroy_vehicle`; mines and artillery
  come through `blast_vehicle` (engine/battlefield/mines.py, engine/battlefield/artillery.py), petrol bombs and
  flamethrowers through engine/battlefield/incendiary.py.

The owner's decisions inside a chain take deterministic defaults; `choose_pick` (a Pick) and
`spread_fire(plan=...)` are the seams for asking the player instead.

A destroyed vehicle's VP go to the opponent at once, like a kill; an abandoned one's at the end
of the game (`abandoned_vp`). Where the book is unclear, the function making the call says what
we decided.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

from engine.core import rulebook
from engine.core.content import ActionCardDef, Damage
from engine.core.crew import is_open
from engine.core.deck import check
from engine.core.errors import RuleError
from engine.core.formulas import hit_value
from engine.core.log import Ctx
from engine.core.state import GameState, VehicleState, VpEntry
from engine.core.vehicle_content import Aspect, Band, Compartment, Location, VehicleDef
from engine.core.vehicle_geometry import footprint
from engine.infantry.blast import blast_tile
from engine.infantry.damage import kill, other_side
from engine.infantry.shoot import read_hits

CREW = "crew"  # the damage tables' word for the compartment's crew
AMMO_DESTROYS = 20  # more extra damage checks than this from ammo destroys the vehicle (Critical Ammo Damage)
UNBUTTONED_CAP = 3  # unbuttoned crew are protected by at most this (Shooting at Unbuttoned Crew)
# Where a panel with Schurzen carries them, as on the Panzer IV H (Schurzen).
SCHURZEN_PLATES = frozenset({(Compartment.HULL, Aspect.SIDE), (Compartment.TURRET, Aspect.SIDE),
                             (Compartment.TURRET, Aspect.REAR)})
SOLDIER_RESULTS = frozenset({Damage.PIN, Damage.WOUND, Damage.KILL})
MACHINERY_RESULTS = frozenset({Damage.WRECK, Damage.FIRE, Damage.CRITICAL})


# --------------------------------------------------------------------------- small readings


def card_total(card: ActionCardDef) -> int:
    """Every box of the card's hit check summed, Blast included, a Hit+ as one (Damage Location)."""
    return sum(hit_value(getattr(card.hit, b))[0] for b in ("long", "short", "close", "blast"))


def compartments(vdef: VehicleDef) -> list[Compartment]:
    return [c for c in Compartment if c in vdef.armour]


def _name(vdef: VehicleDef, where: str | None) -> str:
    if where is None:
        return "nowhere"
    if where == CREW:
        return "crew"
    return vdef.location(where).name


def compartment_of(vdef: VehicleDef, post: str | None) -> Compartment | None:
    """The compartment a man aboard is inside, or None when he is outside it (deck, turret roof,
    a track or engine outside, dismounted)."""
    if post == "cabin":
        return Compartment.CABIN
    if post is None or post in ("deck", "turret"):
        return None
    try:
        loc = vdef.location(post)
    except KeyError:
        return None
    return None if loc.outside else loc.compartment


def aboard(st: GameState, plate: int, *, dismounted: bool = False) -> list[int]:
    """Men of this vehicle, alive and free: inside or on it, or (dismounted=True) beside it too."""
    return sorted(s.serial for s in st.soldiers.values()
                  if s.status == "aboard" and s.vehicle == plate and s.captor is None
                  and (dismounted or not s.dismounted))


def crew_in(st: GameState, plate: int, compartment: Compartment) -> list[int]:
    """Crew and passengers inside one compartment: those an identity check there may hit."""
    vdef = st.vehicle_def(plate)
    return [n for n in aboard(st, plate) if compartment_of(vdef, st.soldiers[n].post) == compartment]


# --------------------------------------------------------------------------- where a shot lands


def hit_location(vdef: VehicleDef, aspect: Aspect, card: ActionCardDef) -> Compartment | None:
    """The compartment hit, by the hit card's damage colour on the aspect (Hit Location); None for
    a Pick (purple), when the shooter's player chooses among `pick_choices`. A colour the panel
    leaves out on that aspect is read as a Pick too."""
    return vdef.colours[Aspect(aspect)].get(card.damage_color)


def pick_choices(vdef: VehicleDef) -> list[Compartment]:
    return compartments(vdef)


def schurzen_cover(vdef: VehicleDef, compartment: Compartment, aspect: Aspect) -> bool:
    return vdef.schurzen and (Compartment(compartment), Aspect(aspect)) in SCHURZEN_PLATES


def armour_at(vdef: VehicleDef, compartment: Compartment, aspect: Aspect, turret_aspect: Aspect | None = None,
              heat: bool = False) -> int:
    """Armour where the shot struck (Penetrating a Vehicle's Armor): a turret hit reads the
    turret's own aspect; Schurzen double it against HEAT (Schurzen)."""
    side = Aspect(turret_aspect) if compartment == Compartment.TURRET and turret_aspect else Aspect(aspect)
    value = vdef.armour[Compartment(compartment)].of(side)
    return value * 2 if heat and schurzen_cover(vdef, compartment, side) else value


def shooter_pick(vdef: VehicleDef, aspect: Aspect, turret_aspect: Aspect | None = None,
                 heat: bool = False) -> Compartment:
    """The shooter's best choice on a Pick hit location: the thinnest armour (Pick)."""
    return min(pick_choices(vdef), key=lambda c: armour_at(vdef, c, aspect, turret_aspect, heat))


def penetration(hits: int, pen: int, blast_hits: int, armour: int) -> int:
    """Hits on the card + the round's penetration + blast hits - armour, at least 0; a card with no
    hits misses whatever the round (Penetrating a Vehicle's Armor)."""
    if hits <= 0:
        return 0
    return max(0, hits + pen + blast_hits - armour)


# --------------------------------------------------------------------------- machinery


def _markers(vs: VehicleState, loc: str) -> list[str]:
    return vs.damage.get(loc, [])


def _mark(vs: VehicleState, loc: str, marker: str) -> None:
    got = vs.damage.setdefault(loc, [])
    if marker not in got:
        got.append(marker)


def _unmark(vs: VehicleState, loc: str, marker: str) -> None:
    got = vs.damage.get(loc)
    if got and marker in got:
        got.remove(marker)
        if not got:
            del vs.damage[loc]


def burning(vs: VehicleState) -> list[str]:
    return sorted(loc for loc, m in vs.damage.items() if "fire" in m)


def machinery_ok(st: GameState, plate: int, location: str) -> bool:
    """A machinery location works only free of every damage marker (The Vehicle/Gun View)."""
    return not _markers(st.vehicles[plate], location)


def position_ok(st: GameState, plate: int, position: str) -> bool:
    """A crew position may be used or entered unless it burns (Fire)."""
    return "fire" not in _markers(st.vehicles[plate], position)


def immobilised(st: GameState, plate: int) -> bool:
    """A Critical on any drive location immobilises the hull for the game (Critical Move Damage)."""
    vs, vdef = st.vehicles[plate], st.vehicle_def(plate)
    return any(loc.drive and "critical" in _markers(vs, loc.id) for loc in vdef.locations)


def drive_ok(st: GameState, plate: int) -> bool:
    """The hull may move: every drive location free of damage (Wreck; Critical Move Damage)."""
    vdef = st.vehicle_def(plate)
    return all(machinery_ok(st, plate, loc.id) for loc in vdef.locations if loc.drive)


def weapon_ok(st: GameState, plate: int, weapon: str) -> bool:
    """'main' or a machine gun id: every machinery location serving it is undamaged (Wreck)."""
    vdef = st.vehicle_def(plate)
    return all(machinery_ok(st, plate, loc.id) for loc in vdef.locations
               if loc.kind == "machinery" and weapon in loc.weapons)


def _rounds(st: GameState, plate: int, loc: Location) -> int:
    """Rounds that go off when an ammo location takes a Critical (Critical Ammo Damage): the
    rounds in Ready Ammo, which are gone afterwards, or the number printed on Spare Ammo."""
    if loc.ammo == "ready":
        vs = st.changing_vehicle(plate)
        n = sum(vs.ready.values())
        vs.ready = {}
        return n
    return loc.spare_rounds if loc.ammo == "spare" else 0


def _gear(ctx: Ctx, plate: int, loc_id: str, result: Damage) -> str:
    """One gear result on a machinery location: 'wreck', 'fire', 'spread', 'critical' or 'zip'.
    Ammo rounds going off are the caller's (they join its chain)."""
    vs = ctx.st.changing_vehicle(plate)
    marks = _markers(vs, loc_id)
    if result == Damage.WRECK:
        if "critical" in marks or "wreck" in marks:
            return "zip"
        _mark(vs, loc_id, "wreck")
        return "wreck"
    if result == Damage.FIRE:
        if "fire" in marks:
            return "spread" if _spread_at_once(ctx, plate, loc_id) else "zip"
        _set_fire(ctx, plate, loc_id, at_phase_end=False, spread=False)
        return "fire"
    if result == Damage.CRITICAL:
        if "critical" in marks:  # never a second Critical on one location (Critical)
            return "zip"
        if loc_id in vs.cook_off:  # the real thing before the cook-off came due
            vs.cook_off.remove(loc_id)
        _unmark(vs, loc_id, "wreck")
        _mark(vs, loc_id, "critical")
        return "critical"
    raise ValueError(f"{result} is not a machinery result")


def damage_machinery(ctx: Ctx, plate: int, location: str, result: Damage, *, by_force: str | None = None,
                     by_soldier: int | None = None, cause: str = "damage") -> str:
    """One damage result on a machinery location outside a shot's chain (mines, artillery, tests).
    A soldier result is a Zip there; a Critical on ammo sets the rounds off."""
    st = ctx.st
    vdef = st.vehicle_def(plate)
    loc = vdef.location(location)
    if result == Damage.PICK:
        raise ValueError("a Pick must be chosen before it is applied")
    effect = _gear(ctx, plate, location, result) if result in MACHINERY_RESULTS else "zip"
    ctx.say("vehicle_damage", f"{st.name(plate)}: {result.value} on the {loc.name}"
            + ("" if effect != "zip" else " (no effect)") + ".", plate=plate, location=location,
            result=result.value, effect=effect)
    if effect == "critical" and loc.ammo:
        detonate(ctx, plate, location, by_force=by_force, by_soldier=by_soldier, cause=cause)
    return effect


# --------------------------------------------------------------------------- the damage chain


@dataclass(frozen=True)
class PickChoice:
    """What the target's player makes of a Pick drawn in the chain (Pick): the result at the
    current location, and the compartment the rest of the chain moves to."""

    result: Damage
    compartment: Compartment


PickChooser = Callable[[GameState, int, Compartment, str], PickChoice]


def owner_pick(st: GameState, plate: int, compartment: Compartment, location: str) -> PickChoice:
    """The owner's best choice (the default): a Zip, moving the chain to the other compartment
    with the fewest men inside (Hull before Turret before Cabin on a tie)."""
    vdef = st.vehicle_def(plate)
    others = [c for c in compartments(vdef) if c != compartment and c in vdef.damage] or [compartment]
    return PickChoice(Damage.ZIP, min(others, key=lambda c: len(crew_in(st, plate, c))))


@dataclass
class DamageStep:
    """One damage check of the chain: the card, where it landed and what it did."""

    card: str
    compartment: Compartment
    location: str | None  # a location id, "crew", or None after a card with all misses
    band: Band
    result: Damage
    effect: str


@dataclass
class CrewHit:
    serial: int | None  # None: nobody of that compartment came up
    compartment: Compartment
    result: Damage
    outcome: str


@dataclass
class Chain:
    """Damage checks pulled from the target's deck, each card's hit box giving the next location
    (Damage Location; Damage Against the Vehicle); crew hits held for identity checks after the
    chain (Damage Against the Crew)."""

    ctx: Ctx
    plate: int
    compartment: Compartment
    by_force: str | None
    by_soldier: int | None
    cause: str
    choose_pick: PickChooser = owner_pick
    ammo_checks: int = 0
    first: str | None = None  # a location the first damage check lands on, whatever the card (mines)
    cards: list[str] = field(default_factory=list)
    steps: list[DamageStep] = field(default_factory=list)
    pending: list[tuple[Damage, Compartment]] = field(default_factory=list)
    crew: list[CrewHit] = field(default_factory=list)
    destroyed: bool = False

    def run(self, start_total: int, band: Band, count: int) -> None:
        """`count` damage checks at `band`, then any ammo rounds set off, at Close (Critical)."""
        st = self.ctx.st
        vdef, deck = st.vehicle_def(self.plate), st.vehicles[self.plate].force
        queue: list[Band] = [band] * count
        total = start_total
        i = 0
        while i < len(queue) and not self.destroyed:
            b = queue[i]
            i += 1
            where = vdef.damage[self.compartment].location(b, total) if total else None
            if self.first is not None:  # an anti-tank mine's first hit: the wheels or tracks (engine/battlefield/mines.py)
                where, self.first = self.first, None
            cid = check(self.ctx, deck)
            card = st.card(cid)
            self.cards.append(cid)
            rounds = self._step(cid, card, where, b)
            if rounds:
                self.ammo_checks += rounds
                if self.ammo_checks > AMMO_DESTROYS:
                    self.ctx.say("ammo_explodes", f"{self.ammo_checks} extra damage checks from exploding ammunition: "
                                 f"the {st.name(self.plate)} blows up.", plate=self.plate)
                    destroy_vehicle(self.ctx, self.plate, by_force=self.by_force, by_soldier=self.by_soldier,
                                    cause=self.cause)
                    self.destroyed = True
                    break
                queue.extend(["close"] * rounds)
            total = card_total(card)
        self._crew_hits()

    def _step(self, cid: str, card: ActionCardDef, where: str | None, band: Band) -> int:
        st = self.ctx.st
        vdef = st.vehicle_def(self.plate)
        comp = self.compartment
        result = card.damage
        rounds = 0
        note = ""
        if where is None:  # the last card's hit box was all misses (Damage Location)
            effect = "zip"
        elif result == Damage.PICK:
            choice = self.choose_pick(st, self.plate, comp, where)
            others = [c for c in vdef.damage if c != comp]
            if choice.result == Damage.PICK or choice.compartment not in (others or [comp]):
                raise RuleError("a Pick becomes another damage result and moves the damage to another compartment.")
            effect, rounds = self._land(where, choice.result)
            self.compartment = choice.compartment
            note = f", taken as {choice.result.value}; the damage moves to the {choice.compartment.value}"
        else:
            effect, rounds = self._land(where, result)
        self.steps.append(DamageStep(cid, comp, where, band, result, effect))
        self.ctx.say("vehicle_damage", f"Damage check {cid} on the {st.name(self.plate)}'s {comp.value} "
                     f"{_name(vdef, where)}: {result.value}{note} — {effect}.", plate=self.plate, card=cid,
                     compartment=comp.value, location=where, result=result.value, effect=effect)
        return rounds

    def _land(self, where: str, result: Damage) -> tuple[str, int]:
        """A soldier result hits crew only, a gear result machinery only; all else is a Zip."""
        st = self.ctx.st
        if where == CREW:
            if result in SOLDIER_RESULTS:
                self.pending.append((result, self.compartment))
                return "crew", 0
            return "zip", 0
        if result not in MACHINERY_RESULTS:
            return "zip", 0
        effect = _gear(self.ctx, self.plate, where, result)
        loc = st.vehicle_def(self.plate).location(where)
        if effect == "critical" and loc.ammo:
            return "critical", _rounds(st, self.plate, loc)
        return effect, 0

    def _crew_hits(self) -> None:
        """Identity checks over the cards already drawn, then fresh ones from the deck, limited to
        the men inside the compartment hit (Damage Against the Crew)."""
        if self.destroyed:
            return
        used: set[int] = set()
        for result, comp in self.pending:
            serial = self._identify(comp, used)
            if serial is None:
                self.ctx.say("crew_hit", f"{result.value} in the {comp.value}, but nobody there is hit.",
                             plate=self.plate, compartment=comp.value)
                self.crew.append(CrewHit(None, comp, result, "nobody"))
                continue
            outcome = hurt_aboard(self.ctx, serial, result, by_force=self.by_force, by_soldier=self.by_soldier,
                                  cause=self.cause)
            self.crew.append(CrewHit(serial, comp, result, outcome))

    def _identify(self, comp: Compartment, used: set[int]) -> int | None:
        st = self.ctx.st
        men = set(crew_in(st, self.plate, comp))
        if not men:
            return None
        for i, cid in enumerate(self.cards):
            if i not in used and st.card(cid).owner in men:
                used.add(i)
                return st.card(cid).owner
        fid = st.vehicles[self.plate].force
        force = st.forces[fid]
        for _ in range(len(force.deck) + len(force.discard)):
            cid = check(self.ctx, fid)
            self.cards.append(cid)
            self.ctx.say("identity_check", f"Identity check {cid} for the {comp.value}.", card=cid, plate=self.plate)
            if st.card(cid).owner in men:
                used.add(len(self.cards) - 1)
                return st.card(cid).owner
        return None


@dataclass
class VehicleHit:
    """What a main-gun (or auto-cannon) shot did to a vehicle."""

    hit: bool
    card: str
    compartment: Compartment | None = None
    hits: int = 0
    blast_hits: int = 0
    armour: int = 0
    penetrating: int = 0
    damage_results: int = 0
    blast_cards: list[str] = field(default_factory=list)
    steps: list[DamageStep] = field(default_factory=list)
    crew: list[CrewHit] = field(default_factory=list)
    ammo_checks: int = 0
    destroyed: bool = False


def resolve_vehicle_hit(ctx: Ctx, plate: int, *, card_id: str, bands: list[str], band: Band, aspect: Aspect,
                        turret_aspect: Aspect | None = None, pen: int, blast_checks: int, damage_x: int = 1,
                        heat: bool = False, by_force: str, by_soldier: int | None = None, cause: str = "main gun",
                        hit_pick: Compartment | None = None, choose_pick: PickChooser = owner_pick) -> VehicleHit:
    """Steps 2 and 3 of a main-gun shot on a vehicle, after the hit check `card_id` (Main Gun Hit
    Checks): hits over `bands`; the compartment by the card's colour on `aspect` (`hit_pick`, or
    the shooter's best, on a Pick); `blast_checks` blast hit checks from the shooter's deck;
    penetration against the armour there, times `damage_x` (Damage X), damage checks from the
    target's deck chained from the card's whole hit box on the `band` column; crew hits; then the
    blast hits strike everyone exposed on the vehicle's tile (Damage Against the Square)."""
    st = ctx.st
    vdef = st.vehicle_def(plate)
    heat = heat and st.setup.scenario.options.schurzen  # optional rule Schurzen off: no doubling (docs/battlefield.md)
    card = st.card(card_id)
    hits, _, seen = read_hits(card, list(bands), False)
    target = st.name(plate)
    if hits == 0:
        ctx.say("vehicle_miss", f"Hit check {card_id} on the {target}: {'; '.join(seen)} — a miss.",
                plate=plate, card=card_id)
        return VehicleHit(hit=False, card=card_id)
    comp = hit_location(vdef, aspect, card)
    if comp is None:
        if hit_pick is not None and hit_pick not in pick_choices(vdef):
            raise RuleError(f"the {vdef.name} has no {hit_pick}; choose " + ", ".join(pick_choices(vdef)) + ".")
        comp = hit_pick or shooter_pick(vdef, aspect, turret_aspect, heat)
    out = VehicleHit(hit=True, card=card_id, compartment=comp, hits=hits)
    for _ in range(blast_checks):
        bid = check(ctx, by_force)
        out.blast_cards.append(bid)
        out.blast_hits += hit_value(st.card(bid).hit.blast)[0]
    out.armour = armour_at(vdef, comp, aspect, turret_aspect, heat)
    out.penetrating = penetration(hits, pen, out.blast_hits, out.armour)
    out.damage_results = out.penetrating * damage_x
    ctx.say("vehicle_hit", f"Hit check {card_id} strikes the {target}'s {comp.value} from the {Aspect(aspect).value}: "
            f"{hits} hit{'s' if hits != 1 else ''} + {pen} penetration + {out.blast_hits} blast − {out.armour} armour"
            f" = {out.penetrating} penetrating" + (f" × {damage_x}" if damage_x > 1 else "")
            + f": {out.damage_results} damage check{'s' if out.damage_results != 1 else ''}.",
            plate=plate, card=card_id, compartment=comp.value, hits=hits, blast=out.blast_hits, armour=out.armour,
            damage=out.damage_results)
    if out.damage_results:
        chain = Chain(ctx, plate, comp, by_force, by_soldier, cause, choose_pick)
        chain.run(card_total(card), band, out.damage_results)
        out.steps, out.crew, out.ammo_checks, out.destroyed = chain.steps, chain.crew, chain.ammo_checks, chain.destroyed
    tile = st.vehicles[plate].tile  # read again: the chain made the vehicle the state's own
    if out.blast_hits and tile:
        blast_square(ctx, tile, out.blast_hits, by_force=by_force, by_soldier=by_soldier, cause=cause,
                     what=f"The blast at the {target}", exclude=plate)
    return out


def detonate(ctx: Ctx, plate: int, location: str, *, by_force: str | None = None, by_soldier: int | None = None,
             cause: str = "ammunition") -> Chain | None:
    """Ammunition going off on its own (a cook-off, or a Critical outside a shot): its rounds as
    damage checks at Close in the ammo's compartment, the first location from a hit check off the
    vehicle's own deck (Critical Ammo Damage). None when it destroys the vehicle."""
    st = ctx.st
    vdef = st.vehicle_def(plate)
    loc = vdef.location(location)
    rounds = _rounds(st, plate, loc)
    ctx.say("ammo_explodes", f"The {loc.name} of the {st.name(plate)} goes off: {rounds} round"
            f"{'s' if rounds != 1 else ''}.", plate=plate, location=location, rounds=rounds)
    if rounds > AMMO_DESTROYS:
        destroy_vehicle(ctx, plate, by_force=by_force, by_soldier=by_soldier, cause=cause)
        return None
    chain = Chain(ctx, plate, loc.compartment, by_force, by_soldier, cause, ammo_checks=rounds)
    if rounds:
        start = check(ctx, st.vehicles[plate].force)
        ctx.say("hit_check", f"Hit check {start} for where the explosion starts.", card=start, plate=plate)
        chain.run(card_total(st.card(start)), "close", rounds)
    return None if chain.destroyed else chain


# --------------------------------------------------------------------------- the men aboard


def crew_protection(vdef: VehicleDef, compartment: Compartment) -> int:
    """Unbuttoned crew: the compartment's lowest armour, at most 3 (Shooting at Unbuttoned Crew)."""
    return min(vdef.armour[Compartment(compartment)].lowest, UNBUTTONED_CAP)


def dismounted_protection(vdef: VehicleDef) -> int:
    """Crew on the deck or an outside location: half, rounded down, of the lowest Turret or Cabin
    armour (Shooting at Dismounted Crew); a vehicle with neither uses its Hull."""
    comps = [c for c in (Compartment.TURRET, Compartment.CABIN) if c in vdef.armour] or compartments(vdef)
    return min(vdef.armour[c].lowest for c in comps) // 2


def protected_hits(hits: int, protection: int) -> int:
    """A hit tally less the protection, never below zero (Protection by Vehicle Armor)."""
    return max(0, hits - protection)


def exposed_protection(st: GameState, serial: int) -> int | None:
    """Protection of a man aboard against small arms and blasts on the square, or None when he is
    shut inside (only a penetrating hit reaches him). Unbuttoned in a fighting position: the crew
    protection; a crewman on the deck or an outside location: the dismounted protection; a tank
    rider, or a crewman standing beside the vehicle: none (Protection by Vehicle Armor; Tank Riders)."""
    s = st.soldiers[serial]
    vs = st.vehicles[s.vehicle]
    vdef = st.vehicle_def(s.vehicle)
    if serial in vs.riders:
        return 0
    if s.post in ("deck", "turret") or (s.post and compartment_of(vdef, s.post) is None):
        return dismounted_protection(vdef)
    if s.dismounted:
        return 0
    if is_open(st, s.vehicle, s.post):
        return crew_protection(vdef, compartment_of(vdef, s.post))
    return None


def hurt_aboard(ctx: Ctx, serial: int, result: Damage, *, by_force: str | None, cause: str,
                by_soldier: int | None = None) -> str:
    """One damage result on a man aboard, as engine.infantry.damage.apply_damage does on foot:
    'zip', 'pinned', 'wounded' or 'killed'."""
    st = ctx.st
    s = st.soldiers[serial]
    name = st.name(serial)
    if result == Damage.PIN:
        st.changing(serial).pinned = True
        ctx.say("pinned", f"{name} is pinned.", serial=serial)
        return "pinned"
    if result == Damage.WOUND and not s.wounded:
        s = st.changing(serial)
        s.wounded = True
        s.deeds["wounds"] = s.deeds.get("wounds", 0) + 1
        ctx.say("wounded", f"{name} is wounded and turns his card to the wounded side.", serial=serial)
        return "wounded"
    if result in (Damage.WOUND, Damage.KILL):
        if result == Damage.WOUND:
            ctx.say("wounded", f"{name} is wounded a second time.", serial=serial)
        kill(ctx, serial, by_force=by_force, by_soldier=by_soldier, cause=cause)
        _leave_vehicle(st, serial)
        return "killed"
    ctx.say("zip", f"Zip: {name} is unhurt.", serial=serial)
    return "zip"


def _leave_vehicle(st: GameState, serial: int) -> None:
    s = st.soldiers[serial]
    vs = st.changing_vehicle(s.vehicle)
    vs.crew = {p: n for p, n in vs.crew.items() if n != serial}
    vs.passengers = [n for n in vs.passengers if n != serial]
    vs.riders = [n for n in vs.riders if n != serial]
    st.changing(serial).post = None


def get_off(ctx: Ctx, plate: int, serial: int) -> None:
    """He gets off into the vehicle's tile, beside it (Mount and Dismount): a passenger or rider as
    a soldier on foot again; a crewman with a Dismounted marker, tied to his vehicle while it
    fights on (`release_crew` frees him when it is lost)."""
    st = ctx.st
    s = st.changing(serial)
    vs = st.vehicles[plate]
    crewman = serial not in vs.passengers and serial not in vs.riders
    tile = vs.tile
    _leave_vehicle(st, serial)
    cell = _beside(st, tile, serial) if tile else None
    if cell is None:  # nowhere to stand: he stays on the hull's outside
        s.dismounted = True
        ctx.say("dismount", f"{st.name(serial)} gets out of the {st.name(plate)}.", serial=serial, plate=plate)
        return
    s.status, s.at, s.spotted_by = "board", cell, []
    if crewman:
        s.dismounted = True
    else:
        s.vehicle = None
    ctx.say("dismount", f"{st.name(serial)} gets off the {st.name(plate)}.", serial=serial, plate=plate,
            at=list(cell))


def _beside(st: GameState, tile: str, serial: int):
    """The free cell of the tile nearest its centre outside the vehicle's middle, else one just
    outside the tile."""
    board = st.board
    fp = footprint(board, tile)
    taken = st.occupied()
    climb = st.stats(serial).climb
    cx, cy = board.tile_centre(tile)
    free = [c for c in board.tile_cells(tile) if c not in fp and c not in taken and board.passable(c, climb)]
    if not free:
        ox, oy = board.origin[tile]
        size = board.tiles[tile].size
        free = [(x, y) for x in range(ox - 2, ox + size + 2) for y in range(oy - 2, oy + size + 2)
                if board.on_board((x, y)) and (x, y) not in taken and board.passable((x, y), climb)]
    if not free:
        return None
    return min(free, key=lambda c: ((c[0] - cx) ** 2 + (c[1] - cy) ** 2, c))


def release_crew(st: GameState, plate: int) -> None:
    """A vehicle lost (destroyed or abandoned): its crewmen standing beside it, or clinging to its
    outside, are soldiers on foot from now on."""
    for s in st.soldiers.values():
        if s.vehicle != plate or s.captor is not None:
            continue
        if s.status == "board" and s.dismounted:
            s = st.changing(s.serial)
            s.dismounted, s.vehicle = False, None
        elif s.status == "aboard" and s.dismounted:
            cell = _beside(st, st.vehicles[plate].tile, s.serial) if st.vehicles[plate].tile else None
            if cell is not None:
                s = st.changing(s.serial)
                s.status, s.at, s.post, s.dismounted, s.vehicle = "board", cell, None, False, None


def blast_square(ctx: Ctx, tile: str, checks: int, *, by_force: str | None, cause: str, what: str,
                 by_soldier: int | None = None, exclude: int | None = None) -> None:
    """Blast hits of a shot strike the whole tile (Damage Against the Square): soldiers on foot as
    any blast, everyone exposed on a vehicle there with his protection, and the other vehicles
    there (`exclude`: the vehicle the shot hit, whose blast hits were part of its penetration)."""
    blast_tile(ctx, tile, checks=checks, by_force=by_force, cause=cause, what=what, by_soldier=by_soldier,
               exclude=exclude)


@rulebook.blast_aboard.fill
def blast_aboard(ctx: Ctx, tile: str, checks: int, *, by_force: str | None, cause: str,
                 by_soldier: int | None = None, exclude: int | None = None) -> None:
    """The vehicles' share of an area blast on their tile (called by engine.infantry.blast.blast_tile):
    each man exposed on a vehicle makes his blast checks, his protection taken off the tally
    (Protection by Vehicle Armor); then each vehicle is struck at its lowest armour (Vehicles and
    Guns in Target Square)."""
    st = ctx.st
    exposed = []
    here = [vs.plate for vs in sorted(st.vehicles.values(), key=lambda v: v.plate)
            if vs.tile == tile and vs.status in ("board", "abandoned")]
    for plate in here:
        exposed += [(n, p) for n in aboard(st, plate, dismounted=True)
                    if (p := exposed_protection(st, n)) is not None]
    for serial, protection in exposed:
        tally = 0
        for _ in range(checks):
            cid = check(ctx, by_force or st.soldiers[serial].controller)
            tally += hit_value(st.card(cid).hit.blast)[0]
        hits = protected_hits(tally, protection)
        ctx.say("blast_check", f"Blast on {st.name(serial)}: {tally} hit{'s' if tally != 1 else ''}, "
                f"protection {protection}: {hits}.", serial=serial, hits=hits)
        for _ in range(hits):
            if st.soldiers[serial].status != "aboard":
                break
            cid = check(ctx, st.soldiers[serial].controller)
            hurt_aboard(ctx, serial, st.card(cid).damage, by_force=by_force, by_soldier=by_soldier, cause=cause)
    for plate in here:
        if plate != exclude and st.vehicles[plate].status == "board":
            blast_vehicle(ctx, plate, checks, by_force=by_force, by_soldier=by_soldier, cause=cause)


def weakest(vdef: VehicleDef) -> tuple[Compartment, int]:
    """The compartment with the lowest armour value anywhere on the vehicle, and that value."""
    comps = compartments(vdef)
    comp = min(comps, key=lambda c: (vdef.armour[c].lowest, comps.index(c)))
    return comp, vdef.armour[comp].lowest


@rulebook.blast_vehicle.fill
def blast_vehicle(ctx: Ctx, plate: int, checks: int, *, by_force: str | None, cause: str,
                  by_soldier: int | None = None, first: str | None = None) -> int:
    """An area blast (artillery, a round's blast on the tile) on a vehicle: its blast hit checks
    summed against the lowest armour on the vehicle; what gets through is damage checks chained
    from that compartment, started by the blast total (Vehicles and Guns in Target Square).
    `first`: a location the first damage check lands on, the chain running in its compartment
    (an anti-tank mine's wheels or tracks, engine/battlefield/mines.py). Returns the penetrating hits."""
    st = ctx.st
    vdef, vs = st.vehicle_def(plate), st.vehicles[plate]
    deck = by_force or vs.force
    tally, cards = 0, []
    for _ in range(checks):
        cid = check(ctx, deck)
        cards.append(cid)
        tally += hit_value(st.card(cid).hit.blast)[0]
    comp, armour = weakest(vdef)
    pen = max(0, tally - armour)
    ctx.say("vehicle_blast", f"The blast on the {st.name(plate)}: {tally} blast hit{'s' if tally != 1 else ''} "
            f"against its lowest armour {armour} ({comp.value}): {pen} damage check{'s' if pen != 1 else ''}.",
            plate=plate, cards=cards, hits=tally, armour=armour, damage=pen)
    if pen:
        if plate not in st.panels:
            st.panels.append(plate)
        if first is not None:  # mines: the chain starts on the location the mine strikes
            comp = vdef.location(first).compartment
        Chain(ctx, plate, comp, by_force, by_soldier, cause, first=first).run(tally, "close", pen)
    return pen


# --------------------------------------------------------------------------- fire


def _links(vdef: VehicleDef) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for p in vdef.fire_paths:
        for a, b in ((p.a, p.b), (p.b, p.a)):
            near = out.setdefault(a, {})
            near[b] = min(near.get(b, p.icons), p.icons)
    return out


def _frontier(links: dict[str, dict[str, int]], lit: frozenset[str]) -> list[tuple[int, str]]:
    """(icons, location) for each location not burning next to one that is, cheapest path each."""
    cost: dict[str, int] = {}
    for a in lit:
        for b, n in links.get(a, {}).items():
            if b not in lit:
                cost[b] = min(cost.get(b, n), n)
    return sorted((n, b) for b, n in cost.items())


def spread_plan(vdef: VehicleDef, lit: set[str] | frozenset[str], intensity: int) -> list[str]:
    """The default spread: the most intensity the fire paths allow is spent (Spreading Fire),
    reaching the cheapest location first, the lowest location id on a tie."""
    links = _links(vdef)

    @cache
    def most(now: frozenset[str], left: int) -> int:
        return max((n + most(now | {b}, left - n) for n, b in _frontier(links, now) if n <= left), default=0)

    now, left, plan = frozenset(lit), intensity, []
    while (goal := most(now, left)) > 0:
        n, b = next((n, b) for n, b in _frontier(links, now) if n <= left and n + most(now | {b}, left - n) == goal)
        plan.append(b)
        now, left = now | {b}, left - n
    return plan


def _spend(vdef: VehicleDef, lit: set[str], plan: list[str]) -> int | None:
    """Intensity a spread plan costs, or None when a step is not next to the fire."""
    links = _links(vdef)
    now, spent = frozenset(lit), 0
    for b in plan:
        cost = {loc: n for n, loc in _frontier(links, now)}.get(b)
        if cost is None:
            return None
        spent += cost
        now = now | {b}
    return spent


def spread_legal(vdef: VehicleDef, lit: set[str], intensity: int, plan: list[str]) -> bool:
    """A plan the owner chose: each step next to the fire, and as much intensity spent as possible."""
    spent = _spend(vdef, lit, plan)
    return spent is not None and spent <= intensity and spent == _spend(vdef, lit, spread_plan(vdef, lit, intensity))


def _set_fire(ctx: Ctx, plate: int, loc_id: str, *, at_phase_end: bool, spread: bool) -> None:
    """A Fire marker on a location; ammo starts to cook off; men standing there are caught when it
    spreads to them (Fire; Spreading Fire)."""
    st = ctx.st
    vs, vdef = st.changing_vehicle(plate), st.vehicle_def(plate)
    _mark(vs, loc_id, "fire")
    loc = vdef.location(loc_id)
    if loc.ammo and "critical" not in _markers(vs, loc_id) and loc_id not in vs.cook_off:
        _start_cook_off(ctx, plate, loc_id, due=at_phase_end)
    if spread:
        ctx.say("fire_spreads", f"Fire spreads to the {loc.name} of the {st.name(plate)}.", plate=plate,
                location=loc_id)
        for serial in aboard(st, plate):
            if st.soldiers[serial].post == loc_id:
                caught_by_fire(ctx, plate, serial)


def _start_cook_off(ctx: Ctx, plate: int, loc_id: str, *, due: bool) -> None:
    """Fire in ammunition: a Critical resolved at the end of the next phase unless the fire is out
    (Spreading Fire). The Critical marker goes on at the phase end that makes it due next, so a
    cook-off with its Critical marker goes off at the coming phase end (see `cook_off`)."""
    vs = ctx.st.changing_vehicle(plate)
    vs.cook_off.append(loc_id)
    if due:
        _mark(vs, loc_id, "critical")
    ctx.say("cook_off", f"The {ctx.st.vehicle_def(plate).location(loc_id).name} of the {ctx.st.name(plate)} "
            "is burning: it will cook off at the end of the next phase unless the fire is put out.",
            plate=plate, location=loc_id)


def _spread_at_once(ctx: Ctx, plate: int, loc_id: str) -> str | None:
    """A second Fire on a location spreads at once to the neighbour fewest fire icons away that is
    not burning yet, the lowest id on a tie (Fire)."""
    vs, vdef = ctx.st.vehicles[plate], ctx.st.vehicle_def(plate)
    lit = set(burning(vs))
    near = [(n, b) for b, n in _links(vdef).get(loc_id, {}).items() if b not in lit]
    if not near:
        return None
    target = min(near)[1]
    _set_fire(ctx, plate, target, at_phase_end=False, spread=True)
    return target


def caught_by_fire(ctx: Ctx, plate: int, serial: int) -> str:
    """A man on a location the fire reaches draws a damage check: a Wound (which wounds him), a
    Zip or a gear result and he gets out of that place; anything else kills him (Spreading Fire)."""
    st = ctx.st
    s = st.soldiers[serial]
    cid = check(ctx, s.controller)
    result = st.card(cid).damage
    ctx.say("damage_check", f"{st.name(serial)} is caught by the fire and draws {cid}: {result.value}.",
            serial=serial, card=cid, result=result.value)
    if result in (Damage.PIN, Damage.KILL):
        hurt_aboard(ctx, serial, Damage.KILL, by_force=None, cause="fire")
        return "killed"
    if result == Damage.WOUND and hurt_aboard(ctx, serial, Damage.WOUND, by_force=None, cause="fire") == "killed":
        return "killed"
    return escape_fire(ctx, plate, serial)


def escape_fire(ctx: Ctx, plate: int, serial: int) -> str:
    """Out of the flames: to a free crew position that is not burning, in his own compartment
    first, else any other; with none free he dismounts (Spreading Fire).
    Returns the new position or 'dismounted'."""
    st = ctx.st
    s, vs, vdef = st.soldiers[serial], st.vehicles[plate], st.vehicle_def(plate)
    here = compartment_of(vdef, s.post)
    taken = {st.soldiers[n].post for n in aboard(st, plate)}
    free = [loc for loc in vdef.crew_positions if loc.id not in taken and position_ok(st, plate, loc.id)]
    free.sort(key=lambda loc: loc.compartment != here)
    if not free:
        get_off(ctx, plate, serial)
        return "dismounted"
    new = free[0]
    vs = st.changing_vehicle(plate)
    vs.crew = {p: n for p, n in vs.crew.items() if n != serial}
    vs.crew[new.id] = serial
    st.changing(serial).post = new.id
    ctx.say("shift", f"{st.name(serial)} escapes the fire to the {new.name} position.", serial=serial,
            plate=plate, post=new.id)
    return new.id


def spread_fire(ctx: Ctx, plate: int, *, intensity: int | None = None, plan: list[str] | None = None) -> list[str]:
    """At a phase end a burning vehicle pulls a hit check off its deck: its hits are the fire's
    intensity, spent one per fire icon from burning to unburnt locations; whatever cannot be spent
    is lost (Spreading Fire). `plan`: the owner's choice, else `spread_plan`."""
    st = ctx.st
    vs, vdef = st.vehicles[plate], st.vehicle_def(plate)
    lit = set(burning(vs))
    if not lit:
        return []
    if intensity is None:
        cid = check(ctx, vs.force)
        intensity = card_total(st.card(cid))
        ctx.say("fire_check", f"The fire in the {st.name(plate)} burns with intensity {intensity} (card {cid}).",
                plate=plate, card=cid, intensity=intensity)
    if plan is None:
        plan = spread_plan(vdef, lit, intensity)
    elif not spread_legal(vdef, lit, intensity, plan):
        raise RuleError(f"the fire must spend as much of its {intensity} intensity as the fire paths allow; "
                        f"for instance {', '.join(spread_plan(vdef, lit, intensity)) or 'nowhere'}.")
    for loc in plan:
        _set_fire(ctx, plate, loc, at_phase_end=True, spread=True)
    return plan


def cook_off(ctx: Ctx, plate: int) -> None:
    """At a phase end: cook-offs carrying their Critical marker go off (Critical Ammo Damage);
    those started during this phase take their marker and go off at the next."""
    st = ctx.st
    for loc in list(st.vehicles[plate].cook_off):
        vs = st.vehicles[plate]  # read again each round: a detonation makes it the state's own
        if vs.status == "destroyed":
            return
        vs = st.changing_vehicle(plate)
        if "critical" in _markers(vs, loc):
            vs.cook_off.remove(loc)
            detonate(ctx, plate, loc, cause="cook-off")
        else:
            _mark(vs, loc, "critical")


def fire_at_phase_end(ctx: Ctx, plate: int) -> None:
    """The vehicle book's phase-end step for one vehicle: cook-offs, then spreading fire."""
    vs = ctx.st.vehicles[plate]
    if vs.status not in ("board", "abandoned"):
        return
    cook_off(ctx, plate)
    if ctx.st.vehicles[plate].status != "destroyed":
        spread_fire(ctx, plate)


def _put_out(ctx: Ctx, plate: int, loc_id: str, leaves: str) -> str:
    """The Fire marker off, and `leaves` ('wreck' or 'critical') in its place; ammo that was
    cooking off is left wrecked instead (Fighting Fire; Spreading Fire). Returns what it left."""
    vs = ctx.st.changing_vehicle(plate)
    _unmark(vs, loc_id, "fire")
    if loc_id in vs.cook_off:
        vs.cook_off.remove(loc_id)
        _unmark(vs, loc_id, "critical")
        leaves = "wreck"
    if "critical" in _markers(vs, loc_id):
        leaves = "critical"
    if leaves == "critical":
        _unmark(vs, loc_id, "wreck")
    _mark(vs, loc_id, leaves)
    ctx.say("fire_out", f"The fire on the {ctx.st.vehicle_def(plate).location(loc_id).name} is out; "
            f"it is left {'wrecked' if leaves == 'wreck' else 'with a Critical'}.", plate=plate, location=loc_id,
            leaves=leaves)
    return leaves


def _crewman(st: GameState, plate: int, serial: int):
    """One of the vehicle's men: aboard it, or a crewman standing beside it (Dismounted)."""
    s = st.soldiers.get(serial)
    here = s is not None and (s.status == "aboard" or (s.status == "board" and s.dismounted))
    if not here or s.vehicle != plate or s.captor is not None:
        raise RuleError(f"{st.name(serial) if s else serial} is not with the {st.name(plate)}.")
    return s


def _on_the_spot(st: GameState, plate: int, serial: int, location: str, what: str) -> None:
    place = st.vehicle_def(plate).place(location)
    if _crewman(st, plate, serial).post != location:
        raise RuleError(f"{st.name(serial)} must first move to the {place.name} to {what}.")


def fight_fire(ctx: Ctx, plate: int, serial: int, location: str) -> str:
    """A crewman on a burning location fights it with a damage check off the vehicle's deck
    (Fighting Fire): a Zip puts it out and leaves a Wreck; a Wound or a Kill hurts him and it
    burns on; anything else puts it out and leaves a Critical. Returns 'wreck', 'critical',
    'wounded' or 'killed'."""
    st = ctx.st
    _on_the_spot(st, plate, serial, location, "fight the fire")
    vs = st.vehicles[plate]
    if "fire" not in _markers(vs, location):
        raise RuleError(f"the {st.vehicle_def(plate).location(location).name} is not burning.")
    cid = check(ctx, vs.force)
    result = st.card(cid).damage
    ctx.say("fight_fire", f"{st.name(serial)} fights the fire: {cid}, {result.value}.", serial=serial, plate=plate,
            card=cid, result=result.value)
    if result in (Damage.WOUND, Damage.KILL):
        return hurt_aboard(ctx, serial, result, by_force=None, cause="fire")
    return _put_out(ctx, plate, location, "wreck" if result == Damage.ZIP else "critical")


def extinguish_free(ctx: Ctx, plate: int, serial: int, location: str) -> None:
    """A card's 'may put out fire' (or an extinguisher): no check, the Fire becomes a Wreck; he
    need only be in the same compartment, or outside for an outside location (Fighting Fire)."""
    st = ctx.st
    vs, vdef = st.vehicles[plate], st.vehicle_def(plate)
    loc = vdef.place(location)
    s = _crewman(st, plate, serial)
    if "fire" not in _markers(vs, location):
        raise RuleError(f"the {loc.name} is not burning.")
    where = compartment_of(vdef, s.post) if not s.dismounted else None
    wanted = None if loc.outside else loc.compartment
    if where != wanted:
        raise RuleError(f"{st.name(serial)} must be " + (f"in the {wanted.value}" if wanted else "outside the vehicle")
                        + f" to put out the fire on the {loc.name}.")
    _put_out(ctx, plate, location, "wreck")


def check_abandon(ctx: Ctx, plate: int) -> bool:
    """At a turn's end: more fires than friendly soldiers inside and everyone gets off; the vehicle
    is abandoned (Out of Control Fire). Its VP go to the opponent at the game's end (`abandoned_vp`)."""
    st = ctx.st
    vs = st.vehicles[plate]
    if vs.status != "board":
        return False
    fires = len(burning(vs))
    men = [n for n in aboard(st, plate) if st.soldiers[n].side == vs.side]
    if fires <= len(men):
        return False
    ctx.say("abandon", f"The fire in the {st.name(plate)} is out of control ({fires} fires, {len(men)} men): "
            "the crew abandons it.", plate=plate)
    for serial in aboard(st, plate):
        get_off(ctx, plate, serial)
    st.changing_vehicle(plate).status = "abandoned"
    release_crew(st, plate)
    return True


# --------------------------------------------------------------------------- repair


def _wrecked(st: GameState, plate: int, location: str) -> None:
    marks = _markers(st.vehicles[plate], location)
    name = st.vehicle_def(plate).location(location).name
    if "fire" in marks:
        raise RuleError(f"the {name} is burning: put the fire out first.")
    if "wreck" not in marks:
        raise RuleError(f"the {name} is not wrecked" + (" (a Critical cannot be repaired)." if marks else "."))


def repair(ctx: Ctx, plate: int, serial: int, location: str) -> bool:
    """A crewman on a wrecked location repairs it when an identity check off the vehicle's deck
    shows his dog tag or the license plate (Repair Wreck). Returns whether it worked."""
    st = ctx.st
    _on_the_spot(st, plate, serial, location, "repair it")
    _wrecked(st, plate, location)
    cid = check(ctx, st.vehicles[plate].force)
    done = st.card(cid).owner in (serial, plate)
    ctx.say("repair", f"{st.name(serial)} works on the {st.vehicle_def(plate).location(location).name}: {cid} — "
            + ("repaired." if done else "not this time."), serial=serial, plate=plate, card=cid, done=done)
    if done:
        _unmark(st.changing_vehicle(plate), location, "wreck")
    return done


def repair_free(ctx: Ctx, plate: int, serial: int, location: str) -> None:
    """A card's repair action (narrator box, team bubble or equipment): no check (Repair Wreck)."""
    st = ctx.st
    _on_the_spot(st, plate, serial, location, "repair it")
    _wrecked(st, plate, location)
    _unmark(st.changing_vehicle(plate), location, "wreck")
    ctx.say("repair", f"{st.name(serial)} repairs the {st.vehicle_def(plate).location(location).name}.",
            serial=serial, plate=plate)


# --------------------------------------------------------------------------- destroyed and abandoned


def destroy_vehicle(ctx: Ctx, plate: int, *, by_force: str | None, cause: str, by_soldier: int | None = None) -> None:
    """Everyone in or riding on it dies; their VP and the vehicle's go to the opposing player
    (Critical Ammo Damage) — to the shooter's player like a kill, to the opposing side when no
    shooter is to blame (a cook-off). Men standing beside it are spared."""
    st = ctx.st
    vs = st.changing_vehicle(plate)
    name = st.name(plate)
    vs.status = "destroyed"
    ctx.say("destroyed", f"The {name} is destroyed.", plate=plate, cause=cause)
    opp = other_side(st, vs.side)
    for serial in aboard(st, plate):
        vp = st.vp_value(serial)
        who = st.name(serial)
        kill(ctx, serial, by_force=by_force, by_soldier=by_soldier, cause=cause)
        _leave_vehicle(st, serial)
        if by_force is None:
            st.vp.append(VpEntry(seat=None, side=opp, amount=vp, reason=f"{who} died in the {name}", serial=serial))
    release_crew(st, plate)
    vp = st.vehicle_def(plate).vp
    killer = st.forces[by_force] if by_force else None
    if killer is not None and killer.side != vs.side:
        st.vp.append(VpEntry(seat=killer.seat, side=killer.side, amount=vp, reason=f"destroyed {name}", serial=plate,
                             by=by_soldier))
        return
    kind = "friendly_fire" if killer is not None else "kill"
    st.vp.append(VpEntry(seat=None, side=opp, amount=vp, reason=f"{name} destroyed", kind=kind, serial=plate,
                         by=by_soldier))
    if killer is not None and killer.seat != st.forces[vs.force].seat:
        st.vp.append(VpEntry(seat=killer.seat, side=killer.side, amount=-vp, reason=f"destroyed friendly {name}",
                             kind="friendly_fire", serial=plate, by=by_soldier))


def abandoned_vp(ctx: Ctx) -> None:
    """At the end of the game each vehicle still abandoned scores its VP for the opposing side
    (called from victory)."""
    st = ctx.st
    for vs in sorted(st.vehicles.values(), key=lambda v: v.plate):
        if vs.status != "abandoned":
            continue
        vp = st.vehicle_def(vs.plate).vp
        opp = other_side(st, vs.side)
        st.vp.append(VpEntry(seat=None, side=opp, amount=vp, reason=f"{st.name(vs.plate)} abandoned", serial=vs.plate))
        ctx.say("abandoned_vp", f"The {st.name(vs.plate)} was abandoned: {vp} VP to {opp}.", plate=vs.plate)
