"""`fieldpost migrate-store FROM TO`: an SQLite file with a finished game, a running one (mid-turn,
a reminder sent), a lobby and a campaign with a confirmed and a pending result, copied into
PostgreSQL; every row arrives exactly, and every game and the campaign then go on identically
on both stores through the use-cases. Copied back into a new SQLite file, nothing changes."""
from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot import cli
from bot.app import GameService, Where
from bot.app.campaign import CampaignService
from bot.store import GameStatus, StoreError, open_store
from bot.store.transfer import TABLES, _reading, migrate_store
from tests.app.players import play_randomly
from tests.app.table import ANN, BO, Clock, open_table
from tests.campaign.conftest import OLGA, opened, outcome, shipped

SEATS = {0: ANN, 1: BO}
LOBBY, FINISHED, RUNNING = Where(channel_id=1), Where(channel_id=2), Where(channel_id=3)


async def everything(url: str) -> dict[str, list[tuple]]:
    """Every row of every table, as the copy reads them (ids, seqs, texts, times, flags)."""
    out: dict[str, list[tuple]] = {}
    async with _reading(url) as side:
        for table in TABLES:
            out[table.name] = [row async for batch in side.rows(table) for row in batch]
    return out


async def a_season_on_sqlite(path: Path, cat, clock: Clock) -> dict[str, int]:
    """The SQLite file to migrate; the ids of what it holds."""
    async with open_store(path, clock=clock) as store:
        games = GameService(store, cat, clock=clock, seed=lambda: 7)
        ids = {"lobby": (await games.new_game(ANN, LOBBY, "yard", side="US")).game_id}
        ids["finished"] = (await open_table(games, where=FINISHED)).game_id
        await play_randomly(games, SEATS, Where(game_id=ids["finished"]), random.Random(1))
        ids["running"] = (await open_table(games, where=RUNNING, deadline_hours=10)).game_id
        await play_randomly(games, SEATS, Where(game_id=ids["running"]), random.Random(2), limit=5)
        clock.advance(6)
        assert await games.tick()  # half time: the reminders go out and are marked sent
        await store.set_private_channel(ids["running"], BO.user_id, 1_200_000_000_000_000_001)

        campaigns = CampaignService(store, shipped()[0], clock=clock)
        ids["campaign"] = cid = await opened(campaigns)
        await campaigns.prepare(OLGA, cid)
        await campaigns.submit_result(OLGA, cid, outcome(await campaigns.load_state(cid)))
        await campaigns.confirm(OLGA, cid)
        await campaigns.prepare(OLGA, cid)  # the next result is left pending
        await campaigns.submit_result(OLGA, cid, outcome(await campaigns.load_state(cid)))
        assert [r.status for r in await store.campaign_results(cid)] == ["confirmed", "pending"]
    return ids


async def same_game(a, b, gid: int) -> None:
    assert await a.load_game(gid) == await b.load_game(gid)
    assert await a.events_since(gid) == await b.events_since(gid)
    assert await a.snapshots(gid) == await b.snapshots(gid)
    assert await a.deadlines(gid) == await b.deadlines(gid)


@pytest.mark.postgres
async def test_a_season_moves_to_postgresql_and_every_game_goes_on_identically(
    tmp_path: Path, cat, postgres_dsn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    clock = Clock()
    path = tmp_path / "season.db"
    ids = await a_season_on_sqlite(path, cat, clock)

    assert await asyncio.to_thread(cli.main, ["migrate-store", str(path), postgres_dsn]) == 0
    said = capsys.readouterr().out.strip().splitlines()
    assert len(said) == 1 and said[0].startswith("fieldpost migrate-store: copied 3 games,")
    before = await everything(str(path))
    assert await everything(postgres_dsn) == before
    assert all(before[t] for t in ("games", "events", "snapshots", "deadlines", "private_channels", "settings",
                                   "campaigns", "campaign_results", "campaign_log"))
    assert any(row[4] for row in before["deadlines"]), "a reminder was carried out (column 4: reminded)"

    async with open_store(path, clock=clock) as lite, open_store(postgres_dsn, clock=clock) as pg:
        stores = (lite, pg)
        games = [GameService(s, cat, clock=clock, seed=lambda: 7) for s in stores]
        campaigns = [CampaignService(s, shipped()[0], clock=clock) for s in stores]
        resumed = [[r async for r in g.resume()] for g in games]  # a restart on either asks the same players the same
        assert [r.game_id for r in resumed[0]] == [ids["running"]] and resumed[0] == resumed[1]

        for g in games:  # the running game: the same commands, the same outcome
            assert await play_randomly(g, SEATS, Where(game_id=ids["running"]), random.Random(3), limit=8) == 8
        await same_game(lite, pg, ids["running"])

        for g in games:  # the lobby fills and starts
            await g.join(BO, Where(channel_id=LOBBY.channel_id, game_id=ids["lobby"]), "DE")
            await g.start(ANN, Where(channel_id=LOBBY.channel_id, game_id=ids["lobby"]))
            await play_randomly(g, SEATS, Where(game_id=ids["lobby"]), random.Random(4), limit=4)
        await same_game(lite, pg, ids["lobby"])

        for g in games:  # the finished game is rolled back a phase by its organiser and played on
            where = Where(channel_id=FINISHED.channel_id, game_id=ids["finished"])
            label = (await g.snapshot_labels(ANN, where))[-1][0]
            await g.rollback(ANN, where, label)
            await play_randomly(g, SEATS, Where(game_id=ids["finished"]), random.Random(5), limit=3)
        await same_game(lite, pg, ids["finished"])
        assert (await pg.load_game(ids["finished"])).status == GameStatus.ACTIVE

        clock.advance(24)  # every deadline expires: the same defaults are applied on both
        fired = [await g.tick() for g in games]
        assert len(fired[0]) == len(fired[1]) > 0
        for gid in (ids["running"], ids["lobby"], ids["finished"]):
            await same_game(lite, pg, gid)

        for c in campaigns:  # the pending result is confirmed
            await c.confirm(OLGA, ids["campaign"])
        cid = ids["campaign"]
        assert await lite.load_campaign(cid) == await pg.load_campaign(cid)
        assert await lite.campaign_results(cid) == await pg.campaign_results(cid)
        assert await lite.campaign_log(cid) == await pg.campaign_log(cid)

        new = [(await g.new_game(BO, Where(channel_id=9), "yard", side="DE")).game_id for g in games]
        assert new[0] == new[1] == max(ids.values()) + 1  # PostgreSQL's ids go on past the copied ones
        new_campaign = [await opened(c) for c in campaigns]
        assert new_campaign[0] == new_campaign[1] == cid + 1

    back = tmp_path / "back.db"  # and back again, into a new SQLite file: any store to any other
    await migrate_store(postgres_dsn, back)
    assert await everything(str(back)) == await everything(postgres_dsn) != before


@pytest.mark.postgres
async def test_only_an_empty_target_is_filled(tmp_path: Path, cat, postgres_dsn: str) -> None:
    clock = Clock()
    path = tmp_path / "season.db"
    async with open_store(path, clock=clock) as store:
        await GameService(store, cat, clock=clock).new_game(ANN, LOBBY, "yard", side="US")
    await migrate_store(path, postgres_dsn)
    copied = await everything(postgres_dsn)
    with pytest.raises(StoreError, match="is not empty .*games.*nothing was written"):
        await migrate_store(path, postgres_dsn)
    assert await everything(postgres_dsn) == copied


def test_a_missing_source_or_the_same_database_twice_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing, target = tmp_path / "missing.db", tmp_path / "target.db"
    assert cli.main(["migrate-store", str(missing), str(target)]) == 1
    assert "there is no database at" in capsys.readouterr().err
    assert not missing.exists() and not target.exists()
    assert cli.main(["migrate-store", str(target), f"sqlite:///{target}"]) == 1
    assert "both the source and the target" in capsys.readouterr().err
