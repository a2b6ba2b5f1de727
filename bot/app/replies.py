"""What a use-case hands back to a front end: `Replies`, and who is calling from where.

A front end (the Discord adapter, the console) turns Replies into output and nothing else:
`public` lines and `images` go to everyone at the table, each `Private` to one player only,
`prompts` ask the awaited players for a decision, `ephemeral` answers the caller alone.

    replies = await service.command(Caller(1, "Ann"), Where(channel_id=5), "move 101 12A")
    for line in replies.public: print(line)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Literal

from bot.app.tokens import span, when
from engine import GameState, View
from engine import view as engine_view


@dataclass(frozen=True, slots=True)
class Caller:
    """Who gives a command: a user id (a Discord snowflake, or any int from a console) and a
    display name. `organiser` is true when the front end knows he may administer games where
    he is (on Discord: the Manage Channels permission); a game's creator always may.
    `sent_at` is when he sent the command, if the front end knows (a Discord interaction's
    creation time): the same command sent twice within a few seconds is carried out once.
    `roles`: his roles in the server the command came from (a server's organiser role makes
    him an organiser there); `manages_server`: he may change the server's settings (Discord:
    Manage Server)."""

    user_id: int
    name: str
    organiser: bool = False
    sent_at: datetime | None = None
    roles: frozenset[int] = frozenset()
    manages_server: bool = False


@dataclass(frozen=True, slots=True)
class Where:
    """How a command names its game: an explicit `game_id`, or the channel it was given in
    (which must then hold exactly one unfinished game). `guild_id` is kept for new games."""

    channel_id: int | None = None
    game_id: int | None = None
    guild_id: int = 0
    thread_id: int | None = None


class ImageRequest:
    """A picture to draw. Its only input is `view`: the public view for a public request,
    the seat's own view for a private one (`seat` set). The view is worked out when first
    asked for, so a front end that draws no pictures pays nothing for it. A `panel` names its
    vehicle by `plate` and is always public (the panels lie open on the table)."""

    __slots__ = ("_state", "_view", "caption", "kind", "plate", "seat", "serial")

    def __init__(self, kind: Literal["board", "soldier", "panel"], source: GameState | View, *,
                 seat: int | None = None, serial: int | None = None, plate: int | None = None,
                 caption: str = "") -> None:
        if kind == "panel" and seat is not None:
            raise ValueError("a vehicle panel is public: it takes no seat")
        self.kind, self.seat, self.serial, self.plate, self.caption = kind, seat, serial, plate, caption
        self._view = source if isinstance(source, View) else None
        self._state = None if isinstance(source, View) else source

    @property
    def view(self) -> View:
        if self._view is None:
            self._view = engine_view(self._state, self.seat)
            self._state = None
        return self._view

    @property
    def public(self) -> bool:
        return self.seat is None

    def __repr__(self) -> str:
        return f"ImageRequest({self.kind!r}, seat={self.seat}, serial={self.serial}, plate={self.plate})"


@dataclass(frozen=True, slots=True)
class Choice:
    """One answer offered as a button or select option; `command` is its script line. `stamp`
    is 16 hex digits: the tag of the decision it answers, then the tag of the answer
    (prompts.stamp); a front end hands it back with the press."""

    label: str
    command: str
    stamp: str = ""


@dataclass(frozen=True, slots=True)
class Prompt:
    """Ask one seat for a decision: `decision` is its id (engine.legal.decision_key), `version`
    the game's version it was drawn at. A front end names a pick by (game_id, seat, version,
    choice.stamp); the pick counts while that decision is open, whatever the version, and a
    second press of it, or a press once it is answered, is refused as already done."""

    game_id: int
    version: int
    seat: int
    user_id: int
    kind: str
    text: str
    choices: tuple[Choice, ...] = ()
    due: datetime | None = None
    decision: str = ""


@dataclass(frozen=True, slots=True)
class Waiting:
    """Whom the game waits for, for the public summary (a front end decides how to mention).
    `due`: when the default applies; `left`: while the clocks are stopped, the time left.
    `user_id` 0 is an open seat (nobody to mention: it plays its defaults)."""

    user_id: int
    seat: int
    name: str
    detail: str
    due: datetime | None = None
    left: timedelta | None = None

    def clock(self) -> str:
        """When its default applies, as the waiting line says it (a time token)."""
        if self.left is not None:
            return f" (clock stopped, {span(self.left)} left)"
        return f" (default {when(self.due)})" if self.due is not None else ""


@dataclass(frozen=True, slots=True)
class Attachment:
    """A file for the caller alone (a game record): its name and bytes."""

    name: str
    data: bytes


@dataclass(frozen=True, slots=True)
class Private:
    """Something only one player may see: his hand, held cards, orders, what his draw was."""

    user_id: int
    seat: int | None
    text: str
    images: tuple[ImageRequest, ...] = ()


@dataclass(slots=True)
class Replies:
    game_id: int | None = None
    version: int | None = None
    channel_id: int | None = None  # where the game's public messages go
    public: list[str] = field(default_factory=list)
    images: list[ImageRequest] = field(default_factory=list)  # public pictures
    waiting: list[Waiting] = field(default_factory=list)
    private: list[Private] = field(default_factory=list)
    prompts: list[Prompt] = field(default_factory=list)
    ephemeral: list[str] = field(default_factory=list)  # to the caller only
    ephemeral_images: list[ImageRequest] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)  # files for the caller only
    ended: bool = False  # the game finished or was abandoned
    join_sides: tuple[str, ...] = ()  # offer buttons to join these sides (a new game)
    undoable: bool = False  # the command just carried out may be taken back

    def public_text(self, mention=None) -> str:
        """The public lines and the waiting line; `mention(user_id, name)` formats a player.
        Each awaited player's line carries when his default applies (a time token)."""
        lines = list(self.public)
        if self.waiting:
            who = "; ".join(
                f"{mention(w.user_id, w.name) if mention else w.name} to {w.detail}{w.clock()}"
                for w in self.waiting
            )
            lines.append(f"Waiting for {who}.")
        return "\n".join(lines)
