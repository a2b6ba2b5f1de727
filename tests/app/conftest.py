"""Shared pieces for the use-case tests: the fixture catalogue, a real SQLite file (or, for
tests marked `both_stores`, also a real PostgreSQL database), a clock the test moves, and a
table of players."""
from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.app import Caller, GameService, Where
from bot.store import SqliteStore, open_store
from engine import load_catalog

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "rules"

ANN = Caller(11, "Ann")
BO = Caller(22, "Bo")
CY = Caller(33, "Cy")
EVE = Caller(99, "Eve")  # never seated
HERE = Where(channel_id=500, guild_id=1)


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, hours: float) -> datetime:
        self.now += timedelta(hours=hours)
        return self.now


@pytest.fixture(scope="session")
def cat():
    return load_catalog(FIXTURE)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def store(store_url: str) -> AsyncIterator[SqliteStore]:
    async with open_store(store_url) as opened:
        yield opened


@pytest.fixture
def service(store, cat, clock) -> GameService:
    return GameService(store, cat, clock=clock, seed=lambda: 7)


async def open_table(service: GameService, players=(ANN, BO), sides=("US", "DE"),
                     scenario: str = "yard", where: Where = HERE, **new):
    """A game created by the first player, joined by all, started: the start's Replies."""
    created = await service.new_game(players[0], where, scenario, side=sides[0], **new)
    where = Where(channel_id=where.channel_id, game_id=created.game_id)
    for caller, side in zip(players[1:], sides[1:]):
        await service.join(caller, where, side)
    return await service.start(players[0], where)
