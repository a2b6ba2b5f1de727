"""A stored game document (bot/app/documents.py StateCodec) reads back as the json module reads
it, and as the state it was written from: the reader is pydantic's, chosen for speed."""
from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from bot.app.documents import StateCodec
from engine import apply, new_game
from engine.agent import RandomAgent
from engine.core.state import GameState
from engine.turn.setup import SeatSpec


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(scenario=hs.sampled_from(["hedgerow-dawn", "tardieu-bombardment", "crossroads-roadblock"]),
       seed=hs.integers(0, 2**31), commands=hs.integers(0, 60))
def test_a_stored_game_reads_back_as_written(shipped, scenario, seed, commands):
    sides = [s.id.value for s in shipped.scenario(scenario).sides]
    st, _ = new_game(shipped, scenario, [SeatSpec(name="A", side=sides[0]), SeatSpec(name="B", side=sides[1])], seed)
    agent = RandomAgent(seed)
    for _ in range(commands):
        if st.step == "over":
            break
        st, _ = apply(st, agent.choose(st, agent.seat_to_act(st)))
    codec = StateCodec()
    text = codec.dumps(st)
    ref, data = codec.split(text)
    expected = json.loads(text)
    assert ref == expected.pop("setup_ref") == codec.digest(st.setup)
    assert data == expected
    assert type(data["rng"]) is int and data["rng"] == st.rng  # the generator's state: a big integer
    back = codec.join(st.setup, data)
    assert back.model_dump_json() == st.model_dump_json()
    assert isinstance(back, GameState)
