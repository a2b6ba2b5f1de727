"""A game state's JSON in two parts, for tests that compare states command after command.

Every state of a game shares one setup (the content `new_game` copied out of the catalogue;
`GameState.clone` keeps it), and the setup is about 93% of a state's JSON: 2.2 of the 2.35 ms
a dump takes on mill-road-gun. A test that compares states at every command compares the rest
(`play_json`) and each setup once: `game_json` for a list of states, `SetupsKept` for a state
that commands must leave as it was.
"""
from __future__ import annotations

from collections.abc import Iterable

from engine import GameState
from engine.core.state import GameSetup


def play_json(st: GameState) -> str:
    """`st`'s JSON but for its setup."""
    return st.model_dump_json(exclude={"setup"})


def game_json(states: Iterable[GameState]) -> list[tuple[str, str]]:
    """Each state's JSON as (its setup's, the rest's): two lists are equal exactly when the
    states' whole dumps are. A setup several states share is dumped once."""
    setups: dict[int, tuple[GameSetup, str]] = {}  # holding the setup keeps its id from being reused
    out = []
    for st in states:
        if id(st.setup) not in setups:
            setups[id(st.setup)] = (st.setup, st.setup.model_dump_json())
        out.append((setups[id(st.setup)][1], play_json(st)))
    return out


class SetupsKept:
    """The setups of the states a test hands to commands, each dumped when first seen; `check()`
    fails if a command changed one in place since. With `play_json` compared before and after
    each command, it checks all that comparing whole dumps did, the setup once at the end."""

    def __init__(self) -> None:
        self._seen: dict[int, tuple[GameSetup, str]] = {}

    def see(self, st: GameState) -> GameState:
        if id(st.setup) not in self._seen:
            self._seen[id(st.setup)] = (st.setup, st.setup.model_dump_json())
        return st

    def check(self) -> None:
        changed = [setup.scenario.id for setup, before in self._seen.values() if setup.model_dump_json() != before]
        assert not changed, f"a command changed the setup of {changed} in place"
