"""The play sequence: setting up a game, placing cards on phases (officers' extra cards),
the card in play, story events, the fights at a phase's end, the turn's steps and victory.
Importing it registers its commands."""
from __future__ import annotations

from engine.turn import (  # noqa: F401  (each rule registers its commands and slots)
    cards,
    events,
    fight,
    matching,
    officer,
    placement,
    sequence,
    setup,
    victory,
)
