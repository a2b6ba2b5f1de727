"""A debug aid for the forces `GameState.clone` shares (engine/core/state.py): a rule must make a
force the state's own (`changing_force`) before it changes it, its lists too, which no
`__setattr__` guard sees. `guarding_shared_forces` makes every clone swap each shared force's lists
and dict for ones that refuse any change in place, at the line that tries it; read, compared,
copied and written (JSON) they are a list and a dict. tests/engine/conftest.py turns it on for
every engine test; tests/engine/test_soldier_sharing.py plays every scenario with it."""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import get_origin

from engine.core.state import ForceState, GameState


class SharedForceChanged(AssertionError):
    """A list or dict of a force shared between states was changed in place."""


def _refuse(self, *args, **kwargs):
    raise SharedForceChanged("a list or dict of a force shared between states changed in place: "
                             "change it through st.changing_force")


class SharedList(list):
    append = extend = insert = remove = pop = clear = sort = reverse = _refuse
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse


class SharedDict(dict):
    __setitem__ = __delitem__ = pop = popitem = clear = update = setdefault = __ior__ = _refuse


_CONTAINERS = tuple(n for n, info in ForceState.model_fields.items() if get_origin(info.annotation) in (list, dict))


def guard(f: ForceState) -> None:
    """Each list and dict of a shared force swapped for a refusing one holding the same items."""
    fields = f.__dict__
    for name in _CONTAINERS:
        value = fields[name]
        kind = type(value)
        if kind is list:
            fields[name] = SharedList(value)
        elif kind is dict:
            fields[name] = SharedDict(value)


@contextmanager
def guarding_shared_forces() -> Iterator[None]:
    """While it lasts, each force a clone shares refuses a change of its lists in place."""
    real = GameState.clone

    def clone(self: GameState) -> GameState:
        copy = real(self)
        for f in copy.forces.values():
            guard(f)
        return copy

    GameState.clone = clone
    try:
        yield
    finally:
        GameState.clone = real
