"""Fieldpost's rules engine: pure functions over one pydantic game state.

    cat = load_catalog()
    state, events = new_game(cat, "hedgerow-dawn", [SeatSpec(name="Ann", side="US"),
                                                    SeatSpec(name="Bo", side="DE")], seed=7)
    state, events = apply(state, parse_command("plan 101-C1 104-C2 108-P1", seat=0))
    public = view(state)            # what everyone may see
    mine = view(state, viewer=0)    # plus seat 0's hand, held cards and orders
"""
from engine.apply import apply
from engine.commands import Command, parse_command
from engine.content import Catalog, load_catalog
from engine.errors import ContentError, RuleError
from engine.legal import Await, awaiting, legal_commands
from engine.log import Event
from engine.setup import SeatSpec, new_game
from engine.state import GameState
from engine.view import View, view

__all__ = ["apply", "view", "new_game", "load_catalog", "parse_command", "legal_commands", "awaiting",
           "Await", "Catalog", "Command", "ContentError", "Event", "GameState", "RuleError", "SeatSpec", "View"]
