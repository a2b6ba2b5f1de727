"""A command read from a line is validated once: `parse_command` builds it through its model's
constructor, and `check_references` (apply's first step) does not validate that very command
again while it holds what it held when read (`commands.as_read`). Checked here against the
straightforward way, validating every time (`plain_check_references` of test_command_reading):
the same command, the same refusal word for word, for every legal command line of positions along
seeded games and hostile lines; and a command changed after it was read (a list or dict in it
changed in place, a field set behind the model's back, a copy) is validated again."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import commands as C
from engine.core import references as R
from engine.script import parse_line
from tests.engine.test_command_reading import (  # noqa: F401
    legal,
    outcome,
    plain_check_references,
    positions,
)
from tests.hostile_input import hostile_line


def read_then_checked(game, line: str, seat: int) -> tuple:
    """The shortcut: the line read, then checked at once (as the service and scripts do)."""
    try:
        cmd = parse_line(game, line, seat)
    except C.RuleError as exc:
        return "refused", type(exc).__name__, str(exc)
    return outcome(lambda: R.check_references(game, cmd))


def read_then_validated(game, line: str, seat: int) -> tuple:
    """The straightforward way: the line read, then validated and checked in full."""
    try:
        cmd = parse_line(game, line, seat)
    except C.RuleError as exc:
        return "refused", type(exc).__name__, str(exc)
    return outcome(lambda: plain_check_references(game, cmd))


def test_a_command_just_read_is_checked_as_the_plain_way_does(positions):  # noqa: F811
    seen = shortcut = 0
    for game in positions:
        for seat in range(len(game.seats)):
            for cmd in legal(game, seat):
                line = str(cmd)
                fast = read_then_checked(game, line, seat)
                assert fast == read_then_validated(game, line, seat), line
                read = parse_line(game, line, seat)
                shortcut += C.as_read(read)
                seen += 1
    assert seen > 1000 and shortcut == seen  # every line read took the shortcut


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_hostile_lines_read_then_checked_as_the_plain_way_does(positions, data):  # noqa: F811
    game = data.draw(st.sampled_from(positions))
    seat = data.draw(st.integers(0, len(game.seats) - 1))
    rng = data.draw(st.randoms(use_true_random=False))
    line = hostile_line(rng, game, [str(c) for c in legal(game, seat)])
    assert read_then_checked(game, line, seat) == read_then_validated(game, line, seat), line


def _changed(rng: random.Random, cmd: C.Cmd) -> list[tuple[str, C.Cmd]]:
    """Ways a command read from a line may be changed afterwards, each with the changed command."""
    out = []
    for name, value in cmd.__dict__.items():
        if type(value) is list:
            out.append((f"{name} appended to", lambda v=value: v.append("X" * 60 if rng.random() < 0.5 else -5)))
            if value:
                out.append((f"{name}[0] replaced", lambda v=value: v.__setitem__(0, 10 ** 9)))
                out.append((f"{name} emptied", lambda v=value: v.clear()))
        elif type(value) is dict:
            out.append((f"{name} given an item", lambda v=value: v.__setitem__(7, "")))
            if value:
                out.append((f"{name} first value replaced", lambda v=value: v.__setitem__(next(iter(v)), "\x00")))
        elif name != "type":
            bad = {int: -1, str: "", bool: 2, tuple: (-1, -1)}.get(type(value), "?")
            out.append((f"{name} set behind the model's back",
                        lambda name=name, bad=bad: object.__setattr__(cmd, name, bad)))
    return out


def test_a_command_changed_after_it_was_read_is_validated_again(positions):  # noqa: F811
    rng = random.Random(33)
    tried = refused = 0
    for game in positions[::3]:
        for seat in range(len(game.seats)):
            for cmd in legal(game, seat)[:40]:
                line = str(cmd)
                for how, change in _changed(rng, parse_line(game, line, seat)):
                    read = parse_line(game, line, seat)
                    change = dict(_changed(rng, read))[how]
                    change()
                    assert not C.as_read(read), how
                    fast = outcome(lambda read=read, game=game: R.check_references(game, read))
                    assert fast == outcome(lambda read=read, game=game: plain_check_references(game, read)), (line, how)
                    tried += 1
                    refused += fast[0] == "refused"
    assert tried > 300 and refused > tried // 3


def test_only_the_very_command_read_last_takes_the_shortcut(positions):  # noqa: F811
    game = positions[0]
    line = str(legal(game, 0)[0])
    first = parse_line(game, line, 0)
    assert C.as_read(first)
    assert not C.as_read(first.model_copy())  # an equal copy was never validated
    assert not C.as_read(first.model_copy(update={"seat": 5}))
    second = parse_line(game, line, 0)
    assert C.as_read(second) and not C.as_read(first)  # only the last one read
    assert outcome(lambda: R.check_references(game, first)) == outcome(lambda: plain_check_references(game, first))


def test_a_command_built_in_code_is_validated_as_before(positions):  # noqa: F811
    """Commands built by their constructors in code (not read) are not the last read: checked in full."""
    game = positions[0]
    cmd = C.Done(seat=0)
    assert not C.as_read(cmd)
    with pytest.raises(C.UsageError) as fast:
        R.check_references(game, cmd.model_copy(update={"seat": 100}))
    with pytest.raises(C.UsageError) as plain:
        plain_check_references(game, cmd.model_copy(update={"seat": 100}))
    assert str(fast.value) == str(plain.value)
