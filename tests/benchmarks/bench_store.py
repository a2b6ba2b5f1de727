"""Store-only benchmark: load+commit latency with 500 stored games and sustained commits/s.

    .venv/bin/python tests/benchmarks/bench_store.py [--games 500] [--seconds 5]

Each game's state is ~30 KB of game-shaped JSON; each command appends two ~250-byte events
and one in twenty snapshots a new phase. The engine's apply time is not included.
Targets: p99 load+commit <= 15 ms, >= 1,000 commands/s.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

from bot.store import GameLocks, GameStatus, Seat, SqliteStore, VersionConflict

SIDES = ("US", "GER")
TERRAIN = ("open", "hedge", "wood", "building", "wall", "crater", "road")


def game_state(rng: random.Random, turn: int = 1) -> str:
    """A plausible mid-game document: soldiers, tiles, deck, hands, log, rng."""
    soldiers = [
        {
            "id": f"{side.lower()}-{n}",
            "name": f"{rng.choice(['Pvt', 'Cpl', 'Sgt'])} {rng.randrange(10**5)}",
            "side": side,
            "tile": [rng.randrange(9), rng.randrange(6)],
            "facing": rng.randrange(6),
            "weapon": rng.choice(["M1 Garand", "Thompson", "BAR", "Kar98k", "MP40", "MG42"]),
            "ammo": rng.randrange(8),
            "wounds": rng.randrange(3),
            "status": rng.choice(["ready", "pinned", "hidden", "spent"]),
            "skills": rng.sample(["marksman", "veteran", "medic", "leader", "grenadier"], 2),
            "cards": [rng.randrange(54) for _ in range(3)],
        }
        for side in SIDES for n in range(24)
    ]
    tiles = [
        {"id": f"t{x}{y}", "x": x, "y": y, "terrain": rng.choice(TERRAIN),
         "features": rng.sample(TERRAIN, 2), "cover": rng.randrange(3),
         "elevation": rng.randrange(2)}
        for x in range(9) for y in range(6)
    ]
    log = [
        {"turn": turn, "seq": n,
         "text": f"Soldier {rng.randrange(28)} fires at {rng.randrange(28)}: rolls"
                 f" {[rng.randrange(1, 7) for _ in range(4)]} and scores {rng.randrange(3)} hits."}
        for n in range(140)
    ]
    return json.dumps({
        "scenario": "hill-30", "turn": turn, "phase": 1, "rng": rng.getrandbits(64),
        "soldiers": soldiers, "tiles": tiles,
        "deck": {side: rng.sample(range(54), 54) for side in SIDES},
        "hands": {side: rng.sample(range(54), 7) for side in SIDES},
        "log": log,
    })


def event(rng: random.Random, version: int) -> str:
    return json.dumps({
        "type": "fire", "version": version, "shooter": f"us-{rng.randrange(14)}",
        "target": f"ger-{rng.randrange(14)}", "dice": [rng.randrange(1, 7) for _ in range(6)],
        "hits": rng.randrange(3), "card": rng.randrange(54), "note": "x" * 120,
    })


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def command(store: SqliteStore, game_id: int, rng: random.Random, states: list[str]) -> int:
    """Load, swap in a new state, commit two events; retry on conflict. Returns conflicts."""
    conflicts = 0
    while True:
        game = await store.load_game(game_id)
        snapshot = f"T{game.version}P1" if rng.random() < 0.05 else None
        try:
            await store.commit(
                game_id, game.version, rng.choice(states),
                [event(rng, game.version), event(rng, game.version)], snapshot=snapshot,
            )
            return conflicts
        except VersionConflict:
            conflicts += 1


async def run(games: int, seconds: float, path: Path) -> None:
    rng = random.Random(1944)
    states = [game_state(rng, turn) for turn in range(1, 9)]
    size_kb = statistics.mean(len(s) for s in states) / 1024
    async with SqliteStore(path) as store:
        ids = []
        for n in range(games):
            game = await store.create_game(
                guild_id=1, channel_id=1000 + n, scenario_id="hill-30", organiser_id=7,
                state=states[n % len(states)], status=GameStatus.ACTIVE,
                seats=[Seat(0, "US", 7, "a"), Seat(1, "GER", 8, "b")],
            )
            ids.append(game.id)

        # 1. One command at a time, a random game each: latency of load + commit.
        load_ms, commit_ms, both_ms = [], [], []
        for _ in range(3000):
            game_id = rng.choice(ids)
            t0 = time.perf_counter()
            game = await store.load_game(game_id)
            t1 = time.perf_counter()
            await store.commit(game_id, game.version, rng.choice(states),
                               [event(rng, game.version), event(rng, game.version)],
                               snapshot=f"T{game.version}P1" if rng.random() < 0.05 else None)
            t2 = time.perf_counter()
            load_ms.append((t1 - t0) * 1e3)
            commit_ms.append((t2 - t1) * 1e3)
            both_ms.append((t2 - t0) * 1e3)

        # 2. Every game live at once: one task per game, commands back to back.
        done = 0
        conflicts = 0
        latencies: list[float] = []
        stop = time.perf_counter() + seconds

        async def player(game_id: int, seed: int) -> None:
            nonlocal done, conflicts
            own = random.Random(seed)
            while time.perf_counter() < stop:
                t0 = time.perf_counter()
                lost = await command(store, game_id, own, states)  # not `+= await`: racy
                latencies.append((time.perf_counter() - t0) * 1e3)
                conflicts += lost
                done += 1

        t0 = time.perf_counter()
        await asyncio.gather(*(player(game_id, n) for n, game_id in enumerate(ids)))
        elapsed = time.perf_counter() - t0

        # 3. Contention: 50 tasks on 20 hot games, serialised per game by GameLocks as the
        # use-case layer will do, so commands queue instead of conflicting.
        locks = GameLocks()
        shared_done = 0
        shared_conflicts = 0
        stop = time.perf_counter() + seconds / 2

        async def roamer(seed: int) -> None:
            nonlocal shared_done, shared_conflicts
            own = random.Random(seed)
            while time.perf_counter() < stop:
                game_id = own.choice(ids[:20])
                async with locks.for_game(game_id):
                    lost = await command(store, game_id, own, states)
                shared_conflicts += lost
                shared_done += 1

        t1 = time.perf_counter()
        await asyncio.gather(*(roamer(n) for n in range(50)))
        shared_elapsed = time.perf_counter() - t1

    db_mb = sum(f.stat().st_size for f in path.parent.glob(path.name + "*")) / 2**20
    print(f"store benchmark: {games} games, state ~{size_kb:.1f} KB, 2 events/command,"
          f" 5% snapshots, file {db_mb:.0f} MB")
    print(f"{'measure':44} {'median':>9} {'p99':>9} {'max':>9}")
    for name, samples in (("load_game (ms), sequential", load_ms),
                          ("commit (ms), sequential", commit_ms),
                          ("load+commit (ms), sequential", both_ms),
                          (f"load+commit (ms), {games} tasks at once", latencies)):
        print(f"{name:44} {statistics.median(samples):9.2f} {percentile(samples, 0.99):9.2f}"
              f" {max(samples):9.2f}")
    print(f"{'sustained commits/s, ' + str(games) + ' live games':44} {done / elapsed:9.0f}"
          f"   ({done} commands in {elapsed:.1f} s, {conflicts} conflicts retried)")
    print(f"{'commits/s, 50 tasks on 20 hot games, locked':44} {shared_done / shared_elapsed:9.0f}"
          f"   ({shared_done} commands, {shared_conflicts} conflicts retried)")
    p99 = percentile(both_ms, 0.99)
    rate = done / elapsed
    print(f"targets: p99 load+commit <= 15 ms: {'met' if p99 <= 15 else 'MISSED'} ({p99:.2f});"
          f" >= 1,000 commands/s: {'met' if rate >= 1000 else 'MISSED'} ({rate:.0f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="fieldpost-bench-") as tmp:
        asyncio.run(run(args.games, args.seconds, Path(tmp) / "bench.db"))


if __name__ == "__main__":
    main()
