"""A debug aid for the forces and vehicles `GameState.clone` shares (engine/core/state.py): a rule
must make a force (a vehicle) the state's own (`changing_force`, `changing_vehicle`) before it
changes it, its lists and dicts too, which no `__setattr__` guard sees. `guarding_shared_forces`
makes every clone swap each shared force's and vehicle's lists and dicts (and the lists inside
them: a vehicle's damage markers by location, its mine load) for ones that refuse any change in
place, at the line that tries it; read, compared, copied and written (JSON) they are a list and a
dict. tests/engine/conftest.py turns it on for every engine test; tests/engine/test_soldier_sharing.py
plays every scenario with it."""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import get_origin

from pydantic import BaseModel

from engine.core.state import ForceState, GameState, VehicleState


class SharedForceChanged(AssertionError):
    """A list or dict of a force or vehicle shared between states was changed in place."""


def _refuse(self, *args, **kwargs):
    raise SharedForceChanged("a list or dict of a force or vehicle shared between states changed in place: "
                             "change it through st.changing_force (st.changing_vehicle)")


class SharedList(list):
    append = extend = insert = remove = pop = clear = sort = reverse = _refuse
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse


class SharedDict(dict):
    __setitem__ = __delitem__ = pop = popitem = clear = update = setdefault = __ior__ = _refuse


def _containers(cls: type[BaseModel]) -> tuple[str, ...]:
    return tuple(n for n, info in cls.model_fields.items() if get_origin(info.annotation) in (list, dict))


_CONTAINERS = {ForceState: _containers(ForceState), VehicleState: _containers(VehicleState)}
_GUARDED = (SharedList, SharedDict)  # (a list or dict that is one of these holds only refusing ones: `_refusing`)


def _refusing(value):
    """The value with each list and dict in it, at any depth, a refusing one holding the same items."""
    kind = type(value)
    if kind is list or kind is SharedList:
        return SharedList(map(_refusing, value))
    if kind is dict or kind is SharedDict:
        return SharedDict(zip(value, map(_refusing, value.values())))
    return value


def guard(item: ForceState | VehicleState) -> None:
    """Each list and dict of a shared force or vehicle (and each inside them) swapped for a refusing
    one holding the same items."""
    fields = item.__dict__
    names = _CONTAINERS[type(item)]
    for name in names:
        if type(fields[name]) not in _GUARDED:
            break
    else:  # guarded at an earlier clone: a shared item stays shared and its lists refuse, so it is still
        return
    for name in names:
        fields[name] = _refusing(fields[name])


@contextmanager
def guarding_shared_forces() -> Iterator[None]:
    """While it lasts, each force and vehicle a clone shares refuses a change of its lists in place."""
    real = GameState.clone

    def clone(self: GameState) -> GameState:
        copy = real(self)
        for f in copy.forces.values():
            guard(f)
        for v in copy.vehicles.values():
            guard(v)
        return copy

    GameState.clone = clone
    try:
        yield
    finally:
        GameState.clone = real
