"""Close combat against vehicles (Hell on Wheels, Combat Contact; Close Combat; Prisoners) and three
of the book's optional rules: shooting in combat contact, fighting buttoned up, trained snipers.

Soldiers on foot in an enemy vehicle's tile (docs/vehicles.md V1) are in close combat with it at
the end of the phase. Each compartment with men inside is its own close combat, fought one
vehicle at a time (lowest plate first), hull, then turret, then cabin, before the ordinary fights:

1. shoot: simultaneous, at Close range (every band read), at most two men a side per opening
   (hatch, door, open compartment); only through an open one. The crew inside are protected by
   the compartment's lowest armour, at most 3 (`crew_protection`); a grenade dropped in is a
   contained blast: its Blast number doubled, damage drawn from both decks in turn.
2. combat initiative: cards in hand plus the fight cards drawn; ties to the side with the highest
   VP man in the combat, then the lowest dog tag.
3. the fight: engine/turn/fight.py's card play, with the book's limits (two men per opening draw fight
   cards; against a shut hatch the attackers' draw for it is halved).

At SMG scale a soldier fights the hull only from its deck and the turret only from on top of it:
he climbs onto the deck (Climb 2) and on up onto the turret (Climb 1 more) with `climb`, a MOVE;
the cabin is fought from the ground (Combat Contact, the SMG-only paragraph). He stays up until he
moves, the vehicle moves, or he is displaced or falls.

A compartment still contested fights again at the end of the next phase (its men are still
there). Opposing vehicles never fight each other: only soldiers on foot assail a vehicle.
Rulings: docs/battlefield.md, "Close combat against vehicles".
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.core import commands as C
from engine.core import rulebook
from engine.core.content import Damage
from engine.core.crew import is_open
from engine.core.deck import check, deal
from engine.core.errors import RuleError
from engine.core.formulas import hit_value
from engine.core.log import Ctx
from engine.core.ratings import current, halve
from engine.core.state import Assault, CapturePending
from engine.core.vehicle_content import Compartment
from engine.core.vehicle_geometry import footprint
from engine.infantry.contact import escorting, in_contact, touching
from engine.infantry.damage import apply_damage, damage_check, kill
from engine.infantry.equipment import fight_rating
from engine.infantry.move import (
    MAX_PRISONERS,
    Dest,
    destination_cells,
    move,
    reachable,
)
from engine.vehicles.damage import (
    _leave_vehicle,
    compartments,
    crew_in,
    crew_protection,
)
from engine.vehicles.move import climb_problem, climb_to
from engine.vehicles.shoot import hurt_aboard, sniper_protection

PARTS = ("hull", "turret", "cabin")  # the book's order of compartments
PER_OPENING = 2  # men a side per hatch, door or open compartment


@dataclass(frozen=True)
class Opening:
    key: str  # the hatch's crew position, "open" (an open compartment), "door" or "port"
    open: bool


@dataclass(frozen=True)
class Attacker:
    serial: int
    opening: Opening


# --------------------------------------------------------------------------- who is where


def options(st):
    return st.setup.scenario.options


def fighting(st, serial: int) -> bool:
    """A man who can take part: free on foot, or aboard (not a prisoner)."""
    s = st.soldiers[serial]
    return s.captor is None and (s.status == "board" or (s.status == "aboard" and not s.dismounted))


def openings(st, plate: int, part: str) -> list[Opening]:
    """The ways into a compartment, open ones first: each hatch of a crew position (open while
    unbuttoned); an open-topped compartment is one open opening; a hatchless cabin has a door
    (open when the cabin is); any other hatchless compartment a shut vision port."""
    v = st.vehicles[plate]
    vdef = st.vehicle_def(plate)
    comp = Compartment(part)
    if comp in vdef.open_top:
        return [Opening("open", True)]
    out = [Opening(loc.id, loc.id in v.unbuttoned) for loc in vdef.locations
           if loc.compartment == comp and loc.kind == "crew" and loc.hatch]
    if not out:
        out = [Opening("door", is_open(st, plate, "cabin"))] if comp == Compartment.CABIN else [Opening("port", False)]
    return sorted(out, key=lambda o: not o.open)


def crew(st, plate: int, part: str) -> list[int]:
    """The men inside the compartment who take part, at most two per opening: those at an open
    hatch first, then those at a hatch, then the rest in the panel's order (passengers by tag)."""
    v = st.vehicles[plate]
    vdef = st.vehicle_def(plate)
    inside = crew_in(st, plate, Compartment(part))
    order = {loc.id: i for i, loc in enumerate(vdef.locations)}

    def rank(n: int):
        post = st.soldiers[n].post
        loc = next((x for x in vdef.locations if x.id == post), None)
        hatch = loc is not None and loc.hatch
        return (not (hatch and post in v.unbuttoned), not hatch, order.get(post, 99), n)

    return sorted(inside, key=rank)[:PER_OPENING * len(openings(st, plate, part))]


def enemies_in_tile(st, plate: int, by_tile: dict | None = None) -> list[int]:
    """The enemy soldiers free on the board in the vehicle's tile, by serial. `by_tile`
    (`free_by_tile`, read once for every vehicle a phase's end asks about) answers the same."""
    v = st.vehicles[plate]
    if by_tile is not None:
        return [s.serial for s in by_tile.get(v.tile, ()) if s.side != v.side]
    board = st.board
    # the cheap tests first: the other side (half the roster), on a cell, then free and the tile
    return sorted(s.serial for s in st.soldiers.values()
                  if s.side != v.side and s.at is not None and s.free and board.tile_at(s.at) == v.tile)


def free_by_tile(st) -> dict:
    """The soldiers free on the board, by the tile they stand in, each tile's by serial: what
    enemies_in_tile reads, read once for all the vehicles (a phase's end asks about each vehicle
    and each chosen attack). Valid while no man moves, is freed or taken."""
    tiles: dict = {}
    board = st.board
    for serial in sorted(st.soldiers):
        s = st.soldiers[serial]
        if s.at is not None and s.free:
            tiles.setdefault(board.tile_at(s.at), []).append(s)
    return tiles


def deck_of(st, serial: int) -> str | None:
    """Where on an enemy vehicle he stands: "hull" (its deck), "turret", or None (on the ground)."""
    s = st.soldiers[serial]
    if s.on_deck is None or not s.free:
        return None
    v = st.vehicles.get(s.on_deck)
    if v is None or v.status != "board" or v.tile is None or st.board.tile_at(s.at) != v.tile:
        return None
    return "turret" if s.on_turret else "hull"


def reaches(st, serial: int, plate: int, part: str) -> bool:
    """Whether he can get at the compartment's openings from where he stands (SMG only): the
    cabin from the ground, the hull from its deck, the turret from on top of it."""
    if part == "cabin":
        return True
    return st.soldiers[serial].on_deck == plate and deck_of(st, serial) == part


def contested(st, plate: int) -> list[str]:
    """The vehicle's compartments with someone inside to fight."""
    v = st.vehicles[plate]
    if v.status != "board" or v.tile is None:
        return []
    vdef = st.vehicle_def(plate)
    return [c.value for c in compartments(vdef) if crew_in(st, plate, c)]


@rulebook.spot_on_contact.fill
def spot_on_contact(ctx: Ctx, *, serial: int | None = None, plate: int | None = None) -> None:
    """Moving into combat contact with an enemy vehicle spots both at once (Combat Contact): a
    soldier ending a move on foot in the tile of an enemy vehicle with men inside, or a vehicle
    with men inside ending its move in a tile where enemy soldiers stand on foot. The soldiers
    take the general Spotted marker, and so does the vehicle."""
    st = ctx.st
    if serial is not None:
        s = st.soldiers[serial]
        if not s.free or s.at is None:
            return
        tile = st.board.tile_at(s.at)
        pairs = [(p, [serial]) for p, v in sorted(st.vehicles.items())
                 if v.tile == tile and v.side != s.side and contested(st, p)]
    else:
        pairs = [(plate, enemies_in_tile(st, plate))] if contested(st, plate) else []
    for p, men in pairs:
        fresh = [n for n in men if not st.soldiers[n].spotted]
        if not men or (not fresh and st.vehicles[p].spotted):
            continue
        st.changing_vehicle(p).spotted = True
        for n in men:
            st.changing(n).spotted = True
        ctx.say("contact_spotted", f"{', '.join(st.name(n) for n in men)} and the {st.name(p)} are in combat "
                f"contact: all are spotted.", plate=p, serials=men)


def assignments(st, plate: int, by_tile: dict | None = None) -> dict[str, list[Attacker]]:
    """Which soldiers in the tile attack which compartment through which opening. Chosen ones
    (`assail`) first; everyone else by default: open openings before shut ones, hull before
    turret before cabin, two men per opening; the hull and turret only for men up there (`reaches`);
    who finds no room waits. `by_tile`: see enemies_in_tile."""
    men = enemies_in_tile(st, plate, by_tile)
    parts = contested(st, plate) if men else []  # no one in the tile to attack: the crew need not be read
    room = {p: {o: [] for o in openings(st, plate, p)} for p in parts}
    waiting = []
    for n in men:
        a = st.assaults.get(n)
        if a is not None and a.plate == plate and a.part in room and reaches(st, n, plate, a.part):
            free = [o for o, men in room[a.part].items() if len(men) < PER_OPENING]
            if free:
                room[a.part][free[0]].append(n)
                continue
        waiting.append(n)
    slots = [(p, o) for opened in (True, False) for p in PARTS if p in room for o in room[p] if o.open == opened]
    for n in waiting:
        for p, o in slots:
            if len(room[p][o]) < PER_OPENING and reaches(st, n, plate, p):
                room[p][o].append(n)
                break
    return {p: [Attacker(n, o) for o, men in room[p].items() for n in men] for p in parts
            if any(room[p].values())}


def due(st) -> list[tuple[int, str]]:
    """The close combats to fight at this phase's end, in the book's order (after forgetting the
    choices and decks of men no longer there)."""
    by_tile = free_by_tile(st)  # tidy steps men down from decks: none moves, is freed or taken
    tidy(st, by_tile)
    out = []
    for plate in sorted(st.vehicles):
        for part, men in assignments(st, plate, by_tile).items():
            if men:
                out.append((plate, part))
    return out


# --------------------------------------------------------------------------- the assail command


def tidy(st, by_tile: dict | None = None) -> None:
    """Forget the choices of men no longer free in their vehicle's tile (they chose anew on return),
    and the decks of men no longer up there. `by_tile`: see enemies_in_tile."""
    for n, a in list(st.assaults.items()):
        if a.plate not in st.vehicles or n not in enemies_in_tile(st, a.plate, by_tile):
            del st.assaults[n]
    forget_fallen(st)


def forget_fallen(st) -> None:
    """Men no longer up on a deck (killed, taken, gone from the board, or the vehicle destroyed,
    abandoned or gone) are on the ground: the play sequence calls this after every command."""
    for s in st.soldiers.values():
        if s.on_deck is not None and deck_of(st, s.serial) is None:
            st.changing(s.serial).step_down()


def assail(ctx: Ctx, cmd) -> None:
    """A soldier in an enemy vehicle's tile chooses the compartment he attacks (and a grenade)."""
    st = ctx.st
    tidy(st)
    problem = assail_problem(st, cmd.seat, cmd.serial, cmd.plate, cmd.part, cmd.grenade)
    if problem:
        raise RuleError(problem)
    st.assaults[cmd.serial] = Assault(plate=cmd.plate, part=cmd.part, grenade=cmd.grenade)
    ctx.say("assail", f"{st.name(cmd.serial)} will attack the {cmd.part} of the {st.name(cmd.plate)}.",
            serial=cmd.serial, plate=cmd.plate, part=cmd.part)
    if cmd.grenade:  # the grenade stays his player's secret until he drops it in
        ctx.tell(cmd.seat, "assail_grenade", f"{st.name(cmd.serial)} will drop a grenade in rather than shoot.",
                 serial=cmd.serial)


def assail_problem(st, seat: int, serial: int, plate: int, part: str, grenade: bool) -> str | None:
    s = st.soldiers.get(serial)
    if s is None or st.forces[s.controller].seat != seat:
        return f"{serial} is not one of your soldiers."
    if not s.free:
        return f"{st.name(serial)} is not on the board on foot."
    v = st.vehicles.get(plate)
    if v is None or v.status != "board" or v.side == s.side:
        return f"{plate} is not an enemy vehicle on the board."
    if serial not in enemies_in_tile(st, plate):
        return f"{st.name(serial)} is not in the {st.name(plate)}'s tile ({v.tile})."
    if part not in contested(st, plate):
        return f"nobody is inside the {st.name(plate)}'s {part} to fight."
    if not reaches(st, serial, plate, part):
        return (f"{st.name(serial)} is not up on the {st.name(plate)}'s {'deck' if part == 'hull' else part}: a man "
                f"climbs there first (climb {serial} {plate}{' turret' if part == 'turret' else ''}) to fire or "
                f"fight at its {part} hatches.")
    if grenade:
        if s.grenades <= 0:
            return f"{st.name(serial)} has no grenades left."
        if current(st, serial, "toss") <= 0:
            return f"{st.name(serial)} cannot toss grenades."
    taken = [n for n, a in st.assaults.items() if n != serial and a.plate == plate and a.part == part
             and n in enemies_in_tile(st, plate)]
    limit = PER_OPENING * len(openings(st, plate, part))
    if len(taken) >= limit:
        return f"the {part} of the {st.name(plate)} has room for {limit} attackers, and they are there."
    return None


def assail_options(st, seat: int) -> list[tuple[int, int, str, bool]]:
    """(serial, plate, part, grenade) a seat may choose now: his men in an enemy vehicle's tile
    who have not chosen yet for that vehicle."""
    out = []
    for plate in sorted(st.vehicles):
        v = st.vehicles[plate]
        if v.status != "board":
            continue
        for n in enemies_in_tile(st, plate):
            if st.forces[st.soldiers[n].controller].seat != seat:
                continue
            a = st.assaults.get(n)
            if a is not None and a.plate == plate:
                continue
            for part in contested(st, plate):
                for g in (False, True):
                    if assail_problem(st, seat, n, plate, part, g) is None:
                        out.append((n, plate, part, g))
    return out


# --------------------------------------------------------------------------- climbing onto the deck (SMG)


def climb_on_problem(st, seat: int, serial: int, plate: int, part: str) -> str | None:
    """Why he cannot climb onto the enemy vehicle's deck (or turret) now, or None. Whether he can
    walk there when he is not in its tile is the walk's own question (`climb`)."""
    s = st.soldiers.get(serial)
    if s is None or st.forces[s.controller].seat != seat:
        return f"{serial} is not one of your soldiers."
    name = st.name(serial)
    if not s.free:
        return f"{name} is not on the board on foot."
    v = st.vehicles.get(plate)
    if v is None or v.status != "board" or v.tile is None or v.side == s.side:
        return f"{plate} is not an enemy vehicle on the board."
    vname = st.name(plate)
    if part == "turret" and not st.vehicle_def(plate).has_turret:
        return f"the {vname} has no turret."
    if s.on_deck == plate and deck_of(st, serial) == part:
        return f"{name} is on the {vname}'s {'deck' if part == 'hull' else part} already."
    if s.dismounted:
        return f"{name} stays beside his own vehicle while dismounted."
    if in_contact(st, serial):
        return f"{name} is in combat contact (locked in combat): he may only turn to face."
    if escorting(st, serial):
        return f"{name} is escorting prisoners: they do not climb onto tanks with him."
    if v.moved or v.move_plus:
        return f"the {vname} is moving (it moved this phase or holds Move+ markers): nobody climbs on."
    return climb_problem(st, serial, plate, climb_to(part, _standing(st, serial, plate)))


def _standing(st, serial: int, plate: int) -> str | None:
    """Where on this vehicle he starts a climb from: None (the ground), "hull" or "turret"."""
    return deck_of(st, serial) if st.soldiers[serial].on_deck == plate else None


def climb(ctx: Ctx, cmd) -> None:
    """A MOVE: he walks to the enemy vehicle when he is not in its tile (as `move` to that tile)
    and climbs onto its deck, or on up onto its turret, if his Climb reaches that high."""
    st = ctx.st
    problem = climb_on_problem(st, cmd.seat, cmd.serial, cmd.plate, cmd.part)
    if problem:
        raise RuleError(problem)
    s = st.changing(cmd.serial)
    v = st.vehicles[cmd.plate]
    if st.board.tile_at(s.at) != v.tile:
        tile = v.tile
        move(ctx, cmd.serial, Dest(tile=tile))  # (may spot the vehicle on contact: `v` is not read again)
        if not s.free or st.board.tile_at(s.at) != tile:
            return  # stopped on the way (a mine): he never reached it
    where = "deck" if cmd.part == "hull" else "turret"
    need = climb_to(cmd.part, _standing(st, cmd.serial, cmd.plate))
    s.on_deck, s.on_turret = cmd.plate, cmd.part == "turret"
    tidy(st)
    how = f"climbs (Climb {need}) onto" if need else "climbs down onto"
    ctx.say("climb", f"{st.name(cmd.serial)} {how} the {st.name(cmd.plate)}'s {where}.", serial=cmd.serial,
            plate=cmd.plate, part=cmd.part)


def climb_options(st, serial: int, seat: int, via) -> list:
    """The climbs a man on foot may make now: onto each enemy vehicle (hull deck, turret) with
    someone inside that compartment, in his tile or in a tile he can walk to."""
    s = st.soldiers[serial]
    if not s.free:
        return []
    out = []
    walk = None
    here = st.board.tile_at(s.at)
    for plate in sorted(st.vehicles):
        v = st.vehicles[plate]
        if v.status != "board" or v.side == s.side or v.tile is None or v.moved or v.move_plus:
            continue  # a moving vehicle is climbed by nobody (climb_on_problem): not asked part by part
        inside = contested(st, plate)
        parts = [p for p in ("hull", "turret") if p in inside and climb_on_problem(st, seat, serial, plate, p) is None]
        if not parts:
            continue
        if v.tile != here:
            if walk is None:
                costs, parents, _ = reachable(st, serial)
                walk = (costs, parents)
            if not destination_cells(st, serial, *walk, only=v.tile):
                continue
        out += [C.ClimbCmd(seat=seat, serial=serial, plate=plate, part=p, via=via) for p in parts]
    return out


@rulebook.thrown_off.fill
def thrown_off(ctx: Ctx, plate: int) -> None:
    """The vehicle's hull moved (a drive or a turn): the enemies on its deck fall off where they
    stood and must climb again."""
    st = ctx.st
    men = sorted(s.serial for s in st.soldiers.values() if s.on_deck == plate)
    for n in men:
        st.changing(n).step_down()
    fell = [n for n in men if st.soldiers[n].free]
    if fell:
        ctx.say("thrown_off", f"{', '.join(st.name(n) for n in fell)} {'falls' if len(fell) == 1 else 'fall'} off "
                f"the {st.name(plate)} as it moves.", plate=plate, serials=fell)


# --------------------------------------------------------------------------- step 1: shoot


def crew_protection_against(st, plate: int, part: str, shooter: int) -> int:
    prot = crew_protection(st.vehicle_def(plate), Compartment(part))
    return sniper_protection(st, shooter, prot)


def _close_hits(ctx: Ctx, shooter: int) -> tuple[str, int]:
    """A hit check at Close range: every band the shooter has a rating for is read (Close range
    counts the Long and Short hits too). A Hit+ counts one hit and never chains here."""
    st = ctx.st
    cid = check(ctx, st.soldiers[shooter].controller)
    card = st.card(cid)
    total, seen = 0, []
    for b in ("long", "short", "close"):
        if current(st, shooter, b) > 0:
            total += hit_value(getattr(card.hit, b))[0]
            seen.append(f"{b.capitalize()} {getattr(card.hit, b)}")
    ctx.say("hit_check", f"Hit check {cid} for {st.name(shooter)}: {'; '.join(seen) or 'no band'} — "
            f"{total} hit{'s' if total != 1 else ''}.", card=cid, serial=shooter, hits=total)
    return cid, total


def _hit_crew(ctx: Ctx, victim: int, result: Damage, *, by_force: str, by_soldier: int, cause: str) -> None:
    if fighting(ctx.st, victim) and ctx.st.soldiers[victim].status == "aboard":
        hurt_aboard(ctx, victim, result, by_force=by_force, by_soldier=by_soldier, cause=cause)


def _apply_shot(ctx: Ctx, shooter: int, targets: list[int], hits: int, cause: str) -> None:
    """A shot's hits all go to the first enemy still standing when it lands (the man at the
    front); hits left over when he falls are lost, as in any SHOOT. Damage off the victim's deck."""
    st = ctx.st
    force = st.soldiers[shooter].controller
    alive = [t for t in targets if fighting(st, t)]
    if not alive or not hits:
        return
    t = alive[0]
    for _ in range(hits):
        if not fighting(st, t):
            return
        if st.soldiers[t].status == "aboard":
            cid = check(ctx, st.soldiers[t].controller)
            ctx.say("damage_check", f"{st.name(t)} draws a damage check: {st.card(cid).damage.value}.", serial=t,
                    card=cid, result=st.card(cid).damage.value)
            _hit_crew(ctx, t, st.card(cid).damage, by_force=force, by_soldier=shooter, cause=cause)
        else:
            apply_damage(ctx, t, damage_check(ctx, t), by_force=force, by_soldier=shooter, cause=cause)


def _apply_grenade(ctx: Ctx, thrower: int, men: list[int], blast: int) -> None:
    """A contained blast: the Blast number's hits go one to a man in turn, each hit doubled; the
    damage checks come off the thrower's deck and the victim's in turn."""
    st = ctx.st
    if not men or not blast:
        return
    per = {m: 0 for m in men}
    for i in range(blast):
        per[men[i % len(men)]] += 2
    force = st.soldiers[thrower].controller
    for m, n in per.items():
        for k in range(n):
            if not fighting(st, m):
                break
            deck = force if k % 2 == 0 else st.soldiers[m].controller
            cid = check(ctx, deck)
            ctx.say("damage_check", f"{st.name(m)} draws a damage check off {st.seat_of_force(deck).name}'s deck: "
                    f"{st.card(cid).damage.value}.", serial=m, card=cid, result=st.card(cid).damage.value)
            _hit_crew(ctx, m, st.card(cid).damage, by_force=force, by_soldier=thrower, cause="toss")


def shoot_step(ctx: Ctx, plate: int, part: str, attackers: list[Attacker], inside: list[int]) -> None:
    """Step 1: both sides shoot at once; with Fight and Buttoned-Up a shut compartment's crew
    fire first and their results land before the attackers shoot."""
    st = ctx.st
    opens = [o for o in openings(st, plate, part) if o.open]
    buttoned = not opens
    first = buttoned and options(st).fight_buttoned_up
    n_crew = PER_OPENING * (len(openings(st, plate, part)) if first else len(opens))
    crew_shooters = [m for m in inside if not st.soldiers[m].pinned][:n_crew]
    att = [a.serial for a in attackers]
    if first and crew_shooters:
        ctx.say("cc_buttoned", f"The {st.name(plate)} is buttoned up: its crew shoot first.", plate=plate)
        drawn = [(m, *_close_hits(ctx, m)) for m in crew_shooters]
        for m, _, hits in drawn:
            _apply_shot(ctx, m, att, hits, "shot")
        crew_shooters = []
    plans = []
    for a in attackers:
        if not a.opening.open or not fighting(st, a.serial):
            continue
        s = st.soldiers[a.serial]
        want = st.assaults.get(a.serial)
        if want is not None and want.plate == plate and want.grenade and s.grenades > 0 \
                and current(st, a.serial, "toss") > 0:
            s = st.changing(a.serial)
            s.grenades -= 1
            want.grenade = False
            cid = check(ctx, s.controller)
            blast, _ = hit_value(st.card(cid).hit.blast)
            ctx.say("cc_grenade", f"{st.name(a.serial)} drops a grenade into the {part}: Blast "
                    f"{st.card(cid).hit.blast}, doubled inside to {2 * blast} hits.", serial=a.serial, card=cid,
                    blast=blast, hits=2 * blast)
            plans.append(("grenade", a.serial, blast))
        else:
            _, hits = _close_hits(ctx, a.serial)
            prot = crew_protection_against(st, plate, part, a.serial)
            left = max(0, hits - prot)
            ctx.say("protection", f"The {part} shields its crew: {hits} hit{'s' if hits != 1 else ''} less "
                    f"{prot} = {left}.", serial=a.serial, hits=left, protection=prot)
            plans.append(("shot", a.serial, left))
    answers = [(m, *_close_hits(ctx, m)) for m in crew_shooters]
    for kind, who, n in plans:
        if kind == "grenade":
            _apply_grenade(ctx, who, [m for m in inside if fighting(st, m)], n)
        else:
            _apply_shot(ctx, who, inside, n, "shot")
    for m, _, hits in answers:
        _apply_shot(ctx, m, att, hits, "shot")


# --------------------------------------------------------------------------- steps 2 and 3


def _side_of(st, serial: int) -> str:
    return st.soldiers[serial].side


def fight_cards(st, plate: int, part: str, force: str, attackers: list[Attacker], inside: list[int]) -> int:
    """How many fight cards the force draws: its men's Fight; the attackers' sum at a shut
    opening is halved (rounded down) opening by opening."""
    n = sum(fight_rating(st, m) for m in inside if fighting(st, m) and st.soldiers[m].controller == force)
    by_opening: dict[Opening, int] = {}
    for a in attackers:
        if fighting(st, a.serial) and st.soldiers[a.serial].controller == force:
            by_opening[a.opening] = by_opening.get(a.opening, 0) + fight_rating(st, a.serial)
    for o, k in by_opening.items():
        n += k if o.open else halve(k)
    return n


def initiative_order(st, values: dict[str, int], members: list[int]) -> list[str]:
    """Highest combat initiative first; ties: the highest VP man in the combat, then the lowest tag."""
    def key(f: str):
        mine = [m for m in members if st.soldiers[m].controller == f]
        return (-values[f], -max((st.vp_value(m) for m in mine), default=0), min(mine, default=10 ** 6))
    return sorted(values, key=key)


def start_next(ctx: Ctx) -> bool:
    """Begin the next compartment's close combat from the fight's queue: shoot, then draw fight
    cards and settle the initiative. False when no close combat is left to start."""
    st = ctx.st
    fight = st.fight
    while fight.close:
        plate, part = fight.close.pop(0)
        if part not in contested(st, plate):
            continue
        attackers = assignments(st, plate).get(part, [])
        inside = crew(st, plate, part)
        if not attackers or not inside:
            continue
        st.changing_vehicle(plate).spotted = True
        for a in attackers:
            st.changing(a.serial).spotted = True
        if plate not in st.panels:
            st.panels.append(plate)
        ctx.say("close_combat", f"Close combat at the {st.name(plate)}'s {part}: "
                + ", ".join(st.name(a.serial) for a in attackers) + " against "
                + ", ".join(st.name(m) for m in inside) + ".", plate=plate, part=part,
                attackers=[a.serial for a in attackers], crew=inside)
        shoot_step(ctx, plate, part, attackers, inside)
        attackers = [a for a in attackers if fighting(st, a.serial)]
        inside = [m for m in inside if fighting(st, m)]
        if not attackers or not inside:
            ctx.say("cc_over", f"The close combat at the {st.name(plate)}'s {part} is over after the shooting.",
                    plate=plate, part=part)
            continue
        members = [a.serial for a in attackers] + inside
        forces = sorted({st.soldiers[m].controller for m in members})
        got: dict[str, list[str]] = {}
        for f in forces:
            n = fight_cards(st, plate, part, f, attackers, inside)
            got[f] = deal(ctx, f, n)
            st.changing_force(f).fight_pool.extend(got[f])
        values = {f: len(st.forces[f].hand) + len(got[f]) for f in forces}
        fight.members = members
        fight.order = initiative_order(st, values, members)
        fight.turn_index = 0
        fight.passes = 0
        fight.defeated = []
        fight.plate, fight.part = plate, part
        for f in fight.order:
            seat = st.forces[f].seat
            ctx.say("cc_initiative", f"{st.seats[seat].name}: {len(st.forces[f].hand)} in hand + {len(got[f])} "
                    f"fight card{'s' if len(got[f]) != 1 else ''} = {values[f]}.", force=f,
                    hand=len(st.forces[f].hand), n=len(got[f]), value=values[f])
            ctx.tell(seat, "fight_draw_private", "Your fight cards: " + ", ".join(
                f"{c} ({st.card(c).damage.value})" for c in got[f]) + ".", cards=got[f])
        ctx.say("fight", f"Fight in the {part}. Initiative: " + ", then ".join(
            st.seats[st.forces[f].seat].name for f in fight.order) + ".", members=members, plate=plate, part=part)
        return True
    return False


def fighters(st, force: str) -> list[int]:
    fight = st.fight
    down = {v for v, _, _ in fight.defeated}
    return [s for s in fight.members if st.soldiers[s].controller == force and fighting(st, s) and s not in down]


def targets(st, force: str) -> list[int]:
    """In a compartment's close combat every enemy in it may be struck."""
    fight = st.fight
    down = {v for v, _, _ in fight.defeated}
    side = st.forces[force].side
    if not fighters(st, force):
        return []
    return [s for s in fight.members if s not in down and fighting(st, s) and st.soldiers[s].side != side]


def card_result(ctx: Ctx, force: str, target: int, result: Damage, striker: int) -> str:
    """What a fight card played in a compartment's close combat does (engine/turn/fight.py plays it):
    a crewman inside beaten by a Kill goes down (taken out when the fight ends), other results
    hit him as crew hits; against a man on foot a vehicle card's gear result is a Zip (apply_damage)."""
    st = ctx.st
    if st.soldiers[target].status == "aboard":
        if result == Damage.KILL:
            return "defeated"
        _hit_crew(ctx, target, result, by_force=force, by_soldier=striker, cause="fight")
        return ""
    return apply_damage(ctx, target, result, by_force=force, by_soldier=striker, cause="fight", capturable=True)


def take_out(st, serial: int) -> None:
    """A crewman beaten in close combat leaves his vehicle (to be led off, or killed)."""
    if st.soldiers[serial].status != "aboard":
        return
    s = st.changing(serial)
    tile = st.vehicles[s.vehicle].tile  # read before _leave_vehicle makes the vehicle the state's own
    _leave_vehicle(st, serial)
    s.status, s.vehicle, s.post, s.dismounted = "board", None, None, False
    board = st.board
    cells = sorted(c for c in _tile_cells(board, tile))
    s.at = cells[0] if cells else None


def _tile_cells(board, tile: str):
    return footprint(board, tile)


def end(ctx: Ctx) -> None:
    """A compartment's fight is over: unplayed cards go, the beaten are taken or killed (crew
    inside never take prisoners: a beaten attacker dies); the next fight is the caller's
    (engine/turn/fight.py end_fight)."""
    st = ctx.st
    fight = st.fight
    for fid in fight.order:
        if st.forces[fid].fight_pool:
            f = st.changing_force(fid)
            f.discard.extend(f.fight_pool)
            f.fight_pool = []
    plate, part = fight.plate, fight.part
    down = {v for v, _, _ in fight.defeated}
    still = [s for s in fight.members if fighting(st, s) and s not in down]
    if len({st.soldiers[s].side for s in still}) > 1:
        ctx.say("locked", f"The {part} of the {st.name(plate)} is still contested: the close combat goes on at "
                "the end of the next phase.", plate=plate, part=part)
    for victim, by, striker in fight.defeated:
        escorts = [s for s in fighters(st, by) if st.soldiers[s].status == "board"
                   and sum(1 for p in st.soldiers.values() if p.captor == s and p.status == "board") < MAX_PRISONERS]
        if escorts:
            st.pending_queue.append(CapturePending(force=by, victim=victim, escorts=escorts, striker=striker))
        else:
            take_out(st, victim)
            kill(ctx, victim, by_force=by, by_soldier=striker, cause="fight")
    fight.defeated = []
    fight.members = []
    fight.order = []
    fight.plate = fight.part = None
    tidy(st)


# --------------------------------------------------------------------------- Shooting in Combat Contact


def contact_shots(ctx: Ctx, group: list[int]) -> None:
    """Shooting in Combat Contact (optional): before an ordinary fight every man in it fires once
    at Close range at the first enemy in contact with him, all at once; then the fight."""
    st = ctx.st
    shots = []
    for s in group:
        me = st.soldiers[s]
        foes = [o for o in group if st.soldiers[o].side != me.side and touching(me, st.soldiers[o])]
        if not foes or not me.free:
            continue
        _, hits = _close_hits(ctx, s)
        shots.append((s, foes, hits))
    if shots:
        ctx.say("contact_shots", "Shooting in combat contact: everyone fires first.", members=group)
    for s, foes, hits in shots:
        _apply_shot(ctx, s, foes, hits, "shot")


# --------------------------------------------------------------------------- the public view


def views(st) -> list[dict]:
    """The close combats under way or due at this phase's end (engine/view.py builds them)."""
    out = []
    fight = st.fight
    now = (fight.plate, fight.part) if fight is not None and fight.plate is not None else None
    if now is not None:
        plate, part = now
        out.append(dict(plate=plate, part=part, step="fight",
                        attackers=[m for m in fight.members if st.soldiers[m].side != st.vehicles[plate].side],
                        crew=[m for m in fight.members if st.soldiers[m].side == st.vehicles[plate].side]))
    for plate in sorted(st.vehicles):
        for part, men in assignments(st, plate).items():
            if (plate, part) == now:
                continue
            out.append(dict(plate=plate, part=part, step="due", attackers=[a.serial for a in men],
                            crew=crew(st, plate, part)))
    return out


# --------------------------------------------------------------------------- what its commands do (engine/core/rulebook.py)


@rulebook.answers(C.AssailCmd)
def assail_answer(ctx: Ctx, cmd: C.AssailCmd, force: None) -> None:
    assail(ctx, cmd)


@rulebook.performs(C.ClimbCmd)
def climb_command(ctx: Ctx, cmd: C.ClimbCmd, src, entry_do) -> None:
    climb(ctx, cmd)
