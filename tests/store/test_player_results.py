"""Each seat's part in a finished game, kept by the commit that ended it, added up per player
and server for /stats (issue 16); a server's campaigns, for their medals."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.store import GameStore, PlayerResult, PlayerTotals
from tests.store.sample import ALICE, BOB, GUILD, new_game, state

pytestmark = pytest.mark.both_stores

NOON = datetime(2026, 3, 1, 12, tzinfo=UTC)


def result(game_id: int, seat: int, user: int, outcome: str, lost: int, killed: int,
           guild: int = GUILD) -> PlayerResult:
    return PlayerResult(game_id, seat, user, guild, "US" if seat == 0 else "DE", outcome, lost, killed, NOON)


async def test_results_add_up_per_player_and_server(store: GameStore) -> None:
    one, two, elsewhere = await new_game(store), await new_game(store), await new_game(store)
    await store.commit(one.id, 1, state(), results=[result(one.id, 0, ALICE, "won", 1, 3),
                                                    result(one.id, 1, BOB, "lost", 3, 1)])
    await store.commit(two.id, 1, state(), results=[result(two.id, 0, ALICE, "lost", 2, 0),
                                                    result(two.id, 1, BOB, "won", 0, 2)])
    await store.commit(elsewhere.id, 1, state(), results=[result(elsewhere.id, 0, ALICE, "won", 0, 9, guild=5)])
    # a second commit naming the same seats keeps the first results
    await store.commit(one.id, 2, state(), results=[result(one.id, 0, ALICE, "lost", 9, 9)])
    # as many games and wins each: the lower user id first
    assert await store.player_totals(GUILD) == [PlayerTotals(BOB, 2, 1, 3, 3), PlayerTotals(ALICE, 2, 1, 3, 3)]
    assert await store.player_totals(GUILD, ALICE) == [PlayerTotals(ALICE, 2, 1, 3, 3)]
    assert await store.player_totals(5) == [PlayerTotals(ALICE, 1, 1, 0, 9)]
    assert await store.player_totals(GUILD, limit=1) == [PlayerTotals(BOB, 2, 1, 3, 3)]
    assert await store.player_totals(77) == []


async def test_the_most_active_come_first(store: GameStore) -> None:
    games = [await new_game(store) for _ in range(3)]
    for n, g in enumerate(games):
        rows = [result(g.id, 0, ALICE, "lost", 0, 0)]
        if n == 0:
            rows.append(result(g.id, 1, BOB, "won", 0, 0))
        await store.commit(g.id, 1, state(), results=rows)
    assert [t.user_id for t in await store.player_totals(GUILD)] == [ALICE, BOB]


async def test_a_servers_campaigns(store: GameStore) -> None:
    made = await store.create_campaign(guild_id=GUILD, channel_id=1, definition_id="d", name="N",
                                       organiser_id=ALICE, state="{}")
    await store.create_campaign(guild_id=GUILD + 1, channel_id=1, definition_id="d", name="M",
                                organiser_id=ALICE, state="{}")
    assert [c.id for c in await store.campaigns_in_guild(GUILD)] == [made.id]
