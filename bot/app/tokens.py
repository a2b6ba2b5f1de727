"""What a use-case's text names that each front end shows its own way: a moment in time and a
user. bot/app never writes a time as text for a reader (each reader has his own time zone):
it writes `when(moment)`, a token, and the front end renders every token of a text (Discord:
`<t:UNIX:f> (<t:UNIX:R>)`, each reader his own zone; a console: its local time). Durations
("3 h 20 min") are no moments and stay text.

    line = f"Default {when(due)}."                    # "Default <time:1780315200>."
    render(line, moment=lambda t: t.isoformat())       # "Default 2026-06-01T12:00:00+00:00."
"""
from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

TIME = re.compile(r"<time:(-?[0-9]{1,12})>")
USER = re.compile(r"<user:([0-9]{1,20})>")


def when(moment: datetime) -> str:
    """A moment, to the second, as a token for the front end to render."""
    return f"<time:{int(moment.timestamp())}>"


def who(user_id: int) -> str:
    """A user, as a token for the front end to render (Discord: a mention that pings nobody
    in an ephemeral answer; a console: the player's name)."""
    return f"<user:{int(user_id)}>"


def moments(text: str) -> list[datetime]:
    """The moments a text names, in order."""
    return [datetime.fromtimestamp(int(m), UTC) for m in TIME.findall(text)]


def render(text: str, moment: Callable[[datetime], str], user: Callable[[int], str] = str) -> str:
    """`text` with every token replaced: `moment(datetime)`, `user(user id)`."""
    text = TIME.sub(lambda m: moment(datetime.fromtimestamp(int(m[1]), UTC)), text)
    return USER.sub(lambda m: user(int(m[1])), text)


def span(length: timedelta) -> str:
    """A duration in words a player reads at a glance: "2 d 3 h", "3 h 20 min", "45 s"."""
    seconds = max(0, round(length.total_seconds()))
    days, rest = divmod(seconds, 86_400)
    hours, rest = divmod(rest, 3_600)
    minutes, seconds = divmod(rest, 60)
    parts = [f"{n} {unit}" for n, unit in ((days, "d"), (hours, "h"), (minutes, "min")) if n]
    if not parts or (not days and not hours and seconds):
        parts.append(f"{seconds} s")
    return " ".join(parts[:2])
