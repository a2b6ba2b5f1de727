"""The battlefield in the terminal (issue 9): `help` lists the battlefield lines; the player at
the keyboard reads his artillery calls, barrages, radio contact, ordnance and his side's mine
kinds in his private text; the table text shows markers and tokens face down only; the new
lines read as commands."""
from __future__ import annotations

import asyncio
import types
from pathlib import Path

import pytest

from bot.console import text
from bot.console.hotseat import HotSeat
from engine import load_catalog, view
from engine.core import commands as C
from engine.core.commands import BATTLEFIELD_GRAMMAR
from engine.core.errors import UsageError
from engine.position import load_position
from engine.script import parse_line
from tests.app.battlefield_views import leaks, with_secrets
from tests.render.conftest import yard

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "rules"


@pytest.fixture(scope="module")
def state():
    return load_position(load_catalog(FIXTURE), yard())[0]


def test_help_explains_every_battlefield_line(capsys):
    hot = HotSeat(types.SimpleNamespace(service=None, where=None))
    for row in BATTLEFIELD_GRAMMAR.splitlines():
        verb = row.removeprefix("[via] ").split()[0]
        assert asyncio.run(hot._meta(f"help {verb}", None, 0))
        assert row in capsys.readouterr().out
    assert asyncio.run(hot._meta("help", None, 0))
    page = capsys.readouterr().out
    assert all(verb in page for verb in ("assail", "barrage", "popsmoke", "react"))  # named on the quick reference


def test_his_private_text_lists_his_battlefield_secrets(state):
    mine = text.private_text(with_secrets(view(state, 0), seat=0))
    assert "Your artillery calls: QQ: howitzer zeta on 31A, 2 rows to On Target, called by Pvt. Avery (1); " \
           "XJ: howitzer zeta on L9A, On Target, called by Pvt. Avery (1); ZV: howitzer zeta on L9A, Fake" in mine
    assert "Radio contact this turn: Pvt. Avery (1): 1 LOOK phase so far" in mine
    assert "Your planned barrages (secret): rockets omega on L9A at the start of turn 7" in mine
    assert "Your side's minefields (face down to the enemy): 31A booby trap (booby+booby)" in mine
    assert "Artillery to call: howitzer zeta x2, rockets omega" in mine


def test_the_table_text_shows_markers_and_tokens_face_down_only(state):
    board = text.full_text(with_secrets(view(state, 0), seat=0))
    assert "   Artillery markers (face down): 31A (DE), 31A (US), L9A (US), L9A (US)" in board
    assert "   Mine tokens (face down): 31A: 2 US tokens, L9A: 4 US tokens" in board
    assert "   Roadblocks: 31A roadblock" in board
    assert leaks(board) == []


@pytest.mark.parametrize("line, cls", [
    ("assail 1 902 turret grenade", C.AssailCmd), ("call 1 mortar-81 33A fake", C.CallCmd),
    ("tag adjust 1 B", C.AdjustCmd), ("barrage rockets 3 L9A", C.BarrageCmd), ("team popsmoke 1", C.PopSmokeCmd),
    ("handoff Avery radio Brooks", C.HandOffCmd), ("note recover 1 bazooka", C.RecoverCmd),
    ("tag climb Avery 902 turret", C.ClimbCmd), ("team laymines 903 43A at+gp", C.LayMinesCmd),
    ("tag clearmines Avery 22A", C.ClearMinesCmd),
])
def test_the_battlefield_lines_read_as_console_commands(state, line, cls):
    assert isinstance(parse_line(state, line, 0), cls)


def test_the_men_up_on_an_enemy_tank_are_listed_with_it():
    from tests.engine.test_close_combat import AMES, DOYLE, assault
    st = assault(load_catalog(FIXTURE), men=(DOYLE, AMES), turret=(AMES,))
    assert "      enemies on it: Pvt. Doyle 90 (deck), Pvt. Ames 91 (turret)" in text.vehicle_lines(view(st))


def test_a_position_script_lays_mines_from_a_half_tracks_load_and_a_detector_lifts_them(capsys):
    # The shipped content: the grenadiers' half-track lays the fake field of its pioneer stores in
    # 24B; the next MOVE, Dunaway sweeps 24B from the square beside it. The table never reads
    # the field's kind.
    from bot.cli import main
    positions = Path(__file__).resolve().parents[1] / "fixtures" / "positions"
    assert main(["play", "--position", str(positions / "pioneers.yaml"),
                 "--script", str(positions / "pioneers.txt")]) == 0
    out = capsys.readouterr().out
    assert "The Sd.Kfz. 250/1 half-track 702 lays 2 mine tokens face down in 24B." in out
    assert "Pvt. Dunaway lifts the 2 mine tokens in 24B." in out
    assert not any(w in out.lower() for w in ("fake", "anti-tank", "general"))


def test_a_bad_laymines_line_says_what_a_load_is(state):
    with pytest.raises(UsageError, match="the load's two tokens"):
        parse_line(state, "laymines 903 43A at", 0)
