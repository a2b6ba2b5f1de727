"""A vehicle's panel and vehicles on the board, drawn from real games of the shipped vehicle
scenarios: pixel checks at known places and the words drawn, never golden files."""
from __future__ import annotations

import io
import logging

import pytest
from PIL import Image

from bot.render import board as board_module
from bot.render import style as S
from bot.render import vehicle_figure
from bot.render import vehicle_panel as VP
from bot.render.board import BoardLayout, BoardPanel, tile_origins
from bot.render.encode import DEFAULT_UPLOAD_LIMIT
from bot.render.files import save_phase_images
from bot.render.service import RenderService, draw, render_panel_png
from bot.render.vehicle_figure import (
    HULL_DOWN_FILL,
    TRACK_FILL,
    WRECK_FILL,
    footprint_box,
)
from bot.render.vehicle_panel import VehiclePanel, layout, move_markers
from engine import new_game, view
from engine.turn.setup import SeatSpec
from tests.render.pixels import colours, count

SEATS = [SeatSpec(name="Ann", side="US"), SeatSpec(name="Bo", side="DE")]


@pytest.fixture
def game(shipped):
    """Steel at the Vautrin Crossroads at its first decision: Sherman 601 and M8 602 waiting
    to enter, PzKw IV 701 on 11B facing south, half-track 702 waiting."""
    def make(scenario: str = "vautrin-crossroads", seed: int = 1):
        return new_game(shipped, scenario, SEATS, seed=seed)[0]
    return make


@pytest.fixture
def words(monkeypatch):
    """Every string the panel and the figures' badges draw, with its size in pixels."""
    seen: list[tuple[str, int]] = []

    def spy(real):
        def drawn(d, xy, s, size, fill, **kw):
            seen.append((s, size))
            return real(d, xy, s, size, fill, **kw)
        return drawn
    monkeypatch.setattr(VP, "text", spy(VP.text))
    monkeypatch.setattr(board_module, "text", spy(board_module.text))
    monkeypatch.setattr(vehicle_figure, "text", spy(vehicle_figure.text))
    return seen


def said(words) -> list[str]:
    return [s for s, _ in words]


def has(img: Image.Image, box, wanted) -> bool:
    return any(c in wanted for _, c in colours(img.crop(box)))


def on_board(st, plate: int, tile: str, facing: str = "n", turret: str | None = "n"):
    v = st.vehicles[plate]
    v.status, v.tile, v.facing = "board", tile, facing
    v.turret = turret if st.vehicle_def(plate).has_turret else None
    return v


def vehicle_scenarios(shipped) -> list[str]:
    """Every scenario whose sides bring vehicles or guns."""
    return sorted(sc.id for sc in shipped.scenarios.values() if any(side.vehicles for side in sc.sides))


# =========================================================================== the panel


def test_every_panel_of_every_vehicle_scenario_fits_discord(shipped, game):
    scenarios = vehicle_scenarios(shipped)
    assert "vautrin-crossroads" in scenarios and "chapel-gun" in scenarios
    for scenario in scenarios:
        st = game(scenario)
        for plate in st.vehicles:
            data = render_panel_png(view(st), plate)
            img = Image.open(io.BytesIO(data))
            assert img.format == "PNG" and len(data) < DEFAULT_UPLOAD_LIMIT
            assert 1200 <= max(img.size) <= 1600, (scenario, plate, img.size)
            assert min(img.size) >= 700 and img.width > img.height  # landscape, like the board


def test_no_word_on_a_busy_panel_is_smaller_than_15_px(game, words):
    st = game()
    v = on_board(st, 601, "6B")
    v.damage = {"engine": ["fire", "fire"], "track": ["wreck"], "radio": ["critical"]}
    v.cook_off, v.pins, v.move_plus, v.hull_down, v.spotted_by = ["ready_ammo"], 2, 5, True, [701, 702]
    VehiclePanel(601).render(view(st))
    assert words and min(size for _, size in words) >= 15
    big = {s for s, size in words if size >= 40}
    assert {"M4A1 Sherman (75 mm)"} <= big  # the name reads at a glance


def test_two_shermans_each_have_a_panel_with_their_own_plate_and_crew(game, words):
    """A plate per vehicle (docs/vehicles.md): in A Pair of Shermans at Vautrin, 601 and 1601."""
    st = game("vautrin-pair")
    on_board(st, 601, "10A")
    on_board(st, 1601, "21A")
    names = {s.serial: s.name for s in view(st).soldiers}
    drawn = {}
    for plate in (601, 1601):
        words.clear()
        VehiclePanel(plate).render(view(st))
        drawn[plate] = said(words)
    assert "1601" not in drawn[601] and "1601" in drawn[1601] and "601" in drawn[601]
    for plate, crew in ((601, range(151, 156)), (1601, range(163, 168))):
        other = range(163, 168) if plate == 601 else range(151, 156)
        assert all(names[n] in drawn[plate] for n in crew)
        assert not any(names[n] in drawn[plate] for n in other)
    words.clear()
    BoardPanel().render(view(st))
    assert {"601", "1601"} <= set(said(words))  # each figure carries its own plate


def test_the_panel_names_the_vehicle_its_crew_and_its_rounds(game, words):
    st = game()
    on_board(st, 701, "11B", "s", "sw")
    st.vehicles[701].ready = {"AP": 6, "HE": 5, "HEAT": 2}
    VehiclePanel(701).render(view(st))
    out = said(words)
    assert "PzKw IV Ausf. H" in out and "701" in out
    assert "on 11B · hull S · turret SW" in out
    names = {s.serial: s.name for s in view(st).soldiers}
    for serial in (251, 252, 253, 254, 255):  # every crewman at his post, with his dog tag
        assert names[serial] in out and str(serial) in out
    assert "AP" in out  # in the breach at the start
    assert {"6", "5", "2"} <= set(out)  # ready rounds by type
    assert "commander · optics 0-2" in out and "armour  front 5 · side 3 · rear 3" in out


def test_damage_markers_sit_on_their_location_with_their_word(game, words):
    st = game()
    L = layout(st.vehicle_def(601))
    hull = next(c for c in L.compartments if c.id == "hull")
    turret = next(c for c in L.compartments if c.id == "turret")
    before = VehiclePanel(601).render(view(st))
    assert count(before, hull.machinery["engine"], S.FIRE_FILL) == 0
    st.vehicles[601].damage = {"engine": ["fire", "fire"], "track": ["wreck"], "radio": ["critical"]}
    words.clear()
    after = VehiclePanel(601).render(view(st))
    assert count(after, hull.machinery["engine"], S.FIRE_FILL) > 200
    assert count(after, hull.machinery["track"], VP.WRECK_FILL) > 200
    assert count(after, turret.machinery["radio"], VP.CRITICAL_FILL) > 200
    assert count(after, hull.machinery["fuel_tanks"], S.FIRE_FILL) == 0  # undamaged stays clean
    assert {"FIRE ×2", "WRECK", "CRITICAL"} <= set(said(words))  # words, not colours alone


def test_a_cook_off_is_warned_on_its_location_and_in_the_marker_strip(game, words):
    st = game()
    st.vehicles[601].damage = {"ready_ammo": ["fire"]}
    st.vehicles[601].cook_off = ["ready_ammo"]
    VehiclePanel(601).render(view(st))
    assert "COOK-OFF" in said(words) and "COOK-OFF: Ready rack" in said(words)


def test_an_open_hatch_shows_open_and_a_shut_one_shut(game, words):
    st = game()
    commander = next(c for c in layout(st.vehicle_def(601)).compartments if c.id == "turret").crew["commander"]
    strip = (commander[0], commander[1], commander[2], commander[1] + 32)
    shut = VehiclePanel(601).render(view(st))
    assert count(shut, strip, VP.HATCH_OPEN) == 0
    assert said(words).count("shut") == 4  # commander, loader, driver, assistant driver
    st.vehicles[601].unbuttoned = ["commander"]
    words.clear()
    opened = VehiclePanel(601).render(view(st))
    assert count(opened, strip, VP.HATCH_OPEN) > 300
    assert said(words).count("OPEN") == 1 and said(words).count("shut") == 3


def test_the_marker_strip_shows_pins_saved_movement_hull_down_and_who_spotted_it(game, words):
    st = game()
    v = on_board(st, 601, "6B")
    VehiclePanel(601).render(view(st))
    assert any(s.startswith("No markers") for s in said(words))
    v.pins, v.move_plus, v.hull_down, v.spotted, v.spotted_by, v.shots = 2, 5, True, True, [701], 1
    words.clear()
    VehiclePanel(601).render(view(st))
    out = said(words)
    assert {"2 PINS", "MOVE++", "MOVE+", "HULL DOWN", "SPOTTED", "SPOTTED BY 701", "FIRED 1 OF 2"} <= set(out)


@pytest.mark.parametrize("squares, markers", [(0, []), (2, ["Move+"]), (3, ["Move++"]), (4, ["Move+", "Move+"]),
                                              (5, ["Move++", "Move+"]), (6, ["Move++", "Move++"]),
                                              (7, ["Move++", "Move+", "Move+"])])
def test_saved_movement_is_shown_as_the_markers_that_hold_it(squares, markers):
    assert move_markers(squares) == markers


def test_passengers_riders_and_dismounted_crew_are_named(game, words):
    st = game()
    for serial, plate, post in ((204, 702, "cabin"), (205, 702, "cabin"), (108, 601, "deck"), (109, 601, "deck")):
        s = st.soldiers[serial]
        s.status, s.vehicle, s.post = "aboard", plate, post
    bow = st.soldiers[155]  # the Sherman's assistant driver climbs out
    bow.status, bow.at, bow.dismounted, bow.post = "board", (16, 16), True, None
    st.vehicles[601].crew.pop("bow_gunner")
    names = {s.serial: s.name for s in view(st).soldiers}
    VehiclePanel(702).render(view(st))
    assert {names[204], names[205]} <= set(said(words)) and "Passengers (4)" in said(words)
    words.clear()
    VehiclePanel(601).render(view(st))
    out = said(words)
    assert {names[108], names[109], names[155]} <= set(out)
    assert "empty" in out  # the assistant driver's seat


def test_a_man_gone_to_a_machinery_location_stands_on_it(game, words):
    st = game()
    st.changing(155).post = "transmission"  # to repair it
    st.vehicles[601].crew.pop("bow_gunner")
    hull = next(c for c in layout(st.vehicle_def(601)).compartments if c.id == "hull")
    img = VehiclePanel(601).render(view(st))
    assert "155" in said(words)
    x0, y0, _, _ = hull.machinery["transmission"]
    assert count(img, (x0 + 10, y0 + 4, x0 + 46, y0 + 36), S.SIDE_FILL["US"]) > 200


def test_a_two_part_round_shows_round_then_charge(game, words):
    st = game()
    st.vehicles[701].in_breach = ["AP"]
    st.vehicles[701].in_hand = ["AP/charge"]
    v = view(st)
    pz = v.vehicle_defs["pzkw-iv-h"]
    ammo = [a.model_copy(update={"parts": 2}) if a.id == "AP" else a for a in pz.main_gun.ammo]
    two_part = pz.model_copy(update={"main_gun": pz.main_gun.model_copy(update={"ammo": ammo})})
    v = v.model_copy(update={"vehicle_defs": {**v.vehicle_defs, "pzkw-iv-h": two_part}})
    VehiclePanel(701).render(v)
    out = said(words)
    assert "AP/charge" in out and "charge" in out and "round" in out


@pytest.mark.parametrize("status, colour", [("destroyed", VP.STAMP), ("abandoned", S.INK)])
def test_a_destroyed_or_abandoned_vehicle_is_stamped_across_its_panel(game, words, status, colour):
    st = game()
    on_board(st, 701, "11B", "s", "s").status = status
    img = VehiclePanel(701).render(view(st))
    body = (0, VP.HEADER_H + VP.STRIP_H, img.width, img.height)
    assert count(img, body, colour) > 20000
    assert f"{status.upper()} on 11B" in said(words)


def test_the_static_layer_is_drawn_once_per_vehicle(game):
    st = game()
    svc = RenderService()
    try:
        first = svc.render_sync(view(st), "panel", plate=601)
        assert (svc.layers.misses, svc.layers.hits) == (1, 0)
        st.vehicles[601].pins = 1
        st.vehicles[601].damage = {"track": ["wreck"]}
        cached = svc.render_sync(view(st), "panel", plate=601)
        assert (svc.layers.misses, svc.layers.hits) == (1, 1)
        assert first != cached
        # the cached layer gives the very picture a fresh drawing gives
        assert Image.open(io.BytesIO(cached)).tobytes() == draw(view(st), "panel", plate=601).tobytes()
        svc.render_sync(view(st), "panel", plate=701)
        assert svc.layers.misses == 2  # another vehicle, another layer
        svc.render_sync(view(st), "board")
        svc.render_sync(view(st), "panel", plate=601)
        assert svc.layers.hits == 2  # the board's layer did not push the panel's out
    finally:
        svc.close()


def test_a_panel_is_the_same_from_any_seat_and_whatever_the_secrets(game):
    """The panels lie open: a seat's view gives the public picture, and other hands, orders
    and decks (another seed deals them) change nothing on it."""
    a, b = game(seed=1), game(seed=2)
    assert view(a, 0).mine != view(b, 0).mine  # the secrets differ
    for plate in (601, 701):
        public = render_panel_png(view(a), plate)
        assert render_panel_png(view(a, 0), plate) == public
        assert render_panel_png(view(a, 1), plate) == public
        assert render_panel_png(view(b), plate) == public


async def test_an_unknown_plate_is_a_clear_error_and_no_picture(game, caplog):
    st = game()
    with pytest.raises(KeyError, match="no vehicle or gun with plate 999.*601, 602, 701, 702"):
        render_panel_png(view(st), 999)
    with pytest.raises(ValueError, match="plate="):
        draw(view(st), "panel")
    svc = RenderService()
    try:
        with caplog.at_level(logging.ERROR, logger="bot.render.service"):
            assert await svc.render(view(st), "panel", plate=999) is None
    finally:
        svc.close()
    assert any("panel" in r.getMessage() for r in caplog.records)


def test_phase_images_carry_the_panels_of_the_vehicles_in_the_phase(game, tmp_path):
    st = game()
    st.last_panels = [701, 602]
    paths = save_phase_images(view(st), tmp_path / "img", "t1-p2")
    assert [p.name for p in paths] == ["t1-p2.png", "t1-p2-panel701.png", "t1-p2-panel602.png"]
    assert Image.open(paths[1]).width == VP.W
    assert [p.name for p in save_phase_images(view(st), tmp_path / "img", "t1-p3", plates=[])] == ["t1-p3.png"]


# =========================================================================== the board


def vehicle_box(v, st, plate):
    L = BoardLayout.for_view(v)
    vs = st.vehicles[plate]
    x0, y0, x1, y1 = footprint_box(tile_origins(v)[vs.tile], v.tiles[vs.tile].size)
    return L, (*L.px(x0, y0), *L.px(x1, y1))


@pytest.mark.parametrize("plate, tile, side", [(701, "11B", "DE"), (601, "6B", "US"), (702, "L2A", "DE")])
def test_a_vehicle_fills_the_middle_of_its_tile_in_its_side_colour(game, plate, tile, side):
    st = game()
    on_board(st, plate, tile, "n")
    v = view(st)
    img = BoardPanel().render(v)
    L, box = vehicle_box(v, st, plate)
    assert (box[2] - box[0]) // L.ppi == (4 if tile.startswith("L") else 3)  # a landmark's middle 4x4
    area = (box[2] - box[0]) * (box[3] - box[1])
    other = "US" if side == "DE" else "DE"
    assert count(img, box, S.SIDE_FILL[side]) > area * 0.2
    assert count(img, box, S.SIDE_FILL[other]) == 0


def test_german_hulls_are_square_cornered_and_american_ones_rounded(game):
    """As for the bases: a point just inside the hull's corner is filled on a German hull only."""
    st = game()
    on_board(st, 701, "11B", "n", None)
    on_board(st, 601, "6B", "n", None)
    v = view(st)
    img = BoardPanel().render(v)
    hull = {S.SIDE_FILL["DE"], S.SIDE_FILL["US"], TRACK_FILL, S.INK}
    for plate, filled in ((701, True), (601, False)):
        _, (x0, y0, x1, y1) = vehicle_box(v, st, plate)
        cx, span = (x0 + x1) / 2, x1 - x0
        corner = (round(cx + span * 0.64 / 2 - 5), round((y0 + y1) / 2 + span * 0.94 / 2 - 5))
        assert (img.getpixel(corner) in hull) is filled, plate


def test_the_gun_points_where_the_turret_is_turned(game):
    st = game()
    on_board(st, 601, "6B", "n", "e")
    v = view(st)
    img = BoardPanel().render(v)
    _, (x0, y0, x1, y1) = vehicle_box(v, st, 601)
    cy, span = (y0 + y1) / 2, x1 - x0
    # a thin strip beside the hull (it is 0.64 of the footprint wide), across the turret's middle
    east = (round(x1 - span * 0.12), round(cy - span * 0.1), round(x1 - span * 0.08), round(cy + span * 0.2))
    west = (round(x0 + span * 0.08), east[1], round(x0 + span * 0.12), east[3])
    gun = {S.INK, S.SIDE_FILL["US"]}
    assert has(img, east, gun) and not has(img, west, gun)
    on_board(st, 601, "6B", "n", "w")
    img = BoardPanel().render(view(st))
    assert has(img, west, gun) and not has(img, east, gun)


def test_a_destroyed_vehicle_is_a_wreck_that_keeps_its_plate(game, words):
    st = game()
    on_board(st, 701, "11B", "s", "s").status = "destroyed"
    v = view(st)
    img = BoardPanel().render(v)
    _, box = vehicle_box(v, st, 701)
    assert count(img, box, WRECK_FILL) > count(img, box, S.SIDE_FILL["DE"])
    assert "701" in said(words)


def test_vehicle_markers_sit_on_the_corners_of_its_footprint(game, words):
    st = game()
    v701 = on_board(st, 701, "11B", "s", "s")
    bare = BoardPanel().render(view(st))
    v701.pins, v701.hull_down, v701.spotted, v701.spotted_by, v701.move_plus = 3, True, True, [601], 2
    v = view(st)
    img = BoardPanel().render(v)
    L, (x0, y0, x1, y1) = vehicle_box(v, st, 701)
    r = round(L.ppi * 0.3)

    def at(x, y):
        return (x - r, y - r, x + r, y + r)
    assert count(img, at(x1, y1), S.PINNED_FILL) > count(bare, at(x1, y1), S.PINNED_FILL) + 50  # pinned
    assert count(img, at(x0, y1), HULL_DOWN_FILL) > 50  # hull down
    assert count(img, at(x0, y0), S.ACTION_FILL["move"]) > 50  # Move+
    assert count(img, at(x1, y0), S.SPOTTED_FILL) > 50  # spotted
    assert {"3", "601", "HD", "M+"} <= set(said(words))  # pin count, the spotter's plate


def test_the_legend_names_vehicles_and_their_markers():
    labels = {label for *_, label in board_module.LEGEND}
    assert {"Vehicle or gun, plate", "Destroyed", "Hull down", "Move+", "Spotted by vehicle"} <= labels


def test_a_board_with_vehicles_fits_discord(game):
    st = game()
    on_board(st, 601, "6B", "ne", "n")
    data = draw(view(st), "board")
    assert 1200 <= max(data.size) <= 1600


def test_a_vehicles_move_and_a_shot_at_it_stop_at_its_footprint(game):
    """The arrow and the shot's star end at the hull's edge: the plate in the middle stays clear."""
    from engine.core.state import TrailMark
    st = game()
    on_board(st, 601, "8A", "e", "n")
    st.trail = [TrailMark(kind="move", serial=601, path=[st.board.tile_centre("6B"), st.board.tile_centre("8A")]),
                TrailMark(kind="shot", serial=701, path=[st.board.tile_centre("11B"), st.board.tile_centre("8A")],
                          target=601)]
    v = view(st)
    img = BoardPanel().render(v)
    L, (x0, y0, x1, y1) = vehicle_box(v, st, 601)
    k = (x1 - x0) // 4
    middle = (x0 + k, y0 + k, x1 - k, y1 - k)
    assert count(img, middle, S.SHOT_LINE) == 0
    assert count(img, (x0 - L.ppi, y0 - L.ppi, x1 + L.ppi, y1 + L.ppi), S.SHOT_LINE) > 100  # the shot is there
    west = (x0 - L.ppi, (y0 + y1) // 2 - 4, x0, (y0 + y1) // 2 + 4)
    assert count(img, west, S.SIDE_FILL["US"]) > 20  # the arrow comes in from 6B
