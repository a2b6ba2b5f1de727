"""The health and metrics endpoint (FIELDPOST_HTTP_PORT, on FIELDPOST_HTTP_HOST), on aiohttp.

    GET /healthz   200 {"status": "ok", "gateway": "connected", "store": "ok", ...} when this
                   process's gateway connection (every shard it runs) is up and the store
                   answers a trivial read; else 503 with what failed in the same fields
    GET /metrics   Prometheus text (OpenMetrics to a scraper that asks for it): bot/metrics.py,
                   with the games by status counted from the store at most every few seconds

Nothing secret is served: counts, durations, use-case names and shard ids only.
"""
from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from typing import Any

from aiohttp import web
from prometheus_client import REGISTRY
from prometheus_client.exposition import choose_encoder

from bot import metrics
from bot.config import SettingError
from bot.store import UNFINISHED, GameStore

log = logging.getLogger(__name__)

STORE_TIMEOUT = 2.0  # seconds a health check waits for the store before calling it unreachable
GAMES_TTL = 5.0  # seconds the games gauge is kept between scrapes


def gateway_problem(client: Any, shard_ids: Sequence[int] | None) -> str | None:
    """Why this process's gateway connection is not up, or None: closed, not ready yet, or one
    of its shards (`shard_ids`, None when unsharded) not connected."""
    if client.is_closed():
        return "closed"
    if not client.is_ready():
        return "not ready"
    if shard_ids is not None:
        shards = client.shards
        down = [i for i in shard_ids if i not in shards or shards[i].is_closed()]
        if down:
            return f"shard {', '.join(map(str, down))} not connected"
        return None
    ws = getattr(client, "ws", None)
    if ws is not None and not ws.open:  # discord.py stays "ready" while it reconnects
        return "reconnecting"
    return None


async def store_problem(store: GameStore) -> str | None:
    """Why the store does not answer a trivial read, or None. The answer names the exception's
    type only (a message could name a file or a server); the log has the rest."""
    try:
        await asyncio.wait_for(store.get_setting("bot", "health"), STORE_TIMEOUT)
    except TimeoutError:
        log.warning("health check: the store gave no answer within %g s", STORE_TIMEOUT)
        return f"no answer within {STORE_TIMEOUT:g} s"
    except Exception as exc:  # noqa: BLE001 (any failure to read means the store is not reachable)
        log.warning("health check: the store failed: %s", exc)
        return type(exc).__name__
    return None


class GamesGauge:
    """metrics.GAMES_ACTIVE from the store's unfinished games, counted again only when a
    scrape comes more than `ttl` seconds after the last count."""

    def __init__(self, store: GameStore, ttl: float = GAMES_TTL) -> None:
        self.store = store
        self.ttl = ttl
        self._counted_at: float | None = None

    async def refresh(self) -> None:
        now = time.monotonic()
        if self._counted_at is not None and now - self._counted_at < self.ttl:
            return
        try:
            games = await asyncio.wait_for(self.store.unfinished_games(), STORE_TIMEOUT)
        except Exception as exc:  # noqa: BLE001 (a scrape still answers, with the last count)
            log.warning("games not counted for /metrics: %s", type(exc).__name__)
            return
        self._counted_at = now
        for status in UNFINISHED:
            metrics.GAMES_ACTIVE.labels(status.value).set(sum(g.status == status for g in games))


class HealthEndpoint:
    def __init__(self, client: Any, store: GameStore, *, host: str, port: int,
                 shard_ids: Sequence[int] | None = None) -> None:
        """`shard_ids`: the shards this process runs (None: unsharded)."""
        self.client = client
        self.store = store
        self.host, self.port = host, port
        self.shard_ids = list(shard_ids) if shard_ids is not None else None
        self.games = GamesGauge(store)
        self._runner: web.AppRunner | None = None

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/metrics", self.metrics)
        return app

    async def start(self) -> None:
        """Listen; SettingError names host and port when that fails (the port taken, the address not ours)."""
        runner = web.AppRunner(self.app(), access_log=None)
        await runner.setup()
        try:
            await web.TCPSite(runner, self.host, self.port).start()
        except OSError as exc:
            await runner.cleanup()
            raise SettingError(f"FIELDPOST_HTTP_HOST, FIELDPOST_HTTP_PORT: cannot listen on {self.host}:{self.port} "
                               f"({exc.strerror or exc})") from None
        self._runner = runner
        log.info("health and metrics on http://%s:%d/healthz and /metrics", self.host, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def healthz(self, request: web.Request) -> web.Response:
        gateway = gateway_problem(self.client, self.shard_ids)
        store = await store_problem(self.store)
        healthy = gateway is None and store is None
        body = {"status": "ok" if healthy else "failing", "gateway": gateway or "connected",
                "store": store or "ok", "shards": self.shard_ids}
        return web.json_response(body, status=200 if healthy else 503)

    async def metrics(self, request: web.Request) -> web.Response:
        await self.games.refresh()
        encode, content_type = choose_encoder(request.headers.get("Accept", ""))  # text, or OpenMetrics if asked
        return web.Response(body=encode(REGISTRY), headers={"Content-Type": content_type})
