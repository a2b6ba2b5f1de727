"""view(state, viewer): what one player — or the public — may see.

This is the only place hidden information is stripped. Hands, placed cards before their
reveal, held cards, fight cards not yet played, orders (until completed), deck order and
discards, and every living soldier's VP are private. The public view has no field that could
hold them; a player's view adds his own under `mine`.

Hidden deployment (engine/hidden_deployment.py): a hidden soldier is left out of `soldiers`,
the trail, the fight and every card face, and shows only in `hidden` (a marker per tile and
side, with the count); his own side gets him under `mine.own_hidden`."""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from engine import fight as fights
from engine import hidden_deployment as hd
from engine import artillery as artillery_rules  # artillery markers and calls (engine/artillery.py)
from engine import mines  # minefields (engine/mines.py)
from engine.contact import in_contact
from engine.content import AreaDef, TileDef
from engine.legal import Await, awaiting
from engine.crew import is_open
from engine.state import GameState, TrailMark
from engine.vehicle_content import VehicleDef


class V(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


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
    spotted_by: list[int] = Field(default_factory=list)  # vehicles whose own Spotted marker he carries
    vehicle: int | None = None  # aboard (or a crewman standing beside) this vehicle
    post: str | None = None
    dismounted: bool = False
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
    kind: str = "kill"  # what scored it (engine.state.VpEntry.kind): kill, prisoner, orders, event ...


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
    marker: int | None = None  # the public number of its marker on the map (engine/artillery.py)


class BarrageView(V):
    """A heavy artillery or rocket barrage a player planned (private until its turn)."""

    kind: str
    turn: int
    tile: str


class MinefieldView(V):
    """Mine tokens face down in a tile, as everyone sees them."""

    tile: str
    side: str
    tokens: int
    kind: str | None = None  # at, gp, mixed, booby, fake: only once it has gone off (engine/mines.py)


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
    """An equipment card lying where its carrier fell, searchable this turn (engine/recovery.py)."""

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
    forces: list[MyForce] = Field(default_factory=list, description="hand and placed cards per deck")
    own_hidden: list[SoldierView] = Field(default_factory=list,
                                          description="his side's men the other side sees only as hidden markers")
    artillery: list[ArtilleryCallView] = Field(default_factory=list, description="his artillery calls under way")
    barrages: list[BarrageView] = Field(default_factory=list, description="his planned barrages not yet fired")
    minefields: list[MyMinefieldView] = Field(default_factory=list, description="his side's mines, face up")
    radio: dict[str, int] = Field(default_factory=dict, description="caller (dog tag or plate) -> LOOK phases "
                                                                  "toward radio contact this turn")
    ordnance: list[str] = Field(default_factory=list, description="artillery bought and not yet called")


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
    hidden: list[HiddenMarker] = Field(default_factory=list)  # hidden deployment: unspotted men, per tile
    vehicles: list[VehicleView] = Field(default_factory=list)
    vehicle_defs: dict[str, VehicleDef] = Field(default_factory=dict)  # panels (static and public)
    vp: dict[str, int]
    vp_log: list[VpView]
    fires: list[str]
    mines: list[str] = Field(default_factory=list)  # known minefields (engine/mines.py): public, general purpose
    artillery: list[ArtilleryMarkerView] = Field(default_factory=list)  # artillery markers, face down
    minefields: list[MinefieldView] = Field(default_factory=list)  # mine tokens, face down
    roadblocks: list[RoadblockView] = Field(default_factory=list)
    close_combats: list[CloseCombatView] = Field(default_factory=list)
    dropped: list[DroppedView] = Field(default_factory=list)  # abandoned equipment this turn (engine/recovery.py)
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
    panels: list[int] = Field(default_factory=list)  # plates that acted or were hit in the phase under way
    last_panels: list[int] = Field(default_factory=list)  # ... in last_trail's phase: send their panels
    result: dict | None
    mine: Mine | None = None


def card_view(st: GameState, cid: str) -> CardView:
    c = st.card(cid)
    owner = st.name(c.owner) if c.owner in st.soldiers or c.owner in st.vehicles else \
        st.setup.soldiers[c.owner].name if c.owner in st.setup.soldiers else str(c.owner)
    return CardView(
        id=c.id, owner=c.owner, owner_name=owner, actions=[a.value for a in c.actions], title=c.title,
        team=[TeamView(count=e.count, do=e.do.value) for e in c.team],
        narrator=(c.narrator.text or c.narrator.kind) if c.narrator else None,
        narrator_color=c.narrator.color if c.narrator else None,
        hit=c.hit.model_dump(), damage=c.damage.value, damage_color=c.damage_color)


HIDDEN_CARD_ID = "hidden"


def _public_card(st: GameState, cid: str, secret: set[int]) -> CardView:
    """A revealed card as the table sees it: a hidden soldier's card shows what it does, not
    whose it is (id, owner, name, title and narrator blanked)."""
    c = card_view(st, cid)
    if c.owner not in secret:
        return c
    return c.model_copy(update={"id": HIDDEN_CARD_ID, "owner": 0, "owner_name": hd.HIDDEN_NAME,
                                "title": hd.HIDDEN_CARD, "narrator": None, "narrator_color": None})


def _soldier_view(st: GameState, serial: int, secret: set[int] = frozenset()) -> SoldierView:
    s = st.soldiers[serial]
    d = st.setup.soldiers[serial]
    stats = st.stats(serial)
    return SoldierView(
        serial=serial, name=d.name, title=d.profile(s.rank).title, side=s.side, force=s.force,
        controller=s.controller, status=s.status, at=s.at, facing=s.facing, spotted=s.spotted,
        pinned=s.pinned, wounded=s.wounded, grenades=s.grenades, held=len(s.held),
        captor=None if s.captor in secret else s.captor,
        in_contact=bool(in_contact(st, serial)) if s.free else False,
        ratings=RatingsView(**stats.model_dump()), weapon=d.weapon, medals=s.medals,
        spotted_by=list(s.spotted_by), vehicle=s.vehicle, post=s.post, dismounted=s.dismounted,
        in_cover=s.status == "board" and s.at is not None and st.board.in_cover(s.at))


def vehicle_view(st: GameState, plate: int) -> VehicleView:
    v = st.vehicles[plate]
    d = st.vehicle_def(plate)
    aboard = {s.serial: s.post or "" for s in st.soldiers.values() if s.status == "aboard" and s.vehicle == plate}
    dismounted = sorted(s.serial for s in st.soldiers.values()
                        if s.dismounted and s.vehicle == plate and s.status == "board")
    return VehicleView(
        plate=plate, vehicle=v.vehicle, name=d.name, kind=d.kind, side=v.side, force=v.force,
        controller=v.controller, status=v.status, tile=v.tile, facing=v.facing, turret=v.turret,
        crew=dict(v.crew), aboard=dict(sorted(aboard.items())), dismounted=dismounted,
        unbuttoned=sorted(set(v.unbuttoned) | {loc.id for loc in d.crew_positions if is_open(st, plate, loc.id)}),
        damage={k: list(x) for k, x in v.damage.items() if x},
        cook_off=list(v.cook_off), ready=dict(v.ready), in_hand=list(v.in_hand), in_breach=list(v.in_breach),
        pins=v.pins, move_plus=v.move_plus, hull_down=v.hull_down, spotted=v.spotted,
        spotted_by=list(v.spotted_by), shots=v.shots, kills=v.kills, looks=v.looks)


def _slots(st: GameState, f, secret: set[int] = frozenset()) -> list[SlotView]:
    out = []
    for i in range(3):
        c = f.placed[i]
        if c is not None and (f.revealed[i] or f.face_up[i]):
            act = f.declared.get(c)
            out.append(SlotView(phase=i + 1, state="revealed", card=_public_card(st, c, secret),
                                action=act.value if act and f.revealed[i] else None))
        elif c is not None:
            out.append(SlotView(phase=i + 1, state="face down"))
        elif f.shown[i] is not None:
            out.append(SlotView(phase=i + 1, state="played", card=_public_card(st, f.shown[i], secret)))
        else:
            out.append(SlotView(phase=i + 1, state="empty"))
    return out


def view(st: GameState, viewer: int | None = None) -> View:
    """The public view (viewer None) or one seat's view."""
    board = st.board
    secret = hd.hidden(st)  # hidden deployment: the men the public sees only as markers
    words = hd.Words(st, secret) if secret else None
    seats = [SeatView(index=s.index, name=s.name, side=s.side, vp=st.seat_vp(s.index), order_done=s.order_done,
                      order_title=st.setup.orders[s.order].title if s.order_done and s.order else None)
             for s in st.seats]
    forces = [ForceView(id=f.id, seat=f.seat, side=f.side, hand=len(f.hand), deck=len(f.deck),
                        discard=len(f.discard), fight_cards=len(f.fight_pool), slots=_slots(st, f, secret),
                        entry_area=f.entry_area)
              for f in st.forces.values()]
    active = None
    if st.active is not None:
        a = st.active
        active = ActiveView(force=a.force, card=_public_card(st, a.card, secret), action=a.action.value,
                            parts={s.kind: s.state for s in a.sources})
    fight_view = None
    if st.fight is not None and st.fight.members:
        fight_view = FightView(members=[m for m in st.fight.members if m not in secret], order=list(st.fight.order),
                               to_play=fights.whose_turn(st))
    sides = sorted({s.side for s in st.seats})
    v = View(
        scenario=st.setup.scenario.id, scenario_name=st.setup.scenario.name, turn=st.turn,
        turns=st.setup.scenario.turns, phase=st.phase, step=st.step, story_left=len(st.story_deck),
        phase_cards=[_phase_card(st, c) for c in st.phase_cards],
        board={"width": board.width, "height": board.height, "rows": [list(r) for r in st.setup.scenario.map]},
        tiles=dict(st.setup.tiles), map_key=st.setup.map_key or st.setup.digest(),
        entry_areas=dict(st.setup.scenario.entry_areas),
        entry_sides={a: [s.id.value for s in st.setup.scenario.sides if a in s.entry]
                     for a in st.setup.scenario.entry_areas},
        exit_areas=dict(st.setup.scenario.exit_areas),
        deploy={s.id.value: list(s.deploy) for s in st.setup.scenario.sides if s.deploy},
        seats=seats, forces=forces,
        soldiers=[_soldier_view(st, n, secret) for n in sorted(st.soldiers)
                  if st.soldiers[n].status != "reserve" and n not in secret],
        hidden=[HiddenMarker(tile=t, side=side, count=k) for t, side, k in hd.markers(st, secret)],
        vehicles=[_public_vehicle(st, p, secret) for p in sorted(st.vehicles)],
        vehicle_defs=dict(st.setup.vehicles),
        roadblocks=_roadblocks(st, secret),  # roadblocks, barricades, wrecks on roads (engine/roadblocks.py)
        options={k: v for k, v in st.setup.scenario.options.model_dump().items()  # the optional rules, on or
                 if isinstance(v, bool)},  # off (issue 9; numbers such as other_ammo_vp left out)
        close_combats=_close_combats(st, secret),  # close combat against vehicles (engine/close_combat.py)
        vp={side: st.side_vp(side) for side in sides},
        vp_log=[VpView(side=e.side, seat=e.seat, amount=e.amount, kind=e.kind,
                       reason=words.scrub(e.reason) if words else e.reason) for e in st.vp],
        mines=list(st.mines),  # known minefields (engine/mines.py)
        minefields=[MinefieldView(tile=t, side=side, tokens=n, kind=k)  # mines bought, face down (engine/mines.py)
                    for t, side, n, k in mines.public_fields(st)] if st.minefields else [],
        dropped=[DroppedView(item=d.item, name=st.setup.equipment[d.item].name, tile=d.tile)  # issue 9
                 for d in st.dropped if d.turn == st.turn],
        artillery=artillery_rules.public_markers(st),  # face down: no letter, kind or face
        fires=list(st.fires), sighted={k: list(v) for k, v in st.sighted.items()}, smoke=st.smoke_map(),
        weather={"look": st.weather.look + st.lasting_weather.look, "shoot": st.weather.shoot + st.lasting_weather.shoot},
        landmark_holders={k: int(v) for k, v in st.landmark_holders.items()},
        active=active, fight=fight_view, awaiting=_awaiting(st, words), trail=_trail(st.trail, secret),
        last_trail=_trail(st.last_trail, secret), last_trail_phase=st.last_trail_phase,
        panels=list(st.panels), last_panels=list(st.last_panels),
        result=st.result.model_dump() if st.result else None,
    )
    if viewer is None:
        return v
    return v.model_copy(update={"mine": private_view(st, viewer)})


def _close_combats(st: GameState, secret: set[int]) -> list[CloseCombatView]:
    """Close combats against vehicles under way or due (engine/close_combat.py); hidden men left out."""
    if not st.vehicles:
        return []
    from engine.close_combat import views
    return [CloseCombatView(**{**d, "attackers": [m for m in d["attackers"] if m not in secret]}) for d in views(st)]


def _roadblocks(st: GameState, secret: set[int]) -> list[RoadblockView]:
    """Roadblocks in play and the man in each fighting position (a hidden man is left out)."""
    if not st.setup.scenario.roadblocks and not st.vehicles:
        return []
    from engine.roadblocks import view_rows
    return [RoadblockView(**{**d, "defender": None if d["defender"] in secret else d["defender"]})
            for d in view_rows(st)]


def _trail(marks: list[TrailMark], secret: set[int]) -> list[TrailMark]:
    return [m for m in marks if m.serial not in secret and m.target not in secret] if secret else list(marks)


def _awaiting(st: GameState, words) -> list[Await]:
    waits = awaiting(st)
    if words is None:
        return waits
    return [a.model_copy(update={"detail": words.scrub(a.detail)}) for a in waits]


def _public_vehicle(st: GameState, plate: int, secret: set[int]) -> VehicleView:
    v = vehicle_view(st, plate)
    if secret and set(v.dismounted) & secret:
        v = v.model_copy(update={"dismounted": [n for n in v.dismounted if n not in secret]})
    return v


def _phase_card(st: GameState, cid: str) -> PhaseCardView:
    c = st.setup.story[cid]
    return PhaseCardView(id=c.id, title=c.title, top=c.top.value, bottom=c.bottom.value,
                         effect_category=c.effect.category.value, effect_text=c.effect.text,
                         cause=c.cause.value, color=c.color)


def private_view(st: GameState, seat: int) -> Mine:
    """Only one seat's secrets (hand, placed and held cards, fight cards, orders, his soldiers'
    VP): what a private message needs, without building the whole public view."""
    forces = [f for f in st.forces.values() if f.seat == seat]
    hand = [card_view(st, c) for f in forces for c in f.hand]
    placed: list[CardView | None] = []
    for f in forces[:1]:
        placed = [card_view(st, c) if c else None for c in f.placed]
    ids = {f.id for f in forces}
    held = {s.serial: [card_view(st, c) for c in s.held] for s in st.soldiers.values() if s.force in ids and s.held}
    pool = [card_view(st, c) for f in forces for c in f.fight_pool]
    o = st.seats[seat].order
    order = None
    if o:
        od = st.setup.orders[o]
        order = {"id": od.id, "title": od.title, "text": od.text, "vp": od.vp, "kind": od.kind.value,
                 "landmark": od.landmark, "done": st.seats[seat].order_done}
    vps = {s.serial: st.vp_value(s.serial) for s in st.soldiers.values() if s.force in ids}
    mine = [MyForce(id=f.id, kind=f.kind, plate=f.plate, hand=[card_view(st, c) for c in f.hand],
                    placed=[card_view(st, c) if c else None for c in f.placed], planned=f.planned)
            for f in forces]
    side = st.seats[seat].side
    own_hidden = [_soldier_view(st, n) for n in sorted(hd.hidden(st)) if st.soldiers[n].side == side]
    mined = [MyMinefieldView(tile=t, tokens=tokens, kind=k or "none")  # his side's mines, face up (engine/mines.py)
             for t, tokens, k in mines.side_fields(st, side)] if st.minefields else []
    return Mine(seat=seat, hand=hand, placed=placed, held=held, fight_cards=pool, order=order, soldier_vp=vps,
                deck_top=sum(len(f.deck) for f in forces), forces=mine, own_hidden=own_hidden,
                **artillery_rules.private(st, seat), minefields=mined)
