"""Which game a command means: a player's games come from the seats he holds (so joining many
games at once loses none, and finished games drop out), and a command in a channel whose game
has ended says so and where to read how it ended."""
from __future__ import annotations

import asyncio
import random

import pytest

from bot.app import NoGame, Refused, Where
from tests.app.players import play_randomly
from tests.app.table import ANN, BO, CY, HERE, open_table

pytestmark = pytest.mark.both_stores  # a player's games come from the store's seats index


async def test_joining_many_games_at_once_loses_none_of_them(service):
    lobbies = [(await service.new_game(ANN, Where(channel_id=100 + n), "yard", side="US")).game_id
               for n in range(12)]
    await asyncio.gather(*(service.join(BO, Where(game_id=gid), "DE") for gid in lobbies))
    assert sorted(g.id for g in await service.my_games(BO)) == lobbies
    await service.leave(BO, Where(game_id=lobbies[0]))
    assert sorted(g.id for g in await service.my_games(BO)) == lobbies[1:]


async def test_finished_and_abandoned_games_leave_a_players_list(service):
    played = (await open_table(service)).game_id
    dropped = (await open_table(service, where=Where(channel_id=600))).game_id
    assert sorted(g.id for g in await service.my_games(BO)) == [played, dropped]
    await service.abandon(ANN, Where(game_id=dropped))
    await play_randomly(service, {0: ANN, 1: BO}, Where(channel_id=HERE.channel_id, game_id=played),
                        random.Random(5))
    assert await service.my_games(BO) == []
    assert await service.store.settings(f"user:{BO.user_id}") == {}  # the index is the seats table


async def test_a_command_where_the_game_has_finished_says_it_is_over_and_where_to_read_it(service):
    gid = (await open_table(service)).game_id
    await play_randomly(service, {0: ANN, 1: BO}, Where(channel_id=HERE.channel_id, game_id=gid), random.Random(5))
    await open_table(service, players=(CY, ANN), where=Where(channel_id=700))  # Bo plays nowhere else
    for caller in (ANN, BO):
        with pytest.raises(NoGame) as over:
            await service.command(caller, HERE, "pass")
        text = str(over.value)
        assert f"#{gid}" in text and "over" in text and "/game status" in text and "/log" in text
    with pytest.raises(Refused, match=f"#{gid} is over"):
        await service.command(BO, Where(game_id=gid), "pass")
    assert (await service.status(BO, HERE)).game_id == gid  # reading still finds it


async def test_a_command_where_the_game_was_abandoned_says_so(service):
    gid = (await open_table(service)).game_id
    await service.abandon(ANN, HERE)
    with pytest.raises(NoGame, match=f"#{gid} was abandoned"):
        await service.command(BO, HERE, "pass")
