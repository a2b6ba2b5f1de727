"""Games with every advanced rule on one table, between random agents, zero exceptions (issue 8):
500 with FIELDPOST_AUTOPLAY=full, 125 in the test run: tallied game by game over the first 200
seeds, the rarest check (a preempt's "then") comes in 15 of 200 games, 3 of the first 100 and 8 of
the first 125, so 125 meets every rule-usage check 8 times or more.

The Ridge at Croix-Verte fields specialists with react, preempt and ANY cards, an officer and a
medic a side, soldiers on tactics-module team panels, bought equipment (smoke grenades, optics,
rifle grenades, rockets), a mined square and a fire; every other game here also plays it under
hidden deployment with a rifle grenade and an anti-tank rocket added, and a share of the games is
the night-orchard scenario, hidden by design.
The agents must have used the rules, not walked past them. A failure names the scenario, the
players and the seed."""
from __future__ import annotations

from collections import Counter

import pytest

from tests.engine.autoplay_kit import games, run_jobs, shipped_catalog

pytestmark = pytest.mark.slow  # started first on a worker: tests/conftest.py

GAMES = games(500, 125)
WATCH = ("react_done", "preempt", "preempt_then", "medic_move", "medic_save", "medic_fail", "mine",
         "smoke_thrown", "weapon_fired", "identity_box", "fire", "dead_card")


ARMED = {105: "rifle-grenade", 206: "panzerfaust"}  # the hidden variant also carries these


def _catalog(hidden: bool):
    """The shipped catalogue; for the hidden variant, the Ridge under hidden deployment with a
    rifle grenade and a rocket added to the presets (and the budgets raised to pay for them)."""
    cat = shipped_catalog()
    if not hidden:
        return cat
    sc = cat.scenarios["croix-verte-ridge"]
    sides = []
    for side in sc.sides:
        preset = [e.model_copy(update={"equipment": [*e.equipment, ARMED[e.serial]]}) if e.serial in ARMED else e
                  for e in side.preset]
        sides.append(side.model_copy(update={"preset": preset,
                                             "force_vp": {k: v + 3 for k, v in side.force_vp.items()}}))
    sc = sc.model_copy(update={"hidden_deployment": True, "sides": sides})
    return cat.model_copy(update={"scenarios": {**cat.scenarios, "croix-verte-ridge": sc}})


def _tally(st, cmd, events, seen, n) -> None:
    from engine.view import view
    if cmd.type == "plan" and cmd.extra:
        seen["officer_extra"] += 1
    if n % 25 == 0 and getattr(view(st), "hidden", None):
        seen["hidden_markers"] += 1


def _batch(args: tuple[str, bool, int, list[int]]) -> tuple[list[str], Counter]:
    from tests.engine.autoplay_kit import play_batch
    scenario, hidden, players, seeds = args
    return play_batch(_catalog(hidden), scenario, players, seeds, watch=WATCH, label=f"hidden={hidden}", each=_tally)


def test_games_with_every_advanced_rule_raise_nothing_and_use_the_rules():
    jobs = []
    plan = [("croix-verte-ridge", False, GAMES * 2 // 5), ("croix-verte-ridge", True, GAMES * 2 // 5),
            ("night-orchard", False, GAMES // 5)]
    for scenario, hidden, n in plan:
        for players in (2, 4):
            seeds = [20_000 + s for s in range(n) if (s % 4 == 0) == (players == 4)]
            for chunk in range(0, len(seeds), 25):
                jobs.append((scenario, hidden, players, seeds[chunk:chunk + 25]))
    problems, seen = run_jobs(_batch, jobs)
    assert problems == [], "\n".join(problems[:20])
    assert seen["games"] == GAMES
    for what in ("react", "preempt", "then", "use", "officer_extra", "hidden_markers",
                 "event:react_done", "event:preempt", "event:medic_move", "event:mine", "event:fire",
                 "event:smoke_thrown", "event:weapon_fired"):
        assert seen[what] > 0, f"the agents never got to {what}: {dict(seen)}"


def test_teammates_sharing_a_preset_each_take_a_team_panel_whole():
    """With the rocket and rifle grenade added, the cost-balanced split once put two men of one
    panel with different players and the game refused to start ("panel used already")."""
    from engine.turn.setup import SeatSpec, new_game
    cat = _catalog(hidden=True)
    seats = [SeatSpec(name=f"P{i + 1}", side=("US", "DE")[i % 2]) for i in range(4)]
    for seed in range(5):
        st, _ = new_game(cat, "croix-verte-ridge", seats, 20_000 + seed)
        holders: dict[str, set[str]] = {}
        for s in st.soldiers.values():
            if s.panel:
                holders.setdefault(s.panel, set()).add(s.force)
        assert holders and all(len(forces) == 1 for forces in holders.values()), holders
