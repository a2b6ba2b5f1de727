"""What a command names must be in the game: the one check apply makes before any rule runs.

A command model declares what each of its fields names (engine.core.commands.Names: a man, a
vehicle, either, a card, a tile); here every such value is looked up in the game, so a rule
never meets a dog tag, plate, card or tile that is not there or is of the wrong kind (a plate
where a man is named). The command's shapes are checked again too, for models built without
validation (`model_copy(update=...)`)."""
from __future__ import annotations

import types
from functools import cache
from typing import Annotated, Literal, Union, get_args, get_origin

from engine.core import commands as C
from engine.core.errors import UsageError
from engine.core.state import GameState

Container = Literal["one", "each", "keys", "values"]

ROLES = {"serial": "who acts", "target": "the target", "victim": "the man down", "escort": "the escort",
         "take": "the prisoner", "plate": "the vehicle", "to": "who takes it", "soldiers": "the men named"}


def _walk(annotation, container: Container) -> list[tuple[str, Container]]:
    origin = get_origin(annotation)
    if origin is Annotated:
        inner, *meta = get_args(annotation)
        kinds = [(m.kind, container) for m in meta if isinstance(m, C.Names)]
        return kinds or _walk(inner, container)
    if origin in (Union, types.UnionType):
        return [k for arg in get_args(annotation) for k in _walk(arg, container)]
    if origin is list:
        return _walk(get_args(annotation)[0], "each")
    if origin is dict:
        key, value = get_args(annotation)
        return _walk(key, "keys") + _walk(value, "values")
    return []


@cache
def named_fields(cls: type[C.Cmd]) -> tuple[tuple[str, str, Container], ...]:
    """(field, kind, container) for every field of a command model that names something."""
    out = []
    for name, info in cls.model_fields.items():
        kinds = [(m.kind, "one") for m in info.metadata if isinstance(m, C.Names)] or _walk(info.annotation, "one")
        out += [(name, kind, where) for kind, where in kinds]
    return tuple(out)


@cache
def _plan(cls: type[C.Cmd]) -> tuple[frozenset[str], tuple[tuple[str, str, str, Container], ...]]:
    """A command model's field names, and (field, role, kind, container) for each field that names
    something: what check_references looks at, worked out once per model."""
    return frozenset(cls.model_fields), tuple((field, ROLES.get(field, field), kind, container)
                                              for field, kind, container in named_fields(cls))


def check_references(st: GameState, cmd: C.Cmd) -> C.Cmd:
    """The command, checked: its shapes, and everything it names is in this game and of the
    kind the field needs. Raises UsageError naming the bad part; changes nothing."""
    if not isinstance(cmd, C.Cmd):
        raise UsageError(f"not a command: {type(cmd).__name__}.")
    cls = type(cmd)
    fields, named = _plan(cls)
    data = cmd.__dict__
    # dict(cmd) is the model's fields, and any extra data or `_` names a program put in: its
    # __dict__ when it holds the fields alone (dict() asks the model for a `keys` first, slowly)
    if data.keys() != fields or cmd.__pydantic_extra__:
        cmd = cls.model_validate(dict(cmd))
    elif not C.as_read(cmd):  # a command just read from a line was validated as it was made
        cmd = cls.model_validate(data)
    verb = cmd.type
    data = cmd.__dict__
    for field, role, kind, container in named:
        value = data[field]
        if value is None:
            continue
        if container == "one":
            _check(st, verb, role, kind, value)
            continue
        values = value if container == "each" else value.keys() if container == "keys" else value.values()
        for v in values:
            if v is not None:
                _check(st, verb, role, kind, v)
    return cmd


def _check(st: GameState, verb: str, role: str, kind: str, v) -> None:
    if kind == "card":
        if v not in st.setup.cards:
            raise UsageError(f"there is no card {C.shown(v)} in this game.")
        return
    if kind == "tile":
        if v not in st.board.origin:
            raise UsageError(f"there is no tile {C.shown(v)} on this map.")
        return
    man, vehicle = v in st.soldiers, v in st.vehicles
    if kind == "man" and vehicle:
        raise UsageError(f"`{verb}` names a soldier as {role}, and {v} is the plate of the "
                         f"{st.vehicle_def(v).name}.")
    if kind == "vehicle" and man:
        raise UsageError(f"`{verb}` names a vehicle's plate as {role}, and {v} is the dog tag of {st.name(v)}.")
    if not (man if kind == "man" else vehicle if kind == "vehicle" else man or vehicle):
        what = {"man": "soldier", "vehicle": "vehicle or gun with plate"}.get(kind, "soldier or vehicle")
        raise UsageError(f"there is no {what} {v} in this game.")
