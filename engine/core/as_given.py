"""A pydantic model made from values already of their fields' types, without its validator: the
one place that knows how (issue 17). The engine makes some models by the dozen each command (a
card's parts, events, trail marks, awaited decisions, plans offered); where a validator could only
take the values as they are, `as_given` builds the very model it would, each slot set through its
own descriptor (object.__setattr__ looks the name up on the class first). Every caller keeps the
validator for any value it cannot vouch for, and its test holds the two alike
(tests/engine/model_kit.py). The state's generated copiers (state.py `_model_copier`) use the same
setters."""
from __future__ import annotations

from typing import TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)

new = object.__new__
set_dict = BaseModel.__dict__["__dict__"].__set__
set_fields = BaseModel.__dict__["__pydantic_fields_set__"].__set__
set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
set_private = BaseModel.__dict__["__pydantic_private__"].__set__


def as_given(cls: type[M], fields: dict, given: set[str], extra: dict | None = None,
             private: dict | None = None) -> M:
    """A `cls` holding `fields` (every field, in the model's order, each of its type) with `given`
    as its fields set (a set of its own), and `extra` / `private` as its extra and private values."""
    m = new(cls)
    set_dict(m, fields)
    set_fields(m, given)
    set_extra(m, extra)
    set_private(m, private)
    return m
