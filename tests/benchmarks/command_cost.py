"""What one command costs the service, for profiling (issue 17): not a target, a measuring tool.

    .venv/bin/python tests/benchmarks/command_cost.py time tardieu-bombardment 300
        every game live at once (bench_targets' play_all) in a settled process: commands/s and
        CPU a command, the event loop's thread and the others (the store's writer) apart

    .venv/bin/python tests/benchmarks/command_cost.py rounds tardieu-bombardment 6 [--no-play]
        one command at a time, round robin over the games: what callgrind counts (deterministic
        with PYTHONHASHSEED=0); --no-play opens the games and plays nothing, the run subtracted.
        tests/benchmarks/callgrind_commands.sh runs both under callgrind and prints the
        instructions a command, the loop's thread and all threads.

Run it from any checkout: it measures the code of the checkout it lives in. Under py-spy
(`py-spy record -r 400 -f raw -o out.txt -- .venv/bin/python tests/benchmarks/command_cost.py
time tardieu-bombardment 300`) it gives an unbiased sampling profile; cProfile distorts.
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_targets as bt

from bot.app import GameService
from bot.app.service import Where
from bot.startup import settle
from bot.store import SqliteStore
from engine import load_catalog


async def _run(mode: str, scenario: str, games: int, play: bool) -> None:
    catalog = load_catalog()
    with tempfile.TemporaryDirectory() as tmp:
        async with SqliteStore(Path(tmp) / "bench.db") as store:
            seeds = iter(range(1, 10**6))
            service = GameService(store, catalog, seed=lambda: next(seeds), cache_size=max(2048, games))
            ids = await bt.open_games(service, catalog, scenario, games)
            scripts = {gid: bt.script(catalog, scenario, gid, 30) for gid in ids}
            settle()
            if mode == "rounds":
                done = 0
                for turn in range(30 if play else 0):
                    for gid in ids:
                        if turn < len(scripts[gid]):
                            seat, line = scripts[gid][turn]
                            await service.command(bt.PLAYERS[seat], Where(game_id=gid), line)
                            done += 1
                print(f"commands {done} of {sum(len(s) for s in scripts.values())}")
                return
            collections = [0, 0, 0]

            def counted(phase: str, info: dict) -> None:
                if phase == "start":
                    collections[info["generation"]] += 1

            gc.callbacks.append(counted)
            wall, cpu, loop = time.perf_counter(), time.process_time(), time.thread_time()
            done = await bt.play_all(service, scripts)
            loop = time.thread_time() - loop
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            gc.callbacks.remove(counted)
            print(f"{scenario}: {done} commands, {done / wall:.0f}/s, CPU {cpu * 1e3 / done:.3f} ms a command"
                  f" (the event loop's thread {loop * 1e3 / done:.3f} ms, the others {(cpu - loop) * 1e3 / done:.3f} ms);"
                  f" collections by generation {collections}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("time", "rounds"))
    parser.add_argument("scenario")
    parser.add_argument("games", type=int)
    parser.add_argument("--no-play", action="store_true", help="rounds: open the games, play nothing")
    args = parser.parse_args()
    asyncio.run(_run(args.mode, args.scenario, args.games, not args.no_play))


if __name__ == "__main__":
    main()
