"""300 games with vehicles and guns between random agents, with zero exceptions (issue 7).

Spread over every scenario that fields a vehicle, with 2, 3 and 4 players, on every core. The
agents must also have used the vehicles: driving, firing, loading, sighting from inside, and
vehicles hit — so the games exercise the rules rather than walk past them. A failure names the
scenario, players and seed, which `fieldpost autoplay --scenario S --players N --seed K --games 1`
reproduces."""
from __future__ import annotations

import os
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from engine import load_catalog

GAMES = 300


def _batch(args: tuple[str, int, list[int]]) -> tuple[list[str], Counter]:
    from engine.agent import RandomAgent
    from engine.apply import apply
    from engine.setup import SeatSpec, new_game
    scenario, players, seeds = args
    cat = load_catalog()
    sides = [s.id.value for s in cat.scenario(scenario).sides]
    problems, seen = [], Counter()
    for seed in seeds:
        try:
            seats = [SeatSpec(name=f"P{i + 1}", side=sides[i % 2]) for i in range(players)]
            st, _ = new_game(cat, scenario, seats, seed)
            agent = RandomAgent(seed)
            n = 0
            while st.step != "over" and n < 5000:
                cmd = agent.choose(st, agent.seat_to_act(st))
                st, events = apply(st, cmd)
                seen[cmd.type] += 1
                seen.update(f"event:{e.kind}" for e in events if e.kind in (
                    "vehicle_hit", "vehicle_damage", "destroyed", "bogged", "radio", "abandon", "run_over"))
                n += 1
            if st.step != "over":
                problems.append(f"{scenario} players={players} seed={seed}: did not finish")
            seen["games"] += 1
        except Exception as exc:  # every failure is reported with its seed
            problems.append(f"{scenario} players={players} seed={seed}: {type(exc).__name__}: {exc}")
    return problems, seen


def test_three_hundred_games_with_vehicles_raise_no_exception_and_use_the_vehicles():
    cat = load_catalog()
    scenarios = sorted(s for s, sc in cat.scenarios.items() if any(side.vehicles for side in sc.sides))
    assert len(scenarios) >= 2, "a scenario with vehicles on both sides and one with a gun"
    jobs = []
    per = GAMES // len(scenarios)
    for k, sc in enumerate(scenarios):
        n = per + (GAMES - per * len(scenarios) if k == 0 else 0)
        for players in (2, 3, 4):
            seeds = [10_000 + s for s in range(n) if s % 3 == players - 2]
            for chunk in range(0, len(seeds), 20):
                jobs.append((sc, players, seeds[chunk:chunk + 20]))
    with ProcessPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
        results = list(pool.map(_batch, jobs))
    problems = [p for batch, _ in results for p in batch]
    seen = sum((c for _, c in results), Counter())
    assert problems == []
    assert seen["games"] == GAMES
    for kind in ("vmove", "vturn", "fire", "load", "unbutton", "dismount", "event:vehicle_hit"):
        assert seen[kind] > 0, f"no {kind} in {GAMES} games: {seen}"
