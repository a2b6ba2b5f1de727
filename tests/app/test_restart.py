"""A restarted bot (a second service on the same database) resumes every game mid-turn, asks the
awaited players again, and plays on to the end; the log replays to the stored state."""
from __future__ import annotations

import random

import pytest

from bot.app import GameService, Where
from bot.app import eventlog
from bot.store import GameStatus, open_store
from tests.app.conftest import ANN, BO, HERE, Clock, open_table
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
        resumed = await second.resume()
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
        assert await second.resume() == []


async def test_resume_skips_lobbies_and_finished_games(store_url, cat):
    async with open_store(store_url) as store:
        service = GameService(store, cat)
        await service.new_game(ANN, Where(channel_id=1), "yard", side="US")
        gid = (await open_table(service, where=Where(channel_id=2))).game_id
        await service.abandon(ANN, Where(channel_id=2, game_id=gid))
        assert await service.resume() == []
