"""Many tasks, one store: every command either lands exactly once or loses cleanly and retries."""
from __future__ import annotations

import asyncio
import json
import random

import pytest

from bot.store import GameStore, VersionConflict
from tests.store.sample import new_game, state

pytestmark = pytest.mark.both_stores


async def command_with_retry(store: GameStore, game_id: int, who: int) -> int:
    """Load, 'apply', commit; on a conflict reload and apply again. Returns the conflicts met."""
    conflicts = 0
    while True:
        game = await store.load_game(game_id)
        await asyncio.sleep(0)  # the engine's apply: other tasks run meanwhile
        moved = json.loads(game.state).get("moves", []) + [who]
        try:
            await store.commit(game_id, game.version, state(moves=moved), [json.dumps({"by": who})])
            return conflicts
        except VersionConflict:
            conflicts += 1


async def test_fifty_tasks_on_one_game_lose_no_update(store: GameStore) -> None:
    game = await new_game(store)
    conflicts = await asyncio.gather(*(command_with_retry(store, game.id, n) for n in range(50)))

    assert sum(conflicts) > 0  # they really did race
    loaded = await store.load_game(game.id)
    assert loaded.version == 1 + 50
    assert sorted(json.loads(loaded.state)["moves"]) == list(range(50))
    events = await store.events_since(game.id)
    assert [event.seq for event in events] == list(range(1, 51))
    assert sorted(json.loads(event.body)["by"] for event in events) == list(range(50))


async def test_five_hundred_games_committed_in_parallel_keep_exact_versions(
    store: GameStore,
) -> None:
    games = [await new_game(store) for _ in range(500)]
    rounds = 3

    async def play(game_id: int) -> None:
        for n in range(rounds):
            await command_with_retry(store, game_id, n)

    await asyncio.gather(*(play(game.id) for game in games))

    for game in games:
        loaded = await store.load_game(game.id)
        assert loaded.version == 1 + rounds
        assert json.loads(loaded.state) == {"moves": list(range(rounds))}
        assert [e.seq for e in await store.events_since(game.id)] == list(range(1, rounds + 1))


async def test_a_cancelled_commit_lands_whole_or_not_at_all(store: GameStore) -> None:
    game = await new_game(store)
    rng = random.Random(1944)
    for n in range(60):
        loaded = await store.load_game(game.id)
        task = asyncio.create_task(
            store.commit(game.id, loaded.version, state(v=loaded.version + 1),
                         ['{"a": 1}', '{"b": 2}'])
        )
        if n % 10 == 0:
            await asyncio.sleep(0.05)  # surely done: lands
        elif n % 10 != 1:  # n % 10 == 1: cancelled before it starts
            await asyncio.sleep(rng.uniform(0, 0.002))  # somewhere inside the transaction
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)

    # the store is still usable, and state, version and log moved together
    loaded = await store.load_game(game.id)
    done = await store.commit(game.id, loaded.version, state(v=loaded.version + 1), ['{"c": 3}'])
    assert done.last_seq == 2 * (done.version - 2) + 1
    assert [e.seq for e in await store.events_since(game.id)] == list(range(1, done.last_seq + 1))
    landed = loaded.version - 1
    assert 6 <= landed <= 54
    assert loaded.state == state(v=loaded.version)


async def test_a_failing_transaction_in_a_group_commit_rolls_back_alone(store: GameStore) -> None:
    """Commits asked for together are committed together (group commit), each in its own
    savepoint: a stale one fails alone while the others land, and nothing half-written stays."""
    good = [await new_game(store) for _ in range(6)]
    stale = await new_game(store)
    await store.commit(stale.id, 1, state(turn=2))  # now at version 2: version 1 is stale
    calls = [store.commit(g.id, 1, state(turn=3), [json.dumps({"n": 1})]) for g in good]
    calls.insert(3, store.commit(stale.id, 1, state(turn=9), [json.dumps({"n": 9})]))
    outcomes = await asyncio.gather(*calls, return_exceptions=True)
    assert isinstance(outcomes[3], VersionConflict)
    assert all(o.version == 2 for i, o in enumerate(outcomes) if i != 3)
    assert json.loads((await store.load_game(stale.id)).state)["turn"] == 2
    assert len(await store.events_since(stale.id)) == len(await store.events_since(good[0].id)) - 1
    for g in good:
        loaded = await store.load_game(g.id)
        assert loaded.version == 2 and json.loads(loaded.state)["turn"] == 3
