"""A game's clocks stopped and started again (issue 16): the game keeps when they stopped, each
deadline the time it had left; a deadline with time kept is never claimed nor marked done; the
organiser changes in the same transaction as the commit; a rollback writes what the caller made
of the snapshot's state and the events that lead there."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.store import Awaited, GameStore, Pause, SnapshotNotFound, VersionConflict
from tests.store.sample import ALICE, BOB, new_game, state

pytestmark = pytest.mark.both_stores

NOON = datetime(2026, 3, 1, 12, tzinfo=UTC)
LEASE = timedelta(minutes=5)


async def test_a_paused_game_keeps_its_moment_and_each_deadline_its_time_left(store: GameStore) -> None:
    game = await new_game(store)
    await store.commit(game.id, 1, state(), awaited=[Awaited("expire:0:x", ALICE, NOON)])
    left = timedelta(hours=3, minutes=7, seconds=11, microseconds=5)
    await store.commit(game.id, 2, state(), pause=Pause(NOON - timedelta(hours=1)),
                       awaited=[Awaited("expire:0:x", ALICE, NOON, left=left)])
    loaded = await store.load_game(game.id)
    assert loaded.paused_at == NOON - timedelta(hours=1)
    assert (await store.games_in_channel(loaded.channel_id))[0].paused_at == loaded.paused_at
    (d,) = await store.deadlines(game.id)
    assert (d.due, d.left, d.reminded) == (NOON, left, False)
    # stopped: never due, never claimed, never marked done
    assert await store.due_deadlines(NOON + timedelta(days=9)) == []
    assert await store.claim_deadlines(NOON + timedelta(days=9), LEASE) == []
    await store.mark_reminded(game.id, "expire:0:x", ALICE)
    assert not (await store.deadlines(game.id))[0].reminded
    # running again: the caller gives the new due time, the row is claimable once due
    later = NOON + timedelta(days=2)
    await store.commit(game.id, 3, state(), pause=Pause(None),
                       awaited=[Awaited("expire:0:x", ALICE, later + left)])
    assert (await store.load_game(game.id)).paused_at is None
    (d,) = await store.deadlines(game.id)
    assert (d.due, d.left) == (later + left, None)
    assert [c.key for c in await store.claim_deadlines(later + left, LEASE)] == ["expire:0:x"]


async def test_a_commit_without_pause_leaves_the_clocks_as_they_are(store: GameStore) -> None:
    game = await new_game(store)
    await store.commit(game.id, 1, state(), pause=Pause(NOON))
    await store.commit(game.id, 2, state())
    assert (await store.load_game(game.id)).paused_at == NOON


async def test_a_commit_hands_the_game_to_another_organiser_or_nothing(store: GameStore) -> None:
    game = await new_game(store)
    assert game.organiser_id == ALICE
    await store.commit(game.id, 1, state(), organiser_id=BOB)
    assert (await store.load_game(game.id)).organiser_id == BOB
    with pytest.raises(VersionConflict):
        await store.commit(game.id, 1, state(), organiser_id=ALICE)
    assert (await store.load_game(game.id)).organiser_id == BOB


async def test_a_rollback_writes_the_callers_state_and_events_after_its_own(store: GameStore) -> None:
    game = await new_game(store, events=('{"type":"started"}',), snapshot="T1P0")
    await store.commit(game.id, 1, state(turn=2), ['{"type":"command","n":1}'])
    done = await store.rollback(game.id, 2, "T1P0", state=state(turn=1, renamed=True),
                                events=['{"type":"command","n":2}'])
    assert (await store.load_game(game.id)).state == state(turn=1, renamed=True)
    kinds = [e.body for e in await store.events_since(game.id)]
    assert kinds[2].startswith('{"type": "rollback"') and kinds[3] == '{"type":"command","n":2}'
    assert done.last_seq == 4
    with pytest.raises(SnapshotNotFound):
        await store.rollback(game.id, 3, "T9P9", state=state(), events=['{"type":"x"}'])
    assert len(await store.events_since(game.id)) == 4
