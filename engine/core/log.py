"""What happened: events emitted by apply, each public or private to one seat.

An event carries its own sentence (in the game's words, with soldier names and tile ids),
so every front end tells the same story. Private events (a hand drawn, a held card) are
never shown to anyone but their seat.
"""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from engine.core import rulebook
from engine.core.as_given import as_given
from engine.core.rng import Rng


class Event(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: str
    text: str
    to: int | None = None  # None: public; otherwise the only seat that may see it
    data: dict[str, Any] = Field(default_factory=dict)

    @property
    def public(self) -> bool:
        return self.to is None


# Event(...) validated by the model's own validator without BaseModel.__init__ around it: the same
# event, a quarter fewer instructions (a dozen events an apply)
_event = Event.__pydantic_validator__.validate_python


def _made(kind: str, text: str, to: int | None, data: dict[str, Any], given: frozenset[str]) -> Event:
    """The Event _event makes of these fields, built as it builds one, where the validator could
    only take them as they are: kind and text exactly str, to None or exactly int, data the
    fresh dict of a call's keyword arguments (str keys, Any values). Any other value goes through
    _event, to be taken or refused as before."""
    if type(kind) is not str or type(text) is not str or not (to is None or type(to) is int):
        fields = {"kind": kind, "text": text, "data": data}
        if "to" in given:
            fields["to"] = to
        return _event(fields)
    # the fields set: a set of a frozenset (its hashes kept, not worked out again)
    return as_given(Event, {"kind": kind, "text": text, "to": to, "data": data}, set(given))


_SAID = frozenset(("kind", "text", "data"))
_TOLD = frozenset(("kind", "text", "to", "data"))


def said(kind: str, text: str, data: dict[str, Any]) -> Event:
    """Event(kind=kind, text=text, data=data) for a fresh dict `data` made by the caller (as
    Ctx.say makes one), without BaseModel.__init__ around it (_made)."""
    return _made(kind, text, None, data, _SAID)


def told(e: Event, seat: int) -> Event:
    """`e.model_copy(update={"to": seat})`, the same event told to one seat alone (its data
    the same dict, as the copy's is), without pydantic's copy around it (hidden deployment
    tells several lines a screening to the seats that may read more)."""
    return as_given(Event, {**e.__dict__, "to": seat}, e.__pydantic_fields_set__ | _TO)


_TO = frozenset(("to",))


class Ctx:
    """One apply call's working set: the state copy being changed, its RNG and the events."""

    __slots__ = ("st", "rng", "events")

    def __init__(self, st) -> None:
        self.st = st
        self.rng = Rng(st.rng)
        self.events: list[Event] = []

    def say(self, kind: str, text: str, **data: Any) -> None:
        self.events.append(_made(kind, text, None, data, _SAID))

    def tell(self, seat: int, kind: str, text: str, **data: Any) -> None:
        self.events.append(_made(kind, text, seat, data, _TOLD))

    def close(self) -> None:
        self.st.rng = self.rng.state
        # hidden deployment: public lines never name a hidden soldier (engine/advanced/hidden_deployment.py)
        self.events = rulebook.screen_events(self.st, self.events)
