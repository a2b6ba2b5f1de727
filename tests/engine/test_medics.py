"""Medics (core manual, Advanced Rules, Medics): first aid for a dying friend within the medic's
modified Walk, and where a dead medic's VP go. Decks are stacked; the cards' boxes are quoted."""
from __future__ import annotations

from engine.advanced.medic import INDIRECT, is_medic, score_dead_medic
from engine.core.board import adjacent
from engine.core.log import Ctx
from engine.infantry.damage import kill

PHASES = dict(phase_cards=["S10", "S01", "S05"],
              hands={0: ["1-P2", "1-C3", "1-C4"], 1: ["4-C2", "4-C3", "4-C4"]})
AVERY_SHOOTS = "@Ann\nplan 1-P2 1-C3 1-C4\n@Bo\nplan 4-C2 4-C3 4-C4\n@Ann\ntag shoot 1 4"


def kinds(events, kind):
    return [e for e in events if e.kind == kind]


def dorn_under_fire(position, dorn_deck, brandt_at=(36, 2), **brandt):
    """Avery (US) shoots Dorn (DE) down the range; the German medic Brandt stands behind Dorn.
    Avery's hit check is 1-C2 (Long: Hit); Dorn's deck gives his damage check, then first aid."""
    return position(soldiers=[{"serial": 1, "seat": 0, "at": [2, 2], "facing": "e"},
                              {"serial": 4, "seat": 1, "at": [32, 2], "facing": "w", "spotted": True},
                              {"serial": 31, "seat": 1, "at": list(brandt_at), "facing": "w", **brandt}],
                    decks={0: ["1-C2"], 1: dorn_deck}, **PHASES)


def test_a_medic_runs_to_a_dying_man_and_saves_him_with_his_own_card(position, play):
    # Dorn's damage check is 4-C1 (Kill). Brandt, 4" away (Walk 6, less 1 for the track he
    # stands on), runs into base contact and makes his two identity checks off Dorn's deck:
    # 31-C1 is his own card (not Dorn's), 4-C2 is Dorn's. Dorn lives, wounded; nobody scores.
    st = dorn_under_fire(position, ["4-C1", "31-C1", "4-C2"])
    assert is_medic(st, 31) and not is_medic(st, 4)
    st, ev = play(st, AVERY_SHOOTS)
    assert kinds(ev, "damage_check")[0].data["result"] == "Kill"
    dorn, brandt = st.soldiers[4], st.soldiers[31]
    assert dorn.status == "board" and dorn.wounded
    assert adjacent(brandt.at, dorn.at) and brandt.at == (33, 2)
    assert [e.data["success"] for e in kinds(ev, "identity_check")] == [False, True]
    assert kinds(ev, "medic_save") and not kinds(ev, "killed")
    assert st.side_vp("US") == 0 and st.soldiers[1].kills == 0
    assert brandt.deeds["saves"] == 1


def test_a_medic_who_draws_none_of_the_dying_mans_cards_cannot_save_him(position, play):
    st = dorn_under_fire(position, ["4-C1", "31-C1", "31-C2"])
    st, ev = play(st, AVERY_SHOOTS)
    assert st.soldiers[4].status == "dead"
    assert len(kinds(ev, "identity_check")) == 2 and kinds(ev, "medic_fail")
    assert st.side_vp("US") == 3 and st.soldiers[1].kills == 1


def test_a_wounded_medic_makes_only_the_checks_of_his_wounded_side(position, play):
    # Brandt wounded: medic 1. His one check (31-C1) fails; Dorn's own 4-C2 stays on the deck.
    st = dorn_under_fire(position, ["4-C1", "31-C1", "4-C2"], wounded=True)
    st, ev = play(st, AVERY_SHOOTS)
    assert st.soldiers[4].status == "dead" and len(kinds(ev, "identity_check")) == 1
    assert st.forces["DE-2"].deck[0] == "4-C2"


def test_a_medic_beyond_his_modified_walk_does_not_react(position, play):
    # Brandt 12" behind Dorn: too far for Walk 6.
    st = dorn_under_fire(position, ["4-C1", "4-C2"], brandt_at=(20, 4))
    st, ev = play(st, AVERY_SHOOTS)
    assert st.soldiers[4].status == "dead" and not kinds(ev, "medic_move")
    assert st.soldiers[31].at == (20, 4)


def test_a_pinned_medic_reacts_with_half_his_walk_and_half_his_checks(position, play):
    # Pinned: Walk 6 halved is 3, less 1 for the track he starts on: 2", short of the 3" to Dorn.
    st = dorn_under_fire(position, ["4-C1", "4-C2"], pinned=True)
    st, ev = play(st, AVERY_SHOOTS)
    assert st.soldiers[4].status == "dead" and not kinds(ev, "medic_move")


# ----------------------------------------------------------------------------- a medic's VP


def test_a_medic_killed_by_the_enemy_gives_his_vp_to_his_own_side(position, play):
    # Avery shoots Brandt himself; Brandt's damage check 31-C2 reads Kill. His 4 VP go to DE.
    st = position(soldiers=[{"serial": 1, "seat": 0, "at": [2, 2], "facing": "e"},
                            {"serial": 31, "seat": 1, "at": [32, 2], "facing": "w", "spotted": True}],
                  phase_cards=["S10", "S01", "S05"],
                  hands={0: ["1-P2", "1-C3", "1-C4"], 1: ["31-P3", "31-C3", "31-P2"]},
                  decks={0: ["1-C2"], 1: ["31-C2"]})
    st, ev = play(st, "@Ann\nplan 1-P2 1-C3 1-C4\n@Bo\nplan 31-P3 31-C3 31-P2\n@Ann\ntag shoot 1 31")
    assert st.soldiers[31].status == "dead"
    assert st.side_vp("DE") == 4 and st.side_vp("US") == 0
    assert st.seat_vp(1) == 4
    assert st.soldiers[1].kills == 0, "killing a medic earns no kill"
    assert kinds(ev, "medic_vp")[0].data == {"serial": 31, "side": "DE", "amount": 4}


def test_a_medic_killed_by_his_own_sides_grenade_gives_his_vp_to_the_targeted_opponent(position, play):
    # Dorn tosses a grenade at Avery with the blast one cell toward Brandt, who is caught in it.
    # Blast checks come off Dorn's deck: 4-C3 (Miss) for Avery, 4-C1 (Hit) for Brandt, whose
    # damage check 31-C2 reads Kill. Friendly fire: Brandt's 4 VP go to the US.
    st = position(scenario="yard",
                  soldiers=[{"serial": 1, "seat": 0, "at": [2, 2], "facing": "e", "spotted": True},
                            {"serial": 4, "seat": 1, "at": [7, 2], "facing": "w"},
                            {"serial": 31, "seat": 1, "at": [2, 4], "facing": "n"}],
                  phase_cards=["S10", "S01", "S05"],
                  hands={0: ["1-C3", "1-C4", "1-P1"], 1: ["4-C2", "4-P3", "4-C4"]},
                  decks={1: ["4-C3", "4-C1", "31-C2"]})
    st, ev = play(st, "@Ann\nplan 1-C3 1-C4 1-P1\n@Bo\nplan 4-C2 4-P3 4-C4\n@Bo\ntag toss 4 1 at 2,3")
    assert [e.data["hits"] for e in kinds(ev, "blast_check")] == [0, 1]
    assert st.soldiers[31].status == "dead"
    assert st.side_vp("US") == 4 and st.side_vp("DE") == 0


def test_a_medic_killed_by_fire_gives_his_vp_to_nobody(position, play):
    # Brandt stands in the burning farmhouse. At the start of phase 1, before anyone acts, the
    # fire's blast check off his own deck, 4-C1, reads Hit; his damage check, 31-C2, Kill.
    st = position(scenario="yard",
                  soldiers=[{"serial": 1, "seat": 0, "at": [2, 2], "facing": "e"},
                            {"serial": 4, "seat": 1, "at": [12, 7], "facing": "w"},
                            {"serial": 31, "seat": 1, "at": [24, 4], "facing": "w"}],
                  fires=["L9A"], phase_cards=["S10", "S01", "S05"],
                  hands={0: ["1-P2", "1-C3", "1-C4"], 1: ["4-C2", "4-C3", "4-C4"]},
                  decks={1: ["4-C1", "31-C2"]})
    st, ev = play(st, "@Ann\nplan 1-P2 1-C3 1-C4\n@Bo\nplan 4-C2 4-C3 4-C4")
    assert kinds(ev, "blast")[0].data["victims"] == [31]
    assert st.soldiers[31].status == "dead"
    assert st.side_vp("US") == 0 and st.side_vp("DE") == 0
    assert kinds(ev, "medic_vp")[0].data["amount"] == 0


def test_indirect_fire_on_a_medic_scores_for_nobody_even_from_the_enemy(position):
    # Registered artillery (cause 'artillery') called by the US kills Brandt: no VP for anyone.
    st = position(soldiers=[{"serial": 1, "seat": 0, "at": [2, 2], "facing": "e"},
                            {"serial": 31, "seat": 1, "at": [32, 2], "facing": "w"}],
                  hands={0: [], 1: []}, phase_cards=["S01", "S02", "S03"])
    assert {"artillery", "mortar", "event", "fire", "mine"} <= INDIRECT
    ctx = Ctx(st)
    kill(ctx, 31, by_force="US-1", cause="artillery", by_soldier=1)
    assert st.soldiers[31].status == "dead" and st.vp == [] and st.soldiers[1].kills == 0
    assert not score_dead_medic(ctx, 1, by_force="DE-2", cause="shot"), "Avery is no medic"
