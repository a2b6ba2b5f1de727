"""Deadlines: each awaited decision gets a reminder at half time and an expiry at full time.

Two store deadline rows per awaited (seat, decision): `remind:<kind>:<seat>` and
`expire:<kind>:<seat>`. A player who is still awaited for the same kind of decision keeps his
due time when someone else acts (placing cards one by one must not extend the others' time);
his own command starts a new clock for his next decision.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.store import Awaited, Deadline

DEFAULT_HOURS = 24.0


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
    awaited: Iterable[tuple[int, str]],
    users: Mapping[int, int],
    previous: Iterable[Deadline | Awaited],
    *,
    actor: int | None,
    now: datetime,
    hours: float,
) -> list[Awaited]:
    """The deadlines after a commit: `awaited` (seat, kind) pairs, `users` seat -> user id,
    `previous` the deadlines before it, `actor` the seat that just acted (None: nobody)."""
    kept = {(d.key, d.user_id): d.due for d in previous}
    span = timedelta(hours=hours)
    out: list[Awaited] = []
    for seat, kind in dict.fromkeys(awaited):
        user = users.get(seat)
        if user is None:
            continue
        remind, expire = f"remind:{kind}:{seat}", f"expire:{kind}:{seat}"
        due = kept.get((expire, user)) if seat != actor else None
        if due is None:
            out += [Awaited(remind, user, now + span / 2), Awaited(expire, user, now + span)]
        else:
            out += [Awaited(remind, user, kept.get((remind, user), due - span / 2)),
                    Awaited(expire, user, due)]
    return out


def due_of(deadlines: Iterable[Deadline | Awaited], seat: int, kind: str) -> datetime | None:
    key = f"expire:{kind}:{seat}"
    return next((d.due for d in deadlines if d.key == key), None)
