"""A plate per vehicle, not per type (Hell on Wheels: each vehicle has its own panel, its own
Action Deck of vehicle cards, team cards and crew cards, and its own license plate; docs/vehicles.md,
Plates). Two Shermans in one game, as the shipped scenario 'A Pair of Shermans at Vautrin' fields
them: the first keeps the catalogue's plate 601, the second is 1601; each has its own deck, crew
and panel, and a command or a hit on one leaves the other as it was."""
from __future__ import annotations

import pytest

from engine import SeatSpec, apply, load_catalog, new_game, view
from engine.core import commands as C
from engine.core.content import VehicleEntry
from engine.core.deck import check
from engine.core.errors import RuleError
from engine.core.log import Ctx
from engine.core.vehicle_content import Aspect
from engine.turn.setup import check_force
from engine.vehicles.damage import resolve_vehicle_hit
from engine.vehicles.setup import plates
from engine.view import vehicle_view
from tests.engine.test_vehicles import at_work, card_of, stack

FIRST, SECOND = 601, 1601
FIRST_CREW = {"commander": 151, "gunner": 152, "loader": 153, "driver": 154, "bow_gunner": 155}
SECOND_CREW = {"commander": 163, "gunner": 164, "loader": 165, "driver": 166, "bow_gunner": 167}


@pytest.fixture(scope="module")
def shipped():
    return load_catalog()


def pair(shipped, seed=1, **tiles):
    """The scenario's own forces, the two Shermans placed on the map (`first`, `second`: tiles)."""
    sc = shipped.scenario("vautrin-pair")
    us = sc.side("US")
    vehicles = [ve.model_copy(update={"tile": tiles.get(k), "passengers": []})
                for ve, k in zip(us.vehicles, ("first", "second"))]
    seats = [SeatSpec(name="Ann", side="US", force=list(us.preset), vehicles=vehicles),
             SeatSpec(name="Bo", side="DE")]
    st, _ = new_game(shipped, "vautrin-pair", seats, seed)
    return st


def cards_of(st, plate) -> set[str]:
    f = st.forces[st.vehicles[plate].force]
    return set(f.deck + f.hand + f.discard + [c for c in f.placed if c])


def test_two_shermans_of_the_scenario_get_their_own_plates_decks_and_crews(shipped):
    st, _ = new_game(shipped, "vautrin-pair", [SeatSpec(name="Ann", side="US"), SeatSpec(name="Bo", side="DE")], 3)
    assert {p: v.vehicle for p, v in st.vehicles.items() if v.side == "US"} == \
        {FIRST: "m4a1-sherman", SECOND: "m4a1-sherman"}
    assert st.vehicles[FIRST].force == "US-1-601" and st.vehicles[SECOND].force == "US-1-1601"
    assert st.vehicles[FIRST].crew == FIRST_CREW and st.vehicles[SECOND].crew == SECOND_CREW
    for plate, crew in ((FIRST, FIRST_CREW), (SECOND, SECOND_CREW)):
        for serial in crew.values():
            s = st.soldiers[serial]
            assert (s.vehicle, s.force, s.status) == (plate, st.vehicles[plate].force, "aboard")
    first, second = cards_of(st, FIRST), cards_of(st, SECOND)
    assert not first & second
    sherman = shipped.vehicles["m4a1-sherman"]
    assert {c for c in first if st.card(c).owner == FIRST} == set(sherman.cards)  # the catalogue's own ids
    own = {c for c in second if st.card(c).owner == SECOND}
    assert own == {"1601" + c[len("601"):] for c in sherman.cards}
    for c in own:  # the same card as the type's, owned by its own plate
        twin = shipped.cards["601" + c[len("1601"):]]
        assert st.card(c).model_dump() == twin.model_dump() | {"id": c, "owner": SECOND}
    assert {st.card(c).owner for c in second} == {SECOND, *SECOND_CREW.values()}
    every = [c for f in st.forces.values() for c in f.deck + f.hand + f.discard + [x for x in f.placed if x]]
    assert len(every) == len(set(every)), "card ids are unique in the game"


def test_the_first_of_a_type_keeps_its_plate_and_a_named_plate_is_kept(shipped):
    sherman = VehicleEntry(vehicle="m4a1-sherman", crew=FIRST_CREW)
    second = VehicleEntry(vehicle="m4a1-sherman", crew=SECOND_CREW)
    m8 = VehicleEntry(vehicle="m8-greyhound")
    assert plates(shipped, [[sherman, m8], [second]]) == [[601, 602], [1601]]
    # a campaign's roster vehicle names its plate: the others fill round it
    assert plates(shipped, [[sherman], [second.model_copy(update={"plate": 601})]]) == [[1601], [601]]
    with pytest.raises(RuleError, match="plate 1602 is not a plate of the M4A1"):
        plates(shipped, [[sherman.model_copy(update={"plate": 1602})]])
    with pytest.raises(RuleError, match="plate 1601 is given to two vehicles"):
        plates(shipped, [[second.model_copy(update={"plate": 1601})], [sherman.model_copy(update={"plate": 1601})]])


def test_a_force_refuses_one_man_in_two_shermans(shipped):
    sc = shipped.scenario("vautrin-pair")
    us = sc.side("US")
    twice = [us.vehicles[0], us.vehicles[1].model_copy(update={"crew": {**SECOND_CREW, "commander": 151}})]
    with pytest.raises(RuleError, match=r"Calloway \(151\) is picked twice"):
        check_force(shipped, sc, "US", list(us.preset), 2, vehicles=twice)
    riders = [us.vehicles[0], us.vehicles[1].model_copy(update={"passengers": [109]})]
    with pytest.raises(RuleError, match=r"\(109\) rides in two vehicles"):
        check_force(shipped, sc, "US", list(us.preset), 2, vehicles=riders)


def test_a_move_card_of_the_second_sherman_moves_it_and_never_the_first(shipped):
    st = pair(shipped, first="10A", second="21A")
    fid = st.vehicles[SECOND].force
    move = card_of(st, fid, owner=SECOND, action="move")
    at_work(st, fid, move, "move")
    before = st.vehicles[FIRST].model_copy(deep=True)
    # the card in play is the second's: the first's plate has no part of it, and nothing changes
    with pytest.raises(RuleError, match=r"\) 601 is not commanded by this deck"):
        apply(st, C.VMove(seat=0, serial=FIRST, tile="7B", via="tag"))
    st2, _ = apply(st, C.VMove(seat=0, serial=SECOND, tile="15A", via="tag"))
    assert st2.vehicles[SECOND].tile == "15A" and st2.vehicles[SECOND].hull_moved
    assert st2.vehicles[FIRST] == before
    assert st2.forces[st.vehicles[FIRST].force] == st.forces[st.vehicles[FIRST].force]


def test_a_hit_on_one_sherman_damages_only_it(shipped):
    st = pair(shipped, first="10A", second="21A")
    ctx = Ctx(st)
    panzer = st.vehicles[701].force
    hitting = next(c for c in sorted(st.forces[panzer].deck) if st.card(c).hit.short not in ("Miss", "Zip"))
    stack(st, panzer, hitting)
    first_before = st.vehicles[FIRST].model_copy(deep=True)
    first_deck = list(st.forces[st.vehicles[FIRST].force].deck)
    second_deck = list(st.forces[st.vehicles[SECOND].force].deck)
    card = check(ctx, panzer)
    out = resolve_vehicle_hit(ctx, SECOND, card_id=card, bands=["short"], band="short", aspect=Aspect.SIDE,
                              pen=30, blast_checks=0, by_force=panzer)
    assert out.penetrating > 0 and out.steps
    assert st.forces[st.vehicles[SECOND].force].deck != second_deck, "damage checks come off the hit tank's deck"
    assert st.vehicles[FIRST] == first_before and st.forces[st.vehicles[FIRST].force].deck == first_deck
    assert all(st.soldiers[n].vehicle == FIRST and not st.soldiers[n].wounded for n in FIRST_CREW.values())


def test_each_sherman_has_its_own_panel_in_the_view(shipped):
    st = pair(shipped, first="10A", second="21A")
    pub = view(st)
    panels = {v.plate: v for v in pub.vehicles if v.vehicle == "m4a1-sherman"}
    assert set(panels) == {FIRST, SECOND}
    assert panels[FIRST].crew == FIRST_CREW and panels[SECOND].crew == SECOND_CREW
    assert (panels[FIRST].tile, panels[SECOND].tile) == ("10A", "21A")
    assert vehicle_view(st, SECOND).force == "US-1-1601"
    assert st.name(FIRST).endswith("Sherman (75 mm) 601") and st.name(SECOND).endswith("Sherman (75 mm) 1601")


def test_commands_and_options_name_each_sherman_by_its_plate(shipped):
    from engine.core.commands import parse_command
    from engine.legal import legal_commands
    st = pair(shipped, first="10A", second="21A")
    fid = st.vehicles[SECOND].force
    at_work(st, fid, card_of(st, fid, owner=SECOND, action="move"), "move")
    moves = [c for c in legal_commands(st, 0) if isinstance(c, C.VMove)]
    assert moves and {c.serial for c in moves} <= {SECOND, *SECOND_CREW.values()}
    assert any(c.serial == SECOND for c in moves), "the option names the second Sherman by its plate"
    cmd = parse_command("tag vmove 1601 15A", seat=0)
    assert cmd.serial == SECOND and cmd.words() == ["tag", "vmove", "1601", "15A"]
    st2, _ = apply(st, cmd)
    assert (st2.vehicles[SECOND].tile, st2.vehicles[FIRST].tile) == ("15A", "10A")
