"""Games between random agents on the real content, with zero exceptions (1,000 with
FIELDPOST_AUTOPLAY=full over every scenario: tests/engine/autoplay_kit.py).

Spread over every scenario and 2, 3 and 4 players, run on every core. In the test run the
scenarios fielding vehicles are left to tests/engine/test_vehicle_autoplay.py, which plays each of
them at 2, 3 and 4 players (and the battlefield suite two of them 150 times more); the other
scenarios play the same seeds as in a 300-game spread over all of them (23 or 24 games each).
A failure names the scenario, players and seed, which
`fieldpost autoplay --scenario S --players N --seed K --games 1` reproduces."""
from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor

import pytest

from engine import load_catalog
from tests.engine.autoplay_kit import (
    full_run,
    games,
    shipped_catalog,
    vehicle_scenarios,
)

pytestmark = pytest.mark.slow  # started first on a worker: tests/conftest.py

GAMES = games(1000, 300)


def _batch(args: tuple[str, int, list[int]]) -> list[str]:
    from bot.console.autoplay import play_one
    scenario, players, seeds = args
    cat = shipped_catalog()
    problems = []
    for seed in seeds:
        try:
            r = play_one(cat, scenario, seed, players)
            if not r.finished:
                problems.append(f"{scenario} players={players} seed={seed}: did not finish")
        except Exception as exc:  # every failure is reported with its seed
            problems.append(f"{scenario} players={players} seed={seed}: {type(exc).__name__}: {exc}")
    return problems


def test_autoplayed_games_on_every_scenario_raise_no_exception():
    cat = load_catalog()
    scenarios = sorted(cat.scenarios)
    played_elsewhere = set() if full_run() else set(vehicle_scenarios(cat))
    jobs = []
    per = GAMES // len(scenarios)
    for k, sc in enumerate(scenarios):
        n = per + (GAMES - per * len(scenarios) if k == 0 else 0)
        if sc in played_elsewhere:
            continue
        for players in (2, 3, 4):
            seeds = [s for s in range(n) if s % 3 == players - 2]
            for chunk in range(0, len(seeds), 25):
                jobs.append((sc, players, seeds[chunk:chunk + 25]))
    assert {j[0] for j in jobs} | played_elsewhere == set(scenarios), "every scenario is played in the run"
    with ProcessPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
        problems = [p for batch in pool.map(_batch, jobs) for p in batch]
    assert problems == []
