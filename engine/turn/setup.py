"""Scenario setup (core manual, Scenario Setup steps 1-8) and force selection within the VP budget."""
from __future__ import annotations

import math

from pydantic import BaseModel, ConfigDict, Field

from engine.advanced import teams
from engine.battlefield import mines
from engine.battlefield.artillery import lay as lay_artillery
from engine.battlefield.artillery import purchase_cost, seat_purchases
from engine.core.board import direction_to
from engine.core.content import (
    BarragePlan,
    Catalog,
    ForceEntry,
    MinefieldDef,
    Nationality,
    ScenarioDef,
    SoldierDef,
    VehicleEntry,
    soldier_cards,
)
from engine.core.errors import RuleError
from engine.core.log import Ctx
from engine.core.rng import Rng
from engine.core.state import ForceState, GameSetup, GameState, Seat, SoldierState
from engine.core.vehicle_geometry import footprint
from engine.infantry import equipment
from engine.infantry.hazards import lay
from engine.turn.officer import officers_in
from engine.turn.sequence import advance
from engine.vehicles import setup as vehicle_setup


class SeatSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    side: Nationality
    force: list[ForceEntry] | None = Field(None, description="None: take a share of the scenario's preset squad")
    vehicles: list[VehicleEntry] | None = Field(None, description="None: a share of the preset's vehicles")
    # the vehicle book's battlefield (issue 9); None: the side's preset (the first player of a side gets it)
    ordnance: list[str] | None = Field(None, description="artillery bought (ordnance chart ids)")
    minefields: list[MinefieldDef] | None = Field(None, description="mines laid face down at setup")
    barrages: list[BarragePlan] | None = Field(None, description="heavy artillery or rockets planned in secret")


def special_cards(d: SoldierDef, e: ForceEntry) -> list[str]:
    """A specialist's optional cards (react, preempt, command) the player chose to use
    (Specialists: each optional; a force entry's `special` None takes them all)."""
    return [c for c in d.special_cards if e.special is None or c in e.special]


def special_story(d: SoldierDef, e: ForceEntry) -> list[str]:
    return [c for c in d.story if e.special is None or c in e.special]


def panel_cards(cat: Catalog, entries: list[ForceEntry]) -> list[str]:
    """Every card of every team panel the force uses (Tactics Modules: a panel in use brings all
    its team cards), each panel once, in the order first named."""
    out: list[str] = []
    seen: list[str] = []
    for e in entries:
        if e.panel and e.panel not in seen:
            seen.append(e.panel)
            out += list(cat.panels[e.panel].cards)
    return out


def budget(sc: ScenarioDef, side: str, players: int, teammates: int | None = None) -> int:
    """VP for one player (Scenario Selection; docs/rulings.md): the scenario's level for this
    many players when the sides are even; otherwise the side's two-player level shared among
    its players."""
    levels = sc.side(side).force_vp
    teammates = teammates or max(1, players // 2)
    if players in levels and teammates * 2 == players:
        return levels[players]
    whole = levels.get(2, max(levels.values()))
    return whole // teammates


def force_cost(cat: Catalog, sc: ScenarioDef, side: str, entries: list[ForceEntry]) -> int:
    total = 0
    for e in entries:
        d = cat.soldiers[e.serial]
        total += d.profile(e.rank).vp
        extra = max(0, (e.grenades if e.grenades is not None else d.grenades) - d.grenades)
        total += math.ceil(extra / 3) * sc.side(side).grenade_cost
        # equipment cards at their price; a grenade pouch (three grenades) at the side's grenade price
        total += sum(sc.side(side).grenade_cost if cat.equipment[q].kind == "grenade" else cat.equipment[q].vp
                     for q in e.equipment)
    return total


def check_force(cat: Catalog, sc: ScenarioDef, side: str, entries: list[ForceEntry], players: int,
                taken: set[int] = frozenset(), teammates: int | None = None, preset: bool = False,
                vehicles: list[VehicleEntry] = (), taken_panels: set[str] = frozenset(),
                ordnance: list[str] = (), barrages: list[BarragePlan] = (),
                minefields: list[MinefieldDef] = (), mine_tiles: set[str] = frozenset()) -> int:
    """Validate one player's force (soldiers and vehicles); returns its cost. Raises a
    RuleError saying what is wrong. `taken_panels`: team panels other players already use.
    `minefields`: mines he buys (engine/battlefield/mines.py); `mine_tiles`: tiles other players mined."""
    if not entries and not vehicles:
        raise RuleError("a force needs at least one soldier.")
    seen = set()
    for e in entries:
        d = cat.soldiers.get(e.serial)
        if d is None:
            raise RuleError(f"there is no soldier with dog tag {e.serial}.")
        if d.nationality != side:
            raise RuleError(f"{d.name} ({e.serial}) fights for {d.nationality}, not {side}.")
        if e.serial in seen or e.serial in taken:
            raise RuleError(f"{d.name} ({e.serial}) is picked twice.")
        seen.add(e.serial)
        if e.rank not in {p.rank for p in d.ranks}:
            ranks = ", ".join(p.rank.value for p in d.ranks)
            raise RuleError(f"{d.name} can be played as {ranks}, not {e.rank}.")
        if e.medals > len(d.medal_cards):
            raise RuleError(f"{d.name} has {len(d.medal_cards)} medal cards, not {e.medals}.")
        for q in e.equipment:
            if q not in cat.equipment:
                raise RuleError(f"unknown equipment {q!r}; there is " + ", ".join(sorted(cat.equipment)) + ".")
        problem = equipment.entry_problem(cat, e)  # specialist equipment: his kit, or a man who meets its need
        if problem:
            raise RuleError(problem)
    teams.check_panels(cat, side, entries, taken_panels)  # tactics modules: panels and slots (engine/advanced/teams.py)
    officers = officers_in(cat, entries)
    if len(officers) > 1:
        raise RuleError("a player may use only one officer in a game: " + ", ".join(
            f"{cat.soldiers[n].name} ({n})" for n in officers) + " all have a Command value.")
    foot = {e.serial for e in entries}
    crew: set[int] = set()
    riding: set[int] = set()
    for ve in vehicles:
        vehicle_setup.check_entry(cat, side, ve, foot, set(taken) | crew)
        vehicle_setup.check_loadout(cat, sc, ve)  # issue 9: the optional Ammo Loadouts rule
        crew |= set(ve.crew.values())
        for serial in ve.passengers:  # two vehicles of a force (two of a type too) never share a man
            if serial in riding:
                raise RuleError(f"{cat.soldiers[serial].name} ({serial}) rides in two vehicles.")
            riding.add(serial)
    vehicle_setup.plates(cat, [list(vehicles)])  # plates a force names: its types', each once
    cost = force_cost(cat, sc, side, entries) + sum(vehicle_setup.entry_cost(cat, ve) for ve in vehicles)
    cost += mines.check_fields(cat, sc, side, list(minefields), mine_tiles)  # mines (engine/battlefield/mines.py)
    cost += sum(mines.load_cost(cat, ve) for ve in vehicles)  # mines bought into a vehicle's load, laid in play
    cost += purchase_cost(cat, sc, list(ordnance), list(barrages))
    limit = budget(sc, side, players, teammates)
    if cost > limit and not preset:
        raise RuleError(f"that force costs {cost} VP; the budget for {players} players is {limit} VP per player.")
    return cost


def preset_share(cat: Catalog, sc: ScenarioDef, side: str, index: int, teammates: int) -> list[ForceEntry]:
    """Teammates split the side's preset squad as evenly as its VP allow: the dearest group
    first, each to the teammate with the cheapest share so far. A group is one soldier, or all
    the men of one team panel: a panel goes to one player whole (a panel is one player's)."""
    shares: list[list[ForceEntry]] = [[] for _ in range(teammates)]
    cost = [0] * teammates
    groups: dict[object, list[ForceEntry]] = {}
    for e in sc.side(side).preset:
        groups.setdefault(e.panel or e.serial, []).append(e)
    ordered = sorted(groups.values(), key=lambda g: (-force_cost(cat, sc, side, g), min(e.serial for e in g)))
    for g in ordered:
        k = min(range(teammates), key=lambda i: (cost[i], i))
        shares[k] += g
        cost[k] += force_cost(cat, sc, side, g)
    return sorted(shares[index], key=lambda e: e.serial)


def _orders_for(cat: Catalog, sc: ScenarioDef, side: str, landmark_pieces: set[str]) -> list[str]:
    # Landmark orders for landmarks not on the map are dismissed (Orders; Landmarks)
    return [o for o in sc.side(side).orders if not cat.orders[o].landmark or cat.orders[o].landmark in landmark_pieces]


def _story_deck(cat: Catalog, sc: ScenarioDef, pieces: set[str], rng: Rng, specialists: list[str] = ()) -> list[str]:
    """Landmark cards and the scenario's additions always go in, then general cards to fill the
    deck. A specialist's story card goes in only when his player uses it (Specialists)."""
    owned = {c for d in cat.soldiers.values() for c in d.story}
    general = [c.id for c in cat.story.values() if not c.landmark and c.id not in sc.story.remove
               and c.id not in owned]
    landmark = [c.id for c in cat.story.values() if c.landmark in pieces and c.id not in sc.story.remove]
    added = [c for c in (*sc.story.add, *specialists) if c not in general and c not in landmark]
    keep = landmark + added
    size = 3 * sc.turns
    rng.shuffle(general)
    deck = keep + general[:max(0, size - len(keep))]
    deck = deck[:size]
    rng.shuffle(deck)
    return deck


def new_game(cat: Catalog, scenario_id: str, seats: list[SeatSpec], seed: int,
             absent: frozenset[int] | set[int] = frozenset()) -> tuple[GameState, list]:
    """Set a scenario up and play on to the first decision. Returns (state, events).

    `absent` lists soldiers who cannot take part (a campaign's dead, wounded or prisoners):
    they are left out of the scenario's reinforcements."""

    sc = cat.scenario(scenario_id)
    if not 2 <= len(seats) <= 4:
        raise RuleError("a game needs two to four players.")
    sides = [s.id for s in sc.sides]  # scenario order: never a set, whose order varies by process
    for s in seats:
        if s.side not in sides:
            raise RuleError(f"{s.name} cannot play {s.side}: this scenario has " + " and ".join(sorted(sides)) + ".")
    if len({s.side for s in seats}) != 2:
        raise RuleError("both sides need at least one player.")
    rng = Rng(seed)
    players = len(seats)
    # 3. orders, drawn at random from the scenario's options for each side
    board_pieces = {cat.tiles[t].piece for row in sc.map for t in row if cat.tiles[t].landmark}
    # 4. forces within the VP budget
    taken: set[int] = set()
    chosen: list[list[ForceEntry]] = []
    rolling: list[list[VehicleEntry]] = []
    buying: dict[int, tuple[list, list]] = {}  # artillery: seat -> (ordnance, barrages)
    laying: dict[int, list[MinefieldDef]] = {}  # mines (engine/battlefield/mines.py): seat -> minefields
    for i, s in enumerate(seats):
        mates = [j for j, o in enumerate(seats) if o.side == s.side]
        entries = s.force if s.force is not None else preset_share(cat, sc, s.side, mates.index(i), len(mates))
        vents = s.vehicles if s.vehicles is not None else vehicle_setup.preset_vehicles(
            sc.side(s.side).vehicles, mates.index(i), len(mates))
        if s.vehicles is None:  # a preset's passengers ride with whoever got them in his squad
            foot = {e.serial for e in entries}
            vents = [ve.model_copy(update={"passengers": [p for p in ve.passengers if p in foot]}) for ve in vents]
        laying[i] = mines.seat_fields(sc, s, first=mates.index(i) == 0)
        buying[i] = seat_purchases(sc, s, first=mates.index(i) == 0)
        check_force(cat, sc, s.side, entries, players, taken, teammates=len(mates),
                    preset=s.force is None and s.vehicles is None and s.ordnance is None
                    and s.barrages is None and s.minefields is None, vehicles=vents,
                    taken_panels={e.panel for c in chosen for e in c if e.panel},
                    ordnance=buying[i][0], barrages=buying[i][1],
                    minefields=laying[i], mine_tiles={m.tile for j in laying if j != i for m in laying[j]})
        taken |= {e.serial for e in entries} | {c for ve in vents for c in ve.crew.values()}
        chosen.append(entries)
        rolling.append(vents)
    reserves: dict[str, list[ForceEntry]] = {}
    for side in sides:
        reserves[side] = [e for e in sc.side(side).reinforcements if e.serial not in taken and e.serial not in absent]
    in_play = taken | {e.serial for r in reserves.values() for e in r}
    used_vehicles = {ve.vehicle for vents in rolling for ve in vents}
    plated = vehicle_setup.plates(cat, rolling)  # a plate per vehicle, not per type
    own = {plate: vehicle_setup.own_cards(cat, cat.vehicles[ve.vehicle], plate)
           for vents, row in zip(rolling, plated) for ve, plate in zip(vents, row)}
    used_panels = {e.panel for entries in chosen for e in entries if e.panel}
    setup = GameSetup(
        scenario=sc,
        soldiers={n: cat.soldiers[n] for n in sorted(in_play)},
        cards={cid: c for cid, c in cat.cards.items()
               if c.owner in in_play or c.owner in own or (c.panel is not None and c.panel in used_panels)}
        | {cid: c for cards in own.values() for cid, c in cards.items()},
        panels={pid: cat.panels[pid] for pid in sorted(used_panels)},
        story={cid: c for cid, c in cat.story.items() if not c.landmark or c.landmark in board_pieces},
        orders={o: cat.orders[o] for side in sides for o in _orders_for(cat, sc, side, board_pieces)},
        tiles={t: cat.tiles[t] for row in sc.map for t in row},
        equipment=dict(cat.equipment),
        vehicles={v: cat.vehicles[v] for v in sorted(used_vehicles)},
    )
    setup = setup.model_copy(update={"map_key": setup.digest()})
    seat_models, forces, soldiers, vehicles = [], {}, {}, {}
    for i, s in enumerate(seats):
        options = _orders_for(cat, sc, s.side, board_pieces)
        order = rng.choice(options) if options else None
        seat_models.append(Seat(index=i, name=s.name, side=s.side, order=order))
        if s.minefields:  # mines bought, not the scenario's preset: Hold orders or leave to (engine/battlefield/mines.py)
            why = mines.may_lay(setup.orders, sc, order, [cat.vehicles[ve.vehicle] for ve in rolling[i]])
            if why:
                raise RuleError(f"{s.name} cannot lay mines: {why}.")
        fid = f"{s.side}-{i + 1}"
        deck: list[str] = []
        for e in chosen[i]:
            d = cat.soldiers[e.serial]
            deck += soldier_cards(d, e.rank, e.medals, cat.cards) + special_cards(d, e)
            soldiers[e.serial] = _soldier(e, d, s.side, fid, pouch=equipment.grenade_bonus(cat, e))
        deck += panel_cards(cat, chosen[i])
        rng.shuffle(deck)  # 8. shuffle all decks
        forces[fid] = ForceState(id=fid, seat=i, side=s.side, deck=deck)
        for ve, plate in zip(rolling[i], plated[i]):  # each vehicle: a force of its own with its own deck (Action Deck)
            vfid = f"{s.side}-{i + 1}-{plate}"
            vdeck = vehicle_setup.deck_for(cat, ve, plate, soldier_cards)
            rng.shuffle(vdeck)
            forces[vfid] = ForceState(id=vfid, seat=i, side=s.side, kind="vehicle", plate=plate, deck=vdeck)
            vehicles[plate] = vehicle_setup.build(cat, ve, plate, s.side, vfid, soldiers)
    for side, entries in reserves.items():
        fid = next(f for f in forces if forces[f].side == side)
        for e in entries:
            soldiers[e.serial] = _soldier(e, cat.soldiers[e.serial], side, fid, status="reserve",
                                          pouch=equipment.grenade_bonus(cat, e))
    extra_story = [c for entries in chosen for e in entries for c in special_story(cat.soldiers[e.serial], e)]
    story = _story_deck(cat, sc, board_pieces, rng, extra_story)  # 5-6. landmark cards in, the scenario's changes
    st = GameState(setup=setup, rng=rng.state, seats=seat_models, forces=forces, soldiers=soldiers,
                   vehicles=vehicles, story_deck=story)
    _deploy(st)  # 7. deploy on-map soldiers; the others wait to enter
    lay_artillery(st, {i: b[0] for i, b in buying.items()}, {i: b[1] for i, b in buying.items()})
    lay(st)  # the scenario's fires (engine/infantry/hazards.py)
    mines.lay_known(st)  # the scenario's known minefields (engine/battlefield/mines.py)
    ctx = Ctx(st)
    ctx.say("setup", f"{sc.name}: {sc.turns} turns, " + ", ".join(
        f"{s.name} ({s.side}, {len(chosen[i])} soldiers)" for i, s in enumerate(seats)) + ".")
    mines.lay(ctx, laying)  # minefields bought, face down (engine/battlefield/mines.py)
    for seat in seat_models:
        if seat.order:
            o = setup.orders[seat.order]
            ctx.tell(seat.index, "orders_private", f"Your orders: {o.title} — {o.text} ({o.vp} VP).", order=o.id)
    advance(ctx)
    ctx.close()
    return st.every_field_given(), ctx.events


def _soldier(e: ForceEntry, d: SoldierDef, side: str, fid: str, status: str = "waiting",
             pouch: int = 0) -> SoldierState:
    return SoldierState(serial=e.serial, side=side, force=fid, controller=fid, rank=e.rank, status=status,
                        grenades=(d.grenades if e.grenades is None else e.grenades)
                        + pouch,  # grenades from grenade pouches (engine/infantry/equipment.py)
                        medals=e.medals,
                        equipment=list(e.equipment), panel=e.panel, slot=e.slot)


def _deploy(st: GameState) -> None:
    """Soldiers of a deploying side stand on their deployment tiles (at the cell the scenario gives,
    else spread over the tiles, cover cells first), facing the middle of the board."""
    sc = st.setup.scenario
    board = st.board
    centre = (board.width // 2, board.height // 2)
    for side in sc.sides:
        if not side.deploy:
            continue
        men = sorted((s for s in st.soldiers.values() if s.side == side.id and s.status == "waiting"),
                     key=lambda s: s.serial)
        placed = set(st.occupied())
        for v in st.vehicles.values():  # nobody deploys where a vehicle or gun stands
            if v.status == "board" and v.tile:
                placed |= footprint(board, v.tile)
        given = {e.serial: e.at for e in side.preset if e.at}
        for k, s in enumerate(men):
            cell = given.get(s.serial)
            if cell is None or cell in placed or not board.passable(cell, 9):
                tile = side.deploy[k % len(side.deploy)]
                cell = _spot_in(board, tile, placed) or next(
                    (c for t in side.deploy for c in [_spot_in(board, t, placed)] if c), None)
            if cell is None:
                continue  # no room: he enters from the edge like a reinforcement
            s.at = tuple(cell)
            s.status = "board"
            s.facing = direction_to(s.at, centre)
            placed.add(s.at)


def _spot_in(board, tile: str, placed: set) -> tuple[int, int] | None:
    cells = [c for c in board.tile_cells(tile) if board.passable(c, 1) and c not in placed]
    if not cells:
        return None
    spaced = [c for c in cells if not any(abs(c[0] - p[0]) <= 1 and abs(c[1] - p[1]) <= 1 for p in placed)]
    pool = spaced or cells
    cx, cy = board.tile_centre(tile)
    return min(pool, key=lambda c: (not board.in_cover(c), (c[0] - cx) ** 2 + (c[1] - cy) ** 2, c))
