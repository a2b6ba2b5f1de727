"""HIDE (core manual, HIDE): Take Cover, Rally and Hold Cards."""
from __future__ import annotations

from engine.core import commands as C
from engine.core import rulebook
from engine.core.board import inches
from engine.core.content import Action
from engine.core.errors import RuleError
from engine.core.formulas import hides, rally_reach
from engine.core.log import Ctx
from engine.core.ratings import current
from engine.infantry import equipment
from engine.infantry.contact import enemies_of, in_contact


def hide_mods(st, a, b, cover: bool = False) -> int:
    """HIDE modifiers from a's own tile to b's tile inclusive, smoke doubling or tripling them.
    Taking cover (cover=True) the enemy at b is the one looking: smoke on the line multiplies
    its square and every square on toward the hider, his own included (docs/advanced.md)."""
    return st.board.mod_sum(a, b, Action.HIDE, include_own=True, smoke=st.smoke_map(), smoke_toward_a=cover)


def nearest_enemies(st, serial: int) -> list[int]:
    """The enemies nearest by squares; all of them count when several tie (ruling 9)."""
    me = st.soldiers[serial]
    board = st.board
    dist = [(board.squares(me.at, st.soldiers[e].at, Action.HIDE), e) for e in enemies_of(st, serial)]
    if not dist:
        return []
    d0 = min(d for d, _ in dist)
    return sorted(e for d, e in dist if d == d0)


def _check_free(st, serial: int) -> None:
    s = st.soldiers[serial]
    if not s.free:
        raise RuleError(f"{st.name(serial)} is not on the board.")
    if in_contact(st, serial):
        raise RuleError(f"{st.name(serial)} is in combat contact: he may only turn to face with a MOVE.")


def cover_report(st, serial: int) -> tuple[bool, list[tuple[int, int]]]:
    """(in cover?, [(enemy, modified cover value against him)])."""
    s = st.soldiers[serial]
    cover = current(st, serial, "cover") - equipment.dig_bonus(st, serial)  # a scrape he dug (entrenching tool)
    rows = [(e, cover + hide_mods(st, s.at, st.soldiers[e].at, cover=True)) for e in nearest_enemies(st, serial)]
    return st.board.in_cover(s.at), rows


def take_cover(ctx: Ctx, serial: int) -> bool:
    st = ctx.st
    _check_free(st, serial)
    s = st.soldiers[serial]
    name = st.name(serial)
    in_cover, rows = cover_report(st, serial)
    if not in_cover:
        raise RuleError(f"{name} is not In Cover at {st.board.tile_at(s.at)}: only a soldier on cover "
                        f"terrain (trees, walls, buildings, or leaning on NO MOVE terrain) may take cover.")
    failed = [(e, v) for e, v in rows if not hides(v)]
    if failed:
        e, v = failed[0]
        ctx.say("cover_fail", f"{name} tries to take cover but {st.name(e)} is too close: "
                f"modified cover {v} is not below zero.", serial=serial, value=v)
        return False
    was = s.spotted
    st.changing(serial).spotted = False
    _deed(st, serial, "took_cover")
    equipment.dig_in(ctx, serial)  # an entrenching tool: a scrape for his next Take Cover here
    for p in st.soldiers.values():
        if p.captor == serial and p.status == "board" and st.board.in_cover(p.at):
            st.changing(p.serial).spotted = False
    detail = ", ".join(f"{v} against {st.name(e)}" for e, v in rows) or "no enemy on the board"
    ctx.say("cover", f"{name} takes cover ({detail})" + ("" if was else "; he was not spotted anyway") + ".",
            serial=serial)
    return True


def rally_check(st, rallier: int, target: int, done_self: bool) -> int:
    """Validate one rally and return the reach; raise a RuleError naming what is wrong."""
    r, t = st.soldiers[rallier], st.soldiers[target]
    name = st.name(rallier)
    if not t.free or t.side != r.side or t.controller != r.controller:
        raise RuleError(f"{st.name(target)} is not one of {name}'s men on the board.")
    if not t.pinned:
        raise RuleError(f"{st.name(target)} is not pinned.")
    if in_contact(st, rallier):
        raise RuleError(f"{name} is in combat contact: he may only turn to face with a MOVE.")
    if r.pinned and target != rallier and not done_self:
        raise RuleError(f"{name} is pinned himself and must rally himself first.")
    if target == rallier:
        return 0
    reach = rally_reach(hide_mods(st, r.at, t.at))
    dist = inches(r.at, t.at)
    if dist > reach:
        raise RuleError(f"{st.name(target)} is {dist}\" from {name}; his rally reaches {reach}\" "
                        f"(10\" less the HIDE modifiers on the way).")
    return reach


def rally(ctx: Ctx, rallier: int, target: int, done_self: bool = False) -> None:
    st = ctx.st
    rally_check(st, rallier, target, done_self)
    st.changing(target).pinned = False
    if target != rallier:
        _deed(st, rallier, "rallied_others")
        if st.soldiers[rallier].spotted:
            _deed(st, rallier, "rallied_under_fire")
    if target == rallier:
        ctx.say("rally", f"{st.name(rallier)} pulls himself together and is no longer pinned.", serial=rallier)
    else:
        ctx.say("rally", f"{st.name(rallier)} rallies {st.name(target)}, who is no longer pinned.",
                serial=rallier, target=target)


def hold(ctx: Ctx, serial: int, cards: list[str]) -> None:
    st = ctx.st
    _check_free(st, serial)
    s = st.soldiers[serial]
    f = st.forces[s.controller]
    name = st.name(serial)
    limit = current(st, serial, "hold")
    if not cards:
        raise RuleError("name the cards to hold.")
    missing = [c for c in cards if c not in f.hand]
    if missing:
        raise RuleError(f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} not in your hand.")
    if len(set(cards)) != len(cards):
        raise RuleError("name each card once.")
    if len(s.held) + len(cards) > limit:
        raise RuleError(f"{name} may hold {limit} card{'s' if limit != 1 else ''} "
                        f"and holds {len(s.held)} already.")
    f = st.changing_force(s.controller)
    for c in cards:
        f.hand.remove(c)
    st.changing(serial).held.extend(cards)
    ctx.say("hold", f"{name} holds {len(cards)} card{'s' if len(cards) != 1 else ''}.", serial=serial, n=len(cards))
    ctx.tell(f.seat, "hold_private", f"{name} holds " + ", ".join(cards) + ".", cards=cards)


def unhold(ctx: Ctx, force_id: str, cards: list[str]) -> None:
    """Held cards back to the hand: after the draw, or at a phase start after the reveal."""
    st = ctx.st
    f = st.changing_force(force_id)
    holders = {c: s.serial for s in st.soldiers.values() if s.force == force_id for c in s.held}
    missing = [c for c in cards if c not in holders]
    if missing:
        raise RuleError(f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} not held by your soldiers.")
    if len(set(cards)) != len(cards):
        raise RuleError("name each card once.")
    for c in cards:
        st.changing(holders[c]).held.remove(c)
        f.hand.append(c)
    ctx.say("unhold", f"{st.seats[f.seat].name} takes {len(cards)} held card{'s' if len(cards) != 1 else ''} "
            f"back into the hand.", force=force_id, n=len(cards))


def _deed(st, serial: int, what: str) -> None:
    d = st.changing(serial).deeds
    d[what] = d.get(what, 0) + 1


# --------------------------------------------------------------------------- what its commands do (engine/core/rulebook.py)


@rulebook.performs(C.CoverCmd)
def cover_command(ctx: Ctx, cmd: C.CoverCmd, src, entry_do) -> None:
    take_cover(ctx, cmd.serial)


@rulebook.performs(C.RallyCmd)
def rally_command(ctx: Ctx, cmd: C.RallyCmd, src, entry_do) -> None:
    """Rally a man; he counts as rallying himself again once the card part has rallied him
    (the card's own count is engine/turn/cards.py's)."""
    done_self = cmd.serial in src.rallied
    rally_check(ctx.st, cmd.serial, cmd.target, done_self=done_self)
    rally(ctx, cmd.serial, cmd.target, done_self=done_self)


@rulebook.performs(C.HoldCmd)
def hold_command(ctx: Ctx, cmd: C.HoldCmd, src, entry_do) -> None:
    hold(ctx, cmd.serial, cmd.cards)


@rulebook.answers(C.Unhold)
def unhold_answer(ctx: Ctx, cmd: C.Unhold, force: str) -> None:
    unhold(ctx, force, cmd.cards)
