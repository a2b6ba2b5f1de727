"""Fieldpost's rules engine: pure functions over one pydantic game state.

    cat = load_catalog()
    state, events = new_game(cat, "hedgerow-dawn", [SeatSpec(name="Ann", side="US"),
                                                    SeatSpec(name="Bo", side="DE")], seed=7)
    state, events = apply(state, parse_command("plan 101-C1 104-C2 108-P1", seat=0))
    public = view(state)            # what everyone may see
    mine = view(state, viewer=0)    # plus seat 0's hand, held cards and orders

This is the face front ends use. Inside, packages follow the books (docs/architecture.md):
engine.core, engine.infantry, engine.advanced, engine.vehicles, engine.battlefield, engine.turn,
with apply, legal and view on top, and engine.rolls and engine.campaign beside.

The face is lazy: `import engine` (and so `engine.rolls` alone, for `fieldpost roll`) loads no
rule; the first name read from it loads the engine whole (engine/apply.py brings every rule
package in, filling the rulebook's slots) before that name's module.
"""
from __future__ import annotations

import importlib
import sys
from types import ModuleType
from typing import TYPE_CHECKING, Any

# public name -> the module that holds it
_FACE = {
    "RandomAgent": "engine.agent", "apply": "engine.apply", "commands": "engine.core",
    "Cmd": "engine.core.commands", "Command": "engine.core.commands", "parse_command": "engine.core.commands",
    "Catalog": "engine.core.content", "load_catalog": "engine.core.content",
    "ContentError": "engine.core.errors", "RuleError": "engine.core.errors", "UsageError": "engine.core.errors",
    "Event": "engine.core.log", "GameState": "engine.core.state",
    "Await": "engine.core.views", "CardView": "engine.core.views", "Mine": "engine.core.views",
    "VehicleView": "engine.core.views", "View": "engine.core.views",
    "answerable": "engine.legal", "awaiting": "engine.legal", "default_command": "engine.legal",
    "default_for": "engine.legal", "legal_commands": "engine.legal",
    "dump_position": "engine.position", "load_position": "engine.position",
    "Record": "engine.record", "load_record": "engine.record",
    "SeatSpec": "engine.turn.setup", "new_game": "engine.turn.setup",
    "undoable": "engine.undo",
    "card_view": "engine.view", "private_view": "engine.view", "vehicle_view": "engine.view", "view": "engine.view",
}

__all__ = ["apply", "view", "private_view", "card_view", "vehicle_view", "new_game", "load_catalog",
           "parse_command", "legal_commands", "awaiting", "answerable", "default_command", "default_for",
           "undoable", "load_position", "dump_position", "load_record", "Record", "RandomAgent", "commands",
           "Await", "Catalog", "CardView", "Cmd", "Command", "ContentError", "Event", "GameState", "Mine",
           "RuleError", "SeatSpec", "UsageError", "VehicleView", "View"]


def __getattr__(name: str) -> Any:
    where = _FACE.get(name)
    if where is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    importlib.import_module("engine.apply")  # every rule, before any of them is used
    value = getattr(importlib.import_module(where), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


class _Face(ModuleType):
    """The package as a module that keeps its public names: importing the submodule engine.apply
    (or engine.view) would set the attribute `apply` to that module; the face's `apply` is the
    function, as when every name was imported up front."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _FACE and isinstance(value, ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Face


if TYPE_CHECKING:  # the names as type checkers and readers see them
    from engine.agent import RandomAgent
    from engine.apply import apply
    from engine.core import commands
    from engine.core.commands import Cmd, Command, parse_command
    from engine.core.content import Catalog, load_catalog
    from engine.core.errors import ContentError, RuleError, UsageError
    from engine.core.log import Event
    from engine.core.state import GameState
    from engine.core.views import Await, CardView, Mine, VehicleView, View
    from engine.legal import (
        answerable,
        awaiting,
        default_command,
        default_for,
        legal_commands,
    )
    from engine.position import dump_position, load_position
    from engine.record import Record, load_record
    from engine.turn.setup import SeatSpec, new_game
    from engine.undo import undoable
    from engine.view import card_view, private_view, vehicle_view, view
