"""Campaign tests: the shipped content and campaign, real SQLite files in temp dirs, and
results made by hand where a whole game is not the point."""
from __future__ import annotations

import functools
import itertools
from collections.abc import AsyncIterator

import pytest

from bot.app.campaign import CampaignService
from bot.app.replies import Caller, Where
from bot.store import SqliteStore, open_store
from engine import apply, load_catalog, new_game
from engine.agent import RandomAgent
from engine.campaign import (
    CampaignState,
    PlayerOutcome,
    ScenarioResult,
    SoldierOutcome,
    begin,
    join,
    load_campaigns,
    new_campaign,
)

CAMPAIGN = "road-to-sainte-gisele"
DATE = "1944-06-07"
OLGA = Caller(1, "Olga")  # the organiser
ANN = Caller(11, "Ann")  # US
BO = Caller(22, "Bo")  # DE
CHANNEL = 500
HERE = Where(channel_id=CHANNEL, guild_id=900)

_keys = itertools.count(1)


@functools.cache
def shipped():
    """(the catalogue, the shipped campaign's definition), loaded once."""
    cat = load_catalog()
    return cat, load_campaigns(cat)[CAMPAIGN]


@pytest.fixture(scope="session")
def cat():
    return shipped()[0]


@pytest.fixture(scope="session")
def cdef():
    return shipped()[1]


def started(cat, cdef, players=((ANN, "US"), (BO, "DE"))) -> CampaignState:
    """A campaign with these players, begun (no scenario played)."""
    st = new_campaign(cdef, None, OLGA.user_id, DATE)
    for who, side in players:
        st = join(st, cdef, cat, who.user_id, who.name, side, DATE)
    return begin(st)


def outcome(st: CampaignState, fates: dict[int, str] | None = None, *, winner: str | None = "US",
            kills: dict[int, int] | None = None, captures: dict[int, int] | None = None,
            deeds: dict[int, dict] | None = None, serials: list[int] | None = None,
            vp: dict[int, int] | None = None) -> ScenarioResult:
    """A result of the campaign's next step made by hand: `serials` fought (default: every fit
    soldier), each with his fate (default fit), kills, prisoners and deeds."""
    fates, kills, captures, deeds, vp = fates or {}, kills or {}, captures or {}, deeds or {}, vp or {}
    if serials is None:
        serials = [e.serial for p in st.players for e in p.roster if e.status == "fit"]
    soldiers = [SoldierOutcome(serial=s, user_id=st.owner_of(s).user_id, fate=fates.get(s, "fit"),
                               kills=kills.get(s, 0), captures=captures.get(s, 0), deeds=deeds.get(s, {}))
                for s in serials]
    players = [PlayerOutcome(user_id=p.user_id, seat=i, side=p.side, own_vp=vp.get(p.user_id, 0), shared_vp=0)
               for i, p in enumerate(st.players)]
    side_vp = {side: sum(po.vp for po in players if po.side == side) for side in ("US", "DE")}
    scenario = shipped()[1].step(st.step).scenario
    return ScenarioResult(key=f"hand:{next(_keys)}", step=st.step, scenario=scenario, winner=winner,
                          reason="made by hand", side_vp=side_vp, players=players, soldiers=soldiers)


def autoplay(cat, scenario: str, seats, seed: int):
    """A whole game between random agents; returns the finished state."""
    st, _ = new_game(cat, scenario, list(seats), seed)
    agent = RandomAgent(seed)
    while st.step != "over":
        st, _ = apply(st, agent.choose(st, agent.seat_to_act(st)))
    return st


@pytest.fixture
async def store(store_url: str) -> AsyncIterator[SqliteStore]:
    """SQLite, or PostgreSQL for tests marked `both_stores` (tests/conftest.py)."""
    async with open_store(store_url) as opened:
        yield opened


@pytest.fixture
def clock():
    from datetime import UTC, datetime
    return lambda: datetime(1944, 6, 7, 6, 0, tzinfo=UTC)


@pytest.fixture
def service(store, cat, clock) -> CampaignService:
    return CampaignService(store, cat, clock=clock)


async def opened(service: CampaignService, *players) -> int:
    """A campaign opened by Olga in CHANNEL, joined by `players` ((caller, side), ...)."""
    r = await service.new(OLGA, HERE, CAMPAIGN)
    for who, side in players or ((ANN, "US"), (BO, "DE")):
        await service.join(who, r.campaign_id, side)
    return r.campaign_id
