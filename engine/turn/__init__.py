"""The play sequence: setting up a game, placing cards on phases (officers' extra cards),
the card in play, story events, the fights at a phase's end, the turn's steps, victory, and who a seat's texts name.
Importing it registers its commands."""
from __future__ import annotations

from engine.turn import (  # noqa: F401  (each rule registers its commands and slots)
    cards,
    events,
    fight,
    matching,
    officer,
    placement,
    seat_names,
    sequence,
    setup,
    victory,
)
