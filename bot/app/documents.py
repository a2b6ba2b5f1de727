"""What a game's stored `state` document is: a `Lobby` before the start, a `GameState` after.

`StateCodec` writes a GameState without its static setup (map, soldiers, cards: ~95% of the
text), which is stored once per game and named by its digest, so a command costs a dump and a
write of what changed rather than of the whole scenario.
"""
from __future__ import annotations

import hashlib
import json
import re
from collections import OrderedDict

from pydantic import BaseModel, ConfigDict, Field

from engine import GameState, RuleError
from engine.core.commands import (
    MAX_LINE,
    MAX_WORD,
    MAX_WORDS,
    number,
    shown,
    text_problem,
)
from engine.core.content import ForceEntry, Nationality, Rank, VehicleEntry
from engine.core.state import GameSetup


class LobbySeat(BaseModel):
    model_config = ConfigDict(extra="forbid")

    user_id: int
    name: str
    side: Nationality
    force: list[ForceEntry] | None = None  # None: a share of the scenario's preset squad
    vehicles: list[VehicleEntry] | None = None  # None: a share of the preset's vehicles (a campaign names its own)


class Lobby(BaseModel):
    """A game gathering players. The seed is private: with it the decks could be predicted."""

    model_config = ConfigDict(extra="forbid")

    scenario: str
    seed: int
    seats: list[LobbySeat] = Field(default_factory=list)
    campaign: int | None = None  # a campaign's scenario: seats and forces come from its rosters

    def seat_of(self, user_id: int) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s.user_id == user_id), None)


class LobbyDoc(BaseModel):
    model_config = ConfigDict(extra="forbid")

    lobby: Lobby


class StateCodec:
    """GameState <-> the stored document `{"setup_ref": "<digest>", ...everything else}`.

    A game's setup (map, tiles, soldiers, cards, orders: ~95% of a state) never changes after
    the start, so it is stored once, as the setting ("setup", digest), and each commit writes
    only what changes: a few KB instead of 35-110 KB. Parsed setups are kept by digest.
    `full_json` gives the plain `GameState.model_dump_json()` text when one is wanted.
    """

    def __init__(self, size: int = 512) -> None:
        self._by_object: OrderedDict[int, tuple[GameSetup, str]] = OrderedDict()  # id -> digest
        self._by_digest: OrderedDict[str, GameSetup] = OrderedDict()
        self._size = size

    def digest(self, setup: GameSetup) -> str:
        hit = self._by_object.get(id(setup))
        if hit is not None and hit[0] is setup:
            self._by_object.move_to_end(id(setup))
            return hit[1]
        text = setup.model_dump_json()
        ref = hashlib.sha256(text.encode()).hexdigest()[:32]
        self._keep(ref, self._by_digest.get(ref, setup))
        self._by_object[id(setup)] = (setup, ref)
        return ref

    def shared(self, state: GameState) -> GameState:
        """The state with the one setup object kept for its digest, so games of the same
        scenario and forces share a single parsed setup in memory."""
        ref = self.digest(state.setup)
        setup = self._by_digest[ref]
        return state if setup is state.setup else state.model_copy(update={"setup": setup})

    def _keep(self, ref: str, setup: GameSetup) -> None:
        self._by_object[id(setup)] = (setup, ref)
        self._by_digest[ref] = setup
        self._by_digest.move_to_end(ref)
        for table in (self._by_object, self._by_digest):
            while len(table) > self._size:
                table.popitem(last=False)

    def dumps(self, state: GameState) -> str:
        rest = state.model_dump_json(exclude={"setup"})
        return '{"setup_ref":"' + self.digest(state.setup) + '",' + rest[1:]

    def known(self, ref: str) -> GameSetup | None:
        return self._by_digest.get(ref)

    def learn(self, ref: str, setup_data: dict) -> GameSetup:
        setup = self._by_digest.get(ref) or GameSetup.model_validate(setup_data)
        self._keep(ref, setup)
        return setup

    @staticmethod
    def split(text: str) -> tuple[str, dict]:
        """A stored document -> (setup digest, the rest of the state as data)."""
        data = json.loads(text)
        return data.pop("setup_ref"), data

    @staticmethod
    def join(setup: GameSetup, data: dict) -> GameState:
        return GameState.model_validate({**data, "setup": setup})


_RANKS = {
    "private": Rank.PRIVATE, "pvt": Rank.PRIVATE, "pte": Rank.PRIVATE,
    "junior": Rank.JUNIOR_NCO, "junior_nco": Rank.JUNIOR_NCO, "nco": Rank.JUNIOR_NCO,
    "cpl": Rank.JUNIOR_NCO, "corporal": Rank.JUNIOR_NCO,
    "senior": Rank.SENIOR_NCO, "senior_nco": Rank.SENIOR_NCO, "sgt": Rank.SENIOR_NCO,
    "sergeant": Rank.SENIOR_NCO,
}

FORCE_SYNTAX = ("soldiers by dog tag, e.g. `101 104:sgt 108:g3` "
                "(after a colon: a rank pvt/cpl/sgt, gN grenades, mN medals, or an equipment id)")


def parse_force(text: str) -> list[ForceEntry]:
    """`"101 104:sgt 108:g3:m1"` -> ForceEntry list; RuleError says what could not be read.
    The command edge's caps hold here too (engine.core.commands): one line of valid text, dog tags
    in the ASCII digits 0-9."""
    if len(text) > MAX_LINE:
        raise RuleError(f"a force is at most {MAX_LINE} characters; this one has {len(text)}.")
    problem = text_problem(text)
    if problem:
        raise RuleError(problem)
    entries = []
    for word in re.split(r"[\s,;]+", text.strip()):
        if not word:
            continue
        serial, *extras = word.split(":")
        try:
            kw: dict = {"serial": number(serial, "a dog tag"), "equipment": []}
        except RuleError as exc:
            raise RuleError(f"{shown(word)}: {exc} A force lists {FORCE_SYNTAX}.") from None
        for extra in extras:
            low = extra.lower()
            if low in _RANKS:
                kw["rank"] = _RANKS[low]
            elif re.fullmatch(r"g[0-9]{1,2}", low):
                kw["grenades"] = int(low[1:])
            elif re.fullmatch(r"m[0-3]", low):
                kw["medals"] = int(low[1:])
            elif len(extra) > MAX_WORD:
                raise RuleError(f"{shown(extra)} is too long for an equipment id (at most {MAX_WORD} characters).")
            elif low:
                kw["equipment"].append(extra)
        entries.append(ForceEntry(**kw))
    if not entries:
        raise RuleError(f"name at least one soldier: {FORCE_SYNTAX}.")
    if len(entries) > MAX_WORDS:
        raise RuleError(f"a force names at most {MAX_WORDS} soldiers; this one names {len(entries)}.")
    return entries


def force_text(entries: list[ForceEntry]) -> str:
    """The inverse of `parse_force`, for showing a player his own choice."""
    out = []
    for e in entries:
        word = str(e.serial)
        if e.rank != Rank.PRIVATE:
            word += ":" + {"junior_nco": "cpl", "senior_nco": "sgt"}[e.rank.value]
        if e.grenades is not None:
            word += f":g{e.grenades}"
        if e.medals:
            word += f":m{e.medals}"
        word += "".join(f":{q}" for q in e.equipment)
        out.append(word)
    return " ".join(out)
