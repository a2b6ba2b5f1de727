"""Tactics modules (core manual, Advanced Rules, Tactics Modules): team panels and team cards.

A team panel has 2-8 slots; a slot is open to any soldier or asks for one of several
qualifications (SlotNeed: a training badge, a grenade count, an NCO rank, a Sight value). A
force may use any panels, each once, and need not fill them; a panel in use brings all its team
cards to the deck (engine/turn/setup.py). Soldiers stay on their panel all game and may change slots
on it only to a slot they qualify for (`reslot`, a free command while cards are being placed).

Team cards carry no dog tag (identity checks never find them). A team card that names a slot
(needs_slot) is dead while no soldier of the force fills that slot; a card with the
"one_square" restriction needs every team member in one map square when it starts. An unmet
requirement makes the card unplayable: it gives no actions that phase (`unplayable`).

A bubble entry for "Team" (TeamEntry.who == "team") is open to every member of the card's
panel (a teamwork card with `all_teams` opens it to the members of every panel of the squad),
one action each, counts ignored, the entries in any order. A command card's identity box
(IdentityBox) draws identity checks when the card starts; each soldier whose card was drawn may
take one of the listed actions for every card of his drawn (an "identity" source of the card).
"""
from __future__ import annotations

from engine.core import commands as C
from engine.core import rulebook
from engine.core.action_cards import ACCEPTED_BY, entry_accepts, who_fits
from engine.core.content import (
    ActionCardDef,
    Do,
    PanelSlot,
    Rank,
    SlotNeed,
    SoldierDef,
    subactions,
)
from engine.core.errors import RuleError
from engine.core.identity import identity_draws
from engine.core.log import Ctx
from engine.core.wording import plural

NCO_RANKS = (Rank.JUNIOR_NCO, Rank.SENIOR_NCO)


# ------------------------------------------------------------------------- slot qualifications


def need_met(d: SoldierDef, rank: Rank | str, grenades: int, need: SlotNeed) -> bool:
    """Every field the need gives holds for this soldier (badge, grenades carried, NCO, Sight)."""
    if need.badge is not None and (d.badge or "").lower() != need.badge.lower():
        return False
    if need.grenades is not None and grenades < need.grenades:
        return False
    if need.nco and rank not in NCO_RANKS:
        return False
    return need.sight is None or d.profile(rank).healthy.sight >= need.sight


def qualifies(d: SoldierDef, rank: Rank | str, grenades: int, slot: PanelSlot) -> bool:
    """An unmarked slot takes anyone; a marked one anyone meeting one of its needs."""
    return not slot.any_of or any(need_met(d, rank, grenades, n) for n in slot.any_of)


def need_text(need: SlotNeed) -> str:
    parts = []
    if need.badge:
        parts.append(f"a {need.badge} badge")
    if need.grenades:
        parts.append(plural(need.grenades, "grenade"))
    if need.nco:
        parts.append("NCO rank")
    if need.sight:
        parts.append(f"Sight {need.sight} or more")
    return " and ".join(parts) or "nothing"


def slot_name(panel, index: int) -> str:
    label = panel.slots[index].label
    return f"slot {index}" + (f" ({label})" if label else "")


def slot_text(slot: PanelSlot) -> str:
    return "anyone" if not slot.any_of else " or ".join(need_text(n) for n in slot.any_of)


# ------------------------------------------------------------------------- force selection


def check_panels(cat, side: str, entries, taken_panels=frozenset()) -> None:
    """Panel assignments of one player's force (check_force): known panels of his side, a slot
    that exists and that he qualifies for, one soldier per slot, each panel used by one force
    only (`taken_panels`: panels other players of the game already use). Raises RuleError."""
    used: dict[tuple[str, int], int] = {}
    for e in entries:
        if e.panel is None:
            if e.slot is not None:
                raise RuleError(f"{cat.soldiers[e.serial].name} ({e.serial}) has a slot but no team panel.")
            continue
        d = cat.soldiers[e.serial]
        p = cat.panels.get(e.panel)
        if p is None:
            known = ", ".join(sorted(k for k, v in cat.panels.items() if v.nationality == side)) or "none"
            raise RuleError(f"there is no team panel {e.panel!r}; {side} panels: {known}.")
        if p.nationality != side:
            raise RuleError(f"the {p.name} panel ({p.id}) is a {p.nationality} panel, not {side}.")
        if p.id in taken_panels:
            raise RuleError(f"the {p.name} panel ({p.id}) is used already: a squad uses each panel once.")
        if e.slot is None or not 0 <= e.slot < len(p.slots):
            raise RuleError(f"give {d.name} ({e.serial}) a slot 0-{len(p.slots) - 1} on the {p.name} panel.")
        if (p.id, e.slot) in used:
            other = cat.soldiers[used[(p.id, e.slot)]].name
            raise RuleError(f"{d.name} and {other} are both in {slot_name(p, e.slot)} of the {p.name} panel: "
                            f"one soldier a slot.")
        grenades = d.grenades if e.grenades is None else e.grenades
        if not qualifies(d, e.rank, grenades, p.slots[e.slot]):
            raise RuleError(f"{d.name} ({e.serial}) cannot fill {slot_name(p, e.slot)} of the {p.name} panel: "
                            f"it needs {slot_text(p.slots[e.slot])}.")
        used[(p.id, e.slot)] = e.serial


# ------------------------------------------------------------------------- in the game


def members(st, force_id: str, panel: str) -> list[int]:
    """The soldiers of a force's deck on a panel who are still in play (dead, captured, gone
    and reserve soldiers leave their slot empty)."""
    return sorted(s.serial for s in st.soldiers.values()
                  if s.panel == panel and s.force == force_id and s.in_play and s.controller == force_id)


def slot_filled(st, force_id: str | None, panel: str, label: str) -> bool:
    """A slot with this label (roman numeral) on the panel is filled while the man assigned to it
    is alive and his side's: on the board on foot or aboard, or still waiting to enter (a man not
    yet on the map is still on his team; only death, capture or leaving the board empties the
    slot). `force_id` None: any force. The one reading engine/advanced/dead_cards.py uses."""
    p = st.setup.panels.get(panel)
    if p is None:
        return False
    idx = {i for i, sl in enumerate(p.slots) if sl.label == label}
    return any(s.panel == panel and s.slot in idx and (force_id is None or s.force == force_id)
               and s.captor is None and s.status in ("board", "aboard", "waiting") for s in st.soldiers.values())


def panels_of(st, force_id: str) -> list[str]:
    """The panels a force's soldiers are on, in play or not (the panels it uses)."""
    return sorted({s.panel for s in st.soldiers.values() if s.force == force_id and s.panel})


def unplayable(st, force_id: str, card_id: str) -> str | None:
    """Why a team card gives no actions now (its slot empty, its restriction unmet), else None."""
    card = st.card(card_id)
    if card.panel is None:
        return None
    p = st.setup.panels.get(card.panel)
    name = p.name if p else card.panel
    if card.needs_slot and not slot_filled(st, force_id, card.panel, card.needs_slot):
        return f"slot {card.needs_slot} of the {name} panel is empty, so the team lacks the skill for it."
    if card.restriction == "one_square":
        men = members(st, force_id, card.panel)
        if not men:
            return f"nobody of the {name} team is left."
        at = {n: st.board.tile_at(st.soldiers[n].at) if st.soldiers[n].free else None for n in men}
        if None in at.values() or len(set(at.values())) != 1:
            where = ", ".join(f"{st.name(n)} {t or 'off the board'}" for n, t in at.items())
            return f"the {name} team must stand in one map square when the card starts ({where})."
    return None


def team_members_for(st, card: ActionCardDef, force_id: str) -> set[int]:
    """Who may take a 'Team' entry of this card: the members of its panel, or of every panel of
    the squad for a card with `all_teams`."""
    if card.panel is None:
        return set()
    panels = panels_of(st, force_id) if getattr(card, "all_teams", False) else [card.panel]
    return {n for p in panels for n in members(st, force_id, p)}


def team_entry(st, active, card: ActionCardDef, src, serial: int, do: Do) -> int | None:
    """The entry a man takes this action under on a card with 'Team' entries (sources.team_entry):
    a 'Team' entry for a member, any time; a numbered entry for any fitting soldier of the squad
    while the card's numbered actions taken stay below its count (src.uses counts those)."""
    if serial in src.used:
        return None
    member = serial in team_members_for(st, card, active.force)
    fits = [i for i, e in enumerate(card.team) if entry_accepts(e.do, do)]
    for i in fits:  # a member takes a 'Team' entry first, leaving the numbered ones to the others
        if card.team[i].who == "team" and member:
            return i
    for i in fits:
        e = card.team[i]
        if e.who != "team" and who_fits(st, e.who, serial) and src.uses < e.count:
            return i
    return None


def team_accepted(st, active, card: ActionCardDef, src, serial: int) -> frozenset[Do]:
    if serial in src.used:
        return frozenset()
    member = serial in team_members_for(st, card, active.force)
    out: set[Do] = set()
    for e in card.team:
        if (e.who == "team" and member) or (e.who != "team" and who_fits(st, e.who, serial) and src.uses < e.count):
            out |= ACCEPTED_BY[e.do]
    return frozenset(out)


# ------------------------------------------------------------------------- identity box


def identity_start(ctx, force_id: str, card_id: str) -> list[int]:
    """The identity box of a command card: draw its identity checks off the force's deck; the
    dog tags drawn (team cards count for nothing) each earn one action."""
    card = ctx.st.card(card_id)
    drawn = identity_draws(ctx, force_id, card.identity.draws)
    st = ctx.st
    mine = [n for n in drawn if n in st.soldiers and st.soldiers[n].controller == force_id]
    if mine:
        counts = {n: mine.count(n) for n in dict.fromkeys(mine)}
        ctx.say("identity_box", f"{card_id}: " + ", ".join(
            f"{st.name(n)} may {'/'.join(a.value.upper() for a in card.identity.actions)}"
            + (f" x{k}" if k > 1 else "") for n, k in counts.items()) + ".", card=card_id, serials=mine)
    else:
        ctx.say("identity_box", f"{card_id}: no soldier's card came up; the identity box gives nothing.",
                card=card_id, serials=[])
    return mine


def identity_dos(card: ActionCardDef) -> frozenset[Do]:
    return frozenset(d for a in card.identity.actions for d in subactions(a))


def identity_accepts(st, active, src, serial: int, do: Do) -> str | None:
    """Why the identity box cannot take this action from this man, or None."""
    card = st.card(active.card)
    if src.state == "closed":
        return "the identity box is finished"
    if serial not in src.drawn:
        return "only soldiers whose cards came up in its identity checks (" + (
            ", ".join(st.name(n) for n in dict.fromkeys(src.drawn)) or "nobody") + ") act for it"
    if do not in identity_dos(card):
        return "the identity box allows " + "/".join(a.value.upper() for a in card.identity.actions)
    return None


def identity_accepted(st, active, src, serial: int) -> frozenset[Do]:
    if src.state == "closed" or serial not in src.drawn:
        return frozenset()
    return identity_dos(st.card(active.card))


def identity_used(src, serial: int) -> None:
    """One drawn card of his is spent; the box closes when none is left."""
    src.drawn.remove(serial)
    if not src.drawn:
        src.state = "closed"


# ------------------------------------------------------------------------- changing slots


def reslot(ctx, seat: int, serial: int, slot: int) -> None:
    """A soldier moves to another slot of his own panel, if he qualifies for it and it is free
    (a free command while the player has not yet placed this turn's cards)."""
    st = ctx.st
    s = st.soldiers.get(serial)
    if s is None or st.forces[s.force].seat != seat:
        raise RuleError(f"{serial} is not one of your soldiers.")
    if s.panel is None:
        raise RuleError(f"{st.name(serial)} is on no team panel.")
    if st.step != "place" or st.forces[s.force].planned:
        raise RuleError("soldiers change slots on their panel while cards are being placed, before you place yours.")
    if not s.in_play:
        raise RuleError(f"{st.name(serial)} is out of the game.")
    p = st.setup.panels[s.panel]
    if not 0 <= slot < len(p.slots):
        raise RuleError(f"the {p.name} panel has slots 0-{len(p.slots) - 1}.")
    if slot == s.slot:
        raise RuleError(f"{st.name(serial)} is in {slot_name(p, slot)} already.")
    for o in st.soldiers.values():
        if o.panel == s.panel and o.force == s.force and o.slot == slot and o.in_play:
            raise RuleError(f"{st.name(o.serial)} fills {slot_name(p, slot)} of the {p.name} panel.")
    d = st.soldier_def(serial)
    if not qualifies(d, s.rank, s.grenades, p.slots[slot]):
        raise RuleError(f"{st.name(serial)} cannot fill {slot_name(p, slot)}: it needs {slot_text(p.slots[slot])}.")
    old = s.slot
    st.changing(serial).slot = slot
    ctx.say("reslot", f"{st.name(serial)} moves from {slot_name(p, old)} to {slot_name(p, slot)} "
            f"of the {p.name} panel.", serial=serial, panel=p.id, slot=slot)


def describe_owner(st, card: ActionCardDef) -> str:
    """How a team card is named in place of a dog tag."""
    p = st.setup.panels.get(card.panel) if card.panel else None
    return f"team card of the {p.name if p else card.panel} panel"


# --------------------------------------------------------------------------- what its commands do (engine/core/rulebook.py)


@rulebook.answers(C.Reslot)
def reslot_answer(ctx: Ctx, cmd: C.Reslot, force: None) -> None:
    reslot(ctx, cmd.seat, cmd.serial, cmd.slot)
