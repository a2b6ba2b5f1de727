"""The engine's behaviour as a fingerprint: autoplay fixed seeds on every scenario and write,
per game, the sha256 of the final state's JSON and of every event, and the command count.

A change that should not change behaviour (moving modules, a faster state copy) must leave
the file identical:

    .venv/bin/python tools/autoplay_hashes.py > /tmp/after.json
    diff tools/autoplay_hashes.json /tmp/after.json

`--settled` plays as the bot does once started (bot.startup.settle), and must give the same file.

Scenarios: the shipped catalogue (assets/, campaigns/) and the rules fixtures
(tests/fixtures/rules). The agent is the engine's own RandomAgent, as in `fieldpost autoplay`.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import apply, load_catalog, new_game  # the repository root first
from engine.agent import RandomAgent
from engine.turn.setup import SeatSpec

SEEDS = (0, 1, 2)
MAX_COMMANDS = 20_000
CATALOGUES = {"shipped": None, "fixtures": ROOT / "tests" / "fixtures" / "rules"}


def fingerprint(cat, scenario: str, seed: int, players: int = 2) -> dict:
    """One autoplayed game: its command count, final step, and the hashes of its final state
    and of all its events in order."""
    sides = [s.id.value for s in cat.scenario(scenario).sides]
    seats = [SeatSpec(name=f"P{i + 1}", side=sides[i % 2]) for i in range(players)]
    st, events = new_game(cat, scenario, seats, seed)
    log = hashlib.sha256()
    for e in events:
        log.update(e.model_dump_json().encode())
    agent = RandomAgent(seed)
    n = 0
    while st.step != "over" and n < MAX_COMMANDS:
        st, events = apply(st, agent.choose(st, agent.seat_to_act(st)))
        for e in events:
            log.update(e.model_dump_json().encode())
        n += 1
    return {"commands": n, "step": st.step, "state": hashlib.sha256(st.model_dump_json().encode()).hexdigest(),
            "events": log.hexdigest()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenario", help="only this scenario (default: every scenario of both catalogues)")
    ap.add_argument("--settled", action="store_true",
                    help="play as the bot does once started: bot.startup.settle() first (pydantic's "
                         "attribute hook taken off, the collector settled)")
    args = ap.parse_args()
    if args.settled:
        from bot.startup import settle
        settle()
    out: dict[str, dict] = {}
    for name, root in CATALOGUES.items():
        cat = load_catalog(root)
        for sc in sorted(cat.scenarios):
            if args.scenario and sc != args.scenario:
                continue
            out[f"{name}/{sc}"] = {str(seed): fingerprint(cat, sc, seed) for seed in SEEDS}
    print(json.dumps(out, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
