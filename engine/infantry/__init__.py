"""The core manual's actions: LOOK (sight, draw), HIDE (cover, rally, hold), MOVE (walk,
charge, prisoners and escorts), SHOOT (hit checks, Hit+), grenades and blasts, damage, combat
contact, carried equipment and optics, orders, fires. Importing it registers its commands."""
from __future__ import annotations

from engine.infantry import (  # noqa: F401  (each rule registers its commands and slots)
    blast,
    contact,
    damage,
    equipment,
    hazards,
    hide,
    look,
    move,
    optics,
    orders,
    shoot,
)
