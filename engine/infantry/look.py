"""LOOK (core manual, LOOK): Draw and Sight."""
from __future__ import annotations

from collections.abc import Callable, Iterator

from engine.core import commands as C
from engine.core import rulebook
from engine.core.content import Action
from engine.core.deck import draw as draw_cards
from engine.core.errors import RuleError
from engine.core.formulas import sight_range
from engine.core.line_of_sight import at_of, look_mods_for, los_blocker, visibility
from engine.core.log import Ctx
from engine.core.ratings import current
from engine.infantry import optics
from engine.infantry.contact import Known, enemies_of


def can_spot(distance: int, sight: int, look_mods: int) -> bool:
    return distance <= sight_range(sight, look_mods)


def look_mods(st, a, b, ignore: int = 0) -> int:
    """LOOK modifiers on the line from a to b (the looker's own tile left out), smoke and weather.
    `ignore`: the looker's optics (engine/infantry/optics.py) disregard square modifiers this small."""
    return (st.board.mod_sum(a, b, Action.LOOK, smoke=st.smoke_map(), ignore=ignore)
            + st.weather.look + st.lasting_weather.look
            + _roadblock(st, a, b, Action.LOOK, ignore))


def _roadblock(st, a, b, action, ignore: int) -> int:
    """issue 9: a target on a roadblock overlay reads its modifiers (engine/vehicles/roadblocks.py)."""
    if not st.setup.scenario.roadblocks:
        return 0
    return rulebook.roadblock_delta(st, a, b, action, ignore)


def sight_options(st, looker: int) -> tuple[list[int], list[tuple[int, int, int, bool]]]:
    """Who the looker must sight (ruling 8), and every unspotted enemy's (serial, squares, range, spottable).

    The closest unspotted enemy by squares; a closer one out of modified range is skipped for
    the next; equal distances go to the enemy whose own tile has the smallest LOOK modifier,
    and if that ties too the looking player chooses among them."""
    me = st.soldiers[looker]
    board = st.board
    sight = current(st, looker, "sight")
    glass = optics.ignore(st, looker, Action.LOOK)
    table = []
    for e in enemies_of(st, looker):
        en = st.soldiers[e]
        if en.spotted:
            continue
        d = board.squares(me.at, en.at, Action.LOOK)
        rng = sight_range(sight, look_mods(st, me.at, en.at, glass))
        table.append((e, d, rng, d <= rng))
    if st.vehicles:
        table += _vehicle_rows(st, looker, sight)
    ok = [row for row in table if row[3]]
    if not ok:
        return [], table
    best_d = min(d for _, d, _, _ in ok)
    return _least_cover(st, [row[0] for row in ok if row[1] == best_d]), table


def _least_cover(st, tied: list[int]) -> list[int]:
    """Of enemies at the same distance, those whose own tile has the smallest LOOK modifier."""
    if len(tied) > 1:
        board = st.board

        def tile_mod(serial: int) -> int:
            where = st.vehicles[serial].tile if serial in st.vehicles else board.tile_at(st.soldiers[serial].at)
            return abs(board.tile(where).mods.look or 0)
        low = min(tile_mod(s) for s in tied)
        tied = [s for s in tied if tile_mod(s) == low]
    return sorted(tied)


def sight_must(st, looker: int) -> list[int]:
    """sight_options' first part alone (for listing options): the distance is asked first, and
    the range (and a vehicle's line of sight) only of an enemy no farther than the nearest in
    range found so far (_unspotted, _seen)."""
    nearest, tied = None, []
    for e, d, seen in _unspotted(st, looker):
        if (nearest is None or d <= nearest) and seen():
            if nearest is None or d < nearest:
                nearest, tied = d, []
            tied.append(e)
    return _least_cover(st, tied)


def sight_any(st, looker: int) -> bool:
    """Whether sight_must names anyone (a check's yes/no): the first enemy in sight answers."""
    return any(seen() for _, _, seen in _unspotted(st, looker))


def _unspotted(st, looker: int) -> Iterator[tuple[int, int, Callable[[], bool]]]:
    """Each enemy the looker could sight (soldiers, then vehicles by plate): his serial, his
    distance in squares, and the question whether he is in the looker's sight (in modified range;
    a vehicle also on a line of sight), asked only when wanted."""
    me = st.soldiers[looker]
    board = st.board
    sight = current(st, looker, "sight")
    glass = optics.ignore(st, looker, Action.LOOK)
    here = me.at
    for e in enemies_of(st, looker):
        en = st.soldiers[e]
        if en.spotted:
            continue
        there = en.at
        d = board.squares(here, there, Action.LOOK)
        yield e, d, lambda d=d, there=there: d <= sight_range(sight, look_mods(st, here, there, glass))
    for p, v in sorted(st.vehicles.items()):
        if v.status != "board" or v.side == me.side or v.spotted:
            continue
        there = at_of(st, p)[0]
        d = board.squares(here, there, Action.LOOK)
        yield p, d, lambda p=p, d=d, there=there: (d <= sight * visibility(st, p) + look_mods_for(st, here, there, glass)
                                                   and not los_blocker(st, looker, p))


def _vehicle_rows(st, looker: int, sight: int) -> list[tuple[int, int, int, bool]]:
    """Enemy vehicles without a general marker: the looker's sight times their Visibility, then
    the LOOK modifiers; a line blocked by Climb sees nothing (Hell on Wheels, Visibility)."""
    me = st.soldiers[looker]
    rows = []
    for p, v in sorted(st.vehicles.items()):
        if v.status != "board" or v.side == me.side or v.spotted:
            continue
        there = at_of(st, p)[0]
        d = st.board.squares(me.at, there, Action.LOOK)
        if los_blocker(st, looker, p):
            rows.append((p, d, -1, False))
            continue
        rng = sight * visibility(st, p) + look_mods_for(st, me.at, there, optics.ignore(st, looker, Action.LOOK))
        rows.append((p, d, rng, d <= rng))
    return rows


def check_can_look(st, looker: int, known: Known | None = None) -> None:
    """Whether this man may sight anyone now. `known`: the question's remembered answers
    (contact.Known), when the caller has them."""
    s = st.soldiers[looker]
    if not s.free:
        raise RuleError(f"{st.name(looker)} is not on the board.")
    known = known or Known(st)
    if known.contact(looker):
        raise RuleError(f"{st.name(looker)} is in combat contact: he may only turn to face with a MOVE.")
    if known.escorting(looker):
        raise RuleError(f"{st.name(looker)} is escorting a prisoner and cannot sight enemies.")


def sight(ctx: Ctx, looker: int, target: int | None = None) -> int | None:
    """Resolve a Sight. Returns the spotted soldier, or None when nobody can be seen.

    A target must be given only when the rules leave the choice to the looking player."""
    st = ctx.st
    check_can_look(st, looker)
    must, table = sight_options(st, looker)
    name = st.name(looker)
    if not must:
        if table:
            nearest = min(table, key=lambda r: r[1])
            ctx.say("sight_fail", f"{name} looks but cannot make anyone out: the nearest unspotted enemy, "
                    f"{st.name(nearest[0])}, is {nearest[1]} squares away against a modified sight of {nearest[2]}.",
                    serial=looker)
        else:
            ctx.say("sight_fail", f"{name} looks, but every enemy in view is already spotted.", serial=looker)
        return None
    if target is None:
        if len(must) > 1:
            raise RuleError(f"{name} has a choice of who to sight: "
                            + ", ".join(f"{st.name(s)} ({s})" for s in must) + ".")
        target = must[0]
    elif target not in must:
        allowed = ", ".join(f"{st.name(s)} ({s})" for s in must)
        raise RuleError(f"{name} must sight the closest enemy he can see: {allowed}.")
    row = next(r for r in table if r[0] == target)
    if target in st.vehicles:
        st.changing_vehicle(target).spotted = True
        if target not in st.panels:
            st.panels.append(target)
    else:
        st.changing(target).spotted = True
    ctx.say("spotted", f"{name} spots {st.name(target)} at {row[1]} squares (modified sight {row[2]}).",
            serial=looker, target=target, squares=row[1], range=row[2])
    return target


def draw_count(st, serial: int) -> int:
    """A dog tag Draw takes the soldier's LOOK draw value, at least one card (docs/rulings.md)."""
    return max(1, current(st, serial, "draw"))


def draw(ctx: Ctx, force_id: str, n: int, who: str) -> list[str]:
    st = ctx.st
    got = draw_cards(ctx, force_id, n)
    seat = st.forces[force_id].seat
    ctx.say("draw", f"{who} draws {len(got)} card{'s' if len(got) != 1 else ''}.", force=force_id, n=len(got))
    if got:
        ctx.tell(seat, "draw_private", "You draw " + ", ".join(got) + ".", cards=got)
    return got


# --------------------------------------------------------------------------- what its commands do (engine/core/rulebook.py)


@rulebook.performs(C.DrawCmd)
def draw_command(ctx: Ctx, cmd: C.DrawCmd, src, entry_do) -> None:
    """A narrator box draws the cards it says; anyone else his LOOK box's count."""
    st = ctx.st
    n = st.card(st.active.card).narrator.count if src.kind == "note" else draw_count(st, cmd.serial)
    draw(ctx, st.active.force, n, st.name(cmd.serial))
