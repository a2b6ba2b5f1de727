"""Since you last looked, across restarts (issue 16): a game played by scripted players through
several processes in turn (each a new GameService on the same database, which first asks the
awaited players again), the clock jumping between moves. The test keeps its own account of each
player's last look (a command he gave, a prompt he was sent, `/log`, `/board`, `/game status`,
`/hand`) and checks every prompt and every `/log` against it: a prompt carries a digest of the
lines since exactly when the player has not looked for `digest_hours`, and `/log` shows exactly
the lines since his last look, even when that look was in another process."""
from __future__ import annotations

import random
from datetime import datetime, timedelta

import pytest

from bot.app import Caller, GameService, Replies, Where, eventlog
from bot.app.seen import DIGEST_LINES, LOG_LINES
from bot.app.tokens import when
from bot.store import GameStatus, GameStore, open_store
from tests.app.table import ANN, BO, HERE, Clock, open_table

pytestmark = pytest.mark.both_stores

SEATS = {0: ANN, 1: BO}
GAP = timedelta(hours=12)  # the game's digest_hours when not set


class Looks:
    """Each player's last look as the issue defines it: (the log's last seq then, the time)."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.at: dict[int, tuple[int, datetime]] = {}

    async def logged(self, store: GameStore, gid: int) -> list[eventlog.Logged]:
        return eventlog.read(await store.events_since(gid))

    async def look(self, store: GameStore, gid: int, *users: int) -> None:
        last = (await store.events_since(gid))[-1].seq
        for user in users:
            self.at[user] = (last, self.clock.now)

    async def check_prompts(self, store: GameStore, gid: int, r: Replies) -> int:
        """Every prompt of `r` has a digest exactly when its player has not looked for GAP, and
        the digest counts the lines he may read since his last look; then he has looked."""
        logged = await self.logged(store, gid)
        digests = 0
        for p in r.prompts:
            seq, at = self.at[p.user_id]
            if self.clock.now - at >= GAP:
                lines = eventlog.visible_lines(logged, p.seat, seq)
                head = f"**While you were away** (you last looked {when(at)}): {len(lines)} new line"
                assert p.text.startswith(head), p.text[:200]
                assert all(f"> {line}" in p.text for line in lines[-DIGEST_LINES:])
                digests += 1
            else:
                assert "While you were away" not in p.text, (self.clock.now - at, p.text[:200])
        await self.look(store, gid, *{p.user_id for p in r.prompts})
        return digests

    async def check_log(self, store: GameStore, gid: int, caller: Caller, seat: int, r: Replies) -> None:
        seq, at = self.at[caller.user_id]
        lines = eventlog.visible_lines(await self.logged(store, gid), seat, seq)
        assert r.ephemeral == [f"**Since you last looked** ({when(at)}):\n"
                               + ("\n".join(lines[-LOG_LINES:]) if lines else "nothing new.")]
        await self.look(store, gid, caller.user_id)


async def turn(service: GameService, store: GameStore, gid: int, where: Where, rnd: random.Random,
               looks: Looks) -> tuple[bool, int]:
    """One thing a player does: mostly a move, sometimes a read. (game still running, digests)"""
    seat = rnd.choice([0, 1])
    caller = SEATS[seat]
    pick = rnd.random()
    if pick < 0.15:
        await looks.check_log(store, gid, caller, seat, await service.history(caller, where))
        return True, 0
    if pick < 0.3:
        read = rnd.choice([service.board, service.status, service.hand])
        await read(caller, where)
        await looks.look(store, gid, caller.user_id)
        return True, 0
    waiting = await service.waiting(ANN, where)
    if not waiting:
        return False, 0
    w = rnd.choice(waiting)
    caller = SEATS[w.seat]
    r = await service.command(caller, where, rnd.choice(await service.options(caller, where)))
    digests = await looks.check_prompts(store, gid, r)  # against the looks before this command
    await looks.look(store, gid, caller.user_id)
    return True, digests


@pytest.mark.parametrize("seed", [1, 2])
async def test_what_each_player_has_seen_carries_over_restarts(store_url, cat, seed):
    rnd = random.Random(seed)
    clock = Clock()
    looks = Looks(clock)
    digests = logs = 0
    async with open_store(store_url) as store:
        first = GameService(store, cat, clock=clock, seed=lambda: seed)
        started = await open_table(first)
        gid = started.game_id
        where = Where(channel_id=HERE.channel_id, game_id=gid)
        await looks.look(store, gid, ANN.user_id, BO.user_id)  # both are prompted at the start
    running = True
    for _ in range(5):
        clock.advance(rnd.choice([1, 13]))
        async with open_store(store_url) as store:
            service = GameService(store, cat, clock=clock)
            async for r in service.resume():  # the awaited players, asked again after the gap
                digests += await looks.check_prompts(store, gid, r)
            for _ in range(25):
                clock.advance(rnd.choice([0.01, 0.5, 2, 14]))
                logs += 1
                running, n = await turn(service, store, gid, where, rnd, looks)
                digests += n
                if not running:
                    break
            status = (await store.load_game(gid)).status
        if not running:
            break
    assert digests > 0 and logs > 0, "the gaps were long enough for digests"
    assert status in (GameStatus.ACTIVE, GameStatus.FINISHED)


async def test_a_log_read_in_one_process_is_not_shown_again_in_the_next(store_url, cat):
    clock = Clock()
    async with open_store(store_url) as store:
        first = GameService(store, cat, clock=clock, seed=lambda: 7)
        gid = (await open_table(first)).game_id
        where = Where(channel_id=HERE.channel_id, game_id=gid)
        clock.advance(1)
        await first.history(ANN, where)
        read_at = clock.now
        clock.advance(1)
        await first.command(BO, where, (await first.options(BO, where))[0])
    clock.advance(1)
    async with open_store(store_url) as store:
        second = GameService(store, cat, clock=clock)
        again = (await second.history(ANN, where)).ephemeral[0]
        assert again.startswith(f"**Since you last looked** ({when(read_at)}):")
        assert "Bo places 3 cards face down." in again.splitlines()[1:]
        assert "Ann places" not in again and "You placed" not in again
        assert (await second.history(ANN, where)).ephemeral[0].endswith("nothing new.")
