"""The service-record card and the standings chart: pixel checks, not golden files."""
from __future__ import annotations

import io

from PIL import Image

from bot.render import style as S
from bot.render.service_record import RIBBONS, STATUS_CHIP, render_service_record_png
from bot.render.standings import PLOT, player_colours, render_standings_png
from engine.campaign import Status, award, promote, service_record, standings
from engine.campaign.records import Standings, StandingsLine
from tests.campaign.conftest import DATE, started
from tests.render import pixels


def image(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG"
    return img.convert("RGB")


def colours(img: Image.Image, box=None) -> set:
    part = img.crop(box) if box else img
    return {c for _, c in pixels.colours(part)}


def test_the_card_is_sized_for_discord_and_carries_the_side_colour(cat, cdef):
    st = started(cat, cdef)
    for serial, side in ((101, "US"), (201, "DE")):
        img = image(render_service_record_png(service_record(st, cat, serial, private=False)))
        assert 1200 <= max(img.size) <= 1600
        assert img.getpixel((img.width // 2, 8)) == S.SIDE_FILL[side]


def test_medals_are_drawn_as_their_ribbons_in_the_rack(cat, cdef):
    st = started(cat, cdef)
    award(st.entry(101), "silver", date=DATE, citation="x")
    award(st.entry(201), "merit", date=DATE, citation="y")
    rack = (150, 200, 900, 700)
    us = colours(image(render_service_record_png(service_record(st, cat, 101, private=False))), rack)
    assert {c for c, _ in RIBBONS[("US", "silver")]} <= us
    de = colours(image(render_service_record_png(service_record(st, cat, 201, private=False))), rack)
    assert {c for c, _ in RIBBONS[("DE", "merit")]} <= de
    bare = colours(image(render_service_record_png(service_record(st, cat, 105, private=False))), rack)
    assert RIBBONS[("US", "silver")][0][0] not in bare  # no ribbon on a man without medals


def test_ribbons_stay_on_the_rank_that_earned_them(cat, cdef):
    st = started(cat, cdef)
    e = st.entry(104)
    award(e, "bronze", date=DATE, citation="x")
    promote(e, cat, date=DATE, why="y")
    rec = service_record(st, cat, 104, private=False)
    assert [h.rank_title for h in rec.honours] == ["Pvt."] and rec.rank_title == "Cpl."
    img = image(render_service_record_png(rec))

    def first_row_with(colour) -> int:
        return next(y for y in range(250, 760) if any(img.getpixel((x, y)) == colour for x in range(150, 860)))

    ribbon, empty_slots = first_row_with(RIBBONS[("US", "bronze")][0][0]), first_row_with(S.MUTED)
    assert ribbon < empty_slots  # the private's ribbon above, the empty slots of his new rank below


def test_vp_are_drawn_only_on_the_private_card(cat, cdef):
    st = started(cat, cdef)
    private = image(render_service_record_png(service_record(st, cat, 101, private=True)))
    public = image(render_service_record_png(service_record(st, cat, 101, private=False)))
    assert S.HIGHLIGHT in colours(private)
    assert S.HIGHLIGHT not in colours(public)


def test_the_status_chip_says_killed_in_action(cat, cdef):
    st = started(cat, cdef)
    st.entry(102).status = Status.KILLED
    img = image(render_service_record_png(service_record(st, cat, 102, private=False)))
    chip = (img.width - 400, 30, img.width - 30, 100)
    assert STATUS_CHIP["killed in action"][0] in colours(img, chip)
    assert STATUS_CHIP["fit"][0] not in colours(img, chip)


def view(ann: list[int], bo: list[int]) -> Standings:
    return Standings(campaign="Test", scenarios=[f"{i + 1}. Scenario" for i in range(len(ann))],
                     players=[StandingsLine(name="Ann", side="US", vp=ann, total=sum(ann)),
                              StandingsLine(name="Bo", side="DE", vp=bo, total=sum(bo))],
                     sides={"US": ann, "DE": bo}, finished=False)


def bar_height(img: Image.Image, colour, x_range) -> int:
    _, y0, _, y1 = PLOT
    best = 0
    for x in range(*x_range):
        run = sum(1 for y in range(y0, y1) if img.getpixel((x, y)) == colour)
        best = max(best, run)
    return best


def test_the_chart_is_sized_for_discord_and_bars_scale_with_vp():
    v = view([10, 0], [5, 5])
    img = image(render_standings_png(v))
    assert 1200 <= max(img.size) <= 1600
    us, de = player_colours(v)
    left, _, right, _ = PLOT
    first = (left, left + (right - left) // 2)
    h_us, h_de = bar_height(img, us, first), bar_height(img, de, first)
    assert h_us > 0 and h_de > 0
    assert abs(h_us / h_de - 2) < 0.15


def test_two_players_of_a_side_get_two_shades():
    v = Standings(campaign="T", scenarios=["1. A"], players=[
        StandingsLine(name="Ann", side="US", vp=[3], total=3), StandingsLine(name="Cy", side="US", vp=[2], total=2),
        StandingsLine(name="Bo", side="DE", vp=[4], total=4)], sides={"US": [5], "DE": [4]}, finished=True)
    shades = player_colours(v)
    assert shades[0] != shades[1] and shades[0] == S.SIDE_FILL["US"] and shades[2] == S.SIDE_FILL["DE"]
    assert set(shades) <= colours(image(render_standings_png(v)), PLOT)


def test_the_campaigns_own_standings_draw(cat, cdef):
    st = started(cat, cdef)
    img = image(render_standings_png(standings(st, cat)))  # nothing played yet: an empty chart
    assert 1200 <= max(img.size) <= 1600
    assert S.SIDE_FILL["US"] in colours(img)  # the legend still names the players


def test_standings_text_names_each_scenarios_vp_and_says_a_single_total_once():
    from bot.app.campaign import standings_text

    one = standings_text(view([7], [3]))
    assert "Ann (US): 7 VP." in one and "— 7" not in one
    two = standings_text(view([3, 4], [1, 0]))
    assert "Ann (US): 7 VP (1. Scenario: 3; 2. Scenario: 4)." in two
