"""What the bot asks of its database: the `GameStore` protocol, its records and its errors.

A game is one JSON state document with a version, an append-only event log and per-phase
snapshots. Every change to a game goes through `commit` (or `rollback`), which checks the
version the caller read and bumps it by exactly one, or raises `VersionConflict`.
State and events are JSON text: the engine owns their shape, the store only keeps them.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum
from os import PathLike
from typing import Any, Protocol


class GameStatus(StrEnum):
    LOBBY = "lobby"
    ACTIVE = "active"
    FINISHED = "finished"
    ABANDONED = "abandoned"


UNFINISHED = (GameStatus.LOBBY, GameStatus.ACTIVE)


@dataclass(frozen=True, slots=True)
class Seat:
    """A player's place at the table: `Seat(0, "US", 1234, "Sgt Rock")`."""

    seat_index: int
    side: str
    user_id: int
    display_name: str


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A game without its state: enough to list games and find where they are played."""

    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    scenario_id: str
    status: GameStatus
    organiser_id: int
    version: int
    created_at: datetime
    updated_at: datetime
    paused_at: datetime | None = field(default=None, kw_only=True)  # the organiser stopped its clocks


@dataclass(frozen=True, slots=True)
class StoredGame(GameSummary):
    """A game as loaded for a command: its summary, its state JSON and its seats in order."""

    state: str
    seats: tuple[Seat, ...]


@dataclass(frozen=True, slots=True)
class Committed:
    """What a successful commit left behind: the game's new version and last event seq."""

    game_id: int
    version: int
    last_seq: int


@dataclass(frozen=True, slots=True)
class Event:
    game_id: int
    seq: int
    body: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class SnapshotInfo:
    """A snapshot without its state: `label` such as "T2P1", taken after event `seq`."""

    game_id: int
    label: str
    seq: int
    version: int
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Snapshot(SnapshotInfo):
    state: str


@dataclass(frozen=True, slots=True)
class Awaited:
    """Who the game waits for, on what (a short key such as "orders"), and until when. `left`:
    while the game's clocks are stopped, the time that was left (such a row is never claimed)."""

    key: str
    user_id: int
    due: datetime
    left: timedelta | None = None


@dataclass(frozen=True, slots=True)
class Deadline:
    game_id: int
    key: str
    user_id: int
    due: datetime
    reminded: bool  # its reminder or default has been carried out
    left: timedelta | None = None  # the clocks are stopped: the time that was left


@dataclass(frozen=True, slots=True)
class Pause:
    """A change to a game's clocks in a commit: stopped at `at`, or (`at` None) running again."""

    at: datetime | None


@dataclass(frozen=True, slots=True)
class Seen:
    """Players who have seen a game's log up to a commit's last event, and when."""

    users: tuple[int, ...]
    at: datetime


@dataclass(frozen=True, slots=True)
class SeenMark:
    """How far one player has read a game's log (`seq`), and when he last looked."""

    user_id: int
    seq: int
    at: datetime


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One seat's part in a finished game, for statistics: who held it at the end, his side,
    won/lost/draw, his soldiers lost and the enemies his men and vehicles killed."""

    game_id: int
    seat: int
    user_id: int
    guild_id: int
    side: str
    outcome: str  # won, lost or draw
    lost: int
    killed: int
    ended_at: datetime


@dataclass(frozen=True, slots=True)
class PlayerTotals:
    """A player's finished games in one server, added up."""

    user_id: int
    games: int
    won: int
    lost: int  # soldiers lost
    killed: int


@dataclass(frozen=True, slots=True)
class SeatDecision:
    """What one seat of a game was last asked and last answered, kept in the database so every
    process knows it: the decision id of his latest prompt and the version it was drawn at; the
    decision his own last command answered, that command's text and when it was sent."""

    seat: int
    asked: str | None = None
    asked_version: int | None = None
    answered: str | None = None
    command: str | None = None
    sent_at: datetime | None = None


class JsonText(str):
    """A state's text that the code which made it vouches is JSON: a serializer's output (the
    service's StateCodec), or a state the store itself kept. The SQLite store keeps it without
    parsing it again; any other text given as a state it checks to be JSON first, refusing it
    as before (docs/store.md, "A state's JSON checked once"). Parsing a 14 KB state in the
    writer was a third of the writer's work a command. Made only where the text is known to be
    JSON (tests/store/test_vouched_json35.py holds the makers to that)."""

    __slots__ = ()


class StoreError(Exception):
    """The store cannot do what was asked; the message says why."""


class StoreUnavailable(StoreError):
    """The database cannot take or give data right now (a lock held elsewhere past the busy
    timeout, a full disk, an I/O error). Nothing was changed, unless `written`: the write was
    committed but its outcome could not be read back (SQLite's commits alone, docs/store.md).
    `str()` is safe to show a player; `reason` is for the admin log."""

    def __init__(self, reason: str, *, busy: bool = False, written: bool = False) -> None:
        if written:  # the one exception to "nothing was changed" (SQLite, docs/store.md)
            told = ("The bot saved this but could not confirm it; look at the game before you try again."
                    " The bot's admin has been told why.")
        elif busy:
            told = "The bot cannot save right now (the database is busy); nothing was changed. Try again in a moment."
        else:
            told = "The bot cannot save right now; nothing was changed. The bot's admin has been told why."
        super().__init__(told)
        self.reason = reason
        self.busy = busy
        self.written = written


class BadDatabase(StoreError):
    """The database file is not one Fieldpost can use (empty, truncated, corrupt, foreign).
    Raised at open, before anything is written; the message names the file and what to do."""


class GameNotFound(StoreError):
    def __init__(self, game_id: int) -> None:
        super().__init__(f"no game with id {game_id}")
        self.game_id = game_id


class SnapshotNotFound(StoreError):
    def __init__(self, game_id: int, label: str) -> None:
        super().__init__(f"game {game_id} has no snapshot labelled {label!r}")
        self.game_id = game_id
        self.label = label


class VersionConflict(StoreError):
    """Someone committed first: reload the game at `current` and try again. Nothing was written."""

    def __init__(self, game_id: int, expected: int, current: int) -> None:
        super().__init__(
            f"game {game_id} is at version {current}, not {expected}: reload and try again"
        )
        self.game_id = game_id
        self.expected = expected
        self.current = current


class SchemaTooNew(StoreError):
    """The database was migrated by a newer Fieldpost; opening it could corrupt it."""

    def __init__(self, found: int, known: int, path: str | PathLike[str] | None = None) -> None:
        super().__init__(
            ("" if path is None else f"{path}: ")
            + f"database schema version {found} is newer than this Fieldpost knows ({known}); "
            "upgrade Fieldpost or restore an older backup"
        )
        self.found = found
        self.known = known


class GameStore(Protocol):
    """Persistence for games. Opening and closing belong to the implementation."""

    async def create_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        scenario_id: str,
        organiser_id: int,
        state: str,
        thread_id: int | None = None,
        status: GameStatus = GameStatus.LOBBY,
        seats: Sequence[Seat] = (),
        events: Sequence[str] = (),
        snapshot: str | None = None,
    ) -> StoredGame:
        """Store a new game at version 1, with its first events and optionally a snapshot."""
        ...

    async def load_game(self, game_id: int) -> StoredGame:
        """The game and its seats as of one instant; raises `GameNotFound`."""
        ...

    async def unfinished_games(self) -> list[GameSummary]:
        """Every game in the lobby or active, oldest first: what to resume after a restart."""
        ...

    async def games_in_channel(
        self, channel_id: int, *, include_finished: bool = False
    ) -> list[GameSummary]:
        """Games played in a channel or in a thread with that id, oldest first."""
        ...

    async def games_of_user(self, user_id: int, *, include_finished: bool = False) -> list[GameSummary]:
        """Games in which the user holds a seat (lobby and active only, unless `include_finished`),
        oldest first."""
        ...

    async def commit(
        self,
        game_id: int,
        expected_version: int,
        state: str,
        events: Sequence[str] = (),
        *,
        status: GameStatus | None = None,
        snapshot: str | None = None,
        seats: Sequence[Seat] | None = None,
        awaited: Sequence[Awaited] | None = None,
        decisions: Sequence[SeatDecision] | None = None,
        organiser_id: int | None = None,
        pause: Pause | None = None,
        seen: Seen | None = None,
        results: Sequence[PlayerResult] = (),
    ) -> Committed:
        """In one transaction: check the version, write the state, append the events, bump the
        version by one. Optionally set the status, take a snapshot labelled `snapshot` of the new
        state, replace the seats, replace the deadlines with `awaited`, and replace the named
        seats' `decisions` (other seats' stay); hand the game to another organiser; stop or start
        its clocks (`pause`: the game's `paused_at`); mark `seen` players as having read the log
        up to the last event appended; keep the finished game's `results` (once per seat).
        Raises `VersionConflict` (nothing written) or `GameNotFound`."""
        ...

    async def rollback(
        self,
        game_id: int,
        expected_version: int,
        label: str,
        *,
        by_user_id: int | None = None,
        status: GameStatus | None = None,
        awaited: Sequence[Awaited] | None = None,
        decisions: Sequence[SeatDecision] | None = None,
        state: str | None = None,
        events: Sequence[str] = (),
    ) -> Committed:
        """Commit the state of snapshot `label` as a new version, append a "rollback" event and
        drop the snapshots taken after it; like `commit`, replace the deadlines with `awaited` and
        the named seats' `decisions` in the same transaction. `state` and `events`: what the
        caller makes of the snapshot's state (seats renamed since), written instead of it, and
        the events that lead there, appended after the rollback event. Raises `VersionConflict`
        or `SnapshotNotFound`."""
        ...

    async def decisions(self, game_id: int) -> list[SeatDecision]:
        """What each seat was last asked and last answered, by seat."""
        ...

    async def record_decisions(self, game_id: int, version: int, decisions: Sequence[SeatDecision]) -> bool:
        """Replace the named seats' decisions if the game is still at `version` (prompts sent
        again without a change to the game, as after a restart); whether they were written."""
        ...

    async def claim_resumes(self, games: Sequence[tuple[int, int]]) -> list[int]:
        """Claim the re-prompt after a restart of each `(game id, version)` whose game is active,
        still at that version and not yet re-prompted at it; the ids claimed, in one transaction.
        Of several processes asking for the same game, one gets it."""
        ...

    async def pace(self, name: str, seconds: float) -> float:
        """Take the next `seconds` of the pace `name`, which every process on this database shares
        (its next free moment, by the database's clock, moves on by `seconds`); how many seconds
        the caller waits until his turn (0 if it has come)."""
        ...

    async def set_thread(self, game_id: int, thread_id: int | None) -> None:
        """Remember the Discord thread a game is played in."""
        ...

    async def events_since(self, game_id: int, after_seq: int = 0) -> list[Event]:
        """Events with seq greater than `after_seq`, in order."""
        ...

    async def snapshots(self, game_id: int) -> list[SnapshotInfo]:
        """The game's snapshots in event-log order."""
        ...

    async def load_snapshot(self, game_id: int, label: str) -> Snapshot:
        ...

    async def get_setting(self, scope: str, key: str, default: Any = None) -> Any:
        """A JSON setting; scopes look like "guild:<id>", "game:<id>", "user:<id>"."""
        ...

    async def settings(self, scope: str) -> dict[str, Any]:
        ...

    async def set_setting(self, scope: str, key: str, value: Any) -> None:
        ...

    async def delete_setting(self, scope: str, key: str) -> None:
        ...

    async def private_channels(self, game_id: int) -> Mapping[int, int]:
        """Each player's private channel or thread id in this game, by user id."""
        ...

    async def set_private_channel(self, game_id: int, user_id: int, channel_id: int) -> None:
        ...

    async def deadlines(self, game_id: int) -> list[Deadline]:
        ...

    async def due_deadlines(self, now: datetime) -> list[Deadline]:
        """Deadlines of unfinished games due at or before `now` whose reminder is not yet sent."""
        ...

    async def claim_deadlines(self, now: datetime, lease: timedelta) -> list[Deadline]:
        """Claim, in one transaction, the due deadlines that are not carried out and not claimed
        (or whose claim is older than its lease, its claimer having died): no other caller gets
        them until `now + lease`. Mark each one done with `mark_reminded` once carried out."""
        ...

    async def mark_reminded(self, game_id: int, key: str, user_id: int) -> None:
        """The deadline's reminder or default has been carried out (not while its clock is
        stopped: it is then claimed again once the clocks run)."""
        ...

    async def seen(self, game_id: int) -> list[SeenMark]:
        """How far each player has read the game's log, by user id."""
        ...

    async def mark_seen(self, game_id: int, user_id: int, seq: int, at: datetime) -> None:
        """The player has read the log up to `seq` at `at` (a lower seq than kept stays as it was;
        the time is the latest)."""
        ...

    async def watchers(self, game_id: int) -> list[int]:
        """Users who watch the game (its public view by direct message), in user id order."""
        ...

    async def set_watching(self, game_id: int, user_id: int, watching: bool) -> bool:
        """Start or stop a user's watching; whether anything changed."""
        ...

    async def player_totals(self, guild_id: int, user_id: int | None = None, *,
                            limit: int = 10) -> list[PlayerTotals]:
        """Finished games added up per player in a server (one player, or the `limit` most
        active: most games, then most won)."""
        ...
