"""What a use-case hands back to a front end: `Replies`, and who is calling from where.

A front end (the Discord adapter, the console) turns Replies into output and nothing else:
`public` lines and `images` go to everyone at the table, each `Private` to one player only,
`prompts` ask the awaited players for a decision, `ephemeral` answers the caller alone.

    replies = await service.command(Caller(1, "Ann"), Where(channel_id=5), "move 101 12A")
    for line in replies.public: print(line)
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from datetime import datetime, timedelta
from types import MemberDescriptorType
from typing import Literal, TypeVar

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
        if isinstance(source, View):  # (asked once: a model class's isinstance goes through its metaclass)
            self._view, self._state = source, None
        else:
            self._view, self._state = None, source

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


T = TypeVar("T")


def slot_maker(cls: type[T]) -> Callable[..., T]:
    """A maker of `cls` taking every field positionally, in the fields' order: `cls(**dict(zip(
    names, values)))`. For a frozen slotted dataclass with nothing run on making (no
    `__post_init__`, every field set by `__init__`), the object is made and each slot written
    directly: the dataclass's frozen `__init__` writes each field through `object.__setattr__`,
    a lookup and a call each, about twice the time (the service makes some ten of them a
    command: the answers offered, the prompts, waiting lines, decision records, deadline rows).
    Any other class gets the plain maker. The same objects either way
    (tests/app/test_service_fast38.py)."""
    names = tuple(f.name for f in fields(cls))
    slots = [next((k.__dict__[name] for k in cls.__mro__ if name in k.__dict__), None) for name in names]
    plain = (names and not hasattr(cls, "__post_init__") and all(f.init for f in fields(cls))
             and cls.__dataclass_params__.frozen and all(type(d) is MemberDescriptorType for d in slots))
    if not plain:
        def made(*values):
            return cls(**dict(zip(names, values, strict=True)))
        return made
    setters = {f"_s{i}": d.__set__ for i, d in enumerate(slots)}
    args = ", ".join(f"a{i}" for i in range(len(names)))
    body = "".join(f"    _s{i}(o, a{i})\n" for i in range(len(names)))
    scope = {"_new": object.__new__, "_cls": cls, **setters}
    exec(f"def made({args}):\n    o = _new(_cls)\n{body}    return o\n", scope)  # noqa: S102 (our own text, as dataclasses makes __init__)
    made = scope["made"]
    made.__qualname__ = made.__name__ = f"made_{cls.__name__}"
    return made


make_choice = slot_maker(Choice)  # Choice(label, command, stamp)
make_prompt = slot_maker(Prompt)  # Prompt(game_id, version, seat, user_id, kind, text, choices, due, decision)
make_waiting = slot_maker(Waiting)  # Waiting(user_id, seat, name, detail, due, left)
