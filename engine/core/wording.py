"""Words shared by every message: the one plural helper."""
from __future__ import annotations


def plural(n: int, word: str, many: str | None = None) -> str:
    """`plural(1, "grenade")` -> "1 grenade"; `plural(3, "Pin marker")` -> "3 Pin markers";
    `plural(2, "man", "men")` -> "2 men"."""
    return f"{n} {word if n == 1 else many or word + 's'}"
