"""Issue 17's performance targets in one run: use-case throughput and per-command CPU, apply
p99 per scenario, RSS after many stored games, and the start times of `fieldpost roll` and of
`fieldpost play`'s first command.

    .venv/bin/python tests/benchmarks/bench_targets.py [--games 500] [--commands 30]
        [--processes 1] [--scenarios tardieu-bombardment,hedgerow-dawn|all] [--apply-games 10]
        [--rss-games 1000] [--starts 5] [--skip apply,rss,...]

- throughput: for tardieu-bombardment (vehicles) and hedgerow-dawn (infantry) unless --scenarios
  names others (`all`: every scenario; the targets are per kind, vehicles or not), --games games
  are opened through the use-cases on a real SQLite file and all play their first --commands
  commands at once (one task per game); commands/s is wall time, per-command CPU is the
  process CPU time over the same span, split into the event loop's thread (the use-cases, the
  engine) and the rest (the store's writer thread). Each game's commands are worked out beforehand. This
  process settles as the bot does (bot.startup.settle) once the content is loaded.
  `--processes 1,2` also runs 2 fresh processes on a copy of the same opened database, each
  carrying out the commands of every other game (as shards would, each owning its servers'
  games; docs/discord.md): commands/s from the first start to the last end, CPU summed; and
  commands/s while every process had commands (from the last start to the first end: `all_busy`),
  which is what shards that keep taking commands sustain together. The games are dealt by their
  ids, so one process's games can cost more and it runs on alone at the end, on one core of two.
- apply: `apply` alone, --apply-games autoplayed games per scenario (every scenario, shipped
  content): median and p99 per scenario, and the worst p99, in CPU time of the thread (on a
  machine shared with other jobs a wall-clock p99 measures the others).
- rss: a fresh process opens --rss-games games through the use-cases (tardieu-bombardment),
  dealt from --rss-seeds seeds in turn, plays --commands commands in each, and reports its
  resident set size.
- start: `fieldpost roll bog --bog 1 --pins 1` (as `python -m bot.cli`, this checkout's code) against `python -c "import yaml, pydantic"`,
  and a one-command `fieldpost play --script` (a new hedgerow-dawn game, one `plan`) with the
  parsed-content cache (docs/content.md) cold (an empty cache folder each run) and warm; the
  median wall and CPU time of --starts runs each. The children run as an installed package does,
  with its bytecode (PYTHONDONTWRITEBYTECODE is dropped and one run goes first to write it).

Every child process runs the interpreter that runs this script; the first line printed names
it, with the optimizing flags its build was configured with. Compare runs of one interpreter.

Targets (issue 17): >= 1,500 commands/s on tardieu-bombardment, >= 2,500 on infantry; worst
apply p99 <= 1.5 ms; RSS <= 150 MB after 1,000 games of 30 commands; `fieldpost roll` within 3x
of the bare import; the first command of `fieldpost play` within 0.5 s. The machine is shared and noisy: compare numbers from one run each.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import resource
import sqlite3
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bot.app import Caller, GameService, Where
from bot.startup import settle
from bot.store import SqliteStore
from engine import SeatSpec, apply, awaiting, legal_commands, load_catalog, new_game
from engine.agent import RandomAgent

PLAYERS = (Caller(1, "Ann"), Caller(2, "Bo"))
THROUGHPUT_SCENARIOS = ("tardieu-bombardment", "hedgerow-dawn")
PYTHON = sys.executable  # the children run the interpreter this run measures


def interpreter() -> str:
    """The interpreter this run measures: its path, version and the optimizing configure flags
    its build names (a distribution's build may optimize without naming them)."""
    flags = str(sysconfig.get_config_var("CONFIG_ARGS") or "")
    named = [f for f in ("--enable-optimizations", "--with-lto") if f in flags]
    built = " ".join(named) if named else "configured without --enable-optimizations or --with-lto"
    return f"{sys.executable}, Python {platform.python_version()}, {built}"


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))]


def sides_of(catalog, scenario: str) -> list[str]:
    return [s.id.value for s in catalog.scenario(scenario).sides]


def script(catalog, scenario: str, seed: int, commands: int) -> list[tuple[int, str]]:
    """(seat, command line) for the first `commands` commands of a game played at random."""
    sides = sides_of(catalog, scenario)
    st, _ = new_game(catalog, scenario, [SeatSpec(name=p.name, side=s) for p, s in zip(PLAYERS, sides)], seed)
    rnd = random.Random(seed)
    out: list[tuple[int, str]] = []
    while st.step != "over" and len(out) < commands:
        seat = rnd.choice(awaiting(st)).seat
        cmd = rnd.choice(legal_commands(st, seat))
        st, _ = apply(st, cmd)
        out.append((seat, str(cmd)))
    return out


async def open_games(service: GameService, catalog, scenario: str, games: int) -> list[int]:
    sides = sides_of(catalog, scenario)
    out = []
    for n in range(games):
        where = Where(channel_id=10_000 + n)
        created = await service.new_game(PLAYERS[0], where, scenario, side=sides[0])
        await service.join(PLAYERS[1], where, sides[1])
        await service.start(PLAYERS[0], where)
        out.append(created.game_id)
    return out


async def play_all(service: GameService, scripts: dict[int, list[tuple[int, str]]],
                   stamps: list[float] | None = None) -> int:
    """Every game at once, one task each, through its whole script; the commands played.
    `stamps`: given, it gets the moment (`time.time()`) each command was done."""
    done = 0
    note = stamps.append if stamps is not None else None

    async def player(gid: int) -> None:
        nonlocal done
        for seat, line in scripts[gid]:
            await service.command(PLAYERS[seat], Where(game_id=gid), line)
            done += 1
            if note is not None:
                note(time.time())

    await asyncio.gather(*(player(gid) for gid in scripts))
    return done


async def open_scenario(catalog, scenario: str, games: int, commands: int, tmp: Path,
                        single: bool, keep: bool) -> tuple[dict | None, Path, dict[int, list[tuple[int, str]]]]:
    """`games` games of `scenario` opened through the use-cases on a real SQLite file in `tmp`,
    if `keep` a copy of that database made before any is played (for the shards), and each game's
    script; if `single`, the games then all played in this process (as the bot unsharded): its numbers."""
    db, kept = tmp / f"{scenario}.db", tmp / f"{scenario}-opened.db"
    single_run = None
    async with SqliteStore(db) as store:
        seeds = iter(range(1, 10**6))
        service = GameService(store, catalog, seed=lambda: next(seeds), cache_size=max(2048, games))
        ids = await open_games(service, catalog, scenario, games)
        scripts = {gid: script(catalog, scenario, gid, commands) for gid in ids}
        if keep:
            with sqlite3.connect(db) as src, sqlite3.connect(kept) as dst:
                src.backup(dst)  # the opened games, before any is played
        if single:
            wall, cpu, main = time.perf_counter(), time.process_time(), time.thread_time()
            done = await play_all(service, scripts)
            wall, cpu, main = time.perf_counter() - wall, time.process_time() - cpu, time.thread_time() - main
            for gid in ids:  # a refused command would be timed as if played: make sure none was
                assert (await service.load_state(gid)).seq == len(scripts[gid]), gid
            single_run = {"commands": done, "per_s": done / wall, "cpu_ms": cpu * 1e3 / done,
                          "main_ms": main * 1e3 / done}
    db.unlink()
    return single_run, kept, scripts


def throughput(catalog, scenarios: Sequence[str], games: int, commands: int,
               processes: Sequence[int] = (1,), repeat: int = 1) -> dict[str, dict[int, dict]]:
    """Per scenario, per process count: 1 is this process (as the bot unsharded); P > 1 is P
    fresh processes on a copy of the same opened database, each carrying out the commands of
    every P-th game (as shards would, each owning its servers' games), `repeat` times on fresh
    copies: the run of median commands/s, with every run's rate (`runs`). The repeats go round
    the scenarios (each scenario once, then each again...), so a slow minute of the shared
    machine falls on one run of several scenarios, not on every run of one."""
    out: dict[str, dict[int, dict]] = {sc: {} for sc in scenarios}
    runs: dict[tuple[str, int], list[dict]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        made = {}
        for sc in scenarios:
            single, kept, scripts = asyncio.run(open_scenario(catalog, sc, games, commands, Path(tmp), 1 in processes,
                                                              any(p > 1 for p in processes)))
            made[sc] = (kept, scripts)
            if single is not None:
                out[sc][1] = single
        for n in range(repeat):
            for sc in scenarios:
                kept, scripts = made[sc]
                for p in processes:
                    if p > 1:
                        runs.setdefault((sc, p), []).append(
                            shards(kept, Path(tmp) / f"{sc}-p{p}-{n}.db", sc, scripts, p))
        for (sc, p), done in runs.items():
            done.sort(key=lambda r: r["per_s"])
            busy = sorted(r["busy_per_s"] for r in done)
            out[sc][p] = {**done[len(done) // 2], "runs": [r["per_s"] for r in done],
                          "busy_per_s": busy[len(busy) // 2], "busy_runs": busy}
    return out


def shards(opened: Path, db: Path, scenario: str, scripts: dict[int, list], parts: int) -> dict:
    """`parts` processes on one copy of `opened`, started together: commands/s over the span
    from the first start to the last end; CPU summed over the processes."""
    with sqlite3.connect(opened) as src, sqlite3.connect(db) as dst:
        src.backup(dst)
    plan = db.with_suffix(".json")
    plan.write_text(json.dumps({"db": str(db), "scenario": scenario,
                                "scripts": {str(gid): steps for gid, steps in scripts.items()}}))
    children = [subprocess.Popen([PYTHON, __file__, "--shard-child", str(plan), "--shard", f"{k}/{parts}"],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
                for k in range(parts)]
    for c in children:  # each has loaded its content and read its games
        assert c.stdout.readline().strip() == "ready"
    for c in children:
        c.stdin.write("go\n")
        c.stdin.flush()
    results = [json.loads(c.communicate()[0]) for c in children]
    assert all(c.returncode == 0 for c in children)
    for used in (db, Path(f"{db}-wal"), Path(f"{db}-shm"), plan):  # the rounds keep no copy they are done with
        used.unlink(missing_ok=True)
    done = sum(r["commands"] for r in results)
    wall = max(r["end"] for r in results) - min(r["start"] for r in results)
    cpu, main = sum(r["cpu"] for r in results), sum(r["main"] for r in results)
    return {"commands": done, "per_s": done / wall, "cpu_ms": cpu * 1e3 / done, "main_ms": main * 1e3 / done,
            **all_busy(results)}


def all_busy(results: Sequence[dict]) -> dict:
    """The shards' rate while every one of them had commands to do (why: the module's docstring):
    the commands done from the last start to the first end, over that time (`busy_per_s`), and
    that time's share of the span from the first start to the last end (`busy_share`).
    `results`: each shard's `start`, `end` and the moments its commands were done (`stamps`)."""
    start = max(r["start"] for r in results)
    until = min(r["end"] for r in results)
    span = max(r["end"] for r in results) - min(r["start"] for r in results)
    if until <= start:
        raise ValueError("the shards never all had commands at once")
    done = 0
    for r in results:
        stamps = sorted(r["stamps"])
        done += bisect_right(stamps, until) - bisect_left(stamps, start)
    return {"busy_per_s": done / (until - start), "busy_share": (until - start) / span}


async def shard_child(plan_file: Path, shard: str) -> None:
    """One of the shards' processes: content, settle, its games read into the cache (as the
    single process has them after opening), then on "go" its commands; prints its numbers."""
    k, parts = map(int, shard.split("/"))
    plan = json.loads(plan_file.read_text())
    scripts = {int(gid): [tuple(step) for step in steps] for gid, steps in plan["scripts"].items()
               if int(gid) % parts == k}
    catalog = load_catalog()
    settle()
    async with SqliteStore(Path(plan["db"])) as store:
        service = GameService(store, catalog, cache_size=max(2048, len(scripts)))
        for gid in scripts:
            await service.load_state(gid)
        print("ready", flush=True)
        sys.stdin.readline()
        stamps: list[float] = []
        start, cpu, main = time.time(), time.process_time(), time.thread_time()
        done = await play_all(service, scripts, stamps)
        end, cpu, main = time.time(), time.process_time() - cpu, time.thread_time() - main
        for gid, steps in scripts.items():
            assert (await service.load_state(gid)).seq == len(steps), gid
    print(json.dumps({"commands": done, "start": start, "end": end, "cpu": cpu, "main": main, "stamps": stamps}),
          flush=True)


def apply_latency(catalog, games: int) -> dict[str, tuple[float, float]]:
    out = {}
    for sc in sorted(catalog.scenarios):
        sides = sides_of(catalog, sc)
        applies = []
        for seed in range(games):
            st, _ = new_game(catalog, sc, [SeatSpec(name="A", side=sides[0]), SeatSpec(name="B", side=sides[1])], seed)
            agent = RandomAgent(seed)
            while st.step != "over":
                cmd = agent.choose(st, agent.seat_to_act(st))
                t = time.thread_time()
                st, _ = apply(st, cmd)
                applies.append(time.thread_time() - t)
        out[sc] = (statistics.median(applies) * 1e3, pct(applies, 0.99) * 1e3)
    return out


async def rss_child(scenario: str, games: int, scripts_file: Path) -> None:
    """Run in a fresh process as the bot starts (content loaded, then bot.startup.settle): open
    the games, play the scripts, print the resident set in MB."""
    catalog = load_catalog()
    settle()
    scripts = [[(seat, line) for seat, line in s] for s in json.loads(scripts_file.read_text())]
    with tempfile.TemporaryDirectory() as tmp:
        async with SqliteStore(Path(tmp) / "bench.db") as store:
            made = iter(range(10**6))
            service = GameService(store, catalog, seed=lambda: next(made) % len(scripts) + 1)  # the bot's defaults
            ids = await open_games(service, catalog, scenario, games)
            await play_all(service, {gid: scripts[n % len(scripts)] for n, gid in enumerate(ids)})
            for n, gid in enumerate(ids):
                assert (await service.load_state(gid)).seq == len(scripts[n % len(scripts)]), gid
            rss = next(line for line in Path("/proc/self/status").read_text().splitlines()
                       if line.startswith("VmRSS:"))
            print(int(rss.split()[1]) / 1024)


def rss(catalog, scenario: str, games: int, seeds: int, commands: int) -> float:
    # game n is dealt with seed n % seeds + 1, so a few worked-out scripts serve every game
    scripts = [script(catalog, scenario, seed, commands) for seed in range(1, seeds + 1)]
    with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
        json.dump(scripts, f)
        f.flush()
        out = subprocess.run([PYTHON, __file__, "--rss-child", f.name, "--rss-scenario", scenario,
                              "--rss-games", str(games)], check=True, capture_output=True, text=True).stdout
    return float(out.split()[-1])


def start_times(runs: int) -> dict[str, tuple[float, float]]:
    """Median wall time and median CPU time (user + system) of each command, in seconds."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

    def medians(argv: list[str], cache: Path | None = None) -> tuple[float, float]:
        walls, cpus = [], []
        for i in range(runs + 1):
            if cache is None:  # cold: an empty cache folder each run
                cache_env = {"FIELDPOST_CACHE": tempfile.mkdtemp(dir=tmp)}
            else:
                cache_env = {"FIELDPOST_CACHE": str(cache)}
            before, t = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
            subprocess.run(argv, check=True, capture_output=True, cwd=ROOT, env={**env, **cache_env})
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if i:  # the first run writes the bytecode (and warms the cache)
                walls.append(time.perf_counter() - t)
                cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        return statistics.median(walls), statistics.median(cpus)

    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "one.txt"
        script.write_text("plan 115-P2 110-C3 109-C1\n", encoding="utf-8")
        play = [PYTHON, "-m", "bot.cli", "play", "--scenario", "hedgerow-dawn", "--seed", "7", "--script", str(script)]
        return {"roll": medians([PYTHON, "-m", "bot.cli", "roll", "bog", "--bog", "1", "--pins", "1", "--seed", "1"]),
                "bare": medians([PYTHON, "-c", "import yaml, pydantic"]),
                "play cold": medians(play),
                "play warm": medians(play, Path(tmp) / "warm")}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--commands", type=int, default=30)
    ap.add_argument("--apply-games", type=int, default=10)
    ap.add_argument("--rss-games", type=int, default=1000)
    ap.add_argument("--rss-seeds", type=int, default=50, help="distinct games (seeds) among --rss-games")
    ap.add_argument("--starts", type=int, default=5)
    ap.add_argument("--skip", default="", help="comma-separated: throughput,apply,rss,start")
    ap.add_argument("--scenarios", default=",".join(THROUGHPUT_SCENARIOS),
                    help="comma-separated scenarios for the throughput (`all`: every scenario of the content)")
    ap.add_argument("--processes", default="1",
                    help="comma-separated process counts for the throughput (P > 1: shards on one database)")
    ap.add_argument("--repeat", type=int, default=1,
                    help="P > 1: play each scenario's games this many times (fresh copies of the opened"
                         " database), in rounds over the scenarios, and report the median run; the"
                         " machine's minute varies")
    ap.add_argument("--rss-child", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--shard-child", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--shard", default="0/1", help=argparse.SUPPRESS)
    ap.add_argument("--rss-scenario", default="tardieu-bombardment", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.rss_child:
        asyncio.run(rss_child(args.rss_scenario, args.rss_games, args.rss_child))
        return 0
    if args.shard_child:
        asyncio.run(shard_child(args.shard_child, args.shard))
        return 0
    skip = set(filter(None, args.skip.split(",")))
    print(f"interpreter: {interpreter()}", flush=True)
    catalog = load_catalog()
    settle()  # as the bot does once its content is loaded: throughput and apply run as in the bot
    if "start" not in skip:
        t = start_times(args.starts)
        (roll, roll_cpu), (bare, bare_cpu) = t["roll"], t["bare"]
        print(f"start: fieldpost roll {roll * 1e3:.0f} ms wall / {roll_cpu * 1e3:.0f} ms CPU, import yaml+pydantic "
              f"{bare * 1e3:.0f} ms / {bare_cpu * 1e3:.0f} ms; ratio {roll / bare:.1f}x wall, "
              f"{roll_cpu / bare_cpu:.1f}x CPU (target <= 3x)", flush=True)
        for name in ("play cold", "play warm"):
            wall, cpu = t[name]
            print(f"start: fieldpost {name} cache, first command {wall * 1e3:.0f} ms wall / {cpu * 1e3:.0f} ms CPU "
                  f"(target <= 500 ms wall)", flush=True)
    if "throughput" not in skip:
        processes = [int(p) for p in args.processes.split(",")]
        scenarios = sorted(catalog.scenarios) if args.scenarios == "all" else args.scenarios.split(",")
        measured = throughput(catalog, scenarios, args.games, args.commands, processes, max(1, args.repeat))
        for sc in scenarios:
            for p, r in sorted(measured[sc].items()):
                who = "1 process" if p == 1 else f"{p} processes (shards, one SQLite file)"
                threads = "the event loop's thread" if p == 1 else "the event loops' threads"
                print(f"throughput {sc}, {who}: {args.games} games live, {r['commands']} commands, "
                      f"{r['per_s']:,.0f} commands/s, CPU {r['cpu_ms']:.2f} ms/command "
                      f"({r['cpu_ms'] / 0.5:.1f}x the issue's 0.5 ms floor; {threads} "
                      f"{r['main_ms']:.2f} ms, the store's writer {r['cpu_ms'] - r['main_ms']:.2f} ms)"
                      + (f"; median of {len(r['runs'])} runs: " + ", ".join(f"{x:,.0f}" for x in r["runs"])
                         if len(r.get("runs", ())) > 1 else ""), flush=True)
                if p > 1:
                    print(f"throughput {sc}, {who}, while every process had commands: "
                          f"{r['busy_per_s']:,.0f} commands/s (in the run above, every process was busy {r['busy_share']:.0%} of its span)"
                          + (f"; median of {len(r['busy_runs'])} runs: " + ", ".join(f"{x:,.0f}" for x in r["busy_runs"])
                             if len(r["busy_runs"]) > 1 else ""), flush=True)
    if "apply" not in skip:
        lat = apply_latency(catalog, args.apply_games)
        for sc, (med, p99) in lat.items():
            print(f"apply {sc:<24} median {med:.3f} ms  p99 {p99:.3f} ms")
        worst = max(lat, key=lambda sc: lat[sc][1])
        print(f"apply worst p99: {lat[worst][1]:.3f} ms ({worst}; target <= 1.5 ms)", flush=True)
    if "rss" not in skip:
        mb = rss(catalog, args.rss_scenario, args.rss_games, args.rss_seeds, args.commands)
        print(f"rss: {mb:.0f} MB after {args.rss_games} games of {args.commands} commands "
              f"({args.rss_scenario}; target <= 150 MB)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
