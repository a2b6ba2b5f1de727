"""The terminal front end: script runs, hot-seat play through stdin, records and replay, autoplay."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from bot.cli import main
from engine import GameState

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "rules"

POSITION = {
    "scenario": "range", "seed": 3,
    "players": [{"name": "Ann", "side": "US"}, {"name": "Bo", "side": "DE"}],
    "soldiers": [{"serial": 1, "seat": 0, "at": [2, 2], "facing": "e"},
                 {"serial": 4, "seat": 1, "at": [32, 2], "facing": "w"}],
    "phase_cards": ["S01", "S05", "S09"],
    "hands": {0: ["1-C3", "1-C4", "1-C1"], 1: ["4-C4", "4-P1", "4-C1"]},
}


@pytest.fixture
def fixture_content(monkeypatch):
    monkeypatch.setenv("FIELDPOST_HOME", str(FIXTURE))


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_script_from_a_position_prints_the_log_and_writes_the_state(tmp_path, capsys, fixture_content):
    pos = write(tmp_path, "pos.yaml", yaml.safe_dump(POSITION))
    script = write(tmp_path, "s.txt", "# the book's sighting example\n@Ann\nplan 1-C3 1-C4 1-C1\n"
                                      "@Bo\nplan 4-C4 4-P1 4-C1\n@Ann\ntag sight Avery   # by name\n")
    out = tmp_path / "state.json"
    assert main(["play", "--position", str(pos), "--script", str(script), "--state-out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "Pvt. Avery spots Schtz. Dorn at 6 squares (modified sight 7)." in text
    assert "Waiting for:" in text
    st = GameState.model_validate_json(out.read_text())
    assert st.soldiers[4].spotted


def test_script_private_events_only_with_private(tmp_path, capsys, fixture_content):
    pos = write(tmp_path, "pos.yaml", yaml.safe_dump(POSITION))
    script = write(tmp_path, "s.txt", "@Ann\nplan 1-C3 1-C4 1-C1\n")
    main(["play", "--position", str(pos), "--script", str(script)])
    assert "You placed" not in capsys.readouterr().out
    main(["play", "--position", str(pos), "--script", str(script), "--private"])
    assert "[to Ann] You placed: phase 1: 1-C3" in capsys.readouterr().out


def test_a_refused_script_line_names_the_line_and_exits_one(tmp_path, capsys, fixture_content):
    pos = write(tmp_path, "pos.yaml", yaml.safe_dump(POSITION))
    script = write(tmp_path, "s.txt", "@Ann\nplan 1-C1 1-C4 1-C3\n")
    assert main(["play", "--position", str(pos), "--script", str(script)]) == 1
    err = capsys.readouterr().err
    assert "line 2: plan 1-C1 1-C4 1-C3: 1-C1 is a MOVE card; phase 1 is LOOK and then HIDE." in err


def test_a_broken_position_is_a_clear_error(tmp_path, capsys, fixture_content):
    bad = dict(POSITION, soldiers=[{"serial": 1, "seat": 0, "at": [99, 2]}, {"serial": 4, "seat": 1}])
    pos = write(tmp_path, "pos.yaml", yaml.safe_dump(bad))
    assert main(["play", "--position", str(pos), "--script", str(write(tmp_path, "s.txt", ""))]) == 2
    assert "cell (99, 2) is off the 40x5 board" in capsys.readouterr().err


def _hands_at_start(seed: int) -> dict[int, list[str]]:
    """The hands the yard scenario deals with this seed (the console's game is the same game)."""
    from engine import load_catalog, new_game
    from engine.turn.setup import SeatSpec
    st, _ = new_game(load_catalog(FIXTURE), "yard", [SeatSpec(name="Ann", side="US"), SeatSpec(name="Bo", side="DE")],
                     seed)
    return {f.seat: list(f.hand) for f in st.forces.values()}


def test_hot_seat_runs_on_the_use_cases_secrets_behind_the_pass_pause(tmp_path):
    record = tmp_path / "game.json"
    keys = "\n".join([
        "",          # pass to the first awaited player
        "hand",
        "1",         # the first placement offered
        "",          # pass to the other one
        "1",
        "quit",
    ]) + "\n"
    env = {"FIELDPOST_HOME": str(FIXTURE), "PATH": "/usr/bin:/bin"}
    proc = subprocess.run([sys.executable, "-m", "bot.cli", "play", "--scenario", "yard", "--seed", "5",
                           "--players", "Ann:US,Bo:DE", "--record", str(record)],
                          input=keys, capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    hands = _hands_at_start(5)
    first, second = out.index("--- Pass to "), out.index("--- Pass to ", out.index("--- Pass to ") + 1)
    first_name = out[first + len("--- Pass to "):].split()[0]
    other = 1 if first_name == "Ann" else 0
    assert not any(c in out[:second] for c in hands[other]), "the second player's cards show only after his pause"
    assert any(c in out[first:second] for c in hands[1 - other]), "the first player sees his own hand"
    assert "Phase 1:" in out, "both placed: the phase is revealed"
    rec = json.loads(record.read_text())
    assert rec["scenario"] == "yard" and rec["seed"] == 5
    assert [c["type"] for c in rec["commands"]] == ["plan", "plan"]


def test_a_scenario_script_goes_through_the_use_cases_and_a_db_game_resumes(tmp_path, capsys, fixture_content):
    from engine import load_catalog, new_game
    from engine.turn.placement import auto_plan
    from engine.turn.setup import SeatSpec
    st, _ = new_game(load_catalog(FIXTURE), "yard", [SeatSpec(name="Ann", side="US"), SeatSpec(name="Bo", side="DE")], 5)
    plans = {f.seat: " ".join(c or "-" for c in auto_plan(st, f.id)) for f in st.forces.values()}
    db = tmp_path / "game.db"
    script = write(tmp_path, "s.txt", f"@Ann\nplan {plans[0]}\n")
    assert main(["play", "--scenario", "yard", "--seed", "5", "--players", "Ann:US,Bo:DE", "--db", str(db),
                 "--script", str(script)]) == 0
    out = capsys.readouterr().out
    assert "Ann places" in out and "Waiting for: Bo to place three action cards" in out
    script2 = write(tmp_path, "s2.txt", f"@Bo\nplan {plans[1]}\n")
    assert main(["play", "--db", str(db), "--script", str(script2)]) == 0
    out = capsys.readouterr().out
    assert "Resuming game #1" in out and "Phase 1:" in out


def test_a_refused_line_in_a_scenario_script_exits_one(tmp_path, capsys, fixture_content):
    script = write(tmp_path, "s.txt", "@Ann\nplan NOPE-1 - -\n")
    assert main(["play", "--scenario", "yard", "--seed", "5", "--players", "Ann:US,Bo:DE", "--script", str(script)]) == 1
    assert "line 2: plan NOPE-1 - -: there is no card 'NOPE-1' in this game" in capsys.readouterr().err


def test_hot_seat_ends_cleanly_when_input_closes(tmp_path):
    env = {"FIELDPOST_HOME": str(FIXTURE), "PATH": "/usr/bin:/bin"}
    proc = subprocess.run([sys.executable, "-m", "bot.cli", "play", "--scenario", "yard", "--seed", "1"],
                          input="", capture_output=True, text=True, cwd=ROOT, env=env, timeout=60)
    assert proc.returncode == 0
    assert "input closed" in proc.stdout and "Traceback" not in proc.stderr


def test_replay_rebuilds_the_recorded_game(tmp_path, capsys, fixture_content):
    from engine.record import Record
    from engine.turn.setup import SeatSpec
    rec = Record(scenario="yard", seed=5, seats=[SeatSpec(name="Ann", side="US"), SeatSpec(name="Bo", side="DE")])
    from engine import apply, load_catalog
    from engine.agent import RandomAgent
    cat = load_catalog()
    st, _ = rec.start(cat)
    agent = RandomAgent(5)
    while st.step != "over":
        cmd = agent.choose(st, agent.seat_to_act(st))
        rec.commands.append(cmd)
        st, _ = apply(st, cmd)
    path = write(tmp_path, "game.json", rec.dumps())
    out = tmp_path / "final.json"
    assert main(["replay", str(path), "--state-out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "Game over" in text and "> Ann: plan" in text
    assert out.read_text() == st.model_dump_json(indent=1)


def test_autoplay_reports_json_and_exits_zero(capsys, fixture_content):
    assert main(["autoplay", "--scenario", "yard", "--games", "3", "--seed", "10", "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["games"] == 3 and rep["finished"] == 3 and rep["errors"] == 0
    assert set(rep) >= {"turns_mean", "vp_mean", "wins", "ms_per_game_median", "games_per_second"}


def test_autoplay_unknown_scenario_exits_two(capsys, fixture_content):
    assert main(["autoplay", "--scenario", "nowhere", "--games", "1"]) == 2
    assert "no scenario 'nowhere'" in capsys.readouterr().err


def test_the_console_game_is_the_default_without_a_token(monkeypatch):
    import bot.cli as cli
    seen = []
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setattr(cli, "build_parser", lambda: _Recorder(seen))
    cli.main([])
    assert seen == [["play"]]


class _Recorder:
    def __init__(self, seen):
        self.seen = seen

    def parse_args(self, argv):
        self.seen.append(argv)

        class A:
            @staticmethod
            def run(args):
                return 0
        return A


def test_a_new_game_takes_each_players_force_and_purchases_from_the_command_line(tmp_path, capsys, fixture_content):
    out = tmp_path / "state.json"
    script = write(tmp_path, "s.txt", "")
    assert main(["play", "--scenario", "artillery-yard", "--seed", "5", "--players", "Ann:US,Bo:DE",
                 "--force", "Ann=1:radio 2", "--artillery", "Ann=light-artillery", "--barrages", "Ann=none",
                 "--mines", "Bo=none", "--script", str(script), "--state-out", str(out)]) == 0
    said = capsys.readouterr().out
    assert "Ann: Your force: Avery (1), Brooks (2)" in said and "costing 14 of 40 VP" in said
    st = json.loads(out.read_text())
    assert st["artillery"]["ordnance"]["0"] == ["light-artillery"] and st["artillery"]["barrages"] == []


def test_a_force_the_rules_refuse_stops_before_the_game_with_the_reason(tmp_path, capsys, fixture_content):
    script = write(tmp_path, "s.txt", "")
    assert main(["play", "--scenario", "artillery-yard", "--players", "Ann:US,Bo:DE",
                 "--artillery", "Ann=howitzers", "--script", str(script)]) == 2
    assert "Ann's force: 'howitzers' is no artillery to buy" in capsys.readouterr().err
    assert main(["play", "--scenario", "artillery-yard", "--players", "Ann:US,Bo:DE",
                 "--force", "Cy=1", "--script", str(script)]) == 2
    assert "--force: write NAME=TEXT with NAME one of the players (Ann, Bo)" in capsys.readouterr().err
