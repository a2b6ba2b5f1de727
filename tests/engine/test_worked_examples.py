"""Every worked example of the core manual's Basic Game, as a test that reads like it.

The fixture map's row 21A..28A is built so the modifier sums are the book's: LOOK over
22A..27A is -8, SHOOT over the same tiles -6, HIDE from 27A back to 21A inclusive -9.
Avery (1) stands in for the book's US private, Dorn (4) for the German he looks at.
"""
from __future__ import annotations

import pytest

from engine.core.errors import RuleError
from engine.core.formulas import (
    bands_in_range,
    cover_value,
    hides,
    rally_reach,
    sight_range,
)
from engine.infantry.look import can_spot
from engine.infantry.shoot import read_hits
from engine.script import ScriptError


def kinds(events, kind):
    return [e for e in events if e.kind == kind]


# ----------------------------------------------------------------------------- Measuring Distance


def test_sighting_example_spots_at_six_squares_against_sight_fifteen_less_eight(position, play):
    # Sight 15, LOOK modifiers -8 on the line: modified sight 7; the target is 6 squares away.
    assert sight_range(15, -8) == 7 and can_spot(6, 15, -8)
    st = position(
        soldiers=[{"serial": 1, "seat": 0, "at": [2, 2], "facing": "e"},
                  {"serial": 4, "seat": 1, "at": [32, 2], "facing": "w"}],
        phase_cards=["S01", "S05", "S09"],
        hands={0: ["1-C3", "1-C4", "1-C1"], 1: ["4-C4", "4-P1", "4-C1"]})
    st, ev = play(st, "@Ann\nplan 1-C3 1-C4 1-C1\n@Bo\nplan 4-C4 4-P1 4-C1\n@Ann\ntag sight 1")
    spotted = kinds(ev, "spotted")
    assert spotted and spotted[0].data == {"serial": 1, "target": 4, "squares": 6, "range": 7}
    assert st.soldiers[4].spotted


def test_sighting_fails_when_the_pin_halves_his_sight(position, play):
    # Pinned, sight 15 becomes 7: 7 - 8 = -1 squares, and the German stays unseen.
    st = position(
        soldiers=[{"serial": 1, "seat": 0, "at": [2, 2], "facing": "e", "pinned": True},
                  {"serial": 4, "seat": 1, "at": [32, 2], "facing": "w"}],
        phase_cards=["S01", "S05", "S09"],
        hands={0: ["1-C3", "1-C4", "1-C1"], 1: ["4-C4", "4-P1", "4-C1"]})
    st, ev = play(st, "@Ann\nplan 1-C3 1-C4 1-C1\n@Bo\nplan 4-C4 4-P1 4-C1\n@Ann\ntag sight 1")
    assert kinds(ev, "sight_fail") and not st.soldiers[4].spotted


def test_long_and_short_range_example_reads_only_the_long_band(position, play):
    # Long 13 and Short 7 squares, SHOOT modifiers -6: Short becomes 1, Long 7; 6 squares away,
    # so only Long applies. The stacked hit check shows Long: Hit; the German's damage check: Pin.
    assert bands_in_range(13, 7, 10, -6, squares=6, inches_=30) == ["long"]
    st = position(
        soldiers=[{"serial": 1, "seat": 0, "at": [2, 2], "facing": "e"},
                  {"serial": 4, "seat": 1, "at": [32, 2], "facing": "w", "spotted": True}],
        phase_cards=["S10", "S01", "S05"],
        hands={0: ["1-P2", "1-C3", "1-C4"], 1: ["4-C2", "4-C3", "4-C4"]},
        decks={0: ["1-C2"], 1: ["4-P3"]})
    st, ev = play(st, "@Ann\nplan 1-P2 1-C3 1-C4\n@Bo\nplan 4-C2 4-C3 4-C4\n@Ann\ntag shoot 1 4")
    shot = kinds(ev, "shoot")[0]
    assert shot.data["bands"] == ["long"]
    check = kinds(ev, "hit_check")[0]
    assert check.data == {"card": "1-C2", "hits": 1, "chain": False}  # 1-C2 reads Long: Hit
    assert kinds(ev, "damage_check")[0].data["result"] == "Pin"
    assert st.soldiers[4].pinned
    assert st.changing(1).spotted, "firing a hit check spots the shooter"


def test_take_cover_example_cover_six_less_nine_is_minus_three(position, play):
    # Cover 6; HIDE modifiers from his own square up to and including the enemy's sum to -9:
    # 6 - 9 = -3, below zero, so he takes cover and loses the Spotted marker.
    assert cover_value(6, -9) == -3 and hides(-3)
    st = position(
        soldiers=[{"serial": 1, "seat": 0, "at": [2, 2], "facing": "e"},
                  {"serial": 4, "seat": 1, "at": [32, 2], "facing": "w", "spotted": True}],
        phase_cards=["S04", "S01", "S05"],
        hands={0: ["1-C3", "1-C4", "1-C1"], 1: ["4-C4", "4-C3", "4-P1"]})
    st, ev = play(st, "@Ann\nplan 1-C3 1-C4 1-C1\n@Bo\nplan 4-C4 4-C3 4-P1\ntag cover 4")
    assert kinds(ev, "cover") and not st.soldiers[4].spotted


def test_take_cover_fails_with_the_enemy_closer(position, play):
    # From 25A only 27A (-3), 26A (-2) and 25A (0) count: 6 - 5 = 1, not below zero.
    st = position(
        soldiers=[{"serial": 1, "seat": 0, "at": [22, 2], "facing": "e"},
                  {"serial": 4, "seat": 1, "at": [32, 2], "facing": "w", "spotted": True}],
        phase_cards=["S04", "S01", "S05"],
        hands={0: ["1-C3", "1-C4", "1-C1"], 1: ["4-C4", "4-C3", "4-P1"]})
    st, ev = play(st, "@Ann\nplan 1-C3 1-C4 1-C1\n@Bo\nplan 4-C4 4-C3 4-P1\ntag cover 4")
    assert kinds(ev, "cover_fail")[0].data["value"] == 1
    assert st.soldiers[4].spotted


def test_pinned_cover_is_halved_toward_zero():
    # A pinned soldier's cover 6 becomes 3; cover -2 becomes -1 (Pinned: toward zero).
    assert cover_value(6, 0, pinned=True) == 3
    assert cover_value(-2, 0, pinned=True) == -1
    assert cover_value(-3, 0, pinned=True) == -1


# ----------------------------------------------------------------------------- Hit Check


def test_hit_check_band_example_all_three_bands_at_four_inches():
    # 4" away with Long 8 squares, Short 5 squares, Close 10": all three bands are read.
    assert bands_in_range(8, 5, 10, 0, squares=1, inches_=4) == ["long", "short", "close"]
    # at a modified 7 squares only Long is read
    assert bands_in_range(8, 5, 10, 0, squares=7, inches_=35) == ["long"]


def test_one_card_can_score_a_hit_in_every_band(cat):
    card = cat.cards["1-C2"]  # Long Hit, Short Hit+, Close Hit
    assert read_hits(card, ["long", "short", "close"], use_hit_plus=True)[:2] == (3, True)
    # without Use Hit+ the Hit+ is one plain hit
    assert read_hits(card, ["long", "short", "close"], use_hit_plus=False)[:2] == (3, False)
    assert read_hits(card, ["long"], use_hit_plus=True)[:2] == (1, False)


def test_hit_plus_chains_to_a_second_spotted_enemy_within_three_inches(position, play):
    # Brooks (Use Hit+) fires at Dorn close by; the stacked card reads Hit, Hit+, Hit: three hits
    # and a chained shot. He shifts it to Engel, 2" from Dorn. Dorn's three damage checks are
    # Zips; the chained check (Close: Hit) pins Engel.
    st = position(
        soldiers=[{"serial": 2, "seat": 0, "at": [22, 2], "facing": "e"},
                  {"serial": 4, "seat": 1, "at": [26, 2], "facing": "w", "spotted": True},
                  {"serial": 5, "seat": 1, "at": [26, 4], "facing": "w", "spotted": True}],
        phase_cards=["S10", "S01", "S05"],
        hands={0: ["2-P2", "2-C3", "2-C4"], 1: ["4-C2", "4-C3", "4-C4"]},
        decks={0: ["2-C2", "2-C3"], 1: ["4-P1", "4-P2", "4-C1", "5-C3"]})
    st, ev = play(st, "@Ann\nplan 2-P2 2-C3 2-C4\n@Bo\nplan 4-C2 4-C3 4-C4\n@Ann\ntag shoot 2 4")
    assert st.pending is not None and st.pending.kind == "hitplus"
    assert sorted(st.pending.candidates) == [4, 5]
    with pytest.raises(RuleError):
        play(st, "hitplus 1")
    # Bo's deck: 4-P1 Zip, 4-P2 Zip, 4-C1 Kill for Dorn's three hits, then 5-C3 Pin for Engel
    st, ev = play(st, "hitplus 5")
    checks = kinds(ev, "hit_check")
    assert [c.data["card"] for c in checks] == ["2-C3"]
    assert [(d.data["serial"], d.data["result"]) for d in kinds(ev, "damage_check")] == [
        (4, "Zip"), (4, "Zip"), (4, "Kill"), (5, "Pin")]
    assert st.soldiers[4].status == "dead" and st.soldiers[5].pinned


def test_without_use_hit_plus_a_hit_plus_is_one_hit_and_no_chain(position, play):
    st = position(
        soldiers=[{"serial": 1, "seat": 0, "at": [22, 2], "facing": "e"},
                  {"serial": 4, "seat": 1, "at": [26, 2], "facing": "w", "spotted": True},
                  {"serial": 5, "seat": 1, "at": [26, 4], "facing": "w", "spotted": True}],
        phase_cards=["S10", "S01", "S05"],
        hands={0: ["1-P2", "1-C3", "1-C4"], 1: ["4-C2", "4-C3", "4-C4"]},
        decks={0: ["1-C2"], 1: ["4-P1", "4-P2", "4-C4"]})
    st, ev = play(st, "@Ann\nplan 1-P2 1-C3 1-C4\n@Bo\nplan 4-C2 4-C3 4-C4\n@Ann\ntag shoot 1 4")
    assert kinds(ev, "hit_check")[0].data == {"card": "1-C2", "hits": 3, "chain": False}
    assert len(kinds(ev, "damage_check")) == 3
    assert st.pending is None


# ----------------------------------------------------------------------------- Fight


FIGHT_POSITION = dict(
    scenario="yard",
    soldiers=[
        # Germans 4 and 5 side by side facing west; US 2 and 3 in front of them; US 1 behind
        # Dorn (4), touching only the flat of his dog tag: Dorn is struck in the rear.
        {"serial": 4, "seat": 1, "at": [12, 7], "facing": "w"},
        {"serial": 5, "seat": 1, "at": [12, 8], "facing": "w"},
        {"serial": 2, "seat": 0, "at": [11, 7], "facing": "e"},
        {"serial": 3, "seat": 0, "at": [11, 8], "facing": "e"},
        {"serial": 1, "seat": 0, "at": [13, 6], "facing": "sw"},
    ],
    phase_cards=["S05", "S08", "S02"],
    # The Germans hold two more cards than the US player: they have the initiative.
    hands={0: ["2-C4", "2-C1", "2-C3"], 1: ["5-C4", "5-C1", "5-C3", "5-C2", "5-P2"]},
    # German fight cards: Kill, Pin, Zip. US fight cards: Kill, Wound, Pin, Zip, Zip, Zip.
    decks={1: ["4-C1", "4-C3", "4-C4"], 0: ["1-C1", "1-C2", "1-C3", "1-C4", "1-P1", "1-P2"]},
)


def test_fight_example(position, play):
    st = position(**FIGHT_POSITION)
    # Nobody in contact can HIDE, so both HIDE cards end by themselves and the phase ends in a fight.
    st, ev = play(st, "@Ann\nplan 2-C4 2-C1 2-C3\n@Bo\nplan 5-C4 5-C1 5-C3")
    draws = {e.data["force"]: e.data["n"] for e in kinds(ev, "fight_draw")}
    assert draws == {"DE-2": 3, "US-1": 6}, "Dorn, struck in the rear, draws half his Fight 2"
    st, ev = play(st, """
        @Bo
        fight 4-C1 1      # Kill against US soldier 1
        @Ann
        fight 1-C1 5      # Kill against German 5
        @Bo
        fight 4-C3 2      # Pin against US soldier 2
        @Ann
        fight 1-C2 4      # Wound against German 4
        @Bo
        fight 4-C4 3      # the Germans' Zip does nothing
        @Ann
        fight 1-C3 4      # Pin against German 4; the three Zips that remain play themselves
    """)
    assert st.soldiers[2].pinned
    assert st.soldiers[4].wounded and st.soldiers[4].pinned
    assert len(kinds(ev, "zip")) == 4
    # The fight is over; each side decides the fate of the man it struck down.
    assert st.pending.kind == "capture" and st.pending.victim == 1
    st, ev = play(st, "@Bo\nkill 1\n@Ann\ncapture 5 by 3")
    assert st.soldiers[1].status == "dead"
    assert st.soldiers[5].captor == 3 and st.soldiers[5].controller == "US-1"
    # US 2, US 3 and the wounded German remain in contact: locked in combat.
    from engine.infantry.contact import in_contact
    assert in_contact(st, 4)


def test_prisoners_are_worth_double_at_the_end(position, play):
    st = position(**FIGHT_POSITION)
    st, _ = play(st, "@Ann\nplan 2-C4 2-C1 2-C3\n@Bo\nplan 5-C4 5-C1 5-C3\nfight 4-C1 1\n@Ann\nfight 1-C1 5\n"
                     "@Bo\nfight 4-C3 2\n@Ann\nfight 1-C2 4\n@Bo\nfight 4-C4 3\n@Ann\nfight 1-C3 4\n"
                     "@Bo\ncapture 1\n@Ann\ncapture 5")
    from engine.core.log import Ctx
    from engine.turn.victory import end_game
    ctx = Ctx(st.clone())
    end_game(ctx, "test")
    vp = {e.reason: e.amount for e in ctx.st.vp}
    assert vp["prisoner Schtz. Engel"] == 2 * 4
    assert vp["prisoner Pvt. Avery"] == 2 * 3


# ----------------------------------------------------------------------------- Rally and Hold


def test_rally_reach_is_ten_inches_less_hide_modifiers(position, play):
    # Cole (junior NCO, rally 1) at 22A rallies Avery pinned in 24A: HIDE 22A -1, 23A -2, 24A -1
    # make the reach 10 - 4 = 6 inches; Avery is exactly 6" away.
    assert rally_reach(-4) == 6
    base = dict(phase_cards=["S04", "S01", "S05"],
                hands={0: ["3-J1", "3-C3", "3-C1"], 1: ["4-C4", "4-C3", "4-P1"]})
    st = position(soldiers=[{"serial": 3, "seat": 0, "rank": "junior_nco", "at": [9, 2], "facing": "e"},
                            {"serial": 1, "seat": 0, "at": [15, 2], "facing": "e", "pinned": True},
                            {"serial": 4, "seat": 1, "at": [37, 2], "facing": "w"}], **base)
    st, ev = play(st, "@Ann\nplan 3-J1 3-C3 3-C1\n@Bo\nplan 4-C4 4-C3 4-P1\n@Ann\ntag rally 3 1")
    assert not st.soldiers[1].pinned
    far = position(soldiers=[{"serial": 3, "seat": 0, "rank": "junior_nco", "at": [9, 2], "facing": "e"},
                             {"serial": 1, "seat": 0, "at": [16, 2], "facing": "e", "pinned": True},
                             {"serial": 4, "seat": 1, "at": [37, 2], "facing": "w"}], **base)
    with pytest.raises(ScriptError, match='7" from .*reaches 6"'):
        play(far, "@Ann\nplan 3-J1 3-C3 3-C1\n@Bo\nplan 4-C4 4-C3 4-P1\n@Ann\ntag rally 3 1")


def test_a_pinned_rallier_rallies_himself_first(position, play):
    st = position(soldiers=[{"serial": 3, "seat": 0, "rank": "senior_nco", "at": [9, 2], "facing": "e",
                             "pinned": True},
                            {"serial": 1, "seat": 0, "at": [11, 2], "facing": "e", "pinned": True},
                            {"serial": 4, "seat": 1, "at": [37, 2], "facing": "w"}],
                  phase_cards=["S04", "S01", "S05"],
                  hands={0: ["3-S1", "3-C3", "3-C1"], 1: ["4-C4", "4-C3", "4-P1"]})
    st, _ = play(st, "@Ann\nplan 3-S1 3-C3 3-C1\n@Bo\nplan 4-C4 4-C3 4-P1\n@Ann")
    with pytest.raises(ScriptError, match="rally himself first"):
        play(st, "tag rally 3 1")
    # senior NCO rally 2, halved by the pin to 1: he can rally only himself
    st, _ = play(st, "tag rally 3 3")
    assert not st.soldiers[3].pinned and st.soldiers[1].pinned
    assert st.active is None or st.active.card != "3-S1", "his one rally is used: the card is finished"


def test_hold_cards_under_a_soldier_change_initiative_and_come_back(position, play):
    # Cole (junior NCO, hold 1) holds a card with his HIDE dog tag. Both hands hold two cards
    # after placing, Ann leading on her higher-VP soldier; holding one hands the initiative to Bo.
    from engine.core import initiative
    st = position(soldiers=[{"serial": 3, "seat": 0, "rank": "junior_nco", "at": [9, 2], "facing": "e"},
                            {"serial": 4, "seat": 1, "at": [37, 2], "facing": "w"}],
                  phase_cards=["S04", "S01", "S05"],
                  hands={0: ["3-J1", "3-C3", "3-C1", "3-C2", "3-C4"],
                         1: ["4-C4", "4-C3", "4-P1", "4-C2", "4-P2"]})
    st, _ = play(st, "@Ann\nplan 3-J1 3-C3 3-C1\n@Bo\nplan 4-C4 4-C3 4-P1\n@Ann")
    assert initiative.order(st) == ["US-1", "DE-2"]
    with pytest.raises(ScriptError, match="may hold 1 card"):
        play(st, "tag hold 3 3-C2 3-C4")
    st, ev = play(st, "tag hold 3 3-C2")
    assert st.soldiers[3].held == ["3-C2"] and st.forces["US-1"].hand == ["3-C4"]
    assert initiative.order(st) == ["DE-2", "US-1"]
    # Nothing else on either HIDE card can be done; phase 2 is revealed and Ann may take it back.
    assert st.pending is not None and st.pending.kind == "unhold" and st.phase == 2
    st, _ = play(st, "@Ann\nunhold 3-C2")
    assert sorted(st.forces["US-1"].hand) == ["3-C2", "3-C4"] and st.soldiers[3].held == []
    assert initiative.order(st) == ["US-1", "DE-2"]


def test_held_cards_stay_when_pinned_and_are_discarded_when_he_dies(position):
    from engine.core.content import Damage
    from engine.core.log import Ctx
    from engine.infantry.damage import apply_damage, kill
    st = position(soldiers=[{"serial": 3, "seat": 0, "rank": "junior_nco", "at": [9, 2], "held": ["3-C2"]},
                            {"serial": 4, "seat": 1, "at": [37, 2], "facing": "w"}],
                  phase_cards=["S04", "S01", "S05"], hands={0: ["3-J1"], 1: ["4-C4"]})
    ctx = Ctx(st.clone())
    apply_damage(ctx, 3, Damage.PIN, by_force="DE-2", cause="shot")
    assert ctx.st.soldiers[3].held == ["3-C2"]
    kill(ctx, 3, by_force="DE-2", cause="shot")
    assert ctx.st.soldiers[3].held == [] and "3-C2" in ctx.st.forces["US-1"].discard


# ----------------------------------------------------------------------------- multi-action cards


def test_multi_action_card_used_as_move_with_narrator_team_and_hide_dog_tag(position, play):
    # Avery's medal card (MOVE/HIDE) on a SHOOT-then-MOVE phase can only be a MOVE card. Its
    # narrator box spots the nearest unspotted enemy, its bubble has two take cover then two
    # move, and the dog tag may still be used as a HIDE: here, to rally a pinned soldier.
    st = position(
        scenario="yard",
        soldiers=[{"serial": 1, "seat": 0, "at": [2, 2], "facing": "e", "medals": 1, "spotted": True},
                  {"serial": 2, "seat": 0, "at": [3, 6], "facing": "e", "pinned": True},
                  {"serial": 3, "seat": 0, "at": [1, 8], "facing": "e"},
                  {"serial": 4, "seat": 1, "at": [22, 2], "facing": "w"}],
        phase_cards=["S12", "S01", "S05"],
        hands={0: ["1-M1", "1-C3", "1-C4"], 1: ["4-C2", "4-C3", "4-C4"]})
    st, ev = play(st, "@Ann\nplan 1-M1 1-C3 1-C4\n@Bo\nplan 4-C2 4-C3 4-C4")
    # Bo's SHOOT comes first (nobody is spotted for him but Avery, out of arc or not, he passes)
    while st.active is not None and st.active.force == "DE-2":
        st, _ = play(st, "@Bo\npass")
    assert st.active.card == "1-M1" and st.active.action.value == "move"
    st, ev = play(st, "@Ann\nnote sight 1")
    assert st.soldiers[4].spotted
    with pytest.raises(ScriptError):
        play(st, "tag shoot 1 4")  # the dog tag offers MOVE or HIDE, not SHOOT
    st, ev = play(st, "team move 3 31A")
    st, ev = play(st, "tag rally 1 2")
    assert not st.soldiers[2].pinned
