"""Fixtures for the use-case tests: the fixture catalogue, a real SQLite file (or, for tests
marked `both_stores`, also a real PostgreSQL database), a clock the test moves, and the
service on them. The players and `open_table` are in tests/app/table.py."""
from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.app import GameService
from bot.store import SqliteStore, open_store
from engine import load_catalog
from tests.app.table import FIXTURE, Clock


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
