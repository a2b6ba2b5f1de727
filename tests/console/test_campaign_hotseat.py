"""`fieldpost play --campaign N` at one keyboard: the campaign's next scenario is set up with the
forces its players picked, played hot-seat to its end through the real console, and the result
waits for the organiser's review (`fieldpost campaign review N`), in plain terminal text."""
from __future__ import annotations

import builtins
import random
import re

import pytest

from bot.cli import main

MAX_LINES = 6000
pytestmark = pytest.mark.slow  # a whole campaign scenario at the keyboard


def campaign(db, *words: str) -> int:
    return main(["campaign", "--db", str(db), *words])


def test_a_campaign_game_plays_hot_seat_with_the_picked_forces_and_waits_for_review(tmp_path, monkeypatch,
                                                                                     capsys):
    db = tmp_path / "c.db"
    assert campaign(db, "new", "road-to-sainte-gisele", "--as", "Olga") == 0
    assert campaign(db, "join", "1", "US", "--as", "Ann") == 0
    assert campaign(db, "join", "1", "DE", "--as", "Bo") == 0
    assert campaign(db, "pick", "1", "101 105 109:g6", "--as", "Ann") == 0
    capsys.readouterr()
    pick = random.Random(4)
    seen: list[str] = []
    state = {"options": False, "count": 0}

    def answer(prompt: str = "") -> str:
        """Enter at a pass; otherwise `options`, then one of the numbers it listed, at random."""
        seen.append(capsys.readouterr().out)
        state["count"] += 1
        assert state["count"] < MAX_LINES, "the game did not end"
        if "Pass to" in prompt:
            return ""
        if not state["options"]:
            state["options"] = True
            return "options"
        state["options"] = False
        listed = re.findall(r"^  (\d+)\) ", seen[-1], flags=re.MULTILINE)
        return str(pick.randint(1, int(listed[-1]))) if listed else "pass"

    monkeypatch.setattr(builtins, "input", answer)
    assert main(["play", "--campaign", "1", "--db", str(db), "--seed", "2"]) == 0
    seen.append(capsys.readouterr().out)
    played = "".join(seen)
    assert "GAME OVER" in played
    assert "**" not in played and "/campaign" not in played  # the terminal's words, not Discord's
    us = {int(n) for n in re.findall(r"^\s*(1\d\d)\b", played, flags=re.MULTILINE)}
    assert us and us <= {101, 105, 109}, f"US soldiers outside the picked force: {sorted(us - {101, 105, 109})}"
    assert "fieldpost campaign review 1" in played  # where the organiser goes next
    assert campaign(db, "review", "1", "--as", "Olga") == 0
    assert "Confirming it would do this:" in capsys.readouterr().out
    assert campaign(db, "confirm", "1", "--as", "Olga") == 0
    assert "Result #1 confirmed." in capsys.readouterr().out
