from __future__ import annotations

import asyncio
import gc

from bot.store import GameLocks


async def test_one_game_runs_one_command_at_a_time() -> None:
    locks = GameLocks()
    inside: dict[int, int] = {1: 0, 2: 0}
    most: dict[int, int] = {1: 0, 2: 0}

    async def command(game_id: int) -> None:
        async with locks.for_game(game_id):
            inside[game_id] += 1
            most[game_id] = max(most[game_id], inside[game_id])
            await asyncio.sleep(0)
            inside[game_id] -= 1

    await asyncio.gather(*(command(1 + n % 2) for n in range(40)))
    assert most == {1: 1, 2: 1}


async def test_different_games_do_not_wait_for_each_other() -> None:
    locks = GameLocks()
    async with locks.for_game(1):
        assert not locks.for_game(2).locked()
        assert locks.for_game(1).locked()
        assert locks.for_game(1) is locks.for_game(1)


async def test_locks_are_dropped_once_nobody_uses_them() -> None:
    locks = GameLocks()

    async def command(game_id: int) -> None:
        async with locks.for_game(game_id):
            await asyncio.sleep(0)

    await asyncio.gather(*(command(game_id) for game_id in range(1000)))
    gc.collect()
    assert len(locks) == 0


async def test_a_held_lock_is_not_dropped() -> None:
    locks = GameLocks()
    release = asyncio.Event()
    entered = asyncio.Event()

    async def holder() -> None:
        async with locks.for_game(7):
            entered.set()
            await release.wait()

    task = asyncio.create_task(holder())
    await entered.wait()
    gc.collect()
    assert len(locks) == 1
    assert locks.for_game(7).locked()  # the same lock, not a fresh unlocked one
    release.set()
    await task
