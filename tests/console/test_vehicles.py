"""Vehicles in the terminal: the board text lists each vehicle's plate, panel, tile, facing,
turret, crew at their posts, damage, ammunition and markers; a position script with vehicle
lines runs; a scenario script places for each deck through the use-cases; and a hot-seat game
of a shipped vehicle scenario plays to its end on numbered choices."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml

from bot.cli import main
from bot.console import text
from engine import SeatSpec, load_catalog, new_game, view
from engine.position import load_position
from engine.script import run_script
from engine.turn.placement import auto_plan

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "rules"
POSITIONS = ROOT / "tests" / "fixtures" / "positions"


def duel_state():
    st, _ = load_position(load_catalog(FIXTURE), yaml.safe_load((POSITIONS / "tank-duel.yaml").read_text()))
    return st


def test_the_board_text_shows_each_vehicle_and_its_panel():
    st = duel_state()
    st, _ = run_script(st, "@Ann\nplan 1-C1 1-C3 1-C2\nplan 901-V1 60-C3 901-V2\n@Bo\nplan 4-C1 4-C3 4-C2\n"
                           "plan 902-V5 902-V3 902-V1\n@Ann\ntag vmove 901 43A road\n@Bo\npass\n@Ann\npass\n"
                           "@Bo\npass\n@Ann\ntag unbutton 60\n")
    st.vehicles[902].pins, st.vehicles[902].move_plus, st.vehicles[902].hull_down = 1, 2, True
    st.vehicles[902].damage = {"engine": ["wreck"]}
    board = text.full_text(view(st))
    lines = board.splitlines()
    assert "Vehicles and guns:" in lines
    assert "  901 Test Sherman [US] 43A facing E, turret E" in lines
    assert ("      crew: Commander Pvt. Abbott 60 (hatch open); Gunner Pvt. Baker 61; Loader Pvt. Carver 62; "
            "Driver Pvt. Dunn 63; Assistant driver Pvt. Ellis 64") in lines
    assert "      ammo: ready AP 6 HE 4; in hand -; in breach AP" in lines
    assert "  902 Test Panzer [DE] 44A facing W, turret W — 1 pin, Move+ 2, hull down, spotted" in lines
    assert "      damage: Engine wreck" in lines
    lane = next(line for line in lines if line.startswith(" 2 |"))
    assert "901" in lane and "902" in lane  # the plates across their tiles on the map
    assert "   Ann (US, Test Sherman 901): hand 0, deck" in board
    assert "Pvt. Abbott" not in "\n".join(text.soldier_lines(view(st)))  # aboard: listed with his tank


def test_the_prompted_players_own_text_shows_each_deck():
    st = duel_state()
    mine = text.private_text(view(st, 0))
    assert "Your hand, squad (US-1):" in mine and "Your hand, Test Sherman 901 (US-1-901):" in mine
    assert "901-V1" in mine and "902-V1" not in mine


def test_a_position_script_with_vehicle_lines_runs(capsys, monkeypatch):
    monkeypatch.setenv("FIELDPOST_HOME", str(FIXTURE))
    assert main(["play", "--position", str(POSITIONS / "tank-duel.yaml"),
                 "--script", str(POSITIONS / "tank-duel.txt")]) == 0
    out = capsys.readouterr().out
    assert "Pvt. Dunn drives the Test Sherman 901: it moves 42A -> 43A along the road (1 square), facing E." in out
    assert "Pvt. Abbott opens his hatch on the Test Sherman 901." in out
    assert "Schtz. Brandt fires the Test Panzer 902's 7.5 cm KwK 40" in out
    assert "Pvt. Avery fires at Test Panzer 902" in out
    assert "Waiting for: Bo to carry out 4-C2 (SHOOT)" in out


def test_a_scenario_script_places_for_each_deck_through_the_use_cases(tmp_path, capsys):
    st, _ = new_game(load_catalog(), "chapel-gun", [SeatSpec(name="Ann", side="US"), SeatSpec(name="Bo", side="DE")], 5)
    lines = []
    for seat, name in ((0, "Ann"), (1, "Bo")):
        lines.append(f"@{name}")
        for f in st.force_of_seat(seat):
            deck = "squad" if f.kind == "squad" else str(f.plate)  # as players say it
            lines.append(f"plan for {deck} " + " ".join(c or "-" for c in auto_plan(st, f.id)))
    script = tmp_path / "s.txt"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["play", "--scenario", "chapel-gun", "--seed", "5", "--players", "Ann:US,Bo:DE",
                 "--script", str(script), "--private"]) == 0
    out = capsys.readouterr().out
    assert out.count("Ann places") == 2 and out.count("Bo places") == 2 and "Phase 1:" in out
    assert "— for M4A1 Sherman 601." in out and "— for 7.5 cm PaK 40 anti-tank gun 703." in out


def test_hot_seat_plays_a_vehicle_scenario_to_its_end_on_numbered_choices(tmp_path):
    keys = "\nvehicles\noptions\n1\n" * 500  # pass the keyboard, look, list, take the first
    proc = subprocess.run([sys.executable, "-m", "bot.cli", "play", "--scenario", "chapel-gun", "--seed", "5",
                           "--players", "Ann:US,Bo:DE"], input=keys, capture_output=True, text=True, cwd=ROOT,
                          env={"PATH": "/usr/bin:/bin"}, timeout=600)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Traceback" not in proc.stderr and "Game over" in out
    assert "Vehicles and guns:" in out and "  601 M4A1 Sherman (75 mm) [US]" in out
    assert ") M4A1 Sherman 601: drive to " in out  # a numbered vehicle option
    assert "Done: tag vmove 601" in out or "Done: team vmove 601" in out
    assert "Your hand, M4A1 Sherman 601 (US-1-601):" in out
