"""The board picture: pixel checks at known places, never golden files."""
from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.render import style as S
from bot.render.board import BoardLayout, BoardPanel
from bot.render.encode import DEFAULT_UPLOAD_LIMIT
from bot.render.private import PrivateBoardPanel
from bot.render.service import draw, render_board_png, render_private_png
from engine import new_game, view
from engine.script import run_script
from engine.turn.setup import SeatSpec
from tests.render.pixels import colours, count

HANDS_A = {0: ["1-C3", "1-C4", "1-C1"], 1: ["4-C4", "4-P1", "4-C1"]}
HANDS_B = {0: ["2-C1", "2-C2", "1-P1"], 1: ["5-C1", "5-C2", "4-C2"]}
PHASES = ["S02", "S07", "S10"]


def soldier(v, serial):
    return next(s for s in v.soldiers if s.serial == serial)


def test_a_figure_is_drawn_in_its_side_colour_on_its_cell(position):
    v = view(position())
    img = BoardPanel().render(v)
    L = BoardLayout.for_view(v)
    us, de = L.cell_box(soldier(v, 1).at), L.cell_box(soldier(v, 4).at)
    area = L.ppi * L.ppi
    assert count(img, us, S.SIDE_FILL["US"]) > area * 0.35
    assert count(img, us, S.SIDE_FILL["DE"]) == 0
    assert count(img, de, S.SIDE_FILL["DE"]) > area * 0.35
    assert count(img, de, S.SIDE_FILL["US"]) == 0


def test_sides_differ_in_shape_as_well_as_colour(position):
    """A German base is square: its cell's corner pixels are filled; an American one is round."""
    v = view(position())
    img = BoardPanel().render(v)
    L = BoardLayout.for_view(v)
    r = round(L.base_r * 0.76)  # a point on the diagonal inside a square base, outside a round one
    for serial, side, inside in ((4, "DE", True), (1, "US", False)):
        cx, cy = L.centre(soldier(v, serial).at)
        corner = img.getpixel((round(cx - r), round(cy + r)))
        assert (corner == S.SIDE_FILL[side]) is inside


def test_a_spotted_marker_beside_a_spotted_soldier_and_none_beside_an_unspotted_one(position):
    v = view(position())
    img = BoardPanel().render(v)
    L = BoardLayout.for_view(v)
    white = S.SPOTTED_FILL
    spotted, unspotted = soldier(v, 1), soldier(v, 2)
    assert spotted.spotted and not unspotted.spotted
    assert count(img, L.marker_box(spotted.at, "spotted"), white) > 20
    assert count(img, L.marker_box(unspotted.at, "spotted"), white) == 0


def test_pinned_and_wounded_markers_where_they_belong(position):
    v = view(position())
    img = BoardPanel().render(v)
    L = BoardLayout.for_view(v)
    hurt, fine = soldier(v, 5).at, soldier(v, 4).at
    assert count(img, L.marker_box(hurt, "pinned"), S.PINNED_FILL) > 20
    assert count(img, L.marker_box(fine, "pinned"), S.PINNED_FILL) == 0
    assert count(img, L.marker_box(hurt, "wounded"), S.WOUNDED_MARK) > 10
    assert count(img, L.marker_box(fine, "wounded"), S.WOUNDED_MARK) == 0


def test_the_header_says_something(position):
    v = view(position())
    img = BoardPanel().render(v)
    L = BoardLayout.for_view(v)
    x0, y0, x1, y1 = L.header_box
    ink = sum(n for n, c in colours(img.crop((x0, y0, x1 // 2, y1))) if sum(c) < 200)
    assert ink > 1500
    # and it changes with the turn: the text is drawn from the view, not part of the cached layer
    later = view(position(turn=1))
    other = BoardPanel().render(later)
    assert img.crop(L.header_box).tobytes() != other.crop(L.header_box).tobytes()


def test_smoke_and_fire_tint_their_tiles(position):
    plain = BoardPanel().render(view(position()))
    v = view(position(smoke={"33A": 3}, fires=["37A"]))
    smoky = BoardPanel().render(v)
    L = BoardLayout.for_view(v)
    fire_box = (*L.px(11, 6), *L.px(14, 9))  # the middle of 37A
    assert count(smoky, fire_box, S.FIRE_FILL) > 50
    assert count(plain, fire_box, S.FIRE_FILL) == 0
    smoke_box = (*L.px(10.5, 1.5), *L.px(14.5, 4.5))  # 33A
    assert smoky.crop(smoke_box).tobytes() != plain.crop(smoke_box).tobytes()


def near(img: Image.Image, xy, colour, r: int = 3) -> bool:
    x, y = round(xy[0]), round(xy[1])
    return count(img, (x - r, y - r, x + r + 1, y + r + 1), colour) > 0


def test_a_shot_leaves_a_line_from_shooter_to_target(position):
    st = position(hands={0: ["1-C2", "1-C1", "1-C3"], 1: HANDS_A[1]}, phase_cards=["S12", "S07", "S10"])
    before = BoardPanel().render(view(st))
    st, _ = run_script(st, "@Ann\nplan 1-C2 1-C1 1-C3\n@Bo\nplan 4-P1 4-C1 -\n@Ann\nshoot 1 5\n")
    v = view(st)
    assert [m.kind for m in v.trail][:1] == ["shot"]
    img = BoardPanel().render(v)
    L = BoardLayout.for_view(v)
    (ax, ay), (bx, by) = L.centre((2, 3)), L.centre((17, 7))
    mid = ((ax + bx) / 2, (ay + by) / 2)
    assert near(img, mid, S.SHOT_LINE)
    assert not near(before, mid, S.SHOT_LINE)


def test_a_move_leaves_an_arrow_in_the_side_colour(position):
    st = position(hands={0: ["1-C2", "1-C1", "1-C3"], 1: HANDS_A[1]}, phase_cards=["S07", "S12", "S10"])
    st, _ = run_script(st, "@Ann\nplan 1-C1 1-C2 1-C3\n@Bo\nplan 4-C1 4-P1 -\n@Ann\nmove 1 (2,8)\n")
    v = view(st)
    move = next(m for m in v.trail if m.kind == "move")
    img = BoardPanel().render(v)
    L = BoardLayout.for_view(v)
    a, b = L.centre(move.path[0]), L.centre(move.path[1])
    assert near(img, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), S.SIDE_FILL["US"])


@pytest.mark.parametrize("scenario", ["hedgerow-dawn", "mill-at-tardieu", "sevrette-crossing",
                                      "bells-of-sainte-gisele"])
def test_every_board_fits_discord(scenario, shipped):
    cat = shipped
    st, _ = new_game(cat, scenario, [SeatSpec(name="Ann", side="US"), SeatSpec(name="Bo", side="DE")], seed=1)
    data = render_board_png(view(st))
    img = Image.open(io.BytesIO(data))
    assert 1200 <= max(img.size) <= 1600
    assert min(img.size) >= 600
    assert len(data) < DEFAULT_UPLOAD_LIMIT


def test_the_public_picture_is_the_same_whatever_the_secrets(position):
    """Same position, different hands, orders, decks and coming phase cards: one public picture."""
    a = position(hands=HANDS_A, phase_cards=PHASES, decks={0: ["2-C3"], 1: ["5-C3"]}, story_top=["S01", "S05"])
    b = position(hands=HANDS_B, phase_cards=PHASES, decks={0: ["1-C2"], 1: ["4-C3"]}, story_top=["S11", "S04"],
                 seed=99, players=[{"name": "Ann", "side": "US", "order": "T-HOLD"},
                                   {"name": "Bo", "side": "DE", "order": "T-GENERAL"}])
    assert view(a, 0).mine != view(b, 0).mine and view(a, 1).mine != view(b, 1).mine  # the secrets differ
    assert render_board_png(view(a)) == render_board_png(view(b))
    assert render_private_png(view(a, 0)) != render_private_png(view(b, 0))


def test_a_seat_view_given_as_public_draws_no_secret(position):
    st = position(hands=HANDS_A, phase_cards=PHASES)
    assert draw(view(st, 0), "board").tobytes() == draw(view(st), "board").tobytes()


def test_the_private_board_outlines_his_order_landmark_and_nobody_elses(position):
    st = position(players=[{"name": "Ann", "side": "US", "order": "T-HOLD"},
                           {"name": "Bo", "side": "DE", "order": "T-GENERAL"}])
    mine = PrivateBoardPanel().render(view(st, 0))  # Ann's order names the farmhouse, L9
    theirs = PrivateBoardPanel().render(view(st, 1))  # Bo's order names no landmark
    L = PrivateBoardPanel().layout(view(st, 0))
    board = (L.board_x0, L.board_y0, L.board_x0 + L.board_w, L.board_y0 + L.board_h)
    assert count(mine, board, S.HIGHLIGHT) > 500
    assert count(theirs.crop(board), (0, 0, L.board_w, L.board_h), S.HIGHLIGHT) < count(mine, board, S.HIGHLIGHT)
    assert count(draw(view(st), "board"), board, S.HIGHLIGHT) == 0


def test_the_private_board_needs_a_seat_view(position):
    with pytest.raises(ValueError):
        PrivateBoardPanel().render(view(position()))


def test_a_seats_own_board_is_the_same_whatever_the_other_seats_secrets(position):
    """Bo's hand, order and deck differ; Ann's own picture does not change."""
    ann = {"name": "Ann", "side": "US", "order": "T-GENERAL"}
    a = position(hands={0: HANDS_A[0], 1: HANDS_A[1]}, phase_cards=PHASES, decks={1: ["5-C3"]},
                 players=[ann, {"name": "Bo", "side": "DE", "order": "T-HOLD"}])
    b = position(hands={0: HANDS_A[0], 1: HANDS_B[1]}, phase_cards=PHASES, decks={1: ["4-C3"]},
                 players=[ann, {"name": "Bo", "side": "DE", "order": "T-GENERAL"}])
    assert view(a, 1).mine != view(b, 1).mine
    assert render_private_png(view(a, 0)) == render_private_png(view(b, 0))
