"""`stamp`, the SQLite store's text of a moment, is remembered per moment: the remembered text
must be the one it would make afresh, whatever zone the moment was given in, and a naive
moment must be refused even when an equal-looking aware one was stamped before."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.store.sqlite import stamp

ZONES = st.integers(min_value=-14 * 60, max_value=14 * 60).map(lambda m: timezone(timedelta(minutes=m)))
MOMENTS = st.datetimes(min_value=datetime(1971, 1, 1), max_value=datetime(9000, 1, 1), timezones=st.just(UTC))


@given(MOMENTS, ZONES)
def test_a_moment_is_stamped_as_utc_text_whatever_its_zone_and_however_often(moment: datetime,
                                                                              zone: timezone) -> None:
    fresh = stamp.__wrapped__(moment)
    assert fresh == moment.isoformat(timespec="microseconds")
    assert stamp(moment) == fresh
    assert stamp(moment.astimezone(zone)) == fresh  # the same instant in another zone: the same text
    assert stamp(moment) == fresh  # asked again: the remembered text


def test_a_naive_moment_is_refused_even_after_the_same_wall_time_was_stamped_aware() -> None:
    aware = datetime(2026, 11, 27, 4, 0, tzinfo=UTC)
    assert stamp(aware) == "2026-11-27T04:00:00.000000+00:00"
    with pytest.raises(ValueError, match="naive"):
        stamp(aware.replace(tzinfo=None))
    with pytest.raises(ValueError, match="naive"):
        stamp(aware.replace(tzinfo=None))  # refused again: a refusal is never remembered
