"""The runs of GameState's fields after the vehicles (`_RUNS`): each run's text is kept on the
state, and a run compared (`_model_same` over its fields) is written again with the text of the
state cloned from when it is written alike there. The text stays pydantic's own dump whatever a
copy changes; a run said alike is in fact written alike; a copy that changed nothing in a run
takes that run's very text."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from engine.core.state import (
    _ORDER,
    _RUN_FIELDS,
    _RUNS,
    GameState,
    TrailMark,
    _model_same,
)
from tests.engine.autoplay_kit import autoplayed

SCENARIOS = ["tardieu-bombardment", "hedgerow-dawn", "night-orchard"]
_COMPARED = [(name, fields) for name, fields in _RUNS if fields is not None]
_HEAD = '{"setup_ref":"0123",'


def _pydantic(st: GameState) -> str:
    return st.model_dump_json(exclude={"setup"})


def test_the_runs_cover_every_field_after_the_vehicles_in_the_dumps_order():
    written = [name for _, names in _RUN_FIELDS for name in names]
    assert written == _ORDER[_ORDER.index("vehicles") + 1:]
    for name, compared in _COMPARED:
        assert sorted(compared) == sorted(dict(_RUN_FIELDS)[name])


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(scenario=hs.sampled_from(SCENARIOS), seed=hs.integers(0, 2**31), commands=hs.integers(2, 80))
def test_every_state_of_a_game_is_written_as_pydantic_writes_it(shipped, scenario, seed, commands):
    """Along a game, as the service writes it (each state a copy of the one before, written with
    the store's head): the text is pydantic's, again from the kept pieces; a run said written
    alike with the state before is written alike by pydantic, and its text is the very one kept."""
    before = None
    for st in autoplayed(shipped, scenario, seed, commands):
        origin = getattr(st, "_origin", None)
        assert st.json_without_setup(_HEAD) == _HEAD + _pydantic(st)[1:]
        assert st.json_kept(_HEAD) == _HEAD + _pydantic(st)[1:]
        if before is not None and origin is before:
            for name, fields in _COMPARED:
                if _model_same(GameState, fields)(st.__dict__, before.__dict__):
                    assert st.model_dump_json(include=set(fields)) == before.model_dump_json(include=set(fields))
                    assert st._texts[name] is before._texts[name]
        before = st


def _a_written_state(shipped) -> GameState:
    *_, st = autoplayed(shipped, "hedgerow-dawn", 5, 40)
    st = st.clone()
    st.json_without_setup()
    return st


_CHANGES = {
    "story_deck": lambda st: st.story_deck.append("X-1"),
    "story_discard": lambda st: st.story_discard.insert(0, "X-2"),
    "phase_cards": lambda st: st.phase_cards.append("X-3"),
    "trail": lambda st: st.trail.append(TrailMark(kind="move", serial=1, path=[(1, 2)])),
    "last_trail": lambda st: setattr(st, "last_trail", [*st.last_trail, TrailMark(kind="shot", target=3)]),
    "last_trail_phase": lambda st: setattr(st, "last_trail_phase", (99, 1)),
    "mines": lambda st: st.mines.append("9Z"),
}


@pytest.mark.parametrize("field", sorted(_CHANGES))
def test_a_run_changed_in_a_copy_is_written_again_and_the_others_kept(shipped, field):
    st = _a_written_state(shipped)
    work = st.clone()
    _CHANGES[field](work)
    assert work.json_without_setup() == _pydantic(work)
    changed = next(name for name, fields in _RUN_FIELDS if field in fields)
    for name, fields in _COMPARED:
        assert (work._texts[name] is st._texts[name]) == (name != changed)
    again = work.clone()  # and a copy of that copy takes its texts, the changed run's too
    assert again.json_without_setup() == _pydantic(again)
    assert all(again._texts[name] is work._texts[name] for name, _ in _COMPARED)


def test_a_run_written_every_time_is_written_as_it_is_now(shipped):
    """The runs not compared (the card in play, the count of commands...) are written afresh:
    a copy that changed them is written as pydantic writes it."""
    st = _a_written_state(shipped)
    work = st.clone()
    work.seq += 7
    work.asked_at = work.seq
    work.turn += 1
    assert work.json_without_setup() == _pydantic(work)
    assert f'"seq":{work.seq},"asked_at":{work.seq}}}' in work.json_kept()
