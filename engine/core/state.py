"""The game state: one pydantic model that serialises to JSON and back losslessly.

Static content of the game (map, the soldiers and cards in play, story cards, orders) sits in
`setup`, frozen and shared between successive states; everything that changes lives beside it.
Units that own an action deck are Forces (an infantry squad now; a vehicle or gun with its
crew later): each has its own deck, hand, placed cards and initiative, and acts through cards
owned by a dog tag (or, for vehicles, a license plate).
"""
# no `from __future__ import annotations`: pydantic reads these models' types, not strings to compile (docs/architecture.md)

import hashlib
from collections import deque
from collections.abc import Callable, Iterable
from enum import Enum
from functools import cache, lru_cache, reduce
from itertools import compress, repeat
from operator import eq, is_, not_, or_
from types import UnionType
from typing import Annotated, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter
from typing_extensions import TypedDict  # pydantic reads typing's own from 3.12

from engine.core import as_given
from engine.core.board import Board, board_for
from engine.core.content import (
    Action,
    ActionCardDef,
    Do,
    EquipmentDef,
    Nationality,
    OrderDef,
    PhaseCard,
    Rank,
    ScenarioDef,
    SoldierDef,
    Stats,
    TeamPanelDef,
    TileDef,
)
from engine.core.vehicle_content import VehicleDef
from engine.core.words import new_list

_set = object.__setattr__


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=False)


class AllFields(set):
    """Every field name of one model class, the one set shared by its instances whose fields
    were all given (`GameState.share_field_names`). Adding names it holds changes nothing, as
    pydantic does on each assignment and `model_copy(update=...)`; taking a name out or putting
    a new one in is refused, since it would change every instance. A copy is a plain set."""

    def _refuse(self, *args: object) -> None:
        raise TypeError("the shared set of a model's field names cannot change; copy it first")

    remove = discard = pop = clear = _refuse
    difference_update = intersection_update = symmetric_difference_update = _refuse
    __iand__ = __isub__ = __ixor__ = _refuse

    def add(self, name: str) -> None:
        if name not in self:
            self._refuse()

    def update(self, *names: Iterable[str]) -> None:
        if not all(n in self for group in names for n in group):
            self._refuse()

    def __ior__(self, names: Iterable[str]) -> "AllFields":
        self.update(names)
        return self

    def __copy__(self) -> set[str]:
        return set(self)

    def __deepcopy__(self, memo: dict) -> set[str]:
        return set(self)

    def __reduce__(self) -> tuple:
        return set, (list(self),)


@cache
def _every_field(cls: type[BaseModel]) -> AllFields:
    """The one shared set of a model class's field names."""
    return AllFields(cls.model_fields)


def _holds_model(annotation) -> bool:
    """A value of this type is or holds a model that is not frozen."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return not annotation.model_config.get("frozen")
    return any(_holds_model(a) for a in get_args(annotation))


@cache
def _model_fields_of(cls: type[BaseModel]) -> tuple[str, ...]:
    """The fields of a model class whose values are or hold unfrozen models."""
    return tuple(name for name, info in cls.model_fields.items() if _holds_model(info.annotation))


def _share_names(value, all_given: bool = False) -> None:
    """GameState.share_field_names over a value (`all_given`: every_field_given's): each unfrozen
    model in it given every field (`all_given`: each unfrozen model, counted as given every field)
    takes its class's one set of their names."""
    if isinstance(value, BaseModel):
        every = _every_field(value.__class__)
        if (not value.model_config.get("frozen") if all_given
                else len(value.__pydantic_fields_set__) == len(every)):
            _set(value, "__pydantic_fields_set__", every)
        fields = value.__dict__
        for name in _model_fields_of(value.__class__):
            _share_names(fields[name], all_given)
    elif isinstance(value, list):
        for v in value:
            _share_names(v, all_given)
    elif isinstance(value, dict):
        for v in value.values():
            _share_names(v, all_given)


class GameSetup(BaseModel):
    """Everything static about one game, copied out of the catalogue at setup."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    scenario: ScenarioDef
    soldiers: dict[int, SoldierDef]
    cards: dict[str, ActionCardDef]
    story: dict[str, PhaseCard]
    orders: dict[str, OrderDef]
    tiles: dict[str, TileDef]
    equipment: dict[str, EquipmentDef] = Field(default_factory=dict)
    vehicles: dict[str, VehicleDef] = Field(default_factory=dict)
    panels: dict[str, TeamPanelDef] = Field(default_factory=dict)  # tactics modules' team panels in use
    map_key: str = ""

    def board(self) -> Board:
        """The map's Board, looked up once per setup (asked a few dozen times per command). Kept
        in __dict__ beside the fields (pydantic's dump, equality and hash read fields only) with
        the map and tiles it was made from, so a model_copy given another map looks it up again."""
        got = self.__dict__.get("_board")
        if got is None or got[0] is not self.scenario or got[1] is not self.tiles:
            got = (self.scenario, self.tiles, board_for(self.map_key or self.digest(), self.scenario.map, self.tiles))
            self.__dict__["_board"] = got
        return got[2]

    def __getstate__(self) -> dict:
        """Pickled without the remembered Board: the receiving process looks up its own."""
        state = super().__getstate__()
        state["__dict__"] = {k: v for k, v in state["__dict__"].items() if k != "_board"}
        return state

    def digest(self) -> str:
        body = repr(self.scenario.map) + "".join(
            self.tiles[t].model_dump_json() for t in sorted(self.tiles))
        return hashlib.sha1(body.encode()).hexdigest()


class Seat(Model):
    """A player's place at the table."""

    index: int
    name: str
    side: Nationality
    order: str | None = None  # private
    order_done: bool = False  # public once done: completing orders is announced
    always_pass: bool = False  # a player's setting: never ask him about react or preempt cards


class SharedSoldierError(RuntimeError):
    """A rule changed a soldier its state shares with another without making him its own first
    (GameState.changing): a programming error, never a player's."""


class SoldierState(Model):
    """One soldier's changing state. After GameState.clone he may be shared by two states: then
    he is read-only (`_shared`), and a rule changes him through GameState.changing. A shared
    soldier keeps his `"serial":{...}` entry of his first dump (`_json`, GameState.json_without_setup)."""

    __slots__ = ("_shared", "_json")

    serial: int
    side: Nationality
    force: str  # the force whose deck holds his cards
    controller: str  # the force controlling him (his captor's force while a prisoner)
    rank: Rank
    status: Literal["reserve", "waiting", "board", "aboard", "exited", "dead", "removed"] = "waiting"
    at: tuple[int, int] | None = None
    facing: str = "n"
    spotted: bool = False
    pinned: bool = False
    wounded: bool = False
    grenades: int = 0
    medals: int = 0
    equipment: list[str] = Field(default_factory=new_list)
    held: list[str] = Field(default_factory=new_list)  # private: cards under his soldier card
    captor: int | None = None  # serial of his escort while a prisoner
    kills: int = 0
    captures: int = 0
    deeds: dict[str, int] = Field(default_factory=dict)  # what he did this game, for campaigns
    # aboard a vehicle (status "aboard"): its plate, and where on its panel he is: a crew
    # position, a machinery location (to repair or fight a fire), "cabin", "deck" or "turret"
    vehicle: int | None = None
    post: str | None = None
    dismounted: bool = False  # a crewman standing beside his vehicle (Mount and Dismount)
    # on foot on an enemy vehicle's deck (SMG close combat, engine/battlefield/close_combat.py): its
    # plate, and whether he went on up onto its turret
    on_deck: int | None = None
    on_turret: bool = False
    spotted_by: list[int] = Field(default_factory=new_list)  # plates whose own Spotted marker he has
    panel: str | None = None  # tactics module: his team panel (locked to it for the game)
    slot: int | None = None  # ... and his slot on it

    def __setattr__(self, name: str, value) -> None:
        if getattr(self, "_shared", False):
            raise SharedSoldierError(f"soldier {self.serial} is shared between states: "
                                     f"set {name} on st.changing({self.serial})")
        super().__setattr__(name, value)

    @property
    def on_board(self) -> bool:
        return self.status == "board"

    @property
    def free(self) -> bool:
        """On the board on foot, alive and not a prisoner: he can act and be acted against."""
        return self.status == "board" and self.captor is None

    def step_down(self) -> None:
        """Off any enemy vehicle's deck: whatever moves him puts him on the ground (docs/battlefield.md C16)."""
        self.on_deck, self.on_turret = None, False

    @property
    def in_play(self) -> bool:
        """Alive, not a prisoner, on the board on foot or aboard a vehicle, or still to enter."""
        return self.captor is None and self.status in ("board", "aboard", "waiting")


class SharedForceError(RuntimeError):
    """A rule changed a force its state shares with another without making it its own first
    (GameState.changing_force): a programming error, never a player's."""


class ForceState(Model):
    """A deck-owning unit: a squad of soldiers, or a vehicle or gun with its crew. After
    GameState.clone it may be shared by two states: then it is read-only (`_shared`), its lists
    and dict too, and a rule changes it through GameState.changing_force (docs/architecture.md)."""

    __slots__ = ("_shared",)

    id: str
    seat: int
    side: Nationality
    kind: Literal["squad", "vehicle"] = "squad"
    plate: int | None = None  # a vehicle force: its vehicle's license plate
    deck: list[str] = Field(default_factory=new_list)  # private, top card first
    hand: list[str] = Field(default_factory=new_list)  # private
    discard: list[str] = Field(default_factory=new_list)  # private (unrevealed hands go here)
    placed: list[str | None] = Field(default_factory=lambda: [None, None, None])  # private until revealed
    revealed: list[bool] = Field(default_factory=lambda: [False, False, False])
    face_up: list[bool] = Field(default_factory=lambda: [False, False, False])  # shortfall cards
    shown: list[str | None] = Field(default_factory=lambda: [None, None, None])  # revealed cards of finished phases
    declared: dict[str, Action] = Field(default_factory=dict)  # multi-action cards: chosen action
    extra: list[str | None] = Field(default_factory=lambda: [None, None, None])  # officer's extra cards, private until revealed
    planned: bool = False
    fight_pool: list[str] = Field(default_factory=new_list)  # private until played
    vp_pile: list[str] = Field(default_factory=new_list)  # react cards used: out of the game for good (public)
    entry_area: str | None = None

    def __setattr__(self, name: str, value) -> None:
        if getattr(self, "_shared", False):
            raise SharedForceError(f"force {self.id} is shared between states: "
                                   f"set {name} on st.changing_force({self.id!r})")
        super().__setattr__(name, value)


class SharedVehicleError(RuntimeError):
    """A rule changed a vehicle its state shares with another without making it its own first
    (GameState.changing_vehicle): a programming error, never a player's."""


class VehicleState(Model):
    """A vehicle or gun on the map (Hell on Wheels): where it stands and faces, who crews it,
    its damage markers, ammunition, hatches, pins and markers. Static data is its VehicleDef.
    After GameState.clone it may be shared by two states: then it is read-only (`_shared`), its
    lists and dicts too, and a rule changes it through GameState.changing_vehicle (docs/architecture.md)."""

    __slots__ = ("_shared",)

    plate: int
    vehicle: str  # VehicleDef id
    side: Nationality
    force: str  # the force whose deck is its action deck
    controller: str
    status: Literal["waiting", "board", "destroyed", "abandoned", "exited"] = "board"
    tile: str | None = None
    facing: str = "n"  # the hull, toward a side or a corner of its tile
    turret: str | None = None  # None: no turret (or a gun's shield faces with the hull)
    crew: dict[str, int] = Field(default_factory=dict)  # crew position -> dog tag
    unbuttoned: list[str] = Field(default_factory=new_list)  # crew positions with the hatch open
    damage: dict[str, list[Literal["wreck", "fire", "critical"]]] = Field(default_factory=dict)
    cook_off: list[str] = Field(default_factory=new_list)  # ammo locations burning: Critical if not put out
    ready: dict[str, int] = Field(default_factory=dict)  # ammo type -> rounds in Ready Ammo
    in_hand: list[str] = Field(default_factory=new_list)  # round parts: "AP", or "AP/charge" of a two-part round
    in_breach: list[str] = Field(default_factory=new_list)
    pins: int = 0
    move_plus: int = 0  # movement saved up in Move+ (2) and Move++ (3) markers, in squares
    hull_down: bool = False
    spotted: bool = False  # the general Spotted marker
    spotted_by: list[int] = Field(default_factory=new_list)  # other vehicles' own markers on it
    shots: int = 0  # main-gun SHOOT actions this phase (ROF)
    hull_moved: bool = False  # the license plate has moved the hull this phase (one a phase)
    moved: int = 0  # squares the hull moved this phase (mounting, dismounting)
    looks: int = 0  # LOOK cards played this turn (radio contact)
    passengers: list[int] = Field(default_factory=new_list)
    riders: list[int] = Field(default_factory=new_list)
    kills: int = 0
    smoke_trail: int | None = None  # issue 9, engine/vehicles/smoke.py: the turn its generator or pot lays smoke
    # minefields still in its load, two tokens each, private to its side (engine/battlefield/mines.py)
    mine_load: list[list[str]] = Field(default_factory=new_list, exclude_if=lambda m: not m)

    def __setattr__(self, name: str, value) -> None:
        if getattr(self, "_shared", False):
            raise SharedVehicleError(f"vehicle {self.plate} is shared between states: "
                                     f"set {name} on st.changing_vehicle({self.plate})")
        super().__setattr__(name, value)


class VpEntry(Model):
    """A VP award: made once and never changed, so frozen, and a state's copy shares it."""

    model_config = ConfigDict(frozen=True)

    seat: int | None = None  # None: a side-level award
    side: Nationality
    amount: int
    reason: str
    kind: Literal["kill", "friendly_fire", "prisoner", "orders", "event", "card"] = "kill"  # card: a react's cost
    serial: int | None = None  # the soldier killed or held prisoner
    by: int | None = None  # the soldier who killed him, took him or carried out the orders


class SmokeMarker(Model):
    tile: str
    density: Literal[2, 3] = 2
    turn: int  # the turn it was laid: it lasts at least until that turn ends
    clears_after: int | None = None  # the phase of this turn after which it clears


class DroppedItem(Model):
    """An equipment card lying where its carrier fell (engine/battlefield/recovery.py, issue 9): public, and
    searchable with an identity check only in the turn it was dropped."""

    item: str
    tile: str
    turn: int
    used: int = 0  # uses already spent on that copy
    serial: int  # the man who carried it
    side: Nationality  # ... and his side


class Minefield(Model):
    """Mine tokens laid face down in one tile (engine/battlefield/mines.py; Hell on Wheels, Mines). Their
    tokens, and so their kind, are known only to the owning side until the field goes off."""

    tile: str
    side: Nationality
    seat: int | None = None  # the player who bought it
    tokens: list[str]  # at, gp, fake, booby
    revealed: bool = False  # it has gone off: its kind is known to everyone


class Weather(Model):
    look: int = 0
    shoot: int = 0


class TrailMark(Model):
    """Something that happened in the phase, for pictures: a move, a shot or a blast. Made
    once and never changed, so frozen, and a state's copy shares it (its path too)."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["move", "shot", "toss", "blast", "charge", "kill"]
    serial: int | None = None
    path: list[tuple[int, int]] = Field(default_factory=new_list)
    target: int | None = None


# ---------------------------------------------------------------------------- artillery (issue 9)


class ArtilleryCall(Model):
    """An artillery call under way (engine/battlefield/artillery.py): the lettered marker pair, one on the
    target tile and one on the sighting track. Everything but `id`, `seat` and `tile` is private
    to its player until the reveal."""

    id: int  # the public number of the marker on the map
    seat: int
    letter: str
    kind: str  # ordnance chart id ("gun:PLATE": a main gun with a blast line as on-board artillery)
    tile: str
    rows_left: int  # Sight actions still needed to reach On Target
    fake: bool = False
    caller: int  # the radio operator's dog tag or the calling vehicle's plate
    device: Literal["radio", "walkie", "phone"] = "radio"
    smoke: bool = False  # smoke instead of shells (core manual, Smoke): a 3x marker at the reveal
    relay: int | None = None  # the friendly set the call went through (a dog tag or a plate), if relayed


class PlannedBarrage(Model):
    seat: int
    kind: str
    turn: int
    tile: str
    smoke: bool = False  # smoke instead of shells: a 3x marker on the landmark


class Artillery(Model):
    """Artillery and radios (engine/battlefield/artillery.py): fire missions bought, calls and barrages under
    way, and radio contact this turn. All private to each seat except the markers' places."""

    ordnance: dict[int, list[str]] = Field(default_factory=dict)  # seat -> kinds bought, not yet used
    bought: dict[int, list[str]] = Field(default_factory=dict)  # seat -> every kind bought (fakes bluff these)
    calls: list[ArtilleryCall] = Field(default_factory=new_list)
    barrages: list[PlannedBarrage] = Field(default_factory=new_list)
    looks: dict[str, int] = Field(default_factory=dict)  # squad force -> LOOK cards played this turn
    called: dict[int, int] = Field(default_factory=dict)  # caller -> calls made this turn
    next_id: int = 1


# ---------------------------------------------------------------------------- the card in play


class Source(Model):
    """One part of a card in play: the dog tag action, the team bubble or the narrator box."""

    kind: Literal["tag", "team", "note", "identity"]  # identity: a command card's identity box (engine/advanced/teams.py)
    state: Literal["ready", "open", "closed"] = "ready"
    entry: int = 0  # team: the bubble entry now in use
    used: list[int] = Field(default_factory=new_list)  # team: soldiers who acted for the bubble
    uses: int = 0  # actions taken in the current entry (team) or in all (tag, note)
    rallied: list[int] = Field(default_factory=new_list)  # rallies done through this source
    rally_limit: int | None = None  # fixed when the first rally starts (a pin halves it then)
    drawn: list[int] = Field(default_factory=new_list)  # identity: a dog tag per card of his drawn, one per action


class ActiveCard(Model):
    force: str
    card: str
    phase: int
    action: Action  # the phase action the card is being used for
    sources: list[Source]
    moved_escorts: list[int] = Field(default_factory=new_list)  # an escort moves once per action card
    react: bool = False  # a react card played out of turn: the interrupted card waits in GameState.interrupted
    react_after: str | None = None  # a react card: the force whose action it answers
    react_asked: list[str] = Field(default_factory=new_list)  # ... and the forces asked so far in that window


class PreemptMark(Model):
    """A preempt played against a revealed card (engine/advanced/preempt.py): the named enemy soldiers
    must take that card's team-bubble actions of the required kind first; then `then`."""

    by: str  # the preempting force
    card: str  # the preempt card
    force: str  # the force whose card is preempted
    target: str  # the preempted card
    action: Action  # the required action
    soldiers: list[int]
    acted: list[int] = Field(default_factory=new_list)  # named soldiers who have taken their action
    then: Do | None = None
    then_done: bool = False


# ---------------------------------------------------------------------------- fights


class FightState(Model):
    members: list[int]  # soldiers in this fight
    order: list[str]  # forces in initiative order at the start of the fight
    turn_index: int = 0  # whose turn to play a card, index into order
    passes: int = 0  # consecutive forces that could not play
    defeated: list[tuple[int, str, int | None]] = Field(default_factory=new_list)  # (serial, force, striker)
    queue: list[list[int]] = Field(default_factory=new_list)  # fights still to resolve this phase
    # close combat against vehicles (issue 9, engine/battlefield/close_combat.py): compartments still to fight
    # this phase, as (plate, part), and the one being fought now (plate None: an ordinary fight)
    close: list[tuple[int, str]] = Field(default_factory=new_list)
    plate: int | None = None
    part: str | None = None


class Assault(Model):
    """Close combat against vehicles (issue 9, engine/battlefield/close_combat.py): the compartment a soldier in
    an enemy vehicle's tile chose to attack, and whether he drops a grenade in at the shoot step."""

    plate: int
    part: Literal["hull", "turret", "cabin"]
    grenade: bool = False


# ---------------------------------------------------------------------------- pending decisions


class HitPlusPending(Model):
    kind: Literal["hitplus"] = "hitplus"
    force: str
    shooter: int
    bands: list[str]
    target: int
    hits: int  # hits of the last check, waiting for their damage
    candidates: list[int]
    friendly: list[int] = Field(default_factory=new_list)  # soldiers sharing hits (fights, escorts)
    hit_count: int = 0  # hits applied so far in this shot (for alternating)
    # a vehicle weapon's burst (engine/vehicles/shoot.py): its hits are struck before the nomination
    plate: int | None = None
    weapon: str | None = None
    ammo: str | None = None  # the main gun's round, for its effect on the first target's tile
    first: int | None = None  # the burst's first target and his tile
    where: str | None = None
    checks: int = 0  # hit checks fired so far (ruling V24's limit)


class DeclarePending(Model):
    kind: Literal["declare"] = "declare"
    force: str
    card: str
    phase: int
    options: list[Action]


class PayPending(Model):
    kind: Literal["pay"] = "pay"
    force: str
    card: str
    count: int


class CapturePending(Model):
    kind: Literal["capture"] = "capture"
    force: str
    victim: int
    escorts: list[int]
    striker: int | None = None  # who played the Kill: credited if the victim is killed


class ReleasePending(Model):
    kind: Literal["release"] = "release"
    force: str  # the prisoner's own force, who moves him
    prisoner: int


class HoldPending(Model):
    kind: Literal["unhold"] = "unhold"
    forces: list[str]


class ReactPending(Model):
    """After an opponent's action: this force may play a react card from its hand (engine/advanced/react.py)."""
    kind: Literal["react"] = "react"
    force: str
    after: str  # the force whose action has just been completed
    asked: list[str] = Field(default_factory=new_list)  # forces already asked in this window


class PreemptPending(Model):
    """After the phase's reveal: this force may play a preempt card (engine/advanced/preempt.py)."""
    kind: Literal["preempt"] = "preempt"
    force: str
    asked: list[str] = Field(default_factory=new_list)


class ThenPending(Model):
    """A preempt's follow-up: the preempting force's soldier acts against the men just made to act."""
    kind: Literal["then"] = "then"
    force: str
    card: str
    do: Do
    targets: list[int]


Pending = Annotated[
    Union[HitPlusPending, DeclarePending, PayPending, CapturePending, ReleasePending, HoldPending,
          ReactPending, PreemptPending, ThenPending],
    Field(discriminator="kind"),
]


Step = Literal["turn_start", "place", "phase_start", "phase_preempt", "phase_hold", "phase_fire", "slot", "fights", "fighting",
               "phase_end", "turn_end", "over"]


class Result(Model):
    winner: Nationality | None  # None: a draw
    reason: str
    vp: dict[str, int]


class GameState(Model):
    """The whole game at one moment. A state is a value: apply changes its own working copy
    (`clone`), never a state it was given. The JSON a state was written as (`json_without_setup`)
    is kept for its forces, vehicles and soldiers (`_texts`), and a copy of it (`_origin`) writes
    a vehicle equal to the one it was copied from, and the very same forces and soldiers, with
    that text again."""

    __slots__ = ("_origin", "_texts")

    setup: GameSetup
    rng: int
    seats: list[Seat]
    forces: dict[str, ForceState]
    soldiers: dict[int, SoldierState]
    vehicles: dict[int, VehicleState] = Field(default_factory=dict)  # by license plate
    story_deck: list[str]  # private order, public count
    story_discard: list[str] = Field(default_factory=new_list)
    phase_cards: list[str] = Field(default_factory=new_list)
    turn: int = 0
    phase: int = 0  # 1..3 while resolving a phase
    slot: int = 0  # 0: the phase card's top action, 1: its bottom action
    step: Step = "turn_start"
    done_sources: list[str] = Field(default_factory=new_list)  # forces whose card for this slot is done
    done_cards: list[str] = Field(default_factory=new_list)  # cards done in this slot (an officer's two)
    active: ActiveCard | None = None
    interrupted: ActiveCard | None = None  # the card waiting while a react card is played
    react_after: str | None = None  # a force has just completed an action: the react window is due
    preempts: list[PreemptMark] = Field(default_factory=new_list)  # preempts played this phase
    fight: FightState | None = None
    assaults: dict[int, Assault] = Field(default_factory=dict)  # close combat against vehicles (engine/battlefield/close_combat.py)
    pending: Pending | None = None
    pending_queue: list[Pending] = Field(default_factory=new_list)  # decisions to ask once the current one is answered
    fires: list[str] = Field(default_factory=new_list)
    artillery: Artillery = Field(default_factory=Artillery)  # artillery and radios (engine/battlefield/artillery.py)
    mines: list[str] = Field(default_factory=new_list)  # known minefields (engine/battlefield/mines.py): public, general purpose
    minefields: list[Minefield] = Field(default_factory=new_list)  # mines bought, face down (engine/battlefield/mines.py)
    sighted: dict[str, list[int]] = Field(default_factory=dict)  # tile -> Sight markers: 0 general, else a plate
    smoke: list[SmokeMarker] = Field(default_factory=new_list)
    dropped: list[DroppedItem] = Field(default_factory=new_list)  # abandoned equipment (engine/battlefield/recovery.py), public
    weather: Weather = Weather()
    lasting_weather: Weather = Weather()
    vp: list[VpEntry] = Field(default_factory=new_list)
    trail: list[TrailMark] = Field(default_factory=new_list)  # what happened in the phase under way
    last_trail: list[TrailMark] = Field(default_factory=new_list)  # ... and in the phase finished last
    last_trail_phase: tuple[int, int] | None = None  # (turn, phase) of last_trail
    panels: list[int] = Field(default_factory=new_list)  # plates that acted or were hit in the phase under way
    last_panels: list[int] = Field(default_factory=new_list)  # ... in the phase finished last (send their panels)
    order_progress: dict[int, dict[str, int]] = Field(default_factory=dict)  # private per seat
    landmark_holders: dict[str, str] = Field(default_factory=dict)  # landmark -> side, captured landmarks
    result: Result | None = None
    seq: int = 0  # commands applied
    asked_at: int = 0  # the seq after which the one-moment decision open now was asked (engine/legal.py decision_key)

    # ------------------------------------------------------------------ helpers (no rules here)

    @property
    def board(self) -> Board:
        return self.setup.board()

    def vehicle_def(self, plate: int):
        return self.setup.vehicles[self.vehicles[plate].vehicle]

    def soldier_def(self, serial: int) -> SoldierDef:
        return self.setup.soldiers[serial]

    def card(self, card_id: str) -> ActionCardDef:
        return self.setup.cards[card_id]

    def name(self, serial: int) -> str:
        if serial in self.vehicles:
            return f"{self.vehicle_def(serial).name} {serial}"
        s = self.soldiers[serial]
        d = self.setup.soldiers[serial]
        return f"{d.profile(s.rank).title} {d.name}"

    def stats(self, serial: int) -> Stats:
        """The side of his card in use (wounded or healthy); pins are applied by the rules."""
        s = self.soldiers[serial]
        p = self.setup.soldiers[serial].profile(s.rank)
        return p.wounded if s.wounded else p.healthy

    def vp_value(self, serial: int) -> int:
        return self.vp_of(self.soldiers[serial])

    def vp_of(self, s: SoldierState) -> int:
        """vp_value for a soldier already in hand (initiative reads every man's)."""
        return self.setup.soldiers[s.serial].profile(s.rank).vp

    def force_of_seat(self, seat: int) -> list[ForceState]:
        return [f for f in self.forces.values() if f.seat == seat]

    def seat_of_force(self, force: str) -> Seat:
        return self.seats[self.forces[force].seat]

    def side_vp(self, side: str) -> int:
        return sum(e.amount for e in self.vp if e.side == side)

    def seat_vp(self, seat: int) -> int:
        return sum(e.amount for e in self.vp if e.seat == seat)

    def smoke_map(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for m in self.smoke:
            out[m.tile] = max(out.get(m.tile, 1), m.density)
        return out

    def occupied(self) -> dict[tuple[int, int], int]:
        return {s.at: s.serial for s in self.soldiers.values() if s.on_board and s.at is not None}

    def clone(self) -> "GameState":
        """A working copy for apply: the frozen setup (and any frozen model) is shared, every
        list, dict and state model is copied, field by field as the model declares them; no
        validation, so several times cheaper than a dump and validate round trip, and equal to
        it (tests/engine/test_state_copy.py). The soldiers and the forces are the exception: the
        copy gets a new dict holding the same SoldierState and ForceState objects, now read-only
        in both states, and a rule makes one its own with `changing` (`changing_force`) before it
        changes him (it)."""
        deque(map(_MARK_SHARED, self.soldiers.values(), repeat(True)), 0)  # each soldier's slot set, in C
        deque(map(_MARK_FORCE_SHARED, self.forces.values(), repeat(True)), 0)
        deque(map(_MARK_VEHICLE_SHARED, self.vehicles.values(), repeat(True)), 0)
        copy = _model_copier(GameState, _SHARED_FIELDS)(self)
        _set(copy, "_origin", self if getattr(self, "_texts", None) is not None else None)
        _set(copy, "_texts", None)
        return copy

    def share_field_names(self) -> "GameState":
        """Each model of the state (itself, each soldier, force and vehicle, the seats, the card
        in play...; not the frozen setup) given every field, as a parse of the stored text mostly
        is, gives up its own set of the names given for its class's one shared set; those sets
        were half the memory of a parsed state (docs/app.md, Memory). The same state, for chaining."""
        _share_names(self)
        return self

    def every_field_given(self) -> "GameState":
        """Each model of the state (not the frozen setup, nor a frozen model) counted as given
        every field, with its class's one shared set of their names, as `share_field_names` gives
        a parsed state. A new game's soldiers, forces and vehicles are made from a few fields
        each, and each kept a set of the names given (12–22 KB a state); nothing reads which
        fields were given (no dump leaves the unset out, and equality ignores them), and the
        stored text writes every field, so the game reads the same either way. The same state,
        for chaining (docs/architecture.md, "One set of field names per class")."""
        _share_names(self, all_given=True)
        return self

    def json_without_setup(self, head: str = "{") -> str:
        """The text of `model_dump_json(exclude={"setup"})`, made with less work: a shared soldier
        is read-only, so the text of his first dump is kept on him and written again for every
        state that shares him (a command changes a handful of some twenty men; the soldiers were
        three quarters of the dump's work). Likewise the seats, a vehicle, each force's and soldier's
        entry, and each run of the other fields (`_RUNS`) that may be kept, written alike
        (`_model_same`; a force or soldier: the very same one) in the state this one was cloned from, if
        that state was written, and the whole list of soldiers' entries when they are the very same
        men: that state is a value, so the text it was written with is still its text (docs/app.md,
        Performance). The pieces (kept on the state as `_texts` for its copies and `json_kept`) are
        joined once, after `head` (the opening brace, or the store's document head with it:
        StateCodec.dumps), not copied again by each concatenation (a state is some 15 KB)."""
        fields = self.__dict__
        origin = getattr(self, "_origin", None)
        was, kept = (origin.__dict__, origin._texts) if origin is not None else ({}, {})
        _, seats_json, seats_same, runs = _writers()
        seats = fields["seats"]
        seats_text = kept.get("seats")
        if seats_text is None or not seats_same(seats, was["seats"]):
            seats_text = seats_json(seats).decode()
        texts = {"seats": seats_text,
                 "forces": _keyed_json(fields["forces"], was, kept, "forces"),
                 "soldiers": _soldiers_json(self.soldiers, was.get("soldiers"), kept.get("soldiers")),
                 "vehicles": _keyed_json(fields["vehicles"], was, kept, "vehicles")}
        for name, same, write in runs:
            text = kept.get(name) if same is not None else None
            texts[name] = text if text is not None and same(fields, was) else write(fields)
        _set(self, "_texts", texts)
        _set(self, "_origin", None)  # its texts are taken: the older state may go
        return _state_json(head, fields, texts)

    def text_kept(self) -> bool:
        """Whether `json_kept` can make this state's text again."""
        return getattr(self, "_texts", None) is not None

    def json_kept(self, head: str = "{") -> str | None:
        """The text `json_without_setup` last wrote of this state (the same `head` given), made
        again from the pieces it kept (a state is a value): its soldiers', forces' and vehicles'
        entries, seats and runs of the other fields joined, the rng written again. None if
        the state was never written (a parsed state) or its pieces went with a copy's writing. So
        a cached game need not hold its whole text while its state is kept (docs/app.md, Memory)."""
        texts = getattr(self, "_texts", None)
        return None if texts is None else _state_json(head, self.__dict__, texts)

    def changing(self, serial: int) -> SoldierState:
        """Soldier `serial`, writable: this state's own copy of him, made on first use if he
        is shared with another state. Read him as `soldiers[serial]`; change him through this."""
        return _own(self.soldiers, serial, SoldierState)

    def changing_force(self, force_id: str) -> ForceState:
        """Force `force_id`, writable: this state's own copy of it (its lists and dict copied),
        made on first use if it is shared with another state. Read it as `forces[force_id]`;
        change it, its lists included (`deck.pop`, `hand.remove`, `placed[i] = ...`), through this."""
        return _own(self.forces, force_id, ForceState)

    def changing_vehicle(self, plate: int) -> VehicleState:
        """Vehicle `plate`, writable: this state's own copy of it (its lists and dicts copied, the
        damage markers' lists too), made on first use if it is shared with another state. Read it
        as `vehicles[plate]`; change it, its lists and dicts included (`crew[post] = ...`,
        `damage[loc].append`, `in_hand.pop`), through this."""
        return _own(self.vehicles, plate, VehicleState)


def _own(items: dict, key, cls: type[Model]):
    """`items[key]` (a soldier, force or vehicle), this state's own: if it is shared with another
    state (its `_shared` slot), a copy of it made by the class's copier, put in its place."""
    item = items[key]
    if getattr(item, "_shared", False):
        item = _model_copier(cls)(item)
        _set(item, "_shared", False)  # set, not left unset: reading an unset slot is many times slower
        items[key] = item
    return item


_MARK_SHARED = SoldierState.__dict__["_shared"].__set__  # the slot's own setter: no name lookup, no __setattr__
_MARK_FORCE_SHARED = ForceState.__dict__["_shared"].__set__
_MARK_VEHICLE_SHARED = VehicleState.__dict__["_shared"].__set__
_SHARED_FIELDS = frozenset({"soldiers", "forces", "vehicles"})  # GameState fields whose container clone copies but whose items it shares
_ORDER = list(GameState.model_fields)  # the dump writes the fields in this order
_KEYED = {"forces": ForceState, "vehicles": VehicleState}  # dicts whose items' texts a copy reuses
# the fields after the vehicles, in the dump's order, in runs: each run's text is kept on the
# state (`_texts`), and a run that may be kept (the second item: its fields in the order they are
# compared, the likeliest to differ first) is written again with the text of the state cloned
# from when its fields are written alike there. Comparing a field in Python costs about what the
# serializer spends writing a plain one (~1,000 instructions), so only runs cheap to compare and
# dear to write are compared: lists of ids and of frozen marks, which a copy shares item by item
# (`==` finds them the very same). The others, which hold the card in play (changed by nearly
# every command), the step, the count of commands, are written every time (None), one call a run.
# Share of autoplayed commands (hedgerow-dawn, tardieu-bombardment) changing a run: the story
# 9% / 4%, the steady run a few %, the trails 50% / 27%.
_RUNS = (
    ("story", ("story_deck", "story_discard", "phase_cards")),
    ("middle", None),
    ("steady", ("mines", "minefields", "sighted", "smoke", "dropped", "weather", "lasting_weather", "vp")),
    ("trails", ("trail", "last_trail_phase", "last_trail")),
    ("tail", None),
)
_STEADY = dict(_RUNS)["steady"]  # the run of fields (mines to VP) a command seldom changes


def _run_fields() -> list[tuple[str, tuple[str, ...]]]:
    """Each run's name and its fields in the dump's order, the runs one after another covering
    every field after the vehicles (checked: a field added to GameState goes into a run)."""
    after = _ORDER[_ORDER.index("vehicles") + 1:]
    spans, start = [], 0
    for name, compared in _RUNS:
        if compared is not None:
            end = start + len(compared)
            if set(after[start:end]) != set(compared):
                break
        else:  # a run written every time: up to the next run's first field
            following = [c for _, c in _RUNS[len(spans) + 1:] if c is not None]
            nexts = [after.index(f) for f in following[0]] if following else [len(after)]
            end = min(nexts)
        if end <= start:
            break
        spans.append((name, tuple(after[start:end])))
        start = end
    else:
        if start == len(after):
            return spans
    raise TypeError("json_without_setup writes the fields in GameState's order: update _RUNS with the fields")


if _ORDER[:_ORDER.index("vehicles") + 1] != ["setup", "rng", "seats", "forces", "soldiers", "vehicles"]:
    raise TypeError("json_without_setup writes the fields in GameState's order: update it with the fields")
_RUN_FIELDS = _run_fields()


def _state_json(head: str, fields: dict, texts: dict) -> str:
    """The state's text after `head` from its kept pieces (`texts`: json_without_setup) and its
    rng, written now. The soldiers', forces' and vehicles' entries are joined here, once
    with the rest, not kept joined as well: each man's text was held three times (his entry, the
    soldiers' text, the state's), now once while the state is kept (docs/app.md, Memory)."""
    rng = fields["rng"]
    return "".join((head, '"rng":', str(rng) if type(rng) is int else _writers()[0](rng).decode(), ',"seats":',
                    texts["seats"], ',"forces":{', ",".join(texts["forces"].values()), '},"soldiers":{',
                    ",".join(texts["soldiers"]), '},"vehicles":{', ",".join(texts["vehicles"].values()), "},",
                    texts["story"], ",", texts["middle"], ",", texts["steady"], ",", texts["trails"], ",",
                    texts["tail"], "}"))


def _soldiers_json(soldiers: dict[int, SoldierState], was: dict | None, kept: list[str] | None) -> list[str]:
    """Each soldier's `"serial":{...}` entry as the state's serializer writes it, in their order.
    The very soldiers of the state this one was copied from, in the same order (shared, so
    read-only): that state's entries, the very list. The same serials in the same order: that
    state's entry for each man still the very same object, the others written. Otherwise each
    shared soldier's own kept text, the others written."""
    if kept is not None and len(soldiers) == len(was) and all(map(eq, soldiers, was)):
        alike = [*map(is_, soldiers.values(), was.values())]
        if all(alike):
            return kept
        entries = [*kept]
        items = [*soldiers.items()]
        for i in compress(range(len(items)), map(not_, alike)):
            entries[i] = _soldier_entry(*items[i])
    else:
        entries = [_soldier_entry(serial, s) for serial, s in soldiers.items()]
    return entries


def _soldier_entry(serial: int, s: SoldierState) -> str:
    """A soldier's `"serial":{...}` entry: a shared one's kept on him at its first writing (he
    is read-only). The kept entry is the very string the states' entry lists hold, not a second
    copy of his text (a copy each was 6 MB with 1,000 games cached)."""
    if getattr(s, "_shared", False):
        try:
            return s._json
        except AttributeError:
            text = f'"{serial}":{_flat_writer(SoldierState)(s)}'
            _set(s, "_json", text)
            return text
    return f'"{serial}":{_flat_writer(SoldierState)(s)}'


def _keyed_json(items: dict, was: dict, kept: dict, name: str) -> dict:
    """The forces or the vehicles (`name`): each item's entry `"key":{...}` by key, as the
    state's serializer writes it (the dict's text without its braces is the entries joined). An
    item that is the very force or vehicle under its key in `was` (the __dict__ of the state this
    one was copied from, whose texts are `kept`: shared, so read-only) takes that item's entry, as
    does a vehicle made its own but written alike (`_model_same`) with the one there; the others
    are written (a force made writable by `changing_force` mostly was changed: not compared field
    by field)."""
    cls = _KEYED[name]
    item_json = _flat_writer(cls)
    same = None if cls is ForceState else _model_same(cls)
    old_texts = kept.get(name)
    if old_texts is None:
        return {key: f"{_key_json(key)}:{item_json(item)}" for key, item in items.items()}
    olds = was[name]
    texts = {}
    for key, item in items.items():
        old = olds.get(key)
        texts[key] = (old_texts[key] if old is item or (same is not None and old is not None and same(old, item))
                      else f"{_key_json(key)}:{item_json(item)}")
    return texts


@lru_cache(maxsize=4096)
def _key_json(key: str | int) -> str:
    """A dict key as JSON writes it (an integer key as its digits in quotes): force ids and plates."""
    return TypeAdapter(str).serializer.to_json(str(key)).decode()


def _as_str(annotation):
    """The annotation with each str enum and each Literal of strings read as plain str, through
    lists, dicts, tuples and unions: what a value of it is written as in JSON is the same text (a
    str enum member is a str holding its value), without the enum serializer's call for the
    member's `value` in Python (a third of a force's or soldier's writing)."""
    origin, args = get_origin(annotation), get_args(annotation)
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return str if issubclass(annotation, str) else annotation
    if origin is Literal:
        return str if all(type(a) is str for a in args) else annotation
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        raise TypeError(f"{annotation.__name__}: a nested model is not written by _flat_writer")
    if origin is list:
        return list[_as_str(args[0])]
    if origin is dict:
        return dict[_as_str(args[0]), _as_str(args[1])]
    if origin is tuple:
        return annotation if Ellipsis in args else tuple[tuple(_as_str(a) for a in args)]
    if origin in (Union, UnionType):
        return reduce(or_, [_as_str(a) for a in args])
    if origin is not None or annotation not in _IMMUTABLE:
        raise TypeError(f"{annotation}: not written by _flat_writer")
    return annotation


@cache
def _flat_writer(cls: type[BaseModel]) -> Callable[[BaseModel], str]:
    """A writer of a model of this class (its fields plain values, lists and dicts, no nested
    model): the text its own serializer writes, by a serializer made for a TypedDict of its
    fields with every str enum and str Literal read as str (`_as_str`), given its __dict__
    (both write a __dict__'s items in their order). A trailing field with `exclude_if` (a
    vehicle's mine load) is written after the others unless it is left out. Made on the first
    dump, not at import."""
    decorators = cls.__pydantic_decorators__
    if decorators.field_serializers or decorators.model_serializers or cls.model_config.get("ser_json_timedelta"):
        raise TypeError(f"{cls.__name__}: its own serializers would be lost by _flat_writer")
    names = list(cls.model_fields)
    tail = []
    while cls.model_fields[names[-1]].exclude_if is not None:
        tail.insert(0, names.pop())
    for name in names + tail:
        info = cls.model_fields[name]
        if info.alias or info.serialization_alias or info.exclude or (info.exclude_if and name not in tail):
            raise TypeError(f"{cls.__name__}.{name}: its Field settings would be lost by _flat_writer")
    shape = TypedDict(f"_{cls.__name__}Text", {n: _as_str(cls.model_fields[n].annotation) for n in names})
    to_json = TypeAdapter(shape).serializer.to_json
    if not tail:
        return lambda model: to_json(model.__dict__).decode()
    ends = [(n, cls.model_fields[n].exclude_if, TypeAdapter(_as_str(cls.model_fields[n].annotation)).serializer.to_json,
             _key_json(n)) for n in tail]

    def write(model: BaseModel) -> str:
        fields = model.__dict__
        text = to_json(fields).decode()
        for name, left_out, value_json, key in ends:
            value = fields[name]
            if not left_out(value):
                text = f"{text[:-1]}{',' if len(text) > 2 else ''}{key}:{value_json(value).decode()}}}"
        return text
    return write


def _part_writer(names: tuple[str, ...]) -> Callable[[dict], str]:
    """A writer of these GameState fields, given the state's __dict__: the text the state's
    serializer writes for them, without the braces, in one call of a serializer made for a
    TypedDict of just those fields (the state's serializer told to include some fields filters
    every field by name, a fixed cost twice the writing of most of them)."""
    for name in names:
        info = GameState.model_fields[name]
        if info.metadata or info.alias or info.serialization_alias or info.exclude or info.exclude_if:
            raise TypeError(f"GameState.{name}: its Field settings would be lost by _part_writer")
    shape = TypedDict(f"_{names[0]}_to_{names[-1]}", {n: GameState.model_fields[n].annotation for n in names})
    namespace = {"_to_json": TypeAdapter(shape).serializer.to_json}
    body = ", ".join(f"{n!r}: fields[{n!r}]" for n in names)
    exec(f"def write(fields):\n    return _to_json({{{body}}}).decode()[1:-1]\n", namespace)  # noqa: S102 (field names of our models)
    return namespace["write"]


@cache
def _writers() -> tuple:
    """What json_without_setup writes and compares with, made on the first dump, not at import
    (a few milliseconds): the rng's and the seats' serializers, the seats' test (`_same_function`),
    and for each run of the other fields (`_RUNS`) its name, its test (`_model_same` over its
    fields in their order of comparison; None: written every time) and its writer."""
    compared = dict(_RUNS)
    runs = tuple((name, None if compared[name] is None else _model_same(GameState, compared[name]),
                  _part_writer(names)) for name, names in _RUN_FIELDS)
    return (TypeAdapter(GameState.model_fields["rng"].annotation).serializer.to_json,
            TypeAdapter(GameState.model_fields["seats"].annotation).serializer.to_json,
            _same_function(GameState.model_fields["seats"].annotation), runs)


def _copied(value):
    """A structural copy of a state value: containers and mutable models new, the rest shared."""
    kind = type(value)
    if kind is list:
        return [_copied(v) for v in value]
    if kind is dict:
        return {k: _copied(v) for k, v in value.items()}
    if isinstance(value, BaseModel) and not value.model_config.get("frozen"):
        return _model_copier(kind)(value)
    return value  # immutable: numbers, strings, enums, tuples of those, frozen models


_IMMUTABLE = (int, float, str, bool, type(None))


def _copy_source(annotation, value: str, names: dict, depth: int = 0) -> str | None:
    """Python source of an expression copying `value` (a plain name) of this annotated type,
    None if the value is immutable and so shared; `names` gets the functions it calls."""
    origin, args = get_origin(annotation), get_args(annotation)
    if annotation in _IMMUTABLE or origin is Literal:
        return None
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return None
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        if annotation.model_config.get("frozen"):
            return None
        name = f"_copy_{annotation.__name__}_{len(names)}"
        names[name] = _model_copier(annotation)
        return f"{name}({value})"
    if origin is Annotated:
        return _copy_source(args[0], value, names, depth)
    if origin is tuple and all(_copy_source(a, "_", {}) is None for a in args if a is not Ellipsis):
        return None
    item = f"_{depth}"
    if origin is list:
        inner = _copy_source(args[0], item, names, depth + 1)
        if inner is None:
            return f"[*{value}]"
        # each item's copy by `map` when it is one call (no comprehension's frame, no bytecode an
        # item), and an empty one without even that (most of a state's lists of models are empty)
        call = _one_call(inner, item)
        return (f"([*map({call}, {value})] if {value} else [])" if call is not None
                else f"([{inner} for {item} in {value}] if {value} else [])")
    if origin is dict:
        inner = _copy_source(args[1], item, names, depth + 1)
        return f"{{**{value}}}" if inner is None else (
            f"({{_k{depth}: {inner} for _k{depth}, {item} in {value}.items()}} if {value} else {{}})")
    if origin in (Union, UnionType):
        present = [a for a in args if a is not type(None)]
        inner = [_copy_source(a, value, names, depth) for a in present]
        if all(c is None for c in inner):
            return None
        if len(present) == 1:
            return inner[0] if len(present) == len(args) else f"(None if {value} is None else {inner[0]})"
    names["_copied"] = _copied
    return f"_copied({value})"


def _one_call(inner: str, item: str) -> str | None:
    """The function that an item's copy expression `inner` (of the plain name `item`) is a call of,
    given the item alone: a copier's name, `list` for `[*item]`, `dict` for `{**item}`; else None.
    (A dict's items stay a comprehension: `dict(zip(keys, map(...)))` was slower for a state's
    few forces and vehicles.)"""
    if inner == f"[*{item}]":
        return "list"
    if inner == f"{{**{item}}}":
        return "dict"
    head, _, rest = inner.partition("(")
    return head if rest == f"{item})" and head.isidentifier() else None


def _not_none(annotation):
    """X of `X | None` (the copier checks for None itself), else the annotation as it is."""
    if get_origin(annotation) in (Union, UnionType):
        present = [a for a in get_args(annotation) if a is not type(None)]
        if len(present) == 1:
            return present[0]
    return annotation


def _container_of(annotation) -> Callable:
    origin = get_origin(annotation)
    if origin not in (list, dict):
        raise TypeError(f"only a list or dict field can be copied shallow, not {annotation}")
    return origin


# what a copier sets on the new model, each through its own slot's descriptor: a third cheaper a
# model than object.__setattr__, which looks the name up on the class first (a copy makes some 20)
_SETTERS = {"_new": as_given.new, "_set_dict": as_given.set_dict, "_set_fields": as_given.set_fields,
            "_set_extra": as_given.set_extra, "_set_private": as_given.set_private}


@cache
def _model_copier(cls: type[BaseModel], shallow: frozenset[str] = frozenset()) -> Callable:
    """A copier for one model class, written out as straight Python for that class (as
    dataclasses writes its __init__): its __dict__ copied at once, then each field whose value
    is mutable copied (a None stays None); a field named in `shallow` gets a new container
    holding the same items. No loop over a plan, no call per field. A copy given every field
    takes the class's one shared set of their names (`AllFields`), not a set of its own: the
    sets were some 10 KB of each kept state (docs/app.md, Memory)."""
    names = {"_cls": cls, "_AllFields": AllFields, "_every": _every_field(cls), **_SETTERS}
    lines = ["def copy(value):", "    d = value.__dict__", "    f = d.copy()"]
    for name, info in cls.model_fields.items():
        if name in shallow:
            expr = "[*v]" if _container_of(info.annotation) is list else "{**v}"
        else:
            expr = _copy_source(_not_none(info.annotation), "v", names)
        if expr is None:
            continue
        if expr in ("[*v]", "{**v}"):  # a new list or dict of the same items, read once: no name for it
            lines.append(f"    f[{name!r}] = {expr[:-2]}d[{name!r}]{expr[-1]}")
        elif _not_none(info.annotation) is info.annotation:  # never None
            lines += [f"    v = d[{name!r}]", f"    f[{name!r}] = {expr}"]
        else:
            lines += [f"    v = d[{name!r}]", "    if v is not None:", f"        f[{name!r}] = {expr}"]
    lines += [
        "    new = _new(_cls)",
        "    _set_dict(new, f)",
        "    given = value.__pydantic_fields_set__",
        "    _set_fields(new, given if type(given) is _AllFields else _every if given == _every else set(given))",
        "    _set_extra(new, None)",
        "    _set_private(new, None)",
        "    return new",
    ]
    names["__source__"] = source = "\n".join(lines) + "\n"
    exec(source, names)  # noqa: S102 (field names of our models)
    return names["copy"]


# ---------------------------------------------------------------------------- "written alike"


def _plain(annotation) -> bool:
    """A value of this type holds no dict and no unfrozen model: `==` says whether two are written alike."""
    origin, args = get_origin(annotation), get_args(annotation)
    if annotation in _IMMUTABLE or origin is Literal or (isinstance(annotation, type) and issubclass(annotation, Enum)):
        return True
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return bool(annotation.model_config.get("frozen")) and all(
            _plain(info.annotation) for info in annotation.model_fields.values())
    if origin is Annotated:
        return _plain(args[0])
    if origin in (list, tuple, Union, UnionType):
        return all(_plain(a) for a in args if a is not Ellipsis)
    return False


def _same_source(annotation, p: str, q: str, names: dict) -> str:
    """Python source of a test that values `p` and `q` (plain names) of this type are written
    alike: equal, and every dict inside in the same key order (JSON keeps the order, `==` does
    not look at it; keys the very same objects, as a copy's are). It may say False of two
    written alike, never True of two that are not."""
    origin, args = get_origin(annotation), get_args(annotation)
    if _plain(annotation):
        return f"{p} == {q}"
    if origin is Annotated:
        return _same_source(args[0], p, q, names)
    if _is_model(annotation):
        name = f"_same_{annotation.__name__}_{len(names)}"
        names[name] = _model_same(annotation)
        return f"{name}({p}, {q})"
    if origin in (Union, UnionType):
        present = [a for a in args if a is not type(None)]
        if len(present) == 1:
            inner = _same_source(present[0], p, q, names)
            return f"({p} is {q} or ({p} is not None and {q} is not None and {inner}))"
    if origin in (list, dict):
        item = args[0] if origin is list else args[1]
        if origin is dict and _plain(item):
            return f"({p} == {q} and all(map(_is, {p}, {q})))"
        name = f"_same_item_{len(names)}"
        names[name] = _model_same(item) if _is_model(item) else _same_function(item)
        if origin is list:
            return f"(len({p}) == len({q}) and all(map({name}, {p}, {q})))"
        return f"(len({p}) == len({q}) and all(map(_is, {p}, {q})) and all(map({name}, {p}.values(), {q}.values())))"
    names["_same_any"] = _same_any
    return f"_same_any({p}, {q})"


def _is_model(annotation) -> bool:
    """An unfrozen model class."""
    return isinstance(annotation, type) and issubclass(annotation, BaseModel) and not annotation.model_config.get("frozen")


def _same_function(annotation) -> Callable:
    """_same_source as a function of two values."""
    names = {"_is": is_}
    exec(f"def same(a, b):\n    return {_same_source(annotation, 'a', 'b', names)}\n", names)  # noqa: S102 (field names of our models)
    return names["same"]


@cache
def _model_same(cls: type[BaseModel], only: tuple[str, ...] | None = None) -> Callable:
    """A test that two models of this class (or, with `only`, two __dict__s holding those
    fields) are written alike (_same_source), written out as straight Python for the class."""
    names = {"_is": is_, "_cls": cls}
    fields = [(n, cls.model_fields[n].annotation) for n in (only or cls.model_fields)]
    if only is None:
        lines = ["def same(a, b):", "    if type(a) is not _cls or type(b) is not _cls:", "        return False",
                 "    x = a.__dict__", "    y = b.__dict__"]
    else:
        lines = ["def same(x, y):"]
    if only is None and all(_plain(t) or (get_origin(t) is dict and _plain(get_args(t)[1])) for _, t in fields):
        lines += ["    if x != y:", "        return False"]  # a flat model: __dict__ at once, then each dict's order
        for n, t in fields:
            if get_origin(t) is dict:
                lines += [f"    if not all(map(_is, x[{n!r}], y[{n!r}])):", "        return False"]
    else:
        for n, t in fields:
            lines += [f"    p = x[{n!r}]", f"    q = y[{n!r}]", f"    if not {_same_source(t, 'p', 'q', names)}:",
                      "        return False"]
    lines.append("    return True")
    names["__source__"] = source = "\n".join(lines) + "\n"
    exec(source, names)  # noqa: S102 (field names of our models)
    return names["same"]


def _same_any(a, b) -> bool:
    """_same_source for values whose type is known only as they come (a union of several models)."""
    kind = type(a)
    if kind is not type(b):
        return False
    if kind is list:
        return len(a) == len(b) and all(map(_same_any, a, b))
    if kind is dict:
        return len(a) == len(b) and all(map(is_, a, b)) and all(map(_same_any, a.values(), b.values()))
    if isinstance(a, BaseModel) and not a.model_config.get("frozen"):
        return _model_same(kind)(a, b)
    return a == b


SUBACTION_WORDS = {d.value: d for d in Do}
