"""The equip limit and handing equipment off (vehicle book, Equip, Equipment, Handing Off
Equipment): a man carries chart equipment worth up to twice his VP, at most one of any card worth
more than he is, his own named cards always; a hand-off is one MOVE between two men side by side."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from engine.core.content import ForceEntry
from engine.core.errors import RuleError
from engine.infantry.equipment import carried, equip_problem, load_problem, uses_left
from engine.turn.setup import check_force

# Fixture men: Brooks (2) is worth 6 VP, Avery (1) 3 VP, Cole (3) 4 VP. Fixture cards
# (tests/fixtures/rules/assets/equipment/equip_limits.yaml): stick-bomb 4 VP, big-radio 7 VP,
# cole-radio 7 VP with Cole's dog tag on it, papers 25 VP off the chart, spare-spade Equip "No".


def problem(cat, serial, items):
    d = cat.soldiers[serial]
    return equip_problem(cat.equipment, serial, d.name, d.ranks[0].vp, items)


# ----------------------------------------------------------------------------- the book's three examples


def test_a_6_vp_soldier_carries_12_vp_of_equipment(cat):
    assert problem(cat, 2, ["big-radio", "stick-bomb", "binoculars"]) is None  # 7 + 4 + 1 = 12
    assert "may carry 12 VP of equipment (twice his 6 VP); that load is worth 13 VP" in \
        problem(cat, 2, ["big-radio", "stick-bomb", "binoculars", "grenade"])


def test_a_3_vp_soldier_may_carry_only_one_4_vp_stick_bomb(cat):
    assert problem(cat, 1, ["stick-bomb"]) is None
    assert problem(cat, 1, ["stick-bomb", "grenade"]) is None  # along with his other equipment
    assert "may carry only one Stick bomb: at 4 VP it is worth more than he is (3 VP)" in \
        problem(cat, 1, ["stick-bomb", "stick-bomb"])


def test_a_4_vp_soldier_may_carry_two_7_vp_radios_when_one_bears_his_name(cat):
    assert problem(cat, 3, ["cole-radio", "big-radio"]) is None
    assert "only one Big radio" in problem(cat, 3, ["big-radio", "big-radio"])
    # his own radio is free (ruling E2), the other counts: 7 + 1 fits his 8 VP, 7 + 1 + 1 does not
    assert problem(cat, 3, ["cole-radio", "big-radio", "binoculars"]) is None
    assert "may carry 8 VP of equipment" in problem(cat, 3, ["cole-radio", "big-radio", "binoculars", "binoculars"])
    # someone else's name on the card is no help to Avery (3 VP): it counts and is one too many
    assert problem(cat, 1, ["cole-radio"]) is not None


def test_cards_off_the_chart_and_equip_no_cards_are_carried_without_limit(cat):
    assert problem(cat, 1, ["papers"]) is None  # 25 VP, not on the chart
    assert problem(cat, 1, ["spare-spade"] * 5) is None  # Equip "No"
    assert problem(cat, 1, ["papers", "spare-spade", "binoculars", "grenade", "smoke-grenade"]) is None


# ----------------------------------------------------------------------------- force selection


def test_force_selection_refuses_a_load_over_the_limit_with_a_clear_message(cat):
    sc = cat.scenarios["range"]
    assert check_force(cat, sc, "US", [ForceEntry(serial=1, equipment=["stick-bomb", "grenade"])], 2) > 0
    with pytest.raises(RuleError, match=r"Avery \(1\) may carry only one Stick bomb"):
        check_force(cat, sc, "US", [ForceEntry(serial=1, equipment=["stick-bomb", "stick-bomb"])], 2)
    with pytest.raises(RuleError, match=r"Brooks \(2\) may carry 12 VP of equipment \(twice his 6 VP\); "
                                        r"that load is worth 15 VP"):
        check_force(cat, sc, "US", [ForceEntry(serial=2, equipment=["big-radio", "stick-bomb", "stick-bomb"])], 2)
    check_force(cat, sc, "US", [ForceEntry(serial=3, equipment=["cole-radio", "big-radio"])], 2)


def test_every_preset_force_in_the_game_keeps_to_the_limit():
    from engine.core.content import load_catalog
    real = load_catalog()
    for sc in real.scenarios.values():
        for side in sc.sides:
            for e in side.preset:
                d = real.soldiers[e.serial]
                assert equip_problem(real.equipment, e.serial, d.name, d.profile(e.rank).vp, list(e.equipment)) \
                    is None, (sc.id, e.serial)


def test_the_real_chart_gives_every_card_its_columns_and_a_german_stick_bomb():
    from engine.core.content import load_catalog
    real = load_catalog()
    bomb = real.equipment["stick-bomb"]
    assert (bomb.vp, bomb.kind, bomb.blast, bomb.equip, bomb.search) == (4, "weapon", 1, True, False)
    assert real.equipment["grenade"].search is False and real.equipment["radio"].search is True
    assert real.equipment["entrenching-tool"].equip is False


# ----------------------------------------------------------------------------- handing off

AVERY = {"serial": 1, "seat": 0, "at": [2, 2], "facing": "e"}  # 3 VP, in 21A
BROOKS = {"serial": 2, "seat": 0, "at": [3, 2], "facing": "e"}  # 6 VP, the next cell
DORN = {"serial": 4, "seat": 1, "at": [37, 2], "facing": "w"}  # far off in 28A


def test_a_hand_off_is_one_move_action_for_the_two_men(position, play):
    # Phase 1 is MOVE: Brooks's dog tag hands his field glasses to Avery beside him; the legal
    # commands offer it, and afterwards the dog tag action is spent.
    from engine.core.commands import HandOffCmd, parse_command
    from engine.legal import legal_commands
    st = position(soldiers=[AVERY, {**BROOKS, "equipment": ["binoculars", "big-radio"]}, DORN],
                  phase_cards=["S07", "S01", "S04"],
                  hands={0: ["2-C1", "1-C3", "1-C4"], 1: ["4-C1", "4-C3", "4-C4"]})
    st, _ = play(st, "@Ann\nplan 2-C1 1-C3 1-C4\n@Bo\nplan 4-C1 4-C3 4-C4")
    offered = [c for c in legal_commands(st, 0) if isinstance(c, HandOffCmd)]
    assert any(c.serial == 2 and c.item == "binoculars" and c.to == 1 and c.via == "tag" for c in offered)
    assert not any(c.item == "big-radio" and c.to == 1 for c in offered)  # 7 VP: over Avery's 6
    assert str(parse_command("tag handoff 2 binoculars 1")) == "tag handoff 2 binoculars 1"
    st, ev = play(st, "@Ann\ntag handoff 2 binoculars 1")
    assert carried(st, 1) == ["binoculars"] and carried(st, 2) == ["big-radio"]
    assert [e.kind for e in ev].count("hand_off") == 1
    assert st.active.sources[0].kind == "tag" and st.active.sources[0].uses == 1


def test_a_hand_off_must_keep_the_receiver_within_his_limits(position):
    from engine.advanced.equipment_use import hand_off
    from engine.core.log import Ctx
    st = position(soldiers=[{**AVERY, "equipment": ["stick-bomb", "binoculars"]},
                            {**BROOKS, "equipment": ["big-radio", "stick-bomb", "binoculars"]}, DORN])
    ctx = Ctx(st)
    with pytest.raises(RuleError, match=r"Avery may carry 6 VP of equipment \(twice his 3 VP\); that load is worth 12"):
        hand_off(ctx, 2, "big-radio", 1)
    with pytest.raises(RuleError, match="only one Stick bomb"):
        hand_off(ctx, 2, "stick-bomb", 1)
    with pytest.raises(RuleError, match="may carry 12 VP of equipment .twice his 6 VP.; that load is worth 16"):
        hand_off(ctx, 1, "stick-bomb", 2)
    hand_off(ctx, 2, "binoculars", 1)  # Avery: 4 + 1 + 1 = 6, just within his limit
    assert carried(st, 1).count("binoculars") == 2 and load_problem(st, 1) is None
def test_a_hand_off_needs_the_two_men_side_by_side_in_one_square(position):
    from engine.advanced.equipment_use import hand_off, hand_off_problem
    from engine.core.log import Ctx
    st = position(soldiers=[AVERY, {**BROOKS, "at": [4, 4], "equipment": ["binoculars"]}, DORN])
    assert "not in base contact" in hand_off_problem(st, 2, "binoculars", 1)  # two cells apart, same square
    st.changing(2).at = (5, 2)  # the next cell, but over the line in 22A
    assert "Avery is not in Pvt. Brooks's square (22A)" in hand_off_problem(st, 2, "binoculars", 1)
    assert "not another friendly soldier" in hand_off_problem(st, 2, "binoculars", 4)
    st.changing(2).at = (1, 1)  # diagonal neighbours count as base contact
    hand_off(Ctx(st), 2, "binoculars", 1)
    assert carried(st, 1) == ["binoculars"]


def test_a_half_spent_card_is_handed_on_with_the_uses_left_on_it(position):
    from engine.advanced.equipment_use import hand_off
    from engine.core.log import Ctx
    st = position(soldiers=[AVERY, {**BROOKS, "equipment": ["rifle-grenade", "rifle-grenade!used"]}, DORN])
    hand_off(Ctx(st), 2, "rifle-grenade", 1)
    assert uses_left(st, 1, "rifle-grenade") == 2 and uses_left(st, 2, "rifle-grenade") == 0
    assert st.soldiers[2].equipment == []


# ----------------------------------------------------------------------------- invariants

@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(copies=hs.integers(1, 3), spent=hs.integers(0, 8))
def test_a_hand_off_neither_makes_nor_loses_a_use(position, copies, spent):
    # Brooks holds some rifle grenade launchers (3 bombs each) with some bombs already fired.
    from engine.advanced.equipment_use import hand_off
    from engine.core.log import Ctx
    spent = min(spent, copies * 3 - 1)
    st = position(soldiers=[AVERY, {**BROOKS, "equipment": ["rifle-grenade"] * copies + ["rifle-grenade!used"] * spent},
                            DORN])
    before = uses_left(st, 2, "rifle-grenade")
    hand_off(Ctx(st), 2, "rifle-grenade", 1)
    after = uses_left(st, 1, "rifle-grenade") + (uses_left(st, 2, "rifle-grenade") or 0)
    assert after == before and 1 <= uses_left(st, 1, "rifle-grenade") <= 3
    for serial in (1, 2):  # no man keeps an empty launcher
        assert "rifle-grenade" not in carried(st, serial) or uses_left(st, serial, "rifle-grenade") > 0


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(items=hs.lists(hs.sampled_from(["stick-bomb", "big-radio", "cole-radio", "binoculars", "grenade", "papers",
                                       "spare-spade"]), max_size=6),
       serial=hs.sampled_from([1, 2, 3]))
def test_the_limit_reads_as_the_book_says(cat, items, serial):
    vp = cat.soldiers[serial].ranks[0].vp
    counted = [q for q in items if cat.equipment[q].chart and cat.equipment[q].equip and cat.equipment[q].owner != serial]
    ok = sum(cat.equipment[q].vp for q in counted) <= 2 * vp and all(
        counted.count(q) == 1 for q in counted if cat.equipment[q].vp > vp)
    assert (problem(cat, serial, items) is None) == ok
