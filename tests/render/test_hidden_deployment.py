"""Hidden deployment in the pictures: the public board draws a marker per tile and side, the
same wherever in the tile the hidden men stand and whoever they are; a player's own board
draws his own hidden men as figures on their cells and the other side only as markers."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as S_

from bot.render import style as S
from bot.render.board import BoardLayout, BoardPanel
from bot.render.private import PrivateBoardPanel
from bot.render.service import draw, render_board_png, render_private_png
from engine import view
from engine.position import load_position
from tests.render.conftest import yard
from tests.render.pixels import count

# 31A is x 0-4, y 0-4; the farmhouse L9A x 20-29; cells kept clear of the tile labels
US_CELLS = [(x, y) for x in range(0, 5) for y in range(1, 5)]
DE_CELLS = [(x, y) for x in range(21, 29) for y in range(2, 9)]


def night(cat, us, de, **kw):
    data = yard(scenario="hidden-yard", soldiers=[
        {"serial": 1, "seat": 0, "at": list(us[0]), "facing": "e"},
        {"serial": 2, "seat": 0, "at": list(us[1]), "facing": "ne"},
        {"serial": 4, "seat": 1, "at": list(de[0]), "facing": "w"}], **kw)
    return load_position(cat, data)[0]


def tile_middle(L, ox, oy, n=5):
    return L.px(ox + n / 2, oy + n / 2)


@pytest.fixture(scope="module")
def standing_apart(cat) -> tuple[str, bytes, bytes, bytes]:
    """The night position every example is compared with, drawn once rather than per example:
    (its public view's JSON, its public board, DE's board, US's board)."""
    a = night(cat, [(1, 1), (3, 3)], [(22, 3)])
    return view(a).model_dump_json(), render_board_png(view(a)), render_private_png(view(a, 1)), \
        render_private_png(view(a, 0))


@settings(max_examples=15, deadline=None, print_blob=False, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(S_.lists(S_.sampled_from(US_CELLS), min_size=2, max_size=2, unique=True), S_.sampled_from(DE_CELLS))
def test_the_public_picture_is_the_same_wherever_the_hidden_men_stand_in_their_tiles(cat, standing_apart, us, de):
    public_json, public_png, de_png, us_png = standing_apart
    b = night(cat, us, [de])
    assert view(b).model_dump_json() == public_json
    assert render_board_png(view(b)) == public_png
    # the other side's own board does not show them either
    only_us_moved, only_de_moved = night(cat, us, [(22, 3)]), night(cat, [(1, 1), (3, 3)], [de])
    assert render_private_png(view(only_us_moved, 1)) == de_png
    assert render_private_png(view(only_de_moved, 0)) == us_png


def test_a_marker_is_drawn_in_the_middle_of_the_tile_and_no_figure_on_the_cell(cat):
    st = night(cat, [(1, 1), (3, 3)], [(22, 3)])
    v = view(st)
    img = BoardPanel().render(v)
    L = BoardLayout.for_view(v)
    cx, cy = tile_middle(L, 0, 0)
    r = round(L.ppi * 0.5)
    box = (cx - 2 * r, cy - 2 * r, cx + 2 * r, cy + 2 * r)
    assert count(img, box, S.SIDE_FILL["US"]) > 50, "a US marker in 31A's middle"
    assert count(img, L.cell_box((1, 1)), S.SIDE_FILL["US"]) == 0, "no figure on Avery's cell"
    hx, hy = tile_middle(L, 20, 0, 10)
    assert count(img, (hx - 2 * r, hy - 2 * r, hx + 2 * r, hy + 2 * r), S.SIDE_FILL["DE"]) > 50


def test_his_own_board_draws_his_hidden_men_on_their_cells_with_a_ring(cat):
    st = night(cat, [(1, 1), (3, 3)], [(22, 3)])
    mine = view(st, 0)
    img = PrivateBoardPanel().render(mine)
    L = PrivateBoardPanel().layout(mine)
    area = L.ppi * L.ppi
    assert count(img, L.cell_box((1, 1)), S.SIDE_FILL["US"]) > area * 0.35
    assert count(img, L.cell_box((3, 3)), S.SIDE_FILL["US"]) > area * 0.35
    assert count(img, L.cell_box((22, 3)), S.SIDE_FILL["DE"]) == 0, "Bo's man is not drawn on his cell"
    ring = (L.cell_box((1, 1))[0] - 12, L.cell_box((1, 1))[1] - 12, L.cell_box((1, 1))[2] + 12,
            L.cell_box((1, 1))[3] + 12)
    assert count(img, ring, S.HIGHLIGHT) > 20
    # given as a public picture, the seat's view draws no hidden man
    assert draw(mine, "board").tobytes() == draw(view(st), "board").tobytes()


def test_a_spotted_man_is_drawn_as_a_figure_and_the_marker_goes(cat):
    st = night(cat, [(1, 1), (3, 3)], [(22, 3)])
    st.changing(1).spotted = True
    st.changing(2).spotted = True
    v = view(st)
    img = BoardPanel().render(v)
    L = BoardLayout.for_view(v)
    assert count(img, L.cell_box((1, 1)), S.SIDE_FILL["US"]) > L.ppi * L.ppi * 0.35
    assert [m.side for m in v.hidden] == ["DE"]
