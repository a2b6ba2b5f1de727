"""What a Board and a setup remember (docs/architecture.md, What the board remembers): an answer
read back from a board's memory is the answer a fresh board works out, whatever was asked before
it, and a setup's remembered Board leaves its dump, equality and pickle as they were, and a deep
copy shares it."""
from __future__ import annotations

import copy
import pickle

from hypothesis import given, settings
from hypothesis import strategies as hs

from engine.core.board import DIRS, Board, board_for
from engine.core.content import Action
from engine.core.vehicle_geometry import (
    arc_takes_in,
    footprint,
    nearest_inches,
    tile_in_arc,
)

ROWS = [["21A", "22A", "23A", "24A", "25A", "26A"],
        ["L9A", "L9A", "27A", "28A", "31A", "32A"],
        ["L9A", "L9A", "33A", "34A", "35A", "36A"],
        ["37A", "38A", "41A", "42A", "43A", "44A"],
        ["45A", "46A", "47A", "48A", "49A", "50A"]]
TILES = sorted({t for row in ROWS for t in row})
cells = hs.tuples(hs.integers(0, 29), hs.integers(0, 24))
PAIR = [{"serial": 1, "seat": 0, "at": [2, 2], "facing": "e"}, {"serial": 4, "seat": 1, "at": [32, 2], "facing": "w"}]
actions = hs.sampled_from([Action.LOOK, Action.SHOOT, Action.MOVE, Action.HIDE])


@settings(max_examples=150, deadline=None)
@given(a=cells, b=cells, action=actions, ignore=hs.integers(0, 4), own=hs.booleans(),
       a_tile=hs.none() | hs.sampled_from(TILES), b_tile=hs.none() | hs.sampled_from(TILES),
       facing=hs.sampled_from(DIRS))
def test_a_kept_answer_is_the_answer_a_fresh_board_works_out(cat, a, b, action, ignore, own, a_tile, b_tile, facing):
    kept = board_for("board-memory-test", ROWS, cat.tiles)  # shared by every example: its memory grows
    fresh = Board(rows=[list(r) for r in ROWS], tiles=dict(cat.tiles))
    for _ in range(2):  # the first asking may work it out, the second reads it back
        assert kept.squares(a, b, action) == fresh.squares(a, b, action)
        assert (kept.mod_sum(a, b, action, include_own=own, ignore=ignore)
                == fresh.mod_sum(a, b, action, include_own=own, ignore=ignore,
                                 smoke={"not-on-the-map": 2}))  # smoke: the sum worked out, never kept
        assert nearest_inches(kept, a_tile, a, b_tile, b) == nearest_inches(fresh, a_tile, a, b_tile, b)
        if b_tile:
            assert footprint(kept, b_tile) == footprint(fresh, b_tile)
            assert arc_takes_in(kept, facing, a, b_tile) == arc_takes_in(fresh, facing, a, b_tile)
            if a_tile:
                assert tile_in_arc(kept, a_tile, facing, b_tile) == tile_in_arc(fresh, a_tile, facing, b_tile)
    assert kept.landmarks() == fresh.landmarks() == ("L9A",)


@settings(max_examples=60, deadline=None)
@given(a=cells, b=cells, smoky=hs.sampled_from(TILES), density=hs.sampled_from([2, 3]))
def test_a_smoky_line_multiplies_from_its_first_smoky_tile_on(cat, a, b, smoky, density):
    board = board_for("board-memory-test", ROWS, cat.tiles)
    clear = board.line(a, b, Action.LOOK)
    smoked = board.line(a, b, Action.LOOK, smoke={smoky: density})
    assert [lt.tile for lt in smoked] == [lt.tile for lt in clear]
    seen = board.tile_at(a) == smoky
    for before, after in zip(clear, smoked, strict=True):
        seen = seen or before.tile == smoky
        assert after.mod == before.mod * (density if seen else 1)


near = hs.tuples(hs.integers(-6, 6), hs.integers(-6, 6))


@settings(max_examples=200, deadline=None)
@given(start=cells, more=hs.lists(cells, max_size=4), entering=hs.booleans(),
       budget=hs.sampled_from([0.5, 1.0, 3.0, 4.5, 5.0, 6.0, 8.0, 12.0]), climb=hs.integers(0, 3),
       close=hs.lists(near, max_size=8), far=hs.lists(cells, max_size=8))
def test_a_kept_walk_search_is_the_search_with_every_blocked_cell(cat, start, more, entering, budget, climb,
                                                                   close, far):
    """Board.paths keeps the search over the map alone and searches again only with the blocked
    cells it reaches: the same costs and parents as a search with every blocked cell."""
    kept = board_for("board-memory-test", ROWS, cat.tiles)  # shared by every example: its memory grows
    fresh = Board(rows=[list(r) for r in ROWS], tiles=dict(cat.tiles))
    starts = {c: 1.0 for c in [start, *more]} if entering else {start: 0.0}
    blocked = {(start[0] + dx, start[1] + dy) for dx, dy in close} | set(far)
    blocked -= set(starts) if entering else {start}
    want = fresh._search(starts, budget, climb, blocked)
    for _ in range(2):  # the first asking may work it out, the second reads it back
        assert kept.paths(starts, budget, climb, blocked) == want
        assert kept.paths(starts, budget, climb, set()) == fresh._search(starts, budget, climb, ())
    if entering:  # a blocked start (never asked by the rules) still gives the full search's answer
        assert kept.paths(starts, budget, climb, {start}) == fresh._search(starts, budget, climb, {start})


def test_a_setup_remembers_its_board_outside_its_dump_equality_and_pickle(position):
    setup = position(soldiers=PAIR).setup
    dump = setup.model_dump_json()
    board = setup.board()
    assert setup.board() is board
    assert setup.model_dump_json() == dump
    assert setup == setup.model_copy()
    back = pickle.loads(pickle.dumps(setup))
    assert "_board" not in back.__dict__ and back == setup
    assert back.board() is board  # the process's one Board for the map
    assert copy.deepcopy(setup).board() is board  # shared, not copied with its memory


def test_a_setup_copied_with_other_tiles_looks_its_board_up_again(position, cat):
    setup = position(soldiers=PAIR).setup
    board = setup.board()
    other = setup.model_copy(update={"tiles": dict(cat.tiles), "map_key": "board-memory-other-tiles"})
    assert other.board() is not board
    assert other.board().rows == board.rows


@settings(max_examples=40, deadline=None)
@given(tile=hs.sampled_from(TILES), edge=hs.sampled_from(["n", "e", "s", "w"]))
def test_a_tiles_kept_cells_edge_cells_rings_and_cover_cells_are_those_of_the_map(cat, tile, edge):
    kept = board_for("board-memory-test", ROWS, cat.tiles)
    every = [(x, y) for y in range(kept.height) for x in range(kept.width) if kept.tile_at((x, y)) == tile]
    on_edge = {"n": lambda c: c[1] == 0, "s": lambda c: c[1] == kept.height - 1,
               "w": lambda c: c[0] == 0, "e": lambda c: c[0] == kept.width - 1}[edge]
    for _ in range(2):  # the first asking may work it out, the second reads it back
        assert list(kept.tile_cells(tile)) == every
        assert list(kept.edge_cells(tile, edge)) == [c for c in every if on_edge(c)]
        cx, cy = kept.tile_centre(tile)
        rings = kept.tile_rings(tile)
        assert [c for ring in rings for c in ring] == sorted(every, key=lambda c: (c[0] - cx) ** 2 + (c[1] - cy) ** 2)
        assert all(len({(c[0] - cx) ** 2 + (c[1] - cy) ** 2 for c in ring}) == 1 for ring in rings)
        assert len(rings) == len({(c[0] - cx) ** 2 + (c[1] - cy) ** 2 for c in every})
        assert list(kept.tile_cover_cells(tile)) == [c for c in every if kept.in_cover(c)]
