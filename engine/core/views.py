"""The shapes of what a player sees (engine/view.py fills them): the public view, a seat's own
part of it, the card and vehicle views, and who is awaited. Pydantic models, frozen, nothing but
data, so every package may build or read them (the artillery rules build their markers here)."""
# no `from __future__ import annotations`: pydantic reads these models' types, not strings to compile (docs/architecture.md)

from pydantic import BaseModel, ConfigDict, Field

from engine.core.content import AreaDef, TileDef
from engine.core.state import TrailMark
from engine.core.vehicle_content import VehicleDef
from engine.core.words import new_list


class Await(BaseModel):
    seat: int
    kind: str  # place, declare, unhold, act, hitplus, pay, fight, capture, release, react, preempt, then
    force: str | None = None
    detail: str = ""
    key: str = ""  # the decision's identity (decision_key): unchanged while it is the same decision



class V(BaseModel):
    # each view is built when first used, not at import: a first command needs few of them
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class RatingsView(V):
    sight: int
    draw: int
    cover: int
    rally: int
    hold: int
    walk: int
    climb: int
    fight: int
    long: int
    short: int
    close: int
    toss: int
    hit_plus: bool
    command: int = 0
    medic: int = 0


class SoldierView(V):
    serial: int
    name: str
    title: str
    side: str
    force: str
    controller: str
    status: str
    at: tuple[int, int] | None
    facing: str
    spotted: bool
    pinned: bool
    wounded: bool
    grenades: int
    held: int  # how many cards he holds (the cards themselves are private)
    captor: int | None
    in_contact: bool
    ratings: RatingsView  # the side of his card in use, before halving for a pin
    weapon: str
    medals: int
    spotted_by: list[int] = Field(default_factory=new_list)  # vehicles whose own Spotted marker he carries
    vehicle: int | None = None  # aboard (or a crewman standing beside) this vehicle
    post: str | None = None
    dismounted: bool = False
    on_deck: int | None = None  # on foot up on this enemy vehicle (SMG close combat), public
    on_turret: bool = False  # ... on its turret rather than its hull deck
    in_cover: bool = False  # on a cover feature or leaning on NO MOVE terrain (core manual, In Cover)


class TeamView(V):
    count: int
    do: str


class CardView(V):
    """A card face: only ever built for a revealed card or for its owner's eyes."""

    id: str
    owner: int
    owner_name: str
    actions: list[str]
    title: str
    team: list[TeamView]
    narrator: str | None
    narrator_color: str | None
    hit: dict[str, str]
    damage: str
    damage_color: str


class PhaseCardView(V):
    id: str
    title: str
    top: str
    bottom: str
    effect_category: str
    effect_text: str
    cause: str
    color: str


class SlotView(V):
    phase: int
    state: str  # empty, face down, revealed
    card: CardView | None = None
    action: str | None = None


class ForceView(V):
    id: str
    seat: int
    side: str
    hand: int
    deck: int
    discard: int
    fight_cards: int
    slots: list[SlotView]
    entry_area: str | None


class SeatView(V):
    index: int
    name: str
    side: str
    vp: int
    order_done: bool
    order_title: str | None  # only once completed and announced


class VpView(V):
    side: str
    seat: int | None
    amount: int
    reason: str
    kind: str = "kill"  # what scored it (engine.core.state.VpEntry.kind): kill, prisoner, orders, event ...


class ActiveView(V):
    force: str
    card: CardView
    action: str
    parts: dict[str, str]


class FightView(V):
    members: list[int]
    order: list[str]
    to_play: str | None


class VehicleView(V):
    """A vehicle or gun and its panel as everyone at the table sees it (Hell on Wheels: the
    panels lie open). Static panel data is View.vehicle_defs[vehicle]."""

    plate: int
    vehicle: str  # VehicleDef id
    name: str
    kind: str
    side: str
    force: str
    controller: str
    status: str  # waiting, board, destroyed, abandoned, exited
    tile: str | None
    facing: str
    turret: str | None
    crew: dict[str, int]  # crew position -> dog tag
    aboard: dict[int, str]  # everyone aboard -> where on the panel (position, machinery, cabin, deck)
    dismounted: list[int]  # crewmen standing beside it
    unbuttoned: list[str]
    damage: dict[str, list[str]]  # location -> wreck / fire / critical markers
    cook_off: list[str]
    ready: dict[str, int]
    in_hand: list[str]
    in_breach: list[str]
    pins: int
    move_plus: int
    hull_down: bool
    spotted: bool
    spotted_by: list[int]
    shots: int
    kills: int
    looks: int = 0  # LOOK cards this turn, toward radio contact


class HiddenMarker(V):
    """Hidden deployment: `count` hidden soldiers of `side` somewhere in `tile`."""

    tile: str
    side: str
    count: int


# ---------------------------------------------------------------- the vehicle book's battlefield (issue 9)
# Public: markers and tokens face down. Private (Mine): letters, faces, plans and mine kinds.


class ArtilleryMarkerView(V):
    """An artillery marker on the map as the table sees it: cross-hairs only. Its letter, its
    type and whether it is On Target or Fake stay with its owner until the reveal."""

    id: int  # a public number for the marker (not its letter)
    side: str
    tile: str


class ArtilleryCallView(V):
    """One of a player's own artillery calls (private): the letter pair, its face and the track."""

    letter: str
    kind: str  # ordnance chart id
    tile: str
    rows_left: int  # Sight rows still to climb before On Target
    fake: bool
    caller: int | None = None  # the radio operator (dog tag) or vehicle (plate)
    marker: int | None = None  # the public number of its marker on the map (engine/battlefield/artillery.py)
    smoke: bool = False  # a smoke mission (a 3x smoke marker at the reveal)
    relay: int | None = None  # the set it was relayed through (dog tag or plate)


class BarrageView(V):
    """A heavy artillery or rocket barrage a player planned (private until its turn)."""

    kind: str
    turn: int
    tile: str
    smoke: bool = False


class MinefieldView(V):
    """Mine tokens face down in a tile, as everyone sees them."""

    tile: str
    side: str
    tokens: int
    kind: str | None = None  # at, gp, mixed, booby, fake: only once it has gone off (engine/battlefield/mines.py)


class MyMinefieldView(V):
    """One of his side's minefields with its tokens face up (private to that side's players)."""

    tile: str
    tokens: list[str]
    kind: str  # at, gp, mixed, booby, fake


class RoadblockView(V):
    tile: str
    kind: str
    name: str = ""
    defender: int | None = None  # the soldier in its fighting position


class CloseCombatView(V):
    """A close combat against a vehicle compartment still being fought (or due at the phase end)."""

    plate: int
    part: str  # hull, turret, cabin
    attackers: list[int]
    crew: list[int]
    step: str = "due"  # due, shoot, initiative, fight


class DroppedView(V):
    """An equipment card lying where its carrier fell, searchable this turn (engine/battlefield/recovery.py)."""

    item: str
    name: str
    tile: str


class MyForce(V):
    """One of a seat's decks: his squad or one of his vehicles."""

    id: str
    kind: str
    plate: int | None
    hand: list[CardView]
    placed: list[CardView | None]
    planned: bool


class Mine(V):
    """One seat's private view."""

    seat: int
    hand: list[CardView]
    placed: list[CardView | None]
    held: dict[int, list[CardView]]
    fight_cards: list[CardView]
    order: dict | None
    soldier_vp: dict[int, int]
    deck_top: int = Field(description="cards left in the deck")
    forces: list[MyForce] = Field(default_factory=new_list, description="hand and placed cards per deck")
    own_hidden: list[SoldierView] = Field(default_factory=new_list,
                                          description="his side's men the other side sees only as hidden markers")
    artillery: list[ArtilleryCallView] = Field(default_factory=new_list, description="his artillery calls under way")
    barrages: list[BarrageView] = Field(default_factory=new_list, description="his planned barrages not yet fired")
    minefields: list[MyMinefieldView] = Field(default_factory=new_list, description="his side's mines, face up")
    mine_loads: dict[int, list[list[str]]] = Field(default_factory=dict, description="plate -> minefields left in "
                                                   "the load of his side's vehicles, two tokens each")
    radio: dict[str, int] = Field(default_factory=dict, description="caller (dog tag or plate) -> LOOK phases "
                                                                  "toward radio contact this turn")
    ordnance: list[str] = Field(default_factory=new_list, description="artillery bought and not yet called")


class View(V):
    scenario: str
    scenario_name: str
    turn: int
    turns: int
    phase: int
    step: str
    story_left: int
    phase_cards: list[PhaseCardView]
    board: dict  # width, height, rows of tile ids
    tiles: dict[str, TileDef]  # the map's tiles (static and public): modifiers, features, areas
    map_key: str  # changes only when the map does: a cache key for pictures
    entry_areas: dict[str, AreaDef]
    entry_sides: dict[str, list[str]]  # entry area -> the sides that may come on there
    exit_areas: dict[str, AreaDef]
    deploy: dict[str, list[str]]  # side -> deployment tiles
    seats: list[SeatView]
    forces: list[ForceView]
    soldiers: list[SoldierView]
    hidden: list[HiddenMarker] = Field(default_factory=new_list)  # hidden deployment: unspotted men, per tile
    vehicles: list[VehicleView] = Field(default_factory=new_list)
    vehicle_defs: dict[str, VehicleDef] = Field(default_factory=dict)  # panels (static and public)
    vp: dict[str, int]
    vp_log: list[VpView]
    fires: list[str]
    mines: list[str] = Field(default_factory=new_list)  # known minefields (engine/battlefield/mines.py): public, general purpose
    artillery: list[ArtilleryMarkerView] = Field(default_factory=new_list)  # artillery markers, face down
    minefields: list[MinefieldView] = Field(default_factory=new_list)  # mine tokens, face down
    roadblocks: list[RoadblockView] = Field(default_factory=new_list)
    close_combats: list[CloseCombatView] = Field(default_factory=new_list)
    dropped: list[DroppedView] = Field(default_factory=new_list)  # abandoned equipment this turn (engine/battlefield/recovery.py)
    options: dict[str, bool] = Field(default_factory=dict)  # the scenario's optional rules in force
    sighted: dict[str, list[int]] = Field(default_factory=dict)  # tile -> Sight markers (0 general, else a plate)
    smoke: dict[str, int]
    weather: dict[str, int]
    landmark_holders: dict[str, int]
    active: ActiveView | None
    fight: FightView | None
    awaiting: list[Await]
    trail: list[TrailMark]  # moves, shots and blasts of the phase under way
    last_trail: list[TrailMark]  # ... of the phase finished last (draw these after a phase)
    last_trail_phase: tuple[int, int] | None  # (turn, phase) of last_trail
    panels: list[int] = Field(default_factory=new_list)  # plates that acted or were hit in the phase under way
    last_panels: list[int] = Field(default_factory=new_list)  # ... in last_trail's phase: send their panels
    result: dict | None
    mine: Mine | None = None
