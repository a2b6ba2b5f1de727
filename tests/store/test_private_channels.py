"""Each player's private thread is remembered by id, so it is found again before any search
(AsyncTI4 lost and duplicated such threads when it looked them up by name)."""
from __future__ import annotations

import pytest

from bot.store import GameStore
from tests.store.sample import ALICE, BOB, THREAD, new_game

pytestmark = pytest.mark.both_stores


async def test_private_channels_are_remembered_per_game_and_player(store: GameStore) -> None:
    one = await new_game(store)
    two = await new_game(store)
    assert await store.private_channels(one.id) == {}

    await store.set_private_channel(one.id, ALICE, THREAD)
    await store.set_private_channel(one.id, BOB, THREAD + 1)
    await store.set_private_channel(two.id, ALICE, THREAD + 2)
    # the thread was deleted and a new one made: the new id replaces the old
    await store.set_private_channel(one.id, BOB, THREAD + 3)

    assert await store.private_channels(one.id) == {ALICE: THREAD, BOB: THREAD + 3}
    assert await store.private_channels(two.id) == {ALICE: THREAD + 2}
