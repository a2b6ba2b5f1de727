"""The event loop's side of a commit made cheaper (issue 17, stop 37), the same answers:
- `refuse_unkeepable` walks lists and records it has met without a call each (keepable.py): it
  names the same part in the same words as the plain rules, written out again here;
- the one statement's JSON lists come from one C encoder made once (sqlite_commits._json): the
  same text as json's own encoder with the same settings, and the same refusal of what JSON
  cannot carry;
- `stamp` writes a moment already in UTC with a %-format: the text isoformat makes."""
from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import fields, is_dataclass
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as S

from bot.store import sqlite_commits
from bot.store.keepable import refuse_unkeepable
from bot.store.protocol import (
    Awaited,
    JsonText,
    PlayerResult,
    Seat,
    SeatDecision,
    Seen,
    StoreError,
)
from bot.store.sqlite import stamp

NOON = datetime(2026, 3, 1, 12, tzinfo=UTC)


def _why(value: Any) -> str | None:
    """The store's rules as docs/store.md states them, plainly: text without a lone surrogate or a
    NUL, integers of 64 bits, and the same inside sequences and records; anything else is kept."""
    if isinstance(value, str):
        for n, char in enumerate(value):
            if 0xD800 <= ord(char) <= 0xDFFF:
                return f" is not valid text (a lone surrogate at character {n})"
        if "\x00" in value:
            return f" is not valid text (a NUL character at character {value.index(chr(0))})"
        return None
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return None if -(2**63) <= value < 2**63 else f" = {value} does not fit the database's 64-bit integers"
    if is_dataclass(value) and not isinstance(value, type):
        for field in fields(value):
            if (why := _why(getattr(value, field.name))) is not None:
                return f".{field.name}{why}"
        return None
    if isinstance(value, Sequence):
        for n, item in enumerate(value):
            if (why := _why(item)) is not None:
                return f"[{n}]{why}"
    return None


_TEXT = S.sampled_from(["", "orders", "caf\u00e9", "\U0001f600 x", "a\x00b", "ok\ud800", "\udfff", "x" * 40])
_INT = S.sampled_from([0, -1, 5, 2**63 - 1, -(2**63), 2**63, -(2**63) - 1, 10**30])
_SCALAR = _TEXT | _INT | S.none() | S.booleans() | S.just(NOON) | S.just(timedelta(minutes=3)) | S.just(1.5) \
    | _TEXT.map(JsonText)
_RECORD = (
    S.builds(Awaited, key=_TEXT, user_id=_INT, due=S.just(NOON) | _TEXT, left=S.none() | S.just(timedelta(1)) | _INT)
    | S.builds(SeatDecision, seat=_INT, asked=S.none() | _TEXT, asked_version=S.none() | _INT,
               answered=S.none() | _TEXT, command=S.none() | _TEXT, sent_at=S.none() | S.just(NOON))
    | S.builds(Seen, users=S.lists(_INT, max_size=3).map(tuple), at=S.just(NOON))
    | S.builds(Seat, seat_index=_INT, side=_TEXT, user_id=_INT, display_name=_TEXT)
    | S.builds(PlayerResult, game_id=_INT, seat=_INT, user_id=_INT, guild_id=_INT, side=_TEXT, outcome=_TEXT,
               lost=_INT, killed=_INT, ended_at=S.just(NOON))
)
_VALUE = S.recursive(_SCALAR | _RECORD,
                     lambda inner: S.lists(inner, max_size=4) | S.lists(inner, max_size=3).map(tuple), max_leaves=12)
_NAMES = ("game_id", "state", "events", "seats", "awaited", "decisions", "seen")


@given(S.lists(_VALUE, min_size=1, max_size=len(_NAMES)))
def test_refuse_unkeepable_names_what_the_plain_rules_name(values: list[Any]) -> None:
    arguments = dict(zip(_NAMES, values, strict=False))
    expected = next((f"{name}{why}; nothing was written" for name, value in arguments.items()
                     if (why := _why(value)) is not None), None)
    for _ in range(2):  # the first walk meets the records' types; the second finds them known
        if expected is None:
            refuse_unkeepable(**arguments)
        else:
            with pytest.raises(StoreError) as refused:
                refuse_unkeepable(**arguments)
            assert str(refused.value) == expected


_JSONABLE = S.recursive(
    S.none() | S.booleans() | S.integers(-(10**25), 10**25) | S.floats(allow_nan=False, allow_infinity=False)
    | S.text(max_size=8),
    lambda inner: S.lists(inner, max_size=4) | S.lists(inner, max_size=3).map(tuple)
    | S.dictionaries(S.text(max_size=4), inner, max_size=3), max_leaves=12)


@given(_JSONABLE)
def test_the_rows_json_is_jsons_own_text(value: Any) -> None:
    assert sqlite_commits._json(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@pytest.mark.parametrize("value", [[object()], [(1, NOON)], [{1j: 2}], [float("nan")]])
def test_what_json_cannot_carry_is_refused_as_json_refuses_it(value: Any) -> None:
    try:
        expected: Any = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        expected = type(exc)
    if isinstance(expected, type):
        with pytest.raises(expected):
            sqlite_commits._json(value)
    else:
        assert sqlite_commits._json(value) == expected


_ANY_ZONE = S.integers(min_value=-14 * 60, max_value=14 * 60).map(lambda m: timezone(timedelta(minutes=m)))


@given(S.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30), timezones=S.just(UTC)), _ANY_ZONE)
def test_a_utc_moment_is_stamped_as_isoformat_writes_it(moment: datetime, zone: timezone) -> None:
    """`stamp` writes a UTC moment with a %-format of its own: the very text isoformat makes."""
    expected = moment.isoformat(timespec="microseconds")
    assert stamp.__wrapped__(moment) == expected
    assert stamp.__wrapped__(moment.astimezone(zone)) == expected  # (the other way, through astimezone)
    assert stamp.__wrapped__(moment.replace(fold=1)) == expected
