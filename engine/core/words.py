"""Words every content model shares: the frozen model base, the nations, and the empty list
a list field starts from.

They sit below engine/core/content.py and engine/core/vehicle_content.py so the two can build on
them without importing each other (content.py holds vehicles in its catalogue)."""
from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Nationality(StrEnum):
    US = "US"
    DE = "DE"


def new_list() -> list[Any]:
    """An empty list field's default: `Field(default_factory=new_list)`, never `list`. pydantic reads
    each default factory's signature as it builds a model, and `list`'s is parsed from its text
    every time (0.1 ms a field: 3% of a `fieldpost play` start; docs/architecture.md)."""
    return []
