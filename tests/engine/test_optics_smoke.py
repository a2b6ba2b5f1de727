"""Optics and smoke (advanced rules, Markers and Equipment). The firing range lane runs east from
21A (open) through 22A hedge, 23A copse, 24A ditch, 25A meadow, 26A orchard to 27A: LOOK
modifiers -1, -2, -1, 0, -2, -2 (-8 in all), SHOOT -1, -2, -1, 0, -1, -1 (-6)."""
from __future__ import annotations

from engine.core.content import Action
from engine.core.log import Ctx
from engine.core.state import SmokeMarker
from engine.infantry.hide import cover_report
from engine.infantry.look import look_mods, sight_options
from engine.infantry.optics import ignore
from engine.infantry.shoot import shot_geometry
from engine.turn.sequence import _smoke_schedule

AVERY = {"serial": 1, "seat": 0, "at": [2, 2], "facing": "e"}  # sight 15, in 21A
DORN = {"serial": 4, "seat": 1, "at": [32, 2], "facing": "w"}  # 6 squares east, in 27A


def lane(position, *, gear=(), smoke=None, **kw):
    return position(soldiers=[{**AVERY, "equipment": list(gear)}, DORN], smoke=smoke or {}, **kw)


def test_smoke_doubles_its_square_and_every_square_beyond_it_toward_the_target(position):
    st = lane(position, smoke={"24A": 2})
    # 22A -1, 23A -2 as they are; 24A -1 -> -2, 25A 0, 26A -2 -> -4, 27A -2 -> -4
    assert look_mods(st, (2, 2), (32, 2)) == -13
    must, table = sight_options(st, 1)
    assert must == [] and table == [(4, 6, 2, False)]  # sight 15 - 13: Dorn is lost in the smoke


def test_heavy_smoke_triples(position):
    st = lane(position, smoke={"26A": 3})
    assert look_mods(st, (2, 2), (32, 2)) == -1 - 2 - 1 + 0 - 6 - 6


def test_binoculars_ignore_look_modifiers_of_three_and_less(position):
    st = lane(position, gear=["binoculars"])
    assert ignore(st, 1, Action.LOOK) == 3 and ignore(st, 1, Action.SHOOT) == 2
    assert look_mods(st, (2, 2), (32, 2), ignore(st, 1, Action.LOOK)) == 0
    assert sight_options(st, 1)[1] == [(4, 6, 15, True)]


def test_optics_after_smoke(position):
    # The smoke doubles 26A and 27A to -4 each: too much for 3x glasses, which still ignore the
    # -1 and -2 squares before the smoke and the doubled ditch (-2). Avery still sees 7 squares.
    st = lane(position, gear=["binoculars"], smoke={"24A": 2})
    assert look_mods(st, (2, 2), (32, 2), 3) == -8
    must, table = sight_options(st, 1)
    assert must == [4] and table == [(4, 6, 7, True)]


def test_a_scope_ignores_more_than_glasses(position):
    st = position(soldiers=[{"serial": 40, "seat": 0, "at": [2, 2], "facing": "e", "equipment": ["sniper-scope"]},
                            DORN], smoke={"23A": 2})
    assert ignore(st, 40, Action.LOOK) == 5 and ignore(st, 40, Action.SHOOT) == 3
    # the hedge -1, then smoke from 23A on: -4, -2, 0, -4, -4, all within the scope's 5
    assert look_mods(st, (2, 2), (32, 2), 5) == 0
    assert look_mods(st, (2, 2), (32, 2), 3) == -4 - 4 - 4  # 3x glasses: the three -4s count


def test_only_a_sniper_gets_anything_out_of_the_sniper_scope(position):
    st = position(soldiers=[{"serial": 41, "seat": 0, "at": [2, 2], "facing": "e", "equipment": ["sniper-scope"]},
                            DORN])
    assert ignore(st, 41, Action.LOOK) == 0


def test_optics_ignore_small_shoot_modifiers_too(position):
    # Avery (Long 13, Short 7) at Dorn 6 squares off: the -6 of SHOOT modifiers leave him only
    # Long; with the glasses none of the -1 and -2 squares count and Short reaches too.
    spotted = {**DORN, "spotted": True}
    st = position(soldiers=[AVERY, spotted])
    assert shot_geometry(st, 1, 4)[2:] == (-6, ["long"])
    st = position(soldiers=[{**AVERY, "equipment": ["binoculars"]}, spotted])
    assert shot_geometry(st, 1, 4)[2:] == (0, ["long", "short"])


def test_smoke_on_the_line_doubles_the_hiders_cover_modifiers(position):
    # Dorn takes cover against Avery. Smoke in the ditch between them doubles the ditch and every
    # square from it to Dorn, his own (27A, HIDE -3) included: -1 -2 | -2 0 -4 -6 = -15.
    st = lane(position, smoke={"24A": 2})
    _, rows = cover_report(st, 4)
    assert rows == [(1, 6 - 15)]
    st = lane(position)
    assert cover_report(st, 4)[1] == [(1, 6 - 9)]


def test_smoke_duration_by_colour(position):
    def schedule(cards, laid_turn_ago=1):
        st = lane(position, phase_cards=cards, hands={0: [], 1: []})
        st.smoke = [SmokeMarker(tile="24A", density=2, turn=st.turn - laid_turn_ago)]
        _smoke_schedule(Ctx(st))
        return st.smoke[0].clears_after
    assert schedule(["S01", "S02", "S03"]) == 2  # green, tan: gone after phase 2
    assert schedule(["S01", "S05", "S02"]) == 3  # green, green, tan: gone after phase 3
    assert schedule(["S01", "S05", "S09"]) is None  # all green: it hangs on all turn
    assert schedule(["S01", "S02", "S03"], laid_turn_ago=0) is None  # laid this turn: it lasts the turn


def test_binoculars_help_to_make_out_a_vehicle_too(cat):
    from tests.engine.test_vehicle_damage import PANZER_CREW, add_vehicle, range_game
    rows = []
    for gear in ([], ["binoculars"]):
        st = range_game(cat, [{**AVERY, "equipment": gear}, {"serial": 4, "seat": 1, "at": [37, 2]}])
        add_vehicle(st, cat, "test-panzer", seat=1, tile="27A", crew=PANZER_CREW)
        rows.append(next(r for r in sight_options(st, 1)[1] if r[0] in st.vehicles))
    plain, glasses = rows
    assert glasses[2] - plain[2] == 8  # the lane's -8 of LOOK modifiers, every one of them 3 or less
