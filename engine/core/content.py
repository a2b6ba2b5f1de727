"""Content as data: the pydantic schema of soldiers, action cards, the story deck, orders,
map tiles, equipment and scenarios, and the loader that validates assets/ and campaigns/.

Adding a soldier, a tile or a scenario never needs code. A broken entry fails loading with
a message naming the file, the entry and the field.
"""
# no `from __future__ import annotations`: pydantic reads these models' types, not strings to compile (docs/architecture.md)

import operator
import os
from enum import StrEnum
from functools import cache, cached_property
from importlib.util import find_spec
from pathlib import Path
from typing import Annotated, Literal, Union

from pydantic import Field, ValidationError, field_validator, model_validator

from engine.core.content_cache import ParsedTree
from engine.core.errors import ContentError
from engine.core.vehicle_content import PLATE_STEP, CrewTraining, VehicleDef
from engine.core.words import Frozen, Nationality, new_list

# --------------------------------------------------------------------------- words of the game


class Action(StrEnum):
    LOOK = "look"
    HIDE = "hide"
    MOVE = "move"
    SHOOT = "shoot"


class Do(StrEnum):
    """Sub-actions: what a soldier actually does with an action (core manual, Game Play)."""

    DRAW = "draw"
    SIGHT = "sight"
    COVER = "cover"
    RALLY = "rally"
    HOLD = "hold"
    MOVE = "move"  # walk (includes charging into contact and exiting the board)
    FACE = "face"  # a MOVE spent only to turn
    SHOOT = "shoot"
    TOSS = "toss"
    # vehicles and crews (Hell on Wheels)
    ACQUIRE = "acquire"  # LOOK: the gunner turns turret or hull onto a spotted target
    UNBUTTON = "unbutton"  # LOOK: open a hatch
    BUTTON = "button"  # HIDE: close it
    HULLDOWN = "hulldown"  # HIDE: the vehicle goes hull down
    TURRET = "turret"  # MOVE: turn the turret
    MOUNT = "mount"  # MOVE: climb aboard
    DISMOUNT = "dismount"  # MOVE: get off
    SHIFT = "shift"  # MOVE: a crewman moves to another place on the panel
    REPAIR = "repair"  # MOVE: work on a wrecked location
    EXTINGUISH = "extinguish"  # MOVE: fight a fire
    UNPIN = "unpin"  # MOVE: a vehicle sheds one Pin marker
    LOAD = "load"  # SHOOT: move a round Ready -> In Hand -> In Breach


# Each action and sub-action as a plain name, for the checks asked many times a command: imported
# (`from engine.core.content import DO_MOVE`) it is a global of the module reading it, while a
# member read through its class (Do.MOVE) passes enum's attribute hook, ~0.15 µs a read on Python
# 3.11. The one home of these names (tests/engine/test_crew_answers.py holds them to their members).
ACTION_LOOK, ACTION_HIDE, ACTION_MOVE, ACTION_SHOOT = Action.LOOK, Action.HIDE, Action.MOVE, Action.SHOOT
(DO_DRAW, DO_SIGHT, DO_COVER, DO_RALLY, DO_HOLD, DO_MOVE, DO_FACE, DO_SHOOT, DO_TOSS, DO_ACQUIRE, DO_UNBUTTON,
 DO_BUTTON, DO_HULLDOWN, DO_TURRET, DO_MOUNT, DO_DISMOUNT, DO_SHIFT, DO_REPAIR, DO_EXTINGUISH, DO_UNPIN, DO_LOAD) = (
    Do.DRAW, Do.SIGHT, Do.COVER, Do.RALLY, Do.HOLD, Do.MOVE, Do.FACE, Do.SHOOT, Do.TOSS, Do.ACQUIRE, Do.UNBUTTON,
    Do.BUTTON, Do.HULLDOWN, Do.TURRET, Do.MOUNT, Do.DISMOUNT, Do.SHIFT, Do.REPAIR, Do.EXTINGUISH, Do.UNPIN, Do.LOAD,
)


ACTION_OF: dict[Do, Action] = {
    Do.DRAW: Action.LOOK,
    Do.SIGHT: Action.LOOK,
    Do.COVER: Action.HIDE,
    Do.RALLY: Action.HIDE,
    Do.HOLD: Action.HIDE,
    Do.MOVE: Action.MOVE,
    Do.FACE: Action.MOVE,
    Do.SHOOT: Action.SHOOT,
    Do.TOSS: Action.SHOOT,
    Do.ACQUIRE: Action.LOOK,
    Do.UNBUTTON: Action.LOOK,
    Do.BUTTON: Action.HIDE,
    Do.HULLDOWN: Action.HIDE,
    Do.TURRET: Action.MOVE,
    Do.MOUNT: Action.MOVE,
    Do.DISMOUNT: Action.MOVE,
    Do.SHIFT: Action.MOVE,
    Do.REPAIR: Action.MOVE,
    Do.EXTINGUISH: Action.MOVE,
    Do.UNPIN: Action.MOVE,
    Do.LOAD: Action.SHOOT,
}


def subactions(action: Action) -> tuple[Do, ...]:
    return tuple(d for d, a in ACTION_OF.items() if a == action)


class Rank(StrEnum):
    PRIVATE = "private"
    JUNIOR_NCO = "junior_nco"
    SENIOR_NCO = "senior_nco"


class Category(StrEnum):
    """Event box categories on phase cards (core manual, Random Events)."""

    WEATHER = "Weather"
    ORDNANCE = "Ordnance"
    LANDMARK = "Landmark"
    TERRAIN = "Terrain"
    WEIRD = "Weird"
    REINFORCEMENT = "Reinforcement"


class Damage(StrEnum):
    ZIP = "Zip"
    PIN = "Pin"
    WOUND = "Wound"
    KILL = "Kill"
    # gear results, on vehicle cards: they damage machinery and are a Zip against a soldier
    WRECK = "Wreck"
    FIRE = "Fire"
    CRITICAL = "Critical"
    PICK = "Pick"


GEAR = frozenset({Damage.WRECK, Damage.FIRE, Damage.CRITICAL, Damage.PICK})

# The colour of each damage result on an action card; the vehicle book reads hit locations by
# it (a Wreck is blue like a Pin; a Pick is purple and lets the drawer choose).
DAMAGE_COLOR: dict[Damage, str] = {
    Damage.ZIP: "white",
    Damage.PIN: "blue",
    Damage.WOUND: "yellow",
    Damage.KILL: "red",
    Damage.WRECK: "blue",
    Damage.FIRE: "red",
    Damage.CRITICAL: "yellow",
    Damage.PICK: "purple",
}

HIT_RESULTS = ("Miss", "Hit", "Hit+", "2 Hits", "3 Hits", "4 Hits")


# --------------------------------------------------------------------------- soldiers


class Stats(Frozen):
    """One side (healthy or wounded) of a soldier card: the LOOK, HIDE, MOVE and SHOOT boxes."""

    sight: int = Field(ge=0, description="LOOK: sight range in squares")
    draw: int = Field(0, ge=0, description="LOOK: extra cards drawn each turn")
    command: int = Field(0, ge=0, le=3, description="LOOK: an officer's Command value (extra cards a turn)")
    cover: int = Field(description="HIDE: cover value; below zero after modifiers hides him")
    rally: int = Field(0, ge=0, description="HIDE: soldiers he may rally with his dog tag")
    hold: int = Field(0, ge=0, description="HIDE: cards he may hold")
    medic: int = Field(0, ge=0, le=5, description="HIDE: a medic's identity checks to save a dying man")
    walk: int = Field(ge=0, description="MOVE: inches")
    climb: int = Field(1, ge=0, description="MOVE: highest terrain level he can enter")
    fight: int = Field(ge=0, description="MOVE: fight cards drawn")
    long: int = Field(ge=0, description="SHOOT: long range in squares")
    short: int = Field(ge=0, description="SHOOT: short range in squares")
    close: int = Field(ge=0, description="SHOOT: close range in inches")
    toss: int = Field(0, ge=0, description="SHOOT: grenade toss range in inches")
    hit_plus: bool = Field(False, description="SHOOT: Use Hit+ (automatic weapon)")


class RankProfile(Frozen):
    rank: Rank
    title: str = Field(min_length=1, description="rank abbreviation printed before the name")
    vp: int = Field(ge=0)
    healthy: Stats
    wounded: Stats
    cards: list[str] = Field(min_length=3, max_length=3, description="ids of the three rank cards")


class SoldierDef(Frozen):
    serial: int = Field(ge=1, description="dog tag serial")
    crew: CrewTraining | None = Field(None, description="a crewman's training (role and vehicle)")
    name: str = Field(min_length=1)
    nationality: Nationality
    weapon: str = ""
    grenades: int = Field(0, ge=0, description="grenades carried by default")
    ranks: list[RankProfile] = Field(min_length=1, max_length=3)
    core_cards: list[str] = Field(min_length=4, max_length=4)
    medal_cards: list[str] = Field(default_factory=new_list, description="medal variants, replacing core cards in order")
    # Advanced rules (core manual, Specialists and Officers): a specialist's rank profile holds his
    # three badge action cards; his optional cards (react, preempt, command), story cards and
    # specialist equipment are offered to the player at force selection.
    badge: str | None = Field(None, description="training badge: scout, sniper, medic, officer, ...")
    special_cards: list[str] = Field(default_factory=new_list, description="his optional react/preempt/command cards")
    story: list[str] = Field(default_factory=new_list, description="his story cards (join the story deck if chosen)")
    kit: list[str] = Field(default_factory=new_list, description="his specialist equipment (equipment ids)")

    @property
    def is_leader(self) -> bool:
        return len(self.ranks) > 1

    def profile(self, rank: Rank | str) -> RankProfile:
        for p in self.ranks:
            if p.rank == rank:
                return p
        raise KeyError(f"{self.name} has no {rank} card")


# --------------------------------------------------------------------------- action cards


def soldier_cards(d: SoldierDef, rank: Rank | str, medals: int, cards: "dict[str, ActionCardDef]") -> list[str]:
    """His four core cards, each medal earned swapping in the enhanced card that replaces one of
    them (Medals and Badges), and his three rank cards."""
    core = list(d.core_cards)
    for mid in d.medal_cards[:medals]:
        core[core.index(cards[mid].replaces)] = mid
    return core + list(d.profile(rank).cards)


class HitBox(Frozen):
    long: str
    short: str
    close: str
    blast: str

    @field_validator("long", "short", "close", "blast")
    @classmethod
    def _known(cls, v: str) -> str:
        if v not in HIT_RESULTS:
            raise ValueError(f"hit check result must be one of {', '.join(HIT_RESULTS)}")
        return v


class TeamEntry(Frozen):
    """'N soldiers DO' in a team bubble; 'crew' entries only trained crewmen may take, and
    'vehicle' entries are the vehicle's own (its hull, turret or weapons)."""

    count: int = Field(ge=1, le=8)
    do: Do
    who: Literal["soldier", "crew", "vehicle", "team"] = Field(
        "soldier", description="'team': every soldier on the card's team panel (count is ignored)")


NarratorKind = Literal[
    # white (may) and blue (must): the named soldier takes this sub-action
    "draw", "sight", "cover", "rally", "hold", "move", "shoot", "toss", "repair", "extinguish", "load",
    # blue only, automatic effects on the named soldier
    "spotted", "draw_cards",
    # red only: costs and conditions; unmet, the whole card is cancelled
    "discard", "unpinned", "unspotted", "in_cover", "healthy",
]
NARRATOR_ACTIONS = {"draw", "sight", "cover", "rally", "hold", "move", "shoot", "toss", "repair", "extinguish",
                    "load"}
NARRATOR_AUTOMATIC = {"spotted", "draw_cards"}
NARRATOR_CONDITIONS = {"discard", "unpinned", "unspotted", "in_cover", "healthy"}


class Narrator(Frozen):
    color: Literal["white", "blue", "red"]
    kind: NarratorKind
    count: int = Field(1, ge=1, le=5)
    text: str = ""

    @model_validator(mode="after")
    def _colour_fits(self) -> "Narrator":
        if self.color == "red" and self.kind not in NARRATOR_CONDITIONS:
            raise ValueError(f"a red narrator box is a cost or condition, one of {sorted(NARRATOR_CONDITIONS)}")
        if self.color != "red" and self.kind in NARRATOR_CONDITIONS:
            raise ValueError(f"{self.kind!r} is a cost or condition and needs a red box")
        if self.color == "white" and self.kind in NARRATOR_AUTOMATIC:
            raise ValueError(f"{self.kind!r} is an automatic effect and needs a blue box")
        return self


class PreemptBox(Frozen):
    """A preempt card (core manual, Preempt Cards): played after an opponent's card is revealed,
    if that card carries `requires`; the preempting player picks up to `count` enemy soldiers who
    must take the card's team-bubble actions first, then one of his own soldiers may `then`."""

    requires: Action
    count: int = Field(ge=1, le=6)
    then: Do | None = Field(None, description="e.g. shoot: one of ours shoots at the men just made to act")


class IdentityBox(Frozen):
    """A command card's mandatory narrator box: draw `draws` cards for identity checks; the owner of
    each soldier card drawn may take one of `actions` (team cards drawn do not count)."""

    draws: int = Field(3, ge=1, le=5)
    actions: list[Action] = Field(min_length=1, max_length=4)


class ActionCardDef(Frozen):
    id: str
    owner: int = Field(description="dog tag serial of the soldier who owns the card; 0: a team card (no dog tag)")
    actions: list[Action] = Field(min_length=1, max_length=4, description="two for a multi-action card")
    role: Literal["core", "rank", "medal", "vehicle", "team", "special", "panel"]
    # Advanced rules: what kind of card it is. 'action' cards are placed on phases; 'command' cards
    # too (an ANY card declares its action at reveal); 'react' and 'preempt' cards are played from the
    # hand in the windows the rules open.
    kind: Literal["action", "react", "preempt", "command"] = "action"
    vp_cost: int = Field(0, ge=0, description="react: VP taken from the player permanently when used")
    any_action: bool = Field(False, description="command ANY card: any phase action; dog tag any of the four")
    preempt: PreemptBox | None = None
    identity: IdentityBox | None = None
    panel: str | None = Field(None, description="a tactics-module card: the team panel it comes with")
    needs_slot: str | None = Field(None, description="team card: the panel slot label that must be filled")
    restriction: Literal["one_square"] | None = Field(None, description="team card: checked when played")
    all_teams: bool = Field(False, description="teamwork card: its 'team' entries are open to the members "
                                               "of every team panel in the squad (engine/advanced/teams.py)")
    rank: Rank | None = None
    replaces: str | None = Field(None, description="for a medal card: the core card it replaces")
    title: str = ""
    team: list[TeamEntry] = Field(default_factory=new_list, max_length=3)
    narrator: Narrator | None = None
    hit: HitBox
    damage: Damage

    @property
    def damage_color(self) -> str:
        return DAMAGE_COLOR[self.damage]

    @property
    def tagless(self) -> bool:
        """A team card: no dog tag, never an identity check, no dog-tag action."""
        return self.owner == 0

    @property
    def multi(self) -> bool:
        return len(self.actions) > 1


# --------------------------------------------------------------------------- story deck


class BlastEvent(Frozen):
    kind: Literal["blast"]
    where: str = Field(description="a tile id, 'landmark' (the card's landmark) or 'random'")
    checks: int = Field(1, ge=1, le=5, description="blast hit checks per soldier")


class WeatherEvent(Frozen):
    kind: Literal["weather"]
    look: int = 0
    shoot: int = 0
    lasting: bool = Field(False, description="for the rest of the game, not only this turn")


class FireEvent(Frozen):
    kind: Literal["fire"]
    where: str


class SmokeEvent(Frozen):
    kind: Literal["smoke"]
    where: str
    density: Literal[2, 3] = 2


class ReinforceEvent(Frozen):
    kind: Literal["reinforce"]
    side: Literal["trailing", "leading", "US", "DE"] = "trailing"


class VpEvent(Frozen):
    kind: Literal["vp"]
    to: Literal["holder", "initiative", "trailing"] = Field(
        description="holder: the side alone in the card's landmark; initiative: the player leading; trailing: the side behind")
    amount: int = Field(ge=1, le=10)


class PinEvent(Frozen):
    kind: Literal["pin"]
    where: str = Field("random", description="'random' (one soldier of each side) or a tile id / 'landmark'")


class SpotEvent(Frozen):
    kind: Literal["spot"]
    where: str = Field("random", description="'random' (one unspotted soldier of each side) or 'open' (everyone in the open) or a tile id / 'landmark'")


class RallyEvent(Frozen):
    kind: Literal["rally"]
    side: Literal["trailing", "all"] = "trailing"


EventDef = Annotated[
    Union[BlastEvent, WeatherEvent, FireEvent, SmokeEvent, ReinforceEvent, VpEvent, PinEvent, SpotEvent, RallyEvent],
    Field(discriminator="kind"),
]


class EffectBox(Frozen):
    category: Category
    text: str
    event: EventDef


class PhaseCard(Frozen):
    id: str
    title: str
    top: Action
    bottom: Action
    effect: EffectBox
    cause: Category
    color: Literal["green", "tan", "grey", "red"] = Field(description="colour around the card number (smoke duration)")
    landmark: str | None = Field(None, description="landmark piece (e.g. 'L1') for landmark story cards")
    character: int | None = Field(None, description="the dog tag of the character it names: its random "
                                  "event happens only while he is in play (engine/turn/events.py)")


# --------------------------------------------------------------------------- orders


class OrderKind(StrEnum):
    HOLD = "hold"
    SEARCH = "search"
    CAPTURE = "capture"
    GENERAL_ATTACK = "general_attack"
    PATROL = "patrol"
    REGISTERED_FIRE = "registered_fire"
    DEMOLITION = "demolition"
    ATTACK = "attack"
    SKIRMISH = "skirmish"
    RECON = "recon"
    # the vehicle book's orders (engine/vehicles/orders.py)
    RECONNAISSANCE = "reconnaissance"
    OVERRUN = "overrun"
    ARMOR_ASSAULT = "armor_assault"
    ARMOR_SUPPORT = "armor_support"
    OBSERVER = "observer"
    AMBUSH = "ambush"
    SCREEN = "screen"
    REAR_GUARD = "rear_guard"
    POSITIONAL_DEFENSE = "positional_defense"
    OVERWATCH = "overwatch"


LANDMARK_ORDERS = {OrderKind.HOLD, OrderKind.SEARCH, OrderKind.CAPTURE, OrderKind.DEMOLITION, OrderKind.RECON,
                   OrderKind.REGISTERED_FIRE}


class OrderDef(Frozen):
    id: str
    kind: OrderKind
    title: str
    text: str
    vp: int = Field(ge=0, description="bonus VP (per enemy for General Attack)")
    nationality: Nationality | None = None
    landmark: str | None = Field(None, description="landmark piece the order is tied to")
    entry: str | None = Field(None, description="entry area the player must use")
    exit: str | None = Field(None, description="exit area for Patrol")
    turn: int | None = Field(None, ge=1, description="turn the Registered Fire falls")
    checks: int = Field(3, ge=1, description="blast checks per soldier for Registered Fire")

    @model_validator(mode="after")
    def _needs(self) -> "OrderDef":
        if self.kind in LANDMARK_ORDERS and not self.landmark:
            raise ValueError(f"a {self.kind} order needs a landmark")
        if self.kind == OrderKind.PATROL and not (self.entry and self.exit):
            raise ValueError("a patrol order needs an entry and an exit area")
        if self.kind == OrderKind.RECON and not self.entry:
            raise ValueError("a recon order needs an entry area")
        if self.kind == OrderKind.REGISTERED_FIRE and not self.turn:
            raise ValueError("a registered fire order needs a turn")
        return self


# --------------------------------------------------------------------------- equipment


class EquipmentNeed(Frozen):
    """Who may use a piece of specialist equipment besides the specialist whose kit it is:
    a soldier with this training badge, or one whose HIDE cover value is at most `cover_max`
    (a steady, practised man), or with at least `sight` squares of sight. Empty: anyone."""

    badge: str | None = None
    cover_max: int | None = None
    sight: int | None = Field(None, ge=0)


class EquipmentDef(Frozen):
    id: str
    name: str
    vp: int = Field(ge=0)
    text: str = ""
    # Advanced rules (Markers and Equipment). kind says which rule uses the card:
    # gear (carried, used by orders), grenade (extra grenades), optics, smoke (thrown smoke),
    # weapon (fired: rifle grenade, anti-tank rockets, charges), tool (entrenching tool), radio.
    kind: Literal["gear", "grenade", "optics", "smoke", "weapon", "tool", "radio", "artillery", "mine"] = "gear"
    grenades: int = Field(0, ge=0, description="grenade pouch: grenades it adds")
    optics: int | None = Field(None, description="3 or 6: the magnification")
    look_ignore: int | None = Field(None, ge=0, description="optics: LOOK modifiers this size and below are ignored")
    shoot_ignore: int | None = Field(None, ge=0, description="optics: SHOOT modifiers this size and below are ignored")
    smoke: int | None = Field(None, ge=2, le=3, description="smoke density laid: 2 light, 3 heavy")
    uses: int | None = Field(None, ge=1, description="times it can be used in a game; None: no limit")
    requires: EquipmentNeed | None = Field(None, description="who else may use it; None: anyone")
    range: int | None = Field(None, ge=0, description="weapon: reach in inches (None: the soldier's toss range)")
    blast: int | None = Field(None, ge=1, description="weapon: blast hit checks for each soldier under it")
    anti_tank: bool = Field(False, description="weapon: hits vehicles through the vehicle damage path")
    penetration: int | None = Field(None, ge=0, description="anti-tank: armour it defeats (damage checks)")
    rocket: bool = Field(False, description="anti-tank: a rocket (HEAT): a hit check, a hit location by aspect "
                                            "and penetration against the armour there, not a blast")
    dig: int | None = Field(None, ge=1, description="tool: cover bonus of a dug-in soldier (subtracted)")
    fight: int | None = Field(None, ge=1, description="gear: fight cards it adds to a man who may use it "
                                                      "(the combat knife: ruling R65)")
    # the vehicle book's Equipment/Ordnance chart (issue 9)
    equip: bool = Field(True, description="chart 'Equip' column: counts against the carrier's equip limit")
    search: bool = Field(False, description="chart 'Search' column: can be recovered once abandoned")
    chart: bool = Field(True, description="listed on the chart (unlisted cards escape the equip limit)")
    device: Literal["radio", "walkie", "phone"] | None = Field(
        None, description="radio kind: a radio, walkie-talkie or field telephone (which artillery it may call)")
    incendiary: bool = Field(False, description="weapon: fire against vehicles (molotov, flamethrower)")
    # artillery (engine/battlefield/artillery.py; kind "artillery": a type of fire bought from the chart)
    checks: int | None = Field(None, ge=1, description="artillery: blast hit checks on the target tile")
    devices: list[Literal["radio", "walkie", "phone"]] = Field(
        default_factory=new_list, description="artillery: the devices that may call it (none: planned barrages)")
    start_row: dict[str, int] = Field(default_factory=dict,
                                      description="artillery: device -> Sight rows from the call to On Target")
    looks: int | None = Field(None, ge=1, description="artillery: LOOK phases a soldier needs for radio "
                                                      "contact to call it (None: the default 2)")
    relay_row: int | None = Field(None, ge=1, description="artillery: Sight rows from a relayed call to On "
                                                          "Target (the chart's Relay line; None: never relayed)")
    relay_looks: int | None = Field(None, ge=1, description="artillery: LOOK phases a relayed call needs")
    planned: bool = Field(False, description="artillery: a barrage planned for a turn and a landmark "
                                             "(heavy artillery, rockets), never called by radio")
    owner: int | None = Field(None, description="dog tag named on the card: always his to carry (engine/infantry/equipment.py)")
    goal: bool = Field(False, description="a scenario's goal: never abandoned, never searched for (engine/battlefield/recovery.py)")

    @model_validator(mode="after")
    def _coherent(self) -> "EquipmentDef":
        if self.kind == "optics" and (self.optics not in (3, 6) or self.look_ignore is None
                                      or self.shoot_ignore is None):
            raise ValueError("optics need optics: 3 or 6, look_ignore and shoot_ignore")
        if self.kind == "smoke" and self.smoke is None:
            raise ValueError("smoke equipment needs its density (smoke: 2 or 3)")
        if self.kind == "weapon" and self.blast is None and not self.anti_tank:
            raise ValueError("a weapon needs a blast or anti_tank")
        if self.kind == "tool" and self.dig is None:
            raise ValueError("a tool needs its dig bonus")
        if self.kind == "artillery" and (self.checks is None or (not self.planned and (
                not self.devices or set(self.start_row) != set(self.devices)))):
            raise ValueError("artillery needs checks, and unless planned its devices with a start_row for each")
        return self


# --------------------------------------------------------------------------- map tiles


class Mods(Frozen):
    """Terrain modifiers by action; None means the tile has no box for that action."""

    look: int | None = None
    shoot: int | None = None
    hide: int | None = None
    move: int | None = None

    def of(self, action: Action) -> int:
        return getattr(self, action.value) or 0


class Rect(Frozen):
    """Inch cells x0..x1, y0..y1 inclusive, in the tile's own coordinates (0 at its north-west)."""

    x0: int = Field(ge=0)
    y0: int = Field(ge=0)
    x1: int = Field(ge=0)
    y1: int = Field(ge=0)

    @model_validator(mode="before")
    @classmethod
    def _from_list(cls, data):
        if isinstance(data, (list, tuple)) and len(data) == 4:
            return dict(zip(("x0", "y0", "x1", "y1"), data))
        return data

    @model_validator(mode="after")
    def _ordered(self) -> "Rect":
        if self.x1 < self.x0 or self.y1 < self.y0:
            raise ValueError("a rectangle needs x0 <= x1 and y0 <= y1")
        return self

    def cells(self):
        for y in range(self.y0, self.y1 + 1):
            for x in range(self.x0, self.x1 + 1):
                yield x, y


FeatureKind = Literal["cover", "building", "nomove", "road", "water"]


class Feature(Frozen):
    kind: FeatureKind
    name: str = ""
    rects: list[Rect] = Field(min_length=1)
    level: int = Field(1, ge=1, description="terrain level; entering needs Climb at least this")


class AreaMod(Frozen):
    """An area modifier inside a tile: paid when a move or a line of sight crosses it."""

    name: str = ""
    rects: list[Rect] = Field(min_length=1)
    mods: Mods


class TileDef(Frozen):
    id: str = Field(pattern=r"^L?\d+[AB]$")
    name: str
    terrain: str = Field(description="art: open, field, orchard, woods, village, farm, road, marsh, church ...")
    mods: Mods = Mods()
    features: list[Feature] = Field(default_factory=new_list)
    areas: list[AreaMod] = Field(default_factory=new_list)

    @property
    def landmark(self) -> bool:
        return self.id.startswith("L")

    @property
    def piece(self) -> str:
        """The physical piece: '12A' and '12B' are two sides of piece '12'."""
        return self.id[:-1]

    @property
    def size(self) -> int:
        return 10 if self.landmark else 5

    @model_validator(mode="after")
    def _inside(self) -> "TileDef":
        for group in (*self.features, *self.areas):
            for r in group.rects:
                if r.x1 >= self.size or r.y1 >= self.size:
                    raise ValueError(f"a rectangle {r.x0},{r.y0}-{r.x1},{r.y1} lies outside this {self.size}\" tile")
        return self


# --------------------------------------------------------------------------- scenarios


Edge = Literal["n", "e", "s", "w"]


class AreaDef(Frozen):
    """An entry or exit area: a board-edge tile and the edge soldiers cross."""

    tile: str
    edge: Edge


MineToken = Literal["at", "gp", "fake", "booby"]  # anti-tank, general purpose, fake, booby trap tokens


class VehicleEntry(Frozen):
    """A vehicle or gun in a force: its crew by position, ammunition, and where it starts."""

    vehicle: str
    # left out of the JSON when None, so games and saved forces without it read and hash as before
    plate: int | None = Field(None, ge=500, exclude_if=lambda p: p is None,
                              description="its license plate in the game (a campaign's roster vehicle); None: "
                                          "the next free plate of its type (engine/vehicles/setup.py plates)")
    crew: dict[str, int] = Field(default_factory=dict, description="crew position -> dog tag")
    ranks: dict[int, Rank] = Field(default_factory=dict, description="crewman -> rank (default: his first)")
    medals: dict[int, int] = Field(default_factory=dict, description="crewman -> medals (campaigns)")
    passengers: list[int] = Field(default_factory=new_list)
    ammo: dict[str, int] = Field(default_factory=dict, description="ammo type -> rounds bought")
    in_breach: str | None = Field(None, description="a round may start the game in the breach")
    tile: str | None = Field(None, description="starting tile; None: it enters from an entry area")
    facing: str = "n"
    turret: str | None = None
    hull_down: bool = Field(False, description="starts hull down (dug in), on the board only")
    mines: list[list[MineToken]] = Field(default_factory=new_list, exclude_if=lambda m: not m,
                                         description="minefields bought into its load, two tokens each "
                                                     "(a vehicle with a mine_load; engine/battlefield/mines.py)")


class ForceEntry(Frozen):
    serial: int
    rank: Rank = Rank.PRIVATE
    grenades: int | None = Field(None, ge=0, description="None: the soldier's own default")
    medals: int = Field(0, ge=0, le=3)
    equipment: list[str] = Field(default_factory=new_list)
    at: tuple[int, int] | None = Field(None, description="starting cell for deployed forces")
    special: list[str] | None = Field(None, description="a specialist's optional cards and story cards used; "
                                                         "None: all of them")
    panel: str | None = Field(None, description="tactics module: the team panel he is on")
    slot: int | None = Field(None, ge=0, description="his slot on that panel (index)")


class SideDef(Frozen):
    id: Nationality
    name: str
    force_vp: dict[int, int] = Field(description="VP per player by number of players, e.g. {2: 40, 4: 20}")
    orders: list[str] = Field(min_length=1)
    entry: list[str] = Field(default_factory=new_list, description="entry areas soldiers may come on from")
    deploy: list[str] = Field(default_factory=new_list, description="tiles where soldiers start on the map")
    grenade_cost: int = Field(1, ge=0, description="VP for three extra grenades")
    preset: list[ForceEntry] = Field(min_length=1)
    vehicles: list[VehicleEntry] = Field(default_factory=new_list, description="the preset's vehicles and guns")
    reinforcements: list[ForceEntry] = Field(default_factory=new_list)
    ordnance: list[str] = Field(default_factory=new_list, description="artillery bought for the preset (chart ids)")
    minefields: "list[MinefieldDef]" = Field(default_factory=new_list, description="the preset's mines, face down")
    barrages: "list[BarragePlan]" = Field(default_factory=new_list, description="the preset's planned barrages (secret)")

    @model_validator(mode="after")
    def _one_way_in(self) -> "SideDef":
        if bool(self.entry) == bool(self.deploy):
            raise ValueError("a side either enters from entry areas or deploys on tiles (give exactly one)")
        return self


# --------------------------------------------------------------------------- the vehicle book's battlefield (issue 9)
# Contracts shared by the close-combat, artillery, mines, roadblock/smoke and equipment rules; each
# rule module documents its own use of them (docs/battlefield.md).


class MinefieldDef(Frozen):
    """Mine tokens laid face down in one tile at setup (two in a square, four in a landmark; the
    kind the tokens make together is the minefield's kind, known only to its owner)."""

    tile: str
    tokens: list[MineToken] = Field(min_length=1, max_length=4)


class RoadblockDef(Frozen):
    """A roadblock or barricade overlay on a road tile (set at scenario setup)."""

    tile: str
    kind: Literal["roadblock", "barricade"] = "roadblock"
    name: str = ""
    # engine/vehicles/roadblocks.py (docs/battlefield.md): where the overlay lies and what it gives
    cells: list[tuple[int, int]] | None = Field(
        None, description="overlay cells inside the tile (x, y from its top-left); None: the tile's road cells")
    look: int = Field(-2, le=0, description="LOOK modifier for a target on the overlay (replaces the tile's)")
    shoot: int = Field(-2, le=0, description="SHOOT modifier for a target on the overlay (replaces the tile's)")
    move: int = Field(-2, le=0, description="the 'T' MOVE modifier a tracked vehicle pays to leave the overlay")
    post: tuple[int, int] | None = Field(
        None, description="the fighting position's cell inside the tile; None: the overlay cell off the "
                          "vehicle's middle nearest the tile's centre")


class BarragePlan(Frozen):
    """A heavy artillery or rocket barrage planned in secret for a turn and a landmark tile."""

    kind: str = Field(description="an ordnance chart id (rockets or heavy artillery)")
    turn: int = Field(ge=1)
    tile: str
    smoke: bool = Field(False, description="smoke instead of shells: a 3x smoke marker on the landmark")


class ScenarioOptions(Frozen):
    """The vehicle book's optional rules, switched on per scenario (all off by default)."""

    trained_snipers: bool = Field(False, description="a sniper with a scope halves the armour protection of "
                                                     "unbuttoned or on-deck crew")
    ammo_loadouts: bool = Field(False, description="at most 12 VP of main-gun rounds other than HE and AP")
    other_ammo_vp: int = Field(12, ge=0, description="ammo loadouts: the VP of other rounds allowed per vehicle "
                                                     "(engine/vehicles/setup.py check_loadout)")
    smg_vehicle_movement: bool = Field(False, description="vehicles move once per card part (the SMG style)")
    schurzen: bool = Field(True, description="spaced armour doubles against HEAT rounds")
    shooting_in_contact: bool = Field(False, description="every combat contact is a close combat with a "
                                                         "shooting step")
    fight_buttoned_up: bool = Field(False, description="a buttoned-up vehicle's crew shoot first in close combat")


class StoryChanges(Frozen):
    add: list[str] = Field(default_factory=new_list)
    remove: list[str] = Field(default_factory=new_list)


class ScenarioDef(Frozen):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    name: str
    briefing: str
    turns: int = Field(ge=1, le=15, description="story deck holds three phase cards per turn")
    base_draw: int = Field(3, ge=0)
    map: list[list[str]] = Field(min_length=1, description="rows of tile ids; a landmark fills 2x2 slots")
    sides: list[SideDef] = Field(min_length=2, max_length=2)
    entry_areas: dict[str, AreaDef] = Field(default_factory=dict)
    exit_areas: dict[str, AreaDef] = Field(default_factory=dict)
    story: StoryChanges = StoryChanges()
    special: list[str] = Field(default_factory=new_list, description="special instructions, in words")
    hidden_deployment: bool = Field(False, description="unspotted soldiers show to opponents only as a "
                                                       "hidden marker in their tile")
    mines: list[str] = Field(default_factory=new_list, description="tiles sown with land mines")
    fires: list[str] = Field(default_factory=new_list, description="tiles (or landmarks) burning from the start")
    options: ScenarioOptions = ScenarioOptions()  # the vehicle book's optional rules (issue 9)
    roadblocks: list[RoadblockDef] = Field(default_factory=new_list, description="roadblock overlays on road tiles")
    mines_allowed: bool = Field(False, description="a special rule lets both sides buy mines (not only Hold orders)")
    artillery: list[str] | None = Field(None, description="artillery kinds players may buy here (chart ids); "
                                                          "None: every kind but the planned barrages")

    def side(self, nationality: str) -> SideDef:
        for s in self.sides:
            if s.id == nationality:
                return s
        raise KeyError(nationality)


# --------------------------------------------------------------------------- tactics modules


class SlotNeed(Frozen):
    """One way to qualify for a panel slot; every field given must hold."""

    badge: str | None = None
    grenades: int | None = Field(None, ge=1, description="carries at least this many grenades")
    nco: bool = False
    sight: int | None = Field(None, ge=1, description="healthy Sight at least this")


class PanelSlot(Frozen):
    label: str | None = Field(None, description="the roman numeral team cards name (needs_slot)")
    any_of: list[SlotNeed] = Field(default_factory=new_list, description="empty: any soldier")


class TeamPanelDef(Frozen):
    """A team panel of a tactics module: 2-8 slots; using it adds all its cards to the deck."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    name: str
    module: str
    nationality: Nationality
    slots: list[PanelSlot] = Field(min_length=2, max_length=8)
    cards: list[str] = Field(default_factory=new_list, description="its team cards (ids PANEL-Tn, loaded inline)")


# --------------------------------------------------------------------------- the catalogue


class Catalog(Frozen):
    """Everything loaded from assets/ and campaigns/, cross-checked."""

    soldiers: dict[int, SoldierDef]
    cards: dict[str, ActionCardDef]
    story: dict[str, PhaseCard]
    orders: dict[str, OrderDef]
    tiles: dict[str, TileDef]
    equipment: dict[str, EquipmentDef]
    scenarios: dict[str, ScenarioDef]
    vehicles: dict[str, "VehicleDef"] = Field(default_factory=dict)
    panels: dict[str, TeamPanelDef] = Field(default_factory=dict)

    def scenario(self, scenario_id: str) -> ScenarioDef:
        try:
            return self.scenarios[scenario_id]
        except KeyError:
            raise ContentError(
                f"no scenario {scenario_id!r}; scenarios: {', '.join(sorted(self.scenarios))}") from None

    @cached_property
    def soldiers_by_name(self) -> dict[str, int]:
        return {s.name.lower(): s.serial for s in self.soldiers.values()}


# --------------------------------------------------------------------------- loading


def shipped_root() -> Path:
    """The directory holding the assets/ and campaigns/ shipped with the package, wherever it is
    installed: the repository in a checkout (engine/shipped links there), engine/shipped in an
    installed wheel (which holds copies). Found from the package's spec, without importing it or
    importlib.resources (a quick start: docs/architecture.md)."""
    spec = find_spec("engine.shipped")
    if spec is None or not spec.submodule_search_locations:  # as importing it would say
        raise ModuleNotFoundError("No module named 'engine.shipped'", name="engine.shipped")
    return (Path(spec.submodule_search_locations[0]) / "assets").resolve().parent


def default_root() -> Path:
    """The directory holding assets/ and campaigns/: FIELDPOST_HOME if set, else the shipped one."""
    env = os.environ.get("FIELDPOST_HOME")
    return Path(env) if env else shipped_root()


@cache
def _safe_loader() -> type:
    """libyaml's loader when PyYAML was built with it: the same documents, several times faster
    (tests/content/test_yaml_loader.py compares both on every content file). PyYAML is imported
    only to parse: a warm start takes the shipped content from its cache (docs/architecture.md,
    A quick start)."""
    import yaml

    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def __getattr__(name: str) -> type:
    if name == "SAFE_LOADER":  # the loader, for those who parse as the content does (tests, tools)
        return _safe_loader()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _NotPlain(Exception):
    """A node the plain-data path leaves to PyYAML's own constructor (see _plain_loader)."""


@cache
def _plain_loader() -> type:
    """_safe_loader() made quicker for plain data, giving what it gives, errors included
    (tests/content/test_yaml_loader.py: every content file and generated documents). Parsing the
    shipped content is most of a cold start (docs/content.md), and of that PyYAML's Python half:
    - a plain scalar's tag is the resolver's answer for its text (no path resolvers here, so
      nothing else decides it), kept per text instead of trying the regular expressions of its
      first letter each time; the content repeats its words (about 1,300 distinct of 30,000);
    - no path resolvers, so the composer's calls to descend and ascend have nothing to do;
    - a document made only of strings, numbers, booleans, nulls, lists and maps with scalar keys
      is built in one walk, without the constructor's per-node dispatch, generators and hashable
      checks; anything else (another tag, a merge key, a collection as a key, nesting too deep to
      walk, a value its constructor refuses) is built again by SafeConstructor from the start, so
      it ends as PyYAML ends."""
    from yaml.nodes import MappingNode, ScalarNode, SequenceNode

    base = _safe_loader()
    if base.yaml_path_resolvers:  # what the overrides below rely on there being none of
        return base
    prefix = "tag:yaml.org,2002:"
    STR, INT, FLOAT, BOOL, NULL, SEQ, MAP = (prefix + t for t in ("str", "int", "float", "bool", "null", "seq", "map"))
    keyed = {INT, FLOAT, BOOL, NULL}
    tags: dict[str, str] = {}

    class PlainLoader(base):
        def resolve(self, kind, value, implicit, _scalar=ScalarNode, _tags=tags):
            if kind is _scalar and implicit[0]:
                tag = _tags.get(value)
                if tag is None:
                    if len(_tags) > 50_000:  # a bound, should someone parse something huge with it
                        _tags.clear()
                    tag = _tags[value] = base.resolve(self, kind, value, implicit)
                return tag
            return base.resolve(self, kind, value, implicit)

        # The composer calls these two around every node, for path resolvers, and there are none:
        # builtins that do nothing with what they are given (20 M instructions fewer over the
        # content than Python functions that `pass`)
        descend_resolver = operator.is_  # (current_node, current_index) -> a bool, unused
        ascend_resolver = type(None)  # () -> None

        def construct_document(self, node):
            try:
                return _build(self, node, {})
            except Exception:  # noqa: BLE001 - not plain, too deep, or wrong (`!!int x`): PyYAML's
                # constructor builds it from the start, so it fails where and as PyYAML fails
                # (the walk goes depth first, PyYAML's constructor does not)
                return base.construct_document(self, node)

    def _scalar(loader, node):
        tag = node.tag
        if tag == STR:
            return node.value
        if tag == INT:
            v = node.value
            if v.isdigit() and v.isascii() and (v[0] != "0" or v == "0"):
                return int(v)
            return loader.construct_yaml_int(node)
        if tag == NULL:
            return None
        if tag == BOOL:
            return loader.construct_yaml_bool(node)
        if tag == FLOAT:
            return loader.construct_yaml_float(node)
        raise _NotPlain

    def _build(loader, node, made: dict):
        cls = node.__class__
        if cls is ScalarNode:
            return _scalar(loader, node)
        data = made.get(node)  # an alias: the same object, as PyYAML gives
        if data is not None:
            return data
        tag = node.tag
        if cls is SequenceNode and tag == SEQ:
            made[node] = data = []
            for item in node.value:
                if item.__class__ is not ScalarNode:
                    item = _build(loader, item, made)
                elif item.tag == STR:
                    item = item.value
                else:
                    item = _scalar(loader, item)
                data.append(item)
            return data
        if cls is MappingNode and tag == MAP:
            made[node] = data = {}
            for key, value in node.value:
                if key.__class__ is not ScalarNode:
                    raise _NotPlain  # a collection as a key: PyYAML's error
                if key.tag == STR:
                    key = key.value
                elif key.tag in keyed:
                    key = _scalar(loader, key)
                else:
                    raise _NotPlain  # a merge key, '=': PyYAML's rules
                if value.__class__ is not ScalarNode:
                    data[key] = _build(loader, value, made)
                elif value.tag == STR:
                    data[key] = value.value
                else:
                    data[key] = _scalar(loader, value)
            return data
        raise _NotPlain

    return PlainLoader


def _read_yaml(path: Path, tree: ParsedTree | None = None):
    """The data in a YAML file; through `tree` (the shipped content's cache) when given."""
    raw = path.read_bytes()

    def parse(raw: bytes):
        import yaml

        try:
            return yaml.load(raw.decode("utf-8"), Loader=_plain_loader())
        except yaml.YAMLError as exc:  # one line: the file, where in it, and what PyYAML found
            mark = getattr(exc, "problem_mark", None)
            where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
            raise ContentError(f"{path}: not valid YAML: {where}{getattr(exc, 'problem', None) or exc}") from None

    return parse(raw) if tree is None else tree.read(path, raw, parse)


@cache
def _shipped_tree(root: Path) -> ParsedTree:
    """The shipped content's parsed files, one per process (shared by scenario_ids and the catalogue)."""
    return ParsedTree(root)


def _tree(root: Path) -> ParsedTree | None:
    """Only the shipped content is cached: a custom root (FIELDPOST_HOME) is content someone is
    editing, read afresh every run."""
    return _shipped_tree(root) if root == shipped_root() else None


def _describe(entry) -> str:
    if isinstance(entry, dict):
        for key in ("id", "serial", "name", "title"):
            if key in entry:
                return f"{key} {entry[key]!r}"
    return ""


def _validation_message(path: Path, where: str, entry, exc: ValidationError) -> str:
    lines = []
    for err in exc.errors():
        field = ".".join(str(p) for p in err["loc"] if p not in ("function-after",)) or "(entry)"
        lines.append(f"{path}: {where} ({_describe(entry)}): field {field}: {err['msg']}")
    return "\n".join(lines)


def _validate(model, data, path: Path, where: str):
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise ContentError(_validation_message(path, where, data, exc)) from None


HIT_KEYS = ("long", "short", "close", "blast")


def _card_data(raw: dict, path: Path, where: str) -> dict:
    """Expand the compact card form of the YAML files (hit 'Miss/Hit/Hit+/Miss', team '2 move, 1 sight')."""
    if not isinstance(raw, dict):
        raise ContentError(f"{path}: {where}: a card must be a mapping")
    data = dict(raw)
    if "action" in data:
        data["actions"] = [data.pop("action")]
    if isinstance(data.get("actions"), str):
        data["actions"] = [a.strip() for a in data["actions"].split("/")]
    if isinstance(data.get("hit"), str):
        parts = [p.strip() for p in data["hit"].split("/")]
        if len(parts) != 4:
            raise ContentError(f"{path}: {where}: field hit: write four results long/short/close/blast, "
                               f"e.g. 'Miss/Hit/2 Hits/Hit'")
        data["hit"] = dict(zip(HIT_KEYS, parts))
    if isinstance(data.get("team"), str):
        entries = []
        for part in data["team"].split(","):
            bits = part.split()
            if len(bits) == 3 and bits[1] in ("soldier", "crew", "vehicle"):
                who = bits.pop(1)
            else:
                who = "soldier"
            if len(bits) != 2 or not bits[0].isdigit():
                raise ContentError(f"{path}: {where}: field team: write entries like '2 move, 1 crew sight, "
                                   f"1 vehicle shoot', got {part!r}")
            entries.append({"count": int(bits[0]), "do": bits[1], "who": who})
        data["team"] = entries
    if "note" in data:
        data["narrator"] = data.pop("note")
    return data


def _inline_cards(entries, path: Path, where: str, prefix: str, cards: dict[str, ActionCardDef],
                  **fixed) -> list[str]:
    """Cards written inline under an entry (a soldier's optional cards, a vehicle's cards, a
    panel's team cards): each validated with the fields every one of them shares (`fixed`),
    ids PREFIX1, PREFIX2 ... in order; returns the ids."""
    ids = []
    for j, c in enumerate(entries or []):
        cid = f"{prefix}{j + 1}"
        cards[cid] = _validate(ActionCardDef, {**_card_data(c, path, f"{where}[{j}]"), "id": cid, **fixed},
                               path, f"{where}[{j}]")
        ids.append(cid)
    return ids


def _load_soldiers(path: Path, cards: dict[str, ActionCardDef], soldiers: dict[int, SoldierDef],
                   tree: ParsedTree | None) -> None:
    raw = _read_yaml(path, tree) or {}
    rank_letters = {"private": "P", "junior_nco": "J", "senior_nco": "S"}
    for i, entry in enumerate(raw.get("soldiers", [])):
        where = f"soldiers[{i}]"
        if not isinstance(entry, dict) or "serial" not in entry:
            raise ContentError(f"{path}: {where}: field serial: every soldier needs a dog tag serial")
        serial = entry["serial"]
        data = dict(entry)
        core_ids = []
        for j, c in enumerate(data.pop("core", []) or []):
            cid = f"{serial}-C{j + 1}"
            cd = _card_data(c, path, f"{where}.core[{j}]")
            cards[cid] = _validate(ActionCardDef, {**cd, "id": cid, "owner": serial, "role": "core"},
                                   path, f"{where}.core[{j}]")
            core_ids.append(cid)
        medal_ids = []
        for j, c in enumerate(data.pop("medals", []) or []):
            cid = f"{serial}-M{j + 1}"
            cd = _card_data(c, path, f"{where}.medals[{j}]")
            if "replaces" in cd and isinstance(cd["replaces"], int):
                cd["replaces"] = f"{serial}-C{cd['replaces']}"
            cards[cid] = _validate(ActionCardDef, {**cd, "id": cid, "owner": serial, "role": "medal"},
                                   path, f"{where}.medals[{j}]")
            if cards[cid].replaces not in core_ids:
                raise ContentError(f"{path}: {where}.medals[{j}] (id {cid!r}): field replaces: must name one of "
                                   f"this soldier's core cards, 1 to {len(core_ids)}")
            medal_ids.append(cid)
        profiles = []
        for j, p in enumerate(data.pop("ranks", []) or []):
            p = dict(p)
            rank = p.get("rank", "private")
            letter = rank_letters.get(rank, "X")
            ids = []
            for k, c in enumerate(p.pop("cards", []) or []):
                cid = f"{serial}-{letter}{k + 1}"
                cd = _card_data(c, path, f"{where}.ranks[{j}].cards[{k}]")
                cards[cid] = _validate(ActionCardDef,
                                       {**cd, "id": cid, "owner": serial, "role": "rank", "rank": rank},
                                       path, f"{where}.ranks[{j}].cards[{k}]")
                ids.append(cid)
            profiles.append({**p, "cards": ids})
        special_ids = _inline_cards(data.pop("special", []), path, f"{where}.special", f"{serial}-X", cards,
                                    owner=serial, role="special")
        data.update(ranks=profiles, core_cards=core_ids, medal_cards=medal_ids, special_cards=special_ids)
        soldier = _validate(SoldierDef, data, path, where)
        if soldier.serial in soldiers:
            raise ContentError(f"{path}: {where} (serial {serial}): field serial: dog tag {serial} is used twice")
        soldiers[soldier.serial] = soldier


def _load_vehicles(path: Path, cards: dict[str, ActionCardDef], vehicles: dict, tree: ParsedTree | None) -> None:
    """A vehicle entry holds its panel and, inline, its vehicle cards (`cards:`, ids PLATE-Vn)
    and its team tactics cards (`team_cards:`, ids PLATE-Tn), all owned by its license plate."""
    raw = _read_yaml(path, tree) or {}
    for i, entry in enumerate(raw.get("vehicles", [])):
        where = f"vehicles[{i}]"
        if not isinstance(entry, dict) or "plate" not in entry:
            raise ContentError(f"{path}: {where}: field plate: every vehicle needs a license plate")
        plate = entry["plate"]
        data = dict(entry)
        ids = []
        for key, letter, role in (("cards", "V", "vehicle"), ("team_cards", "T", "team")):
            ids += _inline_cards(data.pop(key, []), path, f"{where}.{key}", f"{plate}-{letter}", cards,
                                 owner=plate, role=role)
        v = _validate(VehicleDef, {**data, "cards": ids}, path, where)
        if v.id in vehicles:
            raise ContentError(f"{path}: {where} (id {v.id!r}): field id: used twice")
        vehicles[v.id] = v


def _load_panels(path: Path, cards: dict[str, ActionCardDef], panels: dict, tree: ParsedTree | None) -> None:
    """A team panel holds its team cards inline (`cards:`, ids PANEL-Tn, no dog tag)."""
    raw = _read_yaml(path, tree) or {}
    for i, entry in enumerate(raw.get("panels", [])):
        where = f"panels[{i}]"
        if not isinstance(entry, dict) or "id" not in entry:
            raise ContentError(f"{path}: {where}: field id: every team panel needs an id")
        pid = entry["id"]
        data = dict(entry)
        # card ids are upper case, as players type them
        ids = _inline_cards(data.pop("cards", []), path, f"{where}.cards", f"{pid.upper()}-T", cards,
                            owner=0, role="panel", panel=pid)
        panel = _validate(TeamPanelDef, {**data, "cards": ids}, path, where)
        if panel.id in panels:
            raise ContentError(f"{path}: {where} (id {panel.id!r}): field id: used twice")
        for cid in ids:
            box = cards[cid].narrator
            if box is not None and box.color != "red":
                raise ContentError(f"{path}: {where}: card {cid}: field note: a team card has no dog tag, so no "
                                   f"soldier could take its {box.color} narrator box; only red costs fit")
        labels = {sl.label for sl in panel.slots if sl.label}
        for cid in ids:
            need = cards[cid].needs_slot
            if need and need not in labels:
                raise ContentError(f"{path}: {where}: card {cid}: field needs_slot: the panel has no slot {need!r}")
        panels[panel.id] = panel


def _load_list(path: Path, key: str, model, into: dict, tree: ParsedTree | None, id_field: str = "id") -> None:
    raw = _read_yaml(path, tree) or {}
    for i, entry in enumerate(raw.get(key, [])):
        item = _validate(model, entry, path, f"{key}[{i}]")
        ident = getattr(item, id_field)
        if ident in into:
            raise ContentError(f"{path}: {key}[{i}] ({id_field} {ident!r}): field {id_field}: used twice")
        into[ident] = item


def scenario_ids(root: Path | None = None) -> list[str]:
    """The ids of the scenarios under root, read without checking anything else: quick enough
    for a command line to say at once which scenarios there are."""
    root = root or default_root()
    tree = _tree(root)
    ids = []
    for path in sorted((root / "campaigns" / "scenarios").glob("*.yaml")):
        data = _read_yaml(path, tree)
        if isinstance(data, dict) and isinstance(data.get("id"), str):
            ids.append(data["id"])
    if tree is not None:
        tree.save()
    return sorted(ids)


def load_catalog(root: Path | None = None) -> Catalog:
    """Load and cross-check every content file under root (default: the project directory).
    The shipped content (no root, no FIELDPOST_HOME) is loaded once per process and shared: it is
    frozen, and the bot, the console and a /roll draw then hold one catalogue, not one each."""
    root = root or default_root()
    if root == shipped_root():
        return _shipped(root)
    return _load(root)


@cache
def _shipped(root: Path) -> Catalog:
    tree = _shipped_tree(root)
    catalog = _load(root, tree)
    tree.save()
    return catalog


def _load(root: Path, tree: ParsedTree | None = None) -> Catalog:
    assets, campaigns = root / "assets", root / "campaigns"
    soldiers: dict[int, SoldierDef] = {}
    cards: dict[str, ActionCardDef] = {}
    for path in sorted((assets / "soldiers").glob("*.yaml")):
        _load_soldiers(path, cards, soldiers, tree)
    story: dict[str, PhaseCard] = {}
    for path in sorted((assets / "story").glob("*.yaml")):
        _load_list(path, "cards", PhaseCard, story, tree)
    orders: dict[str, OrderDef] = {}
    _load_list(assets / "orders.yaml", "orders", OrderDef, orders, tree)
    tiles: dict[str, TileDef] = {}
    for path in sorted((assets / "tiles").glob("*.yaml")):
        _load_list(path, "tiles", TileDef, tiles, tree)
    equipment: dict[str, EquipmentDef] = {}
    _load_list(assets / "equipment.yaml", "equipment", EquipmentDef, equipment, tree)
    for path in sorted((assets / "equipment").glob("*.yaml")):  # the ordnance chart's groups (issue 9)
        _load_list(path, "equipment", EquipmentDef, equipment, tree)
    vehicles: dict = {}
    for path in sorted((assets / "vehicles").glob("*.yaml")):
        _load_vehicles(path, cards, vehicles, tree)
    _check_vehicles(vehicles, soldiers)
    panels: dict[str, TeamPanelDef] = {}
    for path in sorted((assets / "teams").glob("*.yaml")):
        _load_panels(path, cards, panels, tree)
    scenarios: dict[str, ScenarioDef] = {}
    for path in sorted((campaigns / "scenarios").glob("*.yaml")):
        data = _read_yaml(path, tree)
        sc = _validate(ScenarioDef, data, path, "scenario")
        if sc.id in scenarios:
            raise ContentError(f"{path}: scenario (id {sc.id!r}): field id: used twice")
        scenarios[sc.id] = sc
        _check_scenario(sc, path, tiles, soldiers, orders, story, equipment, vehicles, panels)
    _check_cards(cards, soldiers)
    _check_specialists(soldiers, story, equipment)
    _check_story(story, tiles)
    return Catalog(soldiers=soldiers, cards=cards, story=story, orders=orders, tiles=tiles,
                   equipment=equipment, scenarios=scenarios, vehicles=vehicles, panels=panels)


def _check_specialists(soldiers: dict[int, SoldierDef], story: dict, equipment: dict) -> None:
    for s in soldiers.values():
        for sid in s.story:
            if sid not in story:
                raise ContentError(f"soldier {s.serial} {s.name}: field story: unknown story card {sid!r}")
        for eq in s.kit:
            if eq not in equipment:
                raise ContentError(f"soldier {s.serial} {s.name}: field kit: unknown equipment {eq!r}")


def _check_vehicles(vehicles: dict, soldiers: dict[int, SoldierDef]) -> None:
    plates = {}
    for v in vehicles.values():
        if v.plate in soldiers or v.plate in plates:
            raise ContentError(f"vehicle {v.id}: field plate: {v.plate} is already a dog tag or another plate")
        plates[v.plate] = v.id
    for s in soldiers.values():
        if s.crew is not None and s.crew.vehicle not in vehicles:
            raise ContentError(f"soldier {s.serial} {s.name}: field crew.vehicle: no vehicle {s.crew.vehicle!r}")


def _check_cards(cards: dict[str, ActionCardDef], soldiers: dict[int, SoldierDef]) -> None:
    for s in soldiers.values():
        if len(s.medal_cards) > 3:
            raise ContentError(f"soldier {s.serial} {s.name}: field medals: at most three medal cards")
        for mid in s.medal_cards:
            rep = cards[mid].replaces
            if rep not in s.core_cards:
                raise ContentError(f"card {mid}: field replaces: must name one of {s.name}'s core cards "
                                   f"({', '.join(s.core_cards)})")


def _check_story(story: dict[str, PhaseCard], tiles: dict[str, TileDef]) -> None:
    pieces = {t.piece for t in tiles.values() if t.landmark}
    for card in story.values():
        if card.landmark and card.landmark not in pieces:
            raise ContentError(f"story card {card.id}: field landmark: no landmark piece {card.landmark!r}")


def layout_slots(rows: list[list[str]]) -> dict[str, list[tuple[int, int]]]:
    slots: dict[str, list[tuple[int, int]]] = {}
    for r, row in enumerate(rows):
        for c, tid in enumerate(row):
            slots.setdefault(tid, []).append((c, r))
    return slots


def _check_scenario(sc: ScenarioDef, path: Path, tiles, soldiers, orders, story, equipment, vehicles,
                    panels=None) -> None:
    def fail(field: str, msg: str):
        raise ContentError(f"{path}: scenario (id {sc.id!r}): field {field}: {msg}")

    width = len(sc.map[0])
    if any(len(row) != width for row in sc.map):
        fail("map", "every row needs the same number of slots")
    slots = layout_slots(sc.map)
    pieces: dict[str, str] = {}
    for tid, cells in slots.items():
        if tid not in tiles:
            fail("map", f"unknown tile {tid!r}")
        t = tiles[tid]
        if t.piece in pieces and pieces[t.piece] != tid:
            fail("map", f"tiles {pieces[t.piece]} and {tid} are two sides of one piece")
        pieces[t.piece] = tid
        if t.landmark:
            xs = sorted({c for c, _ in cells})
            ys = sorted({r for _, r in cells})
            if len(cells) != 4 or len(xs) != 2 or len(ys) != 2 or xs[1] != xs[0] + 1 or ys[1] != ys[0] + 1:
                fail("map", f"landmark {tid} must fill a 2x2 block of slots")
        elif len(cells) != 1:
            fail("map", f"map square {tid} appears {len(cells)} times")
    for kind, areas in (("entry_areas", sc.entry_areas), ("exit_areas", sc.exit_areas)):
        for name, area in areas.items():
            if area.tile not in slots:
                fail(f"{kind}.{name}", f"tile {area.tile} is not on the map")
            cols = {c for c, _ in slots[area.tile]}
            rows = {r for _, r in slots[area.tile]}
            on_edge = {"w": min(cols) == 0, "e": max(cols) == width - 1,
                       "n": min(rows) == 0, "s": max(rows) == len(sc.map) - 1}[area.edge]
            if not on_edge:
                fail(f"{kind}.{name}", f"tile {area.tile} is not on the board's {area.edge} edge")
    for i, side in enumerate(sc.sides):
        for tid in side.deploy:
            if tid not in slots:
                fail(f"sides[{i}].deploy", f"tile {tid} is not on the map")
        for name in side.entry:
            if name not in sc.entry_areas:
                fail(f"sides[{i}].entry", f"no entry area {name!r}")
        for oid in side.orders:
            if oid not in orders:
                fail(f"sides[{i}].orders", f"unknown order {oid!r}")
            o = orders[oid]
            if o.nationality and o.nationality != side.id:
                fail(f"sides[{i}].orders", f"order {oid} is for {o.nationality} only")
        for group in ("preset", "reinforcements"):
            for j, fe in enumerate(getattr(side, group)):
                s = soldiers.get(fe.serial)
                if s is None:
                    fail(f"sides[{i}].{group}[{j}]", f"no soldier with dog tag {fe.serial}")
                if s.nationality != side.id:
                    fail(f"sides[{i}].{group}[{j}]", f"{s.name} is {s.nationality}, not {side.id}")
                if fe.rank not in {p.rank for p in s.ranks}:
                    fail(f"sides[{i}].{group}[{j}]", f"{s.name} has no {fe.rank} card")
                for eq in fe.equipment:
                    if eq not in equipment:
                        fail(f"sides[{i}].{group}[{j}]", f"unknown equipment {eq!r}")
                if fe.special is not None:
                    for x in fe.special:
                        if x not in s.special_cards and x not in s.story:
                            fail(f"sides[{i}].{group}[{j}].special", f"{x!r} is not one of {s.name}'s cards")
                if fe.panel is not None:
                    pdef = (panels or {}).get(fe.panel)
                    if pdef is None or pdef.nationality != side.id:
                        fail(f"sides[{i}].{group}[{j}].panel", f"no {side.id} team panel {fe.panel!r}")
                    if fe.slot is None or fe.slot >= len(pdef.slots):
                        fail(f"sides[{i}].{group}[{j}].slot", f"give a slot 0-{len(pdef.slots) - 1} on {fe.panel}")
        taken = [(e.panel, e.slot) for e in (*side.preset, *side.reinforcements) if e.panel is not None]
        if len(taken) != len(set(taken)):
            fail(f"sides[{i}].preset", "two soldiers in one panel slot")
    for field_name in ("mines", "fires"):
        for tid in getattr(sc, field_name):
            if tid not in slots:
                fail(field_name, f"tile {tid} is not on the map")
    for i, side in enumerate(sc.sides):
        aboard: set[int] = set()
        for j, ve in enumerate(side.vehicles):
            field = f"sides[{i}].vehicles[{j}]"
            v = vehicles.get(ve.vehicle)
            if v is None:
                fail(field, f"no vehicle {ve.vehicle!r}")
            if v.nationality != side.id:
                fail(field, f"{v.name} is {v.nationality}, not {side.id}")
            if ve.tile is not None and ve.tile not in slots:
                fail(f"{field}.tile", f"tile {ve.tile} is not on the map")
            if ve.plate is not None and not v.has_plate(ve.plate):
                fail(f"{field}.plate", f"a {v.name}'s plate is {v.plate}, {v.plate + PLATE_STEP}, "
                                       f"{v.plate + 2 * PLATE_STEP} ...")
            positions = {loc.id for loc in v.crew_positions}
            for pos, serial in ve.crew.items():
                if pos not in positions:
                    fail(f"{field}.crew", f"{v.name} has no crew position {pos!r} (it has {', '.join(sorted(positions))})")
                s = soldiers.get(serial)
                if s is None or s.nationality != side.id:
                    fail(f"{field}.crew", f"dog tag {serial} is not a {side.id} soldier")
                if serial in aboard:
                    fail(f"{field}.crew", f"dog tag {serial} is aboard twice")
                aboard.add(serial)
            # passengers are soldiers of the side's own squad who start aboard
            squad = {e.serial for e in side.preset}
            for serial in ve.passengers:
                if serial not in squad or serial in aboard:
                    fail(f"{field}.passengers", f"dog tag {serial} must be one of the side's preset soldiers, "
                                                f"aboard one vehicle only")
            if len(ve.passengers) > (v.passengers or v.rider_limit):
                fail(f"{field}.passengers", f"{v.name} carries {v.passengers or v.rider_limit} passengers")
            for aid, n in ve.ammo.items():
                a = v.main_gun.ammo_type(aid) if v.main_gun else None
                if a is None:
                    fail(f"{field}.ammo", f"{v.name} fires no {aid!r} rounds")
                if n > a.max_rounds:
                    fail(f"{field}.ammo", f"at most {a.max_rounds} {aid} rounds")
            if ve.in_breach and ve.ammo.get(ve.in_breach, 0) < 1:
                fail(f"{field}.in_breach", f"no {ve.in_breach} round was bought")
        for e in (*side.preset, *side.reinforcements):
            if e.serial in aboard:
                fail(f"sides[{i}].preset", f"dog tag {e.serial} crews a vehicle and cannot also be on foot")
    for cid in (*sc.story.add, *sc.story.remove):
        if cid not in story:
            fail("story", f"unknown story card {cid!r}")


