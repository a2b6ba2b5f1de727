"""Ctx.say and Ctx.tell build an Event without its validator where the validator could only take
the fields as they are (engine/core/log.py _made): the event is the one the validator makes, the
same fields, the same fields set, the same JSON; anything else is still the validator's to take
or refuse."""
from __future__ import annotations

import enum

from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from engine.core.log import _SAID, _TOLD, Ctx, Event, _event, _made


class Word(str):
    pass


class Kind(str, enum.Enum):
    MOVE = "move"


texts = st.one_of(st.text(max_size=20), st.builds(Word, st.text(max_size=5)), st.just(Kind.MOVE), st.integers(),
                  st.none(), st.binary(max_size=3))
seats = st.one_of(st.none(), st.integers(-3, 5), st.booleans(), st.just("1"), st.floats(allow_nan=False))
values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=5), st.tuples(st.integers())),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=6)


def built(make) -> tuple:
    try:
        e = make()
    except ValidationError as exc:
        return "refused", exc.errors(include_url=False)
    return "made", e, e.model_dump_json(), e.__pydantic_fields_set__, {k: type(v) for k, v in e.__dict__.items()}


@given(kind=texts, text=texts, to=seats, data=st.dictionaries(st.text(max_size=6), values, max_size=4),
       told=st.booleans())
def test_an_event_built_without_the_validator_is_the_validators_event(kind, text, to, data, told):
    fields = {"kind": kind, "text": text, **({"to": to} if told else {}), "data": dict(data)}
    fast = built(lambda: _made(kind, text, to if told else None, dict(data), _TOLD if told else _SAID))
    assert fast == built(lambda: _event(fields))


def test_say_and_tell_make_the_events_the_model_makes():
    ctx = Ctx.__new__(Ctx)
    ctx.events = []
    ctx.say("move", "Pvt. Able moves to 12A.", serial=101, tile="12A")
    ctx.tell(1, "hand", "You draw 3 cards.", cards=["101-C1"])
    assert ctx.events == [Event(kind="move", text="Pvt. Able moves to 12A.", data={"serial": 101, "tile": "12A"}),
                          Event(kind="hand", text="You draw 3 cards.", to=1, data={"cards": ["101-C1"]})]
    assert [e.model_fields_set for e in ctx.events] == [{"kind", "text", "data"}, {"kind", "text", "to", "data"}]
