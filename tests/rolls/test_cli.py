"""`fieldpost roll`: the --json contract the user scripts against, and one-line errors."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import rolls

# --- The JSON contract ------------------------------------------------------------------------

def test_penetration_json(cli_json):
    data = cli_json("penetration", "--hits", "4", "--pen", "9", "--blast", "1", "--armor", "4")
    assert data["damage_results"] == 10
    assert type(data["damage_results"]) is int


def test_protection_json(cli_json):
    data = cli_json("protection", "--hits", "7", "--armor", "3", "--position", "unbuttoned")
    assert data["hits"] == 4
    assert cli_json("protection", "--hits", "4", "--position", "hulldown")["hits"] == 2
    assert cli_json("protection", "--hits", "4", "--armor", "5", "--position", "dismounted")["hits"] == 2


def test_combat_initiative_json(cli_json):
    assert cli_json("combat-initiative", "--hand", "3", "--fight", "5")["value"] == 8
    assert cli_json("combat-initiative", "--hand", "3", "--fight", "5", "--buttoned")["value"] == 5


def test_bog_json(cli_json):
    assert cli_json("bog", "--pins", "2", "--bog", "3")["pin_markers"] == 6


def test_vehicle_sight_json_takes_negative_values_as_written(cli_json):
    data = cli_json("vehicle-sight", "--crew-sight", "13", "--vehicle-sight", "-6", "--mods", "-1,-2", "--visibility", "2")
    assert data["range"] == 7 * 2 - 3
    assert cli_json("vehicle-sight", "--crew-sight", "13", "--vehicle-sight", "-6", "--unbuttoned")["range"] == 13


def test_k47_json(cli_json):
    data = cli_json("k47", "--pen", "4", "--damage-value", "10", "--range", "long", "--aspect", "front")
    assert (data["pen"], data["needed"], data["can_damage"]) == (3, 10, False)
    assert data["outcome"] == "none"
    data = cli_json("k47", "--pen", "4", "--damage-value", "9", "--range", "normal", "--aspect", "side", "--die", "4")
    assert (data["pen"], data["needed"], data["can_damage"], data["outcome"]) == (5, 9, True, "superficial")
    for die, outcome in ((1, "none"), (5, "damaged"), (6, "damaged")):
        assert cli_json("k47", "--pen", "3", "--damage-value", "7", "--die", str(die))["outcome"] == outcome
    assert cli_json("k47", "--pen", "4", "--damage-value", "7", "--die", "6")["outcome"] == "massive"


def test_sw_test_json(cli_json):
    data = cli_json("sw-test", "--test", "CT", "--cs", "2", "--cr", "1", "--d6", "3", "--vs", "6")
    assert (data["success"], data["score"]) == (True, 6)
    data = cli_json("sw-test", "--test", "RT", "--cs", "0", "--d6", "2", "--vs", "5")
    assert (data["success"], data["score"]) == (False, 2)
    assert type(cli_json("sw-test", "--test", "MC", "--cs", "1", "--seed", "3")["success"]) is bool


@pytest.mark.parametrize(("unit", "d6", "effect"), [("tank", "3", "track broken"), ("infantry", "5", "3 killed"),
                                                     ("truck", "6", "blown up, no survivors")])
def test_sw_minefield_json(cli_json, unit, d6, effect):
    assert cli_json("sw-minefield", "--d6", d6, "--unit", unit)["effect"] == effect


def test_hc_at_json(cli_json):
    results = {cli_json("hc-at", "--firer", f, "--target", t)["result"]
               for f in ("VL", "L", "M", "H", "VH") for t in ("VL", "L", "M", "H", "VH")}
    assert results == {"1", "2", "3", "4", "color", "none"}


def test_every_check_answers_json_with_its_name_and_seed(cli_json):
    minimal = {
        "penetration": ["--hits", "1", "--pen", "1", "--armor", "1"], "protection": ["--hits", "1", "--position", "hulldown"],
        "combat-initiative": ["--hand", "1", "--fight", "1"], "bog": ["--pins", "1", "--bog", "1"],
        "bog-checks": ["--sdd", "R"], "vehicle-sight": ["--crew-sight", "9", "--vehicle-sight", "-3"],
        "artillery": ["--type", "rockets"], "k47": ["--pen", "1", "--damage-value", "8"], "k47-result": [],
        "k47-target": ["--target", "soft-skin"],
        "k47-pin": ["--quality", "regular", "--pen", "2", "--damage-value", "9"],
        "k47-tank-assault": ["--attacker-dv", "9", "--defender-dv", "8"],
        "k47-infantry-assault": ["--attacks", "5", "--damage-value", "7"], "sw-test": ["--test", "IFR", "--cs", "1"],
        "sw-minefield": ["--unit", "tank"], "sw-terrain": ["--terrain", "ford", "--unit", "bike"],
        "sw-spotting": ["--target", "small", "--terrain", "rocks"], "sw-fire": ["--target", "tank", "--range", "short"],
        "sw-penetration": ["--gun", "75l", "--armor", "9", "--range", "effective"], "sw-effects": ["--part", "wheel"],
        "sw-lw-vehicle": ["--shots", "12", "--range", "long"], "sw-lw-infantry": ["--shots", "30", "--range", "effective"],
        "sw-scatter": ["--kind", "missed-hand"], "sw-incendiary": ["--target", "jeep"],
        "sw-building": ["--building", "brick", "--calibre", "88"], "sw-crew": ["--crew", "5", "--dead", "2"],
        "sw-comms": ["--link", "radio"], "hc-range": ["--weapon", "cannon-b", "--hexes", "7"],
        "hc-roll": ["--need", "code"], "hc-at": ["--firer", "M", "--target", "L"], "hc-he": ["--weight", "H"],
        "hc-shot-fall": [], "hc-damage": ["--cubes", "3"],
    }
    mine = [c.name for c in rolls.all_checks() if c.system in ("how", "k47", "sw", "hc")]
    assert sorted(minimal) == sorted(mine)
    for name, argv in minimal.items():
        data = cli_json(name, *argv, "--seed", "42")
        assert data["check"] == name
        assert data["seed"] == 42


def test_same_seed_same_answer_and_no_seed_still_works(cli_json):
    argv = ("k47-infantry-assault", "--attacks", "6", "--damage-value", "8", "--at-weapons")
    assert cli_json(*argv, "--seed", "7") == cli_json(*argv, "--seed", "7")
    assert isinstance(cli_json(*argv)["seed"], int)


def test_text_output_shows_the_working(cli):
    code, out, err = cli("penetration", "--hits", "4", "--pen", "9", "--blast", "1", "--armor", "4", "--seed", "1")
    assert code == 0
    assert err == ""
    assert "card hits 4 + penetration +9 + blast hits 1 = 14" in out
    assert "10 damage results" in out
    assert "**" not in out


def test_help_lists_the_checks_by_rulebook(cli):
    code, out, _ = cli("--help")
    assert code == 0
    for system in ("Sergeants: Hell on Wheels (how)", "Konflikt '47 vehicles (k47)", "Steel Wheels WWII (sw)",
                   "Hex Command Mechanized (hc)"):
        assert system in out
    assert out.index("Hell on Wheels") < out.index("vehicle-sight") < out.index("Konflikt") < out.index("k47-pin")


# --- Bad input: exit 2, one line, the valid values named --------------------------------------

BAD = [
    (["protection", "--hits", "3", "--position", "sideways"], "unbuttoned, dismounted, hulldown"),
    (["sw-minefield", "--unit", "tank", "--d6", "7"], "from 1 to 6"),
    (["penetration", "--pen", "1", "--armor", "2"], "--hits: a whole number from 0 to 99"),
    (["bog", "--pins", "two", "--bog", "1"], "a whole number"),
    (["bog", "--pins", "1", "--bog", "1", "--colour", "red"], "--pins"),
    (["hc-at", "--firer", "XL", "--target", "L"], "one of VL, L, M, H, VH"),
    (["no-such-check"], "penetration"),
    ([], "choose from"),
    (["protection", "--hits"], "a whole number from 0 to 99"),
    (["k47", "--pen", "4", "--damage-value", "9", "--seed", "abc"], "whole number"),
    (["sw-test", "--test", "CT", "--cs", "1", "--vs", "10"], "D8"),
]


@pytest.mark.parametrize(("argv", "names"), BAD)
def test_bad_input_is_one_line_on_stderr_with_status_2(cli, argv, names):
    code, out, err = cli(*argv)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert names in err
    assert "Traceback" not in err


@pytest.mark.parametrize(("argv", "names"), BAD)
def test_bad_input_with_json_is_one_json_object_on_stdout(cli, argv, names):
    code, out, err = cli(*argv, "--json")
    assert code == 2
    assert err == ""
    assert out.count("\n") == 1
    error = json.loads(out)
    assert list(error) == ["error"]
    assert names in error["error"]


def test_the_installed_command_answers_json_in_a_real_process():
    exe = Path(sys.executable).with_name("fieldpost")
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "bot.cli"]
    done = subprocess.run(
        [*command, "roll", "bog", "--pins", "2", "--bog", "3", "--json"], capture_output=True, text=True, timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["pin_markers"] == 6
    bad = subprocess.run([*command, "roll", "bog", "--pins", "-2", "--bog", "3", "--json"], capture_output=True,
                         text=True, timeout=60, check=False)
    assert bad.returncode == 2
    assert "error" in json.loads(bad.stdout)
