"""A seat changing hands (issue 16, engine/turn/seat_names.py): the texts name the new player, and
nothing else about the seat or the decisions it is awaited for changes; a record carrying the
rename replays to the same state."""
from __future__ import annotations

import pytest

from engine import RuleError, SeatSpec, UsageError, apply, awaiting, new_game
from engine import commands as C
from engine.agent import RandomAgent
from engine.record import Record


def test_a_rename_names_the_new_player_and_keeps_the_seats_decisions(cat):
    st, _ = new_game(cat, "yard", [SeatSpec(name="Ann", side="US"), SeatSpec(name="Bo", side="DE")], 3)
    before = awaiting(st)
    after, events = apply(st, C.SeatName(seat=0, name="Cy"))
    assert events == []
    assert [s.name for s in after.seats] == ["Cy", "Bo"]
    assert [(a.seat, a.kind, a.key) for a in awaiting(after)] == [(a.seat, a.kind, a.key) for a in before]
    same = after.model_copy(update={"seats": st.seats, "seq": st.seq})
    assert same == st, "only the name (and the command count) changed"


def test_a_bad_name_is_refused_before_any_rule(cat):
    st, _ = new_game(cat, "yard", [SeatSpec(name="Ann", side="US"), SeatSpec(name="Bo", side="DE")], 3)
    for bad in ("", "   ", "x" * 65, "a\x00b"):
        with pytest.raises(UsageError):
            C.SeatName(seat=0, name=bad)
    with pytest.raises(RuleError):
        apply(st, C.SeatName(seat=5, name="Cy"))


def test_a_record_with_a_rename_replays_to_the_same_state(cat):
    seats = [SeatSpec(name="Ann", side="US"), SeatSpec(name="Bo", side="DE")]
    st, _ = new_game(cat, "yard", seats, 4)
    agent, commands = RandomAgent(4), []
    for n in range(40):
        if st.step == "over":
            break
        cmd = C.SeatName(seat=1, name="Dee") if n == 12 else agent.choose(st, agent.seat_to_act(st))
        st, _ = apply(st, cmd)
        commands.append(cmd)
    again = Record(scenario="yard", seed=4, seats=seats, commands=commands).final(cat)
    assert again == st and again.seats[1].name == "Dee"
