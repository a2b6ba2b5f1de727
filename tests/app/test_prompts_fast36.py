"""Branch i36-prompts36's shortcuts give the straightforward answers: a clock's span and half made
once per number of hours are the ones made each time (`deadlines._planned` asks them on every
command with a new decision). `_still`'s and `unchanged`'s early answers are held to the long way
by the hypothesis tests of test_command_shortcuts.py, test_reply_shortcuts.py and
test_service_fast35.py; `cards_by_seat` and the desk by test_reply_shortcuts.py and
test_prompts.py."""
from __future__ import annotations

from datetime import timedelta

from hypothesis import given, settings
from hypothesis import strategies as S

from bot.app.deadlines import Hours, _spans, window_hours


@settings(max_examples=200, deadline=None)
@given(hours=S.floats(0.05, 24 * 30), window=S.none() | S.floats(0.05, 2), as_hours=S.booleans())
def test_a_clocks_span_and_half_are_those_made_afresh(hours, window, as_hours):
    h = Hours(hours, window) if as_hours else hours
    for n in (h, window_hours(h)):
        span, half = _spans(n)
        assert span == timedelta(hours=n) and half == timedelta(hours=n) / 2
