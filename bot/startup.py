"""What a long-running process does once its start-up is over (the bot, the console table)."""
from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from pydantic import BaseModel


@contextmanager
def loading_modules(freeze: bool) -> Iterator[None]:
    """The cyclic collector off while the modules load: importing makes classes, schemas and
    functions that live as long as the process, and the collections it would run meanwhile
    find next to nothing to free. With `freeze` (a process of its own: the `fieldpost` program)
    what was made is then frozen, so the collections of the run ahead do not walk it again
    either, and the collector runs as rarely as in a settled process (THRESHOLDS) from the
    start: the catalogue and the first command made some 30 collections with CPython's defaults.
    settle() collects what the loading left once more. Together about 7% of a `fieldpost play`
    start (instructions counted: 2.109 G before, 1.979 G after; the thresholds 24 M more)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if freeze:
            plain_attribute_reads()
            gc.freeze()
            gc.set_threshold(*THRESHOLDS)
        if was:
            gc.enable()


# The cycle collector's thresholds once settled (CPython's defaults: 700, 10, 10). A command
# makes some ten thousand objects (the state's working copy, events, replies) and the engine
# makes no reference cycles (tests/engine/test_reference_cycles.py), so reference counting frees
# them; the collector only walks what is alive. With the defaults it ran a young pass every few
# hundred objects and a full pass over every game state kept in memory about every 150 commands:
# with 300 tardieu games live, 1.6 ms of each command's 4-7 ms. These run it about every 50,000
# objects, almost never over the old ones (docs/app.md, Performance).
THRESHOLDS = (50_000, 20, 20)


def settle() -> None:
    """Move everything made so far (modules, pydantic classes, the content catalogue) out of the
    collector's sight: those objects live as long as the process, and every full collection
    would walk them again for nothing while games are played. Then collect rarely (THRESHOLDS)."""
    plain_attribute_reads()
    gc.unfreeze()  # what loading_modules froze uncollected: its garbage is found now
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)


# pydantic's BaseModel.__getattr__, kept for the model classes that need it (None: never removed)
_PYDANTIC_GETATTR: Any = None


def _needs_hook(cls: type[BaseModel]) -> bool:
    """Whether a model class reads some attribute through pydantic's __getattr__: its private
    attributes (kept in `__pydantic_private__`) and its extra fields (`__pydantic_extra__`)."""
    return bool(getattr(cls, "__private_attributes__", None)) or cls.model_config.get("extra") == "allow"


def plain_attribute_reads() -> None:
    """Let every read of a model's field be a plain attribute read (docs/app.md, Performance).

    pydantic's BaseModel defines `__getattr__`, which it needs only for private attributes and
    extra fields. Any class with a `__getattr__` in its ancestry reads EVERY attribute through
    CPython's slower hook (`slot_tp_getattr_hook`: `__getattribute__` called as a function),
    and the interpreter cannot specialise those reads: `soldier.status` cost some 2.4 times a
    plain read, and the slowest applies 15% more instructions. No model of ours has private
    attributes or extra fields (tests/app/test_attribute_reads.py holds them to it), so the hook
    is taken off BaseModel once, for the process, and put back on each class that needs it:
    those loaded now, and any made later (pydantic tells `__pydantic_init_subclass__` of each
    new model class). A missing attribute raises the same AttributeError either way."""
    global _PYDANTIC_GETATTR
    hook = BaseModel.__dict__.get("__getattr__")
    if hook is None:
        return  # done already, or a pydantic without the hook
    _PYDANTIC_GETATTR = hook
    classes, stack = [], [BaseModel]
    while stack:
        for sub in type.__subclasses__(stack.pop()):
            classes.append(sub)
            stack.append(sub)
    for cls in classes:
        if _needs_hook(cls) and "__getattr__" not in cls.__dict__:
            cls.__getattr__ = hook  # type: ignore[method-assign]
    was_init_subclass = BaseModel.__dict__["__pydantic_init_subclass__"].__func__

    def __pydantic_init_subclass__(cls: type[BaseModel], **kwargs: Any) -> None:
        if _needs_hook(cls) and "__getattr__" not in cls.__dict__:
            cls.__getattr__ = hook  # type: ignore[method-assign]
        was_init_subclass(cls, **kwargs)

    BaseModel.__pydantic_init_subclass__ = classmethod(__pydantic_init_subclass__)  # type: ignore[assignment]
    del BaseModel.__getattr__
