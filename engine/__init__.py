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
"""
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

__all__ = ["apply", "view", "private_view", "card_view", "vehicle_view", "new_game", "load_catalog",
           "parse_command", "legal_commands", "awaiting", "answerable", "default_command", "default_for",
           "undoable", "load_position", "dump_position", "load_record", "Record", "RandomAgent", "commands",
           "Await", "Catalog", "CardView", "Cmd", "Command", "ContentError", "Event", "GameState", "Mine",
           "RuleError", "SeatSpec", "UsageError", "VehicleView", "View"]
