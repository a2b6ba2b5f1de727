"""Per-phase snapshots and the organiser's rollback to one (DiplomacyGM's roll back by phase)."""
from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from bot.store import (
    Awaited,
    GameStatus,
    GameStore,
    SeatDecision,
    SnapshotNotFound,
    VersionConflict,
)
from tests.store.sample import ALICE, BOB, new_game, state

NOON = datetime(2026, 3, 1, 12, tzinfo=UTC)

pytestmark = pytest.mark.both_stores


async def test_a_commit_can_snapshot_its_new_state(store: GameStore) -> None:
    game = await new_game(store, events=('{"e": "setup"}',), snapshot="setup")
    await store.commit(game.id, 1, state(turn=1, phase=1), ['{"e": 1}'], snapshot="T1P1")
    await store.commit(game.id, 2, state(turn=1, phase=1, moved=True), ['{"e": 2}'])

    infos = await store.snapshots(game.id)
    assert [(s.label, s.seq, s.version) for s in infos] == [("setup", 1, 1), ("T1P1", 2, 2)]
    t1p1 = await store.load_snapshot(game.id, "T1P1")
    assert json.loads(t1p1.state) == {"turn": 1, "phase": 1}
    assert (await store.load_snapshot(game.id, "setup")).state == state(turn=1)
    with pytest.raises(SnapshotNotFound, match="T9P9"):
        await store.load_snapshot(game.id, "T9P9")


async def test_a_label_names_the_latest_snapshot_taken_under_it(store: GameStore) -> None:
    game = await new_game(store)
    await store.commit(game.id, 1, state(n=1), ['{"e": 1}'], snapshot="T1P1")
    await store.commit(game.id, 2, state(n=2), ['{"e": 2}'], snapshot="T1P1")
    infos = await store.snapshots(game.id)
    assert [(s.label, s.seq, s.version) for s in infos] == [("T1P1", 2, 3)]
    assert (await store.load_snapshot(game.id, "T1P1")).state == state(n=2)


async def played_through_turn_two(store: GameStore) -> int:
    game = await new_game(store, events=('{"e": 1}',), snapshot="setup")  # v1, seq 1
    await store.commit(game.id, 1, state(turn=1), ['{"e": 2}'], snapshot="T1P1")  # v2, seq 2
    await store.commit(game.id, 2, state(turn=1, shot=True), ['{"e": 3}'])  # v3, seq 3
    await store.commit(game.id, 3, state(turn=2), ['{"e": 4}'], snapshot="T2P1")  # v4, seq 4
    await store.commit(game.id, 4, state(turn=2, shot=True), ['{"e": 5}'])  # v5, seq 5
    return game.id


async def test_rollback_commits_the_snapshot_state_as_a_new_version(store: GameStore) -> None:
    game_id = await played_through_turn_two(store)
    history = await store.events_since(game_id)

    done = await store.rollback(game_id, 5, "T1P1", by_user_id=ALICE)

    assert (done.version, done.last_seq) == (6, 6)
    game = await store.load_game(game_id)
    assert game.version == 6
    assert game.state == state(turn=1)
    events = await store.events_since(game_id)
    assert events[:5] == history  # nothing rewritten
    assert json.loads(events[5].body) == {
        "type": "rollback", "snapshot": "T1P1", "to_seq": 2, "to_version": 2,
        "from_version": 5, "by": ALICE,
    }
    # T2P1 belonged to the abandoned timeline
    assert [s.label for s in await store.snapshots(game_id)] == ["setup", "T1P1"]
    # play goes on from the restored state, and the phase can be snapshotted again
    after = await store.commit(game_id, 6, state(turn=2), ['{"e": 7}'], snapshot="T2P1")
    assert (after.version, after.last_seq) == (7, 7)
    assert [(s.label, s.seq) for s in await store.snapshots(game_id)] == [
        ("setup", 1), ("T1P1", 2), ("T2P1", 7)
    ]


async def test_rollback_can_reopen_a_finished_game(store: GameStore) -> None:
    game_id = await played_through_turn_two(store)
    await store.commit(game_id, 5, state(over=True), ['{"e": "end"}'], status=GameStatus.FINISHED)
    await store.rollback(game_id, 6, "T2P1", status=GameStatus.ACTIVE)
    game = await store.load_game(game_id)
    assert (game.status, game.state, game.version) == (GameStatus.ACTIVE, state(turn=2), 7)


async def test_a_stale_or_unknown_rollback_changes_nothing(store: GameStore) -> None:
    game_id = await played_through_turn_two(store)
    before = await store.load_game(game_id)
    with pytest.raises(VersionConflict):
        await store.rollback(game_id, 4, "T1P1")
    with pytest.raises(SnapshotNotFound):
        await store.rollback(game_id, 5, "T7P1")
    assert await store.load_game(game_id) == before
    assert len(await store.events_since(game_id)) == 5
    assert [s.label for s in await store.snapshots(game_id)] == ["setup", "T1P1", "T2P1"]


async def test_rollback_writes_the_restored_decisions_deadlines_in_its_own_transaction(store: GameStore) -> None:
    game_id = await played_through_turn_two(store)
    await store.commit(game_id, 5, state(turn=2), awaited=[Awaited("expire:0:act:T2", ALICE, NOON)])
    restored = [Awaited("expire:0:place:T1:US-1", ALICE, NOON + timedelta(hours=24)),
                Awaited("expire:1:place:T1:DE-2", BOB, NOON + timedelta(hours=24))]
    await store.rollback(game_id, 6, "T1P1", awaited=restored,
                         decisions=[SeatDecision(0, asked="place:T1:US-1", asked_version=7)])
    assert [(d.key, d.due) for d in await store.deadlines(game_id)] == [(a.key, a.due) for a in restored]
    assert await store.decisions(game_id) == [SeatDecision(0, asked="place:T1:US-1", asked_version=7)]
    with pytest.raises(VersionConflict):  # a stale rollback writes no deadlines either
        await store.rollback(game_id, 6, "T1P1", awaited=[])
    assert len(await store.deadlines(game_id)) == 2
