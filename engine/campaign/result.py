"""A finished scenario's result, and what it does to the rosters.

`result_from_game` reads a finished game's state into a `ScenarioResult` (who fought for whom,
who fell, who was taken, every kill, prisoner and VP, what became of each vehicle);
`apply_result` carries it into the campaign: fates, wounds and recovery, kills and prisoners to
the men who made them, vehicles destroyed, lost, recovered or sent to the workshop, VP to the
players, awards by the table, promotions, the next step. Both are pure: the use-cases store.
"""
from __future__ import annotations

import hashlib
from typing import Literal

from pydantic import Field

from engine.campaign.definition import CampaignDef
from engine.campaign.honours import (
    automatic_awards,
    medals_in_play,
    promote,
    promotion_due,
)
from engine.campaign.roster import (
    CampaignError,
    CampaignState,
    Fate,
    Kind,
    Model,
    PendingChoice,
    ResultRecord,
    RosterEntry,
    SoldierOutcome,
    Status,
)
from engine.core.content import Catalog, Nationality
from engine.core.state import GameState
from engine.core.wording import plural
from engine.core.words import new_list

VehicleFate = Literal["fit", "destroyed", "abandoned"]


class VehicleOutcome(Model):
    plate: int
    user_id: int
    fate: VehicleFate
    damage: dict[str, list[str]] = Field(default_factory=dict)  # its markers at the end, by location
    crew: list[int] = Field(default_factory=new_list)  # the men who started in it
    kills: int = 0  # men its crew killed
    knocked_out: int = 0  # enemy vehicles and guns its crew destroyed


class PlayerOutcome(Model):
    user_id: int
    seat: int
    side: Nationality
    own_vp: int  # VP entries of his seat
    shared_vp: int  # his share of his side's VP that no seat scored (events, enemy friendly fire)
    lines: list[str] = Field(default_factory=new_list)  # "+3 killed Pvt. Haskell"
    order_done: bool = False

    @property
    def vp(self) -> int:
        return self.own_vp + self.shared_vp


class ScenarioResult(Model):
    key: str  # what makes two submissions the same result: a game id or a digest of its final state
    step: str
    scenario: str
    winner: Nationality | None
    reason: str
    side_vp: dict[str, int]
    players: list[PlayerOutcome]
    soldiers: list[SoldierOutcome]
    vehicles: list[VehicleOutcome] = Field(default_factory=new_list)
    outsiders: list[int] = Field(default_factory=new_list)  # men and vehicles in the game on no roster


def state_key(state: GameState) -> str:
    return "state:" + hashlib.sha256(state.model_dump_json().encode()).hexdigest()[:32]


def shares(amount: int, n: int) -> list[int]:
    """`amount` split over n players in whole VP, the odd ones to the first: the sum is exact."""
    base, extra = divmod(amount, n)
    return [base + (1 if i < extra else 0) for i in range(n)]


def _fate(s) -> Fate:
    if s.status == "dead":
        return "killed"
    if s.captor is not None:
        return "captured"
    return "wounded" if s.wounded else "fit"


def result_from_game(st: CampaignState, cdef: CampaignDef, game: GameState, seat_users: list[int], *,
                     key: str | None = None) -> ScenarioResult:
    """The result of a finished game of the campaign's next step; `seat_users[i]` is the user id
    of seat i. Refused if the game is not over, is another scenario, or its forces are not the
    rosters of the players named."""
    if game.step != "over" or game.result is None:
        raise CampaignError("That game is not over yet; a result is recorded when it ends.")
    if st.step is None:
        raise CampaignError("This campaign expects no scenario now" + (
            " (the winner chooses where it goes next)." if st.choice else "."))
    step = cdef.step(st.step)
    if game.setup.scenario.id != step.scenario:
        raise CampaignError(f"The campaign's next scenario is {step.scenario}, not {game.setup.scenario.id}.")
    if len(seat_users) != len(game.seats):
        raise CampaignError(f"The game has {len(game.seats)} seats but {len(seat_users)} players were named.")
    for seat, user in zip(game.seats, seat_users):
        p = st.player(user)
        if p.side != seat.side:
            raise CampaignError(f"{p.name} fights for {p.side.value} in this campaign, not {seat.side.value}.")
    soldiers, outsiders = [], []
    for serial in sorted(game.soldiers):
        s = game.soldiers[serial]
        owner = st.owner_of(serial)
        if owner is None:
            if s.status != "reserve":
                outsiders.append(serial)
            continue
        user = seat_users[game.forces[s.force].seat]
        if user != owner.user_id:
            raise CampaignError(f"{owner.entry(serial).name} ({serial}) is on {owner.name}'s roster but fought "
                                f"for {st.player(user).name}.")
        if s.status == "reserve":
            continue
        entry = owner.entry(serial)
        force = game.forces[s.force]
        rank, medals = _fought_as(entry, game)
        if s.rank != rank or s.medals != medals:
            raise CampaignError(f"{entry.name} ({serial}) fought as {s.rank.value} with {s.medals} medal cards; "
                                f"his roster says {rank.value} with {medals}.")
        seat = force.seat
        vp = sum(2 * game.vp_value(p.serial) for p in game.soldiers.values()
                 if p.captor == serial and p.status in ("board", "exited"))
        vp += sum(e.amount for e in game.vp if e.kind == "kill" and e.by == serial and e.seat == seat)
        if s.deeds.get("orders"):
            vp += sum(e.amount for e in game.vp if e.kind == "orders" and e.seat == seat)
        soldiers.append(SoldierOutcome(serial=serial, user_id=user, fate=_fate(s), kills=s.kills,
                                       captures=s.captures, deeds=dict(s.deeds), vp=vp,
                                       knocked_out=_knocked_out(game, {serial}),
                                       vehicle=force.plate if force.kind == "vehicle" else None))
    vehicles = []
    for plate in sorted(game.vehicles):
        vs = game.vehicles[plate]
        owner = st.owner_of(plate)
        if owner is None:
            outsiders.append(plate)
            continue
        user = seat_users[game.forces[vs.force].seat]
        if user != owner.user_id:
            raise CampaignError(f"{owner.entry(plate).name} ({plate}) is on {owner.name}'s roster but fought for "
                                f"{st.player(user).name}.")
        crew = sorted(s.serial for s in game.soldiers.values() if s.force == vs.force)
        fate = vs.status if vs.status in ("destroyed", "abandoned") else "fit"
        vehicles.append(VehicleOutcome(plate=plate, user_id=user, fate=fate,
                                       damage={loc: list(m) for loc, m in vs.damage.items() if m}, crew=crew,
                                       kills=sum(game.soldiers[n].kills for n in crew),
                                       knocked_out=_knocked_out(game, set(crew))))
    players = []
    for side in sorted({seat.side for seat in game.seats}):
        seats = [seat for seat in game.seats if seat.side == side]
        shared = sum(e.amount for e in game.vp if e.seat is None and e.side == side)
        for seat, share in zip(seats, shares(shared, len(seats))):
            entries = [e for e in game.vp if e.seat == seat.index]
            players.append(PlayerOutcome(
                user_id=seat_users[seat.index], seat=seat.index, side=seat.side,
                own_vp=sum(e.amount for e in entries), shared_vp=share,
                lines=[f"{e.amount:+d} {e.reason}" for e in entries], order_done=seat.order_done))
    players.sort(key=lambda p: p.seat)
    r = game.result
    return ScenarioResult(key=key or state_key(game), step=step.id, scenario=step.scenario, winner=r.winner,
                          reason=r.reason, side_vp=dict(r.vp), players=players, soldiers=soldiers,
                          vehicles=vehicles, outsiders=outsiders)


def _fought_as(entry: RosterEntry, game: GameState):
    """The rank and medal cards he must have fought with: his roster's, on foot or in a vehicle's
    crew (`VehicleEntry.ranks` and `.medals` seat a crewman at his roster rank)."""
    d = game.setup.soldiers[entry.serial]
    return entry.rank, medals_in_play(entry, d)


def _knocked_out(game: GameState, men: set[int]) -> int:
    """Enemy vehicles and guns these men destroyed (the VP log names the plate and the shooter)."""
    return sum(1 for e in game.vp if e.kind == "kill" and e.by in men and e.serial in game.vehicles
               and game.vehicles[e.serial].side != game.soldiers[e.by].side)


def check_result(st: CampaignState, result: ScenarioResult) -> None:
    """Refuse a result the campaign cannot take: applied already, for another step, or naming a
    man who could not have fought (a killed soldier never fights again)."""
    if result.key in st.applied:
        raise CampaignError("That result has been applied already; the same result is never applied twice.")
    if st.status != "running":
        raise CampaignError("This campaign is over." if st.status == "finished" else
                            "This campaign has not begun; its first scenario begins it.")
    if result.step != st.step:
        raise CampaignError(f"That result is for step {result.step!r}; the campaign is at "
                            f"{st.step or 'a branch the winner chooses'}.")
    seen = set()
    for o in result.soldiers:
        if o.serial in seen:
            raise CampaignError(f"Dog tag {o.serial} appears twice in the result.")
        seen.add(o.serial)
        p = st.player(o.user_id)
        e = p.entry(o.serial)
        if e is None:
            raise CampaignError(f"Dog tag {o.serial} is not on {p.name}'s roster.")
        if e.status != Status.FIT:
            raise CampaignError(f"{e.name} ({e.serial}) is {e.status.value} and cannot have fought in this "
                                "scenario; a killed, captured, missing or wounded man sits it out.")
    for o in result.vehicles:
        if o.plate in seen:
            raise CampaignError(f"Plate {o.plate} appears twice in the result.")
        seen.add(o.plate)
        p = st.player(o.user_id)
        e = p.entry(o.plate)
        if e is None or e.kind != Kind.VEHICLE:
            raise CampaignError(f"Plate {o.plate} is not a vehicle on {p.name}'s roster.")
        if e.status != Status.FIT:
            raise CampaignError(f"{e.name} ({e.serial}) is {e.status.value} and cannot have fought in this "
                                "scenario.")
    for po in result.players:
        st.player(po.user_id)


def apply_result(st: CampaignState, cdef: CampaignDef, cat: Catalog, result: ScenarioResult,
                 date: str) -> tuple[CampaignState, list[str]]:
    """The campaign after the result, and what changed, line by line (for the organiser's review)."""
    check_result(st, result)
    st = st.model_copy(deep=True)
    n = st.number + 1
    sc = cat.scenario(result.scenario)
    lines: list[str] = []
    # Recovery: a man wounded in an earlier scenario who sat this one out is fit again
    for p in st.players:
        for e in p.roster:
            if e.status == Status.WOUNDED and e.out_until is not None and e.out_until <= n:
                e.status, e.out_until = Status.FIT, None
                e.note(date, "Back on duty, his wound healed.", result=n)
                lines.append(f"{e.name} ({e.serial}) is back on duty.")
            elif e.status == Status.WORKSHOP and e.out_until is not None and e.out_until <= n:
                e.status, e.out_until, e.damage = Status.FIT, None, {}
                e.note(date, "Back from the workshop, repaired.", result=n)
                lines.append(f"{e.name} ({e.serial}) is back from the workshop.")
    for o in result.soldiers:
        p = st.player(o.user_id)
        e = p.entry(o.serial)
        e.served.append(n)
        e.served_at_rank += 1
        e.kills += o.kills
        e.knocked_out += o.knocked_out
        e.captures += o.captures
        e.vp_earned += o.vp
        deeds = _deeds_words(o)
        seat = f" in {p.entry(o.vehicle).name}'s crew" if o.vehicle and p.entry(o.vehicle) else ""
        e.note(date, f"Fought at {sc.name}{seat}" + (f": {deeds}." if deeds else "."), result=n,
               notable=bool(o.kills or o.captures or o.knocked_out))
        if o.fate == "killed":
            e.status = Status.KILLED
            e.note(date, f"Killed in action at {sc.name}.", result=n, notable=True)
            lines.append(f"{e.name} ({e.serial}) of {p.name} is killed in action.")
            lines += _leaves_crew(st, e, "killed in action", date, n)
        elif o.fate == "captured":
            e.status = Status.CAPTURED
            e.note(date, f"Taken prisoner at {sc.name}.", result=n, notable=True)
            lines.append(f"{e.name} ({e.serial}) of {p.name} is a prisoner of war.")
            lines += _leaves_crew(st, e, "taken prisoner", date, n)
        elif o.fate == "wounded":
            e.wounds += 1
            if result.winner == p.side:
                # Recovery rule: the side that held the field gets its wounded to the aid station
                e.note(date, f"Wounded at {sc.name}; his side held the field and the aid station patched "
                             "him up in time for the next fight.", result=n, notable=True)
                lines.append(f"{e.name} ({e.serial}) of {p.name} is wounded, treated and fit.")
            else:
                e.status, e.out_until = Status.WOUNDED, n + 1
                e.note(date, f"Wounded at {sc.name}; he sits out the next scenario.", result=n, notable=True)
                lines.append(f"{e.name} ({e.serial}) of {p.name} is wounded and sits out the next scenario.")
        if o.kills or o.captures or o.knocked_out:
            lines.append(f"{e.name} ({e.serial}) is credited with {_deeds_words(o, only_scores=True)}.")
        lines += automatic_awards(e, o, date, n)
        if promotion_due(e, o, cat):
            lines.append(promote(e, cat, date=date, why=f"{e.served_at_rank} scenarios at his rank", result=n))
    for o in result.vehicles:
        lines += _vehicle_back(st, cat, result, o, sc.name, date, n)
    vp = {po.user_id: po.vp for po in result.players}
    for po in result.players:
        lines.append(f"{st.player(po.user_id).name}: {po.vp} VP" + (
            f" ({po.own_vp} his own, {po.shared_vp:+d} shared by his side)" if po.shared_vp else "") + ".")
    for p in st.players:
        p.pick, p.pick_vehicles = None, []
        if p.open_places:
            lines.append(f"{p.name} has {plural(p.open_places, 'open place')} for recruits (`campaign enlist`).")
    winner = result.winner.value if result.winner else None
    summary = f"{sc.name}: " + (f"{winner} wins" if winner else "a draw") + f" ({result.reason})."
    st.history.append(ResultRecord(number=n, key=result.key, step=result.step, scenario=result.scenario,
                                   winner=result.winner, reason=result.reason, side_vp=dict(result.side_vp),
                                   vp=vp, date=date, lines=[summary, *lines]))
    st.applied.append(result.key)
    lines.insert(0, summary)
    lines += _advance(st, cdef, result)
    return st, lines


def _leaves_crew(st: CampaignState, man: RosterEntry, why: str, date: str, n: int) -> list[str]:
    """A crewman killed or taken is struck off his vehicle's crew; the depot may send another."""
    vehicle = st.vehicle_of(man.serial)
    if vehicle is None:
        return []
    vehicle.crew.remove(man.serial)
    vehicle.note(date, f"Lost {man.name} ({man.serial}) from its crew, {why}.", result=n, notable=True)
    return [f"{vehicle.name} ({vehicle.serial}) has lost {man.name} from its crew."]


def _vehicle_back(st: CampaignState, cat: Catalog, result: ScenarioResult, o: VehicleOutcome, where: str,
                  date: str, n: int) -> list[str]:
    """What became of a vehicle (docs/campaigns.md, Crews and vehicles): destroyed, it is gone;
    abandoned, it is recovered only if its side held the field; a survivor's Wreck markers are
    mended by its crew, while a Critical or a fire sends it to the workshop for the next scenario."""
    p = st.player(o.user_id)
    e = p.entry(o.plate)
    e.served.append(n)
    e.kills += o.kills
    e.knocked_out += o.knocked_out
    scores = _deeds_words(SoldierOutcome(serial=o.plate, user_id=o.user_id, fate="fit", kills=o.kills,
                                         knocked_out=o.knocked_out), only_scores=True)
    e.note(date, f"Fought at {where}" + (f": its crew made {scores}." if scores else "."), result=n,
           notable=bool(scores))
    lines = [f"{e.name} ({e.serial}) is credited with {scores}."] if scores else []
    if o.fate == "destroyed":
        e.status = Status.DESTROYED
        e.note(date, f"Destroyed at {where}.", result=n, notable=True)
        return [*lines, f"{e.name} ({e.serial}) of {p.name} was destroyed."]
    if o.fate == "abandoned" and result.winner != p.side:
        e.status = Status.LOST
        e.note(date, f"Abandoned at {where} on a field its side did not hold: lost.", result=n, notable=True)
        return [*lines, f"{e.name} ({e.serial}) of {p.name} was abandoned and is lost."]
    if o.fate == "abandoned":
        e.note(date, f"Abandoned at {where}; its side held the field and recovered it.", result=n, notable=True)
        lines.append(f"{e.name} ({e.serial}) of {p.name} was abandoned and recovered.")
    serious = {loc: m for loc, m in o.damage.items() if {"critical", "fire"} & set(m)}
    vdef = cat.vehicles[e.vehicle]
    if serious:
        e.status, e.out_until, e.damage = Status.WORKSHOP, n + 1, {loc: list(m) for loc, m in o.damage.items()}
        what = ", ".join(f"{vdef.location(loc).name} ({' and '.join(x.capitalize() for x in m)})"
                         for loc, m in serious.items())
        e.note(date, f"To the workshop for {what}; it misses the next scenario.", result=n, notable=True)
        lines.append(f"{e.name} ({e.serial}) goes to the workshop ({what}) and misses the next scenario.")
    elif o.damage:
        what = ", ".join(vdef.location(loc).name for loc in o.damage)
        e.note(date, f"Its crew mended the wrecked {what}.", result=n)
        lines.append(f"{e.name} ({e.serial}): its crew mends the wrecked {what}.")
    return lines


def _deeds_words(o: SoldierOutcome, only_scores: bool = False) -> str:
    words = []
    if o.kills:
        words.append(plural(o.kills, "kill"))
    if o.knocked_out:
        words.append(plural(o.knocked_out, "vehicle") + " knocked out")
    if o.captures:
        words.append(plural(o.captures, "prisoner") + " taken")
    if o.vp and only_scores:
        words.append(f"{o.vp} VP")
    if not only_scores:
        for key, word, many in (("hits", "hit", None), ("rallied_others", "rally", "rallies"),
                                ("charges", "charge", None)):
            if o.deeds.get(key):
                words.append(plural(o.deeds[key], word, many))
        if o.deeds.get("orders"):
            words.append("carried out the orders")
    return ", ".join(words)


def _advance(st: CampaignState, cdef: CampaignDef, result: ScenarioResult) -> list[str]:
    """Move to the step the result unlocks (a linear next, a step per winner, or the winner's choice)."""
    nxt = cdef.step(result.step).next
    if nxt is None:
        st.status, st.step = "finished", None
        return [f"The campaign is over. {standing_words(st)}"]
    if isinstance(nxt, str):
        st.step = nxt
    elif result.winner is None:
        st.step = nxt.draw
    elif nxt.winner:
        st.step = nxt.winner[result.winner]
    else:
        st.step = None
        st.choice = PendingChoice(after=result.step, side=result.winner, options=list(nxt.choose))
        names = ", ".join(f"{o} ({cdef.step(o).title or o})" for o in nxt.choose)
        return [f"{result.winner.value} won and chooses where the campaign goes next: {names} (`campaign choose`)."]
    return [f"Next: {cdef.step(st.step).title or st.step}."]


def choose_branch(st: CampaignState, cdef: CampaignDef, user_id: int, option: str, *,
                  organiser: bool = False) -> tuple[CampaignState, str]:
    """The winning side (or the organiser) picks the branch the campaign takes."""
    if st.choice is None:
        raise CampaignError("There is no choice to make now.")
    if not organiser:
        p = st.player(user_id)
        if p.side != st.choice.side:
            raise CampaignError(f"The winners ({st.choice.side.value}) choose the next step.")
    if option not in st.choice.options:
        raise CampaignError(f"Choose one of {', '.join(st.choice.options)}, not {option!r}.")
    st = st.model_copy(deep=True)
    st.step, st.choice = option, None
    return st, f"The campaign goes on to {cdef.step(option).title or option}."


def standing_words(st: CampaignState) -> str:
    totals: dict[str, int] = {}
    for r in st.history:
        for side, v in r.side_vp.items():
            totals[side] = totals.get(side, 0) + v
    if not totals:
        return ""
    best = max(totals.values())
    top = [s for s, v in totals.items() if v == best]
    score = ", ".join(f"{s} {v} VP" for s, v in sorted(totals.items()))
    return f"{score}: " + (f"{top[0]} wins the campaign." if len(top) == 1 else "the campaign is drawn.")
