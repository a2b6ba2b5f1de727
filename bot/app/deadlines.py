"""Deadlines: each awaited decision gets a reminder at half time and an expiry at full time.

Two store deadline rows per awaited (seat, decision): `remind:<kind>:<seat>` and
`expire:<kind>:<seat>`. A decision still awaited after a commit (same seat, kind and detail:
placing cards while the others place, carrying out the same card move after move) keeps its
time; a new decision (the next card, a Hit+ target) starts a new clock.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.store import Awaited, Deadline

DEFAULT_HOURS = 24.0

# The react and preempt windows and a preempt's follow-up hold the whole table up while one
# player looks at his hand: they get a short clock of their own (docs/discord.md). Unless the
# game sets `window_hours`, a tenth of the game's deadline, at most WINDOW_MAX_HOURS and at
# least WINDOW_MIN_HOURS; the default answer is skip.
WINDOW_KINDS = ("react", "preempt", "then")
WINDOW_MAX_HOURS = 2.0
WINDOW_MIN_HOURS = 0.05  # three minutes, the shortest deadline a game may have


class Hours(float):
    """A game's deadline in hours that also carries its window setting (`window_hours`, None
    for the default), so the one number the service keeps per game holds both clocks."""

    window: float | None

    def __new__(cls, hours: float, window: float | None = None) -> Hours:
        out = super().__new__(cls, hours)
        out.window = None if window is None else float(window)
        return out


def window_hours(hours: float, setting: float | None = None) -> float:
    """The clock of a react / preempt / follow-up window in a game whose deadline is `hours`."""
    setting = setting if setting is not None else getattr(hours, "window", None)
    if setting is not None:
        return float(setting)
    return max(WINDOW_MIN_HOURS, min(WINDOW_MAX_HOURS, hours / 10))


@dataclass(frozen=True, slots=True)
class DeadlineKey:
    stage: str  # remind or expire
    kind: str
    seat: int

    @classmethod
    def parse(cls, key: str) -> DeadlineKey | None:
        parts = key.split(":")
        if len(parts) != 3 or parts[0] not in ("remind", "expire") or not parts[2].isdigit():
            return None
        return cls(parts[0], parts[1], int(parts[2]))

    def __str__(self) -> str:
        return f"{self.stage}:{self.kind}:{self.seat}"


def plan(
    awaited: Iterable[tuple[int, str, str]],
    users: Mapping[int, int],
    previous: Iterable[Deadline | Awaited],
    *,
    still: Iterable[tuple[int, str, str]] = (),
    now: datetime,
    hours: float,
    window: float | None = None,
) -> list[Awaited]:
    """The deadlines after a commit. `awaited` are the (seat, kind, detail) decisions now
    awaited, `users` maps seats to user ids, `previous` the deadlines before the commit, and
    `still` the decisions awaited before it: one awaited before and after is the same decision
    and keeps its time; a new one gets a fresh clock. The WINDOW_KINDS run on `window` hours
    (else `window_hours(hours)`)."""
    kept = {(d.key, d.user_id): d.due for d in previous}
    ongoing = set(still)
    full = timedelta(hours=hours)
    short = timedelta(hours=window if window is not None else window_hours(hours))
    out: list[Awaited] = []
    seen: set[tuple[int, str]] = set()
    for seat, kind, detail in awaited:
        user = users.get(seat)
        if user is None or (seat, kind) in seen:
            continue  # one clock per seat and kind
        seen.add((seat, kind))
        span = short if kind in WINDOW_KINDS else full
        remind, expire = f"remind:{kind}:{seat}", f"expire:{kind}:{seat}"
        due = kept.get((expire, user)) if (seat, kind, detail) in ongoing else None
        if due is None:
            out += [Awaited(remind, user, now + span / 2), Awaited(expire, user, now + span)]
        else:
            out += [Awaited(remind, user, kept.get((remind, user), due - span / 2)),
                    Awaited(expire, user, due)]
    return out


def unchanged(previous: Iterable[Deadline | Awaited], new: Iterable[Awaited]) -> bool:
    """Whether a commit may leave the deadlines as they are."""
    return {(d.key, d.user_id, d.due) for d in previous} == {(a.key, a.user_id, a.due) for a in new}


def due_of(deadlines: Iterable[Deadline | Awaited], seat: int, kind: str) -> datetime | None:
    key = f"expire:{kind}:{seat}"
    return next((d.due for d in deadlines if d.key == key), None)
