"""Artillery and radios (Hell on Wheels: Radio Contact; Artillery; the main gun's Blast line).

Fire missions are bought at set-up (`purchase_cost`, `lay`). A caller — a soldier carrying a
radio, walkie-talkie or field telephone, or a vehicle with a working on-board radio — gets radio
contact by LOOK cards played in one turn; each contact lets him `call` one mission onto a marked
tile in his sight: a lettered marker pair, one on the tile (public, face down) and one on the
sighting track (private). Each Sight action for the call (`adjust`) climbs one row; at On Target
the marker is revealed and, unless Fake, the tile takes the mission's blast checks (`strike`).
Heavy artillery and rockets are planned in secret (`plan_barrage`) and fall at the start of their
turn (`turn_start`). A main gun with a blast line answers calls as on-board artillery (kind
"gun:PLATE"). A mission of 3 blast checks or more may fire smoke instead (core manual, Smoke):
a 3x smoke marker on its tile. Rulings: docs/battlefield.md, "Artillery and radios"."""
from __future__ import annotations

from collections.abc import Sequence

from engine.advanced import hidden_deployment as hd
from engine.advanced.equipment_use import lay_smoke
from engine.advanced.sources import _soldier_ok, accepted
from engine.core import commands as C
from engine.core import rulebook
from engine.core.content import Action, Catalog, Do, EquipmentDef, Rank, ScenarioDef
from engine.core.errors import RuleError
from engine.core.line_of_sight import look_mods_for, vehicle_cell
from engine.core.log import Ctx
from engine.core.ratings import current
from engine.core.state import ArtilleryCall, PlannedBarrage, TrailMark
from engine.core.views import ArtilleryCallView, ArtilleryMarkerView, BarrageView
from engine.infantry.blast import blast_victim
from engine.infantry.contact import in_contact, touching
from engine.infantry.equipment import device_of
from engine.infantry.look import sight_options
from engine.vehicles.damage import blast_aboard, machinery_ok
from engine.vehicles.look import (
    _enemy_targets,
    _radio_works,
    best_eye,
    can_see,
    crew_optics,
    crew_sight,
    has_eye,
    marked_by,
    place_marker,
    radios,
)
from engine.vehicles.orders import after_artillery

DEVICE_NAMES = {"radio": "radio", "walkie": "walkie-talkie", "phone": "field telephone"}
DEFAULT_LOOKS = 2  # a soldier's radio value where the chart gives none (Radio Contact)
LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"
GUN = "gun:"  # call kind prefix: a friendly main gun with a blast line (on-board artillery)
GUN_AS = "light-artillery"  # on-board guns are called like the organic light guns of the chart
SMOKE_CHECKS = 3  # artillery of this many blast checks or more may fire smoke (core manual, Smoke)
SMOKE_DENSITY = 3  # artillery smoke is heavy smoke


# --------------------------------------------------------------------------- the chart


def kind_def(st_or_cat, kind: str) -> EquipmentDef | None:
    """The chart entry of an artillery kind (an on-board gun: light artillery's)."""
    eq = _equipment(st_or_cat).get(GUN_AS if kind.startswith(GUN) else kind)
    return eq if eq is not None and eq.kind == "artillery" else None


def _equipment(st_or_cat) -> dict[str, EquipmentDef]:
    return st_or_cat.equipment if isinstance(st_or_cat, Catalog) else st_or_cat.setup.equipment


def kind_name(st, kind: str) -> str:
    if kind.startswith(GUN):
        plate = int(kind[len(GUN):])
        return f"the {st.name(plate)}'s main gun" if plate in st.vehicles else "a main gun"
    d = kind_def(st, kind)
    return d.name if d else kind


def allowed_kinds(cat: Catalog, sc: ScenarioDef) -> list[str]:
    """The artillery a player may buy in this scenario: its list, else every kind but the
    planned barrages (heavy artillery and rockets are scenario-specific)."""
    every = [k for k, e in cat.equipment.items() if e.kind == "artillery"]
    if sc.artillery is not None:
        return [k for k in sc.artillery if k in every]
    return [k for k in every if not cat.equipment[k].planned]


def purchase_cost(cat: Catalog, sc: ScenarioDef, ordnance, barrages) -> int:
    """The VP a player pays for his artillery (Purchasing Artillery): each mission at its price;
    one heavy artillery or rocket barrage at most; only kinds the scenario allows. A barrage
    planned at set-up is a purchase of its kind."""
    kinds = list(ordnance) + [b.kind for b in barrages]
    allowed = allowed_kinds(cat, sc)
    for k in kinds:
        if k.startswith(GUN) or kind_def(cat, k) is None:
            raise RuleError(f"{k!r} is not artillery on the chart; there is " + ", ".join(
                sorted(x for x, e in cat.equipment.items() if e.kind == "artillery")) + ".")
        if k not in allowed:
            raise RuleError(f"this scenario does not offer {cat.equipment[k].name.lower()}"
                            + ("; it offers " + ", ".join(allowed) if allowed else "") + ".")
    heavy = [k for k in kinds if cat.equipment[k].planned]
    if len(heavy) > 1:
        raise RuleError("a player may buy one heavy artillery or rocket barrage, not " + str(len(heavy)) + ".")
    for b in barrages:
        if not cat.equipment[b.kind].planned:
            raise RuleError(f"{cat.equipment[b.kind].name} is called by radio, not planned as a barrage.")
        if not b.tile.startswith("L") or not any(b.tile in row for row in sc.map):
            raise RuleError(f"a barrage falls on a landmark on the map, not on {b.tile}.")
        if b.turn > sc.turns:
            raise RuleError(f"the scenario has {sc.turns} turns; a barrage cannot be planned for turn {b.turn}.")
    return sum(cat.equipment[k].vp for k in kinds)


def seat_purchases(sc: ScenarioDef, spec, first: bool) -> tuple[list[str], list]:
    """A seat's artillery: what its spec names, else the side's preset (its first player's)."""
    side = sc.side(spec.side)
    ordnance = spec.ordnance if spec.ordnance is not None else side.ordnance if first else []
    barrages = spec.barrages if spec.barrages is not None else side.barrages if first else []
    return list(ordnance), list(barrages)


def lay(st, ordnance: dict[int, list[str]], barrages: dict[int, list]) -> None:
    """Set-up: each seat's missions bought and barrages planned (all private)."""
    art = st.artillery
    for seat, kinds in ordnance.items():
        art.ordnance[seat] = list(kinds)
        art.bought.setdefault(seat, []).extend(kinds)
    for seat, plans in barrages.items():
        for b in plans:
            art.bought.setdefault(seat, []).append(b.kind)
            art.barrages.append(PlannedBarrage(seat=seat, kind=b.kind, turn=b.turn, tile=b.tile, smoke=b.smoke))


# --------------------------------------------------------------------------- callers and radio contact


def _seat_of(st, serial: int) -> int | None:
    if serial in st.vehicles:
        return st.forces[st.vehicles[serial].controller].seat
    s = st.soldiers.get(serial)
    return st.forces[s.controller].seat if s is not None else None


def caller_of(st, serial: int) -> int:
    """Who makes the call: a man aboard a vehicle works its on-board set (its plate); a man on
    foot his own set."""
    s = st.soldiers.get(serial)
    if s is not None and s.status == "aboard" and s.vehicle in st.vehicles:
        return s.vehicle
    return serial


def devices(st, caller: int) -> list[str]:
    """The devices a caller can use now: a soldier's own sets; a vehicle's on-board radio while it
    has a crew and a radio set not wrecked (it counts as a radio)."""
    if caller in st.vehicles:
        v = st.vehicles[caller]
        ok = (v.status == "board" and st.vehicle_def(caller).radio is not None and _radio_works(st, caller)
              and has_eye(st, caller))
        return ["radio"] if ok else []
    s = st.soldiers.get(caller)
    if s is None or not s.free:
        return []
    out = []
    for item in s.equipment:
        d = device_of(st.setup.equipment.get(item))
        if d and d not in out:
            out.append(d)
    return out


def looks(st, caller: int) -> int:
    """LOOK cards his deck has played this turn (Radio Contact)."""
    if caller in st.vehicles:
        return st.vehicles[caller].looks
    return st.artillery.looks.get(st.soldiers[caller].controller, 0)


def needed(st, caller: int, kind: str, relayed: bool = False) -> int:
    """LOOK phases for contact: a vehicle's Radio value; a soldier's from the chart (its Relay
    line for a relayed call), else 2."""
    if caller in st.vehicles:
        return st.vehicle_def(caller).radio or DEFAULT_LOOKS
    d = kind_def(st, kind)
    if relayed:
        return d.relay_looks if d is not None and d.relay_looks else DEFAULT_LOOKS
    return (d.looks if d is not None and d.looks else DEFAULT_LOOKS)


def contacts_left(st, caller: int, kind: str, relayed: bool = False) -> int:
    """Calls still open to him this turn: one for reaching contact and one for each LOOK card
    after it (Placement and Tracking), less the calls already made."""
    n = looks(st, caller) - needed(st, caller, kind, relayed) + 1
    return max(0, n) - st.artillery.called.get(caller, 0)


def look_card_played(ctx: Ctx, force_id: str) -> None:
    """A squad's LOOK card counts toward its radio men's contact this turn (vehicles count their
    own: engine/vehicles/look.py). The player hears privately when a set gets through."""
    st = ctx.st
    f = st.forces[force_id]
    if f.kind != "squad":
        return
    n = st.artillery.looks[force_id] = st.artillery.looks.get(force_id, 0) + 1
    men = sorted(s.serial for s in st.soldiers.values() if s.controller == force_id and devices(st, s.serial))
    if n == DEFAULT_LOOKS:  # a soldier's radio value: his radio reaches the friendly tanks
        for man in men:
            if "radio" in devices(st, man):
                spot_for_vehicles(ctx, man)
    if men:
        ctx.tell(f.seat, "radio_contact", f"{n} LOOK card{'s' if n != 1 else ''} this turn toward radio contact "
                 "for " + ", ".join(st.name(m) for m in men) + ".", looks=n, callers=men)


# --------------------------------------------------------------------------- spotting over the radio


def _radio_men(st, side: str) -> list[int]:
    """Soldiers of a side on foot carrying a radio proper (walkie-talkies and telephones reach
    only the guns)."""
    return sorted(s.serial for s in st.soldiers.values() if s.side == side and "radio" in devices(st, s.serial))


@rulebook.radio_spot.fill
def spot_for_soldiers(ctx: Ctx, plate: int) -> None:
    """A radio vehicle made contact (Sight and Radio Contact): every target it has marked that a
    friendly soldier with a radio could spot gets the general Spotted marker."""
    st = ctx.st
    side = st.vehicles[plate].side
    for man in _radio_men(st, side):
        _, table = sight_options(st, man)
        for target, _, _, seen in table:
            if seen and marked_by(st, target, plate):
                holder = st.vehicles[target] if target in st.vehicles else st.soldiers[target]
                if holder.spotted:
                    continue
                holder = st.changing_vehicle(target) if target in st.vehicles else st.changing(target)
                holder.spotted = True
                ctx.say("radio_spot", f"Over the radio {st.name(man)} marks {st.name(target)} too.",
                        serial=man, target=target)


def spot_for_vehicles(ctx: Ctx, man: int) -> None:
    """A soldier with a radio made contact: every friendly radio vehicle that could sight a
    target carrying the general marker places its own marker there (Sight and Radio Contact)."""
    st = ctx.st
    side = st.soldiers[man].side
    for plate in radios(st, side):
        eye = best_eye(st, plate)
        if eye is None:
            continue
        for t in _enemy_targets(st, side):
            holder = st.vehicles[t] if t in st.vehicles else st.soldiers[t]
            if holder.spotted and not marked_by(st, t, plate) and can_see(st, eye, t)[0]:
                place_marker(st, t, plate)
                ctx.say("radio_spot", f"Over the radio the {st.name(plate)} marks {st.name(t)} too.",
                        plate=plate, target=t)


# --------------------------------------------------------------------------- calling


def _marked(st, tile: str, mark: int, side: str) -> bool:
    """The tile carries a Spotted marker of the caller's kind: a sighted tile, an enemy soldier
    spotted there, or an enemy vehicle there (general marker, or the calling vehicle's own)."""
    if mark in st.sighted.get(tile, []):
        return True
    board = st.board
    for s in st.soldiers.values():
        if s.side != side and s.free and s.at and board.tile_at(s.at) == tile and (
                (mark == 0 and s.spotted) or (mark and mark in s.spotted_by)):
            return True
    for v in st.vehicles.values():
        if v.side != side and v.status == "board" and v.tile == tile and (
                (mark == 0 and v.spotted) or (mark and mark in v.spotted_by)):
            return True
    return False


def _in_sight(st, caller: int, tile: str) -> tuple[bool, int, int]:
    board = st.board
    if caller in st.vehicles:
        eye = best_eye(st, caller)
        here, sight, optics = vehicle_cell(st, caller), crew_sight(st, eye), crew_optics(st, eye)
    else:
        here, sight, optics = st.soldiers[caller].at, current(st, caller, "sight"), 0
    there = board.tile_centre(tile)
    d = board.squares(here, there, Action.LOOK)
    reach = sight + look_mods_for(st, here, there, optics)
    return d <= reach, d, reach


def gun_problem(st, seat: int, plate: int) -> str | None:
    """Why a main gun cannot fire as on-board artillery now (Main Gun: the Blast line)."""
    v = st.vehicles.get(plate)
    if v is None:
        return f"there is no vehicle {plate}."
    vdef = st.vehicle_def(plate)
    name = st.name(plate)
    if st.forces[v.controller].seat != seat:
        return f"the {name} is not yours."
    if vdef.main_gun is None or not vdef.main_gun.blast_line:
        return f"the {name}'s gun has no blast line: it cannot fire as on-board artillery."
    if v.status != "board":
        return f"the {name} is {v.status}."
    if any(loc.id == "main_gun" for loc in vdef.locations) and not machinery_ok(st, plate, "main_gun"):
        return f"the {name}'s main gun is wrecked."
    if _gun_round(st, plate) is None:
        return f"the {name} has no high-explosive round in its breach or ready rack."
    return None


def _gun_round(st, plate: int) -> tuple[str, str] | None:
    """(where, ammo id) of the round an indirect shot spends: one in the breach, else a ready one."""
    v = st.vehicles[plate]
    gun = st.vehicle_def(plate).main_gun

    def he(aid: str) -> bool:
        a = gun.ammo_type(aid.split("/")[0])
        return a is not None and a.blast.long > 0 and not a.smoke
    for part in v.in_breach:
        if he(part):
            return "breach", part
    for aid, n in sorted(v.ready.items()):
        if n > 0 and he(aid):
            return "ready", aid
    return None


def _gun_checks(st, plate: int) -> int:
    where = _gun_round(st, plate)
    return st.vehicle_def(plate).main_gun.ammo_type(where[1].split("/")[0]).blast.long if where else 0


def call_problem(st, cmd: C.CallCmd) -> str | None:
    """Why this call cannot be made now, or None."""
    return _contact_problem(st, cmd) or _tile_problem(st, caller_of(st, cmd.serial), cmd.tile, cmd.seat)


def _contact_problem(st, cmd: C.CallCmd) -> str | None:
    """Everything but the tile: the caller, his set, the kind and his radio contact."""
    return _reach_problem(st, cmd.seat, cmd.serial, cmd.kind, fake=cmd.fake, smoke=cmd.smoke, relay=cmd.relay)


def _reach_problem(st, seat: int, serial: int, kind: str, *, fake: bool, smoke: bool, relay: int | None,
                   have: list[str] | None = None) -> str | None:
    """_contact_problem of a call given by its parts (call_options asks it of many calls without
    making each one; `have`: the caller's devices, when the caller has worked them out)."""
    if st.phase < 1 or st.step in ("turn_start", "place", "turn_end", "over"):
        return "artillery is called during the phases of a turn, once radio contact is made."
    if serial not in st.vehicles and serial not in st.soldiers:
        return f"there is no soldier or vehicle {serial}."
    caller = caller_of(st, serial)
    if _seat_of(st, caller) != seat:
        return f"{st.name(caller)} is not yours."
    if have is None:
        have = devices(st, caller)
    if not have:
        return (f"the {st.name(caller)} has no working radio and crew to call with." if caller in st.vehicles else
                f"{st.name(caller)} carries no radio, walkie-talkie or field telephone"
                + ("" if st.soldiers[caller].free else " on the board") + ".")
    if kind.startswith(GUN):
        try:
            plate = int(kind[len(GUN):])
        except ValueError:
            return f"on-board artillery is named {GUN}PLATE, not {kind!r}."
        problem = gun_problem(st, seat, plate)
        if problem:
            return problem
        if any(c.kind == kind for c in st.artillery.calls):
            return f"the {st.name(plate)} already has a fire mission under way."
        d = kind_def(st, kind)
        if d is None:
            return "the chart has no light artillery to call on-board guns like."
    else:
        d = kind_def(st, kind)
        if d is None:
            return f"{kind!r} is not artillery on the chart."
        if d.planned:
            return f"{d.name.lower()} is not called by radio: it is planned for a turn and a landmark (barrage)."
        pool = st.artillery.bought.get(seat, []) if fake else st.artillery.ordnance.get(seat, [])
        if kind not in pool:
            return (f"you bought no {d.name.lower()}." if fake else
                    f"you have no {d.name.lower()} left to call.")
    if smoke:
        problem = smoke_problem(st, kind, fake=fake)
        if problem:
            return problem
    if relay is not None:
        return relay_problem(st, seat, caller, relay, kind) or _contact_count_problem(st, caller, kind, True)
    if not set(have) & set(d.devices):
        return (f"{st.name(caller)} has only a " + " and a ".join(DEVICE_NAMES[x] for x in have)
                + f": {kind_name(st, kind).lower()} needs a " + " or a ".join(DEVICE_NAMES[x] for x in d.devices)
                + ".")
    return _contact_count_problem(st, caller, kind, False)


def _contact_count_problem(st, caller: int, kind: str, relayed: bool) -> str | None:
    name = st.name(caller)
    need = needed(st, caller, kind, relayed)
    n = looks(st, caller)
    if n < need:
        return (f"{name} has no radio contact: {n} LOOK card{'s' if n != 1 else ''} this turn, "
                f"{need} needed" + (" to relay a call" if relayed else "") + ".")
    if contacts_left(st, caller, kind, relayed) <= 0:
        return f"{name} has used his radio contact this turn: another LOOK card gives another call."
    return None


def _relayed_kind(st, kind: str) -> EquipmentDef | None:
    """The chart entry of a kind whose calls may go through a relay (it has a Relay line), else None."""
    d = kind_def(st, kind)
    return None if kind.startswith(GUN) or d is None or d.relay_row is None else d


def relay_problem(st, seat: int, caller: int, relay: int, kind: str) -> str | None:
    """Why a call cannot be relayed (the chart's Relay line; ruling A1): the observer's own set
    must not reach the guns (else he calls them himself); the relay is another set of his
    player's, on the board, that reaches them: a man carrying it or a vehicle's working radio."""
    d = _relayed_kind(st, kind)
    if d is None:
        return f"{kind_name(st, kind).lower()} is never relayed: its own set calls it."
    name = st.name(caller)
    if set(devices(st, caller)) & set(d.devices):
        return f"{name}'s own set reaches {d.name.lower()}: he calls it himself, with no relay."
    if relay not in st.vehicles and relay not in st.soldiers:
        return f"there is no soldier or vehicle {relay} to relay through."
    station = caller_of(st, relay)
    if station == caller:
        return "a relay is another set than the caller's own."
    if _seat_of(st, station) != seat:
        return f"{st.name(station)} is not yours to relay through."
    if not set(devices(st, station)) & set(d.devices):
        return (f"{st.name(station)} has no working set that reaches {d.name.lower()} (it needs a "
                + " or a ".join(DEVICE_NAMES[x] for x in d.devices) + ").")
    return None


def smoke_problem(st, kind: str, *, fake: bool = False) -> str | None:
    """Why a mission of this kind cannot fire smoke: the core manual's Smoke gives smoke to
    artillery of 3 blast checks or more; an on-board gun fires its own smoke rounds as a SHOOT
    (Hell on Wheels ammunition), and a fake fires nothing at all."""
    if fake:
        return "a fake call fires nothing, smoke or shells: call it fake or smoke, not both."
    if kind.startswith(GUN):
        return "a main gun fires smoke as its own round when it shoots, not as a call for artillery."
    d = kind_def(st, kind)
    if d.checks < SMOKE_CHECKS:
        return (f"{d.name.lower()} makes {d.checks} blast check{'s' if d.checks != 1 else ''}: only artillery of "
                f"{SMOKE_CHECKS} or more fires smoke.")
    return None


def _tile_problem(st, caller: int, tile: str, seat: int) -> str | None:
    name = st.name(caller)
    board = st.board
    if tile not in board.origin:
        return f"there is no tile {tile} on this map."
    mark = caller if caller in st.vehicles else 0
    side = st.vehicles[caller].side if caller in st.vehicles else st.soldiers[caller].side
    if not _marked(st, tile, mark, side):
        return (f"{tile} carries no " + (f"marker of the {name}" if mark else "Spotted marker")
                + ": artillery is directed only at a marked tile.")
    seen, d_, reach = _in_sight(st, caller, tile)
    if not seen:
        return f"{tile} is {d_} squares from {name}, beyond his modified sight of {reach}."
    if _free_letter(st, seat) is None:
        return "every artillery marker of yours is already on the map."
    return None


def _free_letter(st, seat: int) -> str | None:
    used = {c.letter for c in st.artillery.calls if c.seat == seat}
    return next((x for x in LETTERS if x not in used), None)


def _start_row(st, kind: str, device_list: list[str]) -> tuple[str, int]:
    """The device used and the track row the marker starts on: the best of the caller's sets."""
    d = kind_def(st, kind)
    return min(((dev, d.start_row[dev]) for dev in device_list if dev in d.start_row), key=lambda x: (x[1], x[0]))


def call(ctx: Ctx, cmd: C.CallCmd) -> None:
    """Place a lettered marker pair (Calling Artillery Fire; Placement and Tracking)."""
    st = ctx.st
    problem = call_problem(st, cmd)
    if problem:
        raise RuleError(problem)
    art = st.artillery
    caller = caller_of(st, cmd.serial)
    relay = None if cmd.relay is None else caller_of(st, cmd.relay)
    if relay is None:
        device, rows = _start_row(st, cmd.kind, devices(st, caller))
    else:  # the chart's Relay line; the call goes out on the relay's set
        device, rows = _start_row(st, cmd.kind, devices(st, relay))[0], kind_def(st, cmd.kind).relay_row
    letter = _free_letter(st, cmd.seat)
    c = ArtilleryCall(id=art.next_id, seat=cmd.seat, letter=letter, kind=cmd.kind, tile=cmd.tile, rows_left=rows,
                      fake=cmd.fake, caller=caller, device=device, smoke=cmd.smoke, relay=relay)
    art.next_id += 1
    art.calls.append(c)
    art.called[caller] = art.called.get(caller, 0) + 1
    if not cmd.fake and not cmd.kind.startswith(GUN):
        art.ordnance[cmd.seat].remove(cmd.kind)
    seat_name = st.seats[cmd.seat].name
    ctx.say("artillery_marker", f"{seat_name} puts an artillery marker (#{c.id}) face down on {cmd.tile}.",
            marker=c.id, tile=cmd.tile, seat=cmd.seat)
    through = "" if relay is None else f", relayed through {st.name(relay)}"
    ctx.tell(cmd.seat, "artillery_call",
             f"{st.name(caller)} calls {kind_name(st, cmd.kind).lower()} onto {cmd.tile} by "
             f"{DEVICE_NAMES[device]}{through}: marker pair {letter} ({'FAKE' if cmd.fake else 'ON TARGET'}"
             f"{', smoke' if cmd.smoke else ''}), {rows} Sight action{'s' if rows != 1 else ''} to On Target.",
             marker=c.id, letter=letter, mission=cmd.kind, tile=cmd.tile, rows=rows, fake=cmd.fake, smoke=cmd.smoke)


def call_options(st, seat: int, limit: int = 12) -> list[C.CallCmd]:
    """A few calls this seat could make now (for the agent and hints): for each caller and kind,
    the first marked tile in sight, real, fake and smoke; relayed through his first other set
    that reaches a kind his own does not."""
    if st.phase < 1:
        return []
    art = st.artillery
    kinds = sorted(set(art.ordnance.get(seat, [])))
    plates = [p for p, v in sorted(st.vehicles.items())
              if st.forces[v.controller].seat == seat and gun_problem(st, seat, p) is None]
    kinds += [f"{GUN}{p}" for p in plates]
    if not kinds and not art.bought.get(seat):
        return []
    callers = sorted({caller_of(st, s.serial) for s in st.soldiers.values()
                      if s.in_play and _seat_of(st, s.serial) == seat and s.status in ("board", "aboard")})
    out: list[C.CallCmd] = []
    for caller in callers:
        have = devices(st, caller)
        if not have:
            continue
        tiles = None
        for kind in kinds + sorted(set(art.bought.get(seat, [])) - set(kinds)):
            # a kind never relayed is not asked caller by caller, nor one his own set reaches
            # (relay_problem's first two answers, the same for every relay)
            d = _relayed_kind(st, kind)
            relay = next((r for r in callers if relay_problem(st, seat, caller, r, kind) is None), None) \
                if d is not None and not set(have) & set(d.devices) else None
            for fake, smoke in ([(True, False)] if kind not in kinds else [(False, False), (True, False),
                                                                            (False, True)]):
                # radio contact first, which does not look at the tile: the real calls follow
                if _reach_problem(st, seat, caller, kind, fake=fake, smoke=smoke, relay=relay, have=have) is not None:
                    continue
                if tiles is None:
                    tiles = [t for t in st.board.origin if _tile_problem(st, caller, t, seat) is None][:1]
                probe = C.CallCmd.model_construct(seat=seat, serial=caller, kind=kind, tile="", fake=fake, smoke=smoke,
                                                  relay=relay)
                out += [probe.model_copy(update={"tile": t}) for t in tiles]
                if len(out) >= limit:
                    return out[:limit]
    return out


# --------------------------------------------------------------------------- the sighting track


def adjust_problem(st, serial: int, letter: str, seat: int) -> tuple[str | None, ArtilleryCall | None]:
    """Why this man or vehicle cannot Sight for call LETTER, or (None, the call)."""
    c = next((x for x in st.artillery.calls if x.seat == seat and x.letter == letter.upper()), None)
    if c is None:
        return f"you have no artillery marker {letter.upper()} on the map.", None
    me = caller_of(st, serial)
    name = st.name(serial) if serial in st.soldiers or serial in st.vehicles else str(serial)
    if not devices(st, c.caller):
        return f"{st.name(c.caller)} can no longer reach the guns for marker {c.letter}.", None
    if me == c.caller:
        if serial in st.soldiers and st.soldiers[serial].status != "aboard" and in_contact(st, serial):
            return f"{name} is in combat contact: he cannot work the radio.", None
        return None, c
    s = st.soldiers.get(serial)
    if s is None or not _leader(st, serial):
        return (f"only the radio operator, his vehicle, or a leader with him may Sight for marker {c.letter}; "
                f"{name} is none of these."), None
    if c.caller in st.vehicles:
        return (None, c) if s.status == "aboard" and s.vehicle == c.caller else (
            f"{name} is not in the {st.name(c.caller)}.", None)
    op = st.soldiers[c.caller]
    if not (s.free and touching(s, op)):
        return f"{name} is not beside {st.name(c.caller)}, the radio operator.", None
    if in_contact(st, serial):
        return f"{name} is in combat contact with the enemy.", None
    return None, c


def _leader(st, serial: int) -> bool:
    s = st.soldiers[serial]
    return s.rank != Rank.PRIVATE or st.soldier_def(serial).badge == "officer"


def order_problem(st, c: ArtilleryCall, order: Sequence[int]) -> str | None:
    """Why the caller may not name this order of draws for call `c` now, or None: only with the
    Sight that brings it On Target, and only men on foot in its tile, each once (ruling A8)."""
    if not order:
        return None
    if c.rows_left > 1:
        return (f"marker {c.letter} is {c.rows_left} Sight actions from On Target: the order of draws is named "
                "with the Sight that brings it On Target.")
    secret = hd.hidden(st)  # a hidden enemy is nobody he can name, and no refusal may show him
    mine = st.seats[c.seat].side
    here = [v for v in victims_order(st, c.tile, c.seat) if v not in secret or st.soldiers[v].side == mine]
    for n, serial in enumerate(order):
        if serial in order[:n]:
            return f"{st.name(serial)} is named twice in the order."
        if serial not in here:
            name = st.name(serial) if serial in st.soldiers or serial in st.vehicles else f"dog tag {serial}"
            return (f"{name} is not a man on foot in {c.tile}: the order names "
                    + (", ".join(f"{st.name(v)} ({v})" for v in here) if here else "nobody, the tile is empty") + ".")
    return None


def adjust(ctx: Ctx, serial: int, letter: str, order: Sequence[int] = ()) -> None:
    """A Sight action for a call: its track marker climbs a row; at On Target it is revealed and
    the men in the tile draw in the order the caller names (the rest after, by default)."""
    st = ctx.st
    seat = st.forces[st.active.force].seat
    problem, c = adjust_problem(st, serial, letter, seat)
    if problem is None:
        problem = order_problem(st, c, order)
    if problem:
        raise RuleError(problem)
    c.rows_left -= 1
    ctx.say("artillery_sight", f"{st.name(serial)} talks to the guns over the radio.", serial=serial)
    ctx.tell(seat, "artillery_track", f"Marker {c.letter} climbs the track: "
             + ("On Target!" if c.rows_left <= 0 else f"{c.rows_left} Sight action{'s' if c.rows_left != 1 else ''} "
                f"to On Target."), letter=c.letter, rows=c.rows_left)
    if c.rows_left <= 0:
        reveal(ctx, c, order)


def adjust_options(st, active, source: str, m: int, seat: int):
    """Sight actions for this seat's calls that man (or plate) m may take through `source`."""
    calls = [c for c in st.artillery.calls if c.seat == seat]
    if not calls:
        return
    src = next(x for x in active.sources if x.kind == source)
    if Do.SIGHT not in accepted(st, active, src, m):
        return
    try:
        _soldier_ok(st, active, m, Do.SIGHT)
    except RuleError:
        return
    for c in calls:
        if adjust_problem(st, m, c.letter, seat)[0] is None:
            yield C.AdjustCmd(seat=seat, serial=m, letter=c.letter, via=source)


# --------------------------------------------------------------------------- reveal and blast


def reveal(ctx: Ctx, c: ArtilleryCall, order: Sequence[int] = ()) -> None:
    """Artillery Reveal and Resolution: the marker turns over; On Target fire strikes its tile,
    its men drawing in the caller's `order` (Vehicles and Guns in Target Square)."""
    st = ctx.st
    st.artillery.calls.remove(c)
    seat_name = st.seats[c.seat].name
    if c.fake:
        ctx.say("artillery_reveal", f"{seat_name}'s artillery marker #{c.id} on {c.tile} turns over: FAKE. "
                "Nothing falls.", marker=c.id, tile=c.tile, fake=True, seat=c.seat)
        return
    if c.kind.startswith(GUN):
        plate = int(c.kind[len(GUN):])
        problem = gun_problem(st, c.seat, plate)
        if problem:
            ctx.say("artillery_reveal", f"{seat_name}'s artillery marker #{c.id} on {c.tile} turns over: ON TARGET, "
                    f"but {problem[0].lower() + problem[1:-1]}; nothing falls.", marker=c.id, tile=c.tile, fake=False,
                    seat=c.seat, mission=c.kind)
            return
        checks = _gun_checks(st, plate)
        _spend_round(st, plate)
        force = st.vehicles[plate].force
    elif c.smoke:
        ctx.say("artillery_reveal", f"{seat_name}'s artillery marker #{c.id} on {c.tile} turns over: ON TARGET — "
                f"{kind_name(st, c.kind).lower()} firing smoke: {SMOKE_DENSITY}x smoke over {c.tile}.",
                marker=c.id, tile=c.tile, fake=False, seat=c.seat, mission=c.kind, smoke=True)
        lay_smoke(ctx, c.tile, SMOKE_DENSITY)
        after_artillery(ctx, c.seat)
        return
    else:
        checks = kind_def(st, c.kind).checks
        force = _force_of(st, c.caller, c.seat)
    ctx.say("artillery_reveal", f"{seat_name}'s artillery marker #{c.id} on {c.tile} turns over: ON TARGET — "
            f"{kind_name(st, c.kind).lower()}, {checks} blast check{'s' if checks != 1 else ''}.",
            marker=c.id, tile=c.tile, fake=False, seat=c.seat, mission=c.kind, checks=checks)
    strike(ctx, c.tile, checks, force=force, seat=c.seat, what=kind_name(st, c.kind),
           by=c.caller if c.caller in st.soldiers else None, order=order)
    after_artillery(ctx, c.seat)


def _force_of(st, caller: int, seat: int) -> str:
    """The deck the fire's blast checks come from: the caller's, else the seat's squad."""
    if caller in st.vehicles:
        return st.vehicles[caller].force
    if caller in st.soldiers:
        return st.soldiers[caller].controller
    return next(f.id for f in st.force_of_seat(seat))


def _spend_round(st, plate: int) -> None:
    v = st.changing_vehicle(plate)
    where, aid = _gun_round(st, plate)
    if where == "breach":
        v.in_breach = [p for p in v.in_breach if p.split("/")[0] != aid.split("/")[0]]
    else:
        v.ready[aid] -= 1


def victims_order(st, tile: str, seat: int, chosen: Sequence[int] = ()) -> list[int]:
    """The men on foot in the tile in the order they draw (the shooter's choice, ruling A8): the
    men he names first, as he names them; then, by default, other players' men before his own
    side's, each by lowest dog tag."""
    board = st.board
    mine = st.seats[seat].side
    men = [s for s in st.soldiers.values() if s.on_board and s.at and board.tile_at(s.at) == tile]
    rest = [s.serial for s in sorted(men, key=lambda s: (s.side == mine, st.forces[s.controller].seat == seat,
                                                         s.serial))]
    first = [s for s in chosen if s in rest]
    return first + [s for s in rest if s not in first]


def strike(ctx: Ctx, tile: str, checks: int, *, force: str, seat: int, what: str, by: int | None = None,
           order: Sequence[int] = ()) -> None:
    """The blast checks of a fire mission on every man and vehicle in the tile (Artillery
    Reveal and Resolution; Vehicles and Guns in Target Square), off the shooter's deck."""
    st = ctx.st
    victims = victims_order(st, tile, seat, order)
    ctx.say("blast", f"{what} strikes {tile}" + (": " + ", ".join(st.name(v) for v in victims) if victims
                                                 else "") + ".", tile=tile, victims=victims)
    st.trail.append(TrailMark(kind="blast", path=[st.board.tile_centre(tile)]))
    for v in victims:
        blast_victim(ctx, v, checks=checks, check_force=force, by_force=force, by_soldier=by, cause="artillery")
    if st.vehicles:
        blast_aboard(ctx, tile, checks, by_force=force, by_soldier=by, cause="artillery")


# --------------------------------------------------------------------------- planned barrages


def barrage_problem(st, cmd: C.BarrageCmd) -> str | None:
    if st.step != "place" or st.pending is not None:
        return "barrages are planned in secret while cards are placed at the start of a turn."
    d = kind_def(st, cmd.kind)
    if d is None or not d.planned:
        return f"{cmd.kind!r} is not heavy artillery or rockets: only those are planned as barrages."
    if cmd.kind not in st.artillery.ordnance.get(cmd.seat, []):
        return f"you have no {d.name.lower()} left to plan."
    if cmd.turn <= st.turn:
        return f"a barrage is planned for a later turn than this one ({st.turn})."
    if cmd.turn > st.setup.scenario.turns:
        return f"the scenario has {st.setup.scenario.turns} turns."
    if cmd.tile not in st.board.origin or not st.setup.tiles[cmd.tile].landmark:
        return f"a barrage falls on a landmark on the map, not on {cmd.tile}."
    if cmd.smoke:
        return smoke_problem(st, cmd.kind)
    return None


def plan_barrage(ctx: Ctx, cmd: C.BarrageCmd) -> None:
    """Heavy artillery or rockets planned in secret for a turn and a landmark (Artillery)."""
    st = ctx.st
    problem = barrage_problem(st, cmd)
    if problem:
        raise RuleError(problem)
    st.artillery.ordnance[cmd.seat].remove(cmd.kind)
    st.artillery.barrages.append(PlannedBarrage(seat=cmd.seat, kind=cmd.kind, turn=cmd.turn, tile=cmd.tile,
                                                smoke=cmd.smoke))
    ctx.tell(cmd.seat, "barrage_planned", f"{kind_name(st, cmd.kind)} will fall on {cmd.tile} at the start of "
             f"turn {cmd.turn}{', firing smoke' if cmd.smoke else ''}.", mission=cmd.kind, turn=cmd.turn,
             tile=cmd.tile, smoke=cmd.smoke)


def barrage_options(st, seat: int) -> list[C.BarrageCmd]:
    """One plan per planned kind he still holds: the next turn, on each landmark, and smoke on
    the first."""
    kinds = sorted({k for k in st.artillery.ordnance.get(seat, []) if (d := kind_def(st, k)) and d.planned})
    out = []
    for k in kinds:
        for n, tile in enumerate(st.board.landmarks()):
            for smoke in (False, True) if n == 0 else (False,):
                cmd = C.BarrageCmd(seat=seat, kind=k, turn=st.turn + 1, tile=tile, smoke=smoke)
                if barrage_problem(st, cmd) is None:
                    out.append(cmd)
    return out


def turn_start(ctx: Ctx) -> None:
    """Hell on Wheels, Play Sequence 5: the barrages planned for this turn are revealed and fall."""
    st = ctx.st
    due = [b for b in st.artillery.barrages if b.turn == st.turn]
    st.artillery.barrages = [b for b in st.artillery.barrages if b.turn > st.turn]
    for b in due:
        d = kind_def(st, b.kind)
        if b.smoke:
            ctx.say("barrage", f"{st.seats[b.seat].name}'s planned {d.name.lower()} comes down on {b.tile} firing "
                    f"smoke: {SMOKE_DENSITY}x smoke over it.", seat=b.seat, mission=b.kind, tile=b.tile, smoke=True)
            lay_smoke(ctx, b.tile, SMOKE_DENSITY)
            after_artillery(ctx, b.seat)
            continue
        ctx.say("barrage", f"{st.seats[b.seat].name}'s planned {d.name.lower()} comes down on {b.tile}: "
                f"{d.checks} blast checks.", seat=b.seat, mission=b.kind, tile=b.tile, checks=d.checks)
        strike(ctx, b.tile, d.checks, force=next(f.id for f in st.force_of_seat(b.seat)), seat=b.seat, what=d.name)
        after_artillery(ctx, b.seat)


def turn_end(ctx: Ctx) -> None:
    """Radio contact does not carry over to the next turn (Radio Contact). Markers stay."""
    st = ctx.st
    st.artillery.looks = {}
    st.artillery.called = {}


# --------------------------------------------------------------------------- views


def public_markers(st) -> list:
    return [ArtilleryMarkerView(id=c.id, side=st.seats[c.seat].side, tile=c.tile) for c in st.artillery.calls]


def has_any(st, seat: int) -> bool:
    """Whether the seat has fire missions bought, calls under way or barrages planned: what
    `private` lists as his ordnance, artillery and barrages, without building it."""
    art = st.artillery
    return (bool(art.ordnance.get(seat)) or any(c.seat == seat for c in art.calls)
            or any(b.seat == seat for b in art.barrages))


def private(st, seat: int) -> dict:
    """His calls with their letters, faces and rows; his plans, purchases and radio contact."""
    art = st.artillery
    radio: dict[str, int] = {}
    for s in sorted(st.soldiers.values(), key=lambda s: s.serial):
        if _seat_of(st, s.serial) == seat and s.status == "board" and devices(st, s.serial):
            radio[str(s.serial)] = looks(st, s.serial)
    for p, v in sorted(st.vehicles.items()):
        if st.forces[v.controller].seat == seat and devices(st, p):
            radio[str(p)] = v.looks
    return {
        "artillery": [ArtilleryCallView(letter=c.letter, kind=c.kind, tile=c.tile, rows_left=c.rows_left,
                                        fake=c.fake, caller=c.caller, marker=c.id, smoke=c.smoke, relay=c.relay)
                      for c in art.calls if c.seat == seat],
        "barrages": [BarrageView(kind=b.kind, turn=b.turn, tile=b.tile, smoke=b.smoke)
                     for b in art.barrages if b.seat == seat],
        "radio": radio,
        "ordnance": list(art.ordnance.get(seat, [])),
    }


# --------------------------------------------------------------------------- what its commands do (engine/core/rulebook.py)


@rulebook.performs(C.AdjustCmd)
def adjust_command(ctx: Ctx, cmd: C.AdjustCmd, src, entry_do) -> None:
    adjust(ctx, cmd.serial, cmd.letter, cmd.order)


@rulebook.answers(C.CallCmd)
def call_answer(ctx: Ctx, cmd: C.CallCmd, force: None) -> None:
    call(ctx, cmd)


@rulebook.answers(C.BarrageCmd)
def barrage_answer(ctx: Ctx, cmd: C.BarrageCmd, force: None) -> None:
    plan_barrage(ctx, cmd)
