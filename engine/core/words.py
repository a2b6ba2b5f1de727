"""Words every content model shares: the frozen model base, the nations, and the empty list
a list field starts from.

They sit below engine/core/content.py and engine/core/vehicle_content.py so the two can build on
them without importing each other (content.py holds vehicles in its catalogue)."""
from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from functools import partial
from inspect import Signature
from typing import Any

from pydantic import BaseModel, ConfigDict


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Nationality(StrEnum):
    US = "US"
    DE = "DE"


# An empty list field's default: `Field(default_factory=new_list)`, never `list`. pydantic reads each
# default factory's signature as it builds a model, and `list`'s is parsed from its text every
# time (0.1 ms a field: 3% of a `fieldpost play` start; docs/architecture.md). This is `list`
# itself, called from C as fast, with the empty signature given: a Python function in its place
# cost every model made with an empty list 3% more.
new_list: Callable[[], list[Any]] = partial(list)
new_list.__signature__ = Signature()  # type: ignore[attr-defined]
