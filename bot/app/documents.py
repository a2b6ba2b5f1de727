"""What a game's stored `state` document is: a `Lobby` before the start, a `GameState` after.

`StateCodec` writes and reads GameState JSON byte for byte as pydantic does, but keeps each
game's static setup (map, soldiers, cards: ~95% of the text) serialised once, so a command
costs a dump of what changed rather than of the whole scenario.
"""
from __future__ import annotations

import json
import re
from collections import OrderedDict

from pydantic import BaseModel, ConfigDict, Field

from engine import GameState, RuleError
from engine.content import ForceEntry, Nationality, Rank
from engine.state import GameSetup

_PREFIX = '{"setup":'


class LobbySeat(BaseModel):
    model_config = ConfigDict(extra="forbid")

    user_id: int
    name: str
    side: Nationality
    force: list[ForceEntry] | None = None  # None: a share of the scenario's preset squad


class Lobby(BaseModel):
    """A game gathering players. The seed is private: with it the decks could be predicted."""

    model_config = ConfigDict(extra="forbid")

    scenario: str
    seed: int
    seats: list[LobbySeat] = Field(default_factory=list)

    def seat_of(self, user_id: int) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s.user_id == user_id), None)


class LobbyDoc(BaseModel):
    model_config = ConfigDict(extra="forbid")

    lobby: Lobby


class StateCodec:
    """GameState <-> JSON text with the setup's JSON cached (a bounded number of setups)."""

    def __init__(self, size: int = 256) -> None:
        self._setups: OrderedDict[int, tuple[GameSetup, str]] = OrderedDict()
        self._size = size

    def _setup_json(self, setup: GameSetup) -> str:
        hit = self._setups.get(id(setup))
        if hit is not None and hit[0] is setup:
            self._setups.move_to_end(id(setup))
            return hit[1]
        text = setup.model_dump_json()
        self._setups[id(setup)] = (setup, text)
        while len(self._setups) > self._size:
            self._setups.popitem(last=False)
        return text

    def dumps(self, state: GameState) -> str:
        """Exactly `state.model_dump_json()`."""
        rest = state.model_dump_json(exclude={"setup"})
        return _PREFIX + self._setup_json(state.setup) + "," + rest[1:]

    def loads(self, text: str, known: GameSetup | None = None) -> GameState:
        """Parse a stored state; when it starts with the JSON of `known` setup, reuse it."""
        if known is not None:
            head = _PREFIX + self._setup_json(known) + ","
            if text.startswith(head):
                data = json.loads("{" + text[len(head):])
                data["setup"] = known
                return GameState.model_validate(data)
        state = GameState.model_validate_json(text)
        self._setup_json(state.setup)
        return state


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
    """`"101 104:sgt 108:g3:m1"` -> ForceEntry list; RuleError says what could not be read."""
    entries = []
    for word in re.split(r"[\s,;]+", text.strip()):
        if not word:
            continue
        serial, *extras = word.split(":")
        if not serial.isdigit():
            raise RuleError(f"{word!r}: a force lists {FORCE_SYNTAX}.")
        kw: dict = {"serial": int(serial), "equipment": []}
        for extra in extras:
            low = extra.lower()
            if low in _RANKS:
                kw["rank"] = _RANKS[low]
            elif re.fullmatch(r"g\d+", low):
                kw["grenades"] = int(low[1:])
            elif re.fullmatch(r"m[0-3]", low):
                kw["medals"] = int(low[1:])
            elif low:
                kw["equipment"].append(extra)
        entries.append(ForceEntry(**kw))
    if not entries:
        raise RuleError(f"name at least one soldier: {FORCE_SYNTAX}.")
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
