"""The battlefield in pictures (issue 9): the public board draws artillery markers and mine
tokens face down (cross-hairs and an M with the count, in the side's colour and shape),
roadblocks and close combats, and never a letter, a face or a mine kind; a seat's own board
adds his letters with their state and his side's mine kinds."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as S_

from bot.render import battlefield
from bot.render import board as board_module
from bot.render import private as private_module
from bot.render import style as S
from bot.render.board import BoardLayout, BoardPanel, tile_origins
from bot.render.private import PrivateBoardPanel
from bot.render.service import draw, public
from engine import view
from engine.core.views import ArtilleryCallView, MyMinefieldView
from engine.position import load_position
from tests.app.battlefield_views import leaks, with_secrets
from tests.render.conftest import yard
from tests.render.pixels import count


def words_drawn(monkeypatch) -> list[str]:
    """Every string the board, the private board and the battlefield marks draw."""
    seen: list[str] = []
    for mod in (board_module, private_module, battlefield):
        real = mod.text

        def spy(d, xy, s, *a, _real=real, **kw):
            seen.append(s)
            return _real(d, xy, s, *a, **kw)
        monkeypatch.setattr(mod, "text", spy)
    return seen


def under(L, spot) -> float:
    """Where a letter's label sits: just under its marker's cross-hairs."""
    return spot[1] + L.ppi * 0.42 + max(10, L.ppi // 3) / 2 + 3


def farmyard(cat, seat=0):
    st = load_position(cat, yard())[0]
    return view(st, seat)


def test_markers_and_tokens_are_drawn_face_down_in_their_tiles(cat):
    v = with_secrets(farmyard(cat), seat=None)
    img = BoardPanel().render(v)
    L = BoardLayout.for_view(v)
    origins = tile_origins(v)
    r = L.ppi * 0.5
    # L9A: two US markers down its east edge; 31A: the German marker, then the US one
    for i in (0, 1):
        x, y = battlefield.marker_spot(L, origins["L9A"], 10, i)
        assert count(img, (x - r, y - r, x + r, y + r), S.SIDE_FILL["US"]) > 20, i
    for i, side in enumerate(("DE", "US")):
        x, y = battlefield.marker_spot(L, origins["31A"], 5, i)
        assert count(img, (x - r, y - r, x + r, y + r), S.SIDE_FILL[side]) > 20, side
    x, y = battlefield.mine_spot(L, origins["31A"], 5, 0)
    assert count(img, (x - r, y - r, x + r, y + r), battlefield.MINE_FILL) > 20
    # the roadblock: black and white stripes along 31A's south edge
    x0, y0 = L.px(0.5, 4.35)
    assert count(img, (x0, y0, x0 + 3 * L.ppi, y0 + 8), battlefield.STRIPE_B) > 20


def test_the_public_board_draws_no_letter_face_plan_or_kind(cat, monkeypatch):
    seen = words_drawn(monkeypatch)
    v = with_secrets(farmyard(cat), seat=0)
    draw(v, "board")
    BoardPanel().render(v)  # even given a seat's view, the public panel reads no Mine
    drawn = " | ".join(seen)
    assert "ROADBLOCK" in drawn and "Artillery marker" in drawn and "Mine tokens" in drawn
    assert leaks(drawn) == []


def test_his_own_board_adds_his_letters_and_his_mine_kinds(cat, monkeypatch):
    seen = words_drawn(monkeypatch)
    v = with_secrets(farmyard(cat), seat=0)
    PrivateBoardPanel().render(v)
    assert {"QQ 2 to go", "XJ ON TARGET", "ZV FAKE", "BOOBY", "MIXED"} <= set(seen)
    assert any(s.startswith("Your planned barrages (secret): rockets omega on L9A") for s in seen)
    assert any(s.startswith("Your side's minefields") for s in seen)


@settings(max_examples=10, deadline=None, print_blob=False,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(S_.lists(S_.tuples(S_.sampled_from("ABCDEFGHJK"), S_.integers(0, 4), S_.booleans()), max_size=3),
       S_.sampled_from(["at", "gp", "mixed", "booby", "fake"]))
def test_the_public_picture_is_the_same_whatever_the_secrets_behind_it(cat, calls, kind):
    base = with_secrets(farmyard(cat), seat=0)
    other = base.model_copy(update={"mine": base.mine.model_copy(update={
        "artillery": [ArtilleryCallView(letter=l, kind="x", tile="L9A", rows_left=r, fake=f) for l, r, f in calls],
        "minefields": [MyMinefieldView(tile="31A", tokens=["at", "gp"], kind=kind)]})})
    assert BoardPanel().render(base).tobytes() == BoardPanel().render(other).tobytes()
    assert draw(other, "board").tobytes() == draw(public(base), "board").tobytes()


def test_the_public_renderer_is_handed_no_mine(cat):
    v = with_secrets(farmyard(cat), seat=0)
    assert v.mine is not None and public(v).mine is None
    assert public(v).artillery == v.artillery and public(v).minefields == v.minefields


def test_the_legend_names_the_battlefield_marks():
    labels = {label for *_, label in board_module.LEGEND}
    assert {"Artillery marker", "Mine tokens", "Roadblock", "Close combat on a vehicle"} <= labels


def test_the_private_footer_grows_a_line_per_battlefield_subject(cat):
    plain = farmyard(cat)
    secret = with_secrets(plain, seat=0)
    grow = PrivateBoardPanel().layout(secret).size[1] - PrivateBoardPanel().layout(plain).size[1]
    assert grow == private_module.BATTLEFIELD_ROW * 5
    assert BoardLayout.for_view(secret).size == BoardLayout.for_view(plain).size  # the public one does not


def test_his_letter_stands_by_his_own_marker_when_the_enemy_has_one_in_the_tile(cat, monkeypatch):
    """31A holds a German marker (first spot) and his (second): QQ's label is on the second's row."""
    spots = []
    real = battlefield.private_label

    def spy(d, xy, label, size, anchor="lm"):
        spots.append((label, xy))
        return real(d, xy, label, size, anchor)
    monkeypatch.setattr(battlefield, "private_label", spy)
    v = with_secrets(farmyard(cat), seat=0)
    PrivateBoardPanel().render(v)
    L = PrivateBoardPanel().layout(v)
    _, y = dict(spots)["QQ 2 to go"]
    assert y == under(L, battlefield.marker_spot(L, tile_origins(v)["31A"], 5, 1))


def test_known_minefields_are_drawn_as_public_tokens(cat, monkeypatch):
    seen = words_drawn(monkeypatch)
    v = farmyard(cat).model_copy(update={"mines": ["33A"]})
    img = BoardPanel().render(v)
    L = BoardLayout.for_view(v)
    x, y = battlefield.mine_spot(L, tile_origins(v)["33A"], 5, 0)
    r = L.ppi * 0.5
    assert count(img, (x - r, y - r, x + r, y + r), battlefield.MINE_FILL) > 20
    assert "KNOWN MINES" in seen


def test_a_call_that_names_its_marker_is_labelled_beside_that_marker(cat, monkeypatch):
    """XJ names marker 3, the second of his two in L9A: its label goes on the second spot."""
    spots = []
    real = battlefield.private_label

    def spy(d, xy, label, size, anchor="lm"):
        spots.append((label, xy))
        return real(d, xy, label, size, anchor)
    monkeypatch.setattr(battlefield, "private_label", spy)
    v = with_secrets(farmyard(cat), seat=0)
    calls = [c.model_copy(update={"marker": {"QQ": 1, "XJ": 3, "ZV": 2}[c.letter]}) for c in v.mine.artillery]
    v = v.model_copy(update={"mine": v.mine.model_copy(update={"artillery": calls})})
    PrivateBoardPanel().render(v)
    L = PrivateBoardPanel().layout(v)
    at = dict(spots)
    l9a = tile_origins(v)["L9A"]
    assert at["XJ ON TARGET"][1] == under(L, battlefield.marker_spot(L, l9a, 10, 1))
    assert at["ZV FAKE"][1] == under(L, battlefield.marker_spot(L, l9a, 10, 0))


def test_a_real_fake_call_is_cross_hairs_for_the_table_and_a_fake_for_its_caller(cat, monkeypatch):
    from tests.app.battlefield_views import artillery_lane
    st = artillery_lane(cat)
    seen = words_drawn(monkeypatch)
    BoardPanel().render(view(st, 0))
    draw(view(st, 0), "board")
    draw(view(st, 1), "board_private")
    assert not [s for s in seen if "FAKE" in s or "Fake" in s or s.startswith("A ")], seen
    seen.clear()
    PrivateBoardPanel().render(view(st, 0))
    assert "A FAKE" in seen
    assert view(st).artillery and view(st).artillery[0].tile == "24A"
