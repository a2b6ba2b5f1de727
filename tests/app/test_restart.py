"""A restarted bot (a second service on the same database) resumes every game mid-turn, asks the
awaited players again, and plays on to the end; the log replays to the stored state. Processes
restarting together ask each player once, and a game is asked again once per version."""
from __future__ import annotations

import asyncio
import random

import pytest

from bot.app import GameService, Where
from bot.app import eventlog
from bot.store import GameStatus, open_store
from tests.app.table import ANN, BO, HERE, Clock, open_table
from tests.app.players import play_randomly

pytestmark = pytest.mark.both_stores


async def test_a_second_instance_continues_the_game_mid_turn(store_url, cat):
    clock = Clock()
    async with open_store(store_url) as store:
        first = GameService(store, cat, clock=clock, seed=lambda: 11)
        gid = (await open_table(first)).game_id
        where = Where(channel_id=HERE.channel_id, game_id=gid)
        await play_randomly(first, {0: ANN, 1: BO}, where, random.Random(8), limit=9)
        before = (await store.load_game(gid))
        awaited = {w.user_id for w in await first.waiting(ANN, where)}
    assert before.status == GameStatus.ACTIVE and awaited

    async with open_store(store_url) as store:
        second = GameService(store, cat, clock=clock)
        resumed = [r async for r in second.resume()]
        assert [r.game_id for r in resumed] == [gid]
        assert {p.user_id for p in resumed[0].prompts} == awaited
        assert {w.user_id for w in resumed[0].waiting} == awaited
        assert resumed[0].public == []  # asks again in private, says nothing new in public
        n = await play_randomly(second, {0: ANN, 1: BO}, where, random.Random(9))
        assert n > 0
        final = await store.load_game(gid)
        assert final.status == GameStatus.FINISHED and final.version > before.version
        logged = eventlog.read(await store.events_since(gid))
        assert eventlog.replay(cat, logged) == await second.load_state(gid)
        assert (await second.load_state(gid)).step == "over"
        assert [r async for r in second.resume()] == []


async def test_resume_skips_lobbies_and_finished_games(store_url, cat):
    async with open_store(store_url) as store:
        service = GameService(store, cat)
        await service.new_game(ANN, Where(channel_id=1), "yard", side="US")
        gid = (await open_table(service, where=Where(channel_id=2))).game_id
        await service.abandon(ANN, Where(channel_id=2, game_id=gid))
        assert [r async for r in service.resume()] == []


async def test_two_processes_restarting_together_ask_each_awaited_player_once(store_url, cat):
    clock = Clock()
    async with open_store(store_url) as store:
        first = GameService(store, cat, clock=clock, seed=lambda: 11)
        games = [(await open_table(first, where=Where(channel_id=700 + n))).game_id for n in range(6)]
    async with open_store(store_url) as a_store, open_store(store_url) as b_store:
        a, b = GameService(a_store, cat, clock=clock), GameService(b_store, cat, clock=clock)

        async def resumed(service: GameService) -> list:
            return [r async for r in service.resume(rate=float("inf"))]

        told = [r for out in await asyncio.gather(resumed(a), resumed(b)) for r in out]
        asked = sorted((r.game_id, p.user_id) for r in told for p in r.prompts)
        assert asked == sorted((gid, user) for gid in games for user in (ANN.user_id, BO.user_id))


async def test_a_game_is_asked_again_once_per_version(service, store, cat, clock):
    gid = (await open_table(service)).game_id
    restarted = GameService(store, cat, clock=clock)
    assert [r.game_id async for r in restarted.resume()] == [gid]
    assert [r async for r in GameService(store, cat, clock=clock).resume()] == []  # nothing changed since
    await restarted.command(ANN, Where(game_id=gid), (await restarted.options(ANN, Where(game_id=gid)))[0])
    again = [r async for r in GameService(store, cat, clock=clock).resume()]
    assert [(r.game_id, [p.user_id for p in r.prompts]) for r in again] == [(gid, [BO.user_id])]
