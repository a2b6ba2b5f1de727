"""Several bot processes on one database: commands/s and latency with 1, 2 and 4 processes, over
SQLite and over PostgreSQL (a throwaway cluster, tests/pg.py), 500 live games.

    .venv/bin/python tests/benchmarks/bench_scale.py [--games 500] [--seconds 10]
        [--processes 1 2 4] [--stores sqlite postgres]

The games (the fixture's yard) are opened once per store through the use-cases, and each game's
commands are worked out beforehand by playing it in memory with random legal commands (as
bench_app.py does). Each run starts from a copy of that database: P processes, each with its
own store connection and `GameService`, each carrying out the commands of every P-th game:

- latency: for --latency-seconds, each process one command at a time, round robin over its
  games (all processes at once): median and p99 of `GameService.command`;
- sustained: then for --seconds, one task per game, all games live at once: commands/s over all
  processes, and the median and p99 latency there (which measure the queue of 500 games).

Reported per run, with its ratio to one process, and the load average before and after, since
the machine is shared.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bot.app import GameService, Where
from bot.store import open_store
from engine import load_catalog
from tests.benchmarks.bench_app import PLAYERS, SIDES, pct, script

FIXTURE = ROOT / "tests" / "fixtures" / "rules"
SCENARIO = "yard"
STARTUP_S = 6.0  # the processes' imports, before they all begin together


async def open_games(url: str, catalog, count: int) -> list[int]:
    """`count` started games, game n with seed n (so `script(..., n, ...)` plays it)."""
    seeds = iter(range(1, 10**6))
    async with open_store(url) as store:
        service = GameService(store, catalog, seed=lambda: next(seeds))
        ids = []
        for n in range(count):
            where = Where(channel_id=10_000 + n)
            created = await service.new_game(PLAYERS[0], where, SCENARIO, side=SIDES[0])
            await service.join(PLAYERS[1], where, SIDES[1])
            await service.start(PLAYERS[0], where)
            ids.append(created.game_id)
    return ids


async def child(url: str, plan_file: str) -> None:
    """One process: the commands of its games, first one at a time, then one task per game."""
    plan = json.loads(Path(plan_file).read_text())
    scripts = {int(gid): steps for gid, steps in plan["scripts"].items()}
    cursor = dict.fromkeys(scripts, 0)
    sequential: list[float] = []
    latencies: list[float] = []
    errors = 0
    async with open_store(url) as store:
        service = GameService(store, load_catalog(FIXTURE))

        async def step(gid: int, into: list[float]) -> bool:
            nonlocal errors
            if cursor[gid] >= len(scripts[gid]):
                return False
            seat, line = scripts[gid][cursor[gid]]
            cursor[gid] += 1
            t = time.perf_counter()
            try:
                await service.command(PLAYERS[seat], Where(game_id=gid), line)
            except Exception:  # noqa: BLE001 (counted: a benchmark reports, it does not stop)
                errors += 1
                cursor[gid] = len(scripts[gid])
                return False
            into.append(time.perf_counter() - t)
            return True

        await asyncio.sleep(max(0.0, plan["start_at"] - time.time()))
        busy = plan["start_at"] + plan["latency_seconds"]
        while time.time() < busy:
            if not any([await step(gid, sequential) for gid in scripts if time.time() < busy]):
                break
        await asyncio.sleep(max(0.0, busy - time.time()))
        stop = busy + plan["seconds"]

        async def player(gid: int) -> None:
            while time.time() < stop and await step(gid, latencies):
                pass

        began, cpu = time.time(), time.process_time()
        await asyncio.gather(*(player(gid) for gid in scripts))
        took = min(time.time(), stop) - began
        cpu = time.process_time() - cpu
    print(json.dumps({"sequential": sequential, "latencies": latencies, "errors": errors, "took": took,
                      "cpu": cpu}), flush=True)


async def run(url: str, games: list[int], scripts: dict[int, list], processes: int,
              args: argparse.Namespace, tmp: Path) -> dict[str, float]:
    start_at = time.time() + STARTUP_S
    procs = []
    for p in range(processes):
        plan = tmp / f"plan-{processes}-{p}.json"
        plan.write_text(json.dumps({"start_at": start_at, "seconds": args.seconds,
                                    "latency_seconds": args.latency_seconds,
                                    "scripts": {gid: scripts[gid] for gid in games[p::processes]}}))
        procs.append(await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--child", url, str(plan), cwd=ROOT,
            stdout=asyncio.subprocess.PIPE))
    outs = [json.loads((await proc.communicate())[0].decode().splitlines()[-1]) for proc in procs]
    latencies = [x for out in outs for x in out["latencies"]]
    sequential = [x for out in outs for x in out["sequential"]]
    took = max(out["took"] for out in outs)
    return {"commands": len(latencies), "per_s": len(latencies) / took, "errors": sum(o["errors"] for o in outs),
            "cpu": sum(o["cpu"] for o in outs) / took,  # cores the bot processes kept busy
            "p50": statistics.median(latencies) * 1e3, "p99": pct(latencies, 0.99) * 1e3,
            "seq_p50": statistics.median(sequential) * 1e3, "seq_p99": pct(sequential, 0.99) * 1e3}


async def main(args: argparse.Namespace) -> None:
    catalog = load_catalog(FIXTURE)
    load_before = os.getloadavg()
    print(f"{os.cpu_count()} cores; load average {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}")
    rows = []
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        rnd = random.Random(7)
        t0 = time.perf_counter()
        scripts = {n: script(catalog, SCENARIO, n, rnd) for n in range(1, args.games + 1)}
        print(f"worked out {sum(map(len, scripts.values()))} commands for {args.games} games "
              f"in {time.perf_counter() - t0:.1f} s")
        for kind in args.stores:
            cluster = None
            try:
                if kind == "postgres":
                    from tests.pg import Cluster, server_binaries

                    bindir = server_binaries()
                    if bindir is None:
                        print("postgres: no server binaries; skipped")
                        continue
                    cluster = Cluster(bindir).start()
                    await cluster.make_template()
                    base = await cluster.create_database()
                    base_url = cluster.dsn(base)
                else:
                    base_url = str(tmp / "base.db")
                t0 = time.perf_counter()
                games = await open_games(base_url, catalog, args.games)
                print(f"{kind}: opened {len(games)} games in {time.perf_counter() - t0:.1f} s")
                by_game = {gid: scripts[n] for n, gid in enumerate(games, 1)}
                for processes in args.processes:
                    if cluster is not None:
                        name = cluster.new_name()
                        await copy_database(cluster, base, name)
                        url = cluster.dsn(name)
                    else:
                        url = str(tmp / f"run-{processes}.db")
                        copy_file(Path(base_url), Path(url))
                    result = await run(url, games, by_game, processes, args, tmp)
                    rows.append((kind, processes, result))
                    print(f"{kind}, {processes} process(es): one at a time p50 {result['seq_p50']:.1f} ms, "
                          f"p99 {result['seq_p99']:.1f} ms; all games live {result['per_s']:,.0f} commands/s, "
                          f"p50 {result['p50']:.0f} ms, p99 {result['p99']:.0f} ms ({result['commands']} commands, "
                          f"{result['errors']} errors), bot processes' CPU {result['cpu']:.2f} cores", flush=True)
            finally:
                if cluster is not None:
                    cluster.stop()
    load_after = os.getloadavg()
    print(f"\nload average after: {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f}\n")
    print("| store | processes | one at a time: p50 ms | p99 ms | all live: commands/s | vs 1 process "
          "| p50 ms | p99 ms | CPU (cores) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for kind, processes, r in rows:
        one = next((x for k, p, x in rows if k == kind and p == 1), None)
        ratio = f"{r['per_s'] / one['per_s']:.2f}" if one else "—"
        print(f"| {kind} | {processes} | {r['seq_p50']:.1f} | {r['seq_p99']:.1f} | {r['per_s']:,.0f} | {ratio} "
              f"| {r['p50']:.0f} | {r['p99']:.0f} | {r['cpu']:.2f} |")


async def copy_database(cluster, base: str, name: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(cluster.dsn("postgres"))
    try:
        await conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{base}"')
    finally:
        await conn.close()


def copy_file(source: Path, target: Path) -> None:
    """A consistent copy of the SQLite file (its WAL folded in) through the backup API."""
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        asyncio.run(child(sys.argv[2], sys.argv[3]))
    else:
        parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
        parser.add_argument("--games", type=int, default=500)
        parser.add_argument("--seconds", type=float, default=10.0, help="all games live at once")
        parser.add_argument("--latency-seconds", type=float, default=5.0, help="one command at a time")
        parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 4])
        parser.add_argument("--stores", nargs="+", choices=("sqlite", "postgres"), default=["sqlite", "postgres"])
        asyncio.run(main(parser.parse_args()))
