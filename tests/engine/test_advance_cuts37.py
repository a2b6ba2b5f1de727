"""The play sequence's shortcuts (issue 17) against the plain answers they stand for, over states
autoplayed on the shipped scenarios and the advanced-cards fixture (react, preempt, officers):

- `_advance` skips the instant-victory check after the steps that take nobody out of play: after
  each of them every man is as much in play as before, and the check made afresh (on a copy)
  finds no side gone, as the check before the step did;
- `anything_to_do` asks a man's combat contact only once one of his questions says yes: at the
  states where a man of the card's force is in contact, it agrees with the listing for every
  open part."""
from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from engine.advanced import preempt, react
from engine.core.log import Ctx
from engine.infantry.contact import in_contact
from engine.legal import action_options, anything_to_do
from engine.turn import placement, sequence, victory
from tests.engine.autoplay_kit import autoplayed, shipped_catalog

SHIPPED = ["hedgerow-dawn", "tardieu-bombardment", "night-orchard", "vautrin-crossroads", "chapel-gun"]


def _in_play(st) -> tuple:
    return tuple((s.serial, s.in_play) for s in st.soldiers.values())


def _watch_unchecked_steps(seen: Counter, wrong: list) -> list:
    """Wrap each step after which _advance skips the check (the module attributes it calls):
    each must leave every man's in_play as it was, and the check made afresh on a copy must find
    no side gone. Returns what to put back."""
    def watched(owner, name: str, label: str, only_if=lambda result: True):
        fn = getattr(owner, name)

        def wrapper(ctx, *args, **kw):
            before, over = _in_play(ctx.st), ctx.st.step == "over"
            result = fn(ctx, *args, **kw)
            if only_if(result) and not over:
                seen[label] += 1
                if _in_play(ctx.st) != before:
                    wrong.append((label, "in_play changed"))
                if ctx.st.step != "over" and victory.check_instant(Ctx(ctx.st.clone())):
                    wrong.append((label, "the plain check ends the game"))
            return result
        setattr(owner, name, wrapper)
        return owner, name, fn

    return [
        watched(sequence, "finish", "finish"),
        watched(sequence, "_next_source", "next source, no card", only_if=lambda started: not started),
        watched(preempt, "then_due", "then_due"),
        watched(react, "open_window", "react window"),
        watched(preempt, "open_window", "preempt window"),
        watched(placement, "reveal", "reveal"),
    ]


def _play(cat, scenario: str, seed: int, commands: int, seen: Counter, wrong: list) -> None:
    kept = _watch_unchecked_steps(seen, wrong)
    try:
        for _ in autoplayed(cat, scenario, seed, commands):
            pass
    finally:
        for owner, name, fn in kept:
            setattr(owner, name, fn)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenario=hs.sampled_from(SHIPPED), seed=hs.integers(1, 10_000))
def test_the_steps_after_which_the_check_is_skipped_take_nobody_out_of_play(scenario, seed):
    seen: Counter = Counter()
    wrong: list = []
    _play(shipped_catalog(), scenario, seed, 160, seen, wrong)
    assert not wrong, (scenario, seed, wrong[:5])
    assert seen["finish"] and seen["reveal"] and seen["next source, no card"], seen


def test_react_and_preempt_windows_take_nobody_out_of_play(cat):
    """The advanced-cards fixture, where reacts, preempts and their follow-ups are played."""
    seen: Counter = Counter()
    wrong: list = []
    for seed in range(6):
        _play(cat, "advanced-skirmish", seed, 400, seen, wrong)
    assert not wrong, wrong[:5]
    assert seen["react window"] and seen["preempt window"] and seen["then_due"], seen


def test_every_check_the_sequence_skips_would_have_said_the_same(cat):
    """End to end: with the check made at every round of the loop (the plain sequence), the
    games end the same, state and events."""
    plain_calls = Counter()
    real = victory.check_instant

    def every_round(ctx, fighting=None):
        plain_calls["asked"] += 1
        return real(ctx, fighting)

    def games() -> list:
        out = []
        for seed in range(4):
            states = list(autoplayed(cat, "advanced-skirmish", seed, 250))
            out.append(states[-1].model_dump_json())
        for seed in (3, 11):
            states = list(autoplayed(shipped_catalog(), "hedgerow-dawn", seed, 250))
            out.append(states[-1].model_dump_json())
        return out

    fast = games()
    # the plain sequence: every round asks (the flag that skips it always set)
    original = sequence._advance
    try:
        sequence.victory.check_instant = every_round
        sequence._advance = _plain_advance()
        plain = games()
    finally:
        sequence.victory.check_instant = real
        sequence._advance = original
    assert plain_calls["asked"] > 0
    assert plain == fast


def _plain_advance():
    """_advance as it was before the skip: its own code with every `unchecked = ...` made
    `unchecked = True` (so the check is asked at every round)."""
    import inspect
    import re
    import textwrap
    text = textwrap.dedent(inspect.getsource(sequence._advance))
    text = text.replace("unchecked = _next_source(ctx)", "_next_source(ctx)\n            unchecked = True")
    text, n = re.subn(r"unchecked = (False|bool\(st\.fires\))$", "unchecked = True", text, flags=re.MULTILINE)
    assert n >= 10 and re.findall(r"unchecked = (.*)", text) == ["True"] * len(re.findall(r"unchecked = ", text))
    space: dict = {}
    exec(compile(text, sequence.__file__, "exec"), sequence.__dict__, space)  # noqa: S102 - the module's own code
    return space["_advance"]


def _lists(st, force: str, only_source: str | None = None) -> bool:
    return next(iter(action_options(st, force, only_source)), None) is not None


def test_with_a_man_of_the_card_in_contact_the_check_agrees_with_the_listing():
    asked = 0
    for scenario in SHIPPED:
        for seed in range(1, 5):
            for st in autoplayed(shipped_catalog(), scenario, seed, 200):
                a = st.active
                if a is None or st.pending is not None:
                    continue
                if not any(s.free and s.controller == a.force and in_contact(st, s.serial)
                           for s in st.soldiers.values()):
                    continue
                asked += 1
                assert anything_to_do(st, a.force) == _lists(st, a.force), (scenario, seed, st.turn, a.card)
                for kind in {s.kind for s in a.sources if s.state != "closed"}:
                    assert anything_to_do(st, a.force, kind) == _lists(st, a.force, kind), \
                        (scenario, seed, a.card, kind)
    assert asked > 20, asked
