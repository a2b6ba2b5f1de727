"""Engine benchmark: command apply latency and whole autoplayed games.

    .venv/bin/python tests/benchmarks/bench_engine.py [--games 40]

Targets (issue 2): apply p99 <= 2 ms; one full scenario autoplayed <= 100 ms median. Vehicle
scenarios (issue 7) play two to four times as many commands a game; for them the game target is
read per command (100 ms over the ~60 commands of an infantry game: <= 1.7 ms a command).
`apply` is timed alone (the agent's choice and the legal-command list are not in it); a game
is timed whole (set-up, every agent choice, every apply), as `fieldpost autoplay` plays it.
An apply is timed twice: wall time, and the thread's CPU time (`p99 cpu`), which leaves out the
moments another process held the core (on a shared machine those fill the wall-time tail).
Once the content is loaded the process settles its collector as the bot does
(`bot.startup.settle`: start-up objects frozen, collections rare), so apply runs as in the bot.
The machine is shared and noisy: compare numbers from one run.

`--tail` also says, per scenario, what the slowest 1% of applies by CPU time did (ended a
phase, ended a turn, put several cards in play one after another) and how many of the cycle
collector's passes fell inside timed applies: where the apply p99 comes from (docs/app.md,
Performance). It times nothing differently.
"""
from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.startup import settle  # noqa: E402
from engine import apply, load_catalog, new_game  # noqa: E402
from engine.agent import RandomAgent  # noqa: E402
from engine.turn.setup import SeatSpec  # noqa: E402


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p))]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--tail", action="store_true", help="what the slowest 1%% of applies did, per scenario")
    args = ap.parse_args()
    cat = load_catalog()
    settle()
    print(f"{'scenario':<24} {'apply median':>12} {'apply p99':>10} {'p99 cpu':>9} {'game median':>12} {'games/s':>8}"
          f" {'commands':>9} {'ms/command':>10}")
    worst_p99, worst_cpu, medians, vehicle_per_cmd = 0.0, (0.0, ""), [], []
    passes = [0]  # the collector's passes so far (--tail)
    if args.tail:
        gc.callbacks.append(lambda phase, info: passes.__setitem__(0, passes[0] + (phase == "start")))
    tails = []
    for sc in sorted(cat.scenarios):
        sides = [s.id.value for s in cat.scenario(sc).sides]
        applies, cpu, games, ncmd, what = [], [], [], 0, []
        for seed in range(args.games):
            t0 = time.perf_counter()
            st, _ = new_game(cat, sc, [SeatSpec(name="A", side=sides[0]), SeatSpec(name="B", side=sides[1])], seed)
            agent = RandomAgent(seed)
            while st.step != "over":
                cmd = agent.choose(st, agent.seat_to_act(st))
                before, n_gc = st, passes[0]
                a0, c0 = time.perf_counter(), time.thread_time()
                st, events = apply(st, cmd)
                cpu.append(time.thread_time() - c0)
                applies.append(time.perf_counter() - a0)
                ncmd += 1
                if args.tail:
                    what.append((st.turn != before.turn or st.step == "over", st.phase != before.phase,
                                 sum(e.kind == "card" for e in events), passes[0] - n_gc))
            games.append(time.perf_counter() - t0)
        med, p99, p99_cpu = statistics.median(applies) * 1e3, pct(applies, 0.99) * 1e3, pct(cpu, 0.99) * 1e3
        gmed = statistics.median(games) * 1e3
        per_cmd = sum(games) * 1e3 / ncmd
        worst_p99, worst_cpu = max(worst_p99, p99), max(worst_cpu, (p99_cpu, sc))
        if any(side.vehicles for side in cat.scenario(sc).sides):
            vehicle_per_cmd.append(per_cmd)
        else:
            medians.append(gmed)
        print(f"{sc:<24} {med:>9.3f} ms {p99:>7.3f} ms {p99_cpu:>6.3f} ms {gmed:>9.1f} ms {len(games) / sum(games):>8.2f} "
              f"{ncmd / len(games):>9.1f} {per_cmd:>7.2f} ms")
        if args.tail:
            tails.append((sc, _tail(cpu, what)))
    print(f"\nworst apply p99: {worst_p99:.3f} ms wall, {worst_cpu[0]:.3f} ms cpu ({worst_cpu[1]}) "
          f"(target <= 2 ms, issue 17: <= 1.5 ms); "
          f"fastest / slowest infantry scenario game median: {min(medians):.1f} / {max(medians):.1f} ms "
          f"(target <= 100 ms)")
    if vehicle_per_cmd:
        print(f"vehicle scenarios, a whole game per command: worst {max(vehicle_per_cmd):.2f} ms (target <= 1.7 ms)")
    if args.tail:
        print(f"\nthe slowest 1% of applies by CPU time (from the p99 up); collector passes inside timed applies: "
              f"{sum(t[-1] for _, t in tails)} (of {passes[0]} in the run)")
        print(f"{'scenario':<24} {'applies':>7} {'cpu median':>10} {'turn ended':>10} {'new phase':>11} "
              f"{'2+ cards':>8} {'cards, median':>13}")
        for sc, (n, cpu_med, turns, phases, several, cards, _) in tails:
            print(f"{sc:<24} {n:>7} {cpu_med:>7.3f} ms {turns:>10} {phases:>11} {several:>8} {cards:>13.1f}")
    return 0


def _tail(cpu: list[float], what: list[tuple[bool, bool, int, int]]) -> tuple:
    """Of the applies at or over the p99 of CPU time: how many, their median CPU (ms), how many
    ended a turn (or the game), ended a phase, put two or more cards in play, the median number
    of cards put in play, and the collector's passes inside them (and in every apply: the last)."""
    p99 = pct(cpu, 0.99)
    slow = [w for c, w in zip(cpu, what) if c >= p99]
    return (len(slow), statistics.median(c for c in cpu if c >= p99) * 1e3, sum(w[0] for w in slow),
            sum(w[1] and not w[0] for w in slow), sum(w[2] >= 2 for w in slow),
            statistics.median(w[2] for w in slow), sum(w[3] for w in what))


if __name__ == "__main__":
    raise SystemExit(main())
