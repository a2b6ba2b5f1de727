"""The statuses a campaign and its results go through (docs/campaigns.md). Apart from the records
in bot/store/campaigns.py, which a game's start does not load, because `SqliteStore`'s campaign
methods name `CampaignStatus.ENLISTING` as a default (docs/architecture.md, A quick start)."""
from __future__ import annotations

from enum import StrEnum


class CampaignStatus(StrEnum):
    ENLISTING = "enlisting"
    RUNNING = "running"
    FINISHED = "finished"


class ResultStatus(StrEnum):
    PENDING = "pending"  # waiting for the organiser's review
    CONFIRMED = "confirmed"  # applied to the rosters; `before` holds the campaign before it
    REJECTED = "rejected"  # thrown out; its key stays taken
