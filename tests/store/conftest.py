from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.store import open_store


@pytest.fixture
async def store(store_url: str) -> AsyncIterator:
    async with open_store(store_url) as opened:
        yield opened
