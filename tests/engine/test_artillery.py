"""Artillery and radios (Hell on Wheels: Radio Contact; Artillery; the main gun's Blast line).

The lane of the test map: Avery (1) carries the set at the west end, Dorn (4) stands spotted four
squares up the lane in 24A, Engel (5) far behind him. The three phase cards all begin with LOOK.
Decks are stacked; the cards' boxes are quoted."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from engine.agent import RandomAgent
from engine.apply import apply
from engine.battlefield import artillery
from engine.core.commands import BarrageCmd, CallCmd, parse_command
from engine.core.content import BarragePlan, OrderDef
from engine.core.errors import RuleError
from engine.core.views import ArtilleryMarkerView
from engine.legal import awaiting, default_command, legal_commands
from engine.turn.setup import SeatSpec, new_game
from engine.view import private_view, view

LOOKS = ["S01", "S02", "S03"]  # LOOK/HIDE, LOOK/MOVE, LOOK/SHOOT


def kinds(events_, kind):
    return [e for e in events_ if e.kind == kind]


def lane(position, kit=("radio",), ordnance=("medium-mortars",), deck=(), dorn_deck=(),
         hand=("1-C3", "2-C3", "1-C2"), **more):
    """Ann's hand: Avery's sight card 1-C3 ('1 soldier sight'), Brooks's 2-C3 (the same) and a
    SHOOT; Bo has nothing for phase 1."""
    soldiers = [{"serial": 1, "seat": 0, "at": [2, 2], "facing": "e", "equipment": list(kit)},
                {"serial": 2, "seat": 0, "at": [2, 4], "facing": "e"},
                {"serial": 4, "seat": 1, "at": [17, 2], "facing": "w", "spotted": True},
                {"serial": 5, "seat": 1, "at": [37, 2], "facing": "w"}]
    soldiers += more.pop("extra", [])
    st = position(soldiers=soldiers, phase_cards=LOOKS,
                  hands={0: list(hand), 1: ["4-C1", "4-C2", "4-P1"]},
                  decks={0: list(deck), 1: list(dorn_deck)}, **more)
    st.artillery.ordnance[0] = list(ordnance)
    st.artillery.bought[0] = list(ordnance)
    return st


PLANS = ["@Ann plan 1-C3 2-C3 1-C2", "@Bo plan - 4-C1 4-C2"]


def run(st, lines):
    """Each line '@Who command'; whoever else the game waits for meanwhile takes his default
    (pass, skip). Returns the state and every event."""
    seats = {s.name: s.index for s in st.seats}
    out = []
    for line in lines:
        who, text = line[1:].split(" ", 1)
        seat = seats[who]
        cmd = parse_command(text, seat)
        if not isinstance(cmd, (CallCmd, BarrageCmd)):
            for _ in range(40):
                waits = awaiting(st)
                if not waits or any(a.seat == seat for a in waits):
                    break
                st, ev = apply(st, default_command(st, waits[0].seat))
                out += ev
        st, ev = apply(st, cmd)
        out += ev
    return st, out


def until(st, force, phase):
    """Everyone takes his default until `force`'s card is in play in `phase`."""
    for _ in range(60):
        if st.phase == phase and st.active is not None and st.active.force == force:
            return st
        st, _ = apply(st, default_command(st, awaiting(st)[0].seat))
    raise AssertionError(f"{force} never acted in phase {phase}")


def track(st, seat=0):
    return [(c.letter, c.rows_left, c.fake) for c in private_view(st, seat).artillery]


# ----------------------------------------------------------------------------- the sighting track


@pytest.mark.parametrize("kit, kind, rows", [
    ("field-telephone", "medium-mortars", 1),
    ("field-telephone", "heavy-mortars", 1),
    ("radio", "medium-mortars", 2),
    ("walkie-talkie", "medium-mortars", 2),
    ("walkie-talkie", "light-artillery", 2),
    ("radio", "light-artillery", 2),
    ("radio", "heavy-mortars", 2),
    ("radio", "medium-artillery", 3),
    ("field-telephone", "medium-artillery", 3),
])
def test_the_marker_starts_on_its_row_and_each_sight_climbs_one_to_on_target(position, kit, kind, rows):
    # Phase 1: Avery's LOOK card makes contact; he calls onto Dorn's tile and works the set with
    # the card's dog tag and team bubble; phase 2 Brooks's LOOK card lends its team bubble.
    st = lane(position, kit=(kit,), ordnance=(kind,))
    st, _ = run(st, PLANS + [f"@Ann call 1 {kind} 24A"])
    assert track(st) == [("A", rows, False)]
    assert [m.model_dump() for m in view(st).artillery] == [{"id": 1, "side": "US", "tile": "24A"}]
    assert private_view(st, 0).artillery[0].marker == 1, "his own view pairs the letter with the marker"
    sights = ["@Ann tag adjust 1 A", "@Ann team adjust 1 A", "@Ann team adjust 1 A"]
    for done in range(1, rows + 1):
        st, ev = run(st, [sights[done - 1]])
        if done < rows:
            assert track(st) == [("A", rows - done, False)]
            assert not kinds(ev, "artillery_reveal")
    assert track(st) == [] and st.artillery.calls == []
    assert kinds(ev, "artillery_reveal")[0].data["fake"] is False
    assert kinds(ev, "blast")[0].data["tile"] == "24A"


def test_a_call_spends_the_mission_and_a_second_needs_another_contact(position):
    st = lane(position, ordnance=("medium-mortars", "medium-mortars"))
    st, _ = run(st, PLANS + ["@Ann call 1 medium-mortars 24A"])
    assert private_view(st, 0).ordnance == ["medium-mortars"]
    with pytest.raises(RuleError, match="used his radio contact this turn"):
        apply(st, CallCmd(seat=0, serial=1, kind="medium-mortars", tile="24A"))


def test_a_leader_beside_the_operator_may_sight_for_his_call_a_private_may_not(position):
    # Cole, a corporal, kneels beside Avery (base to base, facing him); Brooks stays back.
    # Phase 2 is Cole's LOOK card: its dog tag lets Cole work the call, its team bubble does not
    # let Brooks, a private away from the set.
    cole = {"serial": 3, "seat": 0, "rank": "junior_nco", "at": [3, 2], "facing": "w"}
    st = lane(position, extra=[cole], hand=("1-C3", "3-C3", "1-C2"))
    st, _ = run(st, ["@Ann plan 1-C3 3-C3 1-C2", PLANS[1], "@Ann call 1 medium-mortars 24A"])
    st = until(run(st, ["@Ann pass"])[0], "US-1", 2)
    with pytest.raises(RuleError, match="only the radio operator, his vehicle, or a leader with him"):
        apply(st, parse_command("team adjust 2 A", 0))
    st, _ = run(st, ["@Ann tag adjust 3 A"])
    assert track(st) == [("A", 1, False)]


# ----------------------------------------------------------------------------- devices


@pytest.mark.parametrize("kit, kind, why", [
    ("walkie-talkie", "medium-artillery", "walkie-talkie: medium artillery needs a radio or a field telephone"),
    ("walkie-talkie", "heavy-mortars", "walkie-talkie: heavy mortars needs a radio or a field telephone"),
    ("field-telephone", "light-artillery", "field telephone: light artillery needs a radio or a walkie-talkie"),
    (None, "medium-mortars", "carries no radio, walkie-talkie or field telephone"),
])
def test_the_device_decides_what_may_be_called(position, kit, kind, why):
    st = lane(position, kit=(kit,) if kit else (), ordnance=(kind,))
    st, _ = run(st, PLANS)
    with pytest.raises(RuleError, match=why):
        apply(st, CallCmd(seat=0, serial=1, kind=kind, tile="24A"))


@pytest.mark.parametrize("kind", ["medium-mortars", "light-artillery", "heavy-mortars", "medium-artillery"])
def test_a_radio_calls_every_kind(position, kind):
    st = lane(position, ordnance=(kind,))
    st, _ = run(st, PLANS + [f"@Ann call 1 {kind} 24A"])
    assert [c.kind for c in private_view(st, 0).artillery] == [kind]


def test_heavy_artillery_and_rockets_are_never_called_by_radio(position):
    st = lane(position, ordnance=("rockets",))
    st, _ = run(st, PLANS)
    with pytest.raises(RuleError, match="planned for a turn and a landmark"):
        apply(st, CallCmd(seat=0, serial=1, kind="rockets", tile="24A"))


def test_only_a_marked_tile_in_the_callers_sight(position):
    st = lane(position)
    st, _ = run(st, PLANS)
    with pytest.raises(RuleError, match="25A carries no Spotted marker"):
        apply(st, CallCmd(seat=0, serial=1, kind="medium-mortars", tile="25A"))
    st.changing(1).pinned = True  # a pinned man's sight is halved: 7 squares, Dorn is 3 away
    st.changing(4).at = (37, 4)
    with pytest.raises(RuleError, match="beyond his modified sight"):
        apply(st, CallCmd(seat=0, serial=1, kind="medium-mortars", tile="28A"))


# ----------------------------------------------------------------------------- radio contact


def test_a_soldier_needs_the_charts_look_phases_then_the_default_two(position):
    # While cards are placed nobody has contact. Avery's LOOK card in phase 1 is enough for
    # medium mortars (one LOOK phase on the chart); the test chart's field guns list none, so
    # they need two (the default for soldiers): Brooks's LOOK card in phase 2.
    st = lane(position, ordnance=("medium-mortars", "field-guns"))
    with pytest.raises(RuleError, match="during the phases of a turn"):
        apply(st, CallCmd(seat=0, serial=1, kind="medium-mortars", tile="24A"))
    st, ev = run(st, PLANS)
    assert kinds(ev, "radio_contact")[0].to == 0
    assert private_view(st, 0).radio == {"1": 1}
    with pytest.raises(RuleError, match="no radio contact: 1 LOOK card this turn, 2 needed"):
        apply(st, CallCmd(seat=0, serial=1, kind="field-guns", tile="24A"))
    assert CallCmd(seat=0, serial=1, kind="medium-mortars", tile="24A") in legal_commands(st, 0)
    st, _ = run(st, ["@Ann pass"])
    st = until(st, "US-1", 2)
    assert private_view(st, 0).radio == {"1": 2}
    st, _ = run(st, ["@Ann call 1 field-guns 24A"])
    assert [c.kind for c in private_view(st, 0).artillery] == ["field-guns"]


# Hell on Wheels' artillery chart gives each kind a Relay line beside the Normal one: medium
# mortars and light artillery 2 Sight actions after 1 LOOK phase, heavy mortars and medium
# artillery 3 Sight actions after 2 LOOK phases. Avery's walkie-talkie cannot reach the heavy
# mortars; Brooks beside him carries a radio that can: the call goes through Brooks.


def relay_lane(position):
    st = lane(position, kit=("walkie-talkie",), ordnance=("heavy-mortars", "medium-mortars"))
    st.changing(2).equipment = ["radio"]
    return st


def test_a_walkie_talkie_relays_heavy_mortars_through_a_radio_after_two_look_phases(position):
    st = relay_lane(position)
    st, _ = run(st, PLANS)
    with pytest.raises(RuleError, match="Avery has only a walkie-talkie: heavy mortars needs a radio or a field"):
        apply(st, CallCmd(seat=0, serial=1, kind="heavy-mortars", tile="24A"))
    with pytest.raises(RuleError, match="no radio contact: 1 LOOK card this turn, 2 needed to relay a call"):
        apply(st, CallCmd(seat=0, serial=1, kind="heavy-mortars", tile="24A", relay=2))
    st, _ = run(st, ["@Ann pass"])
    st = until(st, "US-1", 2)
    st, ev = run(st, ["@Ann call 1 heavy-mortars 24A relay 2"])
    (mine,) = private_view(st, 0).artillery
    assert (mine.kind, mine.rows_left, mine.caller, mine.relay) == ("heavy-mortars", 3, 1, 2)
    told = kinds(ev, "artillery_call")[0]
    assert told.to == 0 and "relayed through Pvt. Brooks" in told.text
    assert "relay" not in " ".join(e.text for e in ev if e.to is None).lower(), "the table sees a marker only"


def test_a_relay_is_refused_when_his_own_set_reaches_or_the_relay_cannot(position):
    st = relay_lane(position)
    st, _ = run(st, PLANS)
    with pytest.raises(RuleError, match="Avery's own set reaches medium mortars: he calls it himself"):
        apply(st, CallCmd(seat=0, serial=1, kind="medium-mortars", tile="24A", relay=2))
    st.changing(2).equipment = ["walkie-talkie"]
    with pytest.raises(RuleError, match="Brooks has no working set that reaches heavy mortars"):
        apply(st, CallCmd(seat=0, serial=1, kind="heavy-mortars", tile="24A", relay=2))
    with pytest.raises(RuleError, match="a relay is another set than the caller's own"):
        apply(st, CallCmd(seat=0, serial=1, kind="heavy-mortars", tile="24A", relay=1))
    with pytest.raises(RuleError, match="Dorn .* is not yours to relay through|not yours"):
        apply(st, CallCmd(seat=0, serial=1, kind="heavy-mortars", tile="24A", relay=4))


def test_a_relayed_call_is_listed_read_and_written(position):
    st = relay_lane(position)
    st, _ = run(st, PLANS)
    st, _ = run(st, ["@Ann pass"])
    st = until(st, "US-1", 2)
    assert CallCmd(seat=0, serial=1, kind="heavy-mortars", tile="24A", relay=2) in legal_commands(st, 0)
    cmd = parse_command("call 1 heavy-mortars 24a relay 2 smoke", 0)
    assert cmd == CallCmd(seat=0, serial=1, kind="heavy-mortars", tile="24A", relay=2, smoke=True)
    assert str(cmd) == "call 1 heavy-mortars 24A smoke relay 2"
    with pytest.raises(RuleError, match="relay names the set it goes through"):
        parse_command("call 1 heavy-mortars 24A relay", 0)


def test_radio_contact_lapses_at_the_turns_end(position):
    st = lane(position)
    st, _ = run(st, PLANS)
    assert st.artillery.looks == {"US-1": 1}
    from engine.core.log import Ctx
    ctx = Ctx(st)
    artillery.turn_end(ctx)
    assert st.artillery.looks == {} and st.artillery.called == {}


def motor(position, squad=("1-C4", "1-C1", "1-C2"), tank=("901-V3", "901-V8", "60-C3"), **more):
    """The motor pool: the Test Sherman (901, Radio 2) at 42A with its crew, the Test Panzer (902)
    at 44A carrying the Sherman's own marker, Avery at 41A with a radio."""
    crew = [{"serial": n, "seat": 0, "crew_of": 901} for n in (60, 61, 62, 63, 64)]
    crew += [{"serial": n, "seat": 1, "crew_of": 902} for n in (70, 71, 72, 73, 74)]
    st = position(scenario="motor", soldiers=[
        {"serial": 1, "seat": 0, "at": [2, 2], "facing": "e", "equipment": ["radio"]},
        {"serial": 4, "seat": 1, "at": [17, 17], "facing": "w"}, *crew],
        vehicles=[{"plate": 901, "seat": 0, "tile": "42A", "facing": "e", "turret": "e",
                   "crew": {"commander": 60, "gunner": 61, "loader": 62, "driver": 63, "co_driver": 64},
                   "ready": {"AP": 6, "HE": 4}, "in_breach": ["AP"]},
                  {"plate": 902, "seat": 1, "tile": "44A", "facing": "w", "turret": "w",
                   "crew": {"commander": 70, "gunner": 71, "loader": 72, "driver": 73, "co_driver": 74},
                   "ready": {"AP": 5, "HE": 5}, "in_breach": ["AP"], "spotted": True, "spotted_by": [901]}],
        phase_cards=LOOKS,
        hands={0: list(squad), 1: ["4-C1", "4-C2", "4-P1"], 901: list(tank),
               902: []}, **more)
    st.artillery.ordnance[0] = ["medium-mortars", "medium-mortars"]
    st.artillery.bought[0] = ["medium-mortars", "medium-mortars"]
    return st


MOTOR_PLANS = ["@Ann plan 1-C4 1-C1 1-C2", "@Ann plan for US-1-901 901-V3 901-V8 60-C3", "@Bo plan - 4-C1 4-C2",
               "@Bo plan for DE-2-902 - - -"]


def test_a_vehicle_makes_contact_at_its_panels_radio_value(position):
    # The Sherman's panel reads Radio 2: after its first LOOK card it cannot call yet; its
    # second LOOK card (phase 2) gets through, and its set counts as a radio.
    st = motor(position)
    st, _ = run(st, MOTOR_PLANS)
    with pytest.raises(RuleError, match="no radio contact: 1 LOOK card this turn, 2 needed"):
        apply(st, CallCmd(seat=0, serial=901, kind="medium-mortars", tile="44A"))
    st = until(st, "US-1-901", 2)
    assert private_view(st, 0).radio["901"] == 2
    st, _ = run(st, ["@Ann call 901 medium-mortars 44A"])
    assert track(st) == [("A", 2, False)]
    assert private_view(st, 0).artillery[0].caller == 901


def test_a_tanks_radio_contact_marks_its_targets_for_a_soldier_with_a_radio(position):
    # The Panzer carries only the Sherman's own marker. At the Sherman's second LOOK card its
    # radio gets through, and Avery, radio on his back and the Panzer in his sight, puts the
    # general marker on it (Sight and Radio Contact).
    st = motor(position)
    st.changing_vehicle(902).spotted = False
    st, _ = run(st, MOTOR_PLANS)
    st = until(st, "US-1-901", 2)
    assert st.vehicles[902].spotted
    st2 = motor(position)
    st2.changing_vehicle(902).spotted = False
    st2.changing(1).equipment = ["walkie-talkie"]
    st2 = until(run(st2, MOTOR_PLANS)[0], "US-1-901", 2)
    assert not st2.vehicles[902].spotted, "a walkie-talkie reaches the guns, not the tanks"


def test_a_soldiers_radio_contact_marks_his_targets_for_a_radio_tank(position):
    # The Panzer has the general marker only. Avery's two LOOK cards (phases 1 and 2) make his
    # contact, the soldiers' radio value; the Sherman, which can see the Panzer, places its own
    # marker on it. Its own cards are no LOOK cards this turn.
    st = motor(position, squad=("1-C3", "1-P3", "1-C2"), tank=("901-V6", "901-V1", "901-V2"))
    st.changing_vehicle(902).spotted_by = []
    st, _ = run(st, ["@Ann plan 1-C3 1-P3 1-C2", "@Ann plan for US-1-901 901-V6 901-V1 901-V2", *MOTOR_PLANS[2:]])
    st = until(st, "US-1", 1)
    assert 901 not in st.vehicles[902].spotted_by
    st = until(run(st, ["@Ann pass"])[0], "US-1", 2)
    assert 901 in st.vehicles[902].spotted_by


def test_a_crewman_calls_through_his_vehicles_set(position):
    st = motor(position)
    assert artillery.caller_of(st, 64) == 901 and artillery.devices(st, 901) == ["radio"]
    st.changing_vehicle(901).damage["radio"] = ["wreck"]
    assert artillery.devices(st, 901) == []


# ----------------------------------------------------------------------------- reveal and blast


def test_a_fake_marker_turns_over_and_nothing_falls(position):
    st = lane(position, deck=["1-C1", "1-P2"])
    st, ev = run(st, PLANS + ["@Ann call 1 medium-mortars 24A fake", "@Ann tag adjust 1 A", "@Ann team adjust 1 A"])
    reveal = kinds(ev, "artillery_reveal")[0]
    assert reveal.to is None and reveal.data["fake"] is True and "FAKE" in reveal.text
    assert not kinds(ev, "blast") and not kinds(ev, "blast_check")
    assert st.soldiers[4].status == "board" and not st.soldiers[4].pinned
    assert private_view(st, 0).ordnance == ["medium-mortars"], "a bluff spends no mission"


def test_on_target_medium_mortars_blast_the_men_in_the_tile(position):
    # Two blast checks off Ann's deck for Dorn: 1-C1 (blast box Hit), 1-P2 (Hit). Each hit is a
    # damage check off Bo's deck (its top card 4-P3 went to his empty phase-1 slot): 4-C3 Pin,
    # then 4-P2 Zip. Dorn ends pinned.
    st = lane(position, deck=["1-C1", "1-P2"], dorn_deck=["4-P3", "4-C3", "4-P2"])
    st, ev = run(st, PLANS + ["@Ann call 1 medium-mortars 24A", "@Ann tag adjust 1 A", "@Ann team adjust 1 A"])
    checks = kinds(ev, "blast_check")
    assert [c.data["card"] for c in checks] == ["1-C1", "1-P2"]
    assert [d.data["result"] for d in kinds(ev, "damage_check")] == ["Pin", "Zip"]
    assert st.soldiers[4].pinned


def test_the_shooter_orders_the_victims_enemies_first(position):
    # Brooks (Ann's own man) has run up beside Dorn: the enemy draws first, then Brooks.
    st = lane(position)
    st.changing(2).at = (17, 4)
    assert artillery.victims_order(st, "24A", 0) == [4, 2]
    assert artillery.victims_order(st, "24A", 1) == [2, 4]


def _ordered_strike(position, order: str) -> list[tuple[int, str]]:
    """Brooks (Ann's own man) has run up beside Dorn in 24A; Ann's medium mortars land there."""
    st = lane(position, deck=["1-C1", "1-P2", "1-C2", "1-C3", "1-C4"], dorn_deck=["4-P3", "4-C3", "4-P2", "4-C4"])
    st.changing(2).at = (17, 4)
    st, ev = run(st, PLANS + ["@Ann call 1 medium-mortars 24A", "@Ann tag adjust 1 A",
                              f"@Ann team adjust 1 A {order}".strip()])
    return [(c.data["serial"], c.data["card"]) for c in kinds(ev, "blast_check")]


def test_the_caller_names_who_draws_first_with_the_sight_that_brings_it_on_target(position):
    # Hell on Wheels, Vehicles and Guns in Target Square: with men of several players in the tile,
    # the shooting player decides in what order they draw. Ann sends her own Brooks through first:
    # the top of her deck, 1-C1, is his blast check (and 1-P2 his damage check, off his own deck).
    assert _ordered_strike(position, "order 2,4")[:2] == [(2, "1-C1"), (2, "1-C2")]


def test_without_an_order_the_other_players_men_draw_first(position):
    assert _ordered_strike(position, "")[:2] == [(4, "1-C1"), (4, "1-P2")]


def test_naming_only_some_men_puts_them_first_and_the_rest_follow_by_default(position):
    st = lane(position)
    st.changing(2).at = (17, 4)
    st.changing(5).at = (17, 3)
    assert artillery.victims_order(st, "24A", 0) == [4, 5, 2]
    assert artillery.victims_order(st, "24A", 0, [5]) == [5, 4, 2]
    assert artillery.victims_order(st, "24A", 0, [2, 5]) == [2, 5, 4]


@pytest.mark.parametrize("order, why", [
    ("5", "Schtz. Engel is not a man on foot in 24A: the order names Schtz. Dorn .4."),
    ("4,4", "Schtz. Dorn is named twice in the order"),
])
def test_an_order_naming_a_man_not_in_the_tile_is_refused_and_changes_nothing(position, order, why):
    st = lane(position)
    st, _ = run(st, PLANS + ["@Ann call 1 medium-mortars 24A", "@Ann tag adjust 1 A"])
    before = st.model_dump_json()
    with pytest.raises(RuleError, match=why):
        run(st, [f"@Ann team adjust 1 A order {order}"])
    assert track(st) == [("A", 1, False)] and st.model_dump_json() == before


def test_a_hidden_enemy_in_the_tile_is_nobody_to_name_and_the_refusal_does_not_show_him(position, monkeypatch):
    # Hidden deployment: Dorn lies hidden in 24A; Brooks stands there in the open
    st = lane(position)
    st.changing(2).at = (17, 4)
    st, _ = run(st, PLANS + ["@Ann call 1 medium-mortars 24A", "@Ann tag adjust 1 A"])
    monkeypatch.setattr(artillery.hd, "hidden", lambda st: {4})
    with pytest.raises(RuleError) as refused:
        run(st, ["@Ann team adjust 1 A order 4"])
    assert "the order names Pvt. Brooks (2)." in str(refused.value) and "(4)" not in str(refused.value)


def test_an_order_is_named_only_with_the_sight_that_brings_the_marker_on_target(position):
    st = lane(position)
    st, _ = run(st, PLANS + ["@Ann call 1 medium-mortars 24A"])
    with pytest.raises(RuleError, match="marker A is 2 Sight actions from On Target"):
        run(st, ["@Ann tag adjust 1 A order 4"])
    assert track(st) == [("A", 2, False)]


def test_an_ordered_sight_is_read_and_written_as_a_script_line():
    cmd = parse_command("team adjust 104 B order 5, 12 4", 0)
    assert cmd.order == [5, 12, 4]
    assert parse_command(str(cmd), 0) == cmd and str(cmd) == "team adjust 104 B order 5 12 4"
    with pytest.raises(RuleError, match="usage"):
        parse_command("adjust 104 B 5 12", 0)


def test_a_vehicle_in_the_tile_takes_the_blast_on_its_lowest_armour(position):
    # Avery calls medium mortars on the Panzer (hull armour 2, its lowest). Ann's deck gives the
    # blast checks: 1-C2 (2 Hits) and 1-C3 (Miss): 2 hits against armour 2, nothing through;
    # then 1-P2 (Hit) and 1-C1 (Hit) on a second call: still 2, nothing through.
    st = motor(position, decks={0: ["1-C2", "1-P2"]})
    st, _ = run(st, MOTOR_PLANS)
    st.artillery.looks["US-1"] = 1
    st.changing_vehicle(902).spotted = True
    from engine.core.log import Ctx
    ctx = Ctx(st)
    artillery.strike(ctx, "44A", 2, force="US-1", seat=0, what="Medium mortars")
    blast = kinds(ctx.events, "vehicle_blast")[0]
    assert blast.data["plate"] == 902 and blast.data["armour"] == 2
    assert blast.data["hits"] == 3 and blast.data["damage"] == 1  # 2 Hits + Hit - armour 2


def test_a_main_gun_with_a_blast_line_fires_as_on_board_artillery(position):
    # The Sherman's 75 mm given a blast line: Avery, radio on his back, calls it onto the Panzer's
    # tile after his LOOK card; two Sight actions bring it On Target and one ready HE round goes:
    # its Long blast number, 2, in blast checks.
    st = motor(position, squad=("1-C3", "1-C1", "1-C2"))
    sherman = st.setup.vehicles["test-sherman"]
    gun = sherman.main_gun.model_copy(update={"blast_line": True})
    st.setup = st.setup.model_copy(update={"vehicles": {**st.setup.vehicles,
                                                        "test-sherman": sherman.model_copy(update={"main_gun": gun})}})
    st.changing_vehicle(902).spotted = True
    st, _ = run(st, ["@Ann plan 1-C3 1-C1 1-C2", *MOTOR_PLANS[1:]])
    st = until(st, "US-1", 1)
    assert CallCmd(seat=0, serial=1, kind="gun:901", tile="44A") in legal_commands(st, 0)
    st, ev = run(st, ["@Ann call 1 gun:901 44A", "@Ann tag adjust 1 A"])
    assert track(st) == [("A", 1, False)]
    st, ev = run(st, ["@Ann team adjust 1 A"])
    reveal = kinds(ev, "artillery_reveal")[0]
    assert reveal.data["checks"] == 2 and reveal.data["mission"] == "gun:901"
    assert st.vehicles[901].ready["HE"] == 3
    assert kinds(ev, "vehicle_blast")[0].data["plate"] == 902


def test_a_gun_without_a_blast_line_is_no_artillery(position):
    st = motor(position, squad=("1-C3", "1-C1", "1-C2"))
    st.changing_vehicle(902).spotted = True
    st = until(run(st, ["@Ann plan 1-C3 1-C1 1-C2", *MOTOR_PLANS[1:]])[0], "US-1", 1)
    with pytest.raises(RuleError, match="has no blast line"):
        apply(st, CallCmd(seat=0, serial=1, kind="gun:901", tile="44A"))


# ----------------------------------------------------------------------------- planned barrages


def test_a_planned_barrage_falls_at_the_start_of_its_turn(cat):
    # The artillery yard: Ann's preset plans rockets for turn 2 on L9A, where Bo's men deploy.
    st, ev = new_game(cat, "artillery-yard", [SeatSpec(name="Ann", side="US"), SeatSpec(name="Bo", side="DE")], seed=3)
    assert private_view(st, 0).barrages[0].model_dump() == {"kind": "rockets", "turn": 2, "tile": "L9A", "smoke": False}
    assert private_view(st, 1).barrages == [] and private_view(st, 0).ordnance == ["medium-mortars"]
    for _ in range(400):
        if st.turn == 2 or st.step == "over":
            break
        seat = awaiting(st)[0].seat
        st, more = apply(st, default_command(st, seat))
        ev += more
    barrage = kinds(ev, "barrage")
    assert barrage and barrage[0].to is None and barrage[0].data["tile"] == "L9A"
    assert barrage[0].data["checks"] == 5
    assert st.artillery.barrages == []
    assert ev.index(barrage[0]) > ev.index(next(e for e in ev if e.kind == "turn" and e.data["turn"] == 2))


def test_a_barrage_is_planned_in_secret_while_cards_are_placed(cat):
    st, _ = new_game(cat, "artillery-yard", [SeatSpec(name="Ann", side="US", barrages=[]),
                                             SeatSpec(name="Bo", side="DE", ordnance=["heavy-artillery"])], seed=3)
    assert st.step == "place"
    assert BarrageCmd(seat=1, kind="heavy-artillery", turn=2, tile="L9A") in legal_commands(st, 1)
    with pytest.raises(RuleError, match="falls on a landmark"):
        apply(st, BarrageCmd(seat=1, kind="heavy-artillery", turn=2, tile="31A"))
    with pytest.raises(RuleError, match="later turn"):
        apply(st, BarrageCmd(seat=1, kind="heavy-artillery", turn=1, tile="L9A"))
    st2, ev = apply(st, BarrageCmd(seat=1, kind="heavy-artillery", turn=3, tile="L9A"))
    assert all(e.to == 1 for e in ev)
    assert private_view(st2, 1).barrages[0].turn == 3 and private_view(st2, 1).ordnance == []
    with pytest.raises(RuleError, match="no heavy artillery left"):
        apply(st2, BarrageCmd(seat=1, kind="heavy-artillery", turn=2, tile="L9A"))


# ----------------------------------------------------------------------------- smoke by artillery
# Core manual, Smoke: artillery with a blast check of 3 or more may deliver smoke; the player who
# bought it says a round will be smoke instead of explosive and a 3x (heavy) smoke marker goes in
# the sighted square. It lasts at least one turn, then the phase cards' colours decide.


def test_light_artillery_fires_smoke_a_3x_marker_on_the_sighted_tile_and_no_blast(position):
    st = lane(position, ordnance=("light-artillery",), deck=["1-C1", "1-P2", "1-C2"])
    st, ev = run(st, PLANS + ["@Ann call 1 light-artillery 24A smoke"])
    assert private_view(st, 0).ordnance == [], "a smoke round spends the mission"
    assert private_view(st, 0).artillery[0].smoke is True
    st, ev = run(st, ["@Ann tag adjust 1 A", "@Ann team adjust 1 A"])
    reveal = kinds(ev, "artillery_reveal")[0]
    assert reveal.to is None and reveal.data["smoke"] is True and "smoke" in reveal.text
    assert [(m.tile, m.density, m.turn) for m in st.smoke] == [("24A", 3, st.turn)]
    assert not kinds(ev, "blast") and not kinds(ev, "blast_check"), "smoke instead of explosive"
    assert st.soldiers[4].status == "board" and not st.soldiers[4].pinned
    assert st.artillery.calls == []


def test_medium_mortars_of_two_blast_checks_cannot_fire_smoke(position):
    st = lane(position)
    st, _ = run(st, PLANS)
    with pytest.raises(RuleError, match="2 blast checks: only artillery of 3 or more fires smoke"):
        apply(st, CallCmd(seat=0, serial=1, kind="medium-mortars", tile="24A", smoke=True))
    assert private_view(st, 0).ordnance == ["medium-mortars"] and st.artillery.calls == []


def test_a_fake_call_fires_no_smoke_and_a_main_gun_fires_its_own(position):
    st = lane(position, ordnance=("light-artillery",))
    st, _ = run(st, PLANS)
    with pytest.raises(RuleError, match="fake or smoke, not both"):
        apply(st, CallCmd(seat=0, serial=1, kind="light-artillery", tile="24A", fake=True, smoke=True))
    assert artillery.smoke_problem(st, "gun:601").startswith("a main gun fires smoke as its own round")


def test_a_smoke_call_is_read_and_written_as_a_script_line():
    cmd = parse_command("call 1 light-artillery 24a smoke", 0)
    assert cmd == CallCmd(seat=0, serial=1, kind="light-artillery", tile="24A", smoke=True)
    assert str(cmd) == "call 1 light-artillery 24A smoke"
    assert parse_command("barrage rockets 2 l9a smoke", 1) == BarrageCmd(seat=1, kind="rockets", turn=2, tile="L9A",
                                                                         smoke=True)
    with pytest.raises(RuleError, match="usage: call"):
        parse_command("call 1 light-artillery 24A loud", 0)


def test_smoke_closing_a_call_is_the_flag_not_the_smoke_grenades_named_smoke(position):
    from engine.script import parse_line
    st = lane(position, ordnance=("light-artillery",))
    assert st.setup.equipment["smoke-grenade"].name == "Smoke"
    assert parse_line(st, 'call 1 "Light artillery" 24A smoke', 0) == CallCmd(
        seat=0, serial=1, kind="light-artillery", tile="24A", smoke=True)


def test_whether_a_call_is_smoke_stays_with_its_caller_until_the_marker_turns_over(position):
    st = lane(position, ordnance=("light-artillery",))
    st, ev = run(st, PLANS + ["@Ann call 1 light-artillery 24A smoke"])
    _leaks(st, ev, 0)
    table = view(st)
    assert [m.model_dump() for m in table.artillery] == [{"id": 1, "side": "US", "tile": "24A"}]
    assert table.smoke == {}, "no smoke is on the map before the reveal"
    assert private_view(st, 1).artillery == [] and private_view(st, 0).artillery[0].smoke


def test_a_barrage_planned_as_smoke_covers_its_landmark_at_the_start_of_its_turn(cat):
    st, _ = new_game(cat, "artillery-yard", [SeatSpec(name="Ann", side="US", barrages=[]),
                                             SeatSpec(name="Bo", side="DE", ordnance=["heavy-artillery"])], seed=3)
    assert BarrageCmd(seat=1, kind="heavy-artillery", turn=2, tile="L9A", smoke=True) in legal_commands(st, 1)
    st, ev = apply(st, BarrageCmd(seat=1, kind="heavy-artillery", turn=2, tile="L9A", smoke=True))
    assert all(e.to == 1 for e in ev) and private_view(st, 1).barrages[0].smoke
    for _ in range(400):
        if st.turn == 2 or st.step == "over":
            break
        st, ev = apply(st, default_command(st, awaiting(st)[0].seat))
    barrage = kinds(ev, "barrage")
    assert barrage and barrage[0].to is None and barrage[0].data["smoke"] is True
    assert [(m.tile, m.density) for m in st.smoke] == [("L9A", 3)]
    assert not kinds(ev, "blast_check")


# ----------------------------------------------------------------------------- purchase


def test_artillery_costs_its_chart_price(cat):
    sc = cat.scenario("artillery-yard")
    assert artillery.purchase_cost(cat, sc, ["medium-mortars", "light-artillery", "heavy-mortars",
                                             "medium-artillery"], []) == 2 + 3 + 4 + 5
    assert artillery.purchase_cost(cat, sc, ["rockets"], []) == 5
    assert artillery.purchase_cost(cat, sc, [], [BarragePlan(kind="heavy-artillery", turn=2, tile="L9A")]) == 6
    assert [cat.equipment[k].checks for k in ("medium-mortars", "light-artillery", "heavy-mortars",
                                              "medium-artillery", "rockets", "heavy-artillery")] == [2, 3, 4, 5, 5, 6]


def test_one_heavy_artillery_or_rocket_barrage_a_player(cat):
    sc = cat.scenario("artillery-yard")
    with pytest.raises(RuleError, match="one heavy artillery or rocket barrage"):
        artillery.purchase_cost(cat, sc, ["rockets", "heavy-artillery"], [])
    with pytest.raises(RuleError, match="one heavy artillery or rocket barrage"):
        artillery.purchase_cost(cat, sc, ["rockets"], [BarragePlan(kind="rockets", turn=2, tile="L9A")])
    assert artillery.purchase_cost(cat, sc, ["medium-mortars"] * 3 + ["rockets"], []) == 11


def test_the_scenario_limits_what_may_be_bought(cat):
    with pytest.raises(RuleError, match="does not offer rocket barrage"):
        artillery.purchase_cost(cat, cat.scenario("range"), ["rockets"], [])
    assert artillery.purchase_cost(cat, cat.scenario("range"), ["medium-mortars"], []) == 2


def test_artillery_counts_against_the_force_budget(cat):
    # Avery and Brooks cost what they cost; forty VP of mortars on top is over the budget.
    with pytest.raises(RuleError, match="budget"):
        new_game(cat, "artillery-yard", [SeatSpec(name="Ann", side="US", force=[{"serial": 1}, {"serial": 2}],
                                                  ordnance=["medium-mortars"] * 20, barrages=[]),
                                         SeatSpec(name="Bo", side="DE")], seed=1)


# ----------------------------------------------------------------------------- orders


def test_observer_orders_are_met_when_the_artillery_arrives(position):
    st = lane(position, deck=["1-C3", "1-P3"])
    order = OrderDef(id="T-OBSERVER", kind="observer", title="Observer", text="call in the guns", vp=3)
    st.setup = st.setup.model_copy(update={"orders": {**st.setup.orders, order.id: order}})
    st.seats[0].order = order.id
    st, _ = run(st, PLANS + ["@Ann call 1 medium-mortars 24A", "@Ann tag adjust 1 A"])
    assert not st.seats[0].order_done
    st, _ = run(st, ["@Ann team adjust 1 A"])
    assert st.seats[0].order_done


def test_a_walkie_talkie_operator_serves_registered_fire(cat):
    from engine.infantry.orders import _is_radio
    st, _ = new_game(cat, "artillery-yard", [SeatSpec(name="Ann", side="US"), SeatSpec(name="Bo", side="DE")], seed=3)
    assert _is_radio(st, "walkie-talkie") and _is_radio(st, "field-telephone") and _is_radio(st, "radio")
    assert not _is_radio(st, "binoculars")


# ----------------------------------------------------------------------------- hidden information


SECRET_KEYS = {"letter", "fake", "smoke", "rows", "mission"}
REVEALS = {"artillery_reveal", "barrage", "blast", "blast_check", "vehicle_blast", "damage_check"}
PRIVATE = {"artillery_call", "artillery_track", "barrage_planned"}


def _leaks(st, events_, seat):
    """Public events before a reveal name no letter, face, kind, row or plan; the private ones go
    only to the player who gave the command; public views show markers face down; each player's
    own view holds only his own calls and plans."""
    names = {e.name.lower() for e in st.setup.equipment.values() if e.kind == "artillery"}
    for e in events_:
        if e.kind in PRIVATE:
            assert e.to == seat, (e.kind, e.to, seat)
        if e.to is not None or e.kind in REVEALS:
            continue
        assert not SECRET_KEYS & set(e.data), (e.kind, e.data)
        assert not any(n in e.text.lower() for n in names), e.text
        assert "ON TARGET" not in e.text and "FAKE" not in e.text, e.text
    pub = view(st)
    assert set(ArtilleryMarkerView.model_fields) == {"id", "side", "tile"}
    assert len(pub.artillery) == len(st.artillery.calls)
    js = pub.model_dump_json()
    assert '"letter"' not in js and '"rows_left"' not in js and '"barrages"' not in js
    for other in range(len(st.seats)):
        mine = private_view(st, other)
        assert len(mine.artillery) == sum(1 for c in st.artillery.calls if c.seat == other)
        assert len(mine.barrages) == sum(1 for b in st.artillery.barrages if b.seat == other)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=hs.integers(0, 10_000))
def test_no_artillery_secret_reaches_an_opponent_or_the_table_before_its_reveal(cat, seed):
    specs = [SeatSpec(name="Ann", side="US", force=[{"serial": 1, "equipment": ["radio"]},
                                                    {"serial": 2, "equipment": ["walkie-talkie"]}],
                      ordnance=["medium-mortars", "light-artillery", "medium-artillery"], barrages=[]),
             SeatSpec(name="Bo", side="DE", force=[{"serial": 4, "equipment": ["field-telephone"]}, {"serial": 5}],
                      ordnance=["heavy-mortars", "rockets"])]
    st, ev = new_game(cat, "artillery-yard", specs, seed=seed)
    agent = RandomAgent(seed)
    _leaks(st, ev, None)
    for _ in range(250):
        if st.step == "over":
            break
        seat = awaiting(st)[0].seat
        st, ev = apply(st, agent.choose(st, seat))
        _leaks(st, ev, seat)


def test_the_agent_calls_and_walks_artillery_in(cat):
    """Autoplay exercises the rule: over a few games the random agent calls, adjusts and reveals."""
    seen: set[str] = set()
    want = {"call", "adjust", "barrage", "artillery_reveal"}
    for seed in range(12):
        if want <= seen:
            break
        specs = [SeatSpec(name="Ann", side="US", force=[{"serial": 1, "equipment": ["radio"]}, {"serial": 2}],
                          ordnance=["medium-mortars"] * 4, barrages=[]),
                 SeatSpec(name="Bo", side="DE", ordnance=["rockets"])]
        st, _ = new_game(cat, "artillery-yard", specs, seed=seed)
        agent = RandomAgent(seed)
        for _ in range(700):
            if st.step == "over":
                break
            seat = awaiting(st)[0].seat
            cmd = agent.choose(st, seat)
            st, ev = apply(st, cmd)
            seen |= {cmd.type} | {e.kind for e in ev}
    assert want <= seen
