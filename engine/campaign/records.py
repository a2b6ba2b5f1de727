"""What a campaign shows: rosters, a soldier's service record and the standings, as plain
models for text and pictures. A soldier's VP (his cost and what he earned) is private, as in
the game (view.py): the public forms have no field that could hold it.
"""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from engine.campaign.definition import CampaignDef
from engine.campaign.honours import BY_ID, medals_in_play
from engine.campaign.roster import (
    STATUS_WORDS,
    CampaignState,
    Kind,
    RosterEntry,
    Status,
)
from engine.core.content import Catalog


class V(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class HonourLine(V):
    category: str
    award: str  # the award's id, for the ribbon's colours
    name: str
    rank_title: str  # the rank it is attached to
    citation: str
    scenario: str | None  # the scenario that earned it


class RosterLine(V):
    serial: int
    name: str
    kind: str
    rank_title: str  # "Cpl." (vehicles: their type)
    status: str  # fit, wounded, killed in action, prisoner of war, missing
    medals: int  # at his present rank
    badges: int
    honours: int  # all ranks
    kills: int
    captures: int
    scenarios: int
    training: str | None = None  # crewmen: "gunner on M4A1 Sherman (75 mm)"
    knocked_out: int = 0  # enemy vehicles destroyed
    crew: str | None = None  # vehicles: "commander Calloway (151), gunner Reinholt (152)"
    damage: str | None = None  # vehicles in the workshop: what it is there for
    vehicle: str | None = None  # crewmen: the roster vehicle whose crew he belongs to


class PrivateRosterLine(RosterLine):
    vp: int | None  # his cost at his rank (None for vehicles)
    vp_earned: int


class RosterView(V):
    campaign: str
    player: str
    side: str
    strength: int
    open_places: int
    lines: list[RosterLine]
    player_vp: int | None = None  # private only


class ServiceRecord(V):
    campaign: str
    player: str
    serial: int
    name: str
    side: str
    kind: str
    rank: str  # "junior NCO"
    rank_title: str  # "Cpl."
    status: str
    weapon: str
    training: str | None
    honours: list[HonourLine]
    medals_in_play: int  # medal cards in his deck now
    kills: int
    captures: int
    wounds: int
    scenarios: list[str]  # the scenarios he fought, in order
    knocked_out: int = 0  # enemy vehicles destroyed
    crew: list[str] = []  # vehicles: "commander Calloway (151)", ...; crewmen: [the vehicle he crews]
    notable: list[str]  # dated lines of his service log
    vp: int | None = None  # private only: his cost at his rank
    vp_earned: int | None = None  # private only


class StandingsLine(V):
    name: str
    side: str
    vp: list[int]  # per result, in order
    total: int


class Standings(V):
    campaign: str
    scenarios: list[str]  # one label per result
    players: list[StandingsLine]
    sides: dict[str, list[int]]  # per side, per result
    finished: bool


def plural(n: int, word: str, many: str | None = None) -> str:
    """`plural(1, "kill")` -> "1 kill"; `plural(3, "kill")` -> "3 kills"."""
    return f"{n} {word if n == 1 else many or word + 's'}"


def route(cdef: CampaignDef) -> str:
    """The campaign's steps in order, branches side by side: "A → B → C or D → E"."""
    steps = {s.id: s for s in cdef.steps}
    depth = {cdef.start: 0}
    frontier = [cdef.start]
    while frontier:  # longest distance from the start (the steps form no loop)
        sid = frontier.pop(0)
        for t in steps[sid].targets():
            if depth.get(t, -1) < depth[sid] + 1:
                depth[t] = depth[sid] + 1
                frontier.append(t)
    layers: dict[int, list[str]] = {}
    for sid, step in steps.items():
        layers.setdefault(depth[sid], []).append(step.title or sid)
    return " → ".join(" or ".join(layers[k]) for k in sorted(layers))


def _title(e: RosterEntry, cat: Catalog) -> str:
    if e.kind == Kind.VEHICLE or e.rank is None:
        return _vehicle_name(cat, e.vehicle)
    return cat.soldiers[e.serial].profile(e.rank).title


def _vehicle_name(cat: Catalog, vehicle: str | None) -> str:
    return cat.vehicles[vehicle].name if vehicle in cat.vehicles else vehicle or "vehicle"


def _training(e: RosterEntry, cat: Catalog) -> str | None:
    if e.training is None:
        return None
    return f"{e.training.role.value.replace('_', ' ')} on {_vehicle_name(cat, e.training.vehicle)}"


def crew_words(st: CampaignState, e: RosterEntry, cat: Catalog) -> list[str]:
    """A vehicle's crew, each by his trained role; a crewman's vehicle."""
    if e.kind != Kind.VEHICLE:
        v = st.vehicle_of(e.serial)
        return [f"crew of {v.name} ({v.serial})"] if v else []
    out = []
    for serial in e.crew:
        man = st.entry(serial)
        role = man.training.role.value.replace("_", " ") if man.training else "untrained"
        out.append(f"{role} {man.name} ({serial})" + ("" if man.status == Status.FIT else
                                                      f", {STATUS_WORDS[man.status]}"))
    return out


def damage_words(e: RosterEntry, cat: Catalog) -> str | None:
    if not e.damage or e.vehicle not in cat.vehicles:
        return None
    vdef = cat.vehicles[e.vehicle]
    return ", ".join(f"{vdef.location(loc).name} ({' and '.join(x.capitalize() for x in m)})"
                     for loc, m in e.damage.items())


def roster_view(st: CampaignState, cat: Catalog, user_id: int, *, private: bool) -> RosterView:
    p = st.player(user_id)
    lines = []
    for e in sorted(p.roster, key=lambda e: (e.status != Status.FIT, e.serial)):
        base = {"serial": e.serial, "name": e.name, "kind": e.kind.value, "rank_title": _title(e, cat),
                "status": STATUS_WORDS[e.status], "medals": len(e.honours_at("medal")) if e.rank else 0,
                "badges": len(e.honours_at("badge")) if e.rank else 0, "honours": len(e.honours),
                "kills": e.kills, "captures": e.captures, "scenarios": len(e.served),
                "training": _training(e, cat), "knocked_out": e.knocked_out,
                "crew": ", ".join(crew_words(st, e, cat)) or None if e.kind == Kind.VEHICLE else None,
                "damage": damage_words(e, cat),
                "vehicle": (st.vehicle_of(e.serial).name if st.vehicle_of(e.serial) else None)
                if e.kind == Kind.CREWMAN else None}
        if private:
            vp = cat.soldiers[e.serial].profile(e.rank).vp if e.rank and e.serial in cat.soldiers else None
            lines.append(PrivateRosterLine(**base, vp=vp, vp_earned=e.vp_earned))
        else:
            lines.append(RosterLine(**base))
    total = sum(r.vp.get(user_id, 0) for r in st.history)
    return RosterView(campaign=st.name, player=p.name, side=p.side.value, strength=p.strength,
                      open_places=p.open_places, lines=lines, player_vp=total if private else None)


def service_record(st: CampaignState, cat: Catalog, serial: int, *, private: bool) -> ServiceRecord:
    owner = st.owner_of(serial)
    e = st.entry(serial)
    d = cat.soldiers.get(serial)
    names = {r.number: cat.scenarios[r.scenario].name if r.scenario in cat.scenarios else r.scenario
             for r in st.history}
    honours = [HonourLine(category=h.category, award=h.award, name=h.name,
                          rank_title=d.profile(h.rank).title if d else h.rank.value,
                          citation=h.citation or (BY_ID[h.award].criterion if h.award in BY_ID else ""),
                          scenario=names.get(h.result)) for h in e.honours]
    notable = [f"{x.date} · {x.text}" for x in e.log if x.notable]
    rank_words = {"private": "private", "junior_nco": "junior NCO", "senior_nco": "senior NCO"}
    return ServiceRecord(
        campaign=st.name, player=owner.name, serial=serial, name=e.name, side=e.side.value, kind=e.kind.value,
        rank=rank_words.get(e.rank.value, "") if e.rank else "", rank_title=_title(e, cat),
        status=STATUS_WORDS[e.status], weapon=d.weapon if d else _vehicle_name(cat, e.vehicle),
        training=_training(e, cat), knocked_out=e.knocked_out, crew=crew_words(st, e, cat),
        honours=honours, medals_in_play=medals_in_play(e, d) if d else 0, kills=e.kills, captures=e.captures,
        wounds=e.wounds, scenarios=[names.get(n, str(n)) for n in e.served], notable=notable,
        vp=d.profile(e.rank).vp if private and d and e.rank else None,
        vp_earned=e.vp_earned if private else None)


def standings(st: CampaignState, cat: Catalog) -> Standings:
    labels = [f"{r.number}. {cat.scenarios[r.scenario].name if r.scenario in cat.scenarios else r.scenario}"
              for r in st.history]
    players = [StandingsLine(name=p.name, side=p.side.value, vp=[r.vp.get(p.user_id, 0) for r in st.history],
                             total=sum(r.vp.get(p.user_id, 0) for r in st.history)) for p in st.players]
    sides = {side: [r.side_vp.get(side, 0) for r in st.history] for side in ("US", "DE")}
    return Standings(campaign=st.name, scenarios=labels, players=players, sides=sides,
                     finished=st.status == "finished")


def next_words(st: CampaignState, cdef: CampaignDef, cat: Catalog) -> str:
    """Where the campaign stands, in a line."""
    if st.status == "finished":
        return "The campaign is over."
    if st.choice is not None:
        return (f"The winners ({st.choice.side.value}) choose the next step: "
                + ", ".join(f"{o} ({cdef.step(o).title or o})" for o in st.choice.options) + ".")
    step = cdef.step(st.step)
    sc = cat.scenario(step.scenario)
    head = f"Scenario {st.number + 1}: {step.title or sc.name} — {sc.name}"
    return head + (" (enlisting: players may still join)." if st.status == "enlisting" else ".")
