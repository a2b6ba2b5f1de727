"""A walk's trail mark (engine/infantry/move.py move): its path walked once for the mines and the
trail (`_corners` of `path_cells`), and the mark made without TrailMark's validator where the
validator could only take the values as they are (`_move_mark`). Held here to the plain way: the
corners to the path worked out afresh from the parents map for every cell a man reaches, the mark
to the model's (same fields, fields set, JSON; anything else still the model's to take or refuse),
and autoplayed games carried out with the model's marks to the same states and events."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.apply import apply
from engine.core.state import TrailMark
from engine.infantry import move as M
from tests.engine.autoplay_kit import autoplayed
from tests.engine.model_kit import made


def plain_path(parents: dict, cell) -> list:
    """move._path as it was: the parents walked back from the cell, then the corners kept."""
    out = [cell]
    while out[-1] in parents:
        out.append(parents[out[-1]])
    out.reverse()
    if len(out) <= 2:
        return out
    keep = [out[0]]
    for a, b, c in zip(out, out[1:], out[2:]):
        if (b[0] - a[0], b[1] - a[1]) != (c[0] - b[0], c[1] - b[1]):
            keep.append(b)
    keep.append(out[-1])
    return keep


def _path_types(mark) -> list:
    return [type(c) for c in mark.path]


numbers = st.one_of(st.integers(-5, 10_000), st.booleans(), st.just(2.0), st.just("3"))
cells = st.one_of(st.tuples(numbers, numbers), st.lists(st.integers(0, 9), max_size=3).map(tuple),
                  st.lists(st.integers(0, 9), min_size=2, max_size=2), st.just("1,2"))


@given(serial=st.one_of(numbers, st.none()), path=st.lists(cells, max_size=5))
def test_a_move_mark_is_the_models_mark(serial, path):
    fast = made(lambda: M._move_mark(serial, path), _path_types)
    assert fast == made(lambda: TrailMark(kind="move", serial=serial, path=[*path]), _path_types)
    if fast[0] == "made":
        assert M._move_mark(serial, path).path is not path


@pytest.mark.parametrize("scenario", ["hedgerow-dawn", "tardieu-bombardment"])
def test_the_corners_of_every_reached_cell_are_the_plain_paths(shipped, scenario):
    asked = 0
    for n, state in enumerate(autoplayed(shipped, scenario, 9, 90)):
        if n % 4:
            continue
        for serial, s in state.soldiers.items():
            if not (s.status == "board" and s.at is not None) and s.status != "waiting":
                continue
            _, parents, _ = M.reachable(state, serial)
            for cell in [*parents, *([s.at] if s.at is not None else [])]:
                asked += 1
                assert M._corners(M.path_cells(parents, cell)) == plain_path(parents, cell)
    assert asked > 500


@pytest.mark.parametrize("scenario", ["hedgerow-dawn", "tardieu-bombardment"])
def test_games_with_the_models_marks_leave_the_same_states(shipped, scenario, monkeypatch):
    moved = 0

    def model_mark(serial, path):
        return TrailMark(kind="move", serial=serial, path=[*path])

    def both(st, cmd):
        nonlocal moved
        with monkeypatch.context() as m:
            m.setattr(M, "_move_mark", model_mark)
            plain, plain_events = apply(st, cmd)
        fast, events = apply(st, cmd)
        assert fast.json_without_setup() == plain.json_without_setup()
        assert events == plain_events
        assert [made(lambda t=t: t, _path_types) for t in fast.trail] == [made(lambda t=t: t, _path_types) for t in plain.trail]
        moved += any(e.kind == "move" for e in events)
        return fast, events

    for seed in (4, 13):
        for _ in autoplayed(shipped, scenario, seed, 120, play=both):
            pass
    assert moved > 10
