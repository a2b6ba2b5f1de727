"""Games between random agents on the real content, with zero exceptions (1,000 with
FIELDPOST_AUTOPLAY=full, 300 in the test run: tests/engine/autoplay_kit.py).

Spread over every scenario and 2, 3 and 4 players, run on every core. A failure names the
scenario, players and seed, which `fieldpost autoplay --scenario S --players N --seed K --games 1`
reproduces."""
from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor

from engine import load_catalog
from tests.engine.autoplay_kit import games, shipped_catalog

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
    scenarios = sorted(load_catalog().scenarios)
    jobs = []
    per = GAMES // len(scenarios)
    for k, sc in enumerate(scenarios):
        n = per + (GAMES - per * len(scenarios) if k == 0 else 0)
        for players in (2, 3, 4):
            seeds = [s for s in range(n) if s % 3 == players - 2]
            for chunk in range(0, len(seeds), 25):
                jobs.append((sc, players, seeds[chunk:chunk + 25]))
    assert sum(len(j[2]) for j in jobs) == GAMES
    with ProcessPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
        problems = [p for batch in pool.map(_batch, jobs) for p in batch]
    assert problems == []
