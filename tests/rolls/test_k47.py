"""Konflikt '47-style vehicle rules: the book's examples and its tables."""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import rolls


def k47(name: str, seed: int = 1, **options: Any) -> dict[str, Any]:
    return rolls.roll(name, options, seed).data


# --- Damage Value Table -------------------------------------------------------------------

@pytest.mark.parametrize(
    ("target", "needed"),
    [("inexperienced-infantry", 3), ("regular-infantry", 4), ("veteran-infantry", 5), ("soft-skin", 6),
     ("armoured-car", 7), ("light-tank", 8), ("medium-tank", 9), ("heavy-tank", 10), ("super-heavy-tank", 11)],
)
def test_damage_value_table(target, needed):
    data = k47("k47-target", target=target)
    assert data["needed"] == needed
    assert data["armoured"] is (needed >= 7)


# --- Penetration modifiers and the Stuart against the veteran Tiger -----------------------

def test_stuart_at_long_range_cannot_pin_a_veteran_tiger_from_the_front():
    # Vehicles and Pinning example: Pen +4, long range -1 = +3, best roll 9 < 10: no pin.
    data = k47("k47-pin", quality="veteran", pen=4, damage_value=10, range="long")
    assert data["pen"] == 3
    assert data["can_damage"] is False
    assert data["pin_markers"] == 0


def test_stuart_at_short_range_pins_the_tiger_before_rolling_to_damage():
    assert k47("k47-pin", quality="veteran", pen=4, damage_value=10)["pin_markers"] == 1


def test_stuart_on_the_tigers_side_at_long_range_pins_it_too():
    data = k47("k47-pin", quality="veteran", pen=4, damage_value=10, range="long", aspect="side")
    assert data["pen"] == 4
    assert data["pin_markers"] == 1


def test_inexperienced_crews_are_pinned_by_any_heavy_hit():
    assert k47("k47-pin", quality="inexperienced", pen=1, damage_value=11)["pin_markers"] == 1


def test_small_arms_never_pin_an_enclosed_tank():
    assert k47("k47-pin", quality="inexperienced", pen=0, damage_value=9)["pin_markers"] == 0


def test_open_topped_vehicles_are_pinned_like_infantry():
    assert k47("k47-pin", quality="veteran", pen=0, damage_value=7, open_topped=True)["pin_markers"] == 1


@pytest.mark.parametrize(("die", "behaves", "pins"), [(1, "inexperienced", 1), (3, "inexperienced", 1),
                                                        (4, "veteran", 0), (6, "veteran", 0)])
def test_regular_crews_react_as_inexperienced_on_1_to_3_and_veteran_on_4_up(die, behaves, pins):
    data = k47("k47-pin", quality="regular", pen=2, damage_value=10, d6=die)
    assert data["behaves_as"] == behaves
    assert data["pin_markers"] == pins


@pytest.mark.parametrize(("aspect", "pen"), [("front", 3), ("side", 4), ("top", 4), ("rear", 5)])
def test_facing_modifiers(aspect, pen):
    assert k47("k47", pen=3, damage_value=9, aspect=aspect, die=1)["pen"] == pen


def test_walkers_get_no_facing_bonus_but_long_range_still_counts():
    assert k47("k47", pen=3, damage_value=9, aspect="rear", walker=True, range="long", die=1)["pen"] == 2


def test_modifiers_do_not_apply_to_soft_targets():
    assert k47("k47", pen=2, damage_value=6, aspect="rear", range="long", die=1)["pen"] == 2


# --- Rolling to damage --------------------------------------------------------------------

def test_superficial_damage_when_the_roll_is_exactly_the_minimum():
    # Superficial damage example: needing 5+ on the die and rolling a 5 (here Pen +4 against 9+).
    data = k47("k47", pen=4, damage_value=9, die=5, effect_dice="6")
    assert data["outcome"] == "superficial"
    assert data["effects"][0]["modified"] == 3  # 6 - 3: on fire, never knocked out


def test_massive_damage_at_three_over_against_a_medium_tank():
    # Massive damage example: 9+ needed, a total of 12 rolls twice on the damage table.
    data = k47("k47", pen=6, damage_value=9, die=6, effect_dice="1,4")
    assert data["total"] == 12
    assert data["outcome"] == "massive"
    assert [e["effect"] for e in data["effects"]] == ["stunned", "knocked-out"]


def test_eleven_against_nine_is_full_damage():
    data = k47("k47", pen=6, damage_value=9, die=5, effect_dice="2")
    assert data["outcome"] == "damaged"
    assert data["effects"][0]["effect"] == "immobilised"


def test_below_the_damage_value_does_nothing():
    data = k47("k47", pen=1, damage_value=9, die=6)
    assert data["outcome"] == "none"
    assert data["effects"] == []


@pytest.mark.parametrize(("die", "effect"), [(1, "stunned"), (2, "immobilised"), (3, "on-fire"),
                                             (4, "knocked-out"), (5, "knocked-out"), (6, "knocked-out")])
def test_damage_results_table(die, effect):
    assert k47("k47-result", die=die)["effect"] == effect


def test_open_topped_hit_by_indirect_fire_adds_one_to_the_result():
    assert k47("k47-result", die=3, open_topped_indirect=True)["effect"] == "knocked-out"


@given(die=st.integers(1, 6))
def test_superficial_damage_never_knocks_a_vehicle_out_without_the_open_top_bonus(die):
    effect = k47("k47-result", die=die, superficial=True)["effect"]
    assert effect != "knocked-out"


# --- Assaults -----------------------------------------------------------------------------

def test_infantry_assault_example_four_hits_on_a_carrier_need_a_three():
    # Infantry Assaults on Vehicles: 7+ damages an armoured carrier; with 4 hits a 3 will do.
    hits_four = "4,5,6,6"
    damaged = k47("k47-infantry-assault", attacks=4, damage_value=7, attack_dice=hits_four, die=3, at_weapons=True)
    assert damaged["hits"] == 4
    assert damaged["outcome"] == "superficial"  # 3 + 4 = 7 is exactly the minimum
    assert k47("k47-infantry-assault", attacks=4, damage_value=7, attack_dice=hits_four, die=2)["outcome"] == "none"


def test_advancing_vehicles_are_hit_only_on_sixes():
    data = k47("k47-infantry-assault", attacks=4, damage_value=9, vehicle="advancing", attack_dice="4,5,6,6", die=1)
    assert data["hits"] == 2


def test_without_anti_tank_weapons_assaults_only_do_superficial_damage():
    data = k47("k47-infantry-assault", attacks=6, damage_value=7, attack_dice="6,6,6,6,6,6", die=6, effect_dice="6")
    assert data["outcome"] == "superficial"


def test_soft_skins_and_open_tops_are_destroyed_if_damaged_by_an_assault():
    assert k47("k47-infantry-assault", attacks=2, damage_value=6, attack_dice="4,4", die=4)["outcome"] == "destroyed"
    assert k47("k47-infantry-assault", attacks=2, damage_value=7, open_topped=True, attack_dice="4,4",
               die=5)["outcome"] == "destroyed"


def test_more_attack_dice_than_attacks_is_bad_input():
    with pytest.raises(rolls.RollError):
        k47("k47-infantry-assault", attacks=2, damage_value=7, attack_dice="4,4,4")


def test_heavy_tank_that_rams_and_wins_against_a_light_tank_takes_no_damage():
    # Tank Assaults on Vehicles: the heavier winner is unharmed; the lighter loser rolls full damage.
    data = k47("k47-tank-assault", attacker_dv=10, defender_dv=8, attacker_die=3, defender_die=3, effect_dice="5")
    assert data["winner"] == "attacker"
    assert data["attacker"]["damage"] == "none"
    assert data["defender"]["damage"] == "full"


def test_a_heavy_tank_that_loses_to_a_light_one_takes_only_superficial_damage():
    data = k47("k47-tank-assault", attacker_dv=8, defender_dv=10, attacker_die=6, defender_die=1, effect_dice="6,6")
    assert data["winner"] == "attacker"  # 6 + 8 = 14 beats 1 + 10 = 11
    assert data["defender"]["damage"] == "superficial"
    assert data["attacker"]["damage"] == "superficial"  # a winner no heavier than the loser


def test_equal_scores_make_both_losers():
    data = k47("k47-tank-assault", attacker_dv=9, defender_dv=9, attacker_die=2, defender_die=2, effect_dice="1,2")
    assert data["winner"] == "none"
    assert data["attacker"]["damage"] == data["defender"]["damage"] == "full"


def test_a_soft_skin_rammed_by_a_tank_is_destroyed():
    data = k47("k47-tank-assault", attacker_dv=8, defender_dv=6, attacker_die=1, defender_die=6)
    assert data["defender"]["damage"] == "destroyed"
