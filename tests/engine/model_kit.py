"""What tells two pydantic models apart, for the tests that hold a model made without its validator
to the validated one (tests/engine/test_card_start38.py, test_move_mark38.py); and every mutable
model of a state, for the tests of what its models hold (test_state_kept_mem34.py,
test_new_game_field_names.py)."""
from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel, ValidationError


def made(make: Callable[[], BaseModel], *more: Callable[[BaseModel], object]) -> tuple:
    """What a constructor gives: its refusal, or the model as everything that tells two apart (its
    class, JSON, fields in order and their types, the fields set and their set's type, extra and
    private values), plus what each of `more` reads of it."""
    try:
        m = make()
    except ValidationError as exc:
        return "refused", exc.errors(include_url=False)
    return ("made", type(m), m.model_dump_json(), list(m.__dict__), {k: type(v) for k, v in m.__dict__.items()},
            type(m.__pydantic_fields_set__), m.__pydantic_fields_set__, m.__pydantic_extra__, m.__pydantic_private__,
            *(read(m) for read in more))


def mutable_models(value, path: str = "state"):
    """Every mutable model in a state (the state itself first) but its setup, with where it is."""
    if isinstance(value, BaseModel):
        if value.model_config.get("frozen"):
            return
        yield path, value
        for name, v in value.__dict__.items():
            if name != "setup":
                yield from mutable_models(v, f"{path}.{name}")
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from mutable_models(v, f"{path}[{k!r}]")
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            yield from mutable_models(v, f"{path}[{i}]")
