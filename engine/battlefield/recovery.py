"""Abandoned equipment, vehicles and guns, and getting them back (vehicle book, Recovering
Equipment; docs/battlefield.md "Equipment: limits, hand-offs, recovery").

- A man killed on foot leaves in his tile the cards worth searching for: those with Search "Yes"
  on the chart, and cards off the chart worth more than 4 VP; a scenario's goal never (`drop`,
  called from engine/infantry/damage.py kill). They lie in `GameState.dropped` for the turn they fell
  and are gone from the next (`live`); everyone sees them.
- `recover S ITEM` is a MOVE: S, free in that tile, makes an identity check off his player's deck;
  his own dog tag drawn, the card is his (within his equip limits) with its own stats and the
  uses left on it. An enemy's card found this way is captured: its VP go to the finder's player.
- `recover S PLATE` is a MOVE: a vehicle or gun abandoned by its crew stays for the game; a man
  of a squad in its tile climbs in (no check: it is too big to miss) and takes a free crew post.
  It passes to his force and side and acts only through that force's own action cards (a man at
  the gunner's post fires the loaded main gun with a card that lets him shoot); its own deck, the
  vehicle's cards and crew cards, gives no more actions and serves its damage checks only.
  Further men of the new owner's force take its other free posts the same way.
"""
from __future__ import annotations

from contextlib import contextmanager

from engine.advanced.equipment_use import give_card, hand_off_options, take_card
from engine.core import commands as C
from engine.core import rulebook
from engine.core.deck import check
from engine.core.errors import RuleError
from engine.core.log import Ctx
from engine.core.state import DroppedItem, VpEntry
from engine.infantry.contact import in_contact
from engine.infantry.equipment import carried, load_problem

FOUND_OFF_CHART = 4  # an unlisted card worth more than this is worth searching for


# --------------------------------------------------------------------------- what is left behind


def searchable(eq) -> bool:
    """Can the card be found again once its carrier falls? Search "Yes" on the chart, or off the
    chart and worth more than 4 VP; a scenario's goal is never abandoned."""
    if eq.goal:
        return False
    return eq.search if eq.chart else eq.vp > FOUND_OFF_CHART


@rulebook.drop_items.fill
def drop(ctx: Ctx, serial: int) -> None:
    """He has just been killed on foot: the cards worth a search stay in his tile for this turn;
    the rest (and everything of a man killed aboard a vehicle) is lost with him."""
    st = ctx.st
    s = st.soldiers[serial]
    if s.at is None or not st.board.on_board(s.at):
        return
    tile = st.board.tile_at(s.at)
    prune(st)
    left = []
    for item in list(carried(st, serial)):
        eq = st.setup.equipment.get(item)
        if eq is None or not searchable(eq):
            continue
        used = take_card(st, serial, item)
        st.dropped.append(DroppedItem(item=item, tile=tile, turn=st.turn, used=used, serial=serial, side=s.side))
        left.append(eq.name)
    if left:
        ctx.say("dropped", f"{st.name(serial)}'s " + ", ".join(left) + f" lie{'s' if len(left) == 1 else ''} in "
                f"{tile}: they can be searched for this turn.", serial=serial, tile=tile, items=left)


def live(st) -> list[DroppedItem]:
    """The abandoned cards still to be found: only those dropped this turn."""
    return [d for d in st.dropped if d.turn == st.turn]


def prune(st) -> None:
    """Cards from earlier turns are out of play."""
    st.dropped = live(st)


# --------------------------------------------------------------------------- searching for a card


def item_problem(st, serial: int, item: str) -> str | None:
    """Why he cannot search for that card now, or None."""
    s = st.soldiers.get(serial)
    if s is None or not s.free:
        return f"{st.name(serial) if s else serial} is not on the board on foot."
    eq = st.setup.equipment.get(item)
    if eq is None:
        return f"there is no equipment {item!r}."
    tile = st.board.tile_at(s.at)
    if not any(d.item == item and d.tile == tile for d in live(st)):
        here = sorted({st.setup.equipment[d.item].name for d in live(st) if d.tile == tile})
        return f"no {eq.name} lies in {tile} this turn" + (f" (there is: {', '.join(here)})." if here else ".")
    if in_contact(st, serial):
        return f"{st.name(serial)} is in combat contact: he may only turn to face with a MOVE."
    return load_problem(st, serial, [item])


def recover_item(ctx: Ctx, serial: int, item: str) -> bool:
    """A MOVE and an identity check off his player's deck: his dog tag drawn, he has the card."""
    st = ctx.st
    problem = item_problem(st, serial, item)
    if problem:
        raise RuleError(problem)
    s = st.soldiers[serial]
    tile = st.board.tile_at(s.at)
    eq = st.setup.equipment[item]
    cid = check(ctx, s.controller)
    found = st.card(cid).owner == serial
    ctx.say("search", f"{st.name(serial)} searches {tile} for the {eq.name}: {cid} — "
            + ("found." if found else "not found."), serial=serial, item=item, card=cid, found=found)
    if not found:
        return False
    d = next(d for d in live(st) if d.item == item and d.tile == tile)
    st.dropped.remove(d)
    give_card(st, serial, item, d.used)
    if d.side != s.side and eq.vp:
        f = st.forces[s.controller]
        st.vp.append(VpEntry(seat=f.seat, side=f.side, amount=eq.vp, kind="prisoner", serial=d.serial, by=serial,
                             reason=f"captured the {eq.name} of {st.name(d.serial)}"))
        ctx.say("equipment_vp", f"{st.seats[f.seat].name} captures the {eq.name}: {eq.vp} VP.", serial=serial)
    return True


# --------------------------------------------------------------------------- taking over a vehicle


POST_ORDER = ("gunner", "driver")  # a finder takes the gun first, then the wheel, then any post


def recovered(st, plate: int) -> bool:
    """Has the vehicle changed hands (it now answers to a force that is not its own deck)?"""
    v = st.vehicles[plate]
    return v.controller != v.force


def free_post(st, plate: int) -> str | None:
    """The crew post a man taking over climbs into: gunner, then driver, then panel order; never
    one on fire."""
    v = st.vehicles[plate]
    posts = [loc for loc in st.vehicle_def(plate).crew_positions
             if loc.id not in v.crew and "fire" not in v.damage.get(loc.id, [])]
    posts.sort(key=lambda loc: POST_ORDER.index(loc.role.value) if loc.role.value in POST_ORDER else len(POST_ORDER))
    return posts[0].id if posts else None


def vehicle_problem(st, serial: int, plate: int) -> str | None:
    """Why he cannot take over (or climb into a taken-over) vehicle now, or None."""
    s = st.soldiers.get(serial)
    if s is None or not s.free:
        return f"{st.name(serial) if s else serial} is not on the board on foot."
    v = st.vehicles.get(plate)
    if v is None:
        return f"there is no vehicle {plate} in this game."
    name = st.name(plate)
    if st.forces[s.controller].kind != "squad":
        return f"{st.name(serial)}'s cards are in a vehicle's deck: only a squad's men take over a vehicle."
    ours = v.status == "board" and recovered(st, plate) and v.controller == s.controller  # his force's already
    if v.status != "abandoned" and not ours:
        return f"the {name} is not abandoned."
    if v.tile is None or st.board.tile_at(s.at) != v.tile:
        return f"{st.name(serial)} must be in the {name}'s tile ({v.tile}) to climb in."
    if in_contact(st, serial):
        return f"{st.name(serial)} is in combat contact: he may only turn to face with a MOVE."
    if free_post(st, plate) is None:
        return f"the {name} has no free crew post."
    return None


def recover_vehicle(ctx: Ctx, serial: int, plate: int) -> None:
    """A MOVE: he climbs into the abandoned vehicle's free post; it is his force's from now on."""
    st = ctx.st
    problem = vehicle_problem(st, serial, plate)
    if problem:
        raise RuleError(problem)
    s, v = st.changing(serial), st.changing_vehicle(plate)
    post = free_post(st, plate)
    if v.status == "abandoned":
        was = v.side
        v.status, v.controller, v.side = "board", s.controller, s.side
        ctx.say("vehicle_recovered", f"{st.name(serial)} takes over the abandoned {st.name(plate)}"
                + (" of the enemy" if was != s.side else "") + f": it fights for {st.seats[st.forces[s.controller].seat].name} "
                "now, with his own action cards only.", serial=serial, plate=plate)
    v.crew[post] = serial
    s.status, s.at, s.vehicle, s.post, s.dismounted, s.spotted = "aboard", None, plate, post, False, False
    if plate not in st.panels:
        st.panels.append(plate)
    ctx.say("mount", f"{st.name(serial)} climbs into the {st.name(plate)} "
            f"({st.vehicle_def(plate).location(post).name}).", serial=serial, plate=plate, post=post)


# --------------------------------------------------------------------------- the command and its options


def recover(ctx: Ctx, serial: int, item: str | None, plate: int | None) -> None:
    """Carry out `recover S ITEM|PLATE` (a MOVE)."""
    if plate is not None:
        recover_vehicle(ctx, serial, plate)
    else:
        recover_item(ctx, serial, item)


def move_options(st, serial: int, seat: int, via) -> list:
    """Legal hand-offs and recoveries for one man on foot (the MOVE actions of this module and
    engine/infantry/equipment.py)."""
    s = st.soldiers[serial]
    if not s.free:
        return []
    out = hand_off_options(st, serial, seat, via) if s.equipment else []
    tile = st.board.tile_at(s.at)
    for item in sorted({d.item for d in live(st) if d.tile == tile}):
        if item_problem(st, serial, item) is None:
            out.append(C.RecoverCmd(seat=seat, serial=serial, item=item, via=via))
    for plate in sorted(st.vehicles):
        if st.vehicles[plate].tile == tile and vehicle_problem(st, serial, plate) is None:
            out.append(C.RecoverCmd(seat=seat, serial=serial, plate=plate, via=via))
    return out


@rulebook.firing_for.fill
@contextmanager
def firing_for(st, plate: int):
    """While a taken-over vehicle fires, its hit checks come off the deck of the force that now
    commands it and what the shot does scores for that force; its own deck is kept for the damage
    it takes (bog checks, fire, crew hits)."""
    v = st.vehicles[plate]
    own = v.force
    if not recovered(st, plate):
        yield
        return
    v = st.changing_vehicle(plate)
    v.force = v.controller
    try:
        yield
    finally:
        v.force = own


# --------------------------------------------------------------------------- what its commands do (engine/core/rulebook.py)


@rulebook.performs(C.RecoverCmd)
def recover_command(ctx: Ctx, cmd: C.RecoverCmd, src, entry_do) -> None:
    recover(ctx, cmd.serial, cmd.item, cmd.plate)
