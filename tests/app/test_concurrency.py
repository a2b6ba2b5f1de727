"""Many commands at once: on one game (placement may change any number of times, so each of 50
re-plans is carried out, or is already done when it repeats the placement standing), from two
service instances on one database (the version check decides), and on 500 games in parallel. The
version goes up by exactly one per accepted command, the log holds one envelope per accepted
command, and nothing is lost."""
from __future__ import annotations

import asyncio
import json
import random

import pytest

from bot.app import AlreadyDone, Counters, GameService, Refused, Where
from bot.app import eventlog
from bot.store import open_store
from tests.app.table import ANN, BO, Clock, open_table

pytestmark = [pytest.mark.both_stores, pytest.mark.slow]  # 500 games in one test; slow: tests/conftest.py


async def envelopes(store, gid: int) -> int:
    return sum(json.loads(e.body)["type"] == "command" for e in await store.events_since(gid))


async def test_fifty_concurrent_commands_on_one_game(service, store, cat):
    gid = (await open_table(service)).game_id
    where = Where(game_id=gid)
    plans = await service.options(ANN, where)
    v0 = (await store.load_game(gid)).version
    rnd = random.Random(1)

    async def one(n: int) -> str:
        try:
            if n % 10 == 9:  # some commands that must be refused: Bo is awaited for cards, not a pass
                await service.command(BO, where, "pass")
            else:
                await service.command(ANN, where, rnd.choice(plans))
            return "done"
        except AlreadyDone:
            return "already"
        except Refused:
            return "refused"

    outcomes = await asyncio.gather(*(one(n) for n in range(55)))
    accepted = outcomes.count("done")
    assert outcomes.count("refused") == 5 and accepted + outcomes.count("already") == 50
    game = await store.load_game(gid)
    assert game.version == v0 + accepted
    assert await envelopes(store, gid) == accepted
    assert eventlog.replay(cat, eventlog.read(await store.events_since(gid))) == \
        await service.load_state(gid)


async def test_two_instances_on_one_database_never_overwrite_each_other(store_url, cat):
    clock = Clock()
    async with open_store(store_url) as a_store, open_store(store_url) as b_store:
        a = GameService(a_store, cat, clock=clock, seed=lambda: 3)
        b = GameService(b_store, cat, clock=clock)
        gid = (await open_table(a)).game_id
        where = Where(game_id=gid)
        plans = await a.options(ANN, where)
        v0 = (await a_store.load_game(gid)).version

        async def one(service: GameService, n: int) -> str:
            try:
                await service.command(ANN, where, plans[n // 2 % len(plans)])  # each instance changes it each time
                return "done"
            except AlreadyDone:  # the placement standing, given again
                return "already"

        outcomes = await asyncio.gather(*(one(a if n % 2 else b, n) for n in range(40)))
        accepted = outcomes.count("done")
        game = await a_store.load_game(gid)
        assert game.version == v0 + accepted
        assert await envelopes(a_store, gid) == accepted
        assert accepted >= 10  # losers retried on the new version; nothing else refused


@pytest.mark.sqlite_only  # the engine's time, not the store's: tests/store runs 500 games on both stores
async def test_five_hundred_games_in_parallel(service, store):
    games = 500
    starts = await asyncio.gather(*(open_table(service, where=Where(channel_id=1000 + n))
                                    for n in range(games)))
    ids = [r.game_id for r in starts]
    assert len(set(ids)) == games
    before = {gid: (await store.load_game(gid)).version for gid in ids}

    async def play(gid: int, seed: int) -> int:
        rnd = random.Random(seed)
        where = Where(game_id=gid)
        accepted = 0
        for _ in range(4):
            waiting = await service.waiting(ANN, where)
            caller = ANN if rnd.choice(waiting).seat == 0 else BO
            await service.command(caller, where, rnd.choice(await service.options(caller, where)))
            accepted += 1
        return accepted

    counts = await asyncio.gather(*(play(gid, n) for n, gid in enumerate(ids)))
    for gid, accepted in zip(ids, counts):
        assert (await store.load_game(gid)).version == before[gid] + accepted
        assert await envelopes(store, gid) == accepted


async def test_a_process_never_acts_or_reads_on_a_cached_game_another_moved_on(store_url, cat):
    clock = Clock()
    async with open_store(store_url) as a_store, open_store(store_url) as b_store:
        a = GameService(a_store, cat, clock=clock, seed=lambda: 3)
        b = GameService(b_store, cat, clock=clock)
        gid = (await open_table(a)).game_id
        where = Where(game_id=gid)
        await a.command(ANN, where, (await a.options(ANN, where))[0])  # a keeps the game as it left it
        moved = await b.command(BO, where, (await b.options(BO, where))[0])  # both placed: the phase begins

        async def next_line(service: GameService):
            seat = (await service.waiting(ANN, where))[0].seat
            caller = (ANN, BO)[seat]
            return caller, (await service.options(caller, where))[0]

        caller, line = await next_line(b)
        done = await a.command(caller, where, line)  # from a's cache: judged and committed on b's game
        assert done.version == moved.version + 1
        assert await envelopes(a_store, gid) == 3
        assert await a.load_state(gid) == await b.load_state(gid)

        caller, line = await next_line(b)
        latest = await b.command(caller, where, line)
        assert (await a.status(ANN, where)).version == latest.version
        assert (await a.hand(BO, where)).version == latest.version
        assert (await a.board(ANN, where)).version == latest.version
        assert await a.waiting(ANN, where) == await b.waiting(ANN, where)
        assert (await a.hand(BO, where)).ephemeral == (await b.hand(BO, where)).ephemeral


async def test_a_commit_that_loses_to_another_process_is_counted_and_tried_again(store_url, cat):
    """The front end counts lost version checks and retries (bot/metrics.py): a read that another
    process overtakes before the commit loses, and the command is judged again on the new game."""
    clock = Clock()
    counted: list[str] = []
    async with open_store(store_url) as a_store, open_store(store_url) as b_store:
        a = GameService(a_store, cat, clock=clock, seed=lambda: 3,
                        counters=Counters(conflict=lambda: counted.append("conflict"),
                                          retry=lambda: counted.append("retry")))
        b = GameService(b_store, cat, clock=clock)
        gid = (await open_table(a)).game_id
        where = Where(game_id=gid)
        line, other = (await a.options(ANN, where))[0], (await b.options(BO, where))[0]
        read = a._load

        async def overtaken(game_id, **kw):
            loaded = await read(game_id, **kw)
            if not counted:  # b places between a's read and a's commit, once
                await b.command(BO, where, other)
            return loaded

        a._load = overtaken
        done = await a.command(ANN, where, line)
        assert counted == ["conflict", "retry"]
        assert await envelopes(a_store, gid) == 2, "both placements, each once"
        assert done.version == (await b.status(BO, where)).version
