"""Ruling R69: a check that finds the action deck and the discards both empty is not made. A small
force whose every card is in the hand or on the panel can still be shot at, and can still shoot:
the shot the listing offers is accepted, a damage check with no card does nothing and a hit check
with no card scores no hits. (Found in 4-player hidden-yard games, where a one-man force holds
all seven of his cards.)"""
from __future__ import annotations

from engine import apply
from engine.core import commands as C
from engine.legal import legal_commands

AVERY_ALL = ["1-P2", "1-C3", "1-C4", "1-C1", "1-C2", "1-P1", "1-P3"]
DORN_ALL = ["4-C2", "4-C3", "4-C4", "4-C1", "4-P1", "4-P2", "4-P3"]


def lane(position, hands, decks=None):
    # Avery (1) 6" west of Dorn (4) in the lane, facing him, Dorn spotted; phase 1 is Avery's SHOOT
    return position(scenario="yard", soldiers=[{"serial": 1, "seat": 0, "at": [2, 7], "facing": "e"},
                                               {"serial": 4, "seat": 1, "at": [8, 7], "facing": "w", "spotted": True}],
                    phase_cards=["S10", "S01", "S05"], hands=hands, decks=decks or {})


def kinds(events, kind):
    return [e for e in events if e.kind == kind]


def test_a_man_whose_player_holds_every_card_is_shot_at_and_the_hits_do_nothing(position, play):
    st = lane(position, {0: ["1-P2", "1-C3", "1-C4"], 1: DORN_ALL}, decks={0: ["1-C2"]})
    st, _ = play(st, "@Ann\nplan 1-P2 1-C3 1-C4\n@Bo\nplan 4-C2 4-C3 4-C4")
    bo = st.forces["DE-2"]
    assert bo.deck == [] and bo.discard == [] and len(bo.hand) == 4
    shot = C.ShootCmd(seat=0, serial=1, target=4, via="tag")
    assert shot in legal_commands(st, 0)
    st, ev = apply(st, shot)
    # 1-C2 reads three hits at 6"; Dorn's player has no card for any of the three damage checks
    assert [e.data["hits"] for e in kinds(ev, "hit_check")] == [3]
    assert [e.data["serial"] for e in kinds(ev, "no_check")] == [4, 4, 4]
    assert not kinds(ev, "damage_check")
    dorn = st.soldiers[4]
    assert dorn.status == "board" and not dorn.pinned and not dorn.wounded
    assert st.forces["DE-2"].hand == bo.hand and st.forces["DE-2"].discard == []


def test_a_shooter_whose_player_holds_every_card_fires_without_a_hit_check(position, play):
    st = lane(position, {0: AVERY_ALL, 1: ["4-C2", "4-C3", "4-C4"]})
    st, _ = play(st, "@Ann\nplan 1-P2 1-C3 1-C4\n@Bo\nplan 4-C2 4-C3 4-C4")
    ann = st.forces["US-1"]
    assert ann.deck == [] and ann.discard == []
    shot = C.ShootCmd(seat=0, serial=1, target=4, via="tag")
    assert shot in legal_commands(st, 0)
    st, ev = apply(st, shot)
    assert [e.data["serial"] for e in kinds(ev, "no_check")] == [1]
    assert not kinds(ev, "hit_check") and not kinds(ev, "damage_check")
    assert st.soldiers[1].spotted  # he fired all the same
    assert st.soldiers[4].status == "board" and not st.soldiers[4].pinned


def test_every_listed_command_is_accepted_when_a_force_has_no_card_to_pull(position, play):
    st = lane(position, {0: AVERY_ALL, 1: DORN_ALL})
    st, _ = play(st, "@Ann\nplan 1-P2 1-C3 1-C4\n@Bo\nplan 4-C2 4-C3 4-C4")
    listed = legal_commands(st, 0)
    assert any(c.type == "shoot" for c in listed) and any(c.type == "toss" for c in listed)
    for cmd in listed:
        apply(st, cmd)  # raises if the list offers something the rules refuse
