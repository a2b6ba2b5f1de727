"""Mines (Hell on Wheels, Mines; core manual, Land Mines): the one mine rule for soldiers and
vehicles alike. Rulings: docs/battlefield.md, "## Mines".

What lies on the map:
- minefields bought at setup (`GameState.minefields`): two tokens in a map square, four in a
  landmark, laid face down. The tokens make the field's kind (`kind_of`): two anti-tank tokens
  anti-tank, two general-purpose tokens general purpose, one of each (in a landmark any mix of
  the two) mixed, booby-trap tokens a booby trap, and any fake token makes the whole field fake.
  A landmark with three tokens or fewer does nothing. The owner's side sees the tokens; everyone
  else sees only how many tokens lie where, until the field goes off (then its kind is public);
- the scenario's known minefields (`GameState.mines`, from `ScenarioDef.mines`): public tiles of
  general-purpose mines that belong to nobody.

What sets a field off (`walk`, `turn`, `vehicle_leaves`, `vehicle_enters`): a soldier or vehicle
stepping into its tile, moving within it (a soldier's walk that ends in the tile he started in,
a soldier turning to face, a vehicle's hull turn; never a turret), or setting out from it for
another tile. Anti-tank fields answer only vehicles; general-purpose, mixed and fake fields both;
booby traps only soldiers, and only as they come in or go out. Mines know no sides: the owner's
own men set them off too. A field goes off at most once per move of the same man or vehicle.

What a field does (`_go_off`): blast hit checks, off each victim's own deck (nobody threw them),
damage read at Close: anti-tank 5 on the vehicle, the first damage check on its wheels or tracks;
general purpose 3 and mixed 8, all on the vehicle that set it off, or on every soldier on foot in
the tile when a soldier did; a booby trap 1 on the man who set it off, and it is gone; fake 1 on
every soldier on foot in the tile. Other fields stay. A man the mine pins or kills stops there (a
wound alone does not stop him); a vehicle it destroys, immobilises or leaves without a driver
stops there. Nobody scores the men mines kill; a vehicle they destroy scores for the other side
(engine/vehicle_damage.destroy_vehicle with no shooter).

Buying (`check_fields`, `cost`, `may_lay`, `lay`): chart entries `mine-KIND`
(assets/equipment/mines.yaml), doubled in a landmark; only with Hold orders, when the scenario
allows mines (`ScenarioDef.mines_allowed`), when a vehicle of the player's force says in its
notes that it lays mines (or has a load), or in the scenario's own preset; one minefield per tile.

In play (Placement; the removal paragraph; Placing Booby-Traps):
- a vehicle whose panel gives it a load (`VehicleDef.mine_load`) carries the fields bought into
  it at setup (`VehicleEntry.mines`, `load_cost`; `VehicleState.mine_load`, seen by its side
  only); with a MOVE its plate or a man aboard lays one, two tokens face down, in a map square
  beside the vehicle's tile (`lay_in_play`, command `laymines`), told as at setup;
- a soldier on foot with a mine detector (`DETECTORS`) lifts, with a MOVE, the field in his tile
  or one beside it without setting it off (`clear`, command `clearmines`): the table hears the
  tile and the token count, his side the kind;
- booby traps and fakes in a tile with a building lie in its room (`in_room`): soldiers set them
  off only coming in or going out, vehicles never, and a fake there only turns up, harmless.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from engine.core import commands as C
from engine.core import rulebook
from engine.core.board import DIRS, direction_to
from engine.core.content import layout_slots
from engine.core.crew import plate_of
from engine.core.errors import RuleError
from engine.core.log import Ctx
from engine.core.state import Minefield, TrailMark
from engine.core.vehicle_content import Compartment
from engine.core.vehicle_geometry import neighbours
from engine.core.wording import plural
from engine.infantry.blast import blast_victim
from engine.infantry.contact import escorting
from engine.infantry.equipment import carried
from engine.infantry.move import path_cells, place_prisoners, reachable
from engine.infantry.orders import after_move
from engine.vehicles.damage import blast_vehicle, drive_ok, immobilised

Cell = tuple[int, int]

KINDS = ("at", "gp", "mixed", "booby", "fake")
NAMES = {"at": "anti-tank", "gp": "general-purpose", "mixed": "mixed", "booby": "booby-trap", "fake": "fake"}
CHECKS = {"at": 5, "gp": 3, "mixed": 8, "booby": 1, "fake": 1}  # blast hit checks (Resolving Detonations)
BY_SOLDIERS = frozenset({"gp", "mixed", "fake", "booby"})
BY_VEHICLES = frozenset({"at", "gp", "mixed", "fake"})
TOKENS = C.MINE_TOKENS
LAYS_MINES = re.compile(r"\bmines?\b|\bminefields?\b", re.IGNORECASE)


# --------------------------------------------------------------------------- what the tokens make


def tokens_needed(landmark: bool) -> int:
    return 4 if landmark else 2


def kind_of(tokens: Iterable[str], landmark: bool) -> str | None:
    """The kind a tile's tokens make together (Purchasing Mines), or None when they do nothing
    (too few tokens, or a booby trap mixed with real mines, which cannot be bought)."""
    tokens = list(tokens)
    if len(tokens) < tokens_needed(landmark):
        return None  # a landmark with three tokens or fewer has no effect (Placement)
    kinds = set(tokens)
    if "fake" in kinds:
        return "fake"
    if kinds == {"booby"}:
        return "booby"
    if "booby" in kinds:
        return None
    if kinds == {"at"}:
        return "at"
    if kinds == {"gp"}:
        return "gp"
    return "mixed"


def cost(equipment: dict, kind: str, landmark: bool) -> int:
    """VP of one minefield from the chart (`mine-KIND`), doubled in a landmark."""
    entry = equipment.get(f"mine-{kind}")
    if entry is None:
        raise RuleError(f"the equipment chart has no {NAMES[kind]} mines (mine-{kind}).")
    return entry.vp * (2 if landmark else 1)


@dataclass(frozen=True)
class Field:
    """One minefield as the rule sees it: its tile and kind, and the bought field (None for the
    scenario's known mines)."""

    tile: str
    kind: str
    laid: Minefield | None


def fields(st) -> list[Field]:
    """Every minefield that does something, in a fixed order (known ones first)."""
    board = st.board
    out = [Field(t, "gp", None) for t in st.mines if t in board.tiles]
    for m in st.minefields:
        if m.tile in board.tiles:
            k = kind_of(m.tokens, board.tiles[m.tile].landmark)
            if k is not None:
                out.append(Field(m.tile, k, m))
    return out


def fields_in(st, tile: str | None) -> list[Field]:
    if tile is None or not (st.mines or st.minefields):
        return []
    return [f for f in fields(st) if f.tile == tile]


def kind_of_field(st, m: Minefield) -> str | None:
    return kind_of(m.tokens, st.board.tiles[m.tile].landmark)


# --------------------------------------------------------------------------- buying and laying


def check_fields(cat, sc, side: str, laid: list, taken: set[str] = frozenset()) -> int:
    """Validate one player's minefields (MinefieldDef) for the scenario's map; returns their VP.
    `taken`: tiles other players' minefields already hold."""
    if not laid:
        return 0
    slots = layout_slots(sc.map)
    total = 0
    seen = set(taken)
    for m in laid:
        if m.tile not in slots:
            raise RuleError(f"there is no tile {m.tile} on this map for a minefield.")
        landmark = cat.tiles[m.tile].landmark
        need = tokens_needed(landmark)
        if len(m.tokens) != need:
            where = "a landmark" if landmark else "a map square"
            raise RuleError(f"a minefield in {where} takes {need} tokens, not {len(m.tokens)} ({m.tile})"
                            + ("; three or fewer in a landmark would do nothing." if landmark else "."))
        if m.tile in seen or m.tile in sc.mines:
            raise RuleError(f"{m.tile} already has a minefield: one per tile.")
        seen.add(m.tile)
        kind = kind_of(m.tokens, landmark)
        if kind is None:
            raise RuleError(f"booby-trap tokens go only with other booby-trap or fake tokens ({m.tile}).")
        total += cost(cat.equipment, kind, landmark)
    return total


def seat_fields(sc, spec, first: bool) -> list:
    """A seat's minefields: what its spec names, else the side's preset (its first player's)."""
    if spec.minefields is not None:
        return list(spec.minefields)
    return list(sc.side(spec.side).minefields) if first else []


def may_lay(orders: dict, sc, order: str | None, vehicles: list) -> str | None:
    """Why a player may not buy mines, or None (Mines: Hold orders, a scenario rule, a vehicle's
    notes). `orders`: the game's OrderDefs by id; `order`: his; `vehicles`: his VehicleDefs."""
    if sc.mines_allowed:
        return None
    o = orders.get(order) if order else None
    if o is not None and o.kind.value == "hold":
        return None
    if any(v.mine_load or any(LAYS_MINES.search(note) for note in v.special) for v in vehicles):
        return None
    return ("mines can be bought only with Hold orders, when the scenario allows them, or with a vehicle "
            "whose notes say it lays them")


def lay(ctx: Ctx, laid: dict[int, list]) -> None:
    """Setup: each player's minefields go down face down (seat -> MinefieldDef list)."""
    for seat, mfs in laid.items():
        for m in mfs:
            _sow(ctx, seat, m.tile, list(m.tokens))


def _sow(ctx: Ctx, seat: int, tile: str, tokens: list[str], by: str | None = None) -> None:
    """Tokens go down face down in `tile` for `seat`'s side: the table hears where and how many
    (and who laid them, `by`); each player of that side is told the kind."""
    st = ctx.st
    side = st.seats[seat].side
    st.minefields.append(Minefield(tile=tile, side=side, seat=seat, tokens=list(tokens)))
    who = by or st.seats[seat].name
    ctx.say("mines_laid", f"{who} lays {len(tokens)} mine tokens face down in {tile}.",
            tile=tile, side=side.value if hasattr(side, "value") else side, tokens=len(tokens))
    kind = kind_of_field(st, st.minefields[-1])
    for mate in st.seats:
        if mate.side == side:
            ctx.tell(mate.index, "mines_private", f"Your side's minefield in {tile}: "
                     f"{NAMES[kind] if kind else 'no effect'} ({', '.join(tokens)}).",
                     tile=tile, mine_kind=kind, tokens=list(tokens))


# --------------------------------------------------------------------------- a vehicle's load, laid in play


def load_cost(cat, ve) -> int:
    """VP of the minefields bought into a vehicle's load (Placement: mines laid in play from a
    vehicle's load-out), at a map square's price each; refused when its panel gives it no load
    (`VehicleDef.mine_load`), the load holds more, or a field's tokens make nothing."""
    if not ve.mines:
        return 0
    v = cat.vehicles[ve.vehicle]
    if v.mine_load == 0:
        raise RuleError(f"the {v.name} carries no mines to lay: its notes give it no load.")
    if len(ve.mines) > v.mine_load:
        raise RuleError(f"the {v.name}'s load holds {plural(v.mine_load, 'minefield')}, not {len(ve.mines)}.")
    total = 0
    for tokens in ve.mines:
        if len(tokens) != 2:
            raise RuleError(f"a minefield in the {v.name}'s load is two tokens, not {len(tokens)}.")
        kind = kind_of(tokens, landmark=False)
        if kind is None:
            raise RuleError(f"booby-trap tokens go only with other booby-trap or fake tokens (the {v.name}'s load).")
        total += cost(cat.equipment, kind, landmark=False)
    return total


def beside(board, tile: str) -> list[str]:
    """The tiles sharing a side or a corner with `tile`."""
    out: list[str] = []
    for d in DIRS:
        for t in neighbours(board, tile, d):
            if t != tile and t not in out:
                out.append(t)
    return out


def _taken(st, tile: str) -> bool:
    return tile in st.mines or any(m.tile == tile for m in st.minefields)


def _in_load(load: list[list[str]], tokens: list[str]) -> int | None:
    want = sorted(tokens)
    return next((i for i, f in enumerate(load) if sorted(f) == want), None)


def lay_problem(st, serial: int, tile: str, tokens: list[str]) -> str | None:
    """Why this plate or man aboard cannot lay these tokens of its load in `tile` now, or None."""
    s = st.soldiers.get(serial)
    if serial not in st.vehicles and (s is None or s.status != "aboard"):
        return f"{st.name(serial) if s else serial} is not aboard a vehicle: mines are laid from a vehicle's load"
    plate = plate_of(st, serial)
    v = st.vehicles[plate]
    name = st.name(plate)
    if v.status != "board" or not v.tile:
        return f"the {name} is not on the board"
    if not v.mine_load:
        return f"the {name} has no mines in its load"
    if _in_load(v.mine_load, tokens) is None:
        return (f"the {name}'s load holds no {'+'.join(tokens)} minefield (it holds "
                + ", ".join("+".join(f) for f in v.mine_load) + ")")
    if tile not in st.board.tiles:
        return f"there is no tile {tile} on this map"
    if tile not in beside(st.board, v.tile):
        return f"{tile} is not beside the {name}'s tile {v.tile}: mines from a load go into a map square next to it"
    if st.board.tiles[tile].landmark:
        return f"{tile} is a landmark, which takes four tokens; a minefield from a load is two: lay it in a map square"
    if _taken(st, tile):
        return f"{tile} already has a minefield: one per tile"
    return None


def lay_in_play(ctx: Ctx, serial: int, tile: str, tokens: list[str]) -> None:
    """A MOVE: one minefield of the vehicle's load goes down face down in a map square beside it,
    for its commander's side, as at setup (Placement)."""
    st = ctx.st
    problem = lay_problem(st, serial, tile, tokens)
    if problem:
        raise RuleError(problem + ".")
    plate = plate_of(st, serial)
    v = st.changing_vehicle(plate)
    laid = v.mine_load.pop(_in_load(v.mine_load, tokens))
    who = st.name(serial) if serial != plate else f"The {st.name(plate)}"
    by = who if serial == plate else f"{who} (in the {st.name(plate)})"
    _sow(ctx, st.forces[v.controller].seat, tile, laid, by=by)


def lay_options(st, serial: int, seat: int, via) -> list:
    """The laymines commands for this plate or man aboard: each kind of field left in the load,
    into each free map square beside the vehicle."""
    plate = serial if serial in st.vehicles else st.soldiers[serial].vehicle
    v = st.vehicles.get(plate)
    if v is None or not v.mine_load or v.status != "board" or not v.tile:
        return []
    kinds: list[list[str]] = []
    for f in v.mine_load:
        if sorted(f) not in kinds:
            kinds.append(sorted(f))
    return [C.LayMinesCmd(seat=seat, serial=serial, tile=t, tokens=f, via=via)
            for t in beside(st.board, v.tile) for f in kinds if lay_problem(st, serial, t, f) is None]


# --------------------------------------------------------------------------- clearing


DETECTORS = ("mine-detector",)  # equipment cards that find and lift mines (Mines: removed by equipment)


def clear_problem(st, serial: int, tile: str) -> str | None:
    """Why this soldier cannot lift the minefield in `tile` now, or None."""
    s = st.soldiers.get(serial)
    if s is None:
        return f"there is no soldier {serial}"
    if s.status != "board" or s.at is None or not s.free:
        return f"{st.name(serial)} is not free on foot on the board: mines are cleared by a man on foot"
    if not any(q in DETECTORS for q in carried(st, serial)):
        return f"{st.name(serial)} carries no mine detector: only specialised equipment clears mines"
    if tile not in st.board.tiles:
        return f"there is no tile {tile} on this map"
    here = st.board.tile_at(s.at)
    if tile != here and tile not in beside(st.board, here):
        return f"{tile} is neither {st.name(serial)}'s tile {here} nor beside it"
    if not _taken(st, tile):
        return f"there are no mine tokens in {tile}"
    return None


def clear(ctx: Ctx, serial: int, tile: str) -> None:
    """A MOVE: the man sweeps `tile` and lifts its minefield without setting it off (Mines:
    removed by specialised equipment). The table hears where and how many tokens; his side
    learns the kind (anyone knew it already if it had gone off, or was a known field)."""
    st = ctx.st
    problem = clear_problem(st, serial, tile)
    if problem:
        raise RuleError(problem + ".")
    side = st.soldiers[serial].side
    if tile in st.mines:
        st.mines.remove(tile)
        ctx.say("mines_cleared", f"{st.name(serial)} lifts the known minefield in {tile}.", serial=serial, tile=tile,
                mine_kind="gp", tokens=None)
        return
    m = next(m for m in st.minefields if m.tile == tile)
    st.minefields.remove(m)
    kind = kind_of_field(st, m)
    shown_kind = kind if m.revealed else None
    ctx.say("mines_cleared", f"{st.name(serial)} lifts the {len(m.tokens)} mine tokens in {tile}"
            + (f" (the {NAMES[kind]} field that went off)." if shown_kind else "."),
            serial=serial, tile=tile, mine_kind=shown_kind, tokens=len(m.tokens))
    for mate in st.seats:
        if mate.side == side:
            ctx.tell(mate.index, "mines_lifted", f"The tokens lifted in {tile} were "
                     f"{NAMES[kind] if kind else 'no minefield'} ({', '.join(m.tokens)}).",
                     tile=tile, mine_kind=kind, tokens=list(m.tokens))


def clear_options(st, serial: int, seat: int, via) -> list:
    """The clearmines commands for this man: each mined tile he may sweep."""
    s = st.soldiers[serial]
    if not (st.mines or st.minefields) or s.at is None or not any(q in DETECTORS for q in carried(st, serial)):
        return []
    here = st.board.tile_at(s.at)
    tiles = sorted({m.tile for m in st.minefields} | set(st.mines))
    return [C.ClearMinesCmd(seat=seat, serial=serial, tile=t, via=via) for t in tiles
            if (t == here or t in beside(st.board, here)) and clear_problem(st, serial, t) is None]


# --------------------------------------------------------------------------- rooms


ROOM_KINDS = frozenset({"booby", "fake"})  # Placing Booby-Traps: only these may go into a room


def has_room(board, tile: str) -> bool:
    """A tile with a building (X-Terrain or Urban terrain): the tile stands for its room."""
    return any(f.kind == "building" for f in board.tiles[tile].features)


def in_room(st, f: Field) -> bool:
    """Booby traps and fakes in a tile with a building lie in its room (Placing Booby-Traps)."""
    return f.kind in ROOM_KINDS and has_room(st.board, f.tile)


# --------------------------------------------------------------------------- going off


def _on_foot_in(st, tile: str) -> list[int]:
    board = st.board
    return sorted(s.serial for s in st.soldiers.values()
                  if s.status == "board" and s.at is not None and board.tile_at(s.at) == tile)


def wheel_track(vdef) -> str | None:
    """The hull's wheel or track location an anti-tank mine strikes first: a hull machinery
    location named for tracks or wheels, else the hull's other outside running gear (a drive
    train), else any outside drive location; None if the hull has none."""
    hull = [loc for loc in vdef.locations if loc.kind == "machinery" and loc.compartment == Compartment.HULL]

    def rank(loc) -> int:
        words = f"{loc.id} {loc.name}".lower()
        if "track" in words or "wheel" in words:
            return 0
        if loc.outside and loc.drive and "engine" not in words:
            return 1
        return 2 if loc.outside and loc.drive else 3

    ranked = sorted((loc for loc in hull if rank(loc) < 3), key=lambda loc: (rank(loc), hull.index(loc)))
    return ranked[0].id if ranked else None


def _go_off(ctx: Ctx, f: Field, *, serial: int | None = None, plate: int | None = None) -> list[str]:
    """One minefield goes off under a soldier (`serial`) or a vehicle (`plate`). Returns what
    the blast did to the soldier who set it off."""
    st = ctx.st
    who = st.name(plate if plate is not None else serial)
    owner = f.laid.side if f.laid is not None else None
    if f.laid is not None:
        f.laid.revealed = True
    room = in_room(st, f)
    if f.kind == "fake" and room:  # Placing Booby-Traps: a fake in a room has no detonative effect
        ctx.say("mine", f"{who} finds the mine tokens in the room in {f.tile}: a fake, and nothing happens.",
                tile=f.tile, mine_kind=f.kind, serial=serial, plate=plate, room=True,
                owner=owner.value if hasattr(owner, "value") else owner)
        return []
    what = "booby trap in the room" if room else f"{NAMES[f.kind]} minefield"
    ctx.say("mine", f"A {what} in {f.tile} goes off under {who}"
            + (f" ({CHECKS[f.kind]} blast check{'s' if CHECKS[f.kind] != 1 else ''})." if f.kind != "fake"
               else ": it was a fake, but it still bites."),
            tile=f.tile, mine_kind=f.kind, serial=serial, plate=plate,
            owner=owner.value if hasattr(owner, "value") else owner)
    st.trail.append(TrailMark(kind="blast", path=[st.board.tile_centre(f.tile)]))
    outcomes: list[str] = []
    checks = CHECKS[f.kind]
    if plate is not None and f.kind in ("at", "gp", "mixed"):
        first = wheel_track(st.vehicle_def(plate)) if f.kind == "at" else None
        blast_vehicle(ctx, plate, checks, by_force=None, cause="mine", first=first)
    elif f.kind == "booby":
        outcomes = blast_victim(ctx, serial, checks=checks, check_force=None, by_force=None, cause="mine")
    else:  # general purpose or mixed set off by a man, and every fake: the men on foot in the tile
        for v in _on_foot_in(st, f.tile):
            got = blast_victim(ctx, v, checks=checks, check_force=None, by_force=None, cause="mine")
            if v == serial:
                outcomes = got
    if f.kind == "booby" and f.laid is not None and f.laid in st.minefields:
        st.minefields.remove(f.laid)  # booby traps are spent once they go off
    return outcomes


def _soldier_sets_off(st, f: Field, how: str) -> bool:
    """Booby traps, and anything in a room, answer a man coming in or going out only; a fake in a
    room, once found, does nothing more."""
    if f.kind not in BY_SOLDIERS:
        return False
    if in_room(st, f):
        return how != "within" and not (f.kind == "fake" and f.laid is not None and f.laid.revealed)
    return how != "within" if f.kind == "booby" else True


def _soldier_in(ctx: Ctx, serial: int, tile: str, how: str) -> bool:
    """The fields in `tile` a soldier sets off moving `how` (enter, within, leave). True when
    they stop him: dead, off the board, pinned, or saved from death by a medic."""
    st = ctx.st
    stopped = False
    for f in fields_in(st, tile):
        if not _soldier_sets_off(st, f, how) or st.soldiers[serial].status != "board":
            continue
        outcomes = _go_off(ctx, f, serial=serial)
        if st.soldiers[serial].status != "board" or "pinned" in outcomes or "killed" in outcomes:
            stopped = True
    return stopped


def any_mines(st) -> bool:
    return bool(st.mines or st.minefields)


def path_to(st, serial: int, cell: Cell) -> list[Cell]:
    _, parents, _ = reachable(st, serial)
    return path_cells(parents, cell)


@rulebook.mine_walk_to.fill
def walk_to(ctx: Ctx, serial: int, cell: Cell, *, off_board: bool = False) -> bool:
    """`walk` along his shortest path to `cell` (an exit's edge cell), found only when mines lie."""
    if not any_mines(ctx.st):
        return False
    return walk(ctx, serial, path_to(ctx.st, serial, cell), off_board=off_board)


@rulebook.mine_walk.fill
def walk(ctx: Ctx, serial: int, cells: list[Cell], *, off_board: bool = False) -> bool:
    """A soldier's move along `cells` (his own cell first when he stands on the board; for a man
    coming on, the edge cell he steps onto first). `off_board`: he steps off the board at the
    end. Sets off the fields he leaves or moves within, then each one he steps into. True when a
    mine stopped him: he then stands where it went off (or the last free cell before it), the
    MOVE spent, or he is dead or gone. False: he goes on, nothing moved."""
    st = ctx.st
    if not any_mines(st) or not cells:
        return False
    s = st.changing(serial)
    board = st.board
    home = s.at
    tiles = [board.tile_at(c) for c in cells]
    done: set[str] = set()
    last = None
    if home is not None:
        last = board.tile_at(home)
        out = off_board or any(t != last for t in tiles)
        done.add(last)
        if _soldier_in(ctx, serial, last, "leave" if out else "within"):
            return _halt(ctx, serial, home, [home])
    mined = {f.tile for f in fields(st)}  # the tiles with a field now: read again after mines go off
    for i, (c, t) in enumerate(zip(cells, tiles)):
        if t == last or t in done:
            last = t
            continue
        last = t
        done.add(t)
        if t not in mined or not any(_soldier_sets_off(st, f, "enter") for f in fields_in(st, t)):
            continue
        was = s.at
        s.at = c  # he is in the tile as the mines go off
        if _soldier_in(ctx, serial, t, "enter"):
            return _halt(ctx, serial, _free_on(st, serial, cells[:i + 1]), cells[:i + 1])
        s.at = was
        mined = {f.tile for f in fields(st)}
    return False


def _free_on(st, serial: int, cells: list[Cell]) -> Cell:
    """The last cell of a path cut short where no other soldier stands."""
    taken = {o.at for o in st.soldiers.values() if o.serial != serial and o.on_board and o.at is not None}
    for c in reversed(cells):
        if c not in taken:
            return c
    return cells[0]


def _halt(ctx: Ctx, serial: int, cell: Cell, path: list[Cell]) -> bool:
    """A mine has stopped him: he stays at `cell` (when still on the board), facing the way he
    went, his prisoners beside him if there is room; the MOVE is spent."""
    st = ctx.st
    s = st.soldiers[serial]
    if s.status != "board":
        return True
    s = st.changing(serial)
    start = path[0]
    s.at = cell
    if cell != start:
        s.facing = direction_to(start, cell)
        st.trail.append(TrailMark(kind="move", serial=serial, path=[start, cell]))
        try:
            place_prisoners(st, serial, cell, s.facing, escorting(st, serial))
        except RuleError:
            pass  # no room beside him: his prisoners stay where they stood
    ctx.say("mine_stops", f"{st.name(serial)} is brought down by the mines in {st.board.tile_at(cell)} and "
            f"goes no further.", serial=serial, tile=st.board.tile_at(cell), at=list(cell))
    if cell != start:
        after_move(ctx, serial, start, cell)
    return True


@rulebook.mine_turn.fill
def turn(ctx: Ctx, serial: int) -> bool:
    """A soldier turning to face moves within his tile: its fields go off (booby traps excepted).
    True when they stop him: he does not turn."""
    st = ctx.st
    s = st.soldiers[serial]
    if not any_mines(st) or s.status != "board" or s.at is None:
        return False
    tile = st.board.tile_at(s.at)
    if _soldier_in(ctx, serial, tile, "within"):
        s = st.soldiers[serial]  # the mines may have changed him
        if s.status == "board":
            ctx.say("mine_stops", f"{st.name(serial)} is brought down by the mines in {tile} and does not turn.",
                    serial=serial, tile=tile, at=list(s.at))
        return True
    return False


# --------------------------------------------------------------------------- vehicles


def _vehicle_stopped(st, plate: int) -> bool:
    v = st.vehicles[plate]
    return v.status != "board" or immobilised(st, plate) or not drive_ok(st, plate)


def _vehicle_in(ctx: Ctx, plate: int, tile: str | None) -> bool:
    st = ctx.st
    if tile is None or not any_mines(st):
        return False
    went = False
    for f in fields_in(st, tile):
        if f.kind in BY_VEHICLES and not in_room(st, f) and st.vehicles[plate].status == "board":
            _go_off(ctx, f, plate=plate)
            went = True
    return went and _vehicle_stopped(st, plate)


@rulebook.mine_vehicle_leaves.fill
def vehicle_leaves(ctx: Ctx, plate: int) -> bool:
    """The hull sets out from its tile, or turns in it (Detonating Mines: leaving, or moving
    within, turrets excepted): the fields there go off. True when they stop it (destroyed,
    immobilised, no driver): the MOVE is spent where it stands."""
    st = ctx.st
    if _vehicle_in(ctx, plate, st.vehicles[plate].tile):
        if st.vehicles[plate].status == "board":
            ctx.say("mine_stops", f"The {st.name(plate)} is stopped by the mines in {st.vehicles[plate].tile}.",
                    plate=plate, tile=st.vehicles[plate].tile)
        return True
    return False


@rulebook.mine_vehicle_enters.fill
def vehicle_enters(ctx: Ctx, plate: int, tile: str) -> bool:
    """The hull rolls into `tile`: its fields go off. True when they stop it there."""
    st = ctx.st
    if _vehicle_in(ctx, plate, tile):
        if st.vehicles[plate].status == "board":
            ctx.say("mine_stops", f"The {st.name(plate)} is stopped by the mines in {tile}.", plate=plate, tile=tile)
        return True
    return False


# --------------------------------------------------------------------------- views


def public_fields(st) -> list[tuple[str, str, int, str | None]]:
    """(tile, side, token count, kind once it has gone off) of every bought minefield."""
    out = []
    for m in st.minefields:
        side = m.side.value if hasattr(m.side, "value") else m.side
        out.append((m.tile, side, len(m.tokens), kind_of_field(st, m) if m.revealed else None))
    return out


def side_fields(st, side: str) -> list[tuple[str, list[str], str | None]]:
    """(tile, tokens, kind) of one side's minefields: for that side's players only."""
    return [(m.tile, list(m.tokens), kind_of_field(st, m)) for m in st.minefields if m.side == side]


def lay_known(st) -> None:
    """Setup: the scenario's known minefields (`ScenarioDef.mines`) are sown."""
    st.mines = sorted(set(st.mines) | set(st.setup.scenario.mines))


# --------------------------------------------------------------------------- what its commands do (engine/core/rulebook.py)


@rulebook.performs(C.LayMinesCmd)
def lay_command(ctx: Ctx, cmd: C.LayMinesCmd, src, entry_do) -> None:
    lay_in_play(ctx, cmd.serial, cmd.tile, list(cmd.tokens))


@rulebook.performs(C.ClearMinesCmd)
def clear_command(ctx: Ctx, cmd: C.ClearMinesCmd, src, entry_do) -> None:
    clear(ctx, cmd.serial, cmd.tile)
