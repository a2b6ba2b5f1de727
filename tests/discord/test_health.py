"""The health and metrics endpoint, started for real on a free port and asked over HTTP with
aiohttp: /healthz follows the gateway and the store, /metrics counts what the bot does."""
from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.config import SettingError
from bot.discord import health
from bot.discord.health import HealthEndpoint
from bot.store import SqliteStore
from tests.discord.gateway import Table

METRICS = ("fieldpost_commands_applied", "fieldpost_commands_refused", "fieldpost_use_case_seconds",
           "fieldpost_render_seconds", "fieldpost_deadlines_fired", "fieldpost_store_conflicts",
           "fieldpost_store_retries", "fieldpost_games_active")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def get(port: int, path: str) -> tuple[int, str, str]:
    """Status, content type and body of GET http://127.0.0.1:port/path."""
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}{path}") as answer:
        return answer.status, answer.headers["Content-Type"], await answer.text()


async def healthz(port: int) -> tuple[int, dict]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}/healthz") as answer:
        return answer.status, await answer.json()


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a /metrics page by name and labels."""
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


class Gateway:
    """A client as /healthz reads one: ready or not, closed or not, and its shards."""

    def __init__(self, shards: dict[int, bool] | None = None) -> None:
        self.ready, self.closed = False, False
        self.up = shards or {}

    def is_ready(self) -> bool:
        return self.ready

    def is_closed(self) -> bool:
        return self.closed

    @property
    def shards(self):
        return {i: type("Shard", (), {"is_closed": lambda self, up=up: not up})() for i, up in self.up.items()}


@pytest.fixture
async def store(tmp_path) -> AsyncIterator[SqliteStore]:
    async with SqliteStore(tmp_path / "fieldpost.db") as opened:
        yield opened


async def serve(client, store, shard_ids=None) -> tuple[HealthEndpoint, int]:
    port = free_port()
    endpoint = HealthEndpoint(client, store, host="127.0.0.1", port=port, shard_ids=shard_ids)
    await endpoint.start()
    return endpoint, port


async def test_healthz_is_503_until_the_gateway_is_ready_then_200(store):
    gateway = Gateway()
    endpoint, port = await serve(gateway, store)
    try:
        assert await healthz(port) == (503, {"status": "failing", "gateway": "not ready", "store": "ok",
                                             "shards": None})
        gateway.ready = True
        assert await healthz(port) == (200, {"status": "ok", "gateway": "connected", "store": "ok",
                                             "shards": None})
        gateway.closed = True
        assert (await healthz(port))[1]["gateway"] == "closed"
    finally:
        await endpoint.stop()


async def test_healthz_wants_every_shard_of_this_process_connected(store):
    gateway = Gateway({0: True, 1: False})
    gateway.ready = True
    endpoint, port = await serve(gateway, store, shard_ids=[0, 1])
    try:
        assert await healthz(port) == (503, {"status": "failing", "gateway": "shard 1 not connected",
                                             "store": "ok", "shards": [0, 1]})
        gateway.up[1] = True
        assert (await healthz(port))[0] == 200
    finally:
        await endpoint.stop()


async def test_healthz_is_503_when_the_store_does_not_answer(tmp_path, monkeypatch):
    gateway = Gateway()
    gateway.ready = True
    closed = await SqliteStore(tmp_path / "gone.db").open()
    await closed.close()
    endpoint, port = await serve(gateway, closed)
    try:
        status, body = await healthz(port)
        assert status == 503 and body["store"] == "StoreError" and body["gateway"] == "connected"
        assert "gone.db" not in str(body), "no file or server named to whoever asks"

        class Stuck:
            async def get_setting(self, *args):
                await asyncio.sleep(60)
        monkeypatch.setattr(health, "STORE_TIMEOUT", 0.1)
        endpoint.store = Stuck()
        assert (await healthz(port)) == (503, {"status": "failing", "gateway": "connected",
                                               "store": "no answer within 0.1 s", "shards": None})
    finally:
        await endpoint.stop()


async def test_a_taken_port_is_named(store):
    endpoint, port = await serve(Gateway(), store)
    try:
        with pytest.raises(SettingError, match=f"cannot listen on 127.0.0.1:{port}"):
            await HealthEndpoint(Gateway(), store, host="127.0.0.1", port=port).start()
    finally:
        await endpoint.stop()


async def test_the_bot_serves_health_and_metrics_and_counts_its_commands(tmp_path, cat):
    port = free_port()
    async with Table(tmp_path, cat, fieldpost_http_port=port) as t:
        status, body = await healthz(port)
        assert (status, body["gateway"], body["store"]) == (503, "not ready", "ok")
        t.bot._handle_ready()  # what discord.py does once READY and the guilds have come
        assert (await healthz(port))[0] == 200

        status, kind, text = await get(port, "/metrics")
        assert status == 200 and kind.startswith("text/plain; version=0.0.4")
        for name in METRICS:
            assert f"# TYPE {name}" in text, name
        before = samples(text)
        assert before[("fieldpost_games_active", (("status", "lobby"),))] == 0

        ann, bo = t.player(11, "Ann"), t.player(22, "Bo")  # Bo never joins
        await t.command(ann, "game new", scenario="yard", side="US")
        await t.command(bo, "game start")  # not his game
        await t.command(ann, "game start")  # a game of one: refused
        t.bot.health.games.ttl = 0  # count the games again at this scrape
        after = samples((await get(port, "/metrics"))[2])

    def moved(name: str, **labels: str) -> float:
        key = (name, tuple(sorted(labels.items())))
        return after.get(key, 0) - before.get(key, 0)
    assert moved("fieldpost_commands_applied_total", use_case="game new") == 1
    assert moved("fieldpost_commands_refused_total", use_case="game start", kind="not_yours") == 1
    assert moved("fieldpost_commands_refused_total", use_case="game start", kind="refused") == 1
    assert moved("fieldpost_use_case_seconds_count", use_case="game new") == 1
    assert after[("fieldpost_games_active", (("status", "lobby"),))] == 1


async def test_a_sharded_bot_is_healthy_only_with_its_shards_connected(tmp_path, cat):
    port = free_port()
    async with Table(tmp_path, cat, fieldpost_http_port=port, fieldpost_shards=2, fieldpost_shard_ids=(0,)) as t:
        t.bot._handle_ready()
        status, body = await healthz(port)  # offline, its shard never connected
        assert (status, body["gateway"], body["shards"]) == (503, "shard 0 not connected", [0])


async def test_without_a_port_there_is_no_endpoint(table):
    assert table.bot.health is None
