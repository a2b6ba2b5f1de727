"""Abandoned equipment, vehicles and guns (vehicle book, Recovering Equipment): what a fallen man
leaves in his tile, finding it by an identity check in the turn it fell, and taking over an
abandoned vehicle that then answers only to the finder's own action cards."""
from __future__ import annotations

import pytest

from engine.apply import apply
from engine.battlefield.recovery import (
    item_problem,
    live,
    recover_item,
    vehicle_problem,
)
from engine.core import commands as C
from engine.core.errors import RuleError
from engine.core.log import Ctx
from engine.infantry.damage import kill
from engine.infantry.equipment import carried
from engine.legal import legal_commands
from engine.view import view
from tests.engine.test_vehicles import (
    PANZER,
    PANZER_CREW,
    at_work,
    card_of,
    motor,
    panzer,
    sherman,
)

BROOKS = {"serial": 2, "seat": 0, "at": [1, 1], "facing": "e"}  # 6 VP, in 21A
DORN = {"serial": 4, "seat": 1, "at": [4, 4], "facing": "w"}  # 3 VP, the far corner of 21A: not in contact
AVERY = {"serial": 1, "seat": 0, "at": [12, 2], "facing": "e"}  # 3 VP, off in 23A
ENGEL = {"serial": 5, "seat": 1, "at": [37, 2], "facing": "w"}  # far off in 28A
STACKED = {"phase_cards": ["S01", "S02", "S03"], "hands": {0: [], 1: []}}  # no turn-start draw off the decks


def fallen_dorn(position, **kw):
    """Dorn, carrying a 7 VP radio, important papers, field glasses, a trinket and the scenario's
    orders case, is shot dead in 21A by Brooks."""
    kw = {**STACKED, **kw}
    st = position(soldiers=[BROOKS, AVERY, ENGEL, {**DORN, "equipment": ["big-radio", "papers", "binoculars", "trinket",
                                                          "orders-case"]}], **kw)
    kill(Ctx(st), 4, by_force=st.changing(2).force, by_soldier=2, cause="shot")
    return st


def test_a_fallen_man_leaves_only_the_cards_worth_a_search_in_his_tile(position):
    st = fallen_dorn(position)
    # Search "Yes" (the radio) and off the chart above 4 VP (the papers) stay; the glasses (Search
    # "No" in the fixture chart), the cheap trinket and the scenario's goal do not.
    assert sorted((d.item, d.tile) for d in live(st)) == [("big-radio", "21A"), ("papers", "21A")]
    assert sorted(d.item for d in view(st, None).dropped) == ["big-radio", "papers"]  # public


def test_an_abandoned_radio_is_found_by_an_identity_check_and_captured(position):
    # Brooks searches twice: Avery's card comes up first (not him), then his own dog tag.
    st = fallen_dorn(position, decks={0: ["1-C1", "2-C1"]})
    ctx = Ctx(st)
    before = st.side_vp("US")
    assert recover_item(ctx, 2, "big-radio") is False and "big-radio" not in carried(st, 2)
    assert recover_item(ctx, 2, "big-radio") is True and "big-radio" in carried(st, 2)
    assert [d.item for d in live(st)] == ["papers"]
    assert st.side_vp("US") == before + 7  # the enemy's radio is captured
    with pytest.raises(RuleError, match="no Big radio lies in 21A this turn .there is: Important papers"):
        recover_item(ctx, 2, "big-radio")


def test_abandoned_equipment_is_gone_the_next_turn(position):
    st = fallen_dorn(position)
    assert item_problem(st, 2, "papers") is None
    st.turn += 1
    assert item_problem(st, 2, "papers") == "no Important papers lies in 21A this turn."
    assert view(st, None).dropped == []


def test_a_find_must_fit_the_finders_limits(position):
    st = position(soldiers=[{**BROOKS, "serial": 1}, ENGEL, {**DORN, "equipment": ["big-radio"]}])  # Avery: 3 VP
    kill(Ctx(st), 4, by_force=st.changing(1).force, by_soldier=1, cause="shot")
    assert "Avery may carry 6 VP of equipment" in item_problem(st, 1, "big-radio")


def test_searching_is_a_move_action_listed_when_legal(position, play):
    st = fallen_dorn(position, phase_cards=["S07", "S01", "S04"], decks={0: ["2-C3"]},
                     hands={0: ["2-C1", "1-C3", "1-C4"], 1: ["4-C1", "4-C3", "4-C4"]})
    st, _ = play(st, "@Ann\nplan 2-C1 1-C3 1-C4\n@Bo\nplan 4-C1 4-C3 4-C4")
    offered = [c for c in legal_commands(st, 0) if isinstance(c, C.RecoverCmd)]
    assert {(c.serial, c.item) for c in offered if c.via == "tag"} == {(2, "big-radio"), (2, "papers")}
    st, ev = play(st, "@Ann\ntag recover 2 papers")
    assert "papers" in carried(st, 2)  # 2-C3 is Brooks's own card
    assert [e.kind for e in ev].count("search") == 1


# ----------------------------------------------------------------------------- vehicles and guns


def abandoned_panzer(cat):
    """The Panzer's crew bail out of it in 44A and run for it (they are taken off the map); Avery
    (US) stands in 44A beside it, Dorn (DE) in 43A; a Sherman waits in 41A."""
    from engine.vehicles.damage import get_off, release_crew
    st = motor(cat, us=[sherman("41A")], de=[panzer("44A", ammo={"AP": 2}, in_breach="AP")], us_men=(1, 2))
    ctx = Ctx(st)
    for n in list(PANZER_CREW.values()):
        get_off(ctx, PANZER, n)
    st.changing_vehicle(PANZER).status = "abandoned"
    release_crew(st, PANZER)
    for n in PANZER_CREW.values():
        st.changing(n).status, st.changing(n).at = "exited", None
    board = st.board
    st.changing(1).status, st.changing(1).at = "board", next(c for c in board.tile_cells("44A")
                                                             if c not in st.occupied())
    st.changing(4).at = board.tile_centre("43A")
    st.changing(2).status, st.changing(2).at = "board", board.tile_centre("42A")
    return st


def test_an_abandoned_tank_is_taken_over_with_a_move_and_answers_to_the_finder(cat):
    st = abandoned_panzer(cat)
    squad = st.soldiers[1].force
    at_work(st, squad, card_of(st, squad, owner=1, action="move"), "move")
    assert C.RecoverCmd(seat=0, serial=1, plate=PANZER, via="tag") in legal_commands(st, 0)
    st, ev = apply(st, C.RecoverCmd(seat=0, serial=1, plate=PANZER, via="tag"))
    v = st.vehicles[PANZER]
    assert (v.status, v.side, v.controller, v.force) == ("board", "US", squad, "V902" if v.force == "V902" else v.force)
    assert st.soldiers[1].status == "aboard" and v.crew == {"gunner": 1}
    assert "vehicle_recovered" in [e.kind for e in ev]


def test_a_taken_over_tank_fires_through_the_finders_own_card_and_its_old_deck_gives_nothing(cat):
    st = abandoned_panzer(cat)
    squad = st.soldiers[1].force
    old = st.vehicles[PANZER].force
    at_work(st, squad, card_of(st, squad, owner=1, action="move"), "move")
    st, _ = apply(st, C.RecoverCmd(seat=0, serial=1, plate=PANZER, via="tag"))
    st.changing(4).spotted_by.append(PANZER)  # the Panzer's own marker on Dorn
    # A SHOOT card of Brooks's: its team bubble lets one soldier shoot, so Avery at the gunner's
    # post fires the round in the breach. The hit check comes off Ann's squad deck, not the Panzer's.
    at_work(st, squad, card_of(st, squad, owner=2, action="shoot", team=[(1, "soldier", "shoot")]), "shoot")
    fire = C.Fire(seat=0, serial=1, weapon="main", target=4, via="team")
    assert fire in legal_commands(st, 0)
    st, ev = apply(st, fire)
    assert st.vehicles[PANZER].in_breach == [] and st.vehicles[PANZER].force == old
    checks = [e for e in ev if e.kind == "hit_check"]
    assert checks and all(st.card(e.data["card"]).owner in (1, 2) for e in checks)  # Ann's squad deck
    # the Panzer's own license-plate cards give no actions any more
    plate_card = card_of(st, old, owner=PANZER, action="move")
    at_work(st, old, plate_card, "move")
    assert not any(getattr(c, "serial", None) == PANZER for c in legal_commands(st, 1))
    with pytest.raises(RuleError):
        apply(st, C.VMove(seat=1, serial=PANZER, tile="48A", via="tag"))


def test_a_second_man_takes_the_wheel_and_drives_the_taken_over_tank_with_his_own_move(cat):
    st = abandoned_panzer(cat)
    squad = st.soldiers[1].force
    at_work(st, squad, card_of(st, squad, owner=1, action="move"), "move")
    st, _ = apply(st, C.RecoverCmd(seat=0, serial=1, plate=PANZER, via="tag"))  # Avery: the gunner's post
    st.changing(2).at = next(c for c in st.board.tile_cells("44A") if c not in st.occupied())
    at_work(st, squad, card_of(st, squad, owner=2, action="move"), "move")
    st, _ = apply(st, C.RecoverCmd(seat=0, serial=2, plate=PANZER, via="tag"))  # Brooks: the driver's
    assert st.vehicles[PANZER].crew == {"gunner": 1, "driver": 2}
    # a man of the Panzer's old crew, back in 44A, may not climb in: his cards are in its deck
    st.changing(70).status, st.changing(70).at = "board", next(c for c in st.board.tile_cells("44A")
                                                                if c not in st.occupied())
    assert "only a squad's men take over a vehicle" in vehicle_problem(st, 70, PANZER)
    at_work(st, squad, card_of(st, squad, owner=2, action="move"), "move")
    moves = [c for c in legal_commands(st, 0) if isinstance(c, C.VMove) and c.serial == 2]
    assert moves, "Brooks at the wheel is offered hull moves"
    st, _ = apply(st, moves[0])
    assert st.vehicles[PANZER].tile == moves[0].tile != "44A"
