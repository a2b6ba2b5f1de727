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
from engine.core.content import Catalog, Nationality, Rank, soldier_cards
from engine.core.errors import ContentError
from engine.core.log import Ctx
from engine.core.rng import Rng
from engine.core.state import (
    ForceState,
    GameSetup,
    GameState,
    Minefield,
    Seat,
    SmokeMarker,
    SoldierState,
    VehicleState,
    VpEntry,
)
from engine.turn.sequence import advance
from engine.vehicles.setup import trained

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
    equipment: list[str] = Field(default_factory=list)
    held: list[str] = Field(default_factory=list)
    captor: int | None = None
    status: Literal["board", "aboard", "waiting", "dead", "exited", "reserve", "removed"] | None = None
    crew_of: int | None = Field(None, description="plate of the vehicle whose deck holds his cards (a crewman)")
    vehicle: int | None = Field(None, description="aboard (or dismounted beside): the vehicle's plate")
    post: str | None = Field(None, description="aboard: crew position, machinery location, cabin or deck")
    dismounted: bool = False
    spotted_by: list[int] = Field(default_factory=list, description="plates whose own Spotted marker he has")
    # tactics modules (engine/advanced/teams.py): his team panel and slot; a panel named brings its team cards
    panel: str | None = None
    slot: int | None = Field(None, ge=0)


class VehiclePos(P):
    plate: int = Field(ge=PLATES)
    vehicle: str | None = Field(None, description="the panel's id; default: the catalogue's vehicle with this plate")
    seat: int
    status: Literal["board", "waiting", "destroyed", "abandoned", "exited"] | None = None
    tile: str | None = Field(None, description="omit for a vehicle still to enter")
    facing: str = "n"
    turret: str | None = Field(None, description="default: the hull's facing (a vehicle with a turret)")
    crew: dict[str, int] = Field(default_factory=dict, description="crew position -> dog tag")
    unbuttoned: list[str] = Field(default_factory=list)
    damage: dict[str, list[Literal["wreck", "fire", "critical"]]] = Field(default_factory=dict)
    cook_off: list[str] = Field(default_factory=list)
    ready: dict[str, int] = Field(default_factory=dict)
    in_hand: list[str] = Field(default_factory=list)
    in_breach: list[str] = Field(default_factory=list)
    pins: int = Field(0, ge=0)
    move_plus: int = Field(0, ge=0)
    hull_down: bool = False
    spotted: bool = False
    spotted_by: list[int] = Field(default_factory=list)
    passengers: list[int] = Field(default_factory=list)
    riders: list[int] = Field(default_factory=list)
    kills: int = 0


class Position(P):
    scenario: str
    seed: int = 1
    turn: int = Field(0, ge=0, description="turns already played")
    players: list[PlayerPos] = Field(min_length=2, max_length=4)
    soldiers: list[SoldierPos] = Field(min_length=2)
    vehicles: list[VehiclePos] = Field(default_factory=list)
    hands: dict[int, list[str]] | None = Field(
        None, description="seat (squad) or plate (vehicle) -> cards; given, play starts at placement")
    phase_cards: list[str] | None = None
    decks: dict[int, list[str]] = Field(
        default_factory=dict, description="seat (squad) or plate (vehicle) -> top cards of that deck, in order")
    story_top: list[str] = Field(default_factory=list, description="the next phase cards, in order")
    fires: list[str] = Field(default_factory=list)
    smoke: dict[str, Literal[2, 3]] = Field(default_factory=dict)
    mines: list[str] | None = Field(None, description="mined tiles; None: the scenario's own")
    minefields: list[MinefieldPos] = Field(default_factory=list, description="mines bought, face down")
    vp: dict[Nationality, int] = Field(default_factory=dict)


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
    vdefs = {v.plate: _vehicle_def(cat, pos, v) for v in pos.vehicles}
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
        for what, plate in (("crew_of", s.crew_of), ("vehicle", s.vehicle)):
            if plate is not None and plate not in vdefs:
                raise ContentError(f"position: soldier {s.serial}: {what} {plate} is not a vehicle of the position")
        if s.crew_of is not None and next(v for v in pos.vehicles if v.plate == s.crew_of).seat != s.seat:
            raise ContentError(f"position: soldier {s.serial}: crew_of {s.crew_of} belongs to another seat")
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
               or (c.panel is not None and c.panel in used_panels)},
        panels={p: cat.panels[p] for p in used_panels},
        story={cid: c for cid, c in cat.story.items() if not c.landmark or c.landmark in pieces},
        orders=dict(cat.orders), tiles={t: cat.tiles[t] for row in sc.map for t in row},
        equipment=dict(cat.equipment),
        vehicles={d.id: d for d in sorted(vdefs.values(), key=lambda d: d.id)})
    setup = setup.model_copy(update={"map_key": setup.digest()})
    board = setup.board()
    seats = [Seat(index=i, name=p.name, side=p.side, order=p.order) for i, p in enumerate(pos.players)]
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
        decks[fid_of[plate]] += [c for c in d.cards if cat.cards[c].role == "vehicle"]
        if any(trained(cat.soldiers, n, d.id) for n in crew):
            decks[fid_of[plate]] += [c for c in d.cards if cat.cards[c].role == "team"]
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
            if at in taken:
                raise ContentError(f"position: soldier {s.serial}: cell {at} is taken")
            taken.add(at)
        if status != "reserve":
            decks[fid] += soldier_cards(d, s.rank, s.medals, cat.cards)
        soldiers[s.serial] = SoldierState(
            serial=s.serial, side=d.nationality, force=fid, controller=fid, rank=s.rank, status=status,
            at=tuple(s.at) if s.at else None, facing=s.facing, spotted=s.spotted, pinned=s.pinned,
            wounded=s.wounded, grenades=d.grenades if s.grenades is None else s.grenades, medals=s.medals,
            equipment=list(s.equipment), held=list(s.held), vehicle=s.vehicle, post=s.post,
            dismounted=s.dismounted, spotted_by=list(s.spotted_by), panel=s.panel, slot=s.slot)
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
                                 hand=hands.get(fid, []), kind="vehicle" if k >= PLATES else "squad",
                                 plate=k if k >= PLATES else None)
    for fid, cards in hands.items():
        for c in cards:
            if c not in full[fid]:
                raise ContentError(f"position: hands: {c} is not a card of deck {fid}")
    story = list(setup.story)
    fixed = list(pos.phase_cards or []) + list(pos.story_top)
    for c in fixed:
        if c not in setup.story:
            raise ContentError(f"position: unknown phase card {c!r}")
    rest = [c for c in story if c not in fixed]
    rng.shuffle(rest)
    left = max(0, 3 * (sc.turns - pos.turn) - len(fixed))
    story_deck = list(pos.story_top) + rest[:left]
    st = GameState(setup=setup, rng=rng.state, seats=seats, forces=forces, soldiers=soldiers, vehicles=vehicles,
                   story_deck=list(pos.phase_cards or []) + story_deck if pos.hands is None else story_deck,
                   turn=pos.turn, fires=list(pos.fires),
                   mines=list(sc.mines if pos.mines is None else pos.mines),
                   minefields=[Minefield(**m.model_dump()) for m in pos.minefields],  # engine/battlefield/mines.py
                   smoke=[SmokeMarker(tile=t, density=d, turn=pos.turn) for t, d in pos.smoke.items()],
                   vp=[VpEntry(side=side, amount=v, reason="position", kind="event") for side, v in pos.vp.items()])
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


def _vehicle_def(cat: Catalog, pos: Position, v: VehiclePos):
    """The panel a position's vehicle uses: named, else the one with its plate; of its seat's side."""
    if v.vehicle is not None:
        d = cat.vehicles.get(v.vehicle)
        if d is None:
            raise ContentError(f"position: vehicle {v.plate}: no vehicle {v.vehicle!r}")
    else:
        d = next((x for x in cat.vehicles.values() if x.plate == v.plate), None)
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
        passengers=list(v.passengers), riders=list(v.riders), kills=v.kills)


def dump_position(st: GameState) -> dict:
    """The position of a state at its current point (hands included), for bug reports."""
    def key(f: ForceState) -> int:
        return f.plate if f.kind == "vehicle" and f.plate is not None else f.seat

    out = {
        "scenario": st.setup.scenario.id,
        "seed": st.rng,
        "turn": max(0, st.turn - 1) if st.step != "turn_start" else st.turn,
        "players": [{"name": s.name, "side": s.side.value, **({"order": s.order} if s.order else {})}
                    for s in st.seats],
        "soldiers": [],
        "decks": {key(f): list(f.deck) for f in st.forces.values()},
        "story_top": list(st.story_deck),
        "fires": list(st.fires),
        "mines": list(st.mines),
        **({"minefields": [m.model_dump(mode="json", exclude_defaults=True) | {"tokens": list(m.tokens)}
                           for m in st.minefields]} if st.minefields else {}),  # engine/battlefield/mines.py
        "smoke": st.smoke_map(),
    }
    for s in sorted(st.soldiers.values(), key=lambda x: x.serial):
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
        if s.panel is not None:  # tactics modules
            row["panel"], row["slot"] = s.panel, s.slot
        out["soldiers"].append(row)
    if st.vehicles:  # in deck order, as they load back
        plates = [f.plate for f in st.forces.values() if f.plate in st.vehicles]
        plates += [p for p in sorted(st.vehicles) if p not in plates]
        out["vehicles"] = [_dump_vehicle(st, st.vehicles[p]) for p in plates]
    if st.step == "place":
        out["hands"] = {key(f): list(f.hand) + [c for c in f.placed if c] for f in st.forces.values()}
        out["phase_cards"] = list(st.phase_cards)
    return out


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
    for k in ("pins", "move_plus", "kills"):
        if getattr(v, k):
            row[k] = getattr(v, k)
    for k in ("hull_down", "spotted"):
        if getattr(v, k):
            row[k] = True
    return row
