"""Mines (Hell on Wheels, Mines; core manual, Land Mines): engine/battlefield/mines.py. Decks are stacked and
the cards' boxes quoted; rulings in docs/battlefield.md, "Mines".

The 'range' lane: 21A (x 0-4), 22A (x 5-9, a low hedge), 23A (x 10-14) ... 28A, five inches deep.
Avery (1), Baker (2) and Cole (3) are Ann's (US); Dorn (4) is Bo's (DE). Blast boxes used:
1-C3, 1-P3, 2-C3, 2-P1, 2-P3, 3-C3, 3-P1, 3-P3 read Miss; 1-C1 reads Hit; damage 1-C3 reads Pin.
"""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from engine.battlefield import mines
from engine.core.content import ForceEntry, MinefieldDef, VehicleEntry
from engine.core.errors import RuleError
from engine.core.log import Ctx
from engine.core.state import Minefield
from engine.turn.setup import SeatSpec, check_force, new_game
from engine.vehicles import move as VM
from engine.view import view

MOVES = dict(phase_cards=["S07", "S08", "S09"],
             hands={0: ["1-P1", "1-C4", "1-C2"], 1: ["4-C3", "4-C4", "4-C2"]})
PLANS = "@Ann\nplan 1-P1 1-C4 1-C2\n@Bo\nplan 4-C3 4-C4 4-C2\n"
MISSES = ["1-C3", "1-P3", "2-C3", "2-P1", "2-P3", "3-C3", "3-P1", "3-P3"]  # blast boxes reading Miss


def kinds(events_, kind):
    return [e for e in events_ if e.kind == kind]


def checks_on(events_, serial):
    return [e for e in events_ if e.kind == "blast_check" and e.data.get("serial") == serial]


def lane(position, deck, fields, *, avery=(7, 2), baker=None, cole=(22, 2), **more):
    """The range with Bo's minefields (tile -> tokens); Avery about to move, Dorn far off."""
    soldiers = [{"serial": 1, "seat": 0, "at": list(avery), "facing": "e"},
                {"serial": 3, "seat": 0, "at": list(cole), "facing": "e"},
                {"serial": 4, "seat": 1, "at": [37, 2], "facing": "w"}]
    if baker:
        soldiers.insert(1, {"serial": 2, "seat": 0, "at": list(baker), "facing": "e"})
    else:
        soldiers.insert(1, {"serial": 2, "seat": 0, "at": [17, 4], "facing": "e"})
    return position(soldiers=soldiers, decks={0: deck},
                    minefields=[{"tile": t, "side": "DE", "seat": 1, "tokens": list(k)} for t, k in fields.items()],
                    **MOVES, **more)


# ----------------------------------------------------------------------------- the kinds the tokens make


@pytest.mark.parametrize("tokens, kind", [
    (["at", "at"], "at"), (["gp", "gp"], "gp"), (["at", "gp"], "mixed"), (["booby", "booby"], "booby"),
    (["fake", "fake"], "fake"), (["at", "fake"], "fake"), (["gp", "fake"], "fake"), (["booby", "fake"], "fake"),
    (["booby", "gp"], None), (["gp"], None),
])
def test_two_tokens_in_a_square_make_one_kind(tokens, kind):
    assert mines.kind_of(tokens, landmark=False) == kind


@pytest.mark.parametrize("tokens, kind", [
    (["at"] * 4, "at"), (["gp"] * 4, "gp"), (["at", "gp", "gp", "gp"], "mixed"), (["at", "at", "at", "gp"], "mixed"),
    (["at", "gp", "at", "gp"], "mixed"), (["at", "at", "at", "fake"], "fake"), (["gp", "gp", "gp", "fake"], "fake"),
    (["booby"] * 4, "booby"),
    (["at", "at", "at"], None), (["gp", "gp"], None), (["fake"], None),  # three or fewer: no effect
])
def test_four_tokens_in_a_landmark_make_one_kind_and_three_do_nothing(tokens, kind):
    assert mines.kind_of(tokens, landmark=True) == kind


def test_a_fake_minefield_in_a_landmark_costs_2_vp(cat):
    # The book's example: any four tokens in a landmark, one of them fake, cost 2 VP (a fake
    # mine's 1 VP, doubled in a landmark).
    sc = cat.scenario("mined-yard")
    assert mines.check_fields(cat, sc, "DE", [MinefieldDef(tile="L9A", tokens=["at", "gp", "fake", "gp"])]) == 2
    assert mines.check_fields(cat, sc, "DE", [MinefieldDef(tile="33A", tokens=["gp", "fake"])]) == 1
    prices = {k: mines.check_fields(cat, sc, "DE", [MinefieldDef(tile="36A", tokens=t)])
              for k, t in {"at": ["at", "at"], "gp": ["gp", "gp"], "mixed": ["at", "gp"], "booby": ["booby"] * 2}.items()}
    assert prices == {k: cat.equipment[f"mine-{k}"].vp for k in prices}
    assert mines.check_fields(cat, sc, "DE", [MinefieldDef(tile="L9A", tokens=["gp"] * 4)]) == 2 * prices["gp"]


def test_a_minefield_needs_two_tokens_in_a_square_four_in_a_landmark_and_one_per_tile(cat):
    sc = cat.scenario("mined-yard")
    with pytest.raises(RuleError, match="four tokens|takes 4 tokens"):
        mines.check_fields(cat, sc, "DE", [MinefieldDef(tile="L9A", tokens=["at", "at", "at"])])
    with pytest.raises(RuleError, match="takes 2 tokens"):
        mines.check_fields(cat, sc, "DE", [MinefieldDef(tile="33A", tokens=["at"])])
    with pytest.raises(RuleError, match="one per tile"):
        mines.check_fields(cat, sc, "DE", [MinefieldDef(tile="33A", tokens=["at", "at"]),
                                           MinefieldDef(tile="33A", tokens=["gp", "gp"])])
    with pytest.raises(RuleError, match="booby"):
        mines.check_fields(cat, sc, "DE", [MinefieldDef(tile="33A", tokens=["booby", "at"])])
    with pytest.raises(RuleError, match="no tile"):
        mines.check_fields(cat, sc, "DE", [MinefieldDef(tile="99Z", tokens=["at", "at"])])


def test_mines_count_against_the_budget(cat):
    sc = cat.scenario("mined-yard")
    men = [ForceEntry(serial=4), ForceEntry(serial=5)]
    bare = check_force(cat, sc, "DE", men, 2)
    field = [MinefieldDef(tile="36A", tokens=["at", "gp"])]
    assert check_force(cat, sc, "DE", men, 2, minefields=field) == bare + cat.equipment["mine-mixed"].vp


# ----------------------------------------------------------------------------- who may buy them


def _seats(us_fields=None, de_fields=None):
    return [SeatSpec(name="Ann", side="US", minefields=us_fields), SeatSpec(name="Bo", side="DE", minefields=de_fields)]


def test_mines_are_bought_only_with_hold_orders_or_a_scenario_rule(cat):
    # In the mined yard the Germans always draw Hold orders and the Americans never do.
    field = [MinefieldDef(tile="32A", tokens=["at", "at"])]
    st, ev = new_game(cat, "mined-yard", _seats(de_fields=field + [MinefieldDef(tile="36A", tokens=["gp", "gp"])]),
                      seed=1)
    assert st.seats[1].order == "T-HOLD"
    assert [(m.tile, m.tokens) for m in st.minefields] == [("32A", ["at", "at"]), ("36A", ["gp", "gp"])]
    with pytest.raises(RuleError, match="Hold orders"):
        new_game(cat, "mined-yard", _seats(us_fields=field), seed=1)
    allowed = cat.scenario("mined-yard").model_copy(update={"mines_allowed": True})
    cat2 = cat.model_copy(update={"scenarios": {**cat.scenarios, "mined-yard": allowed}})
    st, _ = new_game(cat2, "mined-yard", _seats(us_fields=field), seed=1)
    assert any(m.tile == "32A" and m.side == "US" for m in st.minefields)


def test_a_scenarios_preset_mines_go_to_the_sides_first_player(cat):
    st, ev = new_game(cat, "mined-yard", _seats(), seed=2)
    assert [(m.tile, m.side, m.seat) for m in st.minefields] == [("33A", "DE", 1), ("37A", "DE", 1)]
    public = [e for e in ev if e.to is None and e.kind == "mines_laid"]
    assert [(e.data["tile"], e.data["tokens"]) for e in public] == [("33A", 2), ("37A", 2)]
    assert all("gp" not in json.dumps(e.data) and "fake" not in e.text for e in public)
    told = [e for e in ev if e.kind == "mines_private"]
    assert {e.to for e in told} == {1} and told[1].data["mine_kind"] == "fake"


def test_a_vehicle_whose_notes_lay_mines_lets_its_player_buy_them(cat):
    # Our reading of "the Vehicle/Gun notes allow it": a note that speaks of laying mines.
    from engine.battlefield.mines import may_lay
    sc = cat.scenario("mined-yard")
    orders = {o: cat.orders[o] for o in cat.orders}
    layer = cat.vehicles["test-halftrack"].model_copy(update={"special": ["It carries and lays mines."]})
    assert may_lay(orders, sc, "T-GENERAL", []) is not None
    assert may_lay(orders, sc, "T-GENERAL", [layer]) is None
    assert may_lay(orders, sc, "T-HOLD", []) is None


# ----------------------------------------------------------------------------- soldiers set them off


def test_general_purpose_mines_make_3_blast_checks_on_every_man_in_the_tile(position, play):
    # Avery walks out of 22A (leaving sets it off); Baker stands in 22A too. Both take three
    # blast checks off Ann's deck, all Misses; Avery goes on.
    st = lane(position, MISSES, {"22A": ["gp", "gp"]}, baker=(6, 4))
    st, ev = play(st, PLANS + "@Ann\ntag move 1 11,2")
    assert kinds(ev, "mine")[0].data["mine_kind"] == "gp"
    assert len(checks_on(ev, 1)) == 3 and len(checks_on(ev, 2)) == 3
    assert st.soldiers[1].at == (11, 2)
    assert st.minefields[0].revealed and st.minefields[0].tile == "22A", "general-purpose mines stay"


def test_mixed_mines_make_8_blast_checks(position, play):
    st = lane(position, MISSES, {"22A": ["at", "gp"]})
    st, ev = play(st, PLANS + "@Ann\ntag move 1 11,2")
    assert kinds(ev, "mine")[0].data["mine_kind"] == "mixed"
    assert len(checks_on(ev, 1)) == 8 and st.soldiers[1].at == (11, 2)


def test_a_booby_trap_makes_1_blast_check_on_the_man_who_trips_it_and_is_gone(position, play):
    # Baker stands in the same room; only Avery, who set it off, is checked. Then it is gone.
    st = lane(position, MISSES, {"22A": ["booby", "booby"]}, baker=(6, 4))
    st, ev = play(st, PLANS + "@Ann\ntag move 1 11,2")
    assert kinds(ev, "mine")[0].data["mine_kind"] == "booby"
    assert len(checks_on(ev, 1)) == 1 and not checks_on(ev, 2)
    assert st.minefields == []


def test_a_fake_minefield_makes_1_blast_check_on_every_man_in_the_tile_and_stays(position, play):
    st = lane(position, MISSES, {"22A": ["gp", "fake"]}, baker=(6, 4))
    st, ev = play(st, PLANS + "@Ann\ntag move 1 11,2")
    assert kinds(ev, "mine")[0].data["mine_kind"] == "fake"
    assert len(checks_on(ev, 1)) == 1 and len(checks_on(ev, 2)) == 1
    assert len(st.minefields) == 1


def test_a_soldier_never_sets_off_anti_tank_mines(position, play):
    for start, to in (((2, 2), "7,2"), ((7, 2), "8,3"), ((7, 2), "11,2")):  # into, within, out of 22A
        st = lane(position, MISSES, {"22A": ["at", "at"]}, avery=start)
        st, ev = play(st, PLANS + f"@Ann\ntag move 1 {to}")
        assert st.soldiers[1].at == tuple(map(int, to.split(",")))
        assert not kinds(ev, "mine") and not kinds(ev, "blast_check") and not st.minefields[0].revealed


def test_stepping_into_a_minefield_sets_it_off_there(position, play):
    # Avery walks from 21A into mined 22A. As he steps in the mines go off: 1-C1's blast box
    # reads Hit and his damage check 1-C3 reads Pin. He stops on the first cell of 22A, pinned;
    # the MOVE is spent. (The core manual's rule checked only a move's start.)
    st = lane(position, ["1-C1", "1-C3", *MISSES], {"22A": ["gp", "gp"]}, avery=(2, 2))
    st, ev = play(st, PLANS + "@Ann\ntag move 1 8,2")
    avery = st.soldiers[1]
    assert avery.pinned and avery.at == (5, 2) and st.board.tile_at(avery.at) == "22A"
    assert kinds(ev, "mine_stops") and not kinds(ev, "move")


def test_walking_through_a_minefield_unhurt_goes_on_and_it_goes_off_once(position, play):
    st = lane(position, MISSES, {"22A": ["gp", "gp"]}, avery=(4, 2))
    st, ev = play(st, PLANS + "@Ann\ntag move 1 10,2")
    assert st.soldiers[1].at == (10, 2)
    assert len(kinds(ev, "mine")) == 1 and len(checks_on(ev, 1)) == 3


def test_moving_within_a_minefield_and_turning_to_face_set_it_off(position, play):
    st = lane(position, MISSES, {"22A": ["gp", "gp"]})
    st, ev = play(st, PLANS + "@Ann\ntag move 1 8,3")  # within 22A
    assert len(kinds(ev, "mine")) == 1 and st.soldiers[1].at == (8, 3)
    st = lane(position, MISSES, {"22A": ["gp", "gp"]})
    st, ev = play(st, PLANS + "@Ann\ntag face 1 s")  # turning to face is moving within the tile
    assert len(kinds(ev, "mine")) == 1 and st.soldiers[1].facing == "s"


def test_a_mine_that_pins_a_man_turning_stops_the_turn(position, play):
    st = lane(position, ["1-C1", "1-C3", *MISSES], {"22A": ["gp", "gp"]})
    st, ev = play(st, PLANS + "@Ann\ntag face 1 s")
    assert st.soldiers[1].pinned and st.soldiers[1].facing == "e"
    assert kinds(ev, "mine_stops") and not kinds(ev, "face")


def test_a_booby_trap_goes_off_coming_in_or_going_out_never_turning(position, play):
    for start, line, goes_off in (((7, 2), "tag face 1 s", False), ((7, 2), "tag move 1 8,3", False),
                                  ((7, 2), "tag move 1 12,3", True), ((2, 2), "tag move 1 6,2", True)):
        st = lane(position, MISSES, {"22A": ["booby", "booby"]}, avery=start)
        st, ev = play(st, PLANS + "@Ann\n" + line)
        assert bool(kinds(ev, "mine")) == goes_off, line
        assert (st.minefields == []) == goes_off, line


def test_leaving_a_minefield_the_mine_that_pins_him_keeps_him_where_he_was(position, play):
    st = lane(position, ["1-C1", "1-C3", *MISSES], {"22A": ["gp", "gp"]})
    st, ev = play(st, PLANS + "@Ann\ntag move 1 11,2")
    assert st.soldiers[1].pinned and st.soldiers[1].at == (7, 2) and not kinds(ev, "move")


def test_the_owners_own_men_set_off_their_mines_too(position, play):
    # Mines know no sides: Dorn walks out of his own side's field.
    st = position(soldiers=[{"serial": 1, "seat": 0, "at": [2, 2], "facing": "e"},
                            {"serial": 4, "seat": 1, "at": [37, 2], "facing": "w"}],
                  minefields=[{"tile": "28A", "side": "DE", "tokens": ["gp", "gp"]}],
                  decks={1: ["4-C3", "4-P1", "4-P3"]}, phase_cards=["S07", "S08", "S09"],
                  hands={0: ["1-P1", "1-C4", "1-C2"], 1: ["4-C1", "4-C4", "4-C2"]})
    st, ev = play(st, "@Ann\nplan 1-P1 1-C4 1-C2\n@Bo\nplan 4-C1 4-C4 4-C2\n@Ann\npass\n@Bo\ntag move 4 33,2")
    assert kinds(ev, "mine") and len(checks_on(ev, 4)) == 3


def test_the_scenarios_known_mines_are_public_general_purpose_fields(position, play):
    # ScenarioDef.mines (the core manual's land mines) are known general-purpose fields of nobody.
    st = lane(position, MISSES, {})
    st.mines = ["22A"]
    assert view(st).mines == ["22A"] and view(st).minefields == []
    st, ev = play(st, PLANS + "@Ann\ntag move 1 11,2")
    assert kinds(ev, "mine")[0].data == {"tile": "22A", "mine_kind": "gp", "serial": 1, "plate": None,
                                         "owner": None}
    assert len(checks_on(ev, 1)) == 3


# ----------------------------------------------------------------------------- what each side sees


def test_tokens_lie_face_down_to_the_table_and_face_up_to_their_side(position):
    st = lane(position, MISSES, {"22A": ["at", "gp"], "23A": ["fake", "gp"]})
    public = view(st)
    assert [(m.tile, m.side, m.tokens, m.kind) for m in public.minefields] == [("22A", "DE", 2, None),
                                                                                ("23A", "DE", 2, None)]
    assert view(st, 0).mine.minefields == []
    own = view(st, 1).mine.minefields
    assert [(m.tile, m.tokens, m.kind) for m in own] == [("22A", ["at", "gp"], "mixed"), ("23A", ["fake", "gp"], "fake")]


def test_a_minefield_that_went_off_shows_its_kind_to_everyone(position, play):
    st = lane(position, MISSES, {"22A": ["gp", "gp"]})
    st, _ = play(st, PLANS + "@Ann\ntag move 1 11,2")
    assert view(st).minefields[0].kind == "gp"


def test_a_position_keeps_its_minefields_through_a_round_trip(cat, position):
    from engine.position import dump_position, load_position
    st = lane(position, [], {"22A": ["booby", "booby"]})
    st.minefields[0].revealed = True
    again, _ = load_position(cat, dump_position(st))
    assert again.minefields == st.minefields


# ----------------------------------------------------------------------------- vehicles


SHERMAN, PANZER = 901, 902
SHERMAN_CREW = {"commander": 60, "gunner": 61, "loader": 62, "driver": 63, "co_driver": 64}
PANZER_CREW = {"commander": 70, "gunner": 71, "loader": 72, "driver": 73, "co_driver": 74}


def motor(cat, fields, panzer_at="44A", facing="w"):
    """The motor pool with a Sherman (US) at 41A and a Panzer (DE) facing west at 44A; Ann's mines."""
    seats = [SeatSpec(name="Ann", side="US", force=[ForceEntry(serial=1)],
                      vehicles=[VehicleEntry(vehicle="test-sherman", crew=SHERMAN_CREW, tile="41A", facing="e",
                                             ammo={"AP": 2, "HE": 1})]),
             SeatSpec(name="Bo", side="DE", force=[ForceEntry(serial=4)],
                      vehicles=[VehicleEntry(vehicle="test-panzer", crew=PANZER_CREW, tile=panzer_at, facing=facing)])]
    st, _ = new_game(cat, "motor", seats, 1)
    for tile, tokens in fields.items():
        st.minefields.append(Minefield(tile=tile, side="US", seat=0, tokens=list(tokens)))
    return st


def stack(st, fid, *top):
    f = st.forces[fid]
    for c in top:
        for pile in (f.deck, f.hand, f.discard):
            if c in pile:
                pile.remove(c)
                break
    f.deck[:0] = list(top)


def test_an_anti_tank_mine_makes_5_blast_checks_its_first_damage_on_the_tracks(cat):
    # The Panzer rolls from 44A into 43A, sown with Ann's anti-tank mines. Five blast checks off
    # its own deck: 902-V5 (2 Hits), 902-V2 (Hit), 902-V3 (Hit), 902-V1 and 902-V8 (Miss) = 4
    # against its lowest armour 2: two damage checks. The first lands on the tracks whatever the
    # card says of the place: 902-V9, Wreck. The wrecked tracks stop it in 43A.
    st = motor(cat, {"43A": ["at", "at"]})
    fid = st.vehicles[PANZER].force
    stack(st, fid, "902-V5", "902-V2", "902-V3", "902-V1", "902-V8", "902-V9", "902-V1")
    ctx = Ctx(st)
    VM.vmove(ctx, PANZER, PANZER, "43A")
    ev = ctx.events
    assert kinds(ev, "mine")[0].data["mine_kind"] == "at"
    blast = kinds(ev, "vehicle_blast")[0].data
    assert len(blast["cards"]) == 5 and blast["hits"] == 4 and blast["armour"] == 2 and blast["damage"] == 2
    first = kinds(ev, "vehicle_damage")[0].data
    assert first["location"] == "track" and first["result"] == "Wreck"
    assert st.vehicles[PANZER].damage["track"] == ["wreck"] and st.vehicles[PANZER].tile == "43A"
    assert kinds(ev, "mine_stops")


def test_general_purpose_mines_put_all_3_checks_on_a_vehicle(cat):
    st = motor(cat, {"43A": ["gp", "gp"]})
    ctx = Ctx(st)
    VM.vmove(ctx, PANZER, PANZER, "43A")
    assert len(kinds(ctx.events, "vehicle_blast")[0].data["cards"]) == 3
    assert not kinds(ctx.events, "blast_check"), "no soldier is checked when a vehicle sets it off"


def test_a_vehicle_never_sets_off_a_booby_trap(cat):
    st = motor(cat, {"43A": ["booby", "booby"]})
    ctx = Ctx(st)
    VM.vmove(ctx, PANZER, PANZER, "43A")
    assert not kinds(ctx.events, "mine") and len(st.minefields) == 1 and st.vehicles[PANZER].tile == "43A"


def test_a_hull_turn_sets_mines_off_and_a_turret_turn_does_not(cat):
    st = motor(cat, {"44A": ["at", "at"]})
    ctx = Ctx(st)
    VM.turret(ctx, PANZER, PANZER, "n")
    assert not kinds(ctx.events, "mine")
    VM.vturn(ctx, PANZER, PANZER, "n")
    assert kinds(ctx.events, "mine") and len(kinds(ctx.events, "vehicle_blast")[0].data["cards"]) == 5


def test_a_vehicle_leaving_a_minefield_sets_it_off_before_it_goes(cat):
    st = motor(cat, {"44A": ["gp", "gp"]})
    ctx = Ctx(st)
    VM.vmove(ctx, PANZER, PANZER, "43A")
    kinds_ = [e.kind for e in ctx.events]
    assert kinds_.index("mine") < kinds_.index("vmove")
    assert kinds(ctx.events, "mine")[0].data["tile"] == "44A"


# ----------------------------------------------------------------------------- nothing leaks


KIND_WORDS = {"at": "anti-tank", "gp": "general-purpose", "mixed": "mixed", "booby": "booby", "fake": "fake"}


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(hs.lists(hs.tuples(hs.sampled_from(["21A", "22A", "23A", "24A", "25A", "26A", "27A", "28A"]),
                          hs.lists(hs.sampled_from(["at", "gp", "fake", "booby"]), min_size=2, max_size=2)),
                min_size=1, max_size=4, unique_by=lambda f: f[0]),
       hs.integers(0, 10_000))
def test_no_mine_kind_reaches_the_other_side_or_the_table_before_it_goes_off(cat, fields, seed):
    from engine.agent import RandomAgent
    from engine.apply import apply
    from engine.position import load_position
    from tests.engine.conftest import two_players
    data = {"scenario": "range", "players": two_players(), "seed": seed,
            "soldiers": [{"serial": 1, "seat": 0, "at": [2, 2], "facing": "e"},
                         {"serial": 2, "seat": 0, "at": [2, 4], "facing": "e"},
                         {"serial": 4, "seat": 1, "at": [37, 2], "facing": "w"},
                         {"serial": 5, "seat": 1, "at": [37, 4], "facing": "w"}],
            "minefields": [{"tile": t, "side": ("DE", "US")[i % 2], "seat": 1 - i % 2, "tokens": k}
                           for i, (t, k) in enumerate(fields)]}
    st, _ = load_position(cat, data)
    agent = RandomAgent(seed)

    def hidden_words(state):
        """Words that would give away a field still face down (minus those already public)."""
        shown = {mines.kind_of_field(state, m) for m in state.minefields if m.revealed}
        return {KIND_WORDS[k] for m in state.minefields if not m.revealed
                for k in [mines.kind_of_field(state, m)] if k and k not in shown}

    def check(state, events):
        public = view(state)
        for m in public.minefields:
            field = next(f for f in state.minefields if f.tile == m.tile)
            assert m.kind is None or field.revealed
        for seat in (0, 1):
            own = {m.tile for m in view(state, seat).mine.minefields}
            assert own == {m.tile for m in state.minefields if m.side == state.seats[seat].side}
        for e in events:
            if e.to is not None:
                continue
            assert "tokens" not in e.data or isinstance(e.data["tokens"], int)
            if e.kind == "mine":
                continue  # it went off: its kind is public now
            words = hidden_words(state)
            assert not any(w in e.text.lower() for w in words), (e.kind, e.text)

    check(st, [])
    for _ in range(120):
        if st.step == "over":
            break
        st, ev = apply(st, agent.choose(st, agent.seat_to_act(st)))
        check(st, ev)


# ----------------------------------------------------------------------------- the old land-mine cases
# (moved from tests/engine/test_hazards.py; the scenario's mined tile is now a known general-purpose
# field: three checks instead of one, and entering or turning sets it off too)


def test_a_mine_that_kills_him_leaves_him_where_he_fell_and_nobody_scores(position, play):
    # Wounded Avery leaves mined 22A: 1-C1 Hit, damage check 1-C2 Wound: killed in 22A.
    st = lane(position, ["1-C1", "1-C2", *MISSES], {})
    st.mines = ["22A"]
    st.changing(1).wounded = True
    st, ev = play(st, PLANS + "@Ann\ntag move 1 11,2")
    assert st.soldiers[1].status == "dead" and not kinds(ev, "move")
    assert st.side_vp("DE") == 0 and st.side_vp("US") == 0, "nobody scores a man the mines kill"


def test_a_wound_from_the_mine_does_not_stop_him(position, play):
    # 1-C1 Hit; damage check 1-C2 Wound; then two Misses: he turns his card and carries on.
    st = lane(position, ["1-C1", "1-C2", *MISSES], {})
    st.mines = ["22A"]
    st, ev = play(st, PLANS + "@Ann\ntag move 1 11,2")
    assert st.soldiers[1].wounded and st.soldiers[1].at == (11, 2)


def test_a_charge_out_of_a_minefield_sets_it_off_first(position, play):
    # Dorn stands 4" away; Avery charges from mined 22A and the mine pins him first.
    st = position(soldiers=[{"serial": 1, "seat": 0, "at": [7, 2], "facing": "e"},
                            {"serial": 4, "seat": 1, "at": [11, 2], "facing": "w", "spotted": True}],
                  decks={0: ["1-C1", "1-C3", "1-P3", "1-C4"]}, **MOVES)
    st.mines = ["22A"]
    st, ev = play(st, PLANS + "@Ann\ntag charge 1 4")
    assert kinds(ev, "mine") and not kinds(ev, "charge")
    assert st.soldiers[1].at == (7, 2) and st.soldiers[1].pinned


def test_a_medic_saves_a_man_the_mine_kills_but_he_does_not_move(position, play):
    # Wounded Avery sets off the mine (1-C1 Hit, 1-C2 Wound: killed); Hale runs to him and
    # draws 1-C3, Avery's own card: he lives, wounded, where he was.
    st = position(soldiers=[{"serial": 1, "seat": 0, "at": [7, 2], "facing": "e", "wounded": True},
                            {"serial": 30, "seat": 0, "at": [3, 2], "facing": "e"},
                            {"serial": 4, "seat": 1, "at": [37, 2], "facing": "w"}],
                  decks={0: ["1-C1", "1-C2", "1-C3", "30-C1", "30-C3", "1-P3"]}, **MOVES)
    st.mines = ["22A"]
    st, ev = play(st, PLANS + "@Ann\ntag move 1 11,2")
    assert kinds(ev, "medic_save")
    assert st.soldiers[1].status == "board" and st.soldiers[1].at == (7, 2)


# ----------------------------------------------------------------------------- random play


def test_random_games_in_a_mined_motor_pool_raise_nothing_and_set_mines_off(cat):
    # Both sides' presets sow every kind of field around a Sherman and a Panzer; random agents
    # play the scenario through with 2 and 4 players.
    from engine.agent import RandomAgent
    from engine.apply import apply
    seen: set[str] = set()
    for players in (2, 4):
        for seed in range(8):
            seats = [SeatSpec(name=f"P{i + 1}", side=("US", "DE")[i % 2]) for i in range(players)]
            st, _ = new_game(cat, "mined-motor", seats, seed)
            agent = RandomAgent(seed)
            for _ in range(5000):
                if st.step == "over":
                    break
                st, ev = apply(st, agent.choose(st, agent.seat_to_act(st)))
                seen.update(e.kind for e in ev)
                seen.update(f"{e.kind}:{e.data.get('mine_kind')}" for e in ev if e.kind == "mine")
            assert st.step == "over", (players, seed)
    assert "mine" in seen, seen


def test_stepping_off_the_board_out_of_a_minefield_sets_it_off_first(position, play):
    # The farmyard's exit B is 34A's north edge. Avery stands in 34A and steps off there. A booby
    # trap goes off as he sets out: 1-C3 reads Miss and he is gone. A fake field: 1-C1 Hit, his
    # damage check 1-C3 Pin, and he stays where he stood.
    for tokens, deck, gone in ((["booby", "booby"], ["1-C3"], True), (["gp", "fake"], ["1-C1", "1-C3"], False)):
        st = position(scenario="yard", phase_cards=["S07", "S08", "S09"],
                      hands={0: ["1-P1", "1-C4", "1-C2"], 1: ["4-C1", "4-P1", "4-C4"]},
                      soldiers=[{"serial": 1, "seat": 0, "at": [17, 1]}, {"serial": 4, "seat": 1, "at": [27, 7]}],
                      decks={0: deck}, minefields=[{"tile": "34A", "side": "DE", "tokens": tokens}])
        st, ev = play(st, "@Ann\nplan 1-P1 1-C4 1-C2\n@Bo\nplan 4-C1 4-C4 4-P1\n@Ann\ntag move 1 exit B")
        assert kinds(ev, "mine")
        assert (st.soldiers[1].status == "exited") == gone
        if not gone:
            assert st.soldiers[1].at == (17, 1) and st.soldiers[1].pinned and not kinds(ev, "exit")
