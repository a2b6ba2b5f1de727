"""Branch i37-app37's shortcuts in the replies after a command give the answers of the long way."""
from __future__ import annotations

import pytest

from bot.app import prompts
from engine import legal_commands
from engine.core import commands as C
from tests.engine.autoplay_kit import autoplayed


def _command_classes() -> list[type]:
    out, stack = [], [C.Cmd]
    while stack:
        for sub in stack.pop().__subclasses__():
            out.append(sub)
            stack.append(sub)
    return out


def test_a_wordless_class_is_one_no_check_of_the_words_takes():
    """Every command class: wordless exactly when no isinstance check of `words_after` (a
    placement, a vehicle or crew command, a sight/shoot/draw, a battlefield command) takes it."""
    from bot.app.battlefield_words import BATTLEFIELD_COMMANDS
    classes = _command_classes()
    assert len(classes) > 40
    for cls in classes:
        worded = [C.Plan, *C.VEHICLE_COMMANDS, C.SightCmd, C.ShootCmd, C.DrawCmd, *BATTLEFIELD_COMMANDS]
        assert prompts.wordless_class(cls) == (not any(issubclass(cls, k) for k in worded)), cls
    assert prompts.wordless_class(C.MoveCmd) and prompts.wordless_class(C.Done)
    assert not prompts.wordless_class(C.Plan) and not prompts.wordless_class(C.VMove)


@pytest.mark.parametrize("scenario", ["hedgerow-dawn", "tardieu-bombardment", "chapel-gun", "croix-verte-ridge"])
def test_the_words_after_a_command_are_those_of_the_long_way(shipped, scenario):
    """At every state of real games, for every legal command of every seat: `in_words` (its
    class's answer remembered) says what `words_after` says, and a worded command was among them."""
    said = 0
    for seed in (2, 5):
        for st in autoplayed(shipped, scenario, seed, 50):
            for seat in range(len(st.seats)):
                for cmd in legal_commands(st, seat):
                    words = prompts.in_words(st, cmd)
                    assert words == prompts.words_after(st, cmd), str(cmd)
                    said += bool(words)
    assert said or scenario == "hedgerow-dawn"
