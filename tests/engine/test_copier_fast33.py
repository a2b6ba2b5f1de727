"""The generated copiers (`_model_copier`, what `GameState.clone` runs) against the straightforward
copy they stand for: every list, dict and unfrozen model new, holding the same items in the same
order, immutable values and frozen models shared, the soldiers' and forces' dicts new with the same soldiers and forces.
A list of models is copied by `map` over the item's copier and a list or dict of plain values by
unpacking it without a name for it (issue 17, branch i33-write): the copy must stay the same."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs
from pydantic import BaseModel

from engine.core.state import (
    ActiveCard,
    Artillery,
    ArtilleryCall,
    FightState,
    GameState,
    Source,
    VehicleState,
    _model_copier,
    _one_call,
)
from tests.engine.autoplay_kit import autoplayed

SCENARIOS = ["tardieu-bombardment", "hedgerow-dawn", "night-orchard"]


def _plain_copy(value):
    """The straightforward structural copy, written here without the generated code."""
    if type(value) is list:
        return [_plain_copy(v) for v in value]
    if type(value) is dict:
        return {k: _plain_copy(v) for k, v in value.items()}
    if isinstance(value, BaseModel) and not value.model_config.get("frozen"):
        new = value.__class__.model_construct(_fields_set=set(value.model_fields_set),
                                              **{k: _plain_copy(v) for k, v in value.__dict__.items()})
        return new
    return value


def _same_shape(a, b, path="") -> None:
    """`a` (the generated copy) and `b` (the plain one, or the original) hold equal values, the
    same types, dicts in the same key order with the very same key objects."""
    assert type(a) is type(b), path
    if type(a) is dict:
        assert list(a) == list(b) and all(x is y for x, y in zip(a, b, strict=True)), path
        for k in a:
            _same_shape(a[k], b[k], f"{path}[{k!r}]")
    elif type(a) is list:
        assert len(a) == len(b), path
        for n, (x, y) in enumerate(zip(a, b, strict=True)):
            _same_shape(x, y, f"{path}[{n}]")
    elif isinstance(a, BaseModel):
        assert list(a.__dict__) == list(b.__dict__), path
        assert a.__pydantic_fields_set__ == b.__pydantic_fields_set__, path
        assert a.__pydantic_extra__ is None and a.__pydantic_private__ is None, path
        for k in a.__dict__:
            _same_shape(a.__dict__[k], b.__dict__[k], f"{path}.{k}")
    else:
        assert a == b, path


def _fresh(copy, original, path="") -> None:
    """Every list, dict and unfrozen model of the copy is new; the rest is the original's."""
    if type(copy) in (list, dict) or (isinstance(copy, BaseModel) and not copy.model_config.get("frozen")):
        assert copy is not original, path
        if type(copy) is list:
            for n, (x, y) in enumerate(zip(copy, original, strict=True)):
                _fresh(x, y, f"{path}[{n}]")
        elif type(copy) is dict:
            for k in copy:
                _fresh(copy[k], original[k], f"{path}[{k!r}]")
        else:
            for k in copy.__dict__:
                _fresh(copy.__dict__[k], original.__dict__[k], f"{path}.{k}")
    else:
        assert copy is original, path


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(scenario=hs.sampled_from(SCENARIOS), seed=hs.integers(0, 2**31), commands=hs.integers(1, 80))
def test_the_clone_is_the_plain_structural_copy(shipped, scenario, seed, commands):
    for st in autoplayed(shipped, scenario, seed, commands):
        pass
    copy = st.clone()
    plain = _plain_copy({k: v for k, v in st.__dict__.items() if k not in ("setup", "soldiers", "forces", "vehicles")})
    rest = {k: v for k, v in copy.__dict__.items() if k not in ("setup", "soldiers", "forces", "vehicles")}
    _same_shape(rest, plain)
    _fresh(rest, {k: v for k, v in st.__dict__.items() if k not in ("setup", "soldiers", "forces", "vehicles")})
    assert copy.setup is st.setup
    assert copy.soldiers is not st.soldiers and list(copy.soldiers) == list(st.soldiers)
    assert all(a is b for a, b in zip(copy.soldiers.values(), st.soldiers.values(), strict=True))
    assert copy.forces is not st.forces and list(copy.forces) == list(st.forces)
    assert all(a is b for a, b in zip(copy.forces.values(), st.forces.values(), strict=True))
    assert copy.vehicles is not st.vehicles and list(copy.vehicles) == list(st.vehicles)
    assert all(a is b for a, b in zip(copy.vehicles.values(), st.vehicles.values(), strict=True))
    assert list(copy.__dict__) == list(st.__dict__)
    assert copy.model_dump_json(exclude={"setup"}) == st.model_dump_json(exclude={"setup"})


def test_lists_of_models_and_of_lists_and_dicts_of_lists_are_copied_item_by_item():
    call = ArtilleryCall(id=1, seat=0, letter="A", kind="light", tile="1A", rows_left=2, caller=101)
    art = Artillery(ordnance={0: ["light", "heavy"], 1: []}, bought={1: ["x"]}, calls=[call, call.model_copy()],
                    looks={"ger-1": 2}, called={101: 1})
    fight = FightState(members=[1, 2], order=["a"], queue=[[1, 2], [], [3]], close=[(5, "hull")])
    card = ActiveCard(force="a", card="c", phase=1, action="move",
                      sources=[Source(kind="tag", used=[1]), Source(kind="team", drawn=[2, 3])])
    tank = VehicleState(plate=7, vehicle="v", side="DE", force="f", controller="f",
                        damage={"hull": ["fire"], "turret": []}, mine_load=[["at", "at"], []], crew={"driver": 101})
    for model in (art, fight, card, tank, Artillery(), FightState(members=[], order=[])):
        copy = _model_copier(type(model))(model)
        _same_shape(copy, _plain_copy(model))
        _fresh(copy, model)
        assert copy == model


def test_one_call_names_only_a_call_of_the_item_alone():
    assert _one_call("[*_1]", "_1") == "list"
    assert _one_call("{**_1}", "_1") == "dict"
    assert _one_call("_copy_Source_7(_1)", "_1") == "_copy_Source_7"
    assert _one_call("_copied(_1)", "_1") == "_copied"
    assert _one_call("(None if _1 is None else _copy_X_3(_1))", "_1") is None
    assert _one_call("([_copy_X_3(_2) for _2 in _1] if _1 else [])", "_1") is None
    assert _one_call("_copy_X_3(_12)", "_1") is None
    assert _one_call("f(g(_1))", "_1") is None
    assert _one_call("[*_2]", "_1") is None


def test_the_generated_source_takes_the_short_ways():
    source = _model_copier(GameState, frozenset({"soldiers"})).__globals__["__source__"]
    assert "f['seats'] = ([*map(_copy_Seat_" in source
    assert "f['soldiers'] = {**d['soldiers']}" in source
    assert "f['story_deck'] = [*d['story_deck']]" in source
    assert "for _0 in v]" not in source  # no list comprehension left where a map does
