"""The advanced rules and the specialists: react and preempt cards, medics, the tactics
modules (team panels, team bubbles, identity boxes), dead cards, which card part takes an action,
using equipment (smoke, weapons, handing over), hidden deployment. Importing it registers its
commands and fills its slots."""
from __future__ import annotations

from engine.advanced import (  # noqa: F401  (each rule registers its commands and slots)
    dead_cards,
    equipment_use,
    hidden_deployment,
    medic,
    preempt,
    react,
    sources,
    teams,
)
