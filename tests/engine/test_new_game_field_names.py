"""A new game's soldiers, forces and vehicles share their class's one set of field names
(`GameState.every_field_given`, engine/core/state.py), as a parsed game's do. pydantic gave each
model made from a few fields a set of the names given: 12–22 KB a new state, kept by every later
state that shares the men (docs/app.md, Memory). Nothing a rule or the store can see changes."""
from __future__ import annotations

from engine import SeatSpec, new_game
from engine.core.state import AllFields, GameState
from tests.engine.autoplay_kit import played_alike
from tests.engine.model_kit import mutable_models


def started(cat, scenario: str, seed: int) -> GameState:
    sides = [s.id.value for s in cat.scenario(scenario).sides]
    st, _ = new_game(cat, scenario, [SeatSpec(name=f"P{i}", side=s) for i, s in enumerate(sides)], seed)
    return st


def test_every_model_of_a_new_game_holds_its_class_one_set_of_every_field(shipped):
    for scenario in sorted(shipped.scenarios):
        st = started(shipped, scenario, 3)
        models = [m for _, m in mutable_models(st)]
        assert len(models) > 20, scenario  # the men, their forces, the seats...
        by_class: dict[type, AllFields] = {}
        for m in models:
            names = m.__pydantic_fields_set__
            assert type(names) is AllFields, (scenario, type(m).__name__)
            assert names == set(type(m).model_fields)
            assert by_class.setdefault(type(m), names) is names  # one set per class, not a copy each


def test_a_new_game_reads_and_plays_as_one_whose_models_kept_the_names_given(shipped, monkeypatch):
    """The same game made as before (each model with its own set of the names it was given): the
    same text and the same game, and the same after the same commands."""
    for scenario in ("hedgerow-dawn", "tardieu-bombardment", "night-orchard"):
        shared = started(shipped, scenario, 5)
        with monkeypatch.context() as m:
            m.setattr(GameState, "every_field_given", lambda self: self)
            given = started(shipped, scenario, 5)
        assert any(type(x.__pydantic_fields_set__) is set for _, x in mutable_models(given))
        assert shared == given
        assert shared.model_dump_json() == given.model_dump_json()
        played_alike(shared, given, 9, 25)


def test_a_soldier_of_a_new_game_changes_as_before(shipped):
    st = started(shipped, "hedgerow-dawn", 2)
    serial = next(iter(st.soldiers))
    work = st.clone()
    mine = work.changing(serial)
    mine.kills += 1  # an assignment goes through the shared set untouched
    assert mine.kills == st.soldiers[serial].kills + 1
    assert mine.__pydantic_fields_set__ is st.soldiers[serial].__pydantic_fields_set__
