"""SHOOT (core manual, SHOOT): targets, range bands, the hit check, Use Hit+ and friendly fire."""
from __future__ import annotations

from engine.core import commands as C
from engine.core import rulebook
from engine.core.board import in_arc, inches
from engine.core.content import Action
from engine.core.deck import pull_check
from engine.core.errors import RuleError
from engine.core.formulas import bands_in_range, hit_value
from engine.core.log import Ctx
from engine.core.ratings import current
from engine.core.state import HitPlusPending, TrailMark
from engine.infantry import optics
from engine.infantry.contact import Known, enemies_of, escorting, in_contact
from engine.infantry.damage import apply_damage, damage_check
from engine.infantry.look import _roadblock

BANDS = ("long", "short", "close")
HIT_PLUS_SHIFT = 3  # inches: a Hit+ may move to another spotted enemy this close to the last target


def read_hits(card, bands: list[str], use_hit_plus: bool) -> tuple[int, bool, list[str]]:
    """Hits on a hit check card over the bands, whether a Hit+ chains, and the results read."""
    total, chain, seen = 0, False, []
    for b in bands:
        res = getattr(card.hit, b)
        n, plus = hit_value(res)
        total += n
        chain = chain or (plus and use_hit_plus)
        seen.append(f"{b.capitalize()} {res}")
    return total, chain, seen


def shoot_mods(st, a, b, ignore: int = 0) -> int:
    """SHOOT modifiers on the line from a to b, smoke and weather; `ignore`: the shooter's optics."""
    return (st.board.mod_sum(a, b, Action.SHOOT, smoke=st.smoke_map(), ignore=ignore)
            + st.weather.shoot + st.lasting_weather.shoot + _roadblock(st, a, b, Action.SHOOT, ignore))


def shot_geometry(st, shooter: int, target: int) -> tuple[int, int, int, list[str]]:
    """(squares, inches, SHOOT modifiers, bands) from shooter to target."""
    a, b = st.soldiers[shooter].at, st.soldiers[target].at
    sq = st.board.squares(a, b, Action.SHOOT)
    inch = inches(a, b)
    mods = shoot_mods(st, a, b, optics.ignore(st, shooter, Action.SHOOT))
    bands = bands_in_range(current(st, shooter, "long"), current(st, shooter, "short"),
                           current(st, shooter, "close"), mods, sq, inch)
    return sq, inch, mods, bands


def check_can_shoot(st, shooter: int, known: Known | None = None) -> None:
    """Whether this man may shoot at anyone now. `known`: the question's remembered answers
    (contact.Known), when the caller has them."""
    s = st.soldiers[shooter]
    if not s.free:
        raise RuleError(f"{st.name(shooter)} is not on the board.")
    known = known or Known(st)
    if known.contact(shooter):
        raise RuleError(f"{st.name(shooter)} is in combat contact: he may only turn to face with a MOVE.")
    if known.escorting(shooter):
        raise RuleError(f"{st.name(shooter)} is escorting a prisoner and cannot shoot.")


def share_list(st, shooter: int, target: int, known: Known | None = None) -> list[int]:
    """Who else takes hits in turn: friends in a fight with the target, or the escort's prisoners.
    `known`: a question's contact.Known, whose answers are read instead of asked again."""
    me = st.soldiers[shooter]
    if known is None or known.escorting(target):
        prisoners = escorting(st, target)
        if prisoners:
            return prisoners
    contact = in_contact(st, target) if known is None else known.contact(target)
    return sorted(f for f in contact if st.soldiers[f].side == me.side)


def target_problem(st, shooter: int, target: int) -> str | None:
    """Why the shooter cannot shoot at the target, or None when he can (the rule: target_fault)."""
    fault = target_fault(st, shooter, target)
    if fault is None:
        return None
    kind, geometry = fault
    if kind in AIM_AT:
        return aim_at_words(st, shooter, target, kind, "only spotted soldiers may be shot at")
    if kind == "range":
        sq, inch, mods, _ = geometry
        return (f"{st.name(target)} is out of range: {sq} squares / {inch}\" with SHOOT modifiers {mods:+d} against "
                f"Long {current(st, shooter, 'long')}, Short {current(st, shooter, 'short')} squares and "
                f"Close {current(st, shooter, 'close')}\".")
    if kind == "escort":
        return f"{st.name(target)} escorts a prisoner: he may be fired on only at Close range."
    return f"{st.name(target)} is in a fight with your men: you may fire into it only at Close range."


def aim_at_fault(st, man: int, target: int) -> str | None:
    """The first tests a SHOOT and a toss both make of their target (core manual, SHOOT; a grenade
    is aimed as a shot is): an enemy soldier free on the board ("enemy"), spotted ("unspotted"),
    and in the man's shooting arc ("arc"); the key of the first one failed, or None."""
    me, t = st.soldiers[man], st.soldiers.get(target)
    if t is None or not t.free or t.side == me.side:
        return "enemy"
    if not t.spotted:
        return "unspotted"
    if not in_arc(me.facing, me.at, t.at):
        return "arc"
    return None


AIM_AT = ("enemy", "unspotted", "arc")  # aim_at_fault's keys


def aim_at_words(st, man: int, target: int, kind: str, spotted_why: str) -> str:
    """aim_at_fault's refusal in words (`kind` one of AIM_AT); `spotted_why`: the action's own
    reason for wanting a spotted target."""
    if kind == "enemy":
        return f"{target} is not an enemy soldier on the board."
    if kind == "unspotted":
        return f"{st.name(target)} is not spotted; {spotted_why}."
    facing = st.soldiers[man].facing
    return f"{st.name(target)} is outside {st.name(man)}'s shooting arc (he faces {facing.upper()})."


def target_fault(st, shooter: int, target: int, known: Known | None = None) -> tuple[str, tuple | None] | None:
    """The rule target_problem words: the first test the shot at this target fails, as a key
    (and the shot's geometry, for the words of 'range'), or None when he can shoot at him.
    Without the words, so a check (engine/legal.py anything_to_do) may ask it of every enemy;
    `known`: that question's contact.Known, whose in_contact and escorting answers it reads."""
    first = aim_at_fault(st, shooter, target)
    if first is not None:
        return first, None
    geometry = shot_geometry(st, shooter, target)
    bands = geometry[3]
    if not bands:
        return "range", geometry
    if "close" not in bands:
        if known.escorting(target) if known is not None else escorting(st, target):
            return "escort", None
        if share_list(st, shooter, target, known):
            return "fight", None
    return None


def shoot_targets(st, shooter: int) -> list[int]:
    """The enemies he may shoot at (target_fault: no refusal's words built for the others)."""
    return [e for e in enemies_of(st, shooter) if target_fault(st, shooter, e) is None]


def shoot(ctx: Ctx, shooter: int, target: int) -> None:
    st = ctx.st
    check_can_shoot(st, shooter)
    problem = target_problem(st, shooter, target)
    if problem:
        raise RuleError(problem)
    sq, inch, mods, bands = shot_geometry(st, shooter, target)
    me = st.changing(shooter)
    me.spotted = True  # firing a hit check at Long, Short or Close spots the shooter
    deeds = me.deeds
    deeds["shots"] = deeds.get("shots", 0) + 1
    ctx.say("shoot", f"{st.name(shooter)} fires at {st.name(target)}: {sq} squares, {inch}\", "
            f"SHOOT modifiers {mods:+d}, reading {', '.join(b.capitalize() for b in bands)}.",
            serial=shooter, target=target, bands=bands)
    st.trail.append(TrailMark(kind="shot", serial=shooter, path=[st.soldiers[shooter].at, st.soldiers[target].at],
                              target=target))
    _fire(ctx, shooter, target, bands, share_list(st, shooter, target), 0)


def _fire(ctx: Ctx, shooter: int, target: int, bands: list[str], friendly: list[int], hit_count: int) -> None:
    st = ctx.st
    force = st.soldiers[shooter].controller
    cid = pull_check(ctx, force, f"{st.name(shooter)}'s hit check", shooter)
    if cid is None:  # no hit check, no hits (ruling R69)
        return
    hits, chain, seen = read_hits(st.card(cid), bands, st.stats(shooter).hit_plus)
    ctx.say("hit_check", f"Hit check {cid}: {'; '.join(seen)} — {hits} hit{'s' if hits != 1 else ''}"
            + (", Hit+!" if chain else "."), card=cid, hits=hits, chain=chain)
    if st.setup.scenario.roadblocks:  # issue 9: a roadblock's fighting position, -2 hits (engine/vehicles/roadblocks.py)
        hits = rulebook.roadblock_protect(ctx, target, hits)
    if chain:
        cands = chain_candidates(st, shooter, target)
        if len(cands) > 1:
            st.pending = HitPlusPending(force=force, shooter=shooter, bands=bands, target=target, hits=hits,
                                        candidates=cands, friendly=friendly, hit_count=hit_count)
            return
        hit_count = _apply_hits(ctx, shooter, target, hits, friendly, hit_count)
        if cands and _still_valid(st, shooter, cands[0]):
            _fire(ctx, shooter, cands[0], bands, share_list(st, shooter, cands[0]) if cands[0] != target else friendly,
                  hit_count if cands[0] == target else 0)
        return
    _apply_hits(ctx, shooter, target, hits, friendly, hit_count)


def chain_candidates(st, shooter: int, target: int) -> list[int]:
    """After a Hit+: the same target, or another spotted enemy within 3\" of him in the arc."""
    me, t = st.soldiers[shooter], st.soldiers[target]
    out = [target] if t.free else []
    for e in enemies_of(st, shooter):
        o = st.soldiers[e]
        if e != target and o.spotted and t.at and inches(o.at, t.at) <= HIT_PLUS_SHIFT \
                and in_arc(me.facing, me.at, o.at):
            out.append(e)
    return out


def _still_valid(st, shooter: int, target: int) -> bool:
    t = st.soldiers[target]
    return t.free and st.soldiers[shooter].free


def _apply_hits(ctx: Ctx, shooter: int, target: int, hits: int, friendly: list[int], hit_count: int) -> int:
    """Each hit draws a damage check from the victim's deck. Into a fight or at an escort the odd
    hits go to the enemy, the even ones to the friends in dog-tag order, in turn (Friendly Fire)."""
    st = ctx.st
    force = st.soldiers[shooter].controller
    for _ in range(hits):
        victim = target if hit_count % 2 == 0 or not friendly else _friend_hit(st, friendly, hit_count // 2)
        hit_count += 1
        if st.soldiers[victim].status != "board":
            continue
        result = damage_check(ctx, victim)
        deeds = st.changing(shooter).deeds
        deeds["hits"] = deeds.get("hits", 0) + 1
        apply_damage(ctx, victim, result, by_force=force, by_soldier=shooter, cause="shot")
    return hit_count


def _friend_hit(st, friendly: list[int], turn: int) -> int:
    """The friend an even hit strikes: the next one still on the board, dog tags in turn (ruling R41)."""
    ring = friendly[turn % len(friendly):] + friendly[:turn % len(friendly)]
    return next((f for f in ring if st.soldiers[f].status == "board"), ring[0])


def resolve_hit_plus(ctx: Ctx, pending: HitPlusPending, choice: int) -> None:
    st = ctx.st
    if choice not in pending.candidates:
        raise RuleError("after a Hit+ the next shot goes to " + ", ".join(
            f"{st.name(c)} ({c})" for c in pending.candidates) + ".")
    st.pending = None
    hit_count = _apply_hits(ctx, pending.shooter, pending.target, pending.hits, pending.friendly, pending.hit_count)
    if not _still_valid(st, pending.shooter, choice):
        ctx.say("chain_end", f"{st.name(choice)} is no longer a target; the burst ends.")
        return
    if choice == pending.target:
        _fire(ctx, pending.shooter, choice, pending.bands, pending.friendly, hit_count)
    else:
        ctx.say("shift", f"{st.name(pending.shooter)} shifts fire to {st.name(choice)}.", target=choice)
        _fire(ctx, pending.shooter, choice, pending.bands, share_list(st, pending.shooter, choice), 0)


# --------------------------------------------------------------------------- what its commands do (engine/core/rulebook.py)


@rulebook.answers(C.HitPlus)
def hit_plus_answer(ctx: Ctx, cmd: C.HitPlus, force: str) -> None:
    if ctx.st.pending.plate is not None:  # a vehicle weapon's burst (engine/vehicles/shoot.py)
        rulebook.vehicle_hit_plus(ctx, ctx.st.pending, cmd.target)
        return
    resolve_hit_plus(ctx, ctx.st.pending, cmd.target)
