"""`GameLocks`: one asyncio.Lock per game, so a game's commands run one at a time in-process.

    locks = GameLocks()
    async with locks.for_game(game_id):
        game = await store.load_game(game_id)
        ...

The registry holds its locks weakly: a lock lives while some task holds it or waits for it,
and is dropped after, so a bot that has seen ten thousand games keeps only the busy ones.
"""
from __future__ import annotations

import asyncio
from weakref import WeakValueDictionary


class GameLocks:
    def __init__(self) -> None:
        self._locks: WeakValueDictionary[int, asyncio.Lock] = WeakValueDictionary()

    def for_game(self, game_id: int) -> asyncio.Lock:
        """The lock for `game_id`; the same object for as long as anyone still uses it."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        return lock

    def __len__(self) -> int:
        """How many games have a lock in use: held, awaited or still referenced."""
        return len(self._locks)
