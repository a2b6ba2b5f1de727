"""What the bot asks of its database for campaigns: the `CampaignStore` protocol and its records.

A campaign is one JSON document with a version, like a game (docs/campaigns.md): every change
goes through `commit_campaign`, which checks the version the caller read, bumps it by one,
appends to the campaign's append-only log and, in the same transaction, records a new result
or moves one from pending to confirmed (keeping the campaign as it was before) and back.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from bot.store.campaign_statuses import CampaignStatus, ResultStatus
from bot.store.protocol import StoreError, VersionConflict


@dataclass(frozen=True, slots=True)
class CampaignSummary:
    id: int
    guild_id: int
    channel_id: int
    definition_id: str
    name: str
    status: CampaignStatus
    organiser_id: int
    version: int
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class StoredCampaign(CampaignSummary):
    state: str


@dataclass(frozen=True, slots=True)
class NewResult:
    """A result to record as pending: `key` is unique in its campaign."""

    key: str
    step: str
    scenario_id: str
    body: str
    game_id: int | None = None
    submitted_by: int | None = None


@dataclass(frozen=True, slots=True)
class StoredResult:
    campaign_id: int
    number: int
    key: str
    step: str
    scenario_id: str
    game_id: int | None
    status: ResultStatus
    body: str
    before: str | None
    submitted_by: int | None
    decided_by: int | None
    created_at: datetime
    decided_at: datetime | None


@dataclass(frozen=True, slots=True)
class ResultChange:
    """Move result `number` from `expected` to `status`; `before` is the campaign state the
    confirmation replaces (required to confirm, dropped otherwise)."""

    number: int
    expected: ResultStatus
    status: ResultStatus
    before: str | None = None
    decided_by: int | None = None


@dataclass(frozen=True, slots=True)
class CampaignCommitted:
    campaign_id: int
    version: int
    last_seq: int
    result_number: int | None = None  # the number given to a new result


@dataclass(frozen=True, slots=True)
class CampaignLogEntry:
    campaign_id: int
    seq: int
    body: str
    created_at: datetime


class CampaignNotFound(StoreError):
    def __init__(self, campaign_id: int) -> None:
        super().__init__(f"no campaign with id {campaign_id}")
        self.campaign_id = campaign_id


class ResultNotFound(StoreError):
    def __init__(self, campaign_id: int, number: int) -> None:
        super().__init__(f"campaign {campaign_id} has no result {number}")
        self.campaign_id = campaign_id
        self.number = number


class DuplicateResult(StoreError):
    """A result with this key is recorded already (as `number`); nothing was written."""

    def __init__(self, campaign_id: int, key: str, number: int) -> None:
        super().__init__(f"campaign {campaign_id} has recorded that result already (result {number})")
        self.campaign_id = campaign_id
        self.key = key
        self.number = number


class ResultConflict(StoreError):
    """The result is not in the status the caller expected; nothing was written."""

    def __init__(self, campaign_id: int, number: int, expected: str, current: str) -> None:
        super().__init__(f"result {number} of campaign {campaign_id} is {current}, not {expected}")
        self.campaign_id = campaign_id
        self.number = number
        self.expected = expected
        self.current = current


class CampaignVersionConflict(VersionConflict):
    """Someone changed the campaign first: reload it and try again. Nothing was written."""

    def __init__(self, campaign_id: int, expected: int, current: int) -> None:
        StoreError.__init__(self, f"campaign {campaign_id} is at version {current}, not {expected}: "
                                  "reload and try again")
        self.game_id = campaign_id
        self.campaign_id = campaign_id
        self.expected = expected
        self.current = current


class CampaignStore(Protocol):
    """Persistence for campaigns, beside the `GameStore` (the same SQLite file)."""

    async def create_campaign(
        self,
        *,
        guild_id: int,
        channel_id: int,
        definition_id: str,
        name: str,
        organiser_id: int,
        state: str,
        status: CampaignStatus = CampaignStatus.ENLISTING,
        log: Sequence[str] = (),
        results: Sequence[StoredResult] = (),
    ) -> StoredCampaign:
        """Store a new campaign at version 1 with its first log entries; `results` (an import)
        are copied in with their numbers, statuses and `before` states."""
        ...

    async def load_campaign(self, campaign_id: int) -> StoredCampaign:
        """Raises `CampaignNotFound`."""
        ...

    async def campaigns_in_channel(self, channel_id: int, *, include_finished: bool = False
                                   ) -> list[CampaignSummary]:
        ...

    async def campaigns(self, ids: Sequence[int]) -> list[CampaignSummary]:
        """The campaigns with these ids that exist, oldest first."""
        ...

    async def campaigns_in_guild(self, guild_id: int) -> list[CampaignSummary]:
        """Every campaign of a server, oldest first (its players' medals, for statistics)."""
        ...

    async def commit_campaign(
        self,
        campaign_id: int,
        expected_version: int,
        state: str,
        log: Sequence[str] = (),
        *,
        status: CampaignStatus | None = None,
        new_result: NewResult | None = None,
        change: ResultChange | None = None,
    ) -> CampaignCommitted:
        """In one transaction: check the version, write the state, append the log, bump the
        version; optionally set the status, record `new_result` as pending (its number is the
        next), and apply `change`. Raises `VersionConflict`, `CampaignNotFound`,
        `DuplicateResult`, `ResultNotFound` or `ResultConflict`, having written nothing."""
        ...

    async def campaign_results(self, campaign_id: int) -> list[StoredResult]:
        """Every result of the campaign, by number."""
        ...

    async def load_result(self, campaign_id: int, number: int) -> StoredResult:
        ...

    async def campaign_log(self, campaign_id: int, after_seq: int = 0) -> list[CampaignLogEntry]:
        ...

