"""Positions: a game situation written down (YAML or JSON), like chess's FEN.

A position names a scenario (its map, sides and areas), the players, every soldier in play with
his cell, facing and markers, every vehicle and gun with its tile, facing, crew, damage,
ammunition and markers, and optionally the hands, the phase cards and the top cards of each
deck (a seat's squad deck by seat number, a vehicle's deck by its plate). It serves scenario
designers, rules questions ("what happens if ...") and bug reports. Format: docs/position.md.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine import legal  # noqa: F401  (fills the slot a position's play sequence asks: is there anything to do?)
from engine.core.board import DIRS
from engine.core.content import Catalog, MineToken, Nationality, Rank, soldier_cards
from engine.core.errors import ContentError
from engine.core.log import Ctx
from engine.core.rng import Rng
from engine.core.state import (
    Artillery,
    ArtilleryCall,
    Assault,
    DroppedItem,
    ForceState,
    GameSetup,
    GameState,
    Minefield,
    PlannedBarrage,
    Seat,
    SmokeMarker,
    SoldierState,
    VehicleState,
    VpEntry,
    Weather,
)
from engine.battlefield.artillery import GUN, LETTERS
from engine.core.vehicle_content import PLATE_STEP
from engine.core.words import new_list
from engine.turn.sequence import advance
from engine.vehicles.setup import own_cards, trained, type_of_plate

PLATES = 500  # deck keys from here up are license plates, below it seat numbers


class P(BaseModel):
    model_config = ConfigDict(extra="forbid")


class MinefieldPos(P):
    """Mine tokens face down in a tile (engine/battlefield/mines.py): whose they are and which tokens."""

    tile: str
    side: Nationality
    tokens: list[Literal["at", "gp", "fake", "booby"]] = Field(min_length=1, max_length=4)
    seat: int | None = None
    revealed: bool = Field(False, description="it has gone off: its kind is public")


class PlayerPos(P):
    name: str
    side: Nationality
    order: str | None = None
    order_done: bool = False
    always_pass: bool = False
    entry_area: str | None = Field(None, description="the area his squad enters by (scenarios with a choice)")


class CallPos(P):
    """An artillery call under way (engine/battlefield/artillery.py): its marker pair."""

    id: int | None = Field(None, ge=1, description="the public number of its marker (default: the next)")
    seat: int
    kind: str = Field(description="an ordnance chart id, or gun:PLATE for an on-board gun")
    tile: str
    rows_left: int = Field(ge=0, description="Sight actions still needed to reach On Target")
    caller: int = Field(description="the radio operator's dog tag or the calling vehicle's plate")
    device: Literal["radio", "walkie", "phone"] = "radio"
    letter: str | None = Field(None, description="default: the seat's next free letter")
    fake: bool = False
    smoke: bool = False
    relay: int | None = Field(None, description="the friendly set it was relayed through (dog tag or plate)")


class BarragePos(P):
    seat: int
    kind: str
    turn: int = Field(ge=1)
    tile: str
    smoke: bool = False


class ArtilleryPos(P):
    """Fire missions bought and not yet used, what was bought (fakes bluff these), calls under
    way and barrages planned, by seat."""

    ordnance: dict[int, list[str]] = Field(default_factory=dict)
    bought: dict[int, list[str]] | None = Field(None, description="default: ordnance and the barrages' kinds")
    calls: list[CallPos] = Field(default_factory=new_list)
    barrages: list[BarragePos] = Field(default_factory=new_list)
    next_marker: int | None = Field(None, ge=1, description="the number the next call's marker gets")


class AssaultPos(P):
    """A soldier's chosen attack on an enemy vehicle in his tile (engine/battlefield/close_combat.py)."""

    plate: int
    part: Literal["hull", "turret", "cabin"]
    grenade: bool = False


class SmokePos(P):
    density: Literal[2, 3]
    laid: int | None = Field(None, description="the turn it was laid (default: the position's turn)")
    clears_after: int | None = Field(None, ge=1, le=3, description="the phase of this turn after which it clears")


class DroppedPos(P):
    item: str
    tile: str
    turn: int
    serial: int = Field(description="the man who carried it")
    side: Nationality
    used: int = 0


class ScoredPos(P):
    """One VP entry as a game keeps it: who scored, how much and why (for campaigns and results)."""

    side: Nationality
    amount: int
    reason: str
    kind: Literal["kill", "friendly_fire", "prisoner", "orders", "event", "card"] = "event"
    seat: int | None = None
    serial: int | None = None
    by: int | None = None


class WeatherPos(P):
    look: int = 0
    shoot: int = 0


class SoldierPos(P):
    serial: int
    seat: int = Field(description="index of the player who fields him")
    rank: Rank = Rank.PRIVATE
    at: tuple[int, int] | None = Field(None, description="inch cell; omit for a soldier still to enter")
    facing: str = "n"
    spotted: bool = False
    pinned: bool = False
    wounded: bool = False
    grenades: int | None = None
    medals: int = 0
    equipment: list[str] = Field(default_factory=new_list)
    held: list[str] = Field(default_factory=new_list)
    captor: int | None = None
    status: Literal["board", "aboard", "waiting", "dead", "exited", "reserve", "removed"] | None = None
    crew_of: int | None = Field(None, description="plate of the vehicle whose deck holds his cards (a crewman)")
    vehicle: int | None = Field(None, description="aboard (or dismounted beside): the vehicle's plate")
    post: str | None = Field(None, description="aboard: crew position, machinery location, cabin or deck")
    dismounted: bool = False
    spotted_by: list[int] = Field(default_factory=new_list, description="plates whose own Spotted marker he has")
    on_deck: int | None = Field(None, description="on foot up on this enemy vehicle, in its tile (SMG close combat)")
    on_turret: bool = Field(False, description="with on_deck: on its turret rather than its hull deck")
    # tactics modules (engine/advanced/teams.py): his team panel and slot; a panel named brings its team cards
    panel: str | None = None
    slot: int | None = Field(None, ge=0)
    deeds: dict[str, int] = Field(default_factory=dict, description="what he did this game, for campaigns")
    kills: int = Field(0, ge=0)
    captures: int = Field(0, ge=0)
    special: list[str] = Field(default_factory=new_list,
                               description="a specialist's optional cards in his squad's deck (react, preempt, command)")


class VehiclePos(P):
    plate: int = Field(ge=PLATES)
    vehicle: str | None = Field(None, description="the panel's id; default: the catalogue's vehicle with this plate")
    seat: int
    status: Literal["board", "waiting", "destroyed", "abandoned", "exited"] | None = None
    tile: str | None = Field(None, description="omit for a vehicle still to enter")
    facing: str = "n"
    turret: str | None = Field(None, description="default: the hull's facing (a vehicle with a turret)")
    crew: dict[str, int] = Field(default_factory=dict, description="crew position -> dog tag")
    unbuttoned: list[str] = Field(default_factory=new_list)
    damage: dict[str, list[Literal["wreck", "fire", "critical"]]] = Field(default_factory=dict)
    cook_off: list[str] = Field(default_factory=new_list)
    ready: dict[str, int] = Field(default_factory=dict)
    in_hand: list[str] = Field(default_factory=new_list)
    in_breach: list[str] = Field(default_factory=new_list)
    pins: int = Field(0, ge=0)
    move_plus: int = Field(0, ge=0)
    hull_down: bool = False
    spotted: bool = False
    spotted_by: list[int] = Field(default_factory=new_list)
    passengers: list[int] = Field(default_factory=new_list)
    riders: list[int] = Field(default_factory=new_list)
    kills: int = 0
    mine_load: list[list[MineToken]] = Field(default_factory=new_list,
                                             description="minefields left in its load, two tokens each")


class Position(P):
    scenario: str
    seed: int = 1
    turn: int = Field(0, ge=0, description="turns already played")
    players: list[PlayerPos] = Field(min_length=2, max_length=4)
    soldiers: list[SoldierPos] = Field(min_length=2)
    vehicles: list[VehiclePos] = Field(default_factory=new_list)
    hands: dict[int, list[str]] | None = Field(
        None, description="seat (squad) or plate (vehicle) -> cards; given, play starts at placement")
    phase_cards: list[str] | None = None
    decks: dict[int, list[str]] = Field(
        default_factory=dict, description="seat (squad) or plate (vehicle) -> top cards of that deck, in order")
    story_top: list[str] = Field(default_factory=new_list, description="the next phase cards, in order")
    fires: list[str] = Field(default_factory=new_list)
    smoke: dict[str, Literal[2, 3] | SmokePos] = Field(default_factory=dict)
    mines: list[str] | None = Field(None, description="mined tiles; None: the scenario's own")
    minefields: list[MinefieldPos] = Field(default_factory=new_list, description="mines bought, face down")
    vp: dict[Nationality, int] = Field(default_factory=dict, description="VP already scored, by side")
    scored: list[ScoredPos] = Field(default_factory=new_list, description="VP entries one by one (what a dump writes)")
    # what a game written mid-way holds besides the pieces (dump_position writes them all)
    discards: dict[int, list[str]] = Field(default_factory=dict, description="seat or plate -> its discard pile")
    vp_piles: dict[int, list[str]] = Field(default_factory=dict,
                                           description="seat or plate -> react cards used, out of the game")
    story_discard: list[str] = Field(default_factory=new_list, description="phase cards already played")
    artillery: ArtilleryPos | None = None
    sighted: dict[str, list[int]] = Field(default_factory=dict,
                                          description="tile -> Sight markers on it: 0 general, else a plate")
    dropped: list[DroppedPos] = Field(default_factory=new_list, description="equipment lying where its carrier fell")
    landmark_holders: dict[str, str] = Field(default_factory=dict,
                                             description="captured landmarks: tile -> the holding seat's number")
    order_progress: dict[int, dict[str, int]] = Field(default_factory=dict, description="orders' counts, by seat")
    weather: WeatherPos | None = None
    lasting_weather: WeatherPos | None = None
    assaults: dict[int, AssaultPos] = Field(default_factory=dict,
                                            description="soldier -> the compartment of an enemy vehicle he attacks")
    rng: int | None = Field(None, description="the random generator's exact state after loading (a dump's)")


def load_position(cat: Catalog, data: dict) -> tuple[GameState, list]:
    """Build a game from a position and play on to its first decision."""

    try:
        pos = Position.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        raise ContentError(f"position: field {where}: {first['msg']}") from None
    sc = cat.scenario(pos.scenario)
    rng = Rng(pos.seed)
    in_play = {s.serial for s in pos.soldiers}
    if len({v.plate for v in pos.vehicles}) < len(pos.vehicles):
        raise ContentError("position: vehicles: two vehicles have the same plate")
    vdefs = {v.plate: _vehicle_def(cat, pos, v) for v in pos.vehicles}
    own = {plate: own_cards(cat, d, plate) for plate, d in vdefs.items()}  # a plate per vehicle, its own cards
    for s in pos.soldiers:
        if s.serial not in cat.soldiers:
            raise ContentError(f"position: soldiers: no soldier with dog tag {s.serial}")
        if not 0 <= s.seat < len(pos.players):
            raise ContentError(f"position: soldier {s.serial}: seat {s.seat} does not exist")
        if s.facing not in DIRS:
            raise ContentError(f"position: soldier {s.serial}: facing must be one of {' '.join(DIRS)}")
        d = cat.soldiers[s.serial]
        if d.nationality != pos.players[s.seat].side:
            raise ContentError(f"position: soldier {s.serial} ({d.name}) is {d.nationality}, "
                               f"but seat {s.seat} plays {pos.players[s.seat].side}")
        if s.rank not in {p.rank for p in d.ranks}:
            raise ContentError(f"position: soldier {s.serial} ({d.name}) has no {s.rank} card")
        for what, plate in (("crew_of", s.crew_of), ("vehicle", s.vehicle), ("on_deck", s.on_deck)):
            if plate is not None and plate not in vdefs:
                raise ContentError(f"position: soldier {s.serial}: {what} {plate} is not a vehicle of the position")
        if s.crew_of is not None and next(v for v in pos.vehicles if v.plate == s.crew_of).seat != s.seat:
            raise ContentError(f"position: soldier {s.serial}: crew_of {s.crew_of} belongs to another seat")
        deck_seat = next((v.seat for v in pos.vehicles if v.plate == s.on_deck), None)
        if s.on_deck is not None and (s.at is None or not 0 <= deck_seat < len(pos.players)
                                      or pos.players[deck_seat].side == pos.players[s.seat].side):
            raise ContentError(f"position: soldier {s.serial}: on_deck {s.on_deck} needs him on the board (at) and the "
                               f"vehicle an enemy's")
        if s.on_turret and s.on_deck is None:
            raise ContentError(f"position: soldier {s.serial}: on_turret needs on_deck (the vehicle's plate)")
        if s.status == "aboard" and s.vehicle is None:
            raise ContentError(f"position: soldier {s.serial}: aboard needs the vehicle's plate (vehicle)")
        if s.panel is not None and (s.panel not in cat.panels or s.slot is None
                                    or s.slot >= len(cat.panels[s.panel].slots)):  # tactics modules
            raise ContentError(f"position: soldier {s.serial}: panel {s.panel!r} slot {s.slot} does not exist")
    used_panels = sorted({s.panel for s in pos.soldiers if s.panel})  # tactics modules
    pieces = {cat.tiles[t].piece for row in sc.map for t in row if cat.tiles[t].landmark}
    setup = GameSetup(
        scenario=sc,
        soldiers={n: cat.soldiers[n] for n in sorted(in_play)},
        cards={cid: c for cid, c in cat.cards.items() if c.owner in in_play or c.owner in vdefs
               or (c.panel is not None and c.panel in used_panels)}
        | {cid: c for cards in own.values() for cid, c in cards.items()},
        panels={p: cat.panels[p] for p in used_panels},
        story={cid: c for cid, c in cat.story.items() if not c.landmark or c.landmark in pieces},
        orders=dict(cat.orders), tiles={t: cat.tiles[t] for row in sc.map for t in row},
        equipment=dict(cat.equipment),
        vehicles={d.id: d for d in sorted(vdefs.values(), key=lambda d: d.id)})
    setup = setup.model_copy(update={"map_key": setup.digest()})
    board = setup.board()
    seats = [Seat(index=i, name=p.name, side=p.side, order=p.order, order_done=p.order_done,
                  always_pass=p.always_pass) for i, p in enumerate(pos.players)]
    for p in pos.players:
        if p.order and p.order not in cat.orders:
            raise ContentError(f"position: players: unknown order {p.order!r}")
    forces: dict[str, ForceState] = {}
    soldiers: dict[int, SoldierState] = {}
    fid_of = {i: f"{p.side}-{i + 1}" for i, p in enumerate(pos.players)}
    for v in pos.vehicles:  # each vehicle: a deck of its own (Action Deck)
        if not 0 <= v.seat < len(pos.players):
            raise ContentError(f"position: vehicle {v.plate}: seat {v.seat} does not exist")
        fid_of[v.plate] = f"{pos.players[v.seat].side}-{v.seat + 1}-{v.plate}"
    # per seat its squad, then its vehicles: the order new_game gives them
    order = [k for i in range(len(pos.players)) for k in [i, *(v.plate for v in pos.vehicles if v.seat == i)]]
    decks: dict[str, list[str]] = {fid_of[k]: [] for k in order}
    for plate, d in vdefs.items():
        crew = [s.serial for s in pos.soldiers if s.crew_of == plate] + \
            [n for v in pos.vehicles if v.plate == plate for n in v.crew.values()]
        decks[fid_of[plate]] += [c for c, card in own[plate].items() if card.role == "vehicle"]
        if any(trained(cat.soldiers, n, d.id) for n in crew):
            decks[fid_of[plate]] += [c for c, card in own[plate].items() if card.role == "team"]
    crew_plate = {serial: v.plate for v in pos.vehicles for serial in v.crew.values()}
    taken = set()
    for s in pos.soldiers:
        d = cat.soldiers[s.serial]
        crew_of = s.crew_of if s.crew_of is not None else crew_plate.get(s.serial)
        fid = fid_of[crew_of if crew_of is not None else s.seat]
        status = s.status or ("aboard" if s.vehicle is not None and not s.dismounted else "board" if s.at else "waiting")
        if s.at is not None:
            at = tuple(s.at)
            if not board.on_board(at):
                raise ContentError(f"position: soldier {s.serial}: cell {at} is off the {board.width}x{board.height} board")
            if status == "board":  # the fallen keep the cell they fell in; the standing share none
                if at in taken:
                    raise ContentError(f"position: soldier {s.serial}: cell {at} is taken")
                taken.add(at)
            deck_tile = next((v.tile for v in pos.vehicles if v.plate == s.on_deck), None)
            if s.on_deck is not None and board.tile_at(at) != deck_tile:
                raise ContentError(f"position: soldier {s.serial}: on_deck {s.on_deck} needs him in its tile ({deck_tile})")
        for c in s.special:
            if c not in d.special_cards:
                raise ContentError(f"position: soldier {s.serial}: {c} is not one of his specialist cards")
        if status != "reserve":
            decks[fid] += soldier_cards(d, s.rank, s.medals, cat.cards) + list(s.special)
        soldiers[s.serial] = SoldierState(
            serial=s.serial, side=d.nationality, force=fid, controller=fid, rank=s.rank, status=status,
            at=tuple(s.at) if s.at else None, facing=s.facing, spotted=s.spotted, pinned=s.pinned,
            wounded=s.wounded, grenades=d.grenades if s.grenades is None else s.grenades, medals=s.medals,
            equipment=list(s.equipment), held=list(s.held), vehicle=s.vehicle, post=s.post,
            dismounted=s.dismounted, spotted_by=list(s.spotted_by), panel=s.panel, slot=s.slot,
            deeds=dict(s.deeds), kills=s.kills, captures=s.captures, on_deck=s.on_deck, on_turret=s.on_turret)
    for p in used_panels:  # tactics modules: a panel in use brings all its team cards to its squad's deck
        seat = next(s.seat for s in pos.soldiers if s.panel == p)
        decks[fid_of[seat]] += list(cat.panels[p].cards)
    for s in pos.soldiers:
        if s.captor is not None:
            if s.captor not in soldiers:
                raise ContentError(f"position: soldier {s.serial}: captor {s.captor} is not in play")
            soldiers[s.serial].captor = s.captor
            soldiers[s.serial].controller = soldiers[s.captor].controller
    vehicles = {v.plate: _vehicle_state(pos, v, vdefs[v.plate], fid_of[v.plate], board, soldiers)
                for v in pos.vehicles}
    deck_of = {k: fid_of[k] for k in order}

    def deck_key(k: int, field: str) -> str:
        if k not in deck_of:
            raise ContentError(f"position: {field}: {k} is neither a seat nor a vehicle's plate")
        return deck_of[k]

    full = {fid: list(deck) for fid, deck in decks.items()}
    placed_cards = {c for s in pos.soldiers for c in s.held}
    hands = {deck_key(k, "hands"): [c.upper() for c in v] for k, v in (pos.hands or {}).items()}
    for fid, cards in hands.items():
        placed_cards |= set(cards)
    discards = {deck_key(k, "discards"): [c.upper() for c in v] for k, v in pos.discards.items()}
    vp_piles = {deck_key(k, "vp_piles"): [c.upper() for c in v] for k, v in pos.vp_piles.items()}
    for field, piles in (("discards", discards), ("vp_piles", vp_piles)):
        for fid, cards in piles.items():
            for c in cards:
                if c not in full[fid]:
                    raise ContentError(f"position: {field}: {c} is not a card of deck {fid}")
            placed_cards |= set(cards)
    tops = {deck_key(k, "decks"): [c.upper() for c in v] for k, v in pos.decks.items()}
    for fid, top in tops.items():
        for c in top:
            if c not in decks[fid]:
                raise ContentError(f"position: decks: {c} is not a card of deck {fid}")
    seat_of = {v.plate: v.seat for v in pos.vehicles}
    for k in order:
        fid, deck = fid_of[k], decks[fid_of[k]]
        seat = seat_of.get(k, k)
        for c in placed_cards:
            if c in deck:
                deck.remove(c)
        top = tops.get(fid, [])
        rest = [c for c in deck if c not in top]
        rng.shuffle(rest)
        forces[fid] = ForceState(id=fid, seat=seat, side=pos.players[seat].side, deck=top + rest,
                                 hand=hands.get(fid, []), discard=discards.get(fid, []),
                                 vp_pile=vp_piles.get(fid, []),
                                 kind="vehicle" if k >= PLATES else "squad", plate=k if k >= PLATES else None,
                                 entry_area=pos.players[seat].entry_area if k < PLATES else None)
    for fid, cards in hands.items():
        for c in cards:
            if c not in full[fid]:
                raise ContentError(f"position: hands: {c} is not a card of deck {fid}")
    story = list(setup.story)
    fixed = list(pos.phase_cards or []) + list(pos.story_top)
    for c in fixed + pos.story_discard:
        if c not in setup.story:
            raise ContentError(f"position: unknown phase card {c!r}")
    rest = [c for c in story if c not in fixed and c not in pos.story_discard]
    rng.shuffle(rest)
    left = max(0, 3 * (sc.turns - pos.turn) - len(fixed))
    story_deck = list(pos.story_top) + rest[:left]
    st = GameState(setup=setup, rng=rng.state if pos.rng is None else pos.rng, seats=seats, forces=forces,
                   soldiers=soldiers, vehicles=vehicles,
                   story_deck=list(pos.phase_cards or []) + story_deck if pos.hands is None else story_deck,
                   story_discard=list(pos.story_discard), turn=pos.turn, fires=list(pos.fires),
                   mines=list(sc.mines if pos.mines is None else pos.mines),
                   minefields=[Minefield(**m.model_dump()) for m in pos.minefields],  # engine/battlefield/mines.py
                   smoke=[_smoke(pos, t, d, board) for t, d in pos.smoke.items()],
                   vp=[VpEntry(side=side, amount=v, reason="position", kind="event") for side, v in pos.vp.items()]
                   + [VpEntry(**e.model_dump()) for e in pos.scored],
                   artillery=_artillery(pos, setup, board, soldiers, vdefs),
                   sighted={_tile(board, t, "sighted"): list(v) for t, v in pos.sighted.items()},
                   dropped=[DroppedItem(**_dropped(d, setup, board).model_dump()) for d in pos.dropped],
                   landmark_holders={_tile(board, t, "landmark_holders"): who
                                     for t, who in pos.landmark_holders.items()},
                   order_progress={k: dict(v) for k, v in pos.order_progress.items()},
                   weather=Weather(**(pos.weather or WeatherPos()).model_dump()),
                   assaults={serial: Assault(**_assault(serial, a, soldiers, vehicles).model_dump())
                             for serial, a in pos.assaults.items()},
                   lasting_weather=Weather(**(pos.lasting_weather or WeatherPos()).model_dump()))
    ctx = Ctx(st)
    if pos.hands is not None:
        st.turn = pos.turn + 1
        st.phase_cards = list(pos.phase_cards or [])
        if len(st.phase_cards) != 3:
            if len(st.story_deck) < 3:
                raise ContentError("position: give three phase_cards")
            st.phase_cards, st.story_deck = st.story_deck[:3], st.story_deck[3:]
        for f in st.forces.values():
            f.planned = not any(s.controller == f.id and s.in_play for s in soldiers.values())
        st.step = "place"
        ctx.say("position", f"Position loaded: turn {st.turn}, placing cards.")
    else:
        ctx.say("position", f"Position loaded: turn {pos.turn + 1} begins.")
    advance(ctx)
    ctx.close()
    return st, ctx.events


def _tile(board, tile: str, field: str) -> str:
    if tile not in board.tiles:
        raise ContentError(f"position: {field}: tile {tile} is not on the map")
    return tile


def _smoke(pos: Position, tile: str, given, board) -> SmokeMarker:
    _tile(board, tile, "smoke")
    if isinstance(given, int):
        return SmokeMarker(tile=tile, density=given, turn=pos.turn)
    return SmokeMarker(tile=tile, density=given.density, turn=pos.turn if given.laid is None else given.laid,
                       clears_after=given.clears_after)


def _assault(serial: int, a: AssaultPos, soldiers: dict[int, SoldierState], vehicles: dict) -> AssaultPos:
    if serial not in soldiers:
        raise ContentError(f"position: assaults: soldier {serial} is not in play")
    if a.plate not in vehicles:
        raise ContentError(f"position: assaults: soldier {serial}: {a.plate} is not a vehicle of the position")
    return a


def _dropped(d: DroppedPos, setup: GameSetup, board) -> DroppedPos:
    _tile(board, d.tile, "dropped")
    if d.item not in setup.equipment:
        raise ContentError(f"position: dropped: no equipment {d.item!r}")
    return d


def _artillery(pos: Position, setup: GameSetup, board, soldiers: dict[int, SoldierState], vdefs: dict) -> Artillery:
    """A position's fire missions, calls and barrages (engine/battlefield/artillery.py), checked
    against the chart, the seats, the map and the men and vehicles in play."""
    art = pos.artillery or ArtilleryPos()

    def kind_ok(kind: str, where: str) -> None:
        if kind.startswith(GUN):
            plate = kind[len(GUN):]
            if not plate.isdigit() or int(plate) not in vdefs:
                raise ContentError(f"position: artillery: {where}: {kind} names no vehicle of the position")
        elif kind not in setup.equipment or setup.equipment[kind].kind != "artillery":
            raise ContentError(f"position: artillery: {where}: {kind!r} is not artillery on the chart")

    def seat_ok(seat: int, where: str) -> None:
        if not 0 <= seat < len(pos.players):
            raise ContentError(f"position: artillery: {where}: seat {seat} does not exist")

    for field, table in (("ordnance", art.ordnance), ("bought", art.bought or {})):
        for seat, kinds in table.items():
            seat_ok(seat, field)
            for k in kinds:
                kind_ok(k, field)
    bought = {s: list(k) for s, k in art.bought.items()} if art.bought is not None else {}
    if art.bought is None:
        for seat, kinds in art.ordnance.items():
            bought.setdefault(seat, []).extend(kinds)
        for b in art.barrages:
            bought.setdefault(b.seat, []).append(b.kind)
    calls = []
    next_id = 1 + max((c.id or 0 for c in art.calls), default=0)
    for n, c in enumerate(art.calls):
        where = f"call {n + 1}"
        seat_ok(c.seat, where)
        kind_ok(c.kind, where)
        _tile(board, c.tile, f"artillery: {where}")
        if c.caller not in soldiers and c.caller not in vdefs:
            raise ContentError(f"position: artillery: {where}: caller {c.caller} is not in play")
        used = {x.letter for x in calls if x.seat == c.seat}
        letter = (c.letter or next((x for x in LETTERS if x not in used), "")).upper()
        if letter not in LETTERS or letter in used:
            raise ContentError(f"position: artillery: {where}: letter {c.letter!r} is taken or not a marker letter")
        if c.id is None:
            marker, next_id = next_id, next_id + 1
        else:
            marker = c.id
        calls.append(ArtilleryCall(id=marker, seat=c.seat, letter=letter, kind=c.kind, tile=c.tile,
                                   rows_left=c.rows_left, fake=c.fake, caller=c.caller, device=c.device,
                                   smoke=c.smoke, relay=c.relay))
    if len({c.id for c in calls}) != len(calls):
        raise ContentError("position: artillery: two calls have the same marker id")
    barrages = []
    for n, b in enumerate(art.barrages):
        seat_ok(b.seat, f"barrage {n + 1}")
        kind_ok(b.kind, f"barrage {n + 1}")
        _tile(board, b.tile, f"artillery: barrage {n + 1}")
        barrages.append(PlannedBarrage(seat=b.seat, kind=b.kind, turn=b.turn, tile=b.tile, smoke=b.smoke))
    return Artillery(ordnance={s: list(k) for s, k in art.ordnance.items()}, bought=bought, calls=calls,
                     barrages=barrages, next_id=max(next_id, art.next_marker or 1))


def _vehicle_def(cat: Catalog, pos: Position, v: VehiclePos):
    """The panel a position's vehicle uses: named, else the one whose plates its plate is one of
    (the catalogue's, or that plus 1000 for a second of the type ...); of its seat's side."""
    if v.vehicle is not None:
        d = cat.vehicles.get(v.vehicle)
        if d is None:
            raise ContentError(f"position: vehicle {v.plate}: no vehicle {v.vehicle!r}")
        if not d.has_plate(v.plate):
            raise ContentError(f"position: vehicle {v.plate}: a {d.name}'s plate is {d.plate}, "
                               f"{d.plate + PLATE_STEP}, {d.plate + 2 * PLATE_STEP} ...")
    else:
        d = type_of_plate(cat, v.plate)
        if d is None:
            raise ContentError(f"position: vehicle {v.plate}: no vehicle has this plate; name it with `vehicle`")
    if 0 <= v.seat < len(pos.players) and d.nationality != pos.players[v.seat].side:
        raise ContentError(f"position: vehicle {v.plate} ({d.name}) is {d.nationality}, "
                           f"but seat {v.seat} plays {pos.players[v.seat].side}")
    return d


def _vehicle_state(pos: Position, v: VehiclePos, d, fid: str, board, soldiers: dict[int, SoldierState]
                   ) -> VehicleState:
    """A position's vehicle, checked against its panel and the board."""
    def bad(msg: str) -> ContentError:
        return ContentError(f"position: vehicle {v.plate} ({d.name}): {msg}")

    status = v.status or ("board" if v.tile else "waiting")
    if v.tile is not None and v.tile not in board.tiles:
        raise bad(f"tile {v.tile} is not on the map")
    if status == "board" and v.tile is None:
        raise bad("on the board it needs a tile")
    for what, f in (("facing", v.facing), ("turret", v.turret)):
        if f is not None and f not in DIRS:
            raise bad(f"{what} must be one of {' '.join(DIRS)}")
    if v.turret is not None and not d.has_turret:
        raise bad("it has no turret")
    ids = {loc.id for loc in d.locations}
    posts = {loc.id for loc in d.crew_positions}
    for where in (*v.crew, *v.unbuttoned):
        if where not in posts:
            raise bad(f"no crew position {where!r}; it has {', '.join(sorted(posts))}")
    for where in (*v.damage, *v.cook_off):
        if where not in ids:
            raise bad(f"no location {where!r}")
    for post, serial in v.crew.items():
        s = soldiers.get(serial)
        if s is None:
            raise bad(f"crewman {serial} is not among the soldiers")
        if s.vehicle is None:  # written as crew only: he sits at that post
            s.vehicle, s.post = v.plate, post
            if s.status in ("board", "waiting"):
                s.status, s.at = "aboard", None
        if s.vehicle != v.plate or s.post != post:
            raise bad(f"crewman {serial} is at {s.vehicle}/{s.post}, not at its {post}")
    if len(v.mine_load) > d.mine_load or any(len(f) != 2 for f in v.mine_load):
        raise bad(f"its load holds at most {d.mine_load} minefields of two tokens each")
    rounds = {a.id for a in d.main_gun.ammo} if d.main_gun else set()
    for aid in (*v.ready, *(x.split("/")[0] for x in (*v.in_hand, *v.in_breach))):
        if aid not in rounds:
            raise bad(f"it fires no {aid} rounds")
    return VehicleState(
        plate=v.plate, vehicle=d.id, side=d.nationality, force=fid, controller=fid, status=status, tile=v.tile,
        facing=v.facing, turret=(v.turret or v.facing) if d.has_turret else None, crew=dict(v.crew),
        unbuttoned=list(v.unbuttoned), damage={k: list(m) for k, m in v.damage.items()}, cook_off=list(v.cook_off),
        ready=dict(v.ready), in_hand=list(v.in_hand), in_breach=list(v.in_breach), pins=v.pins,
        move_plus=v.move_plus, hull_down=v.hull_down, spotted=v.spotted, spotted_by=list(v.spotted_by),
        passengers=list(v.passengers), riders=list(v.riders), kills=v.kills, mine_load=[list(f) for f in v.mine_load])


def dump_position(st: GameState) -> dict:
    """The position of a state at its current point (hands included), for bug reports."""
    def key(f: ForceState) -> int:
        return f.plate if f.kind == "vehicle" and f.plate is not None else f.seat

    squads = {f.seat: f for f in st.forces.values() if f.kind == "squad"}
    turn = max(0, st.turn - 1) if st.step != "turn_start" else st.turn  # turns already played
    out = {
        "scenario": st.setup.scenario.id,
        "seed": st.rng,
        "rng": st.rng,
        "turn": turn,
        "players": [_dump_player(s, squads.get(s.index)) for s in st.seats],
        "soldiers": [],
        "decks": {key(f): list(f.deck) for f in st.forces.values()},
        "story_top": list(st.story_deck),
        "fires": list(st.fires),
        "mines": list(st.mines),
        **({"minefields": [m.model_dump(mode="json", exclude_defaults=True) | {"tokens": list(m.tokens)}
                           for m in st.minefields]} if st.minefields else {}),  # engine/battlefield/mines.py
        "smoke": {m.tile: _dump_smoke(m, turn) for m in st.smoke},
    }
    extra = {
        "scored": [e.model_dump(mode="json", exclude_none=True) for e in st.vp],
        "discards": {key(f): list(f.discard) for f in st.forces.values() if f.discard},
        "vp_piles": {key(f): list(f.vp_pile) for f in st.forces.values() if f.vp_pile},
        "story_discard": list(st.story_discard),
        "artillery": _dump_artillery(st.artillery),
        "sighted": {t: list(v) for t, v in st.sighted.items()},
        "dropped": [d.model_dump(mode="json") for d in st.dropped],
        "landmark_holders": dict(st.landmark_holders),
        "order_progress": {k: dict(v) for k, v in st.order_progress.items()},
        "weather": st.weather.model_dump(),
        "assaults": {serial: a.model_dump(mode="json") for serial, a in st.assaults.items()},
        "lasting_weather": st.lasting_weather.model_dump(),
    }
    out |= {k: v for k, v in extra.items() if v and v != {"look": 0, "shoot": 0}}
    for s in st.soldiers.values():  # in the game's order, which its listings follow
        row = {"serial": s.serial, "seat": st.forces[s.force].seat, "rank": s.rank.value, "facing": s.facing,
               "status": s.status}
        if s.at:
            row["at"] = list(s.at)
        for k in ("spotted", "pinned", "wounded", "dismounted"):
            if getattr(s, k):
                row[k] = True
        row["grenades"] = s.grenades
        if s.held:
            row["held"] = list(s.held)
        if s.captor is not None:
            row["captor"] = s.captor
        if s.medals:
            row["medals"] = s.medals
        if s.equipment:
            row["equipment"] = list(s.equipment)
        if st.forces[s.force].kind == "vehicle":
            row["crew_of"] = st.forces[s.force].plate
        if s.vehicle is not None:
            row["vehicle"] = s.vehicle
        if s.post is not None:
            row["post"] = s.post
        if s.spotted_by:
            row["spotted_by"] = list(s.spotted_by)
        if s.on_deck is not None:  # up on an enemy vehicle (engine/battlefield/close_combat.py)
            row["on_deck"] = s.on_deck
            if s.on_turret:
                row["on_turret"] = True
        if s.panel is not None:  # tactics modules
            row["panel"], row["slot"] = s.panel, s.slot
        if s.deeds:
            row["deeds"] = dict(s.deeds)
        for k in ("kills", "captures"):
            if getattr(s, k):
                row[k] = getattr(s, k)
        special = _special_in_play(st, s)
        if special:
            row["special"] = special
        out["soldiers"].append(row)
    if st.vehicles:  # in deck order, as they load back
        plates = [f.plate for f in st.forces.values() if f.plate in st.vehicles]
        plates += [p for p in sorted(st.vehicles) if p not in plates]
        out["vehicles"] = [_dump_vehicle(st, st.vehicles[p]) for p in plates]
    if st.step == "place":
        out["hands"] = {key(f): list(f.hand) + [c for c in (*f.placed, *f.extra) if c] for f in st.forces.values()}
        out["phase_cards"] = list(st.phase_cards)
    return out


def _special_in_play(st: GameState, s: SoldierState) -> list[str]:
    """The specialist cards of his that the game holds, wherever they are (deck, hand, placed,
    discard, used, held under a soldier)."""
    mine = st.setup.soldiers[s.serial].special_cards
    if not mine:
        return []
    f = st.forces[s.force]
    where = {*f.deck, *f.hand, *f.discard, *f.vp_pile, *f.fight_pool, *(c for c in f.placed if c),
             *(c for c in f.extra if c), *(c for x in st.soldiers.values() for c in x.held)}
    return [c for c in mine if c in where]


def _dump_player(s: Seat, squad: ForceState | None) -> dict:
    row: dict = {"name": s.name, "side": s.side.value}
    if s.order:
        row["order"] = s.order
    for k in ("order_done", "always_pass"):
        if getattr(s, k):
            row[k] = True
    if squad is not None and squad.entry_area is not None:
        row["entry_area"] = squad.entry_area
    return row


def _dump_smoke(m: SmokeMarker, turn: int):
    """A marker the position's `turn` would lay, with no clearing set, is just its density;
    others say when they were laid and when they clear."""
    if m.turn == turn and m.clears_after is None:
        return m.density
    return {"density": m.density, "laid": m.turn,
            **({"clears_after": m.clears_after} if m.clears_after is not None else {})}


def _dump_artillery(art: Artillery) -> dict:
    if not (art.ordnance or art.bought or art.calls or art.barrages or art.next_id > 1):
        return {}
    return {
        "ordnance": {s: list(k) for s, k in art.ordnance.items()},
        "bought": {s: list(k) for s, k in art.bought.items()},
        "calls": [c.model_dump(mode="json", exclude_defaults=True) | {"id": c.id, "rows_left": c.rows_left}
                  for c in art.calls],
        "barrages": [b.model_dump(mode="json", exclude_defaults=True) for b in art.barrages],
        "next_marker": art.next_id,
    }


def _dump_vehicle(st: GameState, v: VehicleState) -> dict:
    row: dict = {"plate": v.plate, "vehicle": v.vehicle, "seat": st.forces[v.force].seat, "status": v.status}
    if v.tile is not None:
        row["tile"] = v.tile
    row["facing"] = v.facing
    if v.turret is not None:
        row["turret"] = v.turret
    row["crew"] = dict(v.crew)
    for k in ("unbuttoned", "cook_off", "in_hand", "in_breach", "spotted_by", "passengers", "riders"):
        if getattr(v, k):
            row[k] = list(getattr(v, k))
    damage = {loc: list(m) for loc, m in v.damage.items() if m}
    if damage:
        row["damage"] = damage
    if v.ready:
        row["ready"] = dict(v.ready)
    if v.mine_load:
        row["mine_load"] = [list(f) for f in v.mine_load]
    for k in ("pins", "move_plus", "kills"):
        if getattr(v, k):
            row[k] = getattr(v, k)
    for k in ("hull_down", "spotted"):
        if getattr(v, k):
            row[k] = True
    return row
