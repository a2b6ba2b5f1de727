"""The parser makes its commands with `commands._built`: the model's own schema, without
BaseModel.__init__ and Cmd._refused's wrap around it, a refusal turned into the wrap's UsageError.
Held here to the constructor: any fields, good or bad, give the same command (fields, fields set,
JSON) or the same refusal; a class with a model validator of its own is left to its constructor;
and every command listed at positions of autoplayed games, and hostile lines, read the same with
the constructor as with _built."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import commands as C
from engine.core.errors import RuleError
from engine.legal import awaiting, legal_commands
from tests.engine.autoplay_kit import autoplayed


def _every(cls) -> set:
    return {sub for k in cls.__subclasses__() for sub in {k, *_every(k)}}


CLASSES = sorted(_every(C.Cmd), key=lambda c: c.__name__)


def outcome(make) -> tuple:
    try:
        cmd = make()
    except RuleError as exc:
        return "refused", type(exc), str(exc)
    return ("made", type(cmd), cmd.model_dump_json(), list(cmd.__dict__), {k: type(v) for k, v in cmd.__dict__.items()},
            cmd.__pydantic_fields_set__, cmd.__pydantic_extra__, cmd.__pydantic_private__, str(cmd))


def plain(cls, **fields):
    return cls(**fields)


values = st.one_of(
    st.none(), st.booleans(), st.integers(-2, 12), st.sampled_from([101, 999_999, 10**7, 10_000]),
    st.sampled_from(["12A", "101-C1", "move", "n", "team", "", "x" * 60, "a\x00b", "2"]),
    st.tuples(st.integers(-1, 30), st.integers(-1, 30)), st.lists(st.sampled_from(["101-C1", None, 3]), max_size=3),
    st.dictionaries(st.sampled_from(["101-C1", 2, "1"]), st.sampled_from(["move", "101-C2", 5]), max_size=2))


@settings(max_examples=400)
@given(data=st.data())
def test_built_is_the_constructor(data):
    cls = data.draw(st.sampled_from(CLASSES))
    names = [*cls.model_fields, "bogus"]
    fields = data.draw(st.dictionaries(st.sampled_from(names), values, max_size=6))
    _prime(cls)
    assert outcome(lambda: C._built(cls, **fields)) == outcome(lambda: cls(**fields))


def _good(cls) -> dict:
    """Fields the class takes, so that its first _built makes it and keeps its validator."""
    required = {n for n, info in cls.model_fields.items() if info.is_required()}
    sample = {"serial": 101, "target": 102, "victim": 102, "plate": 1601, "card": "101-C1", "cards": ["101-C1"],
              "tile": "12A", "facing": "n", "weapon": "mg", "post": "driver", "location": "engine", "item": "smoke",
              "kind": "heavy", "letter": "A", "turn": 2, "action": "move", "slot": 1, "soldiers": [101],
              "part": "hull", "to": 102, "on": True, "square": "12A", "name": "Ann", "tokens": 2}
    return {n: sample[n] for n in required}


def _prime(cls) -> None:
    """The class's schema built and its unwrapped validator kept, if it has one."""
    try:
        C._built(cls, **_good(cls))
    except RuleError:
        pass  # a model validator of its own refused the sample: it is left to its constructor anyway


def test_the_wrap_alone_is_unwrapped():
    for cls in CLASSES:
        _prime(cls)
    kept = {cls for cls, v in C._UNWRAPPED.items() if v is not None}
    assert {C.MoveCmd, C.Plan, C.Pass, C.SightCmd, C.ShootCmd, C.Done} <= kept
    assert C.Fire not in kept and C.UseCmd not in kept  # their own model validators run after the wrap


HOSTILE = ["move 101 99999,3", "move 101 12A:hide", "move 1234567 12A", "plan 101-C1 101-C1 x", "plan " + "x" * 47,
           "sight 101 L999Q", "face 101 up", "shoot 101 -3", "pass please", "team done", "hold 101 " + "Ab" * 30,
           "plan for " + "f" * 60 + " a b c", "toss 101 102 at 99999,1", "vmove 101 12A sideways", "fire 101 mg 12A",
           "plan +4=101-C1", "declare 101-C1 " + "q" * 49, "alwayspass maybe", "use 101 smoke at 1,1"]


@pytest.mark.parametrize("scenario", ["hedgerow-dawn", "tardieu-bombardment"])
def test_listed_and_hostile_lines_read_the_same(shipped, scenario, monkeypatch):
    lines = set(HOSTILE)
    for n, state in enumerate(autoplayed(shipped, scenario, 7, 120)):
        if n % 2 == 0:
            for seat in {a.seat for a in awaiting(state)}:
                lines.update((seat, str(c)) for c in legal_commands(state, seat))
    read = [(line, 0) if isinstance(line, str) else (line[1], line[0]) for line in lines]
    fast = [outcome(lambda line=line, seat=seat: C.parse_command(line, seat)) for line, seat in read]
    with monkeypatch.context() as m:
        m.setattr(C, "_built", plain)
        slow = [outcome(lambda line=line, seat=seat: C.parse_command(line, seat)) for line, seat in read]
    assert fast == slow
    assert sum(1 for o in fast if o[0] == "made") > 200 and sum(1 for o in fast if o[0] == "refused") >= 10
