"""`fieldpost autoplay`: K games between random agents; reports what happened and how fast.

Exits non-zero on any exception (with the seed that reproduces it), so it doubles as a
smoke test of the whole engine on the real content."""
from __future__ import annotations

import json
import statistics
import sys
import time
import traceback
from dataclasses import asdict, dataclass, field

from engine import apply, load_catalog, new_game
from engine.agent import RandomAgent
from engine.core.content import Catalog
from engine.turn.setup import SeatSpec

MAX_COMMANDS = 20_000  # a game that never ends is a bug


@dataclass
class GameStats:
    seed: int
    finished: bool
    turns: int
    commands: int
    winner: str | None
    vp: dict[str, int]
    kills: int
    reason: str
    seconds: float


@dataclass
class Summary:
    scenario: str
    games: int
    finished: int = 0
    errors: list[str] = field(default_factory=list)
    results: list[GameStats] = field(default_factory=list)

    def report(self) -> dict:
        rs = self.results
        secs = [r.seconds for r in rs]
        wins: dict[str, int] = {}
        for r in rs:
            wins[r.winner or "draw"] = wins.get(r.winner or "draw", 0) + 1
        sides = sorted({s for r in rs for s in r.vp})
        return {
            "scenario": self.scenario, "games": self.games, "finished": self.finished, "errors": len(self.errors),
            "turns_mean": round(statistics.mean(r.turns for r in rs), 2) if rs else 0,
            "commands_mean": round(statistics.mean(r.commands for r in rs), 1) if rs else 0,
            "kills_mean": round(statistics.mean(r.kills for r in rs), 2) if rs else 0,
            "vp_mean": {s: round(statistics.mean(r.vp.get(s, 0) for r in rs), 2) for s in sides} if rs else {},
            "wins": wins,
            "instant_victories": sum(1 for r in rs if "instant" in r.reason),
            "ms_per_game_median": round(statistics.median(secs) * 1000, 1) if secs else 0,
            "games_per_second": round(len(rs) / sum(secs), 2) if secs and sum(secs) else 0,
        }


def play_one(cat: Catalog, scenario: str, seed: int, players: int = 2) -> GameStats:
    sc = cat.scenario(scenario)
    sides = [s.id.value for s in sc.sides]
    seats = [SeatSpec(name=f"P{i + 1}", side=sides[i % 2]) for i in range(players)]
    t0 = time.perf_counter()
    st, _ = new_game(cat, scenario, seats, seed)
    agent = RandomAgent(seed)
    n = 0
    while st.step != "over" and n < MAX_COMMANDS:
        seat = agent.seat_to_act(st)
        st, _ = apply(st, agent.choose(st, seat))
        n += 1
    if st.step != "over":
        raise RuntimeError(f"game did not end after {MAX_COMMANDS} commands")
    kills = sum(1 for s in st.soldiers.values() if s.status == "dead")
    r = st.result
    return GameStats(seed=seed, finished=True, turns=st.turn, commands=n, winner=r.winner.value if r.winner else None,
                     vp=dict(r.vp), kills=kills, reason=r.reason, seconds=time.perf_counter() - t0)


def autoplay(cat: Catalog, scenario: str, games: int, seed: int = 0, players: int = 2) -> Summary:
    out = Summary(scenario=scenario, games=games)
    for k in range(games):
        s = seed + k
        try:
            out.results.append(play_one(cat, scenario, s, players))
            out.finished += 1
        except Exception:  # report every failure with the seed that reproduces it
            out.errors.append(f"seed {s}: {traceback.format_exc()}")
    return out


def add_parser(sub) -> None:
    p = sub.add_parser("autoplay", help="play K games between random agents and report",
                       description=__doc__)
    p.add_argument("--scenario", help="scenario id (default: every scenario)")
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--seed", type=int, default=0, help="seed of the first game; the next games count up")
    p.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def run(args) -> int:
    cat = load_catalog()
    scenarios = [args.scenario] if args.scenario else sorted(cat.scenarios)
    reports, errors = [], []
    for sc in scenarios:
        if sc not in cat.scenarios:
            print(f"fieldpost autoplay: no scenario {sc!r}; scenarios: {', '.join(sorted(cat.scenarios))}",
                  file=sys.stderr)
            return 2
        s = autoplay(cat, sc, args.games, args.seed, args.players)
        reports.append(s.report())
        errors += s.errors
    if args.json:
        print(json.dumps(reports[0] if len(reports) == 1 else reports, indent=1))
    else:
        for r in reports:
            print(f"{r['scenario']}: {r['finished']}/{r['games']} games finished, {r['errors']} errors; "
                  f"{r['turns_mean']} turns, {r['commands_mean']} commands, {r['kills_mean']} kills a game; "
                  f"VP {r['vp_mean']}; wins {r['wins']}; {r['ms_per_game_median']} ms a game "
                  f"({r['games_per_second']} games/s)")
    for e in errors:
        print(e, file=sys.stderr)
    return 1 if errors else 0


__all__ = ["autoplay", "play_one", "GameStats", "Summary", "asdict"]
