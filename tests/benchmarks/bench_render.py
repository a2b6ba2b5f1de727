"""Board render benchmark: one phase picture for the largest scenario, mid-game.

    .venv/bin/python tests/benchmarks/bench_render.py [--runs 30] [--scenario ID]
    .venv/bin/python tests/benchmarks/bench_render.py --pool 2 [--runs 5] [--boards 24]

Measures what the bot pays per phase once the map layer is cached (one composite of the
figures, markers, trail and header over the cached map, plus one PNG encode), and in the same
run a bare PNG encode of the very same final image. Targets: median <= 1.5x the bare encode,
and under 60 ms.

`--pool N`: throughput instead. RenderService asked for `--boards` boards of six games at once
(as a burst of phases across games reaches the bot), drawn by its one thread and then by a pool
of N worker processes; boards per second, median of `--runs` bursts, each after a warm-up that
starts the workers and fills their layer caches, and the ratio of the two.
"""
from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time

from bot.console.render import play
from bot.render.board import BoardPanel
from bot.render.encode import png_bytes
from bot.render.panel import LayerCache
from bot.render.service import RenderService
from engine import load_catalog, new_game, view
from engine.turn.setup import SeatSpec


def largest(cat) -> str:
    return max(cat.scenarios, key=lambda k: len(cat.scenarios[k].map[0]) * len(cat.scenarios[k].map))


def mid_game(cat, scenario: str, seeds=range(1, 7)):
    """The busiest picture from the middle half of a few seeded games: most figures on the
    board, then most trail marks (a phase's moves and shots)."""
    sides = [s.id.value for s in cat.scenario(scenario).sides]
    best, best_key = None, None
    for seed in seeds:
        st, _ = new_game(cat, scenario, [SeatSpec(name=f"P{i}", side=s) for i, s in enumerate(sides)], seed=seed)
        states = list(play(st, random.Random(seed)))
        for s in states[len(states) // 4: 3 * len(states) // 4]:
            if s.step == "over":
                continue
            v = view(s)
            key = (sum(x.status == "board" for x in v.soldiers), len(v.trail))
            if best_key is None or key > best_key:
                best, best_key = v, key
    return best


async def boards_per_second(svc: RenderService, views: list, boards: int, runs: int) -> float:
    """Median boards/s over `runs` bursts of `boards` renders asked for at once."""
    async def burst() -> float:
        t0 = time.perf_counter()
        done = await asyncio.gather(*(svc.render(views[i % len(views)], "board") for i in range(boards)))
        took = time.perf_counter() - t0
        assert all(done), "a render failed"
        return boards / took
    await burst()  # warm: workers started, each one's map layer drawn
    return statistics.median([await burst() for _ in range(runs)])


def throughput(cat, scenario: str, processes: int, boards: int, runs: int) -> None:
    views = [mid_game(cat, scenario, seeds=[seed]) for seed in range(1, 7)]  # six games of one map
    rates = {}
    for label, n in (("1 thread", 0), (f"pool of {processes} processes", processes)):
        svc = RenderService(processes=n)
        try:
            rates[label] = asyncio.run(boards_per_second(svc, views, boards, runs))
        finally:
            svc.close()
        print(f"{label:>22}: {rates[label]:5.1f} boards/s (median of {runs} bursts of {boards})")
    one, pool = rates.values()
    print(f"ratio pool / thread: {pool / one:.2f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=None, help="30 (latency) or 5 bursts (--pool)")
    ap.add_argument("--scenario")
    ap.add_argument("--pool", type=int, metavar="N", help="boards/s: one thread against N worker processes")
    ap.add_argument("--boards", type=int, default=24, help="renders asked for at once in a burst (--pool)")
    args = ap.parse_args()
    cat = load_catalog()
    scenario = args.scenario or largest(cat)
    if args.pool:
        throughput(cat, scenario, args.pool, args.boards, args.runs or 5)
        return
    args.runs = args.runs or 30
    v = mid_game(cat, scenario)
    panel, layers = BoardPanel(), LayerCache()
    panel.render(v, layers)  # the first phase of a game draws the map layer; later ones reuse it
    full, bare = [], []
    for _ in range(args.runs):
        t0 = time.perf_counter()
        img = panel.render(v, layers)
        png_bytes(img)
        t1 = time.perf_counter()
        png_bytes(img)
        t2 = time.perf_counter()
        full.append(t1 - t0)
        bare.append(t2 - t1)
    f, b = statistics.median(full) * 1000, statistics.median(bare) * 1000
    print(f"scenario {scenario}: {img.width}x{img.height}, {sum(s.status == 'board' for s in v.soldiers)} figures, "
          f"{len(v.trail)} trail marks, map layer cache {layers.hits} hits / {layers.misses} miss")
    print(f"render + PNG encode: median {f:.1f} ms over {args.runs} runs (target < 60 ms)")
    print(f"bare PNG encode:     median {b:.1f} ms")
    print(f"ratio: {f / b:.2f}x (target <= 1.5x)")


if __name__ == "__main__":
    main()
