"""The use-cases' already-done test (`bot.app.service.same_game`) answers as the test it
replaced, `after.model_copy(update={"seq": ..., "asked_at": ...}) == before`, on real states:
every pair a random game passes through, and each of those states with one field taken from
another state of the same game."""
from __future__ import annotations

from datetime import UTC, datetime
from itertools import pairwise

import pytest

from bot.app.service import same_game
from engine.core.state import GameState
from tests.engine.autoplay_kit import autoplayed

CLOCK = ("seq", "asked_at")


def copied_test(before: GameState, after: GameState) -> bool:
    return after.model_copy(update={"seq": before.seq, "asked_at": before.asked_at}) == before


@pytest.mark.parametrize(("scenario", "seed"), [("tardieu-bombardment", 4), ("hedgerow-dawn", 7)])
def test_same_game_answers_as_the_copied_model_equality(shipped, scenario, seed):
    states = list(autoplayed(shipped, scenario, seed, 40))
    assert len(states) > 20
    changed: set[str] = set()
    answers = []
    for before, after in pairwise(states):
        answers.append(same_game(before, after))
        assert answers[-1] == copied_test(before, after)
        for name in GameState.model_fields:
            if name in CLOCK or after.__dict__[name] == before.__dict__[name]:
                continue
            changed.add(name)
            one_more = before.model_copy(update={name: after.__dict__[name]})  # only this field differs
            assert same_game(before, one_more) is False
            assert copied_test(before, one_more) is False
        again = before.model_copy(update={"seq": before.seq + 1, "asked_at": datetime(2030, 1, 1, tzinfo=UTC)})
        assert same_game(before, again) is True
        assert copied_test(before, again) is True
    assert not any(answers)  # the agent plays only commands that change the game
    assert {"forces", "soldiers", "phase", "step"} <= changed  # the pairs did change what a command changes


def test_same_game_reads_every_field_but_the_clock_and_nothing_else_pydantic_compares():
    from bot.app.service import _SAME_GAME_ORDER

    assert sorted(_SAME_GAME_ORDER) == sorted(f for f in GameState.model_fields if f not in CLOCK)
    assert len(set(_SAME_GAME_ORDER)) == len(_SAME_GAME_ORDER)
    # pydantic's equality also compares private attributes and extras: a GameState has neither
    assert GameState.__private_attributes__ == {}
    assert GameState.model_config["extra"] == "forbid"
