"""Blasts: tossed grenades (core manual, Grenades; ruling 13) and area blasts from events,
fire and registered artillery. Every soldier under a blast takes its own blast hit check."""
from __future__ import annotations

from engine.core import commands as C
from engine.core import rulebook
from engine.core.board import inches
from engine.core.deck import pull_check
from engine.core.errors import RuleError
from engine.core.formulas import hit_value
from engine.core.log import Ctx
from engine.core.ratings import current
from engine.core.state import TrailMark
from engine.infantry.contact import Known
from engine.infantry.damage import apply_damage, damage_check
from engine.infantry.shoot import AIM_AT, aim_at_fault, aim_at_words, shoot_mods

BLAST_RADIUS = 1  # cells around the centre: the 3" circle covers the 3x3 cells (ruling 13)


def toss_range(toss: int, shoot_mods_: int) -> int:
    """Modified toss range in inches: SHOOT modifiers count as inches, as at Close range."""
    return toss + shoot_mods_


def under_blast(st, centre) -> list[int]:
    return sorted(s.serial for s in st.soldiers.values()
                  if s.on_board and s.at and abs(s.at[0] - centre[0]) <= BLAST_RADIUS
                  and abs(s.at[1] - centre[1]) <= BLAST_RADIUS)


def thrower_problem(st, thrower: int, known: Known | None = None) -> str | None:
    """Why this man cannot toss a grenade at anyone now, or None (the part of `toss_problem` that
    does not depend on the target, asked once per man when listing his tosses). `known`: the
    question's remembered answers (contact.Known), when the caller has them."""
    me = st.soldiers[thrower]
    if not me.free:
        return f"{st.name(thrower)} is not on the board."
    if me.grenades <= 0:
        return f"{st.name(thrower)} has no grenades left."
    if current(st, thrower, "toss") <= 0:
        return f"{st.name(thrower)} cannot toss grenades."
    known = known or Known(st)
    if known.contact(thrower):
        return f"{st.name(thrower)} is in combat contact: he may only turn to face with a MOVE."
    if known.escorting(thrower):
        return f"{st.name(thrower)} is escorting a prisoner and cannot use his weapons."
    return None


def toss_problem(st, thrower: int, target: int, centre=None) -> str | None:
    return thrower_problem(st, thrower) or aim_problem(st, thrower, target, centre)


def aim_fault(st, thrower: int, target: int, centre=None) -> tuple[str, tuple[int, int] | None] | None:
    """The rule aim_problem words: the first test a toss at this target (and centre) fails, as a
    key (with the distance and the modified toss range, for the words of 'range'), or None when
    he can toss there. Without the words, so the option lists (engine/legal.py) may ask it of
    every enemy."""
    first = aim_at_fault(st, thrower, target)
    if first is not None:
        return first, None
    me, t = st.soldiers[thrower], st.soldiers[target]
    centre = tuple(centre) if centre else t.at
    if max(abs(centre[0] - t.at[0]), abs(centre[1] - t.at[1])) > 1:
        return "off", None
    if not st.board.on_board(centre):
        return "centre", None
    reach = toss_range(current(st, thrower, "toss"), shoot_mods(st, me.at, centre))
    dist = inches(me.at, centre)
    if dist > reach:
        return "range", (dist, reach)
    return None


def aim_problem(st, thrower: int, target: int, centre=None) -> str | None:
    """Why a man able to toss cannot toss at this target (and centre), or None (the rule: aim_fault)."""
    fault = aim_fault(st, thrower, target, centre)
    if fault is None:
        return None
    kind, far = fault
    if kind in AIM_AT:
        return aim_at_words(st, thrower, target, kind, "a grenade needs one spotted enemy to aim at")
    if kind == "off":
        return "the blast may be moved at most one cell off the target, so it still covers him."
    if kind == "centre":
        return "the blast centre must be on the board."
    dist, reach = far
    return f"that is {dist}\" away; {st.name(thrower)}'s modified toss range is {reach}\"."


def toss(ctx: Ctx, thrower: int, target: int, centre=None) -> None:
    st = ctx.st
    problem = toss_problem(st, thrower, target, centre)
    if problem:
        raise RuleError(problem)
    me = st.changing(thrower)
    centre = tuple(centre) if centre else st.soldiers[target].at
    me.grenades -= 1  # tossing does not spot the thrower (Grenades)
    victims = under_blast(st, centre)
    ctx.say("toss", f"{st.name(thrower)} tosses a grenade at {st.name(target)}; the blast catches "
            + ", ".join(st.name(v) for v in victims) + ".", serial=thrower, target=target, centre=list(centre),
            victims=victims)
    st.trail.append(TrailMark(kind="toss", serial=thrower, path=[me.at, centre], target=target))
    for v in victims:
        blast_victim(ctx, v, checks=1, check_force=me.controller, by_force=me.controller, by_soldier=thrower,
                     cause="toss")


def blast_victim(ctx: Ctx, victim: int, *, checks: int, check_force: str | None, by_force: str | None,
                 cause: str, by_soldier: int | None = None) -> list[str]:
    """Blast hit checks for one soldier, then a damage check from his own deck for each hit.
    Returns what each hit did to him, in order (apply_damage's words: 'pinned', 'killed' ...)."""
    st = ctx.st
    outcomes: list[str] = []
    for _ in range(checks):
        if st.soldiers[victim].status != "board":
            return outcomes
        deck_of = check_force or st.soldiers[victim].controller
        cid = pull_check(ctx, deck_of, f"the blast check for {st.name(victim)}", victim)
        if cid is None:  # no blast check, no hits (ruling R69)
            continue
        hits, _ = hit_value(st.card(cid).hit.blast)
        ctx.say("blast_check", f"Blast check {cid} for {st.name(victim)}: {st.card(cid).hit.blast}.",
                card=cid, serial=victim, hits=hits)
        for _ in range(hits):
            if st.soldiers[victim].status != "board":
                return outcomes
            result = damage_check(ctx, victim)
            outcomes.append(apply_damage(ctx, victim, result, by_force=by_force, by_soldier=by_soldier,
                                         cause=cause))
    return outcomes


def blast_tile(ctx: Ctx, tile: str, *, checks: int, by_force: str | None, cause: str, what: str,
               by_soldier: int | None = None, exclude: int | None = None, quiet_if_empty: bool = False) -> None:
    """An area blast on a whole tile (events, fire, registered fire, a round's blast). With no
    thrower, each victim's own deck gives his blast hit check (docs/rulings.md). Vehicles there
    and the men exposed on them take their share (engine/vehicles/damage.py blast_aboard, through the rulebook).
    `quiet_if_empty`: a blast that comes back every phase (a fire) says nothing when nobody is there."""
    st = ctx.st
    board = st.board
    victims = sorted(s.serial for s in st.soldiers.values()
                     if s.on_board and s.at and board.tile_at(s.at) == tile)
    if victims or not quiet_if_empty:
        ctx.say("blast", f"{what} strikes {tile}" + (": " + ", ".join(st.name(v) for v in victims) if victims
                                                     else "; nobody is there") + ".", tile=tile, victims=victims)
        st.trail.append(TrailMark(kind="blast", path=[board.tile_centre(tile)]))
    for v in victims:
        blast_victim(ctx, v, checks=checks, check_force=by_force, by_force=by_force, by_soldier=by_soldier,
                     cause=cause)
    if st.vehicles:
        rulebook.blast_aboard(ctx, tile, checks, by_force=by_force, by_soldier=by_soldier, cause=cause, exclude=exclude)


# --------------------------------------------------------------------------- what its commands do (engine/core/rulebook.py)


@rulebook.performs(C.TossCmd)
def toss_command(ctx: Ctx, cmd: C.TossCmd, src, entry_do) -> None:
    toss(ctx, cmd.serial, cmd.target, cmd.at)
