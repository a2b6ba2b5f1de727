"""From rosters to a game: which roster soldiers may fight the next step, a player's pick
within the step's budget (or one chosen for him), and the `SeatSpec`s `new_game` takes.

A soldier fights at his roster rank with the medal cards of his medals at that rank
(`ForceEntry.medals`); his player adds grenades and equipment as in any force selection.
"""
from __future__ import annotations

import re

from engine.campaign.definition import RANK_ORDER, CampaignDef, StepDef, with_budget
from engine.campaign.honours import medals_in_play
from engine.campaign.roster import (
    CampaignError,
    CampaignState,
    Player,
    RosterEntry,
    Status,
)
from engine.content import Catalog, ForceEntry
from engine.errors import RuleError
from engine.setup import SeatSpec, budget, check_force, force_cost

PICK_SYNTAX = "dog tags from your roster, e.g. `101 105 109:g6 107:radio` (gN grenades, or an equipment id)"


def next_step(st: CampaignState, cdef: CampaignDef) -> StepDef:
    if st.status == "finished":
        raise CampaignError("This campaign is over.")
    if st.step is None:
        raise CampaignError(f"The winners ({st.choice.side.value}) first choose where the campaign goes "
                            f"next: {', '.join(st.choice.options)} (`campaign choose`)." if st.choice else
                            "This campaign has no next scenario.")
    return cdef.step(st.step)


def eligible(entry: RosterEntry, step: StepDef) -> str | None:
    """Why he may not fight this step, or None if he may."""
    if not entry.fights:
        return f"{entry.name} is a {entry.kind.value}; vehicles and crews wait for the vehicle rules"
    if entry.status != Status.FIT:
        return f"{entry.name} is {entry.status.value}"
    if entry.rank not in step.eligible.ranks:
        return f"{entry.name}'s rank may not take part in this step"
    if len(entry.served) < step.eligible.min_served:
        return f"{entry.name} has fought {len(entry.served)} scenarios, this step takes men with " \
               f"{step.eligible.min_served}"
    return None


def player_budget(st: CampaignState, cdef: CampaignDef, cat: Catalog, p: Player) -> int:
    step = next_step(st, cdef)
    sc = with_budget(cat.scenario(step.scenario), step.budget)
    return budget(sc, p.side, len(st.players), len(st.side_players(p.side)))


def parse_pick(text: str) -> list[tuple[int, int | None, list[str]]]:
    """`"101 109:g6 107:radio"` -> [(101, None, []), (109, 6, []), (107, None, ["radio"])]."""
    out = []
    for word in re.split(r"[\s,;]+", text.strip()):
        if not word:
            continue
        serial, *extras = word.split(":")
        if not serial.isdigit():
            raise CampaignError(f"{word!r}: a pick lists {PICK_SYNTAX}.")
        grenades, equipment = None, []
        for extra in extras:
            if re.fullmatch(r"[gG]\d+", extra):
                grenades = int(extra[1:])
            elif extra:
                equipment.append(extra.lower())
        out.append((int(serial), grenades, equipment))
    if not out:
        raise CampaignError(f"Name at least one soldier: {PICK_SYNTAX}.")
    return out


def force_entry(entry: RosterEntry, cat: Catalog, grenades: int | None = None,
                equipment: list[str] | None = None) -> ForceEntry:
    return ForceEntry(serial=entry.serial, rank=entry.rank, grenades=grenades,
                      medals=medals_in_play(entry, cat.soldiers[entry.serial]), equipment=equipment or [])


def check_pick(st: CampaignState, cdef: CampaignDef, cat: Catalog, p: Player,
               entries: list[ForceEntry]) -> int:
    """Validate a force for the next step; returns its cost. Rank and medals come from the roster."""
    step = next_step(st, cdef)
    if step.eligible.max_soldiers and len(entries) > step.eligible.max_soldiers:
        raise CampaignError(f"This step takes at most {step.eligible.max_soldiers} men per player.")
    for fe in entries:
        e = p.entry(fe.serial)
        if e is None:
            raise CampaignError(f"Dog tag {fe.serial} is not on your roster.")
        why = eligible(e, step)
        if why:
            raise CampaignError(f"{why}, so he cannot fight in {step.title or step.id}.")
        if fe.rank != e.rank or fe.medals != medals_in_play(e, cat.soldiers[e.serial]):
            raise CampaignError(f"{e.name} fights at his roster rank with his own medals.")
    sc = with_budget(cat.scenario(step.scenario), step.budget)
    try:
        return check_force(cat, sc, p.side, entries, len(st.players), teammates=len(st.side_players(p.side)))
    except RuleError as exc:
        raise CampaignError(str(exc)) from None


def pick(st: CampaignState, cdef: CampaignDef, cat: Catalog, user_id: int, text: str | None
         ) -> tuple[CampaignState, list[ForceEntry], int]:
    """Set the player's force for the next step (None or "auto": chosen for him at the start)."""
    st = st.model_copy(deep=True)
    p = st.player(user_id)
    if text is None or text.strip().lower() in ("", "auto"):
        p.pick = None
        entries = auto_force(st, cdef, cat, p)
    else:
        entries = []
        for serial, grenades, equipment in parse_pick(text):
            e = p.entry(serial)
            if e is None:
                raise CampaignError(f"Dog tag {serial} is not on your roster.")
            entries.append(force_entry(e, cat, grenades, equipment))
        p.pick = entries
    return st, entries, check_pick(st, cdef, cat, p, entries)


def auto_force(st: CampaignState, cdef: CampaignDef, cat: Catalog, p: Player) -> list[ForceEntry]:
    """The force chosen for a player who picked none: leaders first, then the dearest men, each
    taken if he still fits the budget (and the step's head count)."""
    step = next_step(st, cdef)
    sc = with_budget(cat.scenario(step.scenario), step.budget)
    limit = player_budget(st, cdef, cat, p)
    men = [e for e in p.roster if eligible(e, step) is None]
    men.sort(key=lambda e: (-RANK_ORDER.index(e.rank), -cat.soldiers[e.serial].profile(e.rank).vp, e.serial))
    chosen: list[ForceEntry] = []
    for e in men:
        if step.eligible.max_soldiers and len(chosen) >= step.eligible.max_soldiers:
            break
        fe = force_entry(e, cat)
        if force_cost(cat, sc, p.side, [*chosen, fe]) <= limit:
            chosen.append(fe)
    if not chosen:
        raise CampaignError(f"{p.name} has nobody fit to fight {step.title or step.id} within {limit} VP; "
                            "recruits fill open places (`campaign enlist`).")
    return sorted(chosen, key=lambda fe: fe.serial)


def seat_specs(st: CampaignState, cdef: CampaignDef, cat: Catalog) -> list[tuple[int, SeatSpec]]:
    """The next step's seats, one per player in the order they joined: (user id, SeatSpec with
    his force from his roster). Each pick is checked again here, since rosters change."""
    next_step(st, cdef)
    if st.status != "running":
        raise CampaignError("This campaign has not begun.")
    out = []
    for p in st.players:
        entries = p.pick if p.pick is not None else auto_force(st, cdef, cat, p)
        check_pick(st, cdef, cat, p, entries)
        out.append((p.user_id, SeatSpec(name=p.name, side=p.side, force=entries)))
    return out
