"""Sergeants core checks: the book's worked examples through `fieldpost roll --json`, and draws
from real cards. The arithmetic is the game engine's own functions."""
from __future__ import annotations

import json

import pytest

from bot.cli import main
from engine import load_catalog
from engine.core.formulas import hit_value


def run_json(capsys, *argv: str) -> dict:
    code = main(["roll", *argv, "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0, out
    return out


def test_sighting_example_fifteen_less_eight_sees_six_squares(capsys):
    out = run_json(capsys, "sight", "--sight", "15", "--mods", "-1,-2,-1,0,-2,-2", "--distance", "6")
    assert out["range"] == 7 and out["success"] is True
    assert run_json(capsys, "sight", "--sight", "15", "--mods", "-8", "--distance", "8")["success"] is False
    # pinned: sight halved to 7, then -8
    assert run_json(capsys, "sight", "--sight", "15", "--mods", "-8", "--distance", "1", "--pinned")["range"] == -1


def test_long_and_short_range_example_reads_only_long(capsys):
    out = run_json(capsys, "shoot", "--long", "13", "--short", "7", "--close", "10", "--mods", "-6",
                   "--squares", "6", "--inches", "30")
    assert out["bands"] == ["long"]


def test_hit_check_band_example_reads_all_three_at_four_inches(capsys):
    out = run_json(capsys, "shoot", "--long", "8", "--short", "5", "--close", "10", "--squares", "1", "--inches", "4")
    assert out["bands"] == ["long", "short", "close"]
    no_inches = run_json(capsys, "shoot", "--long", "8", "--short", "5", "--close", "10", "--squares", "1")
    assert no_inches["bands"] == ["long", "short"], "Close is only read when the inches are given"


def test_take_cover_example_six_less_nine(capsys):
    out = run_json(capsys, "cover", "--cover", "6", "--mods", "-9")
    assert out["value"] == -3 and out["success"] is True
    assert run_json(capsys, "cover", "--cover", "6", "--mods", "-5")["success"] is False
    assert run_json(capsys, "cover", "--cover", "-2", "--pinned")["value"] == -1


def test_rally_reach(capsys):
    out = run_json(capsys, "rally", "--mods", "-1,-2,-1", "--distance", "6")
    assert out["reach"] == 6 and out["success"] is True
    assert run_json(capsys, "rally", "--mods", "-4", "--distance", "7")["success"] is False


def test_draws_come_from_the_named_soldiers_real_cards_and_repeat_with_the_seed(capsys):
    cat = load_catalog()
    leader = next(s for s in cat.soldiers.values() if s.is_leader)
    own = set(leader.core_cards) | set(leader.profile("senior_nco").cards)
    for seed in range(5):
        out = run_json(capsys, "hitcheck", "--soldier", str(leader.serial), "--rank", "senior_nco",
                       "--seed", str(seed))
        assert out["card"] in own
        card = cat.cards[out["card"]]
        assert out["hits"] == sum(hit_value(getattr(card.hit, b))[0] for b in ("long", "short", "close"))
    a = run_json(capsys, "damage", "--hits", "3", "--seed", "9")
    b = run_json(capsys, "damage", "--hits", "3", "--seed", "9")
    assert a["results"] == b["results"] and len(a["results"]) == 3
    assert all(cat.cards[c].damage.value == r for c, r in zip(a["cards"], a["results"]))


def test_fight_draws_half_in_the_rear(capsys):
    out = run_json(capsys, "fight", "--fight", "3", "--rear", "--seed", "4")
    assert out["count"] == 1 and len(out["cards"]) == 1
    assert run_json(capsys, "fight", "--fight", "3", "--pinned", "--seed", "4")["count"] == 1


@pytest.mark.parametrize("argv, needle", [
    (["sight", "--sight", "15"], "needs --distance"),
    (["cover", "--cover", "x"], "--cover must be a whole number"),
    (["hitcheck", "--soldier", "99999"], "--soldier must be a whole number"),
    (["hitcheck", "--soldier", "205", "--rank", "senior_nco"], "--rank must be one of private"),
])
def test_bad_input_exits_two_with_one_line(cli, argv, needle):
    code, out, _ = cli(*argv, "--json")
    assert code == 2
    assert out.count("\n") == 1 and needle in json.loads(out)["error"]


def test_a_draw_reads_the_processs_one_shipped_catalogue():
    from engine.core.content import load_catalog
    from engine.rolls.sergeants import _cards
    shipped = load_catalog()
    assert load_catalog() is shipped, "the shipped content is loaded once per process"
    cards, soldiers = _cards()
    assert cards is shipped.cards and soldiers is shipped.soldiers
