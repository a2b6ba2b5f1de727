"""How far each player has read a game's log, and who watches a game (issue 16): a commit marks
players as having read up to its last event; a read marks one player; a lower seq never moves
a mark back, and the time is always the latest look. Watching is on or off, once."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.store import GameStore, Seen, SeenMark, VersionConflict
from tests.store.sample import ALICE, BOB, new_game, state

pytestmark = pytest.mark.both_stores

NOON = datetime(2026, 3, 1, 12, tzinfo=UTC)


async def test_a_commit_marks_its_readers_at_its_last_event(store: GameStore) -> None:
    game = await new_game(store, events=('{"type":"created"}',))
    done = await store.commit(game.id, 1, state(), ['{"a":1}', '{"a":2}'], seen=Seen((ALICE, BOB), NOON))
    assert done.last_seq == 3
    assert await store.seen(game.id) == [SeenMark(BOB, 3, NOON), SeenMark(ALICE, 3, NOON)]
    with pytest.raises(VersionConflict):
        await store.commit(game.id, 1, state(), ['{"a":3}'], seen=Seen((ALICE,), NOON + timedelta(hours=1)))
    assert (await store.seen(game.id))[1] == SeenMark(ALICE, 3, NOON)


async def test_a_mark_never_goes_back_and_keeps_the_latest_look(store: GameStore) -> None:
    game = await new_game(store)
    await store.mark_seen(game.id, ALICE, 5, NOON)
    await store.mark_seen(game.id, ALICE, 2, NOON + timedelta(hours=2))  # an older read, a later look
    assert await store.seen(game.id) == [SeenMark(ALICE, 5, NOON + timedelta(hours=2))]
    await store.mark_seen(game.id, ALICE, 9, NOON + timedelta(hours=1))
    assert await store.seen(game.id) == [SeenMark(ALICE, 9, NOON + timedelta(hours=2))]
    other = await new_game(store)
    assert await store.seen(other.id) == []


async def test_watching_starts_and_stops_once(store: GameStore) -> None:
    game = await new_game(store)
    assert await store.set_watching(game.id, BOB, True)
    assert not await store.set_watching(game.id, BOB, True)
    assert await store.set_watching(game.id, ALICE, True)
    assert await store.watchers(game.id) == sorted([ALICE, BOB])
    assert await store.set_watching(game.id, BOB, False)
    assert not await store.set_watching(game.id, BOB, False)
    assert await store.watchers(game.id) == [ALICE]
