"""Branch i36-prompts36's shortcuts give the straightforward answers: a placement's slots' words
kept per setup and run of cards (emptied when full, games of several scenarios one after
another) are each card's words joined afresh; a clock's span and half made once per number of
hours are the ones made each time."""
from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as S

from bot.app import prompts
from bot.app.deadlines import Hours, _spans, window_hours
from bot.app.prompts import answers, commands_for, label
from engine import awaiting
from tests.app.test_prompts_fast35 import _plain_plan_label
from tests.engine.autoplay_kit import autoplayed


@pytest.mark.parametrize("kept", [2, 4096])
def test_a_placements_slots_kept_per_setup_are_its_cards_words_joined(shipped, monkeypatch, kept):
    """Along real games of four scenarios played in turn (each setup its own memo), with the memo
    kept whole or emptied every other run: every label of every placement list is the plain one,
    and a list's answers are the same made again from the kept words."""
    monkeypatch.setattr(prompts, "PLAN_SLOTS_KEPT", kept)
    plans = again = 0
    for scenario in ("tardieu-bombardment", "hedgerow-dawn", "croix-verte-ridge", "chapel-gun"):
        for st in autoplayed(shipped, scenario, 4, 40):
            for a in awaiting(st):
                if a.kind != "place":
                    continue
                cmds = commands_for(st, a, 60)
                first = answers(st, a.key, cmds, 60)
                assert [c.label for c in first] == [prompts._trim(_plain_plan_label(st, c)) for c in cmds][:len(first)]
                assert answers(st, a.key, cmds, 60) == first  # the runs kept from the first time
                for cmd in cmds:
                    assert label(st, cmd) == _plain_plan_label(st, cmd)
                plans += len(cmds)
                again += 1
    assert plans > 200 and again > 10


@settings(max_examples=200, deadline=None)
@given(hours=S.floats(0.05, 24 * 30), window=S.none() | S.floats(0.05, 2), as_hours=S.booleans())
def test_a_clocks_span_and_half_are_those_made_afresh(hours, window, as_hours):
    h = Hours(hours, window) if as_hours else hours
    for n in (h, window_hours(h)):
        span, half = _spans(n)
        assert span == timedelta(hours=n) and half == timedelta(hours=n) / 2
