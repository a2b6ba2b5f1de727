"""What a store can keep: the values SQLite and PostgreSQL both hold exactly, and the refusal of
the rest, shared by both stores so they refuse the same things with the same words.

    refuse_unkeepable(game_id=2**63)   # StoreError: "game_id = 9223372036854775808 does not fit …"

Both keep signed 64-bit integers (a Discord snowflake) and Unicode text without NUL characters
(PostgreSQL's text cannot hold one; SQLite could, but a game that could not move to PostgreSQL
is refused on both). Times are aware datetimes.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import fields, is_dataclass
from datetime import datetime, timedelta
from functools import cache
from operator import attrgetter
from typing import Any

from bot.store.protocol import JsonText, StoreError

INT64 = range(-(2**63), 2**63)  # an SQLite INTEGER, a PostgreSQL bigint, a Discord snowflake


def unkeepable(value: Any) -> str | None:
    """Why a store cannot keep `value` (" does not fit…", "[2].display_name is…"), or None.
    Walks sequences and the store's records (seats, deadlines, campaign results)."""
    kind = type(value)  # every commit walks its whole arguments: the plain types answered first
    if kind is str:
        return _text_problem(value)
    if kind is int:
        return None if LOWEST <= value <= HIGHEST else f" = {value} does not fit the database's 64-bit integers"
    if kind is list or kind is tuple:
        return _items_problem(value)
    if value is None or kind is bool:
        return None
    if (record := _record_fields(kind)) is not None:
        names, values = record
        if (fault := _first_fault(values(value))) is not None:
            return f".{names[fault[0]]}{fault[1]}"
        return None
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return None if value in INT64 else f" = {value} does not fit the database's 64-bit integers"
    if isinstance(value, str):
        return _text_problem(value)
    if isinstance(value, Sequence):
        return _items_problem(value)
    return None


LOWEST, HIGHEST = INT64[0], INT64[-1]


def _text_problem(value: str) -> str | None:
    if not value.isascii():  # ASCII (a flag Python keeps on the string) holds no lone surrogate
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            return f" is not valid text (a lone surrogate at character {exc.start})"
    if (nul := value.find("\x00")) >= 0:
        return f" is not valid text (a NUL character at character {nul})"
    return None


def _items_problem(value: Sequence) -> str | None:
    if (fault := _first_fault(value)) is not None:
        return f"[{fault[0]}]{fault[1]}"
    return None


def _first_fault(values: Sequence) -> tuple[int, str] | None:
    """The position of the first value a store cannot keep and why. The values a commit is made
    of (ASCII text without NUL, 64-bit integers, None, bools, times, and lists and records of them)
    are passed here without a call each, and a list or a record already seen is walked here
    directly, not through `unkeepable` (the same answer, in the same words): a commit holds some
    sixty values, a dozen of them in lists and records."""
    for n, value in enumerate(values):
        kind = type(value)
        if kind is str or kind is JsonText:
            if value.isascii() and "\x00" not in value:
                continue
        elif kind is int:
            if LOWEST <= value <= HIGHEST:
                continue
        elif value is None or kind is bool or kind is datetime:  # a time is kept as its stamp
            continue
        elif kind is list or kind is tuple:
            if (fault := _first_fault(value)) is None:
                continue
            return n, f"[{fault[0]}]{fault[1]}"
        elif (record := _RECORDS.get(kind)) is not None:
            names, record_values = record
            if (fault := _first_fault(record_values(value))) is None:
                continue
            return n, f".{names[fault[0]]}{fault[1]}"
        if (why := unkeepable(value)) is not None:
            return n, why
    return None


# the records met so far (_record_fields' answers that are records), looked up without a call
_RECORDS: dict[type, tuple[tuple[str, ...], Callable[[Any], tuple]]] = {}


@cache
def _record_fields(kind: type) -> tuple[tuple[str, ...], Callable[[Any], tuple]] | None:
    """A record's field names and a function giving its values in that order; None for a type that
    is no dataclass, or is also a number, text or sequence (answered as that)."""
    if not is_dataclass(kind) or issubclass(kind, (int, str, Sequence)):
        return None
    names = tuple(f.name for f in fields(kind))
    if len(names) == 1:
        found = names, lambda value: (getattr(value, names[0]),)
    else:
        found = names, attrgetter(*names) if names else (lambda value: ())
    _RECORDS[kind] = found
    return found


def refuse_unkeepable(**arguments: Any) -> None:
    """Refuse, before anything is written, a value the store cannot keep: a `StoreError` naming
    the argument (and the part of it) that is at fault."""
    if (fault := _first_fault(tuple(arguments.values()))) is not None:
        position, why = fault
        raise StoreError(f"{list(arguments)[position]}{why}; nothing was written")


def findable(*keys: Any) -> bool:
    """False if some key of a lookup cannot be kept, so no row can hold it: the lookup finds nothing."""
    return all(unkeepable(key) is None for key in keys)


def seq_bound(after_seq: int) -> int:
    """`after_seq` within 64-bit integers, meaning the same: below 0 is all, past the end none."""
    return min(max(after_seq, 0), INT64[-1])


def aware(moment: datetime) -> datetime:
    """`moment` itself, if it says its zone; a naive datetime is refused (ValueError)."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"naive datetime {moment!r}: give the store aware datetimes")
    return moment


def microseconds(span: timedelta | None) -> int | None:
    """A stopped clock's time left, as both stores keep it: whole microseconds."""
    return None if span is None else span // timedelta(microseconds=1)
