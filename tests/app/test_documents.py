"""A stored game document (bot/app/documents.py StateCodec) reads back as the state it was
written from, exactly as validating the json module's reading of it gives: the codec validates
the JSON text as it parses it (for speed), and reads a document written another way whole."""
from __future__ import annotations

import gc
import json
import weakref

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


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(scenario=hs.sampled_from(["hedgerow-dawn", "tardieu-bombardment", "night-orchard"]),
       seed=hs.integers(0, 2**31), commands=hs.integers(1, 50))
def test_the_stored_text_is_pydantics_dump_though_shared_soldiers_keep_theirs(shipped, scenario, seed, commands):
    """`GameState.json_without_setup` writes a shared soldier's kept text: along a game, every
    state's text, written once and again, is exactly pydantic's dump of it."""
    kept = 0
    for st in autoplayed(shipped, scenario, seed, commands):
        for _ in range(2):
            assert st.json_without_setup() == st.model_dump_json(exclude={"setup"})
        kept += sum(1 for s in st.soldiers.values() if getattr(s, "_shared", False))
    assert kept or commands == 1  # states after the first share their unchanged men


def test_a_soldier_changed_after_his_text_was_kept_is_written_as_he_now_is(shipped):
    *_, st = autoplayed(shipped, "hedgerow-dawn", 5, 12)
    work = st.clone()  # every soldier of both states now shared
    serial = next(iter(st.soldiers))
    st.json_without_setup()  # his text kept on him
    mine = work.changing(serial)
    mine.kills += 3
    assert work.json_without_setup() == work.model_dump_json(exclude={"setup"})
    assert f'"kills":{mine.kills}' in work.json_without_setup()
    mine.kills += 1  # his own now, so still writable: nothing of him is kept
    assert f'"kills":{mine.kills}' in work.json_without_setup()
    assert st.json_without_setup() == st.model_dump_json(exclude={"setup"})  # the old state keeps the old man


def test_a_copy_writes_the_forces_and_vehicles_it_left_alone_with_the_kept_text(shipped):
    """A force of a copy that is still the original's very force (shared), or a vehicle equal to
    its original, in the written state is written with the original's text (the very string),
    and so are the soldiers while they are the original's very men; one changed in the copy is
    written as it now is."""
    *_, st = autoplayed(shipped, "tardieu-bombardment", 3, 8)
    st.json_without_setup()
    work = st.clone()
    changed_force, *same_forces = list(work.forces)
    changed_plate, *same_plates = list(work.vehicles)
    work.changing_force(changed_force).hand.append("X-1")
    work.changing_vehicle(changed_plate).pins += 2
    assert work.json_without_setup() == work.model_dump_json(exclude={"setup"})
    assert '"X-1"' in work._texts["forces"][changed_force]
    assert all(work._texts["forces"][f] is st._texts["forces"][f] for f in same_forces)
    assert all(work._texts["vehicles"][p] is st._texts["vehicles"][p] for p in same_plates)
    assert work._texts["soldiers"] is st._texts["soldiers"]  # the very same men
    assert st.json_without_setup() == st.model_dump_json(exclude={"setup"})  # the original as it was
    again = work.clone()
    serial = next(iter(again.soldiers))
    again.changing(serial).kills += 5  # one man his own now: the soldiers are written afresh
    assert again.json_without_setup() == again.model_dump_json(exclude={"setup"})
    assert again._texts["soldiers"] is not work._texts["soldiers"]


def test_a_written_copy_holds_no_older_state(shipped):
    """A copy holds the written state it came from only until it is written itself, and a copy
    of a state never written holds none: a game played without writing keeps no chain of states."""
    *_, st = autoplayed(shipped, "hedgerow-dawn", 4, 6)
    assert st.clone()._origin is None  # never written
    st.json_without_setup()
    work = st.clone()
    assert work._origin is st
    gone = weakref.ref(st)
    del st
    work.json_without_setup()
    assert work._origin is None
    gc.collect()
    assert gone() is None
