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

Buying (`check_fields`, `cost`, `check_allowed`, `lay`): chart entries `mine-KIND`
(assets/equipment/mines.yaml), doubled in a landmark; only with Hold orders, when the scenario
allows mines (`ScenarioDef.mines_allowed`), when a vehicle of the player's force says in its
notes that it lays mines, or in the scenario's own preset; one minefield per tile.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from engine.core import rulebook
from engine.core.board import direction_to
from engine.core.content import layout_slots
from engine.core.errors import RuleError
from engine.core.log import Ctx
from engine.core.state import Minefield, TrailMark
from engine.core.vehicle_content import Compartment
from engine.infantry.blast import blast_victim
from engine.infantry.move import escorted_by, path_cells, place_prisoners, reachable
from engine.infantry.orders import after_move
from engine.vehicles.damage import blast_vehicle, drive_ok, immobilised

Cell = tuple[int, int]

KINDS = ("at", "gp", "mixed", "booby", "fake")
NAMES = {"at": "anti-tank", "gp": "general-purpose", "mixed": "mixed", "booby": "booby-trap", "fake": "fake"}
CHECKS = {"at": 5, "gp": 3, "mixed": 8, "booby": 1, "fake": 1}  # blast hit checks (Resolving Detonations)
BY_SOLDIERS = frozenset({"gp", "mixed", "fake", "booby"})
BY_VEHICLES = frozenset({"at", "gp", "mixed", "fake"})
TOKENS = ("at", "gp", "fake", "booby")
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
    if any(LAYS_MINES.search(note) for v in vehicles for note in v.special):
        return None
    return ("mines can be bought only with Hold orders, when the scenario allows them, or with a vehicle "
            "whose notes say it lays them")


def lay(ctx: Ctx, laid: dict[int, list]) -> None:
    """Setup: each player's minefields go down face down (seat -> MinefieldDef list). The table
    hears where and how many tokens; each player of the owning side is told the kinds."""
    st = ctx.st
    for seat, mfs in laid.items():
        side = st.seats[seat].side
        for m in mfs:
            st.minefields.append(Minefield(tile=m.tile, side=side, seat=seat, tokens=list(m.tokens)))
            ctx.say("mines_laid", f"{st.seats[seat].name} lays {len(m.tokens)} mine tokens face down in {m.tile}.",
                    tile=m.tile, side=side.value if hasattr(side, "value") else side, tokens=len(m.tokens))
            kind = kind_of_field(st, st.minefields[-1])
            for mate in st.seats:
                if mate.side == side:
                    ctx.tell(mate.index, "mines_private", f"Your side's minefield in {m.tile}: "
                             f"{NAMES[kind] if kind else 'no effect'} ({', '.join(m.tokens)}).",
                             tile=m.tile, mine_kind=kind, tokens=list(m.tokens))


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
    ctx.say("mine", f"A {NAMES[f.kind]} minefield in {f.tile} goes off under {who}"
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


def _soldier_sets_off(kind: str, how: str) -> bool:
    if kind not in BY_SOLDIERS:
        return False
    return how != "within" if kind == "booby" else True


def _soldier_in(ctx: Ctx, serial: int, tile: str, how: str) -> bool:
    """The fields in `tile` a soldier sets off moving `how` (enter, within, leave). True when
    they stop him: dead, off the board, pinned, or saved from death by a medic."""
    st = ctx.st
    stopped = False
    for f in fields_in(st, tile):
        if not _soldier_sets_off(f.kind, how) or st.soldiers[serial].status != "board":
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
    s = st.soldiers[serial]
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
    for i, (c, t) in enumerate(zip(cells, tiles)):
        if t == last or t in done:
            last = t
            continue
        last = t
        done.add(t)
        if not any(_soldier_sets_off(f.kind, "enter") for f in fields_in(st, t)):
            continue
        was = s.at
        s.at = c  # he is in the tile as the mines go off
        if _soldier_in(ctx, serial, t, "enter"):
            return _halt(ctx, serial, _free_on(st, serial, cells[:i + 1]), cells[:i + 1])
        s.at = was
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
    start = path[0]
    s.at = cell
    if cell != start:
        s.facing = direction_to(start, cell)
        st.trail.append(TrailMark(kind="move", serial=serial, path=[start, cell]))
        try:
            place_prisoners(st, serial, cell, s.facing, escorted_by(st, serial))
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
        if f.kind in BY_VEHICLES and st.vehicles[plate].status == "board":
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
