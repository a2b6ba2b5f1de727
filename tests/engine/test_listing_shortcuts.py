"""The option listing's shortcuts (engine/legal.py, engine/vehicles/legal.py): where it asks a
cheaper function than the rule itself, both answer alike over autoplayed games."""
from __future__ import annotations

import pytest

from engine.core.crew import position_of
from engine.infantry.look import sight_must, sight_options
from engine.vehicles.look import crew_sight_must, crew_sight_options
from tests.engine.autoplay_kit import autoplayed

INFANTRY = [("fixtures", "advanced-skirmish", 2), ("shipped", "hedgerow-dawn", 3), ("shipped", "tardieu-bombardment", 4)]
GAMES = [("fixtures", "mined-motor", 3), ("shipped", "tardieu-bombardment", 4), ("shipped", "mill-road-gun", 5)]
COMMANDS = 250


def _autoplayed(catalog, scenario: str, seed: int):
    """Each state of an autoplayed game, up to COMMANDS commands."""
    return autoplayed(catalog, scenario, seed, COMMANDS)


@pytest.mark.parametrize(("content", "scenario", "seed"), INFANTRY)
def test_a_soldiers_sight_targets_are_those_of_his_whole_sight_table(request, content, scenario, seed):
    """sight_must (distance first, range and a vehicle's line of sight only for the nearest)
    lists the same targets as sight_options, with the same tie-break on the targets' cover."""
    catalog = request.getfixturevalue("cat" if content == "fixtures" else "shipped")
    some = 0
    for st in _autoplayed(catalog, scenario, seed):
        for m in [s.serial for s in st.soldiers.values() if s.free]:
            must, _ = sight_options(st, m)
            assert sight_must(st, m) == must, m
            some += bool(must)
    assert some > 20


def _crewmen(st) -> list[int]:
    return [s.serial for s in st.soldiers.values() if s.status == "aboard"
            and st.vehicles[s.vehicle].status == "board" and position_of(st, s.serial) is not None]


@pytest.mark.parametrize(("content", "scenario", "seed"), GAMES)
def test_a_crewmans_sight_targets_are_those_of_his_whole_sight_table(request, content, scenario, seed):
    """crew_sight_must (range first, line of sight only for the nearest in range) lists the same
    targets as crew_sight_options, which works out the line of sight to every enemy."""
    catalog = request.getfixturevalue("cat" if content == "fixtures" else "shipped")
    some = 0
    for st in _autoplayed(catalog, scenario, seed):
        for m in _crewmen(st):
            must, _ = crew_sight_options(st, m)
            assert crew_sight_must(st, m) == must, m
            some += bool(must)
    assert some > 5
