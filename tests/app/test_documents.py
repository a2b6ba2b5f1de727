"""A stored game document (bot/app/documents.py StateCodec) reads back as the state it was
written from, exactly as validating the json module's reading of it gives: the codec validates
the JSON text as it parses it (for speed), and reads a document written another way whole."""
from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from bot.app.documents import StateCodec
from engine.core.state import GameState
from tests.engine.autoplay_kit import autoplayed


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(scenario=hs.sampled_from(["hedgerow-dawn", "tardieu-bombardment", "crossroads-roadblock"]),
       seed=hs.integers(0, 2**31), commands=hs.integers(0, 60))
def test_a_stored_game_reads_back_as_written(shipped, scenario, seed, commands):
    *_, st = autoplayed(shipped, scenario, seed, commands + 1)  # after up to `commands` commands
    codec = StateCodec()
    text = codec.dumps(st)
    plain = json.loads(text)
    ref = plain.pop("setup_ref")
    assert ref == codec.digest(st.setup)
    reference = GameState.model_validate({**plain, "setup": st.setup})  # the json module, then validation
    respaced = json.dumps({"setup_ref": ref, **plain}, indent=1)  # the same document, written another way
    for document in (text, respaced):
        got_ref, rest = codec.split(document)
        back = codec.join(st.setup, rest)
        assert got_ref == ref
        assert type(back) is GameState
        assert back == reference == st
        assert back.model_dump_json() == reference.model_dump_json() == st.model_dump_json()
        assert back.model_fields_set == reference.model_fields_set
        assert back.setup is st.setup
    assert isinstance(codec.split(text)[1], str) and isinstance(codec.split(respaced)[1], dict)
