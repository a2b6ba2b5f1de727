"""`GameState.json_kept`: the text `json_without_setup` wrote of a state, made again from the
pieces the writing kept on it (the cache holds a written state without its text: docs/app.md,
Memory). It is that text byte for byte, pydantic's own dump, whatever copies of the state were
written since; a state never written has none."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from tests.engine.autoplay_kit import autoplayed
from tests.engine.model_kit import mutable_models

SCENARIOS = ["tardieu-bombardment", "hedgerow-dawn", "night-orchard"]
HEAD = '{"setup_ref":"0123456789abcdef0123456789abcdef",'


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(scenario=hs.sampled_from(SCENARIOS), seed=hs.integers(0, 2**31), commands=hs.integers(2, 80))
def test_the_kept_text_is_the_written_text_and_pydantics(shipped, scenario, seed, commands):
    """Along a game each state is written as the service writes it (each one a copy of the one
    written before): its kept text is the text written, which is pydantic's dump, and the state
    before keeps its own text after its copy was written."""
    before = before_text = None
    for st in autoplayed(shipped, scenario, seed, commands):
        assert not st.text_kept() and st.json_kept(HEAD) is None  # a copy not yet written
        text = st.json_without_setup(HEAD)
        assert text == HEAD + st.model_dump_json(exclude={"setup"})[1:]
        assert st.text_kept()
        assert st.json_kept(HEAD) == text
        assert st.json_kept() == "{" + text[len(HEAD):]
        if before is not None:
            assert before.json_kept(HEAD) == before_text
        before, before_text = st, text


def test_a_copy_changed_and_written_leaves_the_originals_kept_text(shipped):
    """A copy that changed a man, a force and a vehicle is written with the original's pieces
    for the rest; the original's kept text is still the original's."""
    *_, st = autoplayed(shipped, "tardieu-bombardment", 5, 25)
    text = st.json_without_setup()
    work = st.clone()
    work.changing(next(iter(work.soldiers))).kills += 1
    work.changing_force(next(iter(work.forces))).hand.append("X-1")
    work.changing_vehicle(next(iter(work.vehicles))).pins += 1
    written = work.json_without_setup()
    assert written == work.model_dump_json(exclude={"setup"}) != text
    assert work.json_kept() == written
    assert st.json_kept() == text == st.model_dump_json(exclude={"setup"})


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(scenario=hs.sampled_from(SCENARIOS), seed=hs.integers(0, 2**31), commands=hs.integers(1, 60))
def test_a_copy_names_the_fields_given_as_the_original_and_shares_only_a_full_set(shipped, scenario, seed, commands):
    """A clone's every model has the set of field names its original has (pydantic's answer,
    `model_fields_set`); the class's one shared set when that names every field, else a set of
    its own that an assignment can grow without touching another model's."""
    from engine.core.state import _every_field
    *_, st = autoplayed(shipped, scenario, seed, commands)
    copy = st.clone()
    pairs = list(zip(mutable_models(st), mutable_models(copy), strict=True))
    assert pairs
    for (path, a), (path_b, b) in pairs:
        assert path == path_b and type(a) is type(b)
        if a is b:
            continue  # a soldier the copy shares with its original (read-only)
        assert b.model_fields_set == a.model_fields_set, path
        if b.model_fields_set == set(type(b).model_fields):
            assert b.__pydantic_fields_set__ is _every_field(type(b)), path
        else:
            assert type(b.__pydantic_fields_set__) is set and b.__pydantic_fields_set__ is not a.__pydantic_fields_set__
    before = {plate: set(v.model_fields_set) for plate, v in st.vehicles.items()}
    for plate in copy.vehicles:  # a name added to one model's own set stays his
        v = copy.changing_vehicle(plate)
        v.mine_load = [["at"]]
        assert "mine_load" in v.model_fields_set
    assert {plate: set(v.model_fields_set) for plate, v in st.vehicles.items()} == before


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(scenario=hs.sampled_from(SCENARIOS), seed=hs.integers(0, 2**31), commands=hs.integers(1, 60))
def test_a_parsed_state_names_the_fields_given_as_pydantic_and_shares_only_full_sets(shipped, scenario, seed, commands):
    """`share_field_names` over a parsed state: every model names the fields pydantic's own
    parse of the text gives it, and holds its class's one set exactly when that names them all."""
    from bot.app.documents import StateCodec
    from engine.core.state import GameState, _every_field
    *_, st = autoplayed(shipped, scenario, seed, commands)
    codec = StateCodec()
    _, rest = codec.split(codec.dumps(st))
    back = codec.join(st.setup, rest)
    plain = GameState.model_validate_json(st.model_dump_json())
    pairs = list(zip(mutable_models(plain), mutable_models(back), strict=True))
    for (path, a), (path_b, b) in pairs:
        assert path == path_b and type(a) is type(b)
        assert b.model_fields_set == a.model_fields_set, path
        full = b.model_fields_set == set(type(b).model_fields)
        assert (b.__pydantic_fields_set__ is _every_field(type(b))) == full, path
    assert back == st
