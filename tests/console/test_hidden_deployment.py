"""Hidden deployment in the terminal: the public text shows '?' markers with their counts, a
seat's text shows his own hidden men exactly (marked "hidden from the enemy")."""
from __future__ import annotations

from pathlib import Path

from bot.console import text
from engine import view
from engine.position import load_position

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "rules"


def night():
    from engine.core.content import load_catalog
    data = {"scenario": "hidden-yard", "seed": 1,
            "players": [{"name": "Ann", "side": "US"}, {"name": "Bo", "side": "DE"}],
            "soldiers": [{"serial": 1, "seat": 0, "at": [1, 1], "facing": "e"},
                         {"serial": 2, "seat": 0, "at": [3, 3], "facing": "e"},
                         {"serial": 4, "seat": 1, "at": [22, 3], "facing": "w"}]}
    return load_position(load_catalog(FIXTURE), data)[0]


def test_the_public_text_has_markers_and_no_hidden_man():
    st = night()
    out = text.full_text(view(st))
    assert "Avery" not in out and "Dorn" not in out and "(1,1)" not in out
    assert "hidden [US] 31A: 2 soldiers not spotted" in out and "hidden [DE] L9A: 1 soldier not spotted" in out
    grid = text.map_text(view(st)).splitlines()
    assert grid[2 + 2][4 + 2] == "?"  # the middle of 31A (y 2, x 2), after two header lines and " 2 |"


def test_a_seats_text_shows_his_own_men_exactly_and_the_enemy_as_markers():
    st = night()
    out = "\n".join(text.soldier_lines(view(st, 0)))
    avery = next(line for line in out.splitlines() if "Avery" in line)
    assert "[US] 31A (1,1) facing E" in avery and "hidden from the enemy" in avery
    assert "hidden [DE] L9A: 1 soldier not spotted" in out and "hidden [US]" not in out
    assert "Dorn" not in out
