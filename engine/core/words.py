"""Words every content model shares: the frozen model base and the nations.

They sit below engine/core/content.py and engine/core/vehicle_content.py so the two can build on
them without importing each other (content.py holds vehicles in its catalogue)."""
from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Nationality(StrEnum):
    US = "US"
    DE = "DE"
