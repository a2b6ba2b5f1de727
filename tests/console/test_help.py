"""The console helps a newcomer: "did you mean" for a typo, `help COMMAND` for one command,
`help` for the shipped quick reference (which names every command), numbered lists that say
what a number means, names as the player reads them, the legend and the areas on the text
board, his orders placed on the map, and a temporary game saved on `quit`."""
from __future__ import annotations

import argparse
import asyncio
import builtins
import re
import types
from pathlib import Path

import pytest

from bot.app import GameService
from bot.app.help import load_texts
from bot.cli import main
from bot.console import briefing, text
from bot.console import help as console_help
from bot.console.hotseat import HotSeat
from bot.console.play import _open
from bot.store import SqliteStore
from engine import load_catalog, new_game, view
from engine.core.errors import UsageError
from engine.script import parse_line, soldier_for
from engine.turn.setup import SeatSpec

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "rules"


def hot() -> HotSeat:
    return HotSeat(types.SimpleNamespace(service=None, where=None, choices={}))


@pytest.mark.parametrize("typed, meant", [("plann", "plan"), ("shoto", "shoot"), ("mvoe", "move"),
                                          ("optoins", "options"), ("hnad", "hand"), ("pas", "pass")])
def test_a_typo_gets_did_you_mean(typed, meant, capsys):
    assert hot()._known(f"{typed} 1 2") is False
    said = capsys.readouterr().out
    assert f"Unknown command '{typed}'." in said and f"Did you mean {meant}" in said and f"help {meant}" in said
    assert len(said.splitlines()) == 1  # not the 50 lines of the whole grammar


def test_a_word_nothing_like_a_command_is_told_to_ask_for_help(capsys):
    assert hot()._known("xyzzy") is False
    assert capsys.readouterr().out.strip() == "Unknown command 'xyzzy'. `help` lists the commands, `help move` " \
                                              "explains one."


def test_help_command_shows_one_command(capsys):
    assert asyncio.run(hot()._meta("help move", None, 0))
    one = capsys.readouterr().out
    assert "move S DEST [face DIR]" in one and "12A:cover" in one
    assert "vmove" not in one and "plan" not in one and len(one.splitlines()) < 8
    assert "N soldiers" not in console_help.command_help("tag")  # a part of the card, explained in words
    assert console_help.command_help("plann") == "No command 'plann'. Did you mean plan? `help` lists them all."
    assert "the quick reference" in console_help.command_help("help")


def test_help_shows_the_quick_reference_which_names_every_command(capsys):
    assert asyncio.run(hot()._meta("help", None, 0))
    page = capsys.readouterr().out
    assert page.startswith("FIELDPOST QUICK REFERENCE") and "```" not in page
    named = set(re.findall(r"[a-z]+", page))
    missing = sorted(set(console_help.grammar()) - named) + sorted(set(console_help.CONSOLE) - named)
    assert missing == [], f"commands missing from docs/quick-reference.md: {missing}"
    assert page == console_help.quick_reference() + "\n"


def test_a_number_picks_from_the_latest_list_or_says_why_not(capsys):
    seat = hot()
    assert seat._pick(1, 1) is None
    assert "No numbered list has been shown to you yet" in capsys.readouterr().out
    seat.t.choices[1] = ["pass", "done"]
    assert seat._pick(1, 2) == "done"
    assert seat._pick(1, 3) is None
    assert "Pick a number from 1 to 2 (the latest list shown above)" in capsys.readouterr().out


def test_names_as_the_player_reads_them():
    cat = load_catalog()
    st, _ = new_game(cat, "tardieu-bombardment", [SeatSpec(name="Ann", side="US"), SeatSpec(name="Bo", side="DE")], 1)
    us = next(n for n, s in st.soldiers.items() if s.side == "US")
    d = st.setup.soldiers[us]
    title = d.profile(st.soldiers[us].rank).title
    assert soldier_for(st, f"{title} {d.name}") == us == soldier_for(st, d.name.upper())
    with pytest.raises(UsageError, match=f"did you mean {d.name}"):
        soldier_for(st, d.name[:-1] + "q")
    kinds = [k for k, e in st.setup.equipment.items() if e.name == "Heavy artillery"]
    if kinds:
        cmd = parse_line(st, "barrage Heavy artillery 3 L1A", 0)
        assert cmd.kind == kinds[0] == parse_line(st, 'barrage "heavy artillery" 3 L1A', 0).kind


def test_the_text_board_has_its_legend_and_entry_areas():
    cat = load_catalog()
    st, _ = new_game(cat, "hedgerow-dawn", [SeatSpec(name="Ann", side="US"), SeatSpec(name="Bo", side="DE")], 1)
    v = view(st)
    board = text.full_text(v)
    lines = text.map_text(v).splitlines()
    north, south = lines[1], lines[-1]
    assert north.split() == ["X", "Y"] and south.split() == ["A", "B"]
    assert "Legend: one character is one inch" in board and "A 18A south (US enters; exit)" in board
    assert "range long 12 sq, short 4 sq, close 8\"" in board and "walk 6\"" in board
    assert "Optional rules" not in board  # Schürzen is a vehicle rule: nothing to say without vehicles
    assert "1 grenades" not in board


def test_his_orders_are_placed_on_the_map_and_the_briefing_is_public():
    cat = load_catalog()
    st, _ = new_game(cat, "hedgerow-dawn", [SeatSpec(name="Ann", side="US"), SeatSpec(name="Bo", side="DE")], 7)
    mine = view(st, 0)
    said = briefing.orders_explained(mine, {"title": "Find a Way Through", "vp": 5,
                                            "text": "Enter at area A. Get any of your soldiers off the board "
                                                    "through exit area X."})
    assert "entry area A is 18A on the south edge" in said and "exit area X is 11A on the north edge" in said
    public = briefing.public_briefing(view(st), cat.scenario("hedgerow-dawn"))
    assert "US, Lost stick" in public and "A 18A south (US enters; exit)" in public
    assert all(cat.orders[s.order].title not in public for s in st.seats)


def test_quit_offers_to_save_a_temporary_game_which_then_resumes(tmp_path, monkeypatch, capsys):
    cat = load_catalog(FIXTURE)
    args = argparse.Namespace(scenario="yard", players="Ann:US,Bo:DE", seed=5, script=None, db=None, images=None,
                              private=False, campaign=None)
    keep = tmp_path / "kept"
    answers = iter(["", "1", "", "quit", str(keep)])  # pass, place, pass, quit, the file
    monkeypatch.setattr(builtins, "input", lambda prompt="": next(answers))

    async def play_and_quit() -> int:
        async with SqliteStore(tmp_path / "console.db") as store:
            table = await _open(GameService(store, cat, seed=lambda: 5), cat, args)
            table.db, table.temporary = tmp_path / "console.db", True
            return await HotSeat(table).loop()

    assert asyncio.run(play_and_quit()) == 0
    out = capsys.readouterr().out
    assert f"Saved to {keep}.db" in out
    monkeypatch.setenv("FIELDPOST_HOME", str(FIXTURE))
    script = tmp_path / "s.txt"
    script.write_text("", encoding="utf-8")
    assert main(["play", "--db", f"{keep}.db", "--script", str(script)]) == 0
    resumed = capsys.readouterr().out
    assert "Resuming game #1" in resumed and "Waiting for: Bo to place three action cards" in resumed


def test_card_shows_the_parts_of_a_card_its_player_may_see(tmp_path, monkeypatch, capsys):
    """`card ID` at the console: Ann reads one of her own cards part by part; Bo's cards, still in
    his hand, are not shown to her, and the answer lists what she may look at instead."""
    cat = load_catalog(FIXTURE)
    args = argparse.Namespace(scenario="yard", players="Ann:US,Bo:DE", seed=5, script=None, db=None, images=None,
                              private=False, campaign=None)

    async def play() -> tuple[list[str], list[str]]:
        async with SqliteStore(tmp_path / "console.db") as store:
            table = await _open(GameService(store, cat, seed=lambda: 5), cat, args)
            table.db, table.temporary = tmp_path / "console.db", True
            st = await table.state()
            ann, bo = (st.forces[f].hand for f in sorted(st.forces, key=lambda f: st.forces[f].seat))
            capsys.readouterr()
            answers = iter(["", f"card {ann[0].lower()}", f"card {bo[0]}", "quit", ""])
            monkeypatch.setattr(builtins, "input", lambda prompt="": next(answers))
            assert await HotSeat(table).loop() == 0
            return list(ann), list(bo)

    ann, bo = asyncio.run(play())
    out = capsys.readouterr().out
    assert f"{ann[0]}" in out and "— " in out and "'s card" in out
    assert "  dog tag:" in out and "  drawn for a hit check: long " in out and "  drawn for a damage check: " in out
    assert f"Card '{bo[0]}' is not one you can see" in out and ann[0] in out.split("is not one you can see")[1]
    assert bo[0] not in out.split("is not one you can see")[1]


def test_help_topic_and_rules_terms_show_the_discord_help_texts(capsys):
    """`help TOPIC` shows issue 16's help texts (bot/app/help.py), the same words as Discord's
    /help and /rules without their Markdown marks; a word that is a command stays the command's
    help and points to the text of the same name; `help` lists the topics and terms."""
    topics, rules = load_texts()
    for key, t in [*topics.items(), *rules.items()]:
        words = key.replace("-", " ")
        asked = f"help {words}" if not console_help._is_command(words.split()[0]) else \
            f"help {'topic' if key in topics else 'rules'} {words}"
        assert asyncio.run(hot()._meta(asked, None, 0))
        shown = capsys.readouterr().out
        assert shown.startswith(t.title.upper() + "\n"), asked
        assert all(line.replace("**", "").replace("`", "") in shown for line in t.body.splitlines()), asked
        assert "`" not in shown and "**" not in shown
    for key, t in rules.items():
        for alias in t.aliases:
            if not console_help._is_command(alias.split()[0]):
                assert console_help.help_for(alias.split()).startswith(t.title.upper() + "\n"), alias
    assert console_help.help_for(["vehicles"]).startswith(console_help.command_help("vehicles"))
    assert console_help.help_for(["vehicles"]).endswith("Also explained in words: help topic vehicles.")
    assert console_help.help_for(["move"]).endswith("Also explained in words: help rules move.")
    assert console_help.help_for(["topic", "nowhere"]).startswith("No help topic 'nowhere'. There are: getting-started")
    assert console_help.help_for(["plann"]) == console_help.command_help("plann")
    page = console_help.quick_reference()
    assert all(key in page for key in [*topics, *rules])
