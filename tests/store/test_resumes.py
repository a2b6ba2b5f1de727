"""What several processes restarting at once share through the store: the claim of each game's
re-prompt (once per version of the game, to one claimer) and a pace all of them keep together."""
from __future__ import annotations

import asyncio

import pytest

from bot.store import GameStatus, GameStore, open_store
from tests.store.sample import new_game, state

pytestmark = pytest.mark.both_stores


async def test_a_games_re_prompt_is_claimed_once_per_version(store: GameStore) -> None:
    game = await new_game(store)
    assert await store.claim_resumes([(game.id, 1)]) == [game.id]
    assert await store.claim_resumes([(game.id, 1)]) == []  # claimed already at this version
    await store.commit(game.id, 1, state(turn=2))
    assert await store.claim_resumes([(game.id, 1)]) == []  # the game is no longer at version 1
    assert await store.claim_resumes([(game.id, 2)]) == [game.id]


async def test_only_active_games_are_re_prompted(store: GameStore) -> None:
    lobby = await new_game(store, status=GameStatus.LOBBY)
    over = await new_game(store, status=GameStatus.FINISHED)
    assert await store.claim_resumes([(lobby.id, 1), (over.id, 1), (999, 1), (2**70, 1)]) == []


async def test_processes_claiming_the_same_games_at_once_share_them_out(store_url: str) -> None:
    async with open_store(store_url) as a, open_store(store_url) as b, open_store(store_url) as c:
        ids = [(await new_game(a, channel_id=n)).id for n in range(30)]
        wanted = [(gid, 1) for gid in ids]
        got = await asyncio.gather(*(s.claim_resumes(wanted[k:] + wanted[:k])
                                     for s, k in ((a, 0), (b, 10), (c, 20))))
    assert sorted(gid for part in got for gid in part) == ids  # every game once, to one claimer


async def test_a_pace_is_shared_by_every_store_on_the_database(store_url: str) -> None:
    async with open_store(store_url) as a, open_store(store_url) as b:
        waits = [await a.pace("resume", 10.0), await b.pace("resume", 10.0), await a.pace("resume", 5.0)]
        other = await b.pace("sync", 10.0)
    assert waits[0] == pytest.approx(0.0, abs=2.0)
    assert waits[1] == pytest.approx(10.0, abs=2.0)  # after the first caller's 10 s
    assert waits[2] == pytest.approx(20.0, abs=2.0)
    assert other == pytest.approx(0.0, abs=2.0)  # another pace is its own
