"""The check registry: option parsing, validation messages, dice, and determinism."""
from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import rolls
from engine.core.rng import Rng


def test_every_rulebook_registers_its_checks():
    keys = {s.key for s in rolls.systems()}
    assert {"how", "k47", "sw", "hc"} <= keys
    for key in ("how", "k47", "sw", "hc"):
        assert rolls.checks_for(key), key


def test_names_and_help_fit_one_line():
    for chk in rolls.all_checks():
        assert re.fullmatch(r"[a-z0-9][-a-z0-9]{0,31}", chk.name)
        assert 0 < len(chk.help) <= 100
        for p in chk.params:
            assert 0 < len(p.help) <= 100, (chk.name, p.name)
            assert set(p.labels) <= set(p.choices), (chk.name, p.name)


def test_unknown_check_names_the_valid_ones():
    with pytest.raises(rolls.RollError, match="penetration"):
        rolls.get("no-such-check")


def test_missing_option_names_what_it_accepts():
    with pytest.raises(rolls.RollError, match=r"--hits: a whole number from 0 to 99"):
        rolls.roll("penetration", {"pen": 1, "armor": 2}, seed=1)


def test_out_of_range_number_is_refused():
    with pytest.raises(rolls.RollError, match=r"--d6 must be a whole number from 1 to 6"):
        rolls.roll("sw-minefield", {"unit": "tank", "d6": 7}, seed=1)


def test_bad_choice_lists_the_choices():
    with pytest.raises(rolls.RollError, match="one of unbuttoned, dismounted, hulldown"):
        rolls.roll("protection", {"hits": 1, "position": "sideways"}, seed=1)


def test_unknown_option_is_refused():
    with pytest.raises(rolls.RollError, match="no option --colour"):
        rolls.roll("bog", {"pins": 1, "bog": 1, "colour": "red"}, seed=1)


def test_text_values_parse_like_typed_ones():
    typed = rolls.roll("vehicle-sight", {"crew_sight": 13, "vehicle_sight": -6, "mods": (-1, -2)}, seed=1)
    text = rolls.roll("vehicle-sight", {"crew_sight": "13", "vehicle_sight": "-6", "mods": "-1, -2"}, seed=1)
    assert typed.data == text.data


def test_choices_are_case_insensitive():
    assert rolls.roll("sw-test", {"test": "ct", "cs": 1, "d6": 6, "vs": 8}, seed=1).data["test"] == "CT"


def test_dice_take_given_values_and_record_them():
    dice = rolls.Dice(Rng(5))
    assert dice.roll(6, given=4, label="x") == 4
    rolled = dice.roll(10)
    assert 1 <= rolled <= 10
    assert [r["given"] for r in dice.record] == [True, False]


def test_a_given_die_must_fit_the_die():
    with pytest.raises(rolls.RollError, match="d8"):
        rolls.Dice(Rng(1)).roll(8, given=9)


def test_registering_a_duplicate_check_fails():
    system = rolls.systems()[0]
    with pytest.raises(ValueError, match="twice"):
        rolls.check(system=system, name="bog", slash="bog-again", help="dup")(lambda p, r: None)


def _value(param: rolls.Param) -> st.SearchStrategy[Any]:
    lo = -20 if param.minimum is None else param.minimum
    hi = 40 if param.maximum is None else min(param.maximum, lo + 60)
    if param.kind == "bool":
        return st.booleans()
    if param.kind == "choice":
        return st.sampled_from(param.choices)
    if param.kind == "ints":
        return st.lists(st.integers(lo, hi), min_size=1, max_size=6).map(tuple)
    return st.integers(lo, hi)


@st.composite
def check_call(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    chk = draw(st.sampled_from(rolls.all_checks()))
    options = {}
    for p in chk.params:
        if p.required or draw(st.booleans()):
            options[p.name] = draw(_value(p))
    return chk.name, options


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(call=check_call(), seed=st.integers(0, 2**64 - 1))
def test_a_result_depends_only_on_its_inputs_and_seed(call, seed):
    name, options = call
    try:
        first = rolls.roll(name, options, seed)
    except rolls.RollError:
        with pytest.raises(rolls.RollError):
            rolls.roll(name, options, seed)
        return
    second = rolls.roll(name, dict(options), seed)
    assert first == second
    assert first.lines and first.title


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), other=st.integers(0, 2**64 - 1), pen=st.integers(-2, 8),
       dv=st.integers(3, 11), aspect=st.sampled_from(["front", "side", "rear", "top"]))
def test_replaying_the_recorded_dice_reproduces_a_roll_under_any_seed(seed, other, pen, dv, aspect):
    options = {"pen": pen, "damage_value": dv, "aspect": aspect}
    first = rolls.roll("k47", options, seed).data
    given_dice = [d["value"] for d in first["dice"]]
    replay = {**options, "die": given_dice[0], "effect_dice": tuple(given_dice[1:]) or None}
    again = rolls.roll("k47", replay, other).data
    for key in ("pen", "needed", "can_damage", "total", "outcome", "effects"):
        assert again[key] == first[key]


def test_the_docs_describe_every_check_and_option():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "rolls.md").read_text(encoding="utf-8")
    for chk in rolls.all_checks():
        if chk.system not in ("how", "k47", "sw", "hc"):
            continue
        assert f"`{chk.name}`" in text, chk.name
        for p in chk.params:
            assert f"`{p.flag}`" in text, (chk.name, p.flag)
