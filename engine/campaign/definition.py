"""Campaign definitions: the company each side starts with (men, crewmen and vehicles), the
depot its replacements come from, and the scenarios (steps) in order, each with its force
budget, who may take part, whether vehicles go, and what its result unlocks. Data in
`campaigns/<id>/campaign.yaml`, validated like all content: a broken entry fails loading with
a message naming the file, the entry and the field.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from engine.campaign.roster import Kind, ShortCrews, Training
from engine.core.content import (
    Catalog,
    Frozen,
    Nationality,
    Rank,
    _read_yaml,
    _validate,
    default_root,
)
from engine.core.errors import ContentError
from engine.turn.setup import budget
from engine.core.vehicle_content import PLATE_STEP
from engine.core.words import new_list

STEP_ID = r"^[a-z0-9][a-z0-9-]*$"
RANK_ORDER = (Rank.PRIVATE, Rank.JUNIOR_NCO, Rank.SENIOR_NCO)


# Whether a side's vehicles go to a step: not at all, if the player takes them, or always
VehicleRule = Literal["none", "allowed", "required"]


class CompanyEntry(Frozen):
    """One man, crewman or vehicle of a side's starting company."""

    serial: int | None = Field(None, ge=1, description="dog tag; a vehicle's is its license plate (default)")
    kind: Kind = Kind.SOLDIER
    rank: Rank = Rank.PRIVATE
    training: Training | None = Field(None, description="crewmen: as on his card (left out: taken from it)")
    name: str | None = Field(None, description="vehicles only: the name painted on it")
    vehicle: str | None = Field(None, description="vehicles only: the vehicle or gun id (assets/vehicles)")
    crew: list[int] | None = Field(None, description="vehicles only: its crewmen's dog tags; left out: the "
                                                     "company's crewmen trained on it")

    @model_validator(mode="after")
    def _fits_kind(self) -> CompanyEntry:
        if self.kind == Kind.VEHICLE and not (self.vehicle and self.name):
            raise ValueError("a vehicle needs a name and a vehicle type")
        if self.kind != Kind.VEHICLE and (self.vehicle or self.name or self.crew is not None):
            raise ValueError("only a vehicle takes a name, a vehicle type or a crew here; men take theirs from "
                             "the catalogue")
        if self.kind != Kind.VEHICLE and self.serial is None:
            raise ValueError("a man needs his dog tag (serial)")
        if self.kind == Kind.SOLDIER and self.training is not None:
            raise ValueError("training belongs to crewmen (kind: crewman)")
        return self


class SideCompany(Frozen):
    name: str = Field(min_length=1)
    company: list[CompanyEntry] = Field(min_length=1, description="the men who start, shared among the side's players")
    depot: list[int] | None = Field(None, description="replacements in the order they come; "
                                                      "left out: every other soldier of the side, by dog tag")


class Eligibility(Frozen):
    """Which roster soldiers may take part in a step (besides being fit)."""

    ranks: list[Rank] = Field(default_factory=lambda: list(RANK_ORDER))
    min_served: int = Field(0, ge=0, description="scenarios he must have fought already")
    max_soldiers: int | None = Field(None, ge=1, description="at most this many men per player")


class Branch(Frozen):
    """What a result unlocks when it is not always the same step: either the winning side
    chooses one of `choose`, or each side's win leads to its own step (`winner`)."""

    choose: list[str] = Field(default_factory=new_list)
    winner: dict[Nationality, str] = Field(default_factory=dict)
    draw: str = Field(description="the step after a drawn scenario")

    @model_validator(mode="after")
    def _one_kind(self) -> Branch:
        if bool(self.choose) == bool(self.winner):
            raise ValueError("a branch gives either `choose` (the winner picks) or `winner` (a step per side)")
        if self.choose and len(self.choose) < 2:
            raise ValueError("`choose` offers at least two steps")
        if self.winner and set(self.winner) != {Nationality.US, Nationality.DE}:
            raise ValueError("`winner` names a step for each side, US and DE")
        return self

    def targets(self) -> list[str]:
        return [*self.choose, *self.winner.values(), self.draw]


class StepDef(Frozen):
    id: str = Field(pattern=STEP_ID)
    scenario: str
    title: str = Field("", description="the campaign's name for this fight")
    budget: dict[int, int] | None = Field(None, description="VP per player by number of players; "
                                                            "left out: the scenario's own")
    eligible: Eligibility = Eligibility()
    vehicles: dict[Nationality, VehicleRule] = Field(
        default_factory=dict, description="per side: none, allowed (left out) or required; a vehicle goes only "
                                          "where the scenario fields its type")
    next: str | Branch | None = Field(None, description="a step id, a branch, or nothing: the campaign ends")

    def targets(self) -> list[str]:
        if self.next is None:
            return []
        return [self.next] if isinstance(self.next, str) else self.next.targets()

    def vehicle_rule(self, side: str) -> VehicleRule:
        return self.vehicles.get(Nationality(side), "allowed")


class CampaignDef(Frozen):
    id: str = Field(pattern=STEP_ID)
    name: str = Field(min_length=1)
    briefing: str = ""
    sides: dict[Nationality, SideCompany]
    start: str
    steps: list[StepDef] = Field(min_length=1)
    short_crews: ShortCrews = Field("cross_trained", description="who fills a vehicle's empty driver or gunner "
                                                                 "seat; the organiser may change it")

    def step(self, step_id: str) -> StepDef:
        for s in self.steps:
            if s.id == step_id:
                return s
        raise KeyError(step_id)

    def depot(self, side: str) -> list[int]:
        return list(self.sides[side].depot or [])


def load_campaigns(catalog: Catalog, root: Path | None = None) -> dict[str, CampaignDef]:
    """Every `campaigns/<id>/campaign.yaml` under root, cross-checked against the catalogue."""
    root = root or default_root()
    out: dict[str, CampaignDef] = {}
    for path in sorted((root / "campaigns").glob("*/campaign.yaml")):
        cdef = load_campaign(path, catalog)
        if cdef.id in out:
            raise ContentError(f"{path}: campaign (id {cdef.id!r}): field id: used twice")
        if cdef.id != path.parent.name:
            raise ContentError(f"{path}: campaign (id {cdef.id!r}): field id: must be the folder's name "
                               f"{path.parent.name!r}")
        out[cdef.id] = cdef
    return out


def load_campaign(path: Path, catalog: Catalog) -> CampaignDef:
    cdef = _validate(CampaignDef, _read_yaml(path), path, "campaign")
    return _check(cdef, path, catalog)


def _check(cdef: CampaignDef, path: Path, cat: Catalog) -> CampaignDef:
    def fail(field: str, msg: str):
        raise ContentError(f"{path}: campaign (id {cdef.id!r}): field {field}: {msg}")

    if set(cdef.sides) != {Nationality.US, Nationality.DE}:
        fail("sides", "give both sides, US and DE")
    ids = [s.id for s in cdef.steps]
    if len(set(ids)) != len(ids):
        fail("steps", "step ids must differ")
    if cdef.start not in ids:
        fail("start", f"no step {cdef.start!r}")
    kept: dict[str, set[int]] = {"US": set(), "DE": set()}  # soldiers a scenario keeps for itself
    for i, step in enumerate(cdef.steps):
        where = f"steps[{i}]"
        if step.scenario not in cat.scenarios:
            fail(f"{where}.scenario", f"no scenario {step.scenario!r}")
        sc = cat.scenarios[step.scenario]
        for target in step.targets():
            if target not in ids:
                fail(f"{where}.next", f"no step {target!r}")
        for side in sc.sides:
            kept[side.id.value] |= {e.serial for e in side.reinforcements}
        if step.budget is not None:
            _check_budget(step, sc, fail, f"{where}.budget")
        for side, rule in step.vehicles.items():
            if rule == "required" and not sc.side(side).vehicles:
                fail(f"{where}.vehicles.{side.value}", f"{sc.name} fields no {side.value} vehicles to require")
    _check_reachable(cdef, fail)
    depots = {}
    for side, company in cdef.sides.items():
        seen: set[int] = set()
        entries = []
        for j, entry in enumerate(company.company):
            field = f"sides.{side.value}.company[{j}]"
            if entry.kind == Kind.VEHICLE:
                entry = _check_vehicle(entry, side, cat, lambda f, m, field=field: fail(f"{field}{f}", m), seen)
            if entry.serial in seen:
                fail(field, f"dog tag {entry.serial} is listed twice")
            seen.add(entry.serial)
            entries.append(entry)
            if entry.kind == Kind.VEHICLE:
                continue
            d = cat.soldiers.get(entry.serial)
            if d is None:
                fail(field, f"no soldier with dog tag {entry.serial}")
            if d.nationality != side:
                fail(field, f"{d.name} is {d.nationality.value}, not {side.value}")
            if entry.rank not in {p.rank for p in d.ranks}:
                fail(field, f"{d.name} has no {entry.rank.value} card")
            if entry.serial in kept[side.value]:
                fail(field, f"{d.name} is a reinforcement in one of the campaign's scenarios, so he cannot "
                            "also belong to the company")
            card = Training(role=d.crew.role, vehicle=d.crew.vehicle) if d.crew else None
            if card and entry.kind != Kind.CREWMAN:
                fail(f"{field}.kind", f"{d.name} is a crewman ({card.role.value} on {card.vehicle}): list him "
                                      "with kind: crewman")
            if entry.kind == Kind.CREWMAN:
                if card is None:
                    fail(f"{field}.kind", f"{d.name}'s card names no crew training; he is a soldier")
                if entry.training not in (None, card):
                    fail(f"{field}.training", f"{d.name}'s card says {card.role.value} on {card.vehicle}; "
                                              "the engine trains crews by their cards")
                entries[-1] = entry.model_copy(update={"training": card})
        entries = _assign_crews(entries, side, cat, fail)
        company = company.model_copy(update={"company": entries})
        if company.depot is None:
            depot = [s.serial for s in sorted(cat.soldiers.values(), key=lambda s: s.serial)
                     if s.nationality == side and s.serial not in seen and s.serial not in kept[side.value]]
        else:
            depot = list(company.depot)
            for j, serial in enumerate(depot):
                field = f"sides.{side.value}.depot[{j}]"
                d = cat.soldiers.get(serial)
                if d is None or d.nationality != side:
                    fail(field, f"no {side.value} soldier with dog tag {serial}")
                if serial in seen or depot.index(serial) != j:
                    fail(field, f"{d.name} is already in the company or earlier in the depot")
                if serial in kept[side.value]:
                    fail(field, f"{d.name} is a reinforcement in one of the campaign's scenarios")
        depots[side] = company.model_copy(update={"depot": depot})
    return cdef.model_copy(update={"sides": depots})


def _check_vehicle(entry: CompanyEntry, side: Nationality, cat: Catalog, fail, taken: set[int]) -> CompanyEntry:
    """A company vehicle: a panel of the side, known by its license plate, one of its type's plates
    (the catalogue's, + 1000 for a second of the type ...: engine/vehicles/setup.py); left out, the
    first of them no vehicle listed before holds."""
    v = cat.vehicles.get(entry.vehicle)
    if v is None:
        fail(".vehicle", f"no vehicle {entry.vehicle!r}; there are {', '.join(sorted(cat.vehicles))}")
    if v.nationality != side:
        fail(".vehicle", f"the {v.name} is {v.nationality.value}, not {side.value}")
    if entry.serial is not None and not v.has_plate(entry.serial):
        fail(".serial", f"a {v.name}'s license plate is {v.plate}, {v.plate + PLATE_STEP}, "
                        f"{v.plate + 2 * PLATE_STEP} ...")
    plate = entry.serial
    if plate is None:
        plate = v.plate
        while plate in taken:
            plate += PLATE_STEP
    return entry.model_copy(update={"serial": plate})


def _assign_crews(entries: list[CompanyEntry], side: Nationality, cat: Catalog, fail) -> list[CompanyEntry]:
    """Each vehicle's crew: the crewmen it lists, else the company's crewmen trained on its type
    whom no other vehicle lists, as many of each role as its panel seats (so a second vehicle of
    the type gets the next crew); a crewman belongs to one vehicle at most."""
    crewmen = {e.serial: e for e in entries if e.kind == Kind.CREWMAN}
    listed: dict[int, int] = {}
    for j, e in enumerate(entries):
        for serial in e.crew or []:
            if serial not in crewmen:
                fail(f"sides.{side.value}.company[{j}].crew", f"dog tag {serial} is no crewman of the company")
            if serial in listed:
                fail(f"sides.{side.value}.company[{j}].crew", f"dog tag {serial} already crews plate "
                                                              f"{listed[serial]}")
            listed[serial] = e.serial
    out = []
    for e in entries:
        if e.kind == Kind.VEHICLE and e.crew is None:
            seats = Counter(loc.role for loc in cat.vehicles[e.vehicle].crew_positions)
            crew = []
            for c in crewmen.values():
                if c.training.vehicle == e.vehicle and c.serial not in listed and seats[c.training.role] > 0:
                    seats[c.training.role] -= 1
                    crew.append(c.serial)
            listed.update((serial, e.serial) for serial in crew)
            e = e.model_copy(update={"crew": crew})
        out.append(e)
    return out


def _check_budget(step: StepDef, sc, fail, field: str) -> None:
    if 2 not in step.budget:
        fail(field, "give at least the budget for two players (key 2)")
    own = {s.id.value: s for s in sc.sides}
    for side in own:
        for players, mates in ((2, 1), (3, 1), (3, 2), (4, 2)):
            mine = budget(with_budget(sc, step.budget), side, players, mates)
            theirs = budget(sc, side, players, mates)
            if mine > theirs:
                fail(field, f"{mine} VP for {players} players is above the scenario's own {theirs} VP")


def with_budget(sc, levels: dict[int, int] | None):
    """The scenario with the campaign step's force budget in place of its own."""
    if levels is None:
        return sc
    return sc.model_copy(update={"sides": [s.model_copy(update={"force_vp": dict(levels)}) for s in sc.sides]})


def _check_reachable(cdef: CampaignDef, fail) -> None:
    steps = {s.id: s for s in cdef.steps}
    state: dict[str, str] = {}

    def visit(sid: str, path: list[str]) -> None:
        if state.get(sid) == "done":
            return
        if state.get(sid) == "open":
            fail("steps", "the steps loop back (" + " -> ".join([*path, sid]) + "); a campaign must end")
        state[sid] = "open"
        for t in steps[sid].targets():
            visit(t, [*path, sid])
        state[sid] = "done"

    visit(cdef.start, [])
    unreached = [s for s in steps if s not in state]
    if unreached:
        fail("steps", f"no result leads to {', '.join(unreached)}")
