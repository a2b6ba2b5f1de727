"""Shared helpers for rules tests: the fixture catalogue and positions built from short dicts."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.core.content import load_catalog
from engine.position import load_position
from engine.script import run_script
from tests.shared_forces import guarding_shared_forces

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "rules"


@pytest.fixture(autouse=True)
def _shared_forces_refuse_a_change():
    """Every engine test runs with the forces and vehicles a clone shares refusing a change in
    place (tests/shared_forces.py): a rule that changed one without `changing_force`
    (`changing_vehicle`) fails at once."""
    with guarding_shared_forces():
        yield


@pytest.fixture(scope="session")
def cat():
    return load_catalog(FIXTURE)


def two_players():
    return [{"name": "Ann", "side": "US"}, {"name": "Bo", "side": "DE"}]


@pytest.fixture
def position(cat):
    """position(soldiers=[...], **more) -> state, from a position dict with test defaults."""
    def make(**kw):
        data = {"scenario": "range", "players": two_players(), "seed": 1}
        data.update(kw)
        st, _ = load_position(cat, data)
        return st
    return make


@pytest.fixture
def play():
    """play(state, script) -> (state, all events): run script lines, failing loudly."""
    def run(st, text, seat=0):
        st, done = run_script(st, text, seat=seat)
        return st, [e for _, evs in done for e in evs]
    return run
