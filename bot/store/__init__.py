"""Persistence: the `GameStore` protocol and `SqliteStore`, its SQLite implementation.

The bot depends on `GameStore`; only start-up code names `SqliteStore`.
"""
from bot.store.locks import GameLocks
from bot.store.protocol import (
    UNFINISHED,
    Awaited,
    Committed,
    Deadline,
    Event,
    GameNotFound,
    GameStatus,
    GameStore,
    GameSummary,
    SchemaTooNew,
    Seat,
    Snapshot,
    SnapshotInfo,
    SnapshotNotFound,
    StoredGame,
    StoreError,
    VersionConflict,
)
from bot.store.sqlite import SqliteStore

__all__ = [
    "UNFINISHED",
    "Awaited",
    "Committed",
    "Deadline",
    "Event",
    "GameLocks",
    "GameNotFound",
    "GameStatus",
    "GameStore",
    "GameSummary",
    "SchemaTooNew",
    "Seat",
    "Snapshot",
    "SnapshotInfo",
    "SnapshotNotFound",
    "SqliteStore",
    "StoreError",
    "StoredGame",
    "VersionConflict",
]
