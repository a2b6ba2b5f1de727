"""The vehicle book's battlefield: artillery (radio contact, calls, On Target, barrages),
minefields, incendiaries, close combat against vehicles, and recovering equipment and vehicles.
Importing it registers its commands and fills its slots."""
from __future__ import annotations

from engine.battlefield import (  # noqa: F401  (each rule registers its commands and slots)
    artillery,
    close_combat,
    incendiary,
    mines,
    recovery,
)
