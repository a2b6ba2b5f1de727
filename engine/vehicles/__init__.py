"""Hell on Wheels: vehicles and guns on the board. Movement and bogging, LOOK with crews
and hatches, hull down and smoke, fire with main guns and machine guns, damage tables and crews,
roadblocks, the vehicle book's orders, and the set-up of vehicles. Importing it registers its
commands and fills its slots."""
from __future__ import annotations

from engine.vehicles import (  # noqa: F401  (each rule registers its commands and slots)
    actions,
    damage,
    hide,
    legal,
    look,
    move,
    orders,
    roadblocks,
    rockets,
    setup,
    shoot,
    smoke,
)
