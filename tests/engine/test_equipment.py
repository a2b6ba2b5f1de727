"""Equipment cards (advanced rules, Markers and Equipment): buying them with VP, who may use
specialist equipment, thrown smoke, fired weapons, the entrenching tool and captured equipment."""
from __future__ import annotations

import pytest

from engine.advanced.equipment_use import captured_vp, fire_weapon, throw_smoke
from engine.core.content import ForceEntry
from engine.core.errors import RuleError
from engine.core.log import Ctx
from engine.infantry.equipment import carried, dig_bonus, dig_in, uses_left
from engine.infantry.hide import cover_report
from engine.turn.setup import check_force, force_cost

AVERY = {"serial": 1, "seat": 0, "at": [2, 2], "facing": "e"}  # toss 8, in 21A
DORN = {"serial": 4, "seat": 1, "at": [32, 2], "facing": "w"}
STACKED = {"phase_cards": ["S01", "S02", "S03"], "hands": {0: [], 1: []}}  # no turn-start draw off the decks


# ----------------------------------------------------------------------------- force selection


def test_equipment_is_paid_for_at_force_selection(cat):
    sc = cat.scenarios["range"]
    bare = force_cost(cat, sc, "US", [ForceEntry(serial=1)])
    assert force_cost(cat, sc, "US", [ForceEntry(serial=1, equipment=["binoculars", "bazooka"])]) == bare + 1 + 3


def test_a_grenade_pouch_costs_the_scenarios_price_for_three_grenades(cat):
    sc = cat.scenarios["range"]
    dear = sc.model_copy(update={"sides": [sc.sides[0].model_copy(update={"grenade_cost": 2}), sc.sides[1]]})
    bare = force_cost(cat, sc, "US", [ForceEntry(serial=1)])
    assert force_cost(cat, sc, "US", [ForceEntry(serial=1, equipment=["grenade"])]) == bare + 1
    assert force_cost(cat, dear, "US", [ForceEntry(serial=1, equipment=["grenade"])]) == bare + 2


def test_specialist_equipment_goes_only_to_the_specialist_or_a_man_who_meets_its_need(cat):
    sc = cat.scenarios["range"]
    assert check_force(cat, sc, "US", [ForceEntry(serial=40, equipment=["sniper-scope"])], 2) > 0
    with pytest.raises(RuleError, match="Quill .41. cannot use the Scope: it needs a sniper badge"):
        check_force(cat, sc, "US", [ForceEntry(serial=41, equipment=["sniper-scope"])], 2)
    check_force(cat, sc, "US", [ForceEntry(serial=41, equipment=["binoculars"])], 2)  # anyone may carry these


def test_a_grenade_pouch_adds_three_grenades(cat):
    from engine.turn.setup import SeatSpec, new_game
    st, _ = new_game(cat, "range", [SeatSpec(name="Ann", side="US", force=[ForceEntry(serial=1, equipment=["grenade"])]),
                                    SeatSpec(name="Bo", side="DE")], seed=1)
    assert st.soldiers[1].grenades == cat.soldiers[1].grenades + 3


# ----------------------------------------------------------------------------- smoke grenades


def test_a_smoke_grenade_is_tossed_like_a_grenade_and_lays_light_smoke(position):
    st = position(soldiers=[{**AVERY, "equipment": ["smoke-grenade"]}, DORN])
    ctx = Ctx(st)
    throw_smoke(ctx, 1, "smoke-grenade", (7, 2))  # 5" into the hedge (toss 8, SHOOT -1 on the way)
    assert st.smoke_map() == {"22A": 2} and st.smoke[0].turn == st.turn
    assert uses_left(st, 1, "smoke-grenade") == 1 and not st.soldiers[1].spotted
    with pytest.raises(RuleError, match="modified toss range is 6"):
        throw_smoke(ctx, 1, "smoke-grenade", (9, 2))  # 7" into the hedge, now smoky: 8 - 2
    throw_smoke(ctx, 1, "smoke-grenade", (6, 2))
    assert "smoke-grenade" not in carried(st, 1)  # both canisters gone
    with pytest.raises(RuleError, match="does not carry"):
        throw_smoke(ctx, 1, "smoke-grenade", (6, 2))


# ----------------------------------------------------------------------------- weapons


def test_a_rifle_grenade_reaches_further_than_a_toss_and_bursts(position):
    # Dorn, spotted, 10" off in the copse: beyond Avery's toss but well inside the launcher's 24".
    # Avery's deck gives the blast check (Dash: Hit), Dorn's the damage check (his Kill card).
    st = position(soldiers=[{**AVERY, "equipment": ["rifle-grenade"]},
                            {**DORN, "at": [12, 2], "spotted": True}],
                  decks={0: ["1-C1"], 1: ["4-C1"]}, **STACKED)
    ctx = Ctx(st)
    fire_weapon(ctx, 1, "rifle-grenade", 4)
    assert st.soldiers[4].status == "dead"
    assert st.soldiers[1].spotted and uses_left(st, 1, "rifle-grenade") == 2


def test_a_panzerfaust_fires_once_and_the_tube_is_thrown_away(position):
    st = position(soldiers=[{**AVERY, "equipment": ["panzerfaust"]}, {**DORN, "at": [10, 2], "spotted": True}],
                  decks={0: ["1-C3", "1-C3"]}, **STACKED)  # two blast checks, both Miss
    ctx = Ctx(st)
    fire_weapon(ctx, 1, "panzerfaust", 4)
    assert st.soldiers[4].status == "board" and "panzerfaust" not in st.soldiers[1].equipment
    with pytest.raises(RuleError, match="does not carry"):
        fire_weapon(ctx, 1, "panzerfaust", 4)


def test_a_weapon_needs_a_spotted_target_in_reach(position):
    st = position(soldiers=[{**AVERY, "equipment": ["panzerfaust"]}, {**DORN, "spotted": True}])
    with pytest.raises(RuleError, match="reaches 6\""):  # 12" less the lane's SHOOT -6
        fire_weapon(Ctx(st), 1, "panzerfaust", 4)
    st = position(soldiers=[{**AVERY, "equipment": ["panzerfaust"]}, {**DORN, "at": [12, 2]}])
    with pytest.raises(RuleError, match="not spotted"):
        fire_weapon(Ctx(st), 1, "panzerfaust", 4)


def test_a_bazooka_needs_its_trained_man(position):
    st = position(soldiers=[{**AVERY, "equipment": ["bazooka"]}, {**DORN, "at": [12, 2], "spotted": True}])
    with pytest.raises(RuleError, match="it needs an anti-tank badge"):
        fire_weapon(Ctx(st), 1, "bazooka", 4)


# ----------------------------------------------------------------------------- entrenching tool


def test_an_entrenching_tool_digs_a_scrape_that_helps_while_he_stays_put(position):
    st = position(soldiers=[AVERY, {**DORN, "equipment": ["entrenching-tool"]}])
    before = cover_report(st, 4)[1][0][1]
    dig_in(Ctx(st), 4)
    assert dig_bonus(st, 4) == 1 and cover_report(st, 4)[1][0][1] == before - 1
    st.changing(4).at = (31, 2)  # he crawls a yard: the scrape stays behind
    assert dig_bonus(st, 4) == 0


# ----------------------------------------------------------------------------- captured equipment


def test_a_prisoners_equipment_scores_for_his_captor(position):
    st = position(soldiers=[AVERY, {**DORN, "at": [3, 2], "captor": 1, "equipment": ["binoculars", "panzerfaust"]}])
    # Dorn was the last German free: the game is over at once, and the prisoner is counted
    assert st.step == "over"
    got = [(e.side, e.amount, e.by, e.reason) for e in st.vp if e.serial == 4]
    assert got == [("US", 2 * 3, 1, "prisoner Schtz. Dorn"),  # Dorn himself, double
                   ("US", 1 + 2, 1, "captured equipment of Schtz. Dorn")]  # glasses and panzerfaust


def test_equipment_of_a_man_still_free_scores_nothing(position):
    st = position(soldiers=[AVERY, {**DORN, "equipment": ["binoculars"]}])
    captured_vp(Ctx(st))
    assert not [e for e in st.vp if e.reason.startswith("captured")]


# ----------------------------------------------------------------------------- through a card


def test_smoke_and_a_rifle_grenade_are_used_with_a_shoot_card(position, play):
    # Phase 1 is SHOOT: Avery's dog tag throws smoke into the meadow in front of Dorn, and the
    # legal options list it; a rifle grenade is offered against Dorn as well.
    from engine.core.commands import UseCmd, parse_command
    from engine.legal import legal_commands
    st = position(soldiers=[{**AVERY, "equipment": ["smoke-grenade", "rifle-grenade"]},
                            {**DORN, "at": [12, 2], "spotted": True}],
                  phase_cards=["S10", "S01", "S05"],
                  hands={0: ["1-P2", "1-C3", "1-C4"], 1: ["4-C2", "4-C3", "4-C4"]},
                  decks={0: ["1-C3"], 1: ["4-P1"]})
    st, _ = play(st, "@Ann\nplan 1-P2 1-C3 1-C4\n@Bo\nplan 4-C2 4-C3 4-C4")
    offered = [c for c in legal_commands(st, 0) if isinstance(c, UseCmd)]
    assert any(c.item == "rifle-grenade" and c.target == 4 for c in offered)
    assert any(c.item == "smoke-grenade" and c.at == (7, 2) for c in offered)
    assert str(parse_command("tag use 1 smoke-grenade at 7,2")) == "tag use 1 smoke-grenade at 7,2"
    st, ev = play(st, "@Ann\ntag use 1 smoke-grenade at 7,2")
    assert st.smoke_map() == {"22A": 2} and [e.kind for e in ev].count("smoke_thrown") == 1


def _panzer_lane(cat, at, facing):
    """Avery with a panzerfaust at `at`, facing `facing`, and the spotted Test Panzer in 27A with
    hull and turret facing east (hull 6 front, 2 rear; turret 5 front, 3 rear; Schürzen on the
    turret's sides and rear)."""
    from tests.engine.test_vehicle_damage import PANZER_CREW, add_vehicle, range_game
    st = range_game(cat, [{"serial": 1, "seat": 0, "at": at, "facing": facing, "equipment": ["panzerfaust"]},
                          {"serial": 4, "seat": 1, "at": [37, 2]}])
    v = add_vehicle(st, cat, "test-panzer", seat=1, tile="27A", crew=PANZER_CREW)
    v.facing = v.turret = "e"
    v.spotted = True
    return st, v.plate


def _rocket(st, plate, *cards):
    from tests.engine.test_vehicle_damage import stack
    stack(st, "US-1", *cards)
    ctx = Ctx(st)
    fire_weapon(ctx, 1, "panzerfaust", plate)
    return ctx.events


# Hell on Wheels: a man-packed anti-tank weapon makes a hit check whose Blast box is the hit; the
# damage colour on the aspect the vehicle shows the firer names the compartment; the hits plus
# the round's penetration, less the armour there, are the damage checks (Penetrating a Vehicle's
# Armor); Schürzen double the armour they cover against a HEAT round such as a rocket.


def test_a_panzerfaust_from_behind_strikes_the_hull_rear_through_its_thin_armour(cat):
    # From the west the tank shows its rear. Hit check 1-C4: Blast "Hit", white, which on the
    # rear aspect is the hull: 1 hit + 4 penetration - 2 armour = 3 damage checks.
    st, plate = _panzer_lane(cat, [27, 2], "e")
    ev = _rocket(st, plate, "1-C4")
    hit = next(e for e in ev if e.kind == "vehicle_hit")
    assert (hit.data["card"], hit.data["compartment"], hit.data["armour"], hit.data["damage"]) == ("1-C4", "hull", 2, 3)
    assert "from the rear" in hit.text
    assert "panzerfaust" not in st.soldiers[1].equipment and st.soldiers[1].spotted


def test_a_panzerfaust_from_the_front_meets_the_turret_face(cat):
    # From the east it shows its front. 1-C2: Blast "2 Hits", yellow, the turret on the front
    # aspect: 2 + 4 - 5 = 1 damage check.
    st, plate = _panzer_lane(cat, [36, 2], "w")
    hit = next(e for e in _rocket(st, plate, "1-C2") if e.kind == "vehicle_hit")
    assert (hit.data["compartment"], hit.data["armour"], hit.data["damage"]) == ("turret", 5, 1)


def test_schurzen_double_the_turret_rear_against_a_rocket(cat):
    # From behind, 1-C2 is yellow: the turret on the rear aspect, 3 armour doubled by Schürzen
    # to 6 against the HEAT rocket: 2 + 4 - 6 = 0, nothing gets through.
    st, plate = _panzer_lane(cat, [27, 2], "e")
    hit = next(e for e in _rocket(st, plate, "1-C2") if e.kind == "vehicle_hit")
    assert (hit.data["compartment"], hit.data["armour"], hit.data["damage"]) == ("turret", 6, 0)


def test_a_rocket_whose_hit_check_shows_no_blast_hit_misses(cat):
    st, plate = _panzer_lane(cat, [27, 2], "e")
    ev = _rocket(st, plate, "1-C3")  # Blast "Miss"
    assert [e.kind for e in ev if e.kind.startswith("vehicle_")] == ["vehicle_miss"]
    assert "panzerfaust" not in st.changing(1).equipment, "the tube is thrown away all the same"


def test_a_demolition_charge_still_blasts_the_weakest_armour(cat):
    from tests.engine.test_vehicle_damage import PANZER_CREW, add_vehicle, range_game, stack
    st = range_game(cat, [{"serial": 1, "seat": 0, "at": [31, 2], "facing": "e", "equipment": ["explosives"]},
                          {"serial": 4, "seat": 1, "at": [37, 2]}])
    v = add_vehicle(st, cat, "test-panzer", seat=1, tile="27A", crew=PANZER_CREW)
    v.spotted = True
    stack(st, "US-1", "1-C2", "1-C1")  # blast boxes: 2 Hits, Hit
    ctx = Ctx(st)
    fire_weapon(ctx, 1, "explosives", v.plate)
    blast = next(e for e in ctx.events if e.kind == "vehicle_blast")
    assert (blast.data["hits"], blast.data["armour"], blast.data["damage"]) == (3, 2, 1)


def test_a_rifle_grenade_cannot_hurt_a_tank(cat):
    from tests.engine.test_vehicle_damage import PANZER_CREW, add_vehicle, range_game
    st = range_game(cat, [{"serial": 1, "seat": 0, "at": [27, 2], "facing": "e", "equipment": ["rifle-grenade"]},
                          {"serial": 4, "seat": 1, "at": [37, 2]}])
    add_vehicle(st, cat, "test-panzer", seat=1, tile="27A", crew=PANZER_CREW)
    plate = next(iter(st.vehicles))
    st.changing_vehicle(plate).spotted = True
    with pytest.raises(RuleError, match="cannot hurt a vehicle"):
        fire_weapon(Ctx(st), 1, "rifle-grenade", plate)


def test_a_scenario_sets_the_price_of_grenades_and_presets_carry_their_equipment(cat):
    from engine.turn.setup import SeatSpec, new_game
    sc = cat.scenarios["equipment-range"]
    us = sc.side("US").preset
    base = sum(cat.soldiers[e.serial].profile(e.rank).vp for e in us)
    assert force_cost(cat, sc, "US", us) == base + 2 + 1 + 2 + 2  # scope, smoke, pouch at 2 VP, rifle grenade
    st, _ = new_game(cat, "equipment-range", [SeatSpec(name="Ann", side="US"), SeatSpec(name="Bo", side="DE")],
                     seed=3)
    assert st.soldiers[41].grenades == cat.soldiers[41].grenades + 3
    assert carried(st, 40) == ["sniper-scope", "smoke-grenade"] and uses_left(st, 40, "smoke-grenade") == 2
    assert carried(st, 42) == ["panzerfaust", "entrenching-tool"]
    with pytest.raises(RuleError, match="cannot use the Scope"):
        new_game(cat, "equipment-range", [SeatSpec(name="Ann", side="US", force=[
            ForceEntry(serial=41, equipment=["sniper-scope"])]), SeatSpec(name="Bo", side="DE")], seed=3)


def test_random_games_with_equipment_raise_nothing_and_use_it(cat):
    """Random agents on the equipment range: every listed command is accepted, no exception,
    and smoke and weapons actually get used."""
    from collections import Counter

    from engine.agent import RandomAgent
    from engine.apply import apply
    from engine.legal import legal_commands
    from engine.turn.setup import SeatSpec, new_game
    seen, problems = Counter(), []
    for seed in range(20):
        try:
            st, _ = new_game(cat, "equipment-range", [SeatSpec(name="A", side="US"), SeatSpec(name="B", side="DE")],
                             seed)
            agent, n = RandomAgent(seed), 0
            while st.step != "over" and n < 3000:
                seat = agent.seat_to_act(st)
                cmd = agent.choose(st, seat)
                if n % 5 == 0:
                    assert cmd in legal_commands(st, seat)
                st, events = apply(st, cmd)
                seen.update(e.kind for e in events)
                n += 1
            if st.step != "over":
                problems.append(f"seed {seed}: did not finish")
        except Exception as exc:  # noqa: BLE001 - every failure is reported with its seed
            problems.append(f"seed {seed}: {type(exc).__name__}: {exc}")
    assert problems == []
    assert seen["smoke_thrown"] and seen["weapon_fired"], dict(seen)


# ----------------------------------------------------------------------------- the combat knife (ruling R65)
# Core manual, Specialists, Equipment Cards: the knife is for its specialist or a man whose cover
# value is 2 or less; what it does is ours (R65): one fight card more for the man who may wield it.


def _fight_cards(st) -> dict[str, int]:
    from engine.turn.fight import start_fights
    assert start_fights(Ctx(st))
    return {f.side: len(f.fight_pool) for f in st.forces.values()}


def _knife_fight(position, man: dict) -> dict[str, int]:
    st = position(soldiers=[{**man, "at": [11, 2], "facing": "e"},
                            {"serial": 5, "seat": 1, "at": [12, 2], "facing": "w"}], hands={0: [], 1: []})
    return _fight_cards(st)


def test_a_man_with_cover_2_fights_with_the_knife_one_card_more(position):
    bare = _knife_fight(position, {"serial": 60, "seat": 0})  # Abbott: cover 2, Fight 2
    armed = _knife_fight(position, {"serial": 60, "seat": 0, "equipment": ["combat-knife"]})
    assert bare == {"US": 2, "DE": 2}
    assert armed == {"US": 3, "DE": 2}


def test_a_man_with_cover_3_carrying_the_knife_gains_nothing(position):
    # Quill (cover 3) carries a knife he was handed: he may not use it, so he draws his Fight 2
    assert _knife_fight(position, {"serial": 41, "seat": 0, "equipment": ["combat-knife"]}) == {"US": 2, "DE": 2}


def test_the_specialist_who_brought_the_knife_uses_it_whatever_his_cover(position):
    # Pike's kit lists the knife; his cover is 3, but the card is his own
    assert _knife_fight(position, {"serial": 40, "seat": 0, "equipment": ["combat-knife"]}) == {"US": 3, "DE": 2}


def test_a_pinned_man_halves_his_fight_and_the_knife_still_adds_its_card(position):
    # Abbott pinned: Fight 2 halved to 1, and the blade in his hand adds its card to that
    bare = _knife_fight(position, {"serial": 60, "seat": 0, "pinned": True})
    armed = _knife_fight(position, {"serial": 60, "seat": 0, "pinned": True, "equipment": ["combat-knife"]})
    assert (bare["US"], armed["US"]) == (1, 2)


def test_a_german_crewman_struck_in_the_rear_halves_fight_and_knife_together(position):
    # Albers (cover 2, Fight 2) with a knife, struck from behind: half of 2 + 1, rounded down
    st = position(soldiers=[{"serial": 60, "seat": 0, "at": [11, 2], "facing": "e"},
                            {"serial": 70, "seat": 1, "at": [12, 2], "facing": "e", "equipment": ["combat-knife"]}],
                  hands={0: [], 1: []})
    assert _fight_cards(st) == {"US": 2, "DE": 1}


def test_a_man_with_cover_3_may_not_be_given_the_knife_at_force_selection(cat):
    sc = cat.scenarios["range"]
    with pytest.raises(RuleError, match="Quill .41. cannot use the Knife: it needs a cover value of 2 or less"):
        check_force(cat, sc, "US", [ForceEntry(serial=41, equipment=["combat-knife"])], 2)
    check_force(cat, sc, "US", [ForceEntry(serial=40, equipment=["combat-knife"])], 2)


def test_a_prisoners_knife_scores_for_his_captor_as_before(position):
    st = position(soldiers=[AVERY, {**DORN, "at": [3, 2], "captor": 1, "equipment": ["combat-knife"]}])
    got = [(e.side, e.amount, e.by, e.reason) for e in st.vp if e.serial == 4]
    assert ("US", 1, 1, "captured equipment of Schtz. Dorn") in got
