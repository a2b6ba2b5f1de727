"""Positions on the fixture catalogue's farmyard (6 x 2 squares, the farmhouse landmark L9)."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.core.content import load_catalog
from engine.position import load_position

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "rules"


@pytest.fixture(scope="session")
def cat():
    return load_catalog(FIXTURE)


def yard(**kw) -> dict:
    """A farmyard position: Avery (1) and Brooks (2) for Ann, Dorn (4) and Engel (5) for Bo,
    each standing in the middle rows of a tile, clear of its label."""
    data = {
        "scenario": "yard", "seed": 1,
        "players": [{"name": "Ann", "side": "US", "order": "T-GENERAL"}, {"name": "Bo", "side": "DE", "order": "T-HOLD"}],
        "soldiers": [
            {"serial": 1, "seat": 0, "at": [2, 3], "facing": "e", "spotted": True},
            {"serial": 2, "seat": 0, "at": [12, 8], "facing": "ne"},
            {"serial": 4, "seat": 1, "at": [22, 3], "facing": "w"},
            {"serial": 5, "seat": 1, "at": [17, 7], "facing": "sw", "spotted": True, "pinned": True, "wounded": True},
        ],
    }
    data.update(kw)
    return data


@pytest.fixture
def position(cat):
    def make(**kw):
        return load_position(cat, yard(**kw))[0]
    return make
