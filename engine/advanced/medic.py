"""Medics (core manual, Advanced Rules, Medics): first aid for a dying friend, and what a dead
medic is worth.

When a soldier dies within a medic's modified Walk, the medic runs to his side at once (free, no
card), then draws identity checks for the dying man off the man's own action deck, as many as
his medic value (the HIDE box's `medic`, on the side of his card in use). One of the dying
man's own cards saves him: he lives on, wounded, and nobody scores him.

A medic killed by direct fire gives his VP to the side that did not kill him; killed by indirect
fire (artillery, mortars, story-card blasts, fire, mines) he gives them to nobody.
Rulings: docs/advanced.md, "Medics, fire, mines, characters".
"""
from __future__ import annotations

from engine.core import rulebook
from engine.core.board import NEIGHBOURS, direction_to
from engine.core.identity import identity_check
from engine.core.log import Ctx
from engine.core.ratings import current
from engine.core.state import TrailMark, VpEntry
from engine.infantry.contact import in_contact
from engine.infantry.move import reachable, touches_enemy

# Causes of death that are indirect fire: nobody aimed at the man (kill's `cause` values).
INDIRECT = frozenset({"artillery", "mortar", "event", "fire", "mine", "cook-off"})
# Deaths no first aid can undo: a man crushed under a vehicle stays dead.
BEYOND_AID = frozenset({"run over"})


def is_medic(st, serial: int) -> bool:
    """A medic by training badge, or by a medic value on either side of his card."""
    d = st.setup.soldiers[serial]
    if d.badge == "medic":
        return True
    p = d.profile(st.soldiers[serial].rank)
    return p.healthy.medic > 0 or p.wounded.medic > 0


def medic_value(st, serial: int) -> int:
    """Identity checks he makes: the side of his card in use, halved while he is pinned."""
    return current(st, serial, "medic")


def _can_react(st, medic: int, victim: int) -> bool:
    m, v = st.soldiers[medic], st.soldiers[victim]
    return (medic != victim and m.free and m.side == v.side and is_medic(st, medic)
            and not m.dismounted and not in_contact(st, medic)
            and not any(p.captor == medic and p.status == "board" for p in st.soldiers.values()))


def _spot_beside(st, medic: int, victim: int) -> tuple[tuple[int, int], float] | None:
    """The cheapest free cell in base contact with the victim the medic reaches within his
    modified Walk without touching an enemy (ties: the lower row, then column). His own cell
    if he is there already."""
    m, v = st.soldiers[medic], st.soldiers[victim]
    if max(abs(m.at[0] - v.at[0]), abs(m.at[1] - v.at[1])) == 1:
        return m.at, 0.0
    costs, _, _ = reachable(st, medic)
    taken = set(st.occupied())
    best = None
    for dx, dy in NEIGHBOURS:
        c = (v.at[0] + dx, v.at[1] + dy)
        if c not in costs or c in taken:
            continue
        if touches_enemy(st, medic, c, direction_to(c, v.at)):
            continue
        key = (costs[c], c[1], c[0])
        if best is None or key < best[0]:
            best = (key, c)
    return (best[1], best[0][0]) if best else None


@rulebook.first_aid.fill
def first_aid(ctx: Ctx, victim: int, *, cause: str) -> bool:
    """Called by damage.kill before a man dies. True when a medic saves him (he is wounded
    instead, and kill must stop); False when he dies."""
    st = ctx.st
    v = st.soldiers.get(victim)
    if v is None or not v.free or v.at is None or cause in BEYOND_AID:
        return False
    options = []
    for s in sorted(st.soldiers.values(), key=lambda x: x.serial):
        if not _can_react(st, s.serial, victim):
            continue
        spot = _spot_beside(st, s.serial, victim)
        if spot is not None:
            options.append((spot[1], s.serial, spot[0]))
    if not options:
        return False
    _, medic, cell = min(options)  # the nearest medic goes (ties: the lower dog tag)
    m = st.changing(medic)
    name, vname = st.name(medic), st.name(victim)
    if cell != m.at:
        start = m.at
        m.at = cell
        m.step_down()
        st.trail.append(TrailMark(kind="move", serial=medic, path=[start, cell]))
    m.facing = direction_to(m.at, v.at)
    ctx.say("medic_move", f"{name} runs to {vname}'s side ({cell[0]},{cell[1]}) to give first aid.",
            serial=medic, victim=victim, to=list(cell))
    n = medic_value(st, medic)
    for _ in range(n):
        if identity_check(ctx, v.force, victim, why=f"{name}'s first aid"):
            v = st.changing(victim)
            if not v.wounded:
                v.deeds["wounds"] = v.deeds.get("wounds", 0) + 1
            v.wounded = True
            m.deeds["saves"] = m.deeds.get("saves", 0) + 1
            ctx.say("medic_save", f"{name} saves {vname}: he lives, wounded.", serial=medic, victim=victim)
            return True
    ctx.say("medic_fail", f"{name} cannot save {vname}" + (f" ({n} identity check{'s' if n != 1 else ''})."
                                                           if n else " (no first aid left in him)."),
            serial=medic, victim=victim)
    return False


@rulebook.score_dead_medic.fill
def score_dead_medic(ctx: Ctx, victim: int, *, by_force: str | None, cause: str) -> bool:
    """A dead medic's VP (Medics). Called by damage.kill once he is dead; True when he was a
    medic and his VP are settled here (kill scores nothing more), False for anyone else.

    Direct fire by the enemy: his VP go to his own side (his player's seat), and the killer
    earns no kill. Direct fire by his own side: to the opposing side, as any friendly fire
    (kill's own rule does that). Indirect fire, or no killer at all: to nobody."""
    st = ctx.st
    if not is_medic(st, victim):
        return False
    s = st.soldiers[victim]
    name = st.name(victim)
    vp = st.vp_value(victim)
    if by_force is None or cause in INDIRECT:
        ctx.say("medic_vp", f"{name}, a medic, fell to indirect fire: his {vp} VP go to nobody.",
                serial=victim, amount=0)
        return True
    killer = st.forces[by_force]
    if killer.side == s.side:
        return False  # friendly fire: to the targeted opponent, kill's friendly-fire rule
    own = st.forces[s.force]
    st.vp.append(VpEntry(seat=own.seat, side=s.side, amount=vp, reason=f"the enemy killed medic {name}",
                         kind="kill", serial=victim))
    ctx.say("medic_vp", f"{name}, a medic, was killed by the enemy: his {vp} VP go to his own side.",
            serial=victim, side=s.side, amount=vp)
    return True
