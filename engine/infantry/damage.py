"""Damage results (core manual, Damage Results) and what a kill is worth (Victory)."""
from __future__ import annotations

from engine.core import rulebook
from engine.core.content import GEAR, Damage
from engine.core.deck import pull_check
from engine.core.log import Ctx
from engine.core.state import TrailMark, VpEntry


def other_side(st, side: str) -> str:
    return next(s.side for s in st.seats if s.side != side)


def damage_check(ctx: Ctx, victim: int) -> Damage:
    """The victim's controlling player pulls the damage result from his own action deck; with no
    card to pull the hit does nothing (ruling R69)."""
    st = ctx.st
    force = st.soldiers[victim].controller
    cid = pull_check(ctx, force, f"{st.name(victim)}'s damage check", victim)
    if cid is None:
        return Damage.ZIP
    result = st.card(cid).damage
    ctx.say("damage_check", f"{st.name(victim)} draws a damage check: {result.value}.", serial=victim,
            card=cid, result=result.value)
    return result


def apply_damage(ctx: Ctx, victim: int, result: Damage, *, by_force: str | None, cause: str,
                 by_soldier: int | None = None, capturable: bool = False) -> str:
    """Apply one result. Returns what became of him: 'zip', 'pinned', 'wounded', 'killed' or
    'defeated' (a Kill in a fight, to be captured or killed when the fight ends)."""
    st = ctx.st
    s = st.soldiers[victim]
    if s.status != "board":
        return "zip"
    name = st.name(victim)
    if result in GEAR:  # a vehicle card's machinery result does nothing to a man (Hell on Wheels)
        ctx.say("zip", f"{result.value}: a vehicle result, {name} is unhurt.", serial=victim)
        return "zip"
    if result == Damage.ZIP:
        ctx.say("zip", f"Zip: {name} is unhurt.", serial=victim)
        return "zip"
    if result == Damage.PIN:
        if not s.pinned:
            st.changing(victim).pinned = True
            ctx.say("pinned", f"{name} is pinned.", serial=victim)
        else:
            ctx.say("pinned", f"{name} is pinned already and stays down.", serial=victim)
        return "pinned"
    if result == Damage.WOUND:
        if s.wounded:
            ctx.say("wounded", f"{name} is wounded a second time.", serial=victim)
            kill(ctx, victim, by_force=by_force, by_soldier=by_soldier, cause=cause)
            return "killed"
        s = st.changing(victim)
        s.wounded = True
        s.deeds["wounds"] = s.deeds.get("wounds", 0) + 1
        ctx.say("wounded", f"{name} is wounded and turns his card to the wounded side.", serial=victim)
        return "wounded"
    if capturable:
        return "defeated"
    kill(ctx, victim, by_force=by_force, by_soldier=by_soldier, cause=cause)
    return "killed"


def kill(ctx: Ctx, victim: int, *, by_force: str | None, cause: str, by_soldier: int | None = None) -> None:
    """Remove him, discard his held cards, free his prisoners and score his VP (Victory).

    Killed by an enemy: his VP go to the killer's player. By his own side (friendly fire):
    to the opposing side, and a teammate who did it loses them (ruling 16). By a random
    event: to nobody."""
    st = ctx.st
    if rulebook.first_aid(ctx, victim, cause=cause):  # medics (engine/advanced/medic.py): saved, he lives on wounded
        return
    s = st.changing(victim)
    name = st.name(victim)
    s.status = "dead"
    if s.held:
        st.changing_force(s.force).discard.extend(s.held)
    s.held = []
    s.captor = None
    s.controller = s.force
    for p in st.soldiers.values():
        if p.captor == victim and p.status == "board":
            free_prisoner(ctx, p.serial, reason=f"{name} falls")
    ctx.say("killed", f"{name} is killed.", serial=victim, cause=cause)
    st.trail.append(TrailMark(kind="kill", serial=victim, path=[s.at] if s.at else []))
    rulebook.drop_items(ctx, victim)  # issue 9: the cards worth a search stay in his tile this turn
    vp = st.vp_value(victim)
    if rulebook.score_dead_medic(ctx, victim, by_force=by_force, cause=cause):  # medics (engine/advanced/medic.py)
        return
    if by_force is None or cause == "event":
        return
    killer = st.forces[by_force]
    victim_side = s.side
    if killer.side != victim_side:
        st.vp.append(VpEntry(seat=killer.seat, side=killer.side, amount=vp, reason=f"killed {name}",
                             serial=victim, by=by_soldier))
        if by_soldier is not None and by_soldier in st.soldiers:
            st.changing(by_soldier).kills += 1
        return
    opp = other_side(st, victim_side)
    st.vp.append(VpEntry(seat=None, side=opp, amount=vp, reason=f"{name} killed by his own side",
                         kind="friendly_fire", serial=victim, by=by_soldier))
    if killer.seat != st.forces[s.force].seat:
        st.vp.append(VpEntry(seat=killer.seat, side=killer.side, amount=-vp,
                             reason=f"killed teammate {name}", kind="friendly_fire", serial=victim, by=by_soldier))


def crewman_taken(st, serial: int) -> bool:
    """A vehicle's or gun's crewman, once a prisoner, is never liberated: freed, he leaves play and
    his VP count for nobody (Hell on Wheels, Prisoners)."""
    return st.forces[st.soldiers[serial].force].kind == "vehicle"


def remove_crewman(ctx: Ctx, serial: int, reason: str) -> None:
    st = ctx.st
    p = st.changing(serial)
    p.captor, p.controller, p.status, p.at = None, p.force, "removed", None
    ctx.say("removed", f"{st.name(serial)} is free of his captors ({reason}) but, a crewman once taken, he "
            f"leaves the game; his VP count for nobody.", serial=serial)


def free_prisoner(ctx: Ctx, serial: int, *, reason: str) -> None:
    """A prisoner without his escort goes back to his own side, pinned (ruling in docs/rulings.md)."""
    st = ctx.st
    if crewman_taken(st, serial):
        remove_crewman(ctx, serial, reason)
        return
    p = st.changing(serial)
    p.captor = None
    p.controller = p.force
    p.pinned = True
    ctx.say("freed", f"{st.name(serial)} is free again ({reason}) and pinned.", serial=serial)
