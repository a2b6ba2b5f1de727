"""The play loop the autoplay tests share: random agents play seeded games to the end, every
failure reported with its scenario, players and seed, and a tally of the commands and events
seen so the tests can check that the agents used the rules rather than walked past them.

`fieldpost autoplay --scenario S --players N --seed K --games 1` replays a reported game on the
shipped content.

The test run plays a share of each suite's games, enough for every rule-usage assertion;
`FIELDPOST_AUTOPLAY=full` plays the full counts (before a release, or after a change to the rules)."""
from __future__ import annotations

import functools
import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator


def games(full: int, quick: int) -> int:
    """How many games a suite plays: `quick` in the test run, `full` with FIELDPOST_AUTOPLAY=full."""
    return full if full_run() else quick


def full_run() -> bool:
    """FIELDPOST_AUTOPLAY=full: every suite plays its full count."""
    return os.environ.get("FIELDPOST_AUTOPLAY") == "full"


def vehicle_scenarios(cat) -> list[str]:
    """The scenarios fielding a vehicle or a gun: tests/engine/test_vehicle_autoplay.py plays them."""
    return sorted(s for s, sc in cat.scenarios.items() if any(side.vehicles for side in sc.sides))


@functools.cache
def shipped_catalog():
    """The shipped catalogue, loaded once per worker process rather than once per batch."""
    from engine import load_catalog
    return load_catalog()


def autoplayed(cat, scenario: str, seed: int, commands: int, play: Callable | None = None) -> Iterator:
    """Each state of a two-player game the random agent plays with `seed`, up to `commands`
    commands (fewer if it ends). `play(state, command)` carries each out: `apply` unless given
    (a test watching every apply passes its own)."""
    from engine.agent import RandomAgent
    from engine.apply import apply
    from engine.turn.setup import SeatSpec, new_game

    play = play or apply
    sides = [s.id.value for s in cat.scenario(scenario).sides]
    st, _ = new_game(cat, scenario, [SeatSpec(name="A", side=sides[0]), SeatSpec(name="B", side=sides[1])], seed)
    agent = RandomAgent(seed)
    for _ in range(commands):
        if st.step == "over":
            return
        yield st
        st, _ = play(st, agent.choose(st, agent.seat_to_act(st)))


def played_alike(first, second, seed: int, commands: int) -> None:
    """Two states of one game, made two ways: the random agent (`seed`) chooses each command on
    `first`, both carry it out, and their texts must stay the same after every one, up to
    `commands` commands (fewer if the game ends)."""
    from engine.agent import RandomAgent
    from engine.apply import apply

    agent = RandomAgent(seed)
    for _ in range(commands):
        if first.step == "over":
            return
        cmd = agent.choose(first, agent.seat_to_act(first))
        first, _ = apply(first, cmd)
        second, _ = apply(second, cmd)
        assert first.model_dump_json() == second.model_dump_json(), str(cmd)


def vehicle_states(seeds: int, commands: int) -> Iterator:
    """Each state of the autoplayed games of every vehicle scenario, seeds 0 to `seeds` - 1, up
    to `commands` commands each: the states the vehicles' shortcuts are compared on."""
    cat = shipped_catalog()
    for scenario in vehicle_scenarios(cat):
        for seed in range(seeds):
            yield from autoplayed(cat, scenario, seed, commands)


def play_batch(cat, scenario: str, players: int, seeds: Iterable[int], *, watch: Iterable[str] = (),
               label: str = "", max_commands: int = 5000,
               each: Callable[[object, object, list, Counter, int], None] | None = None) -> tuple[list[str], Counter]:
    """Play one game per seed. `watch`: event kinds to count (as "event:KIND"); `each(st, cmd,
    events, seen, n)` is called after every command for test-specific tallies or checks.
    Returns (problems, seen): `seen` counts command types, watched events and "games"."""
    from engine.agent import RandomAgent
    from engine.apply import apply
    from engine.turn.setup import SeatSpec, new_game
    watched = set(watch)
    sides = [s.id.value for s in cat.scenario(scenario).sides]
    where = f"{scenario}{' ' + label if label else ''} players={players}"
    problems: list[str] = []
    seen: Counter = Counter()
    for seed in seeds:
        try:
            seats = [SeatSpec(name=f"P{i + 1}", side=sides[i % 2]) for i in range(players)]
            st, _ = new_game(cat, scenario, seats, seed)
            agent = RandomAgent(seed)
            n = 0
            while st.step != "over" and n < max_commands:
                cmd = agent.choose(st, agent.seat_to_act(st))
                st, events = apply(st, cmd)
                seen[cmd.type] += 1
                seen.update(f"event:{e.kind}" for e in events if e.kind in watched)
                if each is not None:
                    each(st, cmd, events, seen, n)
                n += 1
            if st.step != "over":
                problems.append(f"{where} seed={seed}: did not finish")
            seen["games"] += 1
        except Exception as exc:  # noqa: BLE001 - every failure is reported with its seed
            problems.append(f"{where} seed={seed}: {type(exc).__name__}: {exc}")
    return problems, seen


def run_jobs(batch: Callable, jobs: list) -> tuple[list[str], Counter]:
    """Run batch(job) for every job on every core; sum the problems and tallies."""
    from concurrent.futures import ProcessPoolExecutor
    problems: list[str] = []
    seen: Counter = Counter()
    with ProcessPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
        for p, s in pool.map(batch, jobs):
            problems += p
            seen += s
    return problems, seen
