"""Autoplay over the advanced-cards fixture scenario: officers, react, preempt and ANY cards in
the decks, random agents on both sides, zero exceptions, and the agents must actually have used
the advanced cards. 100 games by default; FIELDPOST_ADVANCED_GAMES=500 for the long run."""
from __future__ import annotations

import os
from collections import Counter

import pytest

from engine.agent import RandomAgent
from engine.apply import apply
from engine.legal import legal_commands
from engine.turn.setup import SeatSpec, new_game

pytestmark = pytest.mark.slow  # dealt to the front of a worker's share: tests/conftest.py

GAMES = int(os.environ.get("FIELDPOST_ADVANCED_GAMES", "100"))


def test_advanced_cards_autoplay_raises_nothing_and_uses_the_cards(cat):
    sc = cat.scenario("advanced-skirmish")
    sides = [s.id.value for s in sc.sides]
    problems, seen = [], Counter()
    for seed in range(GAMES):
        players = 2 if seed % 4 else 4
        try:
            seats = [SeatSpec(name=f"P{i + 1}", side=sides[i % 2]) for i in range(players)]
            st, _ = new_game(cat, "advanced-skirmish", seats, seed)
            agent = RandomAgent(seed)
            n = 0
            while st.step != "over" and n < 3000:
                seat = agent.seat_to_act(st)
                cmd = agent.choose(st, seat)
                if seed % 10 == 0 and n % 7 == 0:  # the listed commands are all accepted
                    assert cmd in legal_commands(st, seat)
                st, events = apply(st, cmd)
                seen[cmd.type] += 1
                if cmd.type == "plan" and cmd.extra:
                    seen["extra"] += 1
                seen.update(f"event:{e.kind}" for e in events if e.kind in (
                    "react", "react_done", "preempt", "preempt_then", "dead_card", "declare"))
                n += 1
            if st.step != "over":
                problems.append(f"seed {seed} players {players}: did not finish")
            costs = [e for e in st.vp if e.kind == "card"]  # react costs: taken from their player
            assert all(e.amount < 0 and e.seat is not None for e in costs)
            assert sum(st.seat_vp(s.index) for s in st.seats) == sum(e.amount for e in st.vp if e.seat is not None)
        except Exception as exc:  # noqa: BLE001 - every failure is reported with its seed
            problems.append(f"seed {seed} players {players}: {type(exc).__name__}: {exc}")
    assert problems == []
    for what in ("react", "preempt", "then", "extra", "event:react_done", "event:preempt"):
        assert seen[what] > 0, f"the agents never used {what}: {dict(seen)}"
