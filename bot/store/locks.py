"""`GameLocks`: one asyncio.Lock per game, so a game's commands run one at a time in-process.

    locks = GameLocks()
    async with locks.for_game(game_id):
        game = await store.load_game(game_id)
        ...

A lock lives in the registry while some task holds it or waits for it: the release that leaves
it free with nobody waiting takes it out, so a bot that has seen ten thousand games keeps only
the busy ones. Take a lock with `async with` straight away (no await between `for_game` and
the acquiring): a lock asked for and never taken stays registered (free) until it is taken and
let go, and a lock kept across awaits after its release is no longer the game's. (A waiter
cancelled after the release that woke it leaves its game's lock registered, free, until that
game's next command takes and lets go of it.)

(Before, the registry was a WeakValueDictionary: every command made a lock and a weak
reference, and the reference's callback ran when the lock was dropped. Now the release drops
it, and a dropped lock, free with nobody waiting, is handed out again for the next game that
asks: some SPARE of them are kept.)
"""
from __future__ import annotations

import asyncio

SPARE = 8  # free locks kept to be handed out again


class _GameLock(asyncio.Lock):
    """A game's lock that takes itself out of its registry when released free with nobody
    waiting, and is kept as a spare."""

    def __init__(self, owner: GameLocks, game_id: int) -> None:
        super().__init__()
        self._owner, self._game_id = owner, game_id

    async def __aenter__(self) -> None:
        # acquire's own first step, without its coroutine: free with nobody waiting, taken at once
        if not self._locked and not self._waiters:
            self._locked = True
            return
        await self.acquire()

    def release(self) -> None:
        super().release()
        # a waiter woken by the release is still in _waiters until it runs: kept for it
        if not self._locked and not self._waiters:
            self._owner._drop(self)


class GameLocks:
    def __init__(self) -> None:
        self._locks: dict[int, _GameLock] = {}
        self._spare: list[_GameLock] = []

    def for_game(self, game_id: int) -> asyncio.Lock:
        """The lock for `game_id`; the same object for as long as anyone holds or awaits it."""
        lock = self._locks.get(game_id)
        if lock is None:
            if self._spare:
                lock = self._spare.pop()
                lock._game_id = game_id
            else:
                lock = _GameLock(self, game_id)
            self._locks[game_id] = lock
        return lock

    def _drop(self, lock: _GameLock) -> None:
        """`lock`, released free with nobody waiting, out of the registry, and kept as a spare."""
        if self._locks.get(lock._game_id) is lock:
            del self._locks[lock._game_id]
            if len(self._spare) < SPARE:
                self._spare.append(lock)

    def __len__(self) -> int:
        """How many games have a lock in use: held, awaited, or asked for and not yet taken."""
        return len(self._locks)
