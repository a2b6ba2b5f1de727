"""One-command rule rolls and table look-ups: a registry of checks, free of I/O and global state.

A *check* is a small calculator from one rulebook: typed parameters in, a `RollResult` out
(the JSON-ready `data`, the human-readable working `lines`, and a `title`). Each rulebook
module registers its system and its checks; front ends (the console, Discord) only read the
registry, so a new check needs no front-end code:

    >>> from engine import rolls
    >>> result = rolls.roll("bog", {"pins": 2, "bog": 3}, seed=1)
    >>> result.data["pin_markers"]
    6

Randomness comes only from `engine.core.rng.Rng`, seeded per roll, so a seed and the same inputs
always give the same answer.
"""
from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core.rng import Rng

__all__ = [
    "Check",
    "Dice",
    "Param",
    "RollError",
    "RollResult",
    "System",
    "all_checks",
    "check",
    "checks_for",
    "get",
    "register_system",
    "roll",
    "shown",
    "systems",
]

NAME_RE = re.compile(r"^[a-z0-9][-a-z0-9]{0,31}$")
HELP_LIMIT = 100  # one line; also Discord's description limit

# Rulebook modules loaded on first use; a module that has not landed yet is skipped.
SYSTEM_MODULES = ("sergeants", "hell_on_wheels", "k47", "steel_wheels", "hex_command")


class RollError(ValueError):
    """Bad input for a check: the message names the option and what it accepts."""


@dataclass
class RollResult:
    """What a check answers: a title, the working line by line, and the JSON object."""

    title: str
    lines: list[str]
    data: dict[str, Any]

    def text(self) -> str:
        return "\n".join([self.title, *self.lines])


@dataclass(frozen=True)
class Param:
    """One typed option of a check.

    kind is "int", "bool", "choice" or "ints" (a comma-separated list of whole numbers).
    `die` marks a die value the player may give to replay a roll; left out, the die is rolled.
    `labels` explain choices in a few words each.
    """

    name: str
    kind: str
    help: str
    required: bool = False
    default: Any = None
    choices: tuple[str, ...] = ()
    labels: Mapping[str, str] = field(default_factory=dict)
    minimum: int | None = None
    maximum: int | None = None
    die: bool = False

    @property
    def option(self) -> str:
        """The option's public name, e.g. `crew-sight` (CLI `--crew-sight`, Discord `crew-sight`)."""
        return self.name.replace("_", "-")

    @property
    def flag(self) -> str:
        return "--" + self.option

    def valid_values(self) -> str:
        """A short phrase naming what this option accepts."""
        if self.kind == "choice":
            return "one of " + ", ".join(self.choices)
        if self.kind == "bool":
            return "a flag (yes or no)"
        span = self.span()
        if self.kind == "ints":
            return "comma-separated whole numbers" + (f" {span}" if span else "")
        return "a whole number" + (f" {span}" if span else "")

    def span(self) -> str:
        """The allowed range of a number, e.g. "from 0 to 99" ("" when unbounded)."""
        return _span(self.minimum, self.maximum)

    def parse(self, raw: Any) -> Any:
        """Turn a raw value (text from a command line, or a typed value) into this option's value."""
        if self.kind == "bool":
            return self._parse_bool(raw)
        if self.kind == "choice":
            value = str(raw).strip().lower()
            lookup = {c.lower(): c for c in self.choices}
            if value not in lookup:
                raise RollError(f"{self.flag} must be {self.valid_values()} (got {raw!r})")
            return lookup[value]
        if self.kind == "ints":
            items = raw if isinstance(raw, (list, tuple)) else str(raw).replace(" ", "").split(",")
            items = [i for i in items if i != ""]
            if not items:
                raise RollError(f"{self.flag} must be {self.valid_values()} (got {raw!r})")
            return tuple(self._parse_int(i, raw) for i in items)
        return self._parse_int(raw, raw)

    def _parse_int(self, item: Any, raw: Any) -> int:
        if isinstance(item, bool):
            raise RollError(f"{self.flag} must be {self.valid_values()} (got {raw!r})")
        if isinstance(item, int):
            value = item
        else:
            text = str(item).strip()
            if not re.fullmatch(r"[+-]?\d+", text):
                raise RollError(f"{self.flag} must be {self.valid_values()} (got {raw!r})")
            value = int(text)
        if (self.minimum is not None and value < self.minimum) or (
            self.maximum is not None and value > self.maximum
        ):
            raise RollError(f"{self.flag} must be {self.valid_values()} (got {raw!r})")
        return value

    def _parse_bool(self, raw: Any) -> bool:
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text in ("1", "true", "yes", "y", "on"):
            return True
        if text in ("0", "false", "no", "n", "off"):
            return False
        raise RollError(f"{self.flag} must be {self.valid_values()} (got {raw!r})")


def _span(lo: int | None, hi: int | None) -> str:
    if lo is not None and hi is not None:
        return f"from {lo} to {hi}"
    if lo is not None:
        return f"of at least {lo}"
    if hi is not None:
        return f"of at most {hi}"
    return ""


@dataclass(frozen=True)
class System:
    """A rulebook: `key` names it in the registry, `slash` is its Discord group name."""

    key: str
    title: str
    slash: str
    help: str


Runner = Callable[[dict[str, Any], Rng], RollResult]


@dataclass(frozen=True)
class Check:
    """A rule roll or table look-up from one rulebook."""

    name: str
    system: str
    slash: str
    help: str
    params: tuple[Param, ...]
    runner: Runner

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)

    def bind(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """Validate raw options (absent or None means not given) into typed values with defaults."""
        known = {p.name for p in self.params}
        unknown = sorted(k for k in raw if k not in known)
        if unknown:
            valid = ", ".join(p.flag for p in self.params)
            raise RollError(f"{self.name} has no option --{unknown[0].replace('_', '-')} (valid: {valid})")
        values: dict[str, Any] = {}
        for p in self.params:
            given = raw.get(p.name)
            if given is None:
                if p.required:
                    raise RollError(f"{self.name} needs {p.flag}: {p.valid_values()}")
                values[p.name] = p.default
            else:
                values[p.name] = p.parse(given)
        return values


_SYSTEMS: dict[str, System] = {}
_CHECKS: dict[str, Check] = {}
_loaded = False


def register_system(system: System) -> System:
    """Declare a rulebook; registering the same system twice is harmless."""
    if not NAME_RE.match(system.slash) or not 0 < len(system.help) <= HELP_LIMIT:
        raise ValueError(f"bad system declaration: {system!r}")
    existing = _SYSTEMS.get(system.key)
    if existing is not None and existing != system:
        raise ValueError(f"system {system.key!r} declared twice with different details")
    _SYSTEMS[system.key] = system
    return system


def check(
    *, system: System, name: str, slash: str, help: str, params: Iterable[Param] = ()
) -> Callable[[Runner], Runner]:
    """Decorator registering `runner(values, rng) -> RollResult` as a check."""

    def decorate(runner: Runner) -> Runner:
        _register(Check(name, system.key, slash, help, tuple(params), runner))
        return runner

    return decorate


def _register(new: Check) -> None:
    if new.system not in _SYSTEMS:
        raise ValueError(f"check {new.name!r}: register system {new.system!r} first")
    if new.name in _CHECKS:
        raise ValueError(f"check {new.name!r} registered twice")
    if not NAME_RE.match(new.name) or not NAME_RE.match(new.slash):
        raise ValueError(f"check {new.name!r}: names are lower-case letters, digits and hyphens")
    if any(c.system == new.system and c.slash == new.slash for c in _CHECKS.values()):
        raise ValueError(f"check {new.name!r}: slash name {new.slash!r} already used in {new.system}")
    if not 0 < len(new.help) <= HELP_LIMIT:
        raise ValueError(f"check {new.name!r}: help must be 1-{HELP_LIMIT} characters")
    seen: set[str] = set()
    for p in new.params:
        if p.name in seen or p.name in ("seed", "json", "help"):
            raise ValueError(f"check {new.name!r}: option {p.name!r} clashes")
        seen.add(p.name)
        if not re.fullmatch(r"[a-z][a-z0-9_]*", p.name) or not 0 < len(p.help) <= HELP_LIMIT:
            raise ValueError(f"check {new.name!r}: bad option {p.name!r}")
        if p.kind not in ("int", "bool", "choice", "ints"):
            raise ValueError(f"check {new.name!r}: option {p.name!r} has unknown kind {p.kind!r}")
        if (p.kind == "choice") != bool(p.choices) or not set(p.labels) <= set(p.choices):
            raise ValueError(f"check {new.name!r}: option {p.name!r} choices mismatch")
    _CHECKS[new.name] = new


def _load() -> None:
    global _loaded
    if _loaded:
        return
    for module in SYSTEM_MODULES:
        full = f"{__name__}.{module}"
        try:
            importlib.import_module(full)
        except ModuleNotFoundError as exc:
            if exc.name != full:
                raise
    _loaded = True


def systems() -> list[System]:
    """Rulebooks in registration order."""
    _load()
    return list(_SYSTEMS.values())


def all_checks() -> list[Check]:
    _load()
    return list(_CHECKS.values())


def checks_for(system_key: str) -> list[Check]:
    return [c for c in all_checks() if c.system == system_key]


def get(name: str) -> Check:
    _load()
    try:
        return _CHECKS[name]
    except KeyError:
        raise RollError(f"no check named {name!r} (valid: {', '.join(_CHECKS)})") from None


def roll(name: str, raw: Mapping[str, Any], seed: int) -> RollResult:
    """Run one check: validate `raw` options, roll with `Rng(seed)`, return the result.

    The JSON object always carries `check`, `system`, `seed` and the validated `inputs`.
    """
    chk = get(name)
    values = chk.bind(raw)
    result = chk.runner(dict(values), Rng(seed))
    data = {"check": chk.name, "system": chk.system, "seed": seed, "inputs": _jsonable(values)}
    data.update(result.data)
    return RollResult(result.title, list(result.lines), data)


def _jsonable(values: Mapping[str, Any]) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in values.items()}


class Dice:
    """Rolls dice for one check, taking player-given values first, and remembers every die.

    `dice.roll(6, given=4)` returns 4; `dice.roll(6)` draws from the seeded Rng. `record` feeds the
    JSON (`dice`) so a roll can be replayed with explicit values.
    """

    def __init__(self, rng: Rng) -> None:
        self._rng = rng
        self.record: list[dict[str, Any]] = []

    def roll(self, sides: int, given: int | None = None, label: str = "") -> int:
        if given is None:
            value = self._rng.die(sides)
        else:
            if not 1 <= given <= sides:
                what = f" for {label}" if label else ""
                raise RollError(f"a d{sides}{what} shows 1 to {sides} (got {given})")
            value = given
        self.record.append({"die": f"d{sides}", "value": value, "given": given is not None, "for": label})
        return value

    def many(
        self, sides: int, count: int, given: tuple[int, ...] | None, label: str = "", strict: bool = False
    ) -> list[int]:
        """`count` dice: the given values first, the rest rolled. Extra values are an error if strict."""
        given = tuple(given or ())
        if strict and len(given) > count:
            raise RollError(f"{len(given)} {label or ''} dice given for {count}d{sides}".replace('  ', ' '))
        return [self.roll(sides, given[i] if i < len(given) else None, label) for i in range(count)]


def shown(value: int) -> str:
    """A modifier as players write it: +3, -1, +0."""
    return f"{value:+d}"
