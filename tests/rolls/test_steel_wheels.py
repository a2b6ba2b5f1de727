"""Steel Wheels WWII charts: tests and table look-ups, each table spot-checked against the charts."""
from __future__ import annotations

import itertools
from typing import Any

import pytest

from engine import rolls
from engine.rolls import steel_wheels_tables as T


def sw(name: str, seed: int = 1, **options: Any) -> dict[str, Any]:
    return rolls.roll(name, options, seed).data


# --- Tests chart ------------------------------------------------------------------------------

def test_dfr_succeeds_when_d6_plus_cs_plus_cr_reaches_the_d10():
    assert sw("sw-test", test="DFR", cs=1, cr=1, d6=3, vs=5)["success"] is True
    assert sw("sw-test", test="DFR", cs=1, cr=1, d6=3, vs=6)["success"] is False


@pytest.mark.parametrize(("test", "die"), [("DFR", 10), ("IFR", 12), ("CF", 10), ("CT", 8), ("DT", 10)])
def test_each_test_rolls_against_its_own_die(test, die):
    rolled = sw("sw-test", seed=3, test=test, cs=0, d6=1)["dice"][-1]
    assert rolled["die"] == f"d{die}"


def test_precision_and_dodge_ignore_commander_rank():
    data = sw("sw-test", test="PT", cs=1, cr=3, d6=2, vs=3)
    assert data["score"] == 3
    assert data["success"] is True


def test_precision_can_be_taken_against_a_d12():
    assert sw("sw-test", test="PT", cs=0, d6=6, pt_die="12")["dice"][-1]["die"] == "d12"


def test_readiness_needs_a_strictly_higher_total():
    assert sw("sw-test", test="RT", cs=2, cr=1, d6=4, vs=7)["success"] is False
    assert sw("sw-test", test="RT", cs=2, cr=1, d6=5, vs=7)["success"] is True


def test_melee_compares_d6_plus_cs_only():
    data = sw("sw-test", test="MC", cs=2, cr=3, d6=3, vs=5)
    assert data["score"] == 5
    assert data["success"] is False


def test_a_crew_that_has_lost_men_counts_a_one_on_readiness():
    # Crew casualties: the unit takes 1 instead of rolling (CR + CV + 1).
    assert sw("sw-test", test="RT", cs=2, cr=1, crew_loss=True, vs=3)["score"] == 1 + 2 + 1


def test_an_opposing_die_bigger_than_the_die_is_refused():
    with pytest.raises(rolls.RollError, match="D8"):
        sw("sw-test", test="CT", cs=1, vs=9)


# --- Minefield effects -----------------------------------------------------------------------

@pytest.mark.parametrize(
    ("unit", "d6", "code"),
    [("tank", 1, "-"), ("tank", 2, "track"), ("tank", 5, "immobile"), ("tank", 6, "out+saved"),
     ("armored-car", 3, "immobile"), ("armored-car", 4, "out+saved"), ("armored-car", 5, "out+dead"),
     ("truck", 1, "out+2"), ("truck", 3, "out+4"), ("truck", 5, "boom"), ("infantry", 1, "1"), ("infantry", 6, "3")],
)
def test_minefield_chart_cells(unit, d6, code):
    assert sw("sw-minefield", unit=unit, d6=d6)["code"] == code


def test_minefield_effect_is_told_in_words():
    assert sw("sw-minefield", unit="tank", d6=2)["effect"] == "track broken"
    assert sw("sw-minefield", unit="infantry", d6=4)["effect"] == "2 killed"


def test_armoured_car_six_carries_the_cell_above_down():
    # Our copy leaves this cell blank; the merged cell above applies (docs/rolls.md).
    assert sw("sw-minefield", unit="armored-car", d6=6)["code"] == sw("sw-minefield", unit="armored-car", d6=5)["code"]


# --- Terrain effects -------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("terrain", "unit", "code", "shelter"),
    [("flat-crops", "armored-car", "B", "none"), ("flat-rough", "artillery", "X", "medium"),
     ("cliffs", "infantry", "S+dt", "medium"), ("wooden-house", "tank", "B+ruins", "soft"),
     ("hedges", "jeep", "S", "none"), ("bunker", "infantry", "T", "hard"), ("roads", "truck", "R3", "none"),
     ("anti-tank-obstacles", "bike", "S", "soft")],
)
def test_terrain_chart_cells(terrain, unit, code, shelter):
    data = sw("sw-terrain", terrain=terrain, unit=unit)
    assert (data["code"], data["shelter"]) == (code, shelter)


# --- Spotting --------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("options", "cm"),
    [({"target": "big", "terrain": "clear"}, 150),
     ({"target": "big", "terrain": "trees", "status": "moving", "inside": True}, 40),
     ({"target": "small", "terrain": "ruins", "inside": True, "reduced": True}, 9),
     ({"target": "small", "terrain": "urban", "status": "firing"}, 300),
     ({"target": "infantry", "terrain": "crops", "status": "firing"}, 140),
     ({"target": "infantry", "terrain": "trees", "status": "moving"}, 40),
     ({"target": "infantry", "terrain": "houses", "status": "moving"}, 20),
     ({"target": "infantry", "terrain": "trenches", "status": "moving", "inside": True, "reduced": True}, 6)],
)
def test_spotting_chart_cells(options, cm):
    assert sw("sw-spotting", **options)["distance_cm"] == cm


# --- Heavy weapons fire ----------------------------------------------------------------------

@pytest.mark.parametrize(
    ("target", "score", "cell"),
    [("big-tank", 4, "body"), ("tank", 4, "-"), ("truck", 5, "wheel"), ("small-tank", 7, "wheel|track"),
     ("tank", 10, "choice"), ("soldier", 6, "dead-s"), ("soldier", 11, "dead"), ("artillery", 7, "shield"),
     ("building-1", 4, "hit"), ("building-5", 10, "-"), ("building-5", 11, "hit"), ("jeep", 3, "-")],
)
def test_heavy_weapons_fire_cells(target, score, cell):
    assert sw("sw-fire", target=target, range="short", die=score)["cell"] == cell


def test_combat_skill_adds_to_the_die():
    assert sw("sw-fire", target="big-tank", range="long", die=5, cs=2)["cell"] == "track"  # 7


def test_a_moving_target_reads_three_rows_lower():
    # Chart: the moving column shows 7 where the stationary one shows 4.
    assert sw("sw-fire", target="big-tank", range="effective", die=7, moving=True)["cell"] == "body"
    assert sw("sw-fire", target="big-tank", range="effective", die=6, moving=True)["cell"] == "-"


def test_soft_shelter_saves_a_soldier_from_a_light_shell_but_not_a_heavy_one():
    assert sw("sw-fire", target="soldier", range="short", die=6, shelter="soft", calibre=50)["killed"] is False
    assert sw("sw-fire", target="soldier", range="short", die=6, shelter="soft", calibre=75)["killed"] is True


def test_a_long_range_die_cannot_show_more_than_eight():
    with pytest.raises(rolls.RollError, match="d8"):
        sw("sw-fire", target="tank", range="long", die=9)


# --- Armour penetration ----------------------------------------------------------------------

@pytest.mark.parametrize(
    ("options", "needed"),
    [({"gun": "2p", "armor": 5}, 12), ({"gun": "88l", "armor": 1}, 1), ({"gun": "88l", "armor": 8}, 7),
     ({"calibre": 15, "ammo": "he", "armor": 1, "block": "b"}, 7), ({"calibre": 25, "ammo": "he", "armor": 2}, 11),
     ({"calibre": 150, "ammo": "ap", "armor": 20}, 12), ({"gun": "17-25p-he", "armor": 10, "block": "b"}, 10),
     ({"gun": "hand-bomb", "armor": 4, "block": "b"}, 11), ({"calibre": 45, "ammo": "ap", "armor": 7}, None)],
)
def test_penetration_chart_cells(options, needed):
    assert sw("sw-penetration", range="short", die=12, **options)["needed"] == needed


def test_a_gun_below_the_chart_never_penetrates():
    data = sw("sw-penetration", calibre=12, ammo="ap", armor=1, range="short", die=12)
    assert (data["needed"], data["penetrates"]) == (None, False)


def test_the_die_must_reach_the_number():
    assert sw("sw-penetration", gun="88l", armor=8, range="short", die=7)["penetrates"] is True
    assert sw("sw-penetration", gun="88l", armor=8, range="short", die=6)["penetrates"] is False


def test_penetration_needs_a_calibre_or_a_named_gun():
    with pytest.raises(rolls.RollError, match="exactly one"):
        sw("sw-penetration", armor=3, range="short")


def test_penetration_gets_harder_with_armour_and_easier_with_calibre():
    for block in T.PENETRATION.values():
        columns = [[None if c == "-" else int(c) for c in col.split()] for col in block.values()]
        impossible = 99
        for col in columns:  # heavier calibres never need more
            values = [impossible if v is None else v for v in col]
            assert values == sorted(values, reverse=True)
        for row in zip(*columns):  # thicker armour never needs less
            values = [impossible if v is None else v for v in row]
            assert values == sorted(values)


# --- Heavy weapons effects -------------------------------------------------------------------

@pytest.mark.parametrize(
    ("part", "die", "fragments", "code"),
    [("open-top", 1, False, "brief+dead"), ("tank-body", 6, False, "immobile+1+ct"), ("wheel", 6, False, "out+1+ct"),
     ("artillery", 10, False, "boom"), ("casemate", 3, False, "gun-lost+2+ct"), ("track", 7, True, "broken+ct"),
     ("truck-body", 10, True, "out+5+ct"), ("turret", 2, True, "mg+1+ct")],
)
def test_heavy_weapons_effects_cells(part, die, fragments, code):
    assert sw("sw-effects", part=part, die=die, fragments=fragments)["code"] == code


def test_effects_are_told_in_words():
    assert sw("sw-effects", part="tank-body", die=7)["effect"] == "knocked out, 2 killed, courage test"


# --- Light weapon fire -----------------------------------------------------------------------

@pytest.mark.parametrize(
    ("shots", "die", "moving", "code"),
    [(2, 1, False, "-"), (20, 6, False, "b2"), (20, 8, True, "b2"), (70, 9, False, "x"), (80, 4, False, "d5"),
     (40, 10, False, "d6"), (10, 12, False, "s3"), (100, 12, True, "x")],
)
def test_light_weapons_against_vehicles_cells(shots, die, moving, code):
    assert sw("sw-lw-vehicle", shots=shots, range="short", die=die, moving=moving)["code"] == code


@pytest.mark.parametrize(
    ("shots", "die", "shelter", "casualties"),
    [(35, 7, "none", 5), (35, 7, "soft", 3), (35, 7, "medium", 1), (80, 12, "none", 12), (80, 12, "hard", 5),
     (2, 3, "none", 0), (6, 8, "none", 1)],
)
def test_light_weapons_against_infantry_cells(shots, die, shelter, casualties):
    assert sw("sw-lw-infantry", shots=shots, range="short", die=die, shelter=shelter)["casualties"] == casualties


def test_light_weapons_casualties_rise_with_the_die_and_the_shots_and_fall_with_shelter():
    grid = [[tuple(int(v) for v in (c.split(".") if "." in c else c)) for c in row.split()] for row in T.LW_INFANTRY]
    for row in grid:
        for a, b in itertools.pairwise(row):
            assert all(x <= y for x, y in zip(a, b))
        for cell in row:
            assert list(cell) == sorted(cell, reverse=True)
    for upper, lower in itertools.pairwise(grid):
        for a, b in zip(upper, lower):
            assert all(x <= y for x, y in zip(a, b))


# --- Scatter, incendiaries, buildings, crews, communications ---------------------------------

def test_mortar_direct_fire_lands_d10_plus_d6_less_cs_from_the_centre():
    data = sw("sw-scatter", kind="mortar-direct", cs=2, distance_dice="6,3", direction=4)
    assert (data["distance_cm"], data["direction"]) == (7, 4)


def test_a_barrage_below_one_hits_the_marked_point():
    data = sw("sw-scatter", kind="on-board", cs=2, cr=1, distance_dice="1,1")
    assert data["exact_hit"] is True


def test_off_board_artillery_rolls_two_d12_and_a_d10():
    data = sw("sw-scatter", seed=9, kind="off-board")
    assert [d["die"] for d in data["dice"]] == ["d12", "d12", "d10", "d10"]


@pytest.mark.parametrize(
    ("target", "die", "code"),
    [("tank", 2, "-"), ("tank", 6, "1+ct"), ("tank", 7, "immobile"), ("truck", 5, "4+ct"), ("jeep", 5, "fire+saved+ct"),
     ("soldier", 3, "killed-mp"), ("soldier", 5, "killed-p"), ("truck", 8, "boom")],
)
def test_incendiary_chart_cells(target, die, code):
    assert sw("sw-incendiary", target=target, die=die)["code"] == code


@pytest.mark.parametrize(
    ("calibre", "building", "die", "code"),
    [(150, "wooden", 8, "collapse"), (150, "bunker", 5, "floor"), (100, "brick", 10, "fire"), (100, "bunker", 8, "floor"),
     (40, "wooden", 10, "floor"), (40, "palace", 10, "blast"), (40, "bunker", 7, "floor"), (40, "bunker", 9, "floor")],
)
def test_effects_against_buildings_cells(calibre, building, die, code):
    assert sw("sw-building", calibre=calibre, building=building, die=die)["code"] == code


def test_the_missing_nine_for_small_guns_counts_with_seven_and_eight():
    # Our chart prints 1-6, 7-8 and 10 for guns over 30 mm (docs/rolls.md).
    assert sw("sw-building", calibre=40, building="wooden", die=9)["row"] == 1


@pytest.mark.parametrize(
    ("crew", "dead", "effects"),
    [(4, 0, []), (4, 1, ["readiness tests count the D6 as 1"]),
     (4, 2, ["readiness tests count the D6 as 1", "simple maneuvers only"]),
     (4, 3, ["readiness tests count the D6 as 1", "simple maneuvers only", "light weapons only"])],
)
def test_crew_casualties_are_cumulative(crew, dead, effects):
    assert sw("sw-crew", crew=crew, dead=dead)["effects"] == effects


@pytest.mark.parametrize(
    ("options", "max_cm", "in_range"),
    [({"link": "crew"}, 16, None), ({"link": "platoon", "interrupted": True, "distance": 10}, 16, True),
     ({"link": "platoon", "interrupted": True, "distance": 20}, 16, False), ({"link": "radio", "distance": 100}, 128, True),
     ({"link": "crew", "interrupted": True, "distance": 8}, 8, True), ({"link": "crew", "entrenched": True}, 128, None)],
)
def test_communications_chart(options, max_cm, in_range):
    data = sw("sw-comms", **options)
    assert data["max_cm"] == max_cm
    assert data.get("in_range") == in_range
