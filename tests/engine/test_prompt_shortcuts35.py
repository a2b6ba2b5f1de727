"""Two shortcuts of the questions the prompts ask after every command (issue 17), each held to
the straightforward answer over autoplayed games of every shipped scenario:

- `awaiting` makes each decision with its key (`decision_key`) rather than setting it afterwards;
- the placement search (`legal._plan_picks`, behind `plan_options` and `plan_drafts`) works out
  which cards fit which phase once (`placement.fitting`) and the most phases they fill from
  those lists (`placement.most_filled`), instead of asking `max_filled` to work them out again.
  `max_filled` is held to a search of every placement by `matching.fits` alone."""
from __future__ import annotations

from itertools import product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from engine.legal import awaiting, decision_key, plan_drafts, plan_options
from engine.turn.matching import fits
from engine.turn.placement import fitting, max_filled, most_filled
from tests.engine.autoplay_kit import autoplayed, shipped_catalog

SCENARIOS = sorted(shipped_catalog().scenarios)


def _every_placement_max(st, hand: list[str], force: str) -> int:
    """The most phases filled with different cards, every assignment tried (the rule: `fits`)."""
    phases = [st.setup.story[c] for c in st.phase_cards]
    options = [[c for c in hand if fits(st, c, ph, force)] + [None] for ph in phases]
    best = 0
    for pick in product(*options):
        chosen = [c for c in pick if c is not None]
        if len(set(chosen)) == len(chosen):
            best = max(best, len(chosen))
    return best


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_awaiting_keys_and_the_placement_search_match_the_straightforward_answers(scenario):
    cat = shipped_catalog()
    placements = 0
    for i, st in enumerate(autoplayed(cat, scenario, seed=7, commands=90)):
        for a in awaiting(st):
            assert a.key == decision_key(st, a.kind, a.force), (scenario, i, a)
        if st.step != "place" or st.pending is not None:
            continue
        for fid, f in st.forces.items():
            hand = f.hand + ([c for c in f.placed if c] + [c for c in f.extra if c] if f.planned else [])
            want = _every_placement_max(st, hand, fid)
            assert max_filled(st, hand, fid) == want, (scenario, i, fid)
            assert most_filled(fitting(st, hand, fid)) == want, (scenario, i, fid)
            plans = plan_options(st, fid)
            assert plan_drafts(st, fid) == plans, (scenario, i, fid)
            # every plan the search gives fills the most phases the hand can fill
            assert all(sum(c is not None for c in p.cards) == want for p in plans if not p.extra), (scenario, i)
            placements += 1
    assert placements > 0, scenario


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fits_=hs.lists(hs.lists(hs.sampled_from("abcdef"), max_size=6, unique=True), min_size=0, max_size=4))
def test_most_filled_is_the_best_of_every_assignment(fits_):
    best = 0
    for pick in product(*[[*cards, None] for cards in fits_]):
        chosen = [c for c in pick if c is not None]
        if len(set(chosen)) == len(chosen):
            best = max(best, len(chosen))
    assert most_filled(fits_) == best


@settings(max_examples=30, deadline=None)
@given(seat=hs.integers(0, 3), force=hs.one_of(hs.none(), hs.sampled_from(["squad-a", "tank-b"])),
       first=hs.lists(hs.one_of(hs.none(), hs.sampled_from(["c1", "c2", "c3"])), min_size=3, max_size=3),
       cards=hs.lists(hs.one_of(hs.none(), hs.sampled_from(["c4", "c5", "c6"])), min_size=3, max_size=3),
       declare=hs.booleans())
def test_a_drafts_copy_is_model_copys(seat, force, first, cards, declare):
    """legal._with_cards (plan_drafts' copies) against pydantic's model_copy: equal, with the same
    fields set, extra and private values, the same words, and dicts of its own."""
    from engine.core import commands as C
    from engine.legal import _with_cards
    named = [c for c in first if c]
    plan = C.Plan(seat=seat, cards=first, force=force,
                  declare={named[0]: "move"} if declare and named else {})
    want = plan.model_copy(update={"cards": list(cards), "declare": {}, "extra": {}})
    got = _with_cards(plan, list(cards))
    assert type(got) is C.Plan and got == want and str(got) == str(want)
    assert got.model_fields_set == want.model_fields_set
    assert got.__pydantic_extra__ == want.__pydantic_extra__ and got.__pydantic_private__ == want.__pydantic_private__
    assert got.model_dump() == want.model_dump() and got.model_dump(exclude_unset=True) == want.model_dump(exclude_unset=True)
    got.declare["c4"] = "move"
    assert plan.declare.get("c4") is None and want.declare == {}
