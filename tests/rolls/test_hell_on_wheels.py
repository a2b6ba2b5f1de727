"""Sergeants: Hell on Wheels: the book's worked examples, one test each, plus the artillery chart."""
from __future__ import annotations

from typing import Any

import pytest

from engine import rolls


def how(name: str, **options: Any) -> dict[str, Any]:
    return rolls.roll(name, options, seed=1).data


# --- Penetrating a Vehicle's Armor ---------------------------------------------------------

def test_penetration_example_eleven_hits_against_armour_six():
    # Hit check: 1 hit at Short and 2 at Long; the round adds +5; its 3 blast checks show
    # a miss, 2 hits and a hit. Armour 6 where it struck.
    card_hits = 1 + 2
    blast_hits = 0 + 2 + 1
    data = how("penetration", hits=card_hits, pen=5, blast=blast_hits, armor=6)
    assert data["total"] == 11
    assert data["damage_results"] == 5


def test_shoot_example_panzer_iv_against_sherman_rear():
    # A SHOOT Example: Long Hit + Short 3 Hits = 4, one AP blast check scores 1, AP at Short is +9,
    # the Zip puts the hit on the rear hull, armour 4. The book writes 13 - 4 = 9, but its own sum is
    # 9 + 5 = 14: the rule wins and 14 - 4 = 10 damage results (RULINGS.md, seed slip).
    data = how("penetration", hits=1 + 3, pen=9, blast=1, armor=4)
    assert data["total"] == 14
    assert data["damage_results"] == 10


def test_damage_x_auto_cannon_pulls_three_results_per_penetrating_hit():
    # Damage X: a 37mm auto-cannon (3x, penetration 3 at Short) scores 2 hits on armour 4:
    # 2 + 3 = 5, one hit gets through, and 3x turns it into 3 damage results.
    data = how("penetration", hits=2, pen=3, armor=4, damage_x=3)
    assert data["penetrating"] == 1
    assert data["damage_results"] == 3


def test_a_card_without_hits_misses_whatever_the_round():
    data = how("penetration", hits=0, pen=30, blast=5, armor=1)
    assert data["missed"] is True
    assert data["damage_results"] == 0


def test_armour_that_holds_gives_no_damage_results():
    assert how("penetration", hits=1, pen=2, blast=0, armor=6)["damage_results"] == 0


# --- Protection by Vehicle Armor, Shooting in Close Combat ---------------------------------

def test_mp40_into_an_unbuttoned_turret_hatch():
    # Shooting in Close Combat: 7 hits at Close range against protection 3 leaves 4.
    assert how("protection", hits=7, armor=5, position="unbuttoned")["hits"] == 4


def test_close_combat_example_paratroopers_at_the_drivers_hatch():
    # Close Combat Example: the PzKw IVH's lowest hull armour is 2, below the cap of 3.
    assert how("protection", hits=4, armor=2, position="unbuttoned")["hits"] == 2  # the Thompson
    assert how("protection", hits=2, armor=2, position="unbuttoned")["hits"] == 0  # the M1


def test_unbuttoned_protection_is_capped_at_three():
    assert how("protection", hits=10, armor=8, position="unbuttoned")["protection"] == 3


def test_dismounted_crew_get_half_the_lower_turret_or_cabin_armour_rounded_down():
    data = how("protection", hits=6, armor=5, position="dismounted")
    assert data["protection"] == 2
    assert data["hits"] == 4


def test_hull_down_takes_two_hits_off():
    assert how("protection", hits=5, position="hulldown")["hits"] == 3
    assert how("protection", hits=1, position="hulldown")["hits"] == 0


def test_unbuttoned_crew_without_armour_value_is_bad_input():
    with pytest.raises(rolls.RollError, match="--armor"):
        how("protection", hits=3, position="unbuttoned")


# --- Combat Initiative ----------------------------------------------------------------------

def test_combat_initiative_example_three_cards_and_fight_five():
    assert how("combat-initiative", hand=3, fight=5)["value"] == 8


def test_two_soldiers_against_a_buttoned_turret_draw_half_their_fight_cards():
    # Combat Initiative: a total Fight value of 5 against a buttoned hatch becomes 2.
    data = how("combat-initiative", hand=0, fight=5, buttoned=True)
    assert data["fight_cards"] == 2


def test_close_combat_example_master_sergeant_candy_goes_first():
    candy = how("combat-initiative", hand=5, fight=5)["value"]
    crew = how("combat-initiative", hand=4, fight=2 + 2)["value"]
    assert (candy, crew) == (10, 8)
    assert candy > crew


# --- Bog Checks -----------------------------------------------------------------------------

def test_bog_example_panzer_iv_pulls_two_pins_on_a_bog_three_square():
    data = how("bog", pins=2, bog=3)
    assert data["pin_markers"] == 6
    assert data["bogged"] is True


def test_no_pin_result_means_no_bog():
    data = how("bog", pins=0, bog=3)
    assert data["bogged"] is False
    assert data["pin_markers"] == 0


@pytest.mark.parametrize(
    ("options", "checks"),
    [
        ({"sdd": "S"}, 1),
        ({"sdd": "R"}, 2),
        ({"sdd": "T", "tracked": True}, 1),
        ({"sdd": "T"}, 2),
        ({"move": -1}, 1),  # SMG Style Movement: a -1 square costs one Bog check
        ({"move": -3}, 3),
        ({"move": 0, "passing": True}, 1),
    ],
)
def test_bog_checks_per_square(options, checks):
    assert how("bog-checks", **options)["checks"] == checks


def test_bog_checks_wants_one_kind_of_modifier():
    with pytest.raises(rolls.RollError, match="exactly one"):
        how("bog-checks", move=-1, sdd="S")


# --- Sight, Visibility, Optics --------------------------------------------------------------

def test_sight_example_buttoned_crewman_thirteen_with_vehicle_minus_six():
    assert how("vehicle-sight", crew_sight=13, vehicle_sight=-6)["range"] == 7


def test_visibility_example_jagdtiger_seen_out_to_seventy_squares():
    data = how("vehicle-sight", crew_sight=13, vehicle_sight=-6, visibility=10)
    assert data["before_modifiers"] == 70


def test_visibility_example_soldier_in_minus_six_cover_seen_within_one_square():
    assert how("vehicle-sight", crew_sight=13, vehicle_sight=-6, mods="-6")["range"] == 1


def test_designers_notes_sight_fourteen_less_six_look_is_eight():
    assert how("vehicle-sight", crew_sight=14, vehicle_sight=-6, unbuttoned=True, mods="-6")["range"] == 8


def test_optics_zero_to_two_ignore_minus_one_and_minus_two_squares_and_the_vehicle_modifier():
    data = how("vehicle-sight", crew_sight=13, vehicle_sight=-6, optics=2, mods="-1,-2,-3")
    assert data["mods_ignored"] == [-1, -2]
    assert data["range"] == 13 - 3


def test_range_never_goes_below_zero():
    assert how("vehicle-sight", crew_sight=3, vehicle_sight=-6)["range"] == 0


# --- Artillery ------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("kind", "vp", "blast", "devices"),
    [
        ("medium-mortars", 2, 2, ["radio", "walkie-talkie", "field-telephone"]),
        ("light-artillery", 3, 3, ["radio", "walkie-talkie"]),
        ("heavy-mortars", 4, 4, ["radio", "field-telephone"]),
        ("medium-artillery", 5, 5, ["radio", "field-telephone"]),
        ("rockets", 5, 5, ["scenario"]),
        ("heavy-artillery", 6, 6, ["scenario"]),
    ],
)
def test_artillery_chart_rows(kind, vp, blast, devices):
    data = how("artillery", type=kind)
    assert (data["vp_cost"], data["blast"], data["devices"]) == (vp, blast, devices)


def test_walkie_talkie_cannot_call_heavy_mortars():
    assert how("artillery", type="heavy-mortars", device="walkie-talkie")["can_call"] is False


@pytest.mark.parametrize(
    ("device", "kind", "row"),
    [("field-telephone", "medium-mortars", 1), ("walkie-talkie", "light-artillery", 2), ("radio", "medium-artillery", 3)],
)
def test_artillery_marker_starting_row(device, kind, row):
    assert how("artillery", type=kind, device=device)["sight_row"] == row
