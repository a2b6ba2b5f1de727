"""Who fights for whom: starting a campaign, players joining a side and sharing its company,
and recruits enlisting from the side's depot to fill the places the fallen leave.
"""
from __future__ import annotations

from engine.campaign.definition import CampaignDef, CompanyEntry
from engine.campaign.roster import (
    CampaignError,
    CampaignState,
    Kind,
    Player,
    RosterEntry,
    Status,
    new_entry,
)
from engine.core.content import Catalog, Nationality, Rank

MAX_PLAYERS = 4  # a game seats two to four


def new_campaign(cdef: CampaignDef, name: str | None, organiser: int, date: str) -> CampaignState:
    return CampaignState(definition=cdef.id, name=name or cdef.name, organiser=organiser, step=cdef.start,
                         depot={side: cdef.depot(side) for side in cdef.sides}, created=date)


def join(st: CampaignState, cdef: CampaignDef, cat: Catalog, user_id: int, name: str, side: str,
         date: str) -> CampaignState:
    """Enlist a player on a side. While the campaign is still enlisting, the side's company is
    dealt again among its players, so whoever joins later gets a fair share too."""
    if st.status != "enlisting":
        raise CampaignError("This campaign has begun; players join before its first scenario.")
    side = _side(side)
    st = st.model_copy(deep=True)
    if st.has_player(user_id):
        me = st.player(user_id)
        if me.side == side:
            raise CampaignError(f"You already fight for {side.value} in this campaign.")
        me.side = side
    else:
        if len(st.players) >= MAX_PLAYERS:
            raise CampaignError(f"This campaign has its {MAX_PLAYERS} players.")
        st.players.append(Player(user_id=user_id, name=name, side=side))
    for s in (Nationality.US, Nationality.DE):
        _deal(st, cdef, cat, s, date)
    return st


def _side(word: str) -> Nationality:
    try:
        return Nationality(str(word).strip().upper())
    except ValueError:
        raise CampaignError(f"The sides are US and DE, not {word!r}.") from None


def _cost(cat: Catalog, e: CompanyEntry) -> int:
    if e.kind == Kind.VEHICLE:
        return cat.vehicles[e.vehicle].vp
    return cat.soldiers[e.serial].profile(e.rank).vp


def _lots(company: list[CompanyEntry]) -> list[list[CompanyEntry]]:
    """What is dealt as one: a vehicle with its crew, else a man alone."""
    by_serial = {e.serial: e for e in company}
    crewed = {serial for e in company if e.kind == Kind.VEHICLE for serial in e.crew or []}
    lots = []
    for e in company:
        if e.kind == Kind.VEHICLE:
            lots.append([e, *(by_serial[s] for s in e.crew or [])])
        elif e.serial not in crewed:
            lots.append([e])
    return lots


def _deal(st: CampaignState, cdef: CampaignDef, cat: Catalog, side: Nationality, date: str) -> None:
    """The dearest lot first (a man, or a vehicle with its crew), each to the player whose
    share is cheapest so far (as the engine shares a preset squad), so leaders and vehicles
    spread across the side's players."""
    players = st.side_players(side)
    if not players:
        return
    lots = _lots(cdef.sides[side].company)
    if len(lots) < len(players):
        raise CampaignError(f"The {side.value} company has too few men for {len(players)} players.")
    shares: list[list[CompanyEntry]] = [[] for _ in players]
    cost = [0] * len(players)
    for lot in sorted(lots, key=lambda lot: (-sum(_cost(cat, e) for e in lot), lot[0].serial)):
        k = min(range(len(players)), key=lambda i: (cost[i], len(shares[i]), i))
        shares[k] += lot
        cost[k] += sum(_cost(cat, e) for e in lot)
    for p, share in zip(players, shares):
        p.roster = [_from_company(cat, e, side, date) for e in sorted(share, key=lambda e: e.serial)]
        p.strength = sum(1 for e in share if e.kind != Kind.VEHICLE)
        p.pick, p.pick_vehicles = None, []


def _from_company(cat: Catalog, e: CompanyEntry, side: Nationality, date: str) -> RosterEntry:
    if e.kind == Kind.VEHICLE:
        entry = RosterEntry(serial=e.serial, name=e.name, side=side, kind=Kind.VEHICLE, rank=None,
                            vehicle=e.vehicle, crew=list(e.crew or []))
    else:
        entry = new_entry(cat, e.serial, e.rank)
    entry.note(date, "Joined the company at the start of the campaign.")
    return entry


def begin(st: CampaignState) -> CampaignState:
    """Close enlisting: from now on the rosters are the players' own."""
    if st.status == "finished":
        raise CampaignError("This campaign is over.")
    if st.status == "running":
        return st
    sides = {p.side for p in st.players}
    if sides != {Nationality.US, Nationality.DE}:
        raise CampaignError("Both sides need a player before the first scenario (`campaign join`).")
    return st.model_copy(update={"status": "running"})


def enlist(st: CampaignState, cat: Catalog, user_id: int, serial: int | None, date: str, *,
           organiser: bool = False) -> tuple[CampaignState, str]:
    """A recruit from the depot joins the player's roster: the one named, else the next in line.
    A player fills open places only; the organiser may enlist beyond them. Every recruit starts
    as a private, leaders too: every leader began as a private somewhere (core manual, Leaders)."""
    if st.status == "finished":
        raise CampaignError("This campaign is over.")
    st = st.model_copy(deep=True)
    p = st.player(user_id)
    depot = st.depot.get(p.side, [])
    if not organiser and p.open_places == 0:
        raise CampaignError(f"{p.name}'s roster is at full strength ({p.strength}); recruits come when "
                            "men fall, or when the organiser sends them.")
    if serial is None:
        if not depot:
            raise CampaignError(f"The {p.side.value} depot is empty: no recruits are left.")
        serial = depot[0]
    if serial not in depot:
        where = st.owner_of(serial)
        if where is not None:
            raise CampaignError(f"Dog tag {serial} is already on {where.name}'s roster.")
        raise CampaignError(f"Dog tag {serial} is not in the {p.side.value} depot; it holds "
                            + (", ".join(f"{cat.soldiers[s].name} ({s})" for s in depot) or "nobody") + ".")
    depot.remove(serial)
    entry = new_entry(cat, serial, Rank.PRIVATE, joined=st.number)
    after = f" after scenario {st.number}" if st.number else ""
    entry.note(date, f"Enlisted as a replacement{after}.", result=st.number or None)
    p.roster.append(entry)
    line = f"{cat.soldiers[serial].name} ({serial}) joins {p.name}'s roster as a private"
    vehicle = _crew_needing(p, entry)
    if vehicle is not None:  # a replacement crewman joins the crew of the vehicle he trained on
        vehicle.crew.append(serial)
        vehicle.note(date, f"{entry.name} ({serial}) joins the crew as {entry.training.role.value}.",
                     result=st.number or None)
        line += f" and the crew of {vehicle.name} ({vehicle.serial})"
    return st, line + "."


def _crew_needing(p: Player, entry: RosterEntry) -> RosterEntry | None:
    """The player's vehicle of the type a recruit crewman trained on, still in service; of two of
    the type, the one with the fewer crewmen (the first on the roster when they have as many)."""
    if entry.training is None:
        return None
    vehicles = [v for v in p.roster if v.kind == Kind.VEHICLE and v.vehicle == entry.training.vehicle
                and v.status in (Status.FIT, Status.WORKSHOP)]
    return min(vehicles, key=lambda v: len(v.crew), default=None)


def fill_open_places(st: CampaignState, cat: Catalog, date: str) -> tuple[CampaignState, list[str]]:
    """Before a scenario: the depot sends its next men to every open place still empty."""
    lines = []
    for p in st.players:
        while st.player(p.user_id).open_places and st.depot.get(p.side):
            st, line = enlist(st, cat, p.user_id, None, date)
            lines.append(line)
    return st, lines
