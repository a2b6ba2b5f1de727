"""A campaign's scenario played as a live table game: the game service opens it from the
rosters with locked forces, and the finished game comes back to the campaign for review."""
from __future__ import annotations

import random

import pytest

from bot.app import GameService, Where
from bot.app.errors import Refused
from tests.app.players import play_randomly
from tests.campaign.conftest import ANN, BO, HERE, OLGA, opened


async def test_the_next_scenario_is_a_live_game_and_its_end_a_pending_result(store, cat, service):
    cid = await opened(service)
    games = GameService(store, cat, seed=lambda: 7)
    games.campaigns = service
    _, prepared = await service.prepare(OLGA, cid)
    r = await games.new_campaign_game(OLGA, HERE, prepared)
    gid = r.game_id
    st = await games.load_state(gid)
    # each seat fields his roster's force, soldier for soldier
    for seat, spec in enumerate(prepared.seats):
        fielded = sorted(s.serial for s in st.soldiers.values() if st.forces[s.force].seat == seat
                         and s.status != "reserve")
        assert fielded == sorted(e.serial for e in spec.force)
    where = Where(game_id=gid)
    with pytest.raises(Refused, match="seats belong to the campaign's players"):
        await games.join(ANN, where, "DE")
    seats = {0: ANN, 1: BO} if prepared.users[0] == ANN.user_id else {0: BO, 1: ANN}
    seen = []
    await play_randomly(games, seats, where, random.Random(3), limit=2000, seen=seen.append)
    assert (await games.load_state(gid)).step == "over"
    assert any("result" in line.lower() for r in seen for line in r.public), "the campaign took the game"
    review = await service.review(OLGA, cid)
    assert "Result #1 (pending)" in review.ephemeral[0], "the result waits for the organiser"
    await service.confirm(OLGA, cid)
    assert (await service.load_state(cid)).number == 1, "confirmed: the campaign moved on a scenario"
