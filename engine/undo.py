"""Undo (boardgame.io's lesson): a command may be taken back only while it revealed nothing.

A command revealed information when it moved the game's RNG (a shuffle or a random event),
took a card off any deck (draws, checks, fight cards), turned a card face up, or moved the
game past a reveal. The front end keeps the state from before the command; this says whether
going back to it is fair."""
from __future__ import annotations

from engine.core.log import Event
from engine.core.state import GameState

REVEALING = {"reveal", "phase_cards", "shortfall", "shortfall_card", "draw", "hit_check", "damage_check",
             "blast_check", "fight_draw", "event", "orders", "game_over", "reshuffle",
             "mine", "mines_lifted"}  # a minefield turned up (a fake in a room draws no check), or lifted and read


def undoable(before: GameState, after: GameState, events: list[Event]) -> bool:
    if after.rng != before.rng or after.step == "over":
        return False
    if any(e.kind in REVEALING for e in events):
        return False
    for fid, f in before.forces.items():
        g = after.forces[fid]
        if len(g.deck) < len(f.deck) or g.revealed != f.revealed or g.face_up != f.face_up:
            return False
    return (after.turn, after.phase) == (before.turn, before.phase) or after.step == "place"
