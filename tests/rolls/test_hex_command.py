"""Hex Command Mechanized: the CnC cube on a D6, pushes, range bands, AT and HE damage, shot fall."""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import rolls


def hc(name: str, seed: int = 1, **options: Any) -> dict[str, Any]:
    return rolls.roll(name, options, seed).data


# --- AT Damage Table --------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("firer", "target", "result"),
    [("VL", "VL", "1"), ("VL", "L", "color"), ("VL", "M", "none"), ("L", "L", "1"), ("L", "M", "color"),
     ("M", "VL", "2"), ("M", "H", "color"), ("H", "VL", "3"), ("H", "VH", "color"), ("VH", "VL", "4"),
     ("VH", "L", "3"), ("VH", "VH", "1"), ("L", "VH", "none")],
)
def test_at_damage_table(firer, target, result):
    assert hc("hc-at", firer=firer, target=target)["result"] == result


def test_light_gun_on_light_vehicle_damages_only_on_a_coloured_face():
    # Direct Fire Procedure example: equal weights roll one cube; a blank face does nothing.
    blank = hc("hc-at", firer="L", target="L", dice="1")
    red = hc("hc-at", firer="L", target="L", dice="4")
    assert [c["hit"] for c in blank["damage"]] == ["none"]
    assert [c["hit"] for c in red["damage"]] == ["movement"]


def test_a_color_cell_needs_a_color_roll_before_the_damage_cube():
    missed = hc("hc-at", firer="L", target="M", dice="3")
    scored = hc("hc-at", firer="L", target="M", dice="4,5")
    assert missed["damage"] == []
    assert [c["hit"] for c in scored["damage"]] == ["defense"]


def test_number_cells_roll_that_many_damage_cubes():
    assert len(hc("hc-at", seed=4, firer="VH", target="VL")["damage"]) == 4


@pytest.mark.parametrize(("d6", "face", "hit"), [(1, "blank", "none"), (2, "blank", "none"), (3, "blue", "movement"),
                                                  (4, "red", "movement"), (5, "star", "defense"), (6, "red star", "combat")])
def test_damage_cube_faces(d6, face, hit):
    cube = hc("hc-damage", dice=str(d6))["damage"][0]
    assert (cube["face"], cube["hit"]) == (face, hit)


# --- To hit: the ladder and its pushes --------------------------------------------------------

@pytest.mark.parametrize(("need", "miss", "hit"), [("color", 3, 4), ("code", 4, 5), ("cnc", 5, 6)])
def test_d6_equivalents_of_the_cube(need, miss, hit):
    assert hc("hc-roll", need=need, d6=miss)["success"] is False
    assert hc("hc-roll", need=need, d6=hit)["success"] is True


def test_automatic_needs_no_roll():
    data = hc("hc-roll", need="auto")
    assert data["success"] is True
    assert data["dice"] == []


def test_each_cover_level_pushes_the_need_one_step():
    # Cover: automatic becomes color, then code, then code-n-color.
    assert hc("hc-roll", need="auto", cover=1, d6=6)["needed"] == "color"
    assert hc("hc-roll", need="auto", cover=2, d6=6)["needed"] == "code"  # a wall in a forest: double cover
    assert hc("hc-roll", need="code", cover=2)["needed"] == "impossible"


@pytest.mark.parametrize(("levels", "needed"), [(1, "color"), (2, "code"), (3, "cnc"), (4, "impossible")])
def test_infantry_firing_into_buildings_at_automatic_range(levels, needed):
    # Combat vs. Structures: level one buildings need color, level two code, brick and stone
    # code-n-color, concrete cannot be hit.
    assert hc("hc-roll", need="auto", hard_cover=levels, d6=6)["needed"] == needed


def test_obscurity_pushes_once():
    assert hc("hc-roll", need="color", obscured=True, d6=6)["needed"] == "code"


def test_indirect_fire_ignores_obscurity_and_field_cover_but_not_buildings():
    data = hc("hc-roll", need="color", obscured=True, cover=2, hard_cover=1, indirect=True, d6=6)
    assert data["needed"] == "code"


def test_bonuses_pull_the_need_down_but_never_below_automatic():
    assert hc("hc-roll", need="code", bonus=1, d6=4)["needed"] == "color"
    assert hc("hc-roll", need="color", bonus=3)["needed"] == "auto"


def test_anti_tank_infantry_hit_automatically_at_two_hexes():
    assert hc("hc-roll", weapon="small-arms", hexes=2)["needed"] == "auto"


def test_roll_takes_a_need_or_a_range_not_both():
    with pytest.raises(rolls.RollError):
        hc("hc-roll", need="color", weapon="small-arms", hexes=3)
    with pytest.raises(rolls.RollError):
        hc("hc-roll", cover=1)


# --- Range bands --------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("weapon", "hexes", "band"),
    [("small-arms", 0, "auto"), ("small-arms", 2, "auto"), ("small-arms", 3, "color"), ("small-arms", 4, "color"),
     ("small-arms", 5, "code"), ("small-arms", 8, "cnc"), ("small-arms", 9, "out-of-range"),
     ("cannon-a", 3, "auto"), ("cannon-a", 4, "color"), ("cannon-a", 9, "code"), ("cannon-a", 15, "cnc"),
     ("cannon-a", 16, "out-of-range"), ("cannon-b", 12, "cnc"), ("cannon-b", 13, "out-of-range"),
     ("cannon-c", 10, "cnc"), ("cannon-c", 11, "out-of-range")],
)
def test_range_bands(weapon, hexes, band):
    assert hc("hc-range", weapon=weapon, hexes=hexes)["band"] == band


# --- HE damage --------------------------------------------------------------------------------

@pytest.mark.parametrize(("weight", "red"), [("L", 1), ("M", 1), ("H", 2), ("VH", 3)])
def test_he_red_hits_by_weight(weight, red):
    assert hc("hc-he", weight=weight)["red_hits"] == red


@pytest.mark.parametrize(("weight", "target", "cubes"), [("M", "M", 1), ("H", "M", 2), ("VH", "L", 4), ("L", "M", 0)])
def test_he_cubes_against_vehicles(weight, target, cubes):
    data = hc("hc-he", weight=weight, target=target)
    assert data["cubes"] == cubes
    assert len(data["damage"]) == cubes


def test_he_four_classes_heavier_wipes_out_the_hex():
    data = hc("hc-he", weight="VH", target="VL")
    assert data["wipe_out"] is True


def test_very_light_guns_fire_no_he():
    with pytest.raises(rolls.RollError, match="one of L, M, H, VH"):
        hc("hc-he", weight="VL")


# --- Shot fall --------------------------------------------------------------------------------

@pytest.mark.parametrize(("d6", "direction"), [(1, "front"), (2, "front-right"), (4, "rear"), (6, "front-left")])
def test_shot_fall_counts_clockwise_from_the_front(d6, direction):
    assert hc("hc-shot-fall", d6=d6)["direction"] == direction


@given(seed=st.integers(0, 2**64 - 1))
def test_shot_fall_never_hits_the_named_hex(seed):
    assert 1 <= hc("hc-shot-fall", seed=seed)["hex"] <= 6
