"""What rules work out once per game setup and keep with it: facts of the frozen setup alone
(cards, soldiers' profiles, names), never of a changing state. Games of one scenario share a
setup, so they share these; each memo is dropped with its setup, so nothing worked out for one
setup is ever read for another."""
from __future__ import annotations

import weakref
from typing import Any

_MEMO: dict[int, tuple[weakref.ref, dict[str, dict[Any, Any]]]] = {}  # id(setup) -> (its weak ref, memos by part)


def memo(setup, part: str) -> dict[Any, Any]:
    """The memo a part of the rules (`part`, its own name) keeps for this setup."""
    key = id(setup)
    hit = _MEMO.get(key)
    if hit is None or hit[0]() is not setup:
        def gone(ref: weakref.ref, key: int = key) -> None:
            if _MEMO.get(key, (None,))[0] is ref:
                del _MEMO[key]
        hit = _MEMO[key] = (weakref.ref(setup, gone), {})
    parts = hit[1]
    got = parts.get(part)
    if got is None:
        got = parts[part] = {}
    return got
