"""Game records, like PGN: how a game started and every command since, enough to rebuild it.

A record starts either from a scenario (seed, seats) or from a position, then lists the
commands in order. Replaying a record gives the same game byte for byte.
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from engine.apply import apply
from engine.core.commands import Cmd, Command
from engine.core.content import Catalog
from engine.core.errors import ContentError, UsageError
from engine.core.log import Event
from engine.core.state import GameState
from engine.core.words import new_list
from engine.position import load_position
from engine.turn.setup import SeatSpec, new_game

# built when a record is first read, not at import (every command's schema: a slow start)
_COMMAND = TypeAdapter(Command, config=ConfigDict(defer_build=True))


class Record(BaseModel):
    model_config = ConfigDict(extra="forbid")

    scenario: str | None = None
    seed: int = 0
    seats: list[SeatSpec] = Field(default_factory=new_list)
    position: dict | None = None
    commands: list[Command] = Field(default_factory=new_list)

    def start(self, cat: Catalog) -> tuple[GameState, list[Event]]:
        if self.position is not None:
            return load_position(cat, self.position)
        if not self.scenario:
            raise ContentError("a record needs a scenario or a position")
        return new_game(cat, self.scenario, self.seats, self.seed)

    def replay(self, cat: Catalog) -> Iterator[tuple[Cmd | None, GameState, list[Event]]]:
        """The starting state (command None), then each command with the state after it."""
        st, events = self.start(cat)
        yield None, st, events
        for cmd in self.commands:
            st, events = apply(st, cmd)
            yield cmd, st, events

    def final(self, cat: Catalog) -> GameState:
        st = None
        for _, st, _ in self.replay(cat):
            pass
        return st

    def dumps(self) -> str:
        return self.model_dump_json(indent=1, exclude_none=True)


def parse_command_json(data: str | dict) -> Cmd:
    return _COMMAND.validate_json(data) if isinstance(data, str) else _COMMAND.validate_python(data)


def load_record(path: Path) -> Record:
    try:
        return Record.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, UsageError) as exc:  # UsageError: a command the engine cannot read
        raise ContentError(f"{path}: not a game record: {exc}") from None
