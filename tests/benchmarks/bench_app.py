"""Use-case benchmark: `GameService.command` (load, apply, commit, replies) with 500 stored games.

    .venv/bin/python tests/benchmarks/bench_app.py [--games 500] [--seconds 10]
        [--scenario yard] [--content fixture|shipped] [--cache 2048]

Every game is opened through the use-cases (new game, join, start) on a real SQLite file in a
temp dir. Each game's commands are worked out beforehand by playing the same game (same
scenario, seats and seed) in memory with random legal commands, so the timed loop measures
the use-case alone, not a player choosing. Reported:

- latency, sequential: one command at a time, round robin over all games (median, p99);
- sustained: one task per game, all at once, for --seconds: commands per second.

Targets: p99 <= 15 ms, >= 1,000 commands/s.
"""
from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bot.app import Caller, GameService, Where  # noqa: E402
from bot.store import SqliteStore  # noqa: E402
from engine import SeatSpec, apply, awaiting, legal_commands, load_catalog, new_game  # noqa: E402

PLAYERS = (Caller(1, "Ann"), Caller(2, "Bo"))
SIDES = ("US", "DE")


def script(catalog, scenario: str, seed: int, rnd: random.Random) -> list[tuple[int, str]]:
    """(seat, command line) for a whole game played at random."""
    st, _ = new_game(catalog, scenario, [SeatSpec(name=p.name, side=s) for p, s in zip(PLAYERS, SIDES)], seed)
    out = []
    while st.step != "over":
        seat = rnd.choice(awaiting(st)).seat
        cmd = rnd.choice(legal_commands(st, seat))
        st, _ = apply(st, cmd)
        out.append((seat, str(cmd)))
    return out


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))]


async def main(args: argparse.Namespace) -> None:
    catalog = load_catalog(ROOT / "tests" / "fixtures" / "rules" if args.content == "fixture" else None)
    rnd = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        async with SqliteStore(Path(tmp) / "bench.db") as store:
            seeds = iter(range(1, 10**6))
            service = GameService(store, catalog, seed=lambda: next(seeds), cache_size=args.cache)
            t0 = time.perf_counter()
            games = []
            for n in range(args.games):
                where = Where(channel_id=10_000 + n)
                created = await service.new_game(PLAYERS[0], where, args.scenario, side=SIDES[0])
                await service.join(PLAYERS[1], where, SIDES[1])
                await service.start(PLAYERS[0], where)
                games.append(created.game_id)
            print(f"opened {len(games)} games in {time.perf_counter() - t0:.1f} s")
            t0 = time.perf_counter()
            scripts = {gid: script(catalog, args.scenario, gid, rnd) for gid in games}
            total = sum(len(s) for s in scripts.values())
            print(f"worked out {total} commands in {time.perf_counter() - t0:.1f} s "
                  f"({total / len(games):.0f} per game)")
            game_file = Path(tmp) / "bench.db"
            state_kb = len((await store.load_game(games[0])).state) / 1024
            print(f"state JSON {state_kb:.0f} KB; database {game_file.stat().st_size / 2**20:.0f} MiB")

            cursor = {gid: 0 for gid in games}

            async def step(gid: int) -> bool:
                i = cursor[gid]
                if i >= len(scripts[gid]):
                    return False
                seat, line = scripts[gid][i]
                cursor[gid] = i + 1
                await service.command(PLAYERS[seat], Where(game_id=gid), line)
                return True

            # latency: sequential, round robin, a third of each game
            latencies = []
            for _ in range(max(1, min(len(s) for s in scripts.values()) // 3)):
                for gid in games:
                    t = time.perf_counter()
                    if await step(gid):
                        latencies.append(time.perf_counter() - t)
            print(f"latency, sequential over {len(games)} games, {len(latencies)} commands: "
                  f"median {statistics.median(latencies) * 1e3:.2f} ms, "
                  f"p99 {pct(latencies, 0.99) * 1e3:.2f} ms, max {max(latencies) * 1e3:.1f} ms")

            # sustained: every game at once
            done = 0
            stop = time.perf_counter() + args.seconds

            async def player(gid: int) -> None:
                nonlocal done
                while time.perf_counter() < stop and await step(gid):
                    done += 1

            t = time.perf_counter()
            await asyncio.gather(*(player(gid) for gid in games))
            took = time.perf_counter() - t
            print(f"sustained, {len(games)} games live at once: {done} commands in {took:.1f} s "
                  f"= {done / took:,.0f} commands/s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--scenario", default="yard")
    parser.add_argument("--content", choices=("fixture", "shipped"), default="fixture")
    parser.add_argument("--cache", type=int, default=2048, help="games kept parsed in memory")
    asyncio.run(main(parser.parse_args()))
