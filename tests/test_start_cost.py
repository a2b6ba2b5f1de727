"""What keeps a start short that a change could quietly undo (docs/architecture.md, A quick start)."""
from __future__ import annotations

import importlib

import pydantic

from engine.core.state import ForceState
from engine.core.words import new_list

# with these loaded, every model class of the engine, the use-cases and the tools exists
MODULES = ("bot.app", "engine.campaign", "engine.position", "engine.record")


def _models(cls: type[pydantic.BaseModel]) -> set[type[pydantic.BaseModel]]:
    out = set()
    for sub in cls.__subclasses__():
        out |= {sub} | _models(sub)
    return out


def test_no_model_field_starts_from_the_builtin_list():
    """pydantic parses `list`'s signature from its text for every field it is the factory of
    (0.1 ms each, about 3% of a `fieldpost play` start over the models' list fields)."""
    for name in MODULES:
        importlib.import_module(name)
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


CORE_MODEL_MODULES = ("engine.core.state", "engine.core.content", "engine.core.vehicle_content",
                      "engine.core.commands", "engine.core.views")


def test_the_core_models_annotations_are_types_not_text():
    """An annotation kept as text (`from __future__ import annotations`) is compiled and evaluated
    again by pydantic as it builds the model: 4% of a start over these modules' 1,100 fields.
    Only a class used before it is defined stays text."""
    for name in CORE_MODEL_MODULES:
        importlib.import_module(name)
    ours = [m for m in _models(pydantic.BaseModel) if m.__module__ in CORE_MODEL_MODULES]
    assert len(ours) > 150
    text = {f"{m.__qualname__}.{field}" for m in ours
            for field, annotation in vars(m).get("__annotations__", {}).items() if isinstance(annotation, str)}
    assert text == {"SideDef.minefields", "SideDef.barrages"}
