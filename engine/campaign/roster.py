"""The campaign's people and machines: each player's roster of soldiers, crewmen and vehicles,
what happened to each, and the company and depot they come from.

A roster soldier is one of the catalogue's soldiers, known by his dog tag for the whole
campaign: he keeps his name, his rank (which can rise), his status, his medals and badges per
rank, his kills, prisoners, scenarios and a dated service log. A crewman is a soldier trained
on one vehicle or gun (his card says which). A vehicle is known by its license plate: its
status, its crew, the damage waiting for the workshop, its kills. A dog tag or plate is on at
most one roster of a campaign, and a soldier who left the depot never goes back to it.
"""
from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.core.content import Catalog, ForceEntry, Nationality, Rank, VehicleEntry
from engine.core.errors import RuleError
from engine.core.vehicle_content import Role
from engine.core.words import new_list


class CampaignError(RuleError):
    """A campaign action the rules do not allow; the message says why, for the player."""


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Status(StrEnum):
    FIT = "fit"
    WOUNDED = "wounded"  # sits out scenarios until `out_until` is confirmed (docs/campaigns.md)
    KILLED = "killed"  # killed in action: never fights again
    CAPTURED = "captured"  # a prisoner of the enemy when his last scenario ended
    MISSING = "missing"  # the organiser's mark for a man whose fate is not known
    # vehicles (docs/campaigns.md, Crews and vehicles)
    WORKSHOP = "workshop"  # a Critical or a fire: misses scenarios until `out_until` is confirmed
    DESTROYED = "destroyed"  # knocked out: lost for the campaign
    LOST = "lost"  # abandoned on a field its side did not hold


STATUS_WORDS = {Status.FIT: "fit", Status.WOUNDED: "wounded", Status.KILLED: "killed in action",
                Status.CAPTURED: "prisoner of war", Status.MISSING: "missing", Status.WORKSHOP: "in the workshop",
                Status.DESTROYED: "destroyed", Status.LOST: "abandoned and lost"}
ON_THE_BOOKS = (Status.FIT, Status.WOUNDED)  # men who count toward a player's strength
MEN_STATUSES = (Status.FIT, Status.WOUNDED, Status.KILLED, Status.CAPTURED, Status.MISSING)
VEHICLE_STATUSES = (Status.FIT, Status.WORKSHOP, Status.DESTROYED, Status.LOST)


# How far a vehicle's crew may be made up when a man it needs is missing (docs/campaigns.md)
ShortCrews = Literal["stay_home", "cross_trained", "untrained"]
SHORT_CREWS: tuple[str, ...] = ("stay_home", "cross_trained", "untrained")


class Kind(StrEnum):
    SOLDIER = "soldier"
    CREWMAN = "crewman"  # a soldier trained on one vehicle or gun (Hell on Wheels, Crew)
    VEHICLE = "vehicle"  # a vehicle or gun, known by its license plate


class Training(Model):
    """A crewman's training, as his card gives it: his role and the vehicle or gun (its id in
    assets/vehicles) he trained on; he counts as untrained on any other (Hell on Wheels, Crew)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    role: Role
    vehicle: str = Field(min_length=1)


class Honour(Model):
    """A medal or badge, attached to the rank he held when he earned it."""

    category: Literal["medal", "badge"]
    award: str  # an id of engine.campaign.honours.AWARDS
    name: str  # what his army calls it
    rank: Rank
    result: int | None = None  # the scenario (result number) that earned it
    citation: str = ""
    by: Literal["criteria", "organiser"] = "criteria"
    date: str = ""


class LogEntry(Model):
    date: str
    result: int | None = None  # the result number it belongs to
    text: str
    notable: bool = False  # shown on the service record


class RosterEntry(Model):
    serial: int
    name: str
    side: Nationality
    kind: Kind = Kind.SOLDIER
    rank: Rank | None = Rank.PRIVATE  # None for a vehicle
    status: Status = Status.FIT
    out_until: int | None = None  # wounded: fit again once this result number is confirmed
    training: Training | None = None  # crewmen
    vehicle: str | None = None  # vehicles: the type (a VehicleDef id)
    crew: list[int] = Field(default_factory=new_list)  # vehicles: the crewmen assigned to it
    damage: dict[str, list[str]] = Field(default_factory=dict)  # vehicles: markers the workshop repairs
    honours: list[Honour] = Field(default_factory=new_list)
    kills: int = 0  # men killed (a vehicle: by its crew)
    knocked_out: int = 0  # enemy vehicles and guns destroyed (a vehicle: by its crew)
    captures: int = 0
    served: list[int] = Field(default_factory=new_list)  # result numbers of the scenarios he fought
    served_at_rank: int = 0  # scenarios fought since his last promotion
    wounds: int = 0
    vp_earned: int = 0  # VP he brought his player that the game credits to him (docs/campaigns.md)
    joined: int = 0  # the result number after which he joined; 0: with the company
    log: list[LogEntry] = Field(default_factory=new_list)

    @property
    def is_man(self) -> bool:
        return self.kind != Kind.VEHICLE

    def honours_at(self, category: str, rank: Rank | None = None) -> list[Honour]:
        rank = rank or self.rank
        return [h for h in self.honours if h.category == category and h.rank == rank]

    def note(self, date: str, text: str, result: int | None = None, notable: bool = False) -> None:
        self.log.append(LogEntry(date=date, result=result, text=text, notable=notable))


class Player(Model):
    user_id: int
    name: str
    side: Nationality
    strength: int = 0  # men he started with: losses below it open places for recruits
    roster: list[RosterEntry] = Field(default_factory=new_list)
    pick: list[ForceEntry] | None = None  # his men on foot for the next scenario; None: chosen for him
    pick_vehicles: list[VehicleEntry] = Field(default_factory=new_list)  # with a pick: his vehicles and crews

    def entry(self, serial: int) -> RosterEntry | None:
        return next((e for e in self.roster if e.serial == serial), None)

    @property
    def open_places(self) -> int:
        men = [e for e in self.roster if e.kind != Kind.VEHICLE and e.status in ON_THE_BOOKS]
        return max(0, self.strength - len(men))


class ResultRecord(Model):
    """A confirmed scenario result, as the campaign's history keeps it."""

    number: int
    key: str
    step: str
    scenario: str
    winner: Nationality | None
    reason: str
    side_vp: dict[str, int]
    vp: dict[int, int]  # by user id: his own VP plus his share of his side's
    date: str
    lines: list[str] = Field(default_factory=new_list)


class PendingChoice(Model):
    """A branch the winning side chooses before the next scenario."""

    after: str  # the step just played
    side: Nationality
    options: list[str]


class CampaignState(Model):
    definition: str
    name: str
    organiser: int
    status: Literal["enlisting", "running", "finished"] = "enlisting"
    step: str | None = None  # the step to play next
    choice: PendingChoice | None = None
    players: list[Player] = Field(default_factory=new_list)
    depot: dict[Nationality, list[int]] = Field(default_factory=dict)
    history: list[ResultRecord] = Field(default_factory=new_list)
    applied: list[str] = Field(default_factory=new_list)  # keys of the results applied
    short_crews: ShortCrews | None = None  # the organiser's short-crews rule; None: the definition's
    created: str = ""

    @property
    def number(self) -> int:
        """How many results have been applied."""
        return len(self.history)

    def player(self, user_id: int) -> Player:
        for p in self.players:
            if p.user_id == user_id:
                return p
        raise CampaignError("You have not joined this campaign (`campaign join`).")

    def vehicle_of(self, serial: int) -> RosterEntry | None:
        """The roster vehicle whose crew he belongs to."""
        return next((e for p in self.players for e in p.roster if e.kind == Kind.VEHICLE and serial in e.crew), None)

    def has_player(self, user_id: int) -> bool:
        return any(p.user_id == user_id for p in self.players)

    def owner_of(self, serial: int) -> Player | None:
        return next((p for p in self.players if p.entry(serial) is not None), None)

    def entry(self, serial: int) -> RosterEntry:
        owner = self.owner_of(serial)
        if owner is None:
            raise CampaignError(f"No roster in this campaign has dog tag {serial}.")
        return owner.entry(serial)

    def side_players(self, side: str) -> list[Player]:
        return [p for p in self.players if p.side == side]


def new_entry(cat: Catalog, serial: int, rank: Rank, joined: int = 0) -> RosterEntry:
    """A man as his card makes him: a crewman (with his training) if it names one."""
    d = cat.soldiers[serial]
    training = Training(role=d.crew.role, vehicle=d.crew.vehicle) if d.crew else None
    return RosterEntry(serial=serial, name=d.name, side=d.nationality, kind=Kind.CREWMAN if training else Kind.SOLDIER,
                       rank=rank, training=training, joined=joined)


# What the organiser may set by hand, from what (a killed man stays killed)
MARKS: dict[Status, tuple[Status, ...]] = {
    Status.FIT: (Status.WOUNDED, Status.CAPTURED, Status.MISSING),  # treated, exchanged, found
    Status.MISSING: (Status.FIT, Status.WOUNDED),  # lost: his fate is not known
    Status.KILLED: (Status.MISSING,),  # a missing man found dead
    Status.CAPTURED: (Status.MISSING,),  # a missing man turns up in the enemy's hands
}
VEHICLE_MARKS: dict[Status, tuple[Status, ...]] = {
    Status.FIT: (Status.WORKSHOP, Status.LOST),  # repaired early, recovered after all
    Status.WORKSHOP: (Status.FIT,),  # sent back for repairs
    Status.LOST: (Status.FIT, Status.WORKSHOP),  # a vehicle given up for lost
}


def mark(st: CampaignState, serial: int, status: str, note: str, date: str) -> tuple[CampaignState, str]:
    """The organiser corrects a man's status: treats a wounded man, gets a prisoner exchanged,
    reports one missing or found. A killed soldier never comes back."""
    try:
        new = Status(status.strip().lower())
    except ValueError:
        raise CampaignError(f"A status is one of {', '.join(s.value for s in Status)}, not {status!r}.") from None
    st = st.model_copy(deep=True)
    e = st.entry(serial)
    if e.status == new:
        raise CampaignError(f"{e.name} is {STATUS_WORDS[new]} already.")
    if e.kind == Kind.VEHICLE:
        if e.status not in VEHICLE_MARKS.get(new, ()):
            raise CampaignError(f"{e.name} is {STATUS_WORDS[e.status]}; the organiser cannot make it {new.value}"
                                + (" (a destroyed vehicle is gone for good)." if e.status == Status.DESTROYED
                                   else f"; a vehicle is one of {', '.join(s.value for s in VEHICLE_STATUSES)}."))
        if new == Status.FIT:
            e.damage = {}
    elif e.status not in MARKS.get(new, ()):
        raise CampaignError(f"{e.name} is {STATUS_WORDS[e.status]}; the organiser cannot make him {new.value}"
                            + (" (a killed soldier never fights again)." if e.status == Status.KILLED else "."))
    old = e.status
    e.status = new
    e.out_until = None
    e.note(date, f"Marked {STATUS_WORDS[new]} (was {STATUS_WORDS[old]}): {note}.", notable=True)
    return st, f"{e.name} ({e.serial}) is now {STATUS_WORDS[new]}: {note}."


# a soldier's part in one scenario's result (engine/campaign/result.py), which the honours judge
Fate = Literal["fit", "wounded", "killed", "captured"]


class SoldierOutcome(Model):
    serial: int
    user_id: int  # whose roster he is on
    fate: Fate
    kills: int = 0
    captures: int = 0  # prisoners he took
    deeds: dict[str, int] = Field(default_factory=dict)
    vp: int = 0  # VP the game credits to him: his kills, prisoners held at the end, orders carried out
    knocked_out: int = 0  # enemy vehicles and guns he destroyed
    vehicle: int | None = None  # the plate of the vehicle he crewed
