"""Vehicle and gun panels as data (Hell on Wheels, The Vehicle/Gun Panel).

A panel is the vehicle's view (crew fighting positions and machinery locations by
compartment), its charts (movement, sight, visibility, climb, radio, bog, armour, weapons,
ammunition, the damage-location tables and fire paths), its team panel (crew slots,
passengers and riders) and its license plate. Cards of the vehicle's own action deck sit in
the same file. Loaded and checked by engine.core.content.load_catalog like every other asset.
"""
# no `from __future__ import annotations`: pydantic reads these models' types, not strings to compile (docs/architecture.md)

from enum import StrEnum
from functools import cached_property
from typing import Literal

from pydantic import Field, model_validator

from engine.core.errors import RuleError
from engine.core.words import Frozen, Nationality, new_list

Band = Literal["long", "short", "close"]
BANDS: tuple[Band, ...] = ("long", "short", "close")


class Compartment(StrEnum):
    HULL = "hull"
    TURRET = "turret"
    CABIN = "cabin"


class Role(StrEnum):
    """Crew roles (Hell on Wheels, Crew Roles); a Commander may serve in any of them."""

    DRIVER = "driver"
    GUNNER = "gunner"
    LOADER = "loader"
    COMMANDER = "commander"
    RADIO = "radio"
    SPOTTER = "spotter"


# each role as a plain name for the checks asked many times a command (as DO_MOVE beside Do,
# engine/core/content.py: a member read through its enum class passes enum's attribute hook)
ROLE_DRIVER, ROLE_GUNNER, ROLE_LOADER, ROLE_COMMANDER, ROLE_RADIO, ROLE_SPOTTER = (
    Role.DRIVER, Role.GUNNER, Role.LOADER, Role.COMMANDER, Role.RADIO, Role.SPOTTER,
)


class Aspect(StrEnum):
    FRONT = "front"
    SIDE = "side"
    REAR = "rear"


# The four damage colours the panel's view shows around each aspect (Hit Location); a Pick
# (purple) lets the player choose the compartment.
DAMAGE_COLOURS = ("red", "yellow", "blue", "white")


class Location(Frozen):
    """A square on the vehicle view: a crew fighting position or a machinery location."""

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: str
    kind: Literal["crew", "machinery"]
    compartment: Compartment
    role: Role | None = Field(None, description="crew: the role this position serves")
    hatch: bool = Field(False, description="crew: an Unbutton icon (a hatch that opens)")
    optics: int = Field(0, ge=0, le=6, description="crew: ignores LOOK/SHOOT modifiers down to -optics")
    weapons: list[str] = Field(default_factory=new_list, description="crew: weapons served from here")
    outside: bool = Field(False, description="machinery outside the hull (track, wheel, engine, drive train)")
    drive: bool = Field(False, description="machinery whose Critical immobilises (drive train, engine, track ...)")
    ammo: Literal["ready", "spare"] | None = Field(None, description="machinery holding ammunition")
    spare_rounds: int = Field(0, ge=0, description="spare ammo: the damage checks its Critical adds")
    radio: bool = False

    @model_validator(mode="after")
    def _fits(self) -> "Location":
        if self.kind == "crew" and self.role is None:
            raise ValueError("a crew position needs a role")
        if self.kind == "machinery" and (self.role or self.hatch or self.optics):
            raise ValueError("machinery has no role, hatch or optics")
        return self


class FirePath(Frozen):
    """Fire icons between two locations: the intensity a spreading fire spends to cross."""

    a: str
    b: str
    icons: int = Field(ge=1, le=6)


class DamageRow(Frozen):
    """From `hits` total hits on the card (this many or more) the damage lands on `location`."""

    hits: int = Field(ge=0)
    location: str


class DamageTable(Frozen):
    """A compartment's damage-location table: rows by range band, lowest hits first."""

    long: list[DamageRow] = Field(min_length=1)
    short: list[DamageRow] = Field(min_length=1)
    close: list[DamageRow] = Field(min_length=1)

    def location(self, band: Band, hits: int) -> str:
        rows = getattr(self, band)
        pick = rows[0].location
        for r in rows:
            if hits >= r.hits:
                pick = r.location
        return pick


class Armour(Frozen):
    front: int = Field(ge=0)
    side: int = Field(ge=0)
    rear: int = Field(ge=0)

    def of(self, aspect: Aspect | str) -> int:
        return getattr(self, str(aspect))

    @property
    def lowest(self) -> int:
        return min(self.front, self.side, self.rear)


class ByBand(Frozen):
    long: int = 0
    short: int = 0
    close: int = 0

    def of(self, band: Band) -> int:
        return getattr(self, band)


class AmmoType(Frozen):
    id: str = Field(pattern=r"^[A-Z][A-Z0-9]*$", description="AP, HE, HEAT, SMOKE ...")
    name: str
    vp: int = Field(ge=0, description="VP per round")
    max_rounds: int = Field(ge=0)
    pen: ByBand = Field(description="penetration added to the card's hits, by range band")
    blast: ByBand = Field(default_factory=ByBand, description="extra blast hit checks, by range band")
    heat: bool = Field(False, description="Schurzen double the armour against it")
    fire: bool = Field(False, description="places a Fire marker on the target square")
    smoke: bool = False
    parts: int = Field(1, ge=1, le=2, description="2: round and charge loaded separately")


class MainGun(Frozen):
    name: str
    rof: int = Field(ge=1, le=4, description="main-gun SHOOT actions per phase")
    long: int = Field(ge=0, description="long range (squares)")
    short: int = Field(ge=0)
    close: int = Field(ge=0, description="close range (inches)")
    ammo: list[AmmoType] = Field(min_length=1)
    blast_line: bool = Field(False, description="may fire as on-board artillery (engine/battlefield/artillery.py)")
    damage_x: int = Field(1, ge=1, le=5)
    hit_plus: bool = False
    mount: Literal["turret", "hull"] = "turret"

    def ammo_type(self, aid: str) -> AmmoType | None:
        return next((a for a in self.ammo if a.id == aid), None)


class MachineGun(Frozen):
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: str
    mount: Literal["hull", "coax", "aa", "cabin"]
    long: int = Field(ge=0)
    short: int = Field(ge=0)
    close: int = Field(ge=0)
    hit_plus: bool = True
    damage_x: int = Field(1, ge=1, le=5)
    tracers: bool = False
    pen: ByBand = Field(default_factory=ByBand, description="auto-cannons: penetration against armour")


# A plate per vehicle, not per type: the first of a type in a game keeps the catalogue's plate
# (below 1000), each further one adds 1000 (Sherman 601, 1601, 2601), so games with one of a
# type read as before and a plate alone still names its type (engine/vehicles/setup.py plates).
PLATE_STEP = 1000
MAX_PLATE = 999_999  # six digits: the most a command's number takes (engine/core/commands.py MAX_DIGITS)


class VehicleDef(Frozen):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    name: str
    nationality: Nationality
    kind: Literal["tank", "halftrack", "armored_car", "truck", "gun"]
    # below PLATE_STEP: a second vehicle of the type in a game is plate + PLATE_STEP
    plate: int = Field(ge=500, lt=PLATE_STEP, description="license plate: the vehicle's dog tag")
    vp: int = Field(ge=0)
    climb: int = Field(2, ge=1, le=5, description="2 without a turret or cabin, 3 with a turret")
    open_move: int = Field(ge=0, description="squares per MOVE across open ground")
    road_move: int = Field(ge=0, description="squares per MOVE along a road")
    tracked: bool
    sight: int = Field(le=0, description="Sight modifier for buttoned-up crew")
    visibility: int = Field(ge=1, description="multiplies an observer's sight")
    hide: int = Field(description="HIDE value for taking cover")
    radio: int | None = Field(None, ge=1, description="LOOK cards in one turn for radio contact")
    bog_pins: int = Field(ge=1, description="Pin markers per Pin result when it bogs")
    armour: dict[Compartment, Armour]
    colours: dict[Aspect, dict[str, Compartment]] = Field(
        description="damage colour -> compartment hit, for each aspect the hit comes from")
    locations: list[Location] = Field(min_length=1)
    fire_paths: list[FirePath] = Field(default_factory=new_list)
    damage: dict[Compartment, DamageTable]
    main_gun: MainGun | None = None
    mgs: list[MachineGun] = Field(default_factory=new_list)
    passengers: int = Field(0, ge=0, description="team slots in the cabin")
    riders: int | None = Field(None, ge=0, description="tank riders (default: twice the crew in hull and turret)")
    schurzen: bool = False
    smoke_generator: bool = Field(False, description="lays smoke as it moves after popping it (engine/vehicles/smoke.py)")
    mine_load: int = Field(0, ge=0, exclude_if=lambda n: n == 0,
                           description="minefields (two tokens each) its load carries, bought at setup and laid in "
                                       "play as its notes say (engine/battlefield/mines.py)")
    open_top: list[Compartment] = Field(default_factory=new_list,
                                        description="compartments with no roof: everyone in them counts as unbuttoned")
    command: bool = False
    special: list[str] = Field(default_factory=new_list)
    cards: list[str] = Field(default_factory=new_list, description="ids of its vehicle and team action cards")

    @model_validator(mode="after")
    def _consistent(self) -> "VehicleDef":
        ids = [loc.id for loc in self.locations]
        if len(set(ids)) != len(ids):
            raise ValueError("location ids must be unique")
        comps = {loc.compartment for loc in self.locations}
        for c in comps:
            if c not in self.armour:
                raise ValueError(f"compartment {c} has locations but no armour")
            if c not in self.damage:
                raise ValueError(f"compartment {c} has locations but no damage table")
        for c, table in self.damage.items():
            for band in BANDS:
                for row in getattr(table, band):
                    if row.location != "crew" and row.location not in ids:
                        raise ValueError(f"damage table {c}.{band}: unknown location {row.location!r}")
        for aspect in Aspect:
            if aspect not in self.colours:
                raise ValueError(f"no damage colours for the {aspect} aspect")
            for colour, comp in self.colours[aspect].items():
                if colour not in DAMAGE_COLOURS:
                    raise ValueError(f"colour {colour!r} is not one of {DAMAGE_COLOURS}")
                if comp not in self.armour:
                    raise ValueError(f"colour {colour} hits {comp}, which this vehicle does not have")
        for p in self.fire_paths:
            if p.a not in ids or p.b not in ids:
                raise ValueError(f"fire path {p.a}-{p.b}: unknown location")
        weapons = {m.id for m in self.mgs} | ({"main"} if self.main_gun else set())
        for loc in self.locations:
            for w in loc.weapons:
                if w not in weapons:
                    raise ValueError(f"{loc.id} serves unknown weapon {w!r}")
        return self

    def location(self, lid: str) -> Location:
        for loc in self.locations:
            if loc.id == lid:
                return loc
        raise KeyError(lid)

    def place(self, word: str) -> Location:
        """The crew position or machinery location a player named; RuleError naming the word and
        the places there are when the panel has none of that name."""
        for loc in self.locations:
            if loc.id == word:
                return loc
        raise RuleError(f"the {self.name} has no place {word!r} on its panel: "
                        + ", ".join(loc.id for loc in self.locations) + ".")

    def has_plate(self, plate: int) -> bool:
        """Whether `plate` is one the scheme gives a vehicle of this type (its own, + PLATE_STEP ...)."""
        return self.plate <= plate <= MAX_PLATE and (plate - self.plate) % PLATE_STEP == 0

    @cached_property
    def crew_positions(self) -> tuple[Location, ...]:
        """The panel's crew positions in panel order: worked out once (content is frozen, and crew
        checks ask for them many times a command), a tuple so no caller can change them."""
        return tuple(loc for loc in self.locations if loc.kind == "crew")

    @property
    def has_turret(self) -> bool:
        return Compartment.TURRET in self.armour

    @property
    def rider_limit(self) -> int:
        """Tank riders: the panel's number, else twice the crew in hull and turret (Tank Riders)."""
        if self.riders is not None:
            return self.riders
        if self.passengers:
            return self.passengers
        return 2 * sum(1 for loc in self.crew_positions if loc.compartment != Compartment.CABIN)


class CrewTraining(Frozen):
    """A crewman's training: his role, on one type of vehicle or gun (Crew)."""

    role: Role
    vehicle: str = Field(description="the vehicle id he is trained on")
