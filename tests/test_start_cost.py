"""What keeps a start short that a change could quietly undo (docs/architecture.md, A quick start)."""
from __future__ import annotations

import pydantic

import bot.app  # noqa: F401  (every model of the use-cases)
import engine.campaign  # noqa: F401
import engine.position  # noqa: F401
import engine.record  # noqa: F401
from engine.core.state import ForceState
from engine.core.words import new_list


def _models(cls: type[pydantic.BaseModel]) -> set[type[pydantic.BaseModel]]:
    out = set()
    for sub in cls.__subclasses__():
        out |= {sub} | _models(sub)
    return out


def test_no_model_field_starts_from_the_builtin_list():
    """pydantic parses `list`'s signature from its text for every field it is the factory of
    (0.1 ms each, about 3% of a `fieldpost play` start over the models' list fields)."""
    ours = [m for m in _models(pydantic.BaseModel) if m.__module__.startswith(("engine.", "bot."))]
    assert len(ours) > 150
    builtin = [f"{m.__module__}.{m.__qualname__}.{name}" for m in ours
               for name, field in m.model_fields.items() if field.default_factory is list]
    assert builtin == []
    assert any(field.default_factory is new_list for m in ours for field in m.model_fields.values())


def test_each_model_starts_with_a_list_of_its_own():
    one, two = (ForceState(id=f"F{n}", seat=n, side="US") for n in (0, 1))
    assert one.discard == [] and one.discard is not two.discard
    one.discard.append("S01")
    assert two.discard == [] and ForceState(id="F2", seat=2, side="DE").discard == []
