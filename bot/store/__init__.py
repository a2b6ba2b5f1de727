"""Persistence: the `GameStore` and `CampaignStore` protocols, `SqliteStore` (their SQLite
implementation) and `PostgresStore` (bot/store/postgres.py, with asyncpg installed).

The bot depends on the protocols; start-up code opens the store `FIELDPOST_DB` names with
`open_store(url)`. The campaign records (bot/store/campaigns.py) load when first asked for:
a game's start needs none of them (docs/architecture.md, A quick start).
"""
from typing import TYPE_CHECKING

from bot.store.database_url import open_store
from bot.store.locks import GameLocks
from bot.store.protocol import (
    UNFINISHED,
    Awaited,
    BadDatabase,
    Committed,
    Deadline,
    Event,
    GameNotFound,
    GameStatus,
    GameStore,
    GameSummary,
    JsonText,
    Pause,
    PlayerResult,
    PlayerTotals,
    SchemaTooNew,
    Seat,
    SeatDecision,
    Seen,
    SeenMark,
    Snapshot,
    SnapshotInfo,
    SnapshotNotFound,
    StoredGame,
    StoreError,
    StoreUnavailable,
    VersionConflict,
)
from bot.store.sqlite import SqliteStore

if TYPE_CHECKING:
    from bot.store.campaigns import (
        CampaignCommitted,
        CampaignLogEntry,
        CampaignNotFound,
        CampaignStatus,
        CampaignStore,
        CampaignSummary,
        CampaignVersionConflict,
        DuplicateResult,
        NewResult,
        ResultChange,
        ResultConflict,
        ResultNotFound,
        ResultStatus,
        StoredCampaign,
        StoredResult,
    )

_CAMPAIGN_RECORDS = frozenset({
    "CampaignCommitted",
    "CampaignLogEntry",
    "CampaignNotFound",
    "CampaignStatus",
    "CampaignStore",
    "CampaignSummary",
    "CampaignVersionConflict",
    "DuplicateResult",
    "NewResult",
    "ResultChange",
    "ResultConflict",
    "ResultNotFound",
    "ResultStatus",
    "StoredCampaign",
    "StoredResult",
})


def __getattr__(name: str) -> object:
    if name in _CAMPAIGN_RECORDS:
        from bot.store import campaigns

        return getattr(campaigns, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "UNFINISHED",
    "Awaited",
    "BadDatabase",
    "CampaignCommitted",
    "CampaignLogEntry",
    "CampaignNotFound",
    "CampaignStatus",
    "CampaignStore",
    "CampaignSummary",
    "CampaignVersionConflict",
    "Committed",
    "Deadline",
    "DuplicateResult",
    "Event",
    "GameLocks",
    "GameNotFound",
    "GameStatus",
    "GameStore",
    "GameSummary",
    "JsonText",
    "NewResult",
    "Pause",
    "PlayerResult",
    "PlayerTotals",
    "ResultChange",
    "ResultConflict",
    "ResultNotFound",
    "ResultStatus",
    "SchemaTooNew",
    "Seat",
    "SeatDecision",
    "Seen",
    "SeenMark",
    "Snapshot",
    "SnapshotInfo",
    "SnapshotNotFound",
    "SqliteStore",
    "StoreError",
    "StoreUnavailable",
    "StoredCampaign",
    "StoredGame",
    "StoredResult",
    "VersionConflict",
    "open_store",
]
