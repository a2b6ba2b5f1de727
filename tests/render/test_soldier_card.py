"""Soldier cards: the owner sees his man's VP; nobody sees an enemy's."""
from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.render import style as S
from bot.render.service import render_soldier_png
from bot.render.soldier_card import card_facts
from engine import view
from tests.render.pixels import colours


def test_the_owner_sees_his_soldiers_vp(position):
    st = position()
    facts = card_facts(view(st, 0), 1)
    assert facts.vp == view(st, 0).mine.soldier_vp[1]
    assert (facts.name, facts.side, facts.nationality) == ("Avery", "US", "American")


def test_an_enemys_card_shows_no_vp_and_is_the_public_card(position):
    st = position()
    assert card_facts(view(st, 0), 4).vp is None
    assert card_facts(view(st), 1).vp is None
    assert render_soldier_png(view(st, 0), 4) == render_soldier_png(view(st), 4)
    assert render_soldier_png(view(st, 0), 1) != render_soldier_png(view(st), 1)


def test_the_card_shows_the_wounded_side_and_markers(position):
    st = position()
    hurt = card_facts(view(st), 5)
    assert hurt.wounded and hurt.markers == ["Spotted", "Pinned", "Wounded"]
    assert not card_facts(view(st), 4).wounded
    img = Image.open(io.BytesIO(render_soldier_png(view(st), 5))).convert("RGB")
    band = img.crop((20, 160, 300, 215))  # the card side banner
    assert any(c == S.WOUNDED_MARK for _, c in colours(band))


def test_an_unknown_soldier_is_an_error(position):
    with pytest.raises(KeyError):
        card_facts(view(position()), 999)
