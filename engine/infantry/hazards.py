"""Fire markers (core manual, Markers and Equipment): scenario fires burn from setup, story-card
fires from their event; a fire never goes out. At the start of every phase, before any action,
each soldier in a burning tile takes one blast hit check (engine/turn/sequence.py, step phase_fire,
through blast.blast_tile). A tile is the whole fire area: a building in it burns whole, every floor.
Mines, the core manual's land mines included, are engine/battlefield/mines.py.
Rulings: docs/advanced.md, "Medics, fire, mines, characters"; docs/battlefield.md, "Mines".
"""
from __future__ import annotations


def lay(st) -> None:
    """Setup: the scenario's fires are lit (before anyone moves)."""
    sc = st.setup.scenario
    for tile in sc.fires:
        if tile not in st.fires:
            st.fires.append(tile)
