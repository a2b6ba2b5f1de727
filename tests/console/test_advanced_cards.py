"""The console asks for the advanced cards as Discord does: a react window's prompt printed for
its player with numbered choices (a number picks one), the slash words turned into the console's
script words (`react`, `alwayspass on`, `plan ... +2=CARD`)."""
from __future__ import annotations

import argparse

from bot.app import GameService
from bot.console.table import Table
from bot.console.text import plain
from bot.store import SqliteStore
from engine import load_catalog
from tests.app.table import ANN, BO, FIXTURE, Clock
from tests.app.test_advanced_cards import react_window


def test_the_slash_words_of_the_advanced_prompts_read_as_console_commands():
    assert plain("`/game always-pass on` stops these questions") == "alwayspass on stops these questions"
    assert plain("Play one with `/act react` (naming the card)") == "Play one with react (naming the card)"
    assert plain("`/plan extra:2=CARD` puts CARD") == "plan CARD CARD CARD +2=CARD puts CARD"


async def test_a_react_window_is_printed_with_numbered_choices_for_its_player_only(tmp_path, capsys):
    cat = load_catalog(FIXTURE)
    async with SqliteStore(tmp_path / "c.db") as store:
        service = GameService(store, cat, clock=Clock(), seed=lambda: 7)
        gid, r = await react_window(service, store, cat)
        args = argparse.Namespace(private=False, script=None, images=None)
        t = Table(service, [ANN, BO], gid, args)
        t.show(r)
        out = capsys.readouterr().out
        assert "21-X1" not in out  # Ann's react card is for her eyes only
        assert ANN.user_id not in t.choices  # a list counts once it is shown
        assert t.flush(ANN.user_id) is False
        assert t.choices[ANN.user_id] == ["react 21-X1", "skip"]
        mine = capsys.readouterr().out
        assert "1) React with 21-X1" in mine and "2) Skip" in mine
        assert "react (naming the card)" in mine and "alwayspass on" in mine
        done = await service.command(ANN, t.where, t.choices[ANN.user_id][0])  # typing "1"
        assert "plays a react card: 21-X1" in done.public_text()
