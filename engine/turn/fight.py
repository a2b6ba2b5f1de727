"""Fights (core manual, Fight; Prisoners): at the end of each phase every group of soldiers in
combat contact fights, biggest group first. Each soldier draws his Fight value in cards (half
when struck in the rear); the forces then play one card at a time in initiative order, each
taking effect at once, until nobody can play. A Kill may become a capture when the fight ends."""
from __future__ import annotations

from engine.battlefield import close_combat
from engine.battlefield.close_combat import card_result, take_out
from engine.battlefield.close_combat import fighters as cc_fighters
from engine.battlefield.close_combat import targets as cc_targets
from engine.core import commands as C
from engine.core import initiative, rulebook
from engine.core.board import adjacent, direction_to, in_arc
from engine.core.deck import deal
from engine.core.errors import RuleError
from engine.core.log import Ctx
from engine.core.ratings import halve
from engine.core.state import CapturePending, FightState
from engine.infantry.contact import fight_groups, struck_in_rear, touching
from engine.infantry.damage import apply_damage, crewman_taken, kill, remove_crewman
from engine.infantry.equipment import fight_rating
from engine.infantry.move import MAX_PRISONERS, place_prisoners


def liberate(ctx: Ctx) -> None:
    """A prisoner whose escort (or who himself) is contacted by his own side is freed before the
    fight: pinned, back to his own player, turned to face his former captor (Prisoners)."""
    st = ctx.st
    held = [p for p in st.soldiers.values() if p.captor is not None]  # nobody is taken here: only these are asked
    for p in sorted(held, key=lambda s: s.serial):
        if p.captor is None or p.status != "board":
            continue
        escort = st.soldiers[p.captor]
        rescuers = [r for r in st.soldiers.values() if r.free and r.side == p.side and (
            (adjacent(r.at, p.at) and in_arc(r.facing, r.at, p.at)) or touching(r, escort))]
        if not rescuers:
            continue
        if crewman_taken(st, p.serial):
            remove_crewman(ctx, p.serial, f"{st.name(rescuers[0].serial)} reaches him")
            continue
        p = st.changing(p.serial)
        p.captor = None
        p.controller = p.force
        p.pinned = True
        p.facing = direction_to(p.at, escort.at)
        ctx.say("liberated", f"{st.name(rescuers[0].serial)} reaches {st.name(p.serial)}: the prisoner is free, "
                f"pinned, and turns on {st.name(escort.serial)}.", serial=p.serial)


def start_fights(ctx: Ctx) -> bool:
    """Set up this phase's fights; False when nobody is in contact."""
    st = ctx.st
    liberate(ctx)
    groups = fight_groups(st)
    close = close_combat.due(st) if st.vehicles else []
    if not groups and not close:
        return False
    st.fight = FightState(members=[], order=[], queue=groups, close=close)
    _next_fight(ctx)
    return True


def _next_fight(ctx: Ctx) -> None:
    st = ctx.st
    fight = st.fight
    if fight.close and close_combat.start_next(ctx):
        return
    while fight.queue:
        group = [s for s in fight.queue.pop(0) if st.soldiers[s].free]
        if len({st.soldiers[s].side for s in group}) < 2:
            continue
        if st.setup.scenario.options.shooting_in_contact:  # optional rule (engine/battlefield/close_combat.py)
            close_combat.contact_shots(ctx, group)
            group = [s for s in group if st.soldiers[s].free]
            if len({st.soldiers[s].side for s in group}) < 2:
                continue
        forces = sorted({st.soldiers[s].controller for s in group})
        fight.members = group
        fight.order = initiative.order(st, forces)
        fight.turn_index = 0
        fight.passes = 0
        fight.defeated = []
        names = ", ".join(st.name(s) for s in group)
        ctx.say("fight", f"Fight: {names}. Initiative: "
                + ", then ".join(st.seats[st.forces[f].seat].name for f in fight.order) + ".", members=group)
        for f in fight.order:
            n = 0
            for s in group:
                if st.soldiers[s].controller != f:
                    continue
                k = fight_rating(st, s)
                if struck_in_rear(st, s):
                    k = halve(k)
                n += k
            got = deal(ctx, f, n)  # fight cards come off the deck, not from the hand (Fight)
            st.changing_force(f).fight_pool.extend(got)
            seat = st.forces[f].seat
            ctx.say("fight_draw", f"{st.seats[seat].name} draws {len(got)} fight card{'s' if len(got) != 1 else ''}.",
                    force=f, n=len(got))
            ctx.tell(seat, "fight_draw_private", "Your fight cards: " + ", ".join(
                f"{c} ({st.card(c).damage.value})" for c in got) + ".", cards=got)
        return
    st.fight = None


def _fighters(st, force: str) -> list[int]:
    fight = st.fight
    down = {v for v, _, _ in fight.defeated}
    return [s for s in fight.members if st.soldiers[s].controller == force and st.soldiers[s].free and s not in down]


def targets(st, force: str) -> list[int]:
    """Enemies in this fight in contact with any of the force's fighters."""
    fight = st.fight
    if fight.plate is not None:  # close combat against a vehicle compartment (engine/battlefield/close_combat.py)
        return cc_targets(st, force)
    down = {v for v, _, _ in fight.defeated}
    mine = [st.soldiers[s] for s in _fighters(st, force)]
    side = st.forces[force].side
    out = []
    for s in fight.members:
        o = st.soldiers[s]
        if s in down or not o.free or o.side == side:
            continue
        if any(touching(m, o) for m in mine):
            out.append(s)
    return out


def whose_turn(st) -> str | None:
    """The force to play the next fight card, skipping those who cannot; None when the fight is over."""
    fight = st.fight
    if fight is None or not fight.order:
        return None
    for k in range(len(fight.order)):
        f = fight.order[(fight.turn_index + k) % len(fight.order)]
        if st.forces[f].fight_pool and targets(st, f):
            return f
    return None


def sync_turn(st) -> None:
    fight = st.fight
    f = whose_turn(st)
    if f is not None:
        fight.turn_index = fight.order.index(f)


def play(ctx: Ctx, force: str, card: str, target: int) -> None:
    st = ctx.st
    close = st.fight.plate is not None  # close combat against a vehicle compartment (engine/battlefield/close_combat.py)
    f = st.forces[force]
    if card not in f.fight_pool:
        raise RuleError(f"{card} is not one of your fight cards: " + ", ".join(
            f"{c} ({st.card(c).damage.value})" for c in f.fight_pool) + ".")
    legal = targets(st, force)
    if target not in legal:
        raise RuleError("your fight card may go against " + ", ".join(f"{st.name(t)} ({t})" for t in legal) + ".")
    f = st.changing_force(force)
    f.fight_pool.remove(card)
    f.discard.append(card)
    result = st.card(card).damage
    t = st.soldiers[target]
    if close:
        striker = cc_fighters(st, force)[0]
    else:
        striker = next((m for m in _fighters(st, force) if touching(st.soldiers[m], t)), None)
    ctx.say("fight_card", f"{st.seats[f.seat].name} plays {card} ({result.value}) against {st.name(target)}.",
            card=card, target=target, result=result.value)
    if close:
        outcome = card_result(ctx, force, target, result, striker)
    else:
        outcome = apply_damage(ctx, target, result, by_force=force, by_soldier=striker, cause="fight",
                               capturable=True)
    if outcome == "defeated":
        st.fight.defeated.append((target, force, striker))
        ctx.say("defeated", f"{st.name(target)} goes down; his fate is settled when the fight ends.", serial=target)
    st.fight.turn_index = (st.fight.turn_index + 1) % len(st.fight.order)
    sync_turn(st)


def auto_choice(st, force: str) -> tuple[str, int] | None:
    """The only sensible play when there is no real choice: one card (or identical results) and one target."""
    pool = st.forces[force].fight_pool
    tg = targets(st, force)
    if len(tg) == 1 and len({st.card(c).damage for c in pool}) == 1:
        return pool[0], tg[0]
    return None


def end_fight(ctx: Ctx) -> None:
    """Fight over: discard unplayed fight cards, settle the defeated, go to the next fight."""
    st = ctx.st
    fight = st.fight
    if fight.plate is not None:  # close combat against a vehicle compartment (engine/battlefield/close_combat.py)
        close_combat.end(ctx)
        _next_fight(ctx)
        return
    for fid in fight.order:
        if st.forces[fid].fight_pool:
            f = st.changing_force(fid)
            f.discard.extend(f.fight_pool)
            f.fight_pool = []
    still = [s for s in fight.members if st.soldiers[s].free and s not in {v for v, _, _ in fight.defeated}]
    locked = any(touching(st.soldiers[a], st.soldiers[b]) for a in still for b in still
                 if st.soldiers[a].side != st.soldiers[b].side)
    if locked:
        ctx.say("locked", "The survivors stay locked in combat and fight again at the end of the next phase.")
    for victim, by, striker in fight.defeated:
        escorts = [s for s in _fighters(st, by)
                   if sum(1 for p in st.soldiers.values() if p.captor == s and p.status == "board") < MAX_PRISONERS]
        if escorts:
            st.pending_queue.append(CapturePending(force=by, victim=victim, escorts=escorts, striker=striker))
        else:
            kill(ctx, victim, by_force=by, by_soldier=striker, cause="fight")
    fight.defeated = []
    fight.members = []
    fight.order = []
    _next_fight(ctx)


def capture(ctx: Ctx, pending: CapturePending, escort: int | None) -> None:
    st = ctx.st
    esc = escort if escort is not None else pending.escorts[0]
    if esc not in pending.escorts:
        raise RuleError("the escort must be one of " + ", ".join(f"{st.name(e)} ({e})" for e in pending.escorts) + ".")
    take_out(st, pending.victim)  # a crewman beaten in close combat is led out of his vehicle (issue 9)
    v = st.changing(pending.victim)
    e = st.changing(esc)
    v.captor = esc
    v.controller = e.controller
    e.captures += 1
    place_prisoners(st, esc, e.at, e.facing, [pending.victim])
    ctx.say("captured", f"{st.name(esc)} takes {st.name(pending.victim)} prisoner.", serial=esc, prisoner=pending.victim)


def refuse_capture(ctx: Ctx, pending: CapturePending) -> None:
    take_out(ctx.st, pending.victim)  # a crewman beaten in close combat (issue 9)
    kill(ctx, pending.victim, by_force=pending.force, by_soldier=pending.striker, cause="fight")


# --------------------------------------------------------------------------- what its commands do (engine/core/rulebook.py)


@rulebook.answers(C.Capture)
def capture_answer(ctx: Ctx, cmd: C.Capture, force: str) -> None:
    p = ctx.st.pending
    ctx.st.pending = None
    capture(ctx, p, cmd.escort)


@rulebook.answers(C.KillCmd)
def kill_answer(ctx: Ctx, cmd: C.KillCmd, force: str) -> None:
    p = ctx.st.pending
    ctx.st.pending = None
    refuse_capture(ctx, p)


@rulebook.answers(C.FightCmd)
def fight_answer(ctx: Ctx, cmd: C.FightCmd, force: str) -> None:
    play(ctx, force, cmd.card, cmd.target)
