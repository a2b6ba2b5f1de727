"""Medals, badges and promotions: our own table of what earns them (docs/campaigns.md), the
limits of the core manual (Medals and Badges: at most three medals and one badge attached to
one rank), what a medal does in play, and how a leader rises Private -> junior NCO -> senior
NCO (Leaders: every leader began as a private).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from engine.campaign.definition import RANK_ORDER
from engine.campaign.roster import (
    CampaignError,
    Honour,
    Kind,
    RosterEntry,
    SoldierOutcome,
    Status,
)
from engine.core.content import Catalog, Rank, SoldierDef

LIMIT = {"medal": 3, "badge": 1}  # per rank (core manual, Medals and Badges)
PROMOTE_AFTER = 2  # scenarios fought at a rank, coming back from the last, before a leader rises
RANK_WORDS = {Rank.PRIVATE: "private", Rank.JUNIOR_NCO: "junior NCO", Rank.SENIOR_NCO: "senior NCO"}


def came_back(o: SoldierOutcome) -> bool:
    """Walked off the field with his own side: not killed, not a prisoner."""
    return o.fate in ("fit", "wounded")


@dataclass(frozen=True)
class AwardKind:
    id: str
    category: Literal["medal", "badge"]
    names: dict[str, str]  # by nationality: what his army calls it
    criterion: str  # when it is earned, in words; empty: only the organiser awards it
    earned: Callable[[SoldierOutcome, RosterEntry], bool] | None = None

    def name(self, side: str) -> str:
        return self.names[str(side)]


# In each category the first row a soldier's scenario meets is his automatic award for it:
# at most one medal and one badge a scenario, and the limits per rank always hold.
AWARDS: tuple[AwardKind, ...] = (
    AwardKind("silver", "medal", {"US": "Silver Star", "DE": "Iron Cross 1st Class"},
              "put two or more enemies out of the fight in one scenario (kills, prisoners taken and "
              "vehicles knocked out)",
              lambda o, e: o.kills + o.captures + o.knocked_out >= 2),
    AwardKind("bronze", "medal", {"US": "Bronze Star", "DE": "Iron Cross 2nd Class"},
              "rallied a pinned comrade while under fire",
              lambda o, e: o.deeds.get("rallied_under_fire", 0) >= 1),
    AwardKind("merit", "medal", {"US": "Army Commendation Ribbon", "DE": "War Merit Cross with Swords"},
              "carried out his player's orders himself",
              lambda o, e: o.deeds.get("orders", 0) >= 1),
    AwardKind("distinguished", "medal", {"US": "Distinguished Service Cross", "DE": "German Cross in Gold"},
              ""),
    AwardKind("close_combat", "badge", {"US": "Close Combat Bar", "DE": "Close Combat Clasp"},
              "charged into close combat and came back",
              lambda o, e: o.deeds.get("charges", 0) >= 1 and came_back(o)),
    AwardKind("marksman", "badge", {"US": "Expert Rifleman Badge", "DE": "Marksman Lanyard"},
              "scored three or more hits in one scenario",
              lambda o, e: o.deeds.get("hits", 0) >= 3),
    AwardKind("combat", "badge", {"US": "Combat Infantryman Badge", "DE": "Infantry Assault Badge"},
              "came back from his second scenario at his present rank",
              lambda o, e: came_back(o) and e.served_at_rank >= PROMOTE_AFTER),
)
BY_ID = {a.id: a for a in AWARDS}


def award_kind(award_id: str, category: str | None = None) -> AwardKind:
    kind = BY_ID.get(award_id.strip().lower().replace("-", "_"))
    if kind is None or (category and kind.category != category):
        offered = [a.id for a in AWARDS if not category or a.category == category]
        raise CampaignError(f"There is no {category or 'award'} {award_id!r}; there are {', '.join(offered)}.")
    return kind


def room_for(entry: RosterEntry, category: str) -> bool:
    return len(entry.honours_at(category)) < LIMIT[category]


def award(entry: RosterEntry, award_id: str, *, date: str, citation: str = "", by="organiser",
          result: int | None = None, category: str | None = None) -> str:
    """Pin a medal or badge on him at his present rank; refused past the limit. Changes entry."""
    kind = award_kind(award_id, category)
    if entry.kind == Kind.VEHICLE or entry.rank is None:
        raise CampaignError(f"{entry.name} is a vehicle; medals and badges go to men.")
    if not room_for(entry, kind.category):
        have = ", ".join(h.name for h in entry.honours_at(kind.category))
        raise CampaignError(f"{entry.name} already has {LIMIT[kind.category]} {kind.category}"
                            f"{'s' if LIMIT[kind.category] > 1 else ''} at the rank of {RANK_WORDS[entry.rank]} "
                            f"({have}): at most {LIMIT[kind.category]} per rank (core manual, Medals and Badges).")
    name = kind.name(entry.side)
    entry.honours.append(Honour(category=kind.category, award=kind.id, name=name, rank=entry.rank, result=result,
                                citation=citation, by=by, date=date))
    why = f": {citation}" if citation else ""
    entry.note(date, f"Awarded the {name}{why}.", result=result, notable=True)
    return f"{entry.name} ({entry.serial}) is awarded the {name}{why}."


def automatic_awards(entry: RosterEntry, outcome: SoldierOutcome, date: str, result: int) -> list[str]:
    """The awards his scenario earned him by the table, within the limits. Changes entry."""
    lines = []
    for category in ("medal", "badge"):
        kind = next((a for a in AWARDS if a.category == category and a.earned and a.earned(outcome, entry)), None)
        if kind is None:
            continue
        if room_for(entry, category):
            lines.append(award(entry, kind.id, date=date, citation=kind.criterion, by="criteria", result=result))
        else:
            entry.note(date, f"Earned the {kind.name(entry.side)} ({kind.criterion}), but already wears "
                             f"{LIMIT[category]} {category}{'s' if LIMIT[category] > 1 else ''} at his rank.",
                       result=result)
    return lines


def medals_in_play(entry: RosterEntry, soldier: SoldierDef) -> int:
    """How many of his medal cards replace core cards in his deck (`ForceEntry.medals`): one per
    medal at his present rank, as far as he has medal cards; a medal beyond them is an honour only."""
    if entry.rank is None:
        return 0
    return min(len(entry.honours_at("medal")), len(soldier.medal_cards))


def next_rank(entry: RosterEntry, cat: Catalog) -> Rank | None:
    d = cat.soldiers.get(entry.serial)
    if d is None or entry.rank is None or not d.is_leader:
        return None
    have = {p.rank for p in d.ranks}
    later = RANK_ORDER[RANK_ORDER.index(entry.rank) + 1:]
    return next((r for r in later if r in have), None)


def promote(entry: RosterEntry, cat: Catalog, *, date: str, why: str, result: int | None = None) -> str:
    """One rank up: new rank cards and a new VP cost; his old medals stay with his old rank.
    Changes entry; refused for a man who is not a leader or is at the top already."""
    d = cat.soldiers.get(entry.serial)
    if d is None or entry.kind == Kind.VEHICLE:
        raise CampaignError(f"{entry.name} has no ranks to rise through.")
    if not d.is_leader:
        raise CampaignError(f"{d.name} is a private with no leader cards: only leaders are promoted "
                            "(core manual, Leaders).")
    rank = next_rank(entry, cat)
    if rank is None:
        raise CampaignError(f"{d.name} is a {RANK_WORDS[entry.rank]} already, as high as his cards go.")
    if entry.status == Status.KILLED:
        raise CampaignError(f"{d.name} was killed in action.")
    old = entry.rank
    entry.rank = rank
    entry.served_at_rank = 0
    title = d.profile(rank).title
    entry.note(date, f"Promoted from {RANK_WORDS[old]} to {RANK_WORDS[rank]} ({title}): {why}.", result=result,
               notable=True)
    return f"{d.name} ({entry.serial}) is promoted to {RANK_WORDS[rank]} ({title}): {why}."


def promotion_due(entry: RosterEntry, outcome: SoldierOutcome, cat: Catalog) -> bool:
    """A leader who came back from his scenario having fought PROMOTE_AFTER at his rank rises."""
    return came_back(outcome) and entry.served_at_rank >= PROMOTE_AFTER and next_rank(entry, cat) is not None
