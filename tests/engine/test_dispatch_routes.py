"""apply hands a command to its route, found once per command class (engine/apply.py `_route`):
each command given at a moment it cannot answer is refused for its own reason, and the state
given is untouched; the route kept for a class is the one its class would be given afresh."""
from __future__ import annotations

import importlib

import pytest

from engine.apply import apply
from engine.core import commands as C
from engine.core.errors import RuleError

apply_module = importlib.import_module("engine.apply")  # (engine's own `apply` is the function)


def yard(position):
    return position(scenario="yard", phase_cards=["S07", "S08", "S09"],
                    hands={0: ["1-C1", "1-P1", "1-C4"], 1: ["4-C1", "4-P1", "4-C4"]},
                    soldiers=[{"serial": 1, "seat": 0, "at": [2, 2], "facing": "e"},
                              {"serial": 4, "seat": 1, "at": [27, 2], "facing": "w"}])


def refused(st, cmd) -> str:
    before = st.model_dump_json()
    with pytest.raises(RuleError) as err:
        apply(st, cmd)
    assert st.model_dump_json() == before  # nothing half done
    return str(err.value)


WHILE_PLACING = [  # (command, the start of its refusal) while both players place their cards
    (C.MoveCmd(seat=0, serial=1, cell=(3, 2)), "it is not your turn to act"),
    (C.Pass(seat=0), "it is not your turn to act"),
    (C.FightCmd(seat=0, card="1-C1", target=4), "there is no fight going on"),
    (C.ReactCmd(seat=0, card="1-C1"), "react cards are played just after an opponent's action"),
    (C.PreemptCmd(seat=0, card="1-C1", target="4-C1", soldiers=[4]),
     "preempt cards are played after a phase's cards are revealed"),
    (C.Then(seat=0, serial=1, target=4), "there is no preempt to follow up"),
    (C.Skip(seat=0), "there is nothing to skip"),
    (C.Declare(seat=0, card="1-C1", action="move"), "nothing to declare"),
    (C.HitPlus(seat=0, target=4), "there is no Hit+ to follow"),
    (C.Pay(seat=0, cards=["1-C1"]), "there is no cost to pay"),
    (C.Capture(seat=0, victim=4), "no prisoner to decide on"),
    (C.Keep(seat=0), "not now"),
]


@pytest.mark.parametrize(("cmd", "why"), WHILE_PLACING, ids=[type(c).__name__ for c, _ in WHILE_PLACING])
def test_a_command_at_the_wrong_moment_is_refused_for_its_own_reason(position, cmd, why):
    st = yard(position)
    assert st.step == "place"
    said = refused(st, cmd)
    assert said.startswith(why + ": the game is waiting for "), said
    assert refused(st, cmd) == said  # the class's route, now kept, answers the same


def test_cards_are_placed_only_at_the_start_of_a_turn(position, play):
    st, _ = play(yard(position), "@Ann\nplan 1-C1 1-C4 1-P1\n@Bo\nplan 4-C1 4-C4 4-P1")
    assert st.step == "slot"
    said = refused(st, C.Plan(seat=0, cards=["1-C1", "1-C4", "1-P1"]))
    assert said.startswith("cards are placed at the start of a turn: ")


def test_a_seat_that_is_not_there_is_refused(position):
    assert refused(yard(position), C.Pass(seat=5)) == "there is no seat 5."


def command_classes(cls=C.Cmd):
    for sub in cls.__subclasses__():
        yield sub
        yield from command_classes(sub)


def test_the_route_kept_for_each_class_is_the_one_found_afresh(position):
    st = yard(position)
    for cls in command_classes():
        fresh = apply_module._route(cls)
        assert apply_module._ROUTE.setdefault(cls, fresh) is fresh, cls
    # an action card's command goes through the card in play; a fight's to the fight; no two
    # early routes take one class (their order then decides nothing the classes do not say)
    for cls in command_classes():
        taking = [route for types, route in apply_module._ROUTES if issubclass(cls, types)]
        assert len(taking) <= 1, cls
    assert refused(st, C.Done(seat=0)).startswith("it is not your turn to act")
