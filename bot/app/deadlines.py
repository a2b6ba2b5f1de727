"""Deadlines: each awaited decision gets a reminder at half time and an expiry at full time.

Two store deadline rows per awaited decision, named by the seat and the decision's id
(`engine.legal.decision_key`): `remind:<seat>:<id>` and `expire:<seat>:<id>`. A decision still
awaited after a change has the same id and keeps its time (placing cards while the others
place, the same part of a card carried out move after move); a new decision has a new id and
a new clock (the next turn's placement, the next part of a card, a Hit+ target).

Rows are keyed by the player too: a seat that changes hands gets a whole clock for its new
player. An open seat (user OPEN, nobody holds it) and, where the game says `away` is
`defaults`, a player away are due at once: the next deadline check applies their defaults.
Where `away` is `stretch` (the default), an away player's clock starts again on his return:
his decision runs out no sooner than his return plus its whole time. While the game's clocks
are stopped (`paused_at`), every row carries the time it has left and is never claimed.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from operator import attrgetter, is_
from types import MappingProxyType

from bot.app.replies import slot_maker
from bot.store import Awaited, Deadline
from engine import Await

DEFAULT_HOURS = 24.0
OPEN = 0  # the user of an open seat: nobody holds it, it plays its defaults
NOBODY_AWAY: Mapping[int, datetime] = MappingProxyType({})

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
    """A deadline row's key: `remind:<seat>:<decision id>` or `expire:<seat>:<decision id>`.
    Databases written before decision ids name the kind instead (`expire:<kind>:<seat>`):
    such a key reads with `decision` None and stands for the seat's decision of that kind."""

    stage: str  # remind or expire
    seat: int
    decision: str | None = None
    kind: str | None = None

    @staticmethod
    def parse(key: str) -> DeadlineKey | None:
        """The key of a row, or None for a text that is no deadline key. Remembered for the last
        KEYS_REMEMBERED texts: a command reads each row's key some ten times (the plan, each
        waiting line, each prompt), and a key, frozen, means the same for good."""
        return _parse_key(key)

    @classmethod
    def of(cls, stage: str, a: Await) -> DeadlineKey:
        return cls(stage, a.seat, decision=a.key, kind=a.kind)

    def names(self, a: Await) -> bool:
        """Whether this deadline is for the awaited decision `a`."""
        if a.seat != self.seat:
            return False
        return a.key == self.decision if self.decision is not None else a.kind == self.kind

    def __str__(self) -> str:
        if self.decision is None:
            return f"{self.stage}:{self.kind}:{self.seat}"
        return self.text(self.stage, self.seat, self.decision)

    @staticmethod
    def text(stage: str, seat: int, decision: str) -> str:
        """`str(DeadlineKey(stage, seat, decision=decision))` without making the key (`plan`
        names two rows per awaited decision on every command)."""
        return f"{stage}:{seat}:{decision}"


KEYS_REMEMBERED = 2048  # two rows per awaited decision of every game the bot has in play


@lru_cache(maxsize=KEYS_REMEMBERED)
def _parse_key(key: str) -> DeadlineKey | None:
    parts = key.split(":", 2)
    if len(parts) != 3 or parts[0] not in ("remind", "expire"):
        return None
    stage, first, rest = parts
    if first.isdigit() and rest:
        return DeadlineKey(stage, int(first), decision=rest, kind=rest.split(":", 1)[0])
    if rest.isdigit() and first:
        return DeadlineKey(stage, int(rest), kind=first)
    return None


def plan(
    awaited: Iterable[Await],
    users: Mapping[int, int],
    previous: Iterable[Deadline | Awaited],
    *,
    now: datetime,
    hours: float,
    window: float | None = None,
    away: Mapping[int, datetime] = NOBODY_AWAY,
    stretch: bool = True,
    paused_at: datetime | None = None,
) -> list[Awaited]:
    """The deadlines after a change: a reminder and an expiry for each awaited decision. One
    that had its deadline before (the same decision id, or in a database written before decision
    ids the same seat and kind) keeps it; a new one gets the whole time from `now`. The
    WINDOW_KINDS run on `window` hours (else `window_hours(hours)`). `previous` empty: every
    clock starts afresh (a rollback). `users[seat]` OPEN: due at once. `away`: user -> until
    when he is away; `stretch` says whether his clock waits for his return or his defaults
    apply at once. `paused_at`: the clocks are stopped since then (new decisions start their
    whole time when they run again; each row keeps its time left)."""
    if paused_at is None and type(previous) is list and _still(awaited, users, previous, away):
        return [*previous]
    return _planned(awaited, users, previous, now=now, hours=hours, window=window, away=away, stretch=stretch,
                    paused_at=paused_at)


def _still(awaited: Iterable[Await], users: Mapping[int, int], previous: list, away: Mapping[int, datetime]) -> bool:
    """Whether `_planned` would hand back `previous` itself, row for row: the very decisions
    (all distinct) its rows were made for, in order, each with its reminder then its expiry,
    both `Awaited` rows with their times and no time left, for the seat's player still,
    who is no open seat and not away. Such rows are kept as they are whatever the time is
    (each row is handed back as itself), so that is read without the plan's work: most
    commands leave the decisions awaited as they were (a player's moves within one card)."""
    if not isinstance(awaited, list) or len(previous) != 2 * len(awaited):
        return False
    keys = set()
    rows = iter(previous)
    for a in awaited:
        remind, expire = next(rows), next(rows)
        # the rows' keys first: a new decision (most commands) fails there, before the rest
        # is read (the same conditions, each without side effects, in another order)
        seat, key = a.seat, a.key
        if expire.key != DeadlineKey.text("expire", seat, key) or remind.key != DeadlineKey.text("remind", seat, key):
            return False
        user = users.get(seat)
        if (user is None or user == OPEN or type(remind) is not Awaited or type(expire) is not Awaited
                or remind.user_id != user or expire.user_id != user or remind.left is not None
                or expire.left is not None or remind.due is None or expire.due is None
                or away.get(user) is not None or key in keys):
            return False
        keys.add(key)
    return True


def _planned(
    awaited: Iterable[Await],
    users: Mapping[int, int],
    previous: Iterable[Deadline | Awaited],
    *,
    now: datetime,
    hours: float,
    window: float | None = None,
    away: Mapping[int, datetime] = NOBODY_AWAY,
    stretch: bool = True,
    paused_at: datetime | None = None,
) -> list[Awaited]:
    """`plan` the long way: every decision's rows worked out from the rows before."""
    kept: dict[tuple[str, int], Deadline | Awaited] = {}  # (key, user) -> its row
    legacy: dict[tuple[str, int, str, int], datetime] = {}  # (stage, seat, kind, user)
    for d in previous:
        key = _parse_key(d.key)
        if key is None:
            continue
        if key.decision is None:
            legacy[(key.stage, key.seat, key.kind or "", d.user_id)] = d.due
        else:
            kept[(d.key, d.user_id)] = d
    full = _spans(hours)
    short = None  # worked out for the first window decision
    clock = paused_at or now
    out: list[Awaited] = []
    seen: set[str] = set()
    for a in awaited:
        user = users.get(a.seat)
        if user is None or a.key in seen:
            continue
        seen.add(a.key)
        if a.kind in WINDOW_KINDS:
            if short is None:
                short = _spans(window if window is not None else window_hours(hours))
            span, half = short
        else:
            span, half = full
        remind, expire = DeadlineKey.text("remind", a.seat, a.key), DeadlineKey.text("expire", a.seat, a.key)
        row_remind, row_expire = kept.get((remind, user)), kept.get((expire, user))
        due = (row_expire.due if row_expire is not None else None) or legacy.get(("expire", a.seat, a.kind, user))
        if due is None:
            early, late = clock + half, clock + span
        else:
            was = (row_remind.due if row_remind is not None else None) or legacy.get(("remind", a.seat, a.kind, user))
            early, late = was or due - half, due
        until = away.get(user)
        if until is not None and until <= clock:
            until = None
        if user == OPEN or (until is not None and not stretch):  # its defaults, at the next check
            early = late = min(late, clock)
        elif until is not None:  # his clock waits for his return
            early, late = max(early, until + half), max(late, until + span)
        out += [_row(row_remind, remind, user, early, None if paused_at is None else early - paused_at),
                _row(row_expire, expire, user, late, None if paused_at is None else late - paused_at)]
    return out


@lru_cache(maxsize=64)
def _spans(hours: float) -> tuple[timedelta, timedelta]:
    """A clock of `hours` and its half, made once per number of hours (a game's deadline, its
    window's): `_planned` asks them on every command with a new decision."""
    span = timedelta(hours=hours)
    return span, span / 2


_make_row = slot_maker(Awaited)  # Awaited(key, user_id, due, left), its slots written directly


def _row(was: Deadline | Awaited | None, key: str, user: int, due: datetime, left: timedelta | None) -> Awaited:
    """`Awaited(key, user, due, left)`: the row `was` itself when it is that very row, its due
    time the same object (a decision still awaited keeps its time: most rows after a command are
    the ones before it; a frozen row is a value, and making one was most of `plan`'s work)."""
    if type(was) is Awaited and was.due is due and was.left == left and was.key == key and was.user_id == user:
        return was
    return _make_row(key, user, due, left)


def unchanged(previous: Iterable[Deadline | Awaited], new: Iterable[Awaited]) -> bool:
    """Whether a commit may leave the deadlines as they are. The very rows of before, in their
    order (`plan` hands back a row still standing as itself), are that at once, compared in C."""
    if isinstance(previous, list) and isinstance(new, list) and len(previous) == len(new) \
            and all(map(is_, previous, new)):
        return True
    # `{(d.key, d.user_id, d.due, d.left) for d in previous} == {... for a in new}`, each row's
    # tuple read in C. Most commands come here with a new decision, whose rows are new: their
    # keys differ, which the sets of keys alone say (no tuple made, no due time hashed)
    previous = previous if isinstance(previous, (list, tuple)) else list(previous)
    new = new if isinstance(new, (list, tuple)) else list(new)
    if set(map(_KEY, previous)) != set(map(_KEY, new)):
        return False
    return set(map(_ROW, previous)) == set(map(_ROW, new))


_ROW = attrgetter("key", "user_id", "due", "left")  # a row as `unchanged` compares it
_KEY = attrgetter("key")  # its key: rows whose sets of keys differ differ as rows


def due_of(deadlines: Iterable[Deadline | Awaited], a: Await) -> datetime | None:
    """When the awaited decision `a` runs out, if it has a deadline."""
    row = expiry_of(deadlines, a)
    return None if row is None else row.due


def expiry_of(deadlines: Iterable[Deadline | Awaited], a: Await) -> Deadline | Awaited | None:
    """The expiry row of the awaited decision `a` (its due time, its time left while stopped)."""
    return expiry_in(expiries(deadlines), a)


def expiries(deadlines: Iterable[Deadline | Awaited]) -> list[tuple[DeadlineKey, Deadline | Awaited]]:
    """The expiry rows among `deadlines`, each with its key, in their order: read once for the
    many `expiry_in` of a command (each awaited decision's waiting line, each prompt)."""
    out = []
    for d in deadlines:
        key = _parse_key(d.key)
        if key is not None and key.stage == "expire":
            out.append((key, d))
    return out


def expiry_in(rows: Iterable[tuple[DeadlineKey, Deadline | Awaited]], a: Await) -> Deadline | Awaited | None:
    """`expiry_of` among the rows `expiries` read."""
    for key, d in rows:
        if key.names(a):
            return d
    return None


def resumed(rows: Iterable[Deadline], now: datetime) -> list[Awaited]:
    """The deadlines when stopped clocks run again at `now`: each row not yet carried out is due
    after the time it had left; one carried out (a reminder sent) keeps its time, so it stays
    done."""
    return [Awaited(d.key, d.user_id, d.due if d.reminded or d.left is None else now + d.left) for d in rows]


def stopped(rows: Iterable[Deadline | Awaited], at: datetime) -> list[Awaited]:
    """The deadlines when the clocks stop at `at`: the same due times, each with its time left."""
    return [Awaited(d.key, d.user_id, d.due, d.due - at) for d in rows]


def extended(rows: Iterable[Deadline], seat: int, decision: str, by: timedelta) -> list[Awaited]:
    """The deadlines with one seat's decision given `by` more time (a reminder already sent
    stays sent); the time left grows too while the clocks are stopped."""
    out = []
    for d in rows:
        key = DeadlineKey.parse(d.key)
        mine = key is not None and key.seat == seat and key.decision == decision and not d.reminded
        out.append(Awaited(d.key, d.user_id, d.due + by if mine else d.due,
                           None if d.left is None else d.left + by if mine else d.left))
    return out
