"""Mines in play (Hell on Wheels, Mines: Placement, Placing Booby-Traps, the last paragraph on
removal): a vehicle lays mines from its load during the game, a man with a mine detector lifts
them, and booby traps and fakes lie in the rooms of X-Terrain and Urban tiles. engine/battlefield/
mines.py; rulings in docs/battlefield.md, "Mines" (R66-R68 in docs/rulings.md).

The 'motor' map (tests/engine/test_vehicles.py): 41A-44A a lane (row 1), 45A-48A row 2, 53A 50A 51A
52A row 3, 54A 49A 55A 56A row 4; 49A holds a farmhouse (building cells x 6-8, y 16-18). The test
half-track (903) is given pioneer stores here: a load of two minefields. The 'range' lane: 21A (x
0-4), 22A (x 5-9), 23A ...; Avery (1) is Ann's (US), Dorn (4) Bo's (DE).
"""
from __future__ import annotations

import json

import pytest

from engine.apply import apply
from engine.battlefield import mines
from engine.core import commands as C
from engine.core.content import EquipmentDef, ForceEntry
from engine.core.errors import RuleError
from engine.core.log import Ctx
from engine.legal import legal_commands
from engine.position import dump_position, load_position
from engine.turn.setup import SeatSpec, check_force, new_game
from engine.view import private_view, view
from tests.engine.test_vehicles import (
    at_work,
    card_of,
    fid_of,
    halftrack,
    panzer,
    sherman,
)

HALFTRACK = 903
LOAD = [["at", "at"], ["gp", "fake"]]
KIND_WORDS = ("anti-tank", "general-purpose", "general purpose", "mixed", "booby", "fake")


@pytest.fixture(scope="module")
def pcat(cat):
    """The fixture catalogue with pioneer stores on the test half-track and a mine detector."""
    ht = cat.vehicles["test-halftrack"].model_copy(update={
        "mine_load": 2, "special": ["Pioneer stores: two minefields, laid beside it with a MOVE."]})
    detector = EquipmentDef(id="mine-detector", name="Mine detector", kind="gear", vp=2, search=True)
    return cat.model_copy(update={"vehicles": {**cat.vehicles, "test-halftrack": ht},
                                  "equipment": {**cat.equipment, "mine-detector": detector}})


def kinds(events, kind):
    return [e for e in events if e.kind == kind]


def pioneers(pcat, load=LOAD, tile="42A", passengers=()):
    """Ann's half-track with its load in `tile` facing east, her rifleman Avery (1), Baker (2)
    on foot unless a passenger; Bo's Panzer far off in 56A."""
    seats = [SeatSpec(name="Ann", side="US", force=[ForceEntry(serial=1), ForceEntry(serial=2)],
                      vehicles=[halftrack(tile, facing="e", mines=load, passengers=list(passengers))]),
             SeatSpec(name="Bo", side="DE", force=[ForceEntry(serial=4)], vehicles=[panzer("56A")])]
    st, _ = new_game(pcat, "motor", seats, 1)
    return st


def on_move_card(st):
    """The half-track's own MOVE card ('Half-track rolls') in play, its license plate to act."""
    fid = fid_of(st, HALFTRACK)
    return at_work(st, fid, card_of(st, fid, owner=HALFTRACK, action="move"), "move")


def lay(st, tile, tokens, who=HALFTRACK, via="tag"):
    return apply(st, C.LayMinesCmd(seat=0, serial=who, tile=tile, tokens=tokens, via=via))


def public_words(events) -> str:
    return " ".join(e.text + json.dumps(e.data) for e in events if e.to is None).lower()


# ----------------------------------------------------------------------------- buying the load


def test_a_load_is_bought_at_setup_at_the_charts_price_of_a_square(pcat):
    # "All mines must be purchased": an anti-tank field (3 VP) and a fake (1 VP) in the load.
    sc = pcat.scenario("motor")
    men = [ForceEntry(serial=1)]
    bare = check_force(pcat, sc, "US", men, 2, vehicles=[halftrack("42A")])
    loaded = check_force(pcat, sc, "US", men, 2, vehicles=[halftrack("42A", mines=LOAD)])
    assert loaded - bare == pcat.equipment["mine-at"].vp + pcat.equipment["mine-fake"].vp
    st = pioneers(pcat)
    assert st.vehicles[HALFTRACK].mine_load == LOAD


def test_only_a_vehicle_whose_panel_gives_it_a_load_carries_mines_and_no_more_than_that(pcat):
    sc = pcat.scenario("motor")
    men = [ForceEntry(serial=1)]
    with pytest.raises(RuleError, match="Test Sherman carries no mines to lay"):
        check_force(pcat, sc, "US", men, 2, vehicles=[sherman("41A", mines=[["at", "at"]])])
    with pytest.raises(RuleError, match="load holds 2 minefields, not 3"):
        check_force(pcat, sc, "US", men, 2, vehicles=[halftrack("42A", mines=LOAD + [["gp", "gp"]])])
    with pytest.raises(RuleError, match="booby-trap tokens go only with"):
        check_force(pcat, sc, "US", men, 2, vehicles=[halftrack("42A", mines=[["booby", "at"]])])
    with pytest.raises(RuleError, match="two tokens, not 1"):
        check_force(pcat, sc, "US", men, 2, vehicles=[halftrack("42A", mines=[["at"]])])


# ----------------------------------------------------------------------------- laying in play


def test_a_vehicle_lays_a_minefield_of_its_load_face_down_in_a_square_beside_it(pcat):
    # The book lets mines go down mid-game when a vehicle carries them in its load: with its
    # MOVE the half-track in 42A lays the fake field of its load in 46A, the square below it.
    st = on_move_card(pioneers(pcat))
    st, ev = lay(st, "46A", ["fake", "gp"])
    assert [(m.tile, m.side, m.seat, m.tokens) for m in st.minefields] == [("46A", "US", 0, ["gp", "fake"])]
    assert st.vehicles[HALFTRACK].mine_load == [["at", "at"]]
    laid = kinds(ev, "mines_laid")
    assert len(laid) == 1 and laid[0].to is None and laid[0].data["tokens"] == 2
    told = kinds(ev, "mines_private")
    assert [e.to for e in told] == [0] and told[0].data["mine_kind"] == "fake"
    assert not any(w in public_words(ev) for w in KIND_WORDS)
    assert st.vehicles[HALFTRACK].tile == "42A", "laying is not driving"


def test_a_man_aboard_lays_them_with_his_own_move(pcat):
    # Brooks (2) rides in the half-track; his own MOVE card's dog tag lays the anti-tank field.
    st = pioneers(pcat, passengers=(2,))
    fid = st.soldiers[2].force
    st = at_work(st, fid, card_of(st, fid, owner=2, action="move"), "move")
    st, ev = lay(st, "43A", ["at", "at"], who=2)
    assert [(m.tile, m.tokens) for m in st.minefields] == [("43A", ["at", "at"])]
    assert "Pvt. Brooks (in the Test Half-track 903) lays 2 mine tokens" in kinds(ev, "mines_laid")[0].text


def test_a_field_laid_in_play_goes_off_like_any_other(pcat):
    # Laid mines are mines like any other: from 51A the half-track lays its anti-tank field in
    # 52A; Bo's Panzer rolls up into 52A from 56A and sets it off (five blast checks).
    from engine.vehicles import move as VM
    seats = [SeatSpec(name="Ann", side="US", force=[ForceEntry(serial=1)], vehicles=[halftrack("51A", mines=LOAD)]),
             SeatSpec(name="Bo", side="DE", force=[ForceEntry(serial=4)], vehicles=[panzer("56A", facing="n")])]
    st, _ = new_game(pcat, "motor", seats, 1)
    ctx = Ctx(st)
    mines.lay_in_play(ctx, HALFTRACK, "52A", ["at", "at"])
    VM.vmove(ctx, 902, 902, "52A")
    assert kinds(ctx.events, "mine")[0].data["mine_kind"] == "at"
    assert len(kinds(ctx.events, "vehicle_blast")[0].data["cards"]) == 5


@pytest.mark.parametrize("tile, tokens, why", [
    ("44A", ["at", "at"], "44A is not beside the Test Half-track 903's tile 42A"),
    ("46A", ["gp", "gp"], "holds no gp\\+gp minefield \\(it holds at\\+at, gp\\+fake\\)"),
    ("99Z", ["at", "at"], "there is no tile '?99Z'? on this map"),
])
def test_a_lay_that_the_rules_do_not_allow_is_refused_by_name_and_changes_nothing(pcat, tile, tokens, why):
    st = on_move_card(pioneers(pcat))
    before = st.model_dump_json()
    with pytest.raises(RuleError, match=why):
        lay(st, tile, tokens)
    assert st.model_dump_json() == before


def test_one_minefield_per_tile_and_none_from_an_empty_load(pcat):
    st = pioneers(pcat)
    st.minefields.append(mines.Minefield(tile="46A", side="DE", seat=1, tokens=["gp", "gp"]))
    assert mines.lay_problem(st, HALFTRACK, "46A", ["at", "at"]) == "46A already has a minefield: one per tile"
    st.changing_vehicle(HALFTRACK).mine_load = []
    assert mines.lay_problem(st, HALFTRACK, "43A", ["at", "at"]) == "the Test Half-track 903 has no mines in its load"
    assert "not aboard a vehicle" in mines.lay_problem(st, 1, "43A", ["at", "at"])


def test_a_load_goes_into_a_map_square_never_a_landmark(pcat):
    # Two tokens are a field in a square; a landmark takes four (Placement).
    seats = [SeatSpec(name="Ann", side="US", force=[ForceEntry(serial=1)], vehicles=[halftrack("34A", mines=LOAD)]),
             SeatSpec(name="Bo", side="DE")]
    st, _ = new_game(pcat, "mined-yard", seats, 1)
    assert "L9A is a landmark, which takes four tokens" in mines.lay_problem(st, HALFTRACK, "L9A", ["at", "at"])
    assert mines.lay_problem(st, HALFTRACK, "33A", ["at", "at"]) == "33A already has a minefield: one per tile"


def test_laying_is_listed_for_a_move_card_with_each_kind_into_each_free_square_beside_it(pcat):
    st = on_move_card(pioneers(pcat))
    cmds = [c for c in legal_commands(st, 0) if isinstance(c, C.LayMinesCmd) and c.serial == HALFTRACK]
    # 42A's neighbours on the motor map: 41A, 43A (lane), 45A, 46A, 47A (row below)
    assert {c.tile for c in cmds} == {"41A", "43A", "45A", "46A", "47A"}
    assert {tuple(c.tokens) for c in cmds} == {("at", "at"), ("fake", "gp")}
    assert C.parse_command(" ".join(cmds[0].words()), 0) == cmds[0]
    st.changing_vehicle(HALFTRACK).mine_load = []
    assert not [c for c in legal_commands(st, 0) if isinstance(c, C.LayMinesCmd)]


# ----------------------------------------------------------------------------- who sees the load


@pytest.mark.parametrize("tokens", [["at", "at"], ["gp", "gp"], ["at", "gp"], ["booby", "booby"], ["gp", "fake"]])
def test_the_load_and_what_it_lays_stay_with_the_owners_side(pcat, tokens):
    st = on_move_card(pioneers(pcat, load=[tokens]))
    kind = mines.kind_of(tokens, landmark=False)
    assert private_view(st, 0).mine_loads == {HALFTRACK: [tokens]}
    assert private_view(st, 1).mine_loads == {}
    assert view(st).mine is None and view(st, 1).mine.mine_loads == {}
    assert all("mine_load" not in v.model_dump() for v in [*view(st).vehicles, *view(st, 1).vehicles])
    st, ev = lay(st, "46A", tokens)
    public, theirs = view(st), view(st, 1)
    assert [(m.tile, m.side, m.tokens, m.kind) for m in public.minefields] == [("46A", "US", 2, None)]
    assert theirs.mine.minefields == [] and [m.kind for m in theirs.minefields] == [None]
    assert [(m.tile, m.kind) for m in view(st, 0).mine.minefields] == [("46A", kind)]
    assert not any(w in public_words(ev) for w in KIND_WORDS)
    assert all(e.to in (None, 0) for e in ev if e.kind.startswith("mines"))


def test_a_position_keeps_a_vehicles_load(pcat):
    st = pioneers(pcat)
    again, _ = load_position(pcat, dump_position(st))
    assert again.vehicles[HALFTRACK].mine_load == LOAD


# ----------------------------------------------------------------------------- clearing


def sweeper(position, fields, *, avery=(2, 2), kit=("mine-detector",), known=()):
    """The range with Bo's fields (tile -> tokens), Avery carrying a mine detector, his MOVE card
    in play (1-C4, a MOVE)."""
    st = position(soldiers=[{"serial": 1, "seat": 0, "at": list(avery), "facing": "e", "equipment": list(kit)},
                            {"serial": 4, "seat": 1, "at": [37, 2], "facing": "w"}],
                  minefields=[{"tile": t, "side": "DE", "seat": 1, "tokens": k} for t, k in fields.items()],
                  phase_cards=["S07", "S08", "S09"],
                  hands={0: ["1-P1", "1-C4", "1-C2"], 1: ["4-C3", "4-C4", "4-C2"]})
    st.mines = list(known)
    return st


PLANS = "@Ann\nplan 1-P1 1-C4 1-C2\n@Bo\nplan 4-C3 4-C4 4-C2\n"


@pytest.fixture
def dpos(pcat):
    def make(**kw):
        data = {"scenario": "range", "players": [{"name": "Ann", "side": "US"}, {"name": "Bo", "side": "DE"}],
                "seed": 1}
        data.update(kw)
        return load_position(pcat, data)[0]
    return make


def test_a_man_with_a_mine_detector_lifts_the_field_beside_him_without_setting_it_off(dpos, play):
    # "Mines remain in play unless removed by specialized ... Equipment": Avery in 21A sweeps
    # 22A with his MOVE and lifts Bo's mixed field. Nothing goes off; the table hears only that
    # two tokens were lifted, Ann that they made a mixed field. Then he walks through unharmed.
    st = sweeper(dpos, {"22A": ["at", "gp"]})
    st, ev = play(st, PLANS + "@Ann\ntag clearmines 1 22A")
    assert st.minefields == [] and not kinds(ev, "mine") and not kinds(ev, "blast_check")
    cleared = kinds(ev, "mines_cleared")[0]
    assert cleared.to is None and cleared.data["tokens"] == 2 and cleared.data["mine_kind"] is None
    lifted = kinds(ev, "mines_lifted")
    assert [e.to for e in lifted] == [0] and lifted[0].data["mine_kind"] == "mixed"
    assert not any(w in public_words(ev) for w in KIND_WORDS)


def test_lifting_mines_cannot_be_taken_back_once_his_side_has_read_them(dpos, play):
    from engine.undo import undoable
    st = sweeper(dpos, {"22A": ["at", "gp"]})
    st, _ = play(st, PLANS)
    after, ev = apply(st, C.ClearMinesCmd(seat=0, serial=1, tile="22A", via="tag"))
    assert not undoable(st, after, ev)


def test_he_lifts_a_known_minefield_in_his_own_tile(dpos):
    st = sweeper(dpos, {}, avery=(7, 2), known=["22A"])
    ctx = Ctx(st)
    mines.clear(ctx, 1, "22A")
    assert st.mines == [] and kinds(ctx.events, "mines_cleared")[0].data["mine_kind"] == "gp"


@pytest.mark.parametrize("kit, avery, tile, why", [
    ((), (2, 2), "22A", "carries no mine detector"),
    (("mine-detector",), (2, 2), "23A", "23A is neither Pvt. Avery's tile 21A nor beside it"),
    (("mine-detector",), (2, 2), "21A", "there are no mine tokens in 21A"),
])
def test_a_clearing_nobody_able_can_do_is_refused_by_name_and_changes_nothing(dpos, play, kit, avery, tile, why):
    st = sweeper(dpos, {"22A": ["gp", "gp"], "23A": ["at", "at"]}, kit=kit, avery=avery)
    st, _ = play(st, PLANS)
    before = st.model_dump_json()
    with pytest.raises(RuleError, match=why):
        apply(st, C.ClearMinesCmd(seat=0, serial=1, tile=tile, via="tag"))
    assert st.model_dump_json() == before


def test_clearing_is_listed_only_for_a_man_with_a_detector_beside_a_field(dpos, play):
    st = sweeper(dpos, {"22A": ["gp", "gp"], "24A": ["at", "at"]})
    st, _ = play(st, PLANS)
    cmds = [c for c in legal_commands(st, 0) if isinstance(c, C.ClearMinesCmd)]
    assert {(c.serial, c.tile) for c in cmds} == {(1, "22A")}
    st = sweeper(dpos, {"22A": ["gp", "gp"]}, kit=())
    st, _ = play(st, PLANS)
    assert not [c for c in legal_commands(st, 0) if isinstance(c, C.ClearMinesCmd)]


# ----------------------------------------------------------------------------- rooms


def farm(position, tokens, avery=(7, 13), decks=None):
    """Avery in 50A, just north of the farmhouse tile 49A (a building: its room); Bo's field in 49A."""
    return position(scenario="motor", soldiers=[{"serial": 1, "seat": 0, "at": list(avery), "facing": "s"},
                                                {"serial": 4, "seat": 1, "at": [17, 2], "facing": "w"}],
                    minefields=[{"tile": "49A", "side": "DE", "seat": 1, "tokens": tokens}],
                    phase_cards=["S07", "S08", "S09"], decks=decks or {0: ["1-C1", "1-C3"]},
                    hands={0: ["1-P1", "1-C4", "1-C2"], 1: ["4-C3", "4-C4", "4-C2"]})


def test_a_fake_in_a_room_has_no_detonative_effect(position, play):
    # "Fake mines placed in rooms have no detonative effect": Avery walks into the farmhouse
    # tile; the tokens are turned up, fake, and no blast check is drawn (1-C1 would have hit).
    st = farm(position, ["gp", "fake"])
    st, ev = play(st, PLANS + "@Ann\ntag move 1 7,16")
    went = kinds(ev, "mine")
    assert len(went) == 1 and went[0].data["mine_kind"] == "fake" and went[0].data["room"] is True
    assert not kinds(ev, "blast_check") and st.soldiers[1].at == (7, 16) and not st.soldiers[1].pinned
    assert st.minefields[0].revealed and len(st.minefields) == 1


def test_a_fake_in_a_room_once_found_stays_silent(position, play):
    st = farm(position, ["gp", "fake"], avery=(7, 16))
    st.minefields[0].revealed = True
    st, ev = play(st, PLANS + "@Ann\ntag move 1 7,12")
    assert not kinds(ev, "mine") and st.soldiers[1].at == (7, 12)


def test_a_booby_trap_in_a_room_goes_off_coming_in_or_going_out_only(position, play):
    # The tile stands for its room: in or out of 49A trips it, moving about inside does not.
    for start, to, goes_off in (((7, 13), "7,16", True), ((7, 16), "7,12", True), ((7, 16), "8,17", False)):
        st = farm(position, ["booby", "booby"], avery=start, decks={0: ["1-C3"]})
        st, ev = play(st, PLANS + f"@Ann\ntag move 1 {to}")
        assert bool(kinds(ev, "mine")) == goes_off, (start, to)
        if goes_off:
            assert "booby trap in the room" in kinds(ev, "mine")[0].text and len(kinds(ev, "blast_check")) == 1


def test_a_vehicle_never_sets_off_a_fake_in_a_room(pcat):
    st = pioneers(pcat)
    st.minefields.append(mines.Minefield(tile="49A", side="DE", seat=1, tokens=["gp", "fake"]))
    ctx = Ctx(st)
    assert mines.vehicle_enters(ctx, HALFTRACK, "49A") is False and not kinds(ctx.events, "mine")


def test_rooms_are_the_tiles_with_a_building(cat):
    from engine.core.board import board_for
    sc = cat.scenario("motor")
    board = board_for("m", sc.map, {t: cat.tiles[t] for row in sc.map for t in row})
    assert [t for row in sc.map for t in row if mines.has_room(board, t)] == ["49A"]
