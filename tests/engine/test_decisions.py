"""Decision ids (engine.legal.decision_key): the same while the engine waits for the same
decision, new when the decision is new, and never naming a secret."""
from __future__ import annotations

from engine import awaiting
from engine.core import commands as C
from engine.legal import answerable, note_asked


def hit_plus(position, play):
    """Ann's Brooks fires a Hit+ burst at Dorn (the core manual's example); she must choose
    where the next hit goes."""
    st = position(soldiers=[{"serial": 2, "seat": 0, "at": [22, 2], "facing": "e"},
                            {"serial": 4, "seat": 1, "at": [26, 2], "facing": "w", "spotted": True},
                            {"serial": 5, "seat": 1, "at": [26, 4], "facing": "w", "spotted": True}],
                  phase_cards=["S10", "S01", "S05"],
                  hands={0: ["2-P2", "2-C3", "2-C4"], 1: ["4-C2", "4-C3", "4-C4"]},
                  decks={0: ["2-C2", "2-C3"], 1: ["4-P1", "4-P2", "4-C1", "5-C3"]})
    st, _ = play(st, "@Ann\nplan 2-P2 2-C3 2-C4\n@Bo\nplan 4-C2 4-C3 4-C4")
    return st


def keys(st) -> list[str]:
    return [a.key for a in awaiting(st)]


def test_each_deck_places_once_a_turn_and_a_placement_stays_changeable(position, play):
    st = position(soldiers=[{"serial": 2, "seat": 0, "at": [22, 2]}, {"serial": 4, "seat": 1, "at": [26, 2]}],
                  phase_cards=["S10", "S01", "S05"],
                  hands={0: ["2-P2", "2-C3", "2-C4"], 1: ["4-C2", "4-C3", "4-C4"]})
    assert keys(st) == ["place:T1:US-1", "place:T1:DE-2"]
    st, _ = play(st, "@Ann\nplan 2-P2 2-C3 2-C4")
    assert keys(st) == ["place:T1:DE-2"]  # Bo's decision is the same one
    assert [a.key for a in answerable(st, 0)] == ["place:T1:US-1"]  # Ann may still change hers


def test_a_hit_plus_keeps_its_id_while_another_player_gives_a_free_command(position, play):
    st = hit_plus(position, play)
    (card,) = keys(st)
    assert card == "act:T1:P1:S0:US-1:0:shoot:0"
    st, _ = play(st, "@Ann\ntag shoot brooks dorn")
    (asked,) = keys(st)
    assert asked.startswith("hitplus:T1:P1:")
    st, _ = play(st, "@Bo\nalwayspass on")
    assert keys(st) == [asked]
    st, _ = play(st, "@Ann\nhitplus 5")
    assert keys(st) == ["act:T1:P1:S0:US-1:0:shoot:1"]  # the dog tag part is finished: the next part


def test_the_same_one_moment_decision_asked_again_after_an_answer_is_a_new_one(position, play):
    st = hit_plus(position, play)
    st, _ = play(st, "@Ann\ntag shoot brooks dorn")
    after = st.model_copy(update={"seq": st.seq + 1})  # a second burst asking just the same
    note_asked(st, after, C.HitPlus(seat=0, target=5))
    assert keys(after) != keys(st)
    untouched = st.model_copy(update={"seq": st.seq + 1})
    note_asked(st, untouched, C.AlwaysPass(seat=1, on=True))
    assert keys(untouched) == keys(st)


def test_an_id_never_names_the_card_in_play(position, play):
    st = hit_plus(position, play)
    assert st.active.card == "2-P2" and "2-P2" not in keys(st)[0]  # a hidden man's card is secret
