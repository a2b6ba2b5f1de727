"""What keeps a start short that a change could quietly undo (docs/architecture.md, A quick start)."""
from __future__ import annotations

import importlib
import os
import subprocess
import sys

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


def _program(**env: str) -> list[str]:
    """What the `fieldpost` program itself (no argv given to main) leaves: the collector's
    thresholds and PYDANTIC_DISABLE_PLUGINS, after a dice roll."""
    code = ("import atexit, gc, os, sys\nsys.argv = ['fieldpost', 'roll', 'bog', '--bog', '1', '--pins', '1', '--seed', '1']\n"
            "atexit.register(lambda: print(gc.get_threshold(), repr(os.environ.get('PYDANTIC_DISABLE_PLUGINS')),"
            " file=sys.stderr))\nfrom bot.cli import main\nmain()\n")
    base = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env={**base, **env})
    return proc.stderr.strip().splitlines()[-1].rsplit(" ", 1)


def test_the_program_runs_the_collector_as_a_settled_process_does():
    """From the end of the imports on, not CPython's every 700 objects: the catalogue alone made
    some 30 collections (1.3% of a start)."""
    from bot.startup import THRESHOLDS

    assert _program()[0] == str(THRESHOLDS)


def test_the_program_looks_for_no_pydantic_plugin_unless_told_to():
    """The search reads every installed package's entry points (0.8% of a start); an operator's
    own setting, even an empty one (plugins on), stays."""
    assert _program()[1] == "'1'"
    assert _program(PYDANTIC_DISABLE_PLUGINS="")[1] == "''"
    assert _program(PYDANTIC_DISABLE_PLUGINS="logfire")[1] == "'logfire'"
