"""The quick "is there anything to do?" (`legal.anything_to_do`) against the listing it stands for
(`any(action_options(...))`), over states drawn at random from autoplayed games of vehicle and
infantry scenarios (night-orchard's hidden deployment among them)."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from engine.core import rulebook
from engine.legal import action_options, anything_to_do
from tests.engine.autoplay_kit import autoplayed, shipped_catalog

SCENARIOS = ["tardieu-bombardment", "vautrin-crossroads", "mill-road-gun", "night-orchard", "hedgerow-dawn",
             "chapel-gun"]


def _lists(st, force: str, only_source: str | None = None) -> bool:
    return next(iter(action_options(st, force, only_source)), None) is not None


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenario=hs.sampled_from(SCENARIOS), seed=hs.integers(1, 10_000), commands=hs.integers(40, 140),
       stride=hs.integers(1, 4))
def test_the_check_says_yes_exactly_when_the_listing_has_a_command(scenario, seed, commands, stride):
    """At every question the rules ask while the game is played (a card put in play, a part left
    under way), and at drawn states for each force and each open part, the check agrees with the
    listing."""
    asked = {True: 0, False: 0}
    wrong = []

    def check(st, force: str, only_source: str | None = None) -> bool:
        want = _lists(st, force, only_source)
        if anything_to_do(st, force, only_source) != want:
            wrong.append((st.turn, st.phase, st.active.card, only_source, want))
        asked[want] += 1
        return want

    slot = rulebook.anything_to_do
    fill = slot._fn
    slot._fn = check
    try:
        for i, st in enumerate(autoplayed(shipped_catalog(), scenario, seed, commands)):
            if i % stride:
                continue
            for force in st.forces:
                assert anything_to_do(st, force) == _lists(st, force), (scenario, seed, i, force)
            if st.active is not None:
                for kind in {s.kind for s in st.active.sources if s.state != "closed"}:
                    assert anything_to_do(st, st.active.force, kind) == _lists(st, st.active.force, kind), \
                        (scenario, seed, i, kind)
    finally:
        slot._fn = fill
    assert not wrong, (scenario, seed, wrong)
    assert asked[True] + asked[False] > 0


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenario=hs.sampled_from(["hedgerow-dawn", "night-orchard", "vautrin-crossroads", "croix-verte-ridge"]),
       seed=hs.integers(1, 10_000))
def test_a_shots_fault_is_the_refusal_target_problem_words(scenario, seed):
    """`target_fault` (the check's form of the rule, reading a question's Known) fails a shot
    exactly when `target_problem` refuses it, and share_list reads the same with Known or without."""
    from engine.infantry.contact import Known
    from engine.infantry.shoot import share_list, target_fault, target_problem
    refused = allowed = 0
    for st in autoplayed(shipped_catalog(), scenario, seed, 120):
        known = Known(st)
        men = [s.serial for s in st.soldiers.values() if s.free]
        for m in men:
            for t in men:
                if st.soldiers[t].side == st.soldiers[m].side:
                    continue
                words = target_problem(st, m, t)
                assert (target_fault(st, m, t) is None) == (words is None), (m, t, words)
                assert (target_fault(st, m, t, known) is None) == (words is None), (m, t, words)
                assert share_list(st, m, t, known) == share_list(st, m, t)
                refused += words is not None
                allowed += words is None
    assert refused > 0
