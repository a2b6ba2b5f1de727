"""A whole campaign: three scenarios played by random agents through the use-cases on one
SQLite file, the store closed and opened again between every step, and the rosters at the end
checked against what the three finished games say (every kill, wound, capture and VP)."""
from __future__ import annotations

from collections import Counter

from bot.app.campaign import CampaignService
from bot.store import SqliteStore
from engine.campaign import LIMIT, Status
from engine.campaign.result import shares
from tests.campaign.conftest import ANN, BO, OLGA, autoplay, opened

SEEDS = (3, 4, 6)  # games with deaths, a prisoner, kills and wounded on the losing side


async def play_campaign(db_path, cat, clock) -> tuple[int, list]:
    """Play three scenarios; returns the campaign id and [(prepared, finished game)]."""
    played = []
    cid = None
    for k, seed in enumerate(SEEDS):
        async with SqliteStore(db_path) as store:  # a fresh store each time: a restart
            service = CampaignService(store, cat, clock=clock)
            if cid is None:
                cid = await opened(service)
            st = await service.load_state(cid)
            if st.choice is not None:  # the winner of the mill picks the burned farm
                chooser = ANN if st.choice.side == "US" else BO
                await service.choose(chooser, cid, "farm")
            _, prepared = await service.prepare(OLGA, cid)
            game = autoplay(cat, prepared.scenario, prepared.seats, seed)
            await service.submit_game(OLGA, cid, game, list(prepared.users), game_id=100 + k)
        async with SqliteStore(db_path) as store:  # and again before the organiser confirms
            service = CampaignService(store, cat, clock=clock)
            await service.confirm(OLGA, cid)
        played.append((prepared, game))
    return cid, played


async def test_three_scenarios_with_restarts_leave_the_rosters_the_games_imply(db_path, cat, clock):
    cid, played = await play_campaign(db_path, cat, clock)
    async with SqliteStore(db_path) as store:
        service = CampaignService(store, cat, clock=clock)
        st = await service.load_state(cid)
        results = await store.campaign_results(cid)
    assert [r.status for r in results] == ["confirmed"] * 3
    assert [r.game_id for r in results] == [100, 101, 102]
    assert [r.key for r in results] == [h.key for h in st.history]
    assert [h.scenario for h in st.history] == [p.scenario for p, _ in played]
    assert st.history[0].scenario == "hedgerow-dawn" and st.history[1].scenario == "mill-at-tardieu"

    owner = {e.serial: p.user_id for p in st.players for e in p.roster}
    kills, captures, served, wounds = Counter(), Counter(), Counter(), Counter()
    last: dict[int, tuple[int, str]] = {}  # serial -> (game number, fate)
    fallen: set[int] = set()
    for n, (prepared, game) in enumerate(played, start=1):
        fielded = {fe.serial for seat in prepared.seats for fe in seat.force}
        assert not fielded & fallen, "a killed or captured soldier fought again"
        winner = game.result.winner
        for serial, s in game.soldiers.items():
            if serial not in owner:
                assert s.status == "reserve" or serial not in fielded  # the scenario's own reinforcements
                continue
            if s.status == "reserve":
                continue
            assert serial in fielded
            kills[serial] += s.kills
            captures[serial] += s.captures
            served[serial] += 1
            fate = "killed" if s.status == "dead" else "captured" if s.captor is not None else (
                "wounded" if s.wounded else "fit")
            if fate == "wounded":
                wounds[serial] += 1
                if winner == s.side:  # the side that held the field treats its wounded at once
                    fate = "fit"
            if fate in ("killed", "captured"):
                fallen.add(serial)
            last[serial] = (n, fate)
        # VP: each player his seat's entries and his share of his side's; the sides' totals exact
        record = st.history[n - 1]
        for i, user in enumerate(prepared.users):
            seat = game.seats[i]
            side_shared = sum(e.amount for e in game.vp if e.seat is None and e.side == seat.side)
            mates = [j for j, other in enumerate(game.seats) if other.side == seat.side]
            share = shares(side_shared, len(mates))[mates.index(i)]
            assert record.vp[user] == game.seat_vp(i) + share
        assert record.side_vp == game.result.vp
        for side, total in game.result.vp.items():
            assert sum(record.vp[u] for i, u in enumerate(prepared.users) if game.seats[i].side == side) == total

    for p in st.players:
        for e in p.roster:
            assert e.kills == kills[e.serial], e.name
            assert e.captures == captures[e.serial], e.name
            assert len(e.served) == served[e.serial], e.name
            assert e.wounds == wounds[e.serial], e.name
            n, fate = last.get(e.serial, (0, "fit"))
            expected = {"killed": Status.KILLED, "captured": Status.CAPTURED, "fit": Status.FIT,
                        "wounded": Status.WOUNDED if n == len(played) else Status.FIT}[fate]
            assert e.status == expected, (e.name, fate, n)
            for rank in {h.rank for h in e.honours}:
                assert len(e.honours_at("medal", rank)) <= LIMIT["medal"]
                assert len(e.honours_at("badge", rank)) <= LIMIT["badge"]
    # every kill the games credited to a roster soldier is on a roster; every prisoner at the end too
    credited = sum(s.kills for _, g in played for serial, s in g.soldiers.items() if serial in owner)
    assert sum(e.kills for p in st.players for e in p.roster) == credited
    held = {serial for _, g in played for serial, s in g.soldiers.items()
            if serial in owner and s.captor is not None and s.status != "dead"}
    assert held == {e.serial for p in st.players for e in p.roster if e.status == Status.CAPTURED}
    assert sum(sum(h.vp.values()) for h in st.history) == sum(sum(g.result.vp.values()) for _, g in played)
    # the seeds must keep exercising all of it
    fates = Counter(f for _, f in last.values())
    assert fates["killed"] >= 2 and fates["captured"] >= 1 and credited >= 1 and sum(wounds.values()) >= 2
    assert any(e.status == Status.WOUNDED for p in st.players for e in p.roster)
