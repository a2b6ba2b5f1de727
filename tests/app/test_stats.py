"""/stats (issue 16) against what is stored: several games in one server played to the end by
scripted players through the use-cases — one whose seat changed hands mid-game, one abandoned,
one in another server — and a campaign whose organiser pinned medals and a badge. Each
player's games, wins, soldiers lost and enemies killed equal what the stored final states and
the holders of the seats at the end say; medals are what was pinned in this server's campaigns;
the server table lists the most active players in order."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.app import Caller, GameService, Refused, Where
from bot.app.campaign import CampaignService
from bot.app.deadlines import OPEN
from bot.app.stats import TOP
from bot.app.tokens import who
from bot.store import GameStatus, GameStore
from tests.app.players import play_randomly
from tests.app.table import ANN, BO, CY, EVE, open_table

pytestmark = pytest.mark.both_stores

GUILD = 1
OLGA = Caller(1, "Olga")


def here(channel: int, guild: int = GUILD) -> Where:
    return Where(channel_id=channel, guild_id=guild)


async def played(service: GameService, channel: int, seats: tuple[Caller, Caller], seed: int, *,
                 guild: int = GUILD, replaced_by: Caller | None = None) -> int:
    """A game played to its end in `channel`; with `replaced_by`, seat 1 changes hands early."""
    gid = (await open_table(service, players=seats, where=here(channel, guild))).game_id
    where = Where(channel_id=channel, game_id=gid, guild_id=guild)
    rnd = random.Random(seed)
    if replaced_by is not None:
        await play_randomly(service, dict(enumerate(seats)), where, rnd, limit=10)
        await service.replace_player(seats[0], where, 1, replaced_by.user_id, replaced_by.name)
        seats = (seats[0], replaced_by)
    await play_randomly(service, dict(enumerate(seats)), where, rnd, limit=3000)
    return gid


async def expected_totals(service: GameService, store: GameStore, games: list[int]) -> dict[int, list[int]]:
    """user -> [played, won, soldiers lost, enemies killed], from the stored games alone."""
    out: dict[int, list[int]] = {}
    for gid in games:
        game = await store.load_game(gid)
        assert game.status == GameStatus.FINISHED
        st = await service.load_state(gid)
        winner = st.result.winner if st.result is not None else None
        for seat in game.seats:
            if seat.user_id == OPEN:
                continue
            forces = {f for f, force in st.forces.items() if force.seat == seat.seat_index}
            men = [s for s in st.soldiers.values() if s.force in forces]
            row = out.setdefault(seat.user_id, [0, 0, 0, 0])
            row[0] += 1
            row[1] += winner is not None and winner == st.seats[seat.seat_index].side
            row[2] += sum(1 for s in men if s.status == "dead" or s.captor is not None)
            row[3] += sum(s.kills for s in men) + sum(v.kills for v in st.vehicles.values() if v.force in forces)
    return out


async def test_stats_and_the_server_table_equal_the_stored_games_and_campaigns(store, cat, clock, shipped):
    seeds = iter([12, 1, 3, 4, 5])  # games with wins, draws and a kill
    service = GameService(store, cat, clock=clock, seed=lambda: next(seeds))
    games = [await played(service, 501, (ANN, BO), 12),
             await played(service, 502, (BO, ANN), 1),
             await played(service, 503, (ANN, BO), 3, replaced_by=CY)]
    await played(service, 601, (ANN, BO), 4, guild=2)  # another server
    abandoned = (await open_table(service, where=here(504))).game_id
    await service.abandon(ANN, Where(channel_id=504, game_id=abandoned))
    totals = await expected_totals(service, store, games)
    assert set(totals) == {ANN.user_id, BO.user_id, CY.user_id}, "Bo's replaced seat is Cy's"
    assert totals[ANN.user_id][0] == 3 and totals[BO.user_id][0] == 2 and totals[CY.user_id][0] == 1
    assert sum(t[1] for t in totals.values()) and sum(t[3] for t in totals.values()), "wins and kills to count"

    campaigns = CampaignService(store, shipped)
    medals = Counter[int]()
    for guild, channel in ((GUILD, 701), (2, 702)):
        cid = (await campaigns.new(OLGA, here(channel, guild), "road-to-sainte-gisele")).campaign_id
        await campaigns.join(ANN, cid, "US")
        await campaigns.join(BO, cid, "DE")
        roster = {p.user_id: [e.serial for e in p.roster if e.rank is not None]
                  for p in (await campaigns.load_state(cid)).players}
        for user, serial, award in ((ANN.user_id, roster[ANN.user_id][0], "silver"),
                                    (ANN.user_id, roster[ANN.user_id][1], "merit"),
                                    (ANN.user_id, roster[ANN.user_id][2], "marksman"),  # a badge
                                    (BO.user_id, roster[BO.user_id][0], "bronze")):
            await campaigns.award(OLGA, cid, serial, award, "held the crossroads")
            medals[user] += guild == GUILD and award != "marksman"
    assert medals == {ANN.user_id: 2, BO.user_id: 1}

    asker = here(500)
    for user, (n, won, lost, killed) in totals.items():
        text = (await service.stats(EVE, asker, user)).ephemeral[0]
        assert text == (f"**{who(user)} in this server:** {n} game{'s' if n != 1 else ''} played, {won} won; "
                        f"soldiers lost {lost}, enemies killed {killed}; medals held by their men in "
                        f"campaigns: {medals[user]}.")
    assert (await service.stats(ANN, asker)).ephemeral == (await service.stats(EVE, asker, ANN.user_id)).ephemeral
    assert "no finished game" in (await service.stats(EVE, asker)).ephemeral[0]
    with pytest.raises(Refused, match="per server"):
        await service.stats(ANN, Where(channel_id=None))

    table = (await service.server_stats(EVE, asker)).ephemeral[0].splitlines()
    order = sorted(totals, key=lambda u: (-totals[u][0], -totals[u][1], u))[:TOP]
    assert table[1:] == [f"{i}. {who(u)} — {totals[u][0]} played, {totals[u][1]} won, {totals[u][2]} lost, "
                         f"{totals[u][3]} killed, {medals[u]} medals" for i, u in enumerate(order, 1)]
    assert (await service.server_stats(EVE, here(800, guild=3))).ephemeral == [
        "No game has finished in this server yet."]
