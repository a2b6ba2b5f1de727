"""`fieldpost render`: a gallery from seeded games, without playing."""
from __future__ import annotations

from pathlib import Path

from bot.cli import main

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "rules"


def test_the_gallery_has_the_start_a_shooting_phase_smoke_and_fire_and_cards(tmp_path, capsys):
    out = tmp_path / "gallery"
    assert main(["render", "--scenario", "yard", "--content", str(FIXTURE), "--seed", "1", "--out", str(out)]) == 0
    names = {p.stem for p in out.glob("*.png")}
    assert {"start", "shooting", "smoke-fire", "private-seat0"} <= names
    assert any(n.endswith("-own") for n in names) and any(n.endswith("-enemy") for n in names)
    assert "start" in capsys.readouterr().out


def test_an_unknown_scenario_is_one_line_and_exit_2(tmp_path, capsys):
    assert main(["render", "--scenario", "nowhere", "--content", str(FIXTURE), "--out", str(tmp_path)]) == 2
    assert capsys.readouterr().err.startswith("error:")
