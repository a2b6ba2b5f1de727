"""RenderService: pictures for the bot, rendered off the event loop and off its GIL.

    renders = RenderService(processes=2)                          # FIELDPOST_RENDER_PROCESSES
    png = await renders.render(view(state), "board")              # the public board
    mine = await renders.render(view(state, viewer=0), "board_private")
    card = await renders.render(view(state, viewer=0), "soldier", serial=101)
    tank = await renders.render(view(state), "panel", plate=601)  # a vehicle's panel (public)

With `processes=N` the pictures are drawn in a pool of N worker processes (spawned, not
forked: the bot has threads), so one bot process draws boards for several games at once while
its event loop goes on answering commands. Each worker keeps its own layer cache: the static
layer's key is computed from the view, so every render of a game in a worker after its first
takes the map from that worker's cache. With `processes=0` a single thread of the bot's own
process is the render queue. A failed render (a worker that died included: the pool is started
again) is logged and gives None, and the game goes on with its text.
"""
from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool, ProcessPoolExecutor
from typing import Any, Literal

from PIL import Image

from bot import metrics
from bot.render.board import BoardPanel
from bot.render.encode import DEFAULT_UPLOAD_LIMIT, for_upload
from bot.render.panel import LayerCache
from bot.render.private import PrivateBoardPanel
from bot.render.soldier_card import SoldierCard
from bot.render.vehicle_panel import VehiclePanel

log = logging.getLogger(__name__)

KINDS = ("board", "board_private", "soldier", "panel")
Layer = Literal["hit", "miss"] | None  # where a picture's static layer came from (None: it has none)


def public(view):
    """The view without any seat's secrets: a public picture never draws `mine`, whatever it is given."""
    return view if view.mine is None else view.model_copy(update={"mine": None})


def draw(view, kind: str = "board", layers: LayerCache | None = None, **kw) -> Image.Image:
    """The picture of one kind for a view (see KINDS)."""
    if kind == "board":
        return BoardPanel().render(public(view), layers)
    if kind == "board_private":
        return PrivateBoardPanel().render(view, layers)
    if kind == "soldier":
        if "serial" not in kw:
            raise ValueError("a soldier card needs serial=")
        return SoldierCard(int(kw["serial"])).render(view, layers)
    if kind == "panel":  # the panels lie open on the table: always the public picture
        if "plate" not in kw:
            raise ValueError("a vehicle panel needs plate=")
        return VehiclePanel(int(kw["plate"])).render(public(view), layers)
    raise ValueError(f"unknown picture kind {kind!r}; kinds: {', '.join(KINDS)}")


def drawn(view, kind: str, layers: LayerCache, upload_limit: int, kw: dict[str, Any]) -> tuple[bytes, Layer]:
    """The encoded picture (PNG, or JPEG over the upload limit), and whether its static layer
    was a cache hit or drawn; `layers` is used by one thread at a time."""
    hits, misses = layers.hits, layers.misses
    data = for_upload(draw(view, kind, layers, **kw), upload_limit)
    return data, "hit" if layers.hits > hits else "miss" if layers.misses > misses else None


_worker_layers: LayerCache | None = None  # a worker process's own cache, made by _start_worker


def _start_worker(cache_size: int) -> None:
    """A worker's start: its layer cache; Ctrl+C is the bot's to handle (it shuts the pool down)."""
    global _worker_layers
    _worker_layers = LayerCache(cache_size)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _render_in_worker(view, kind: str, upload_limit: int, kw: dict[str, Any]) -> tuple[bytes, Layer]:
    assert _worker_layers is not None, "a render worker starts with _start_worker"
    return drawn(view, kind, _worker_layers, upload_limit, kw)


class RenderService:
    def __init__(self, *, upload_limit: int = DEFAULT_UPLOAD_LIMIT, cache_size: int = 32,
                 slow_after: float = 10.0, executor: ThreadPoolExecutor | None = None,
                 processes: int = 0) -> None:
        """`processes`: worker processes (started at the first render); 0 draws in one thread."""
        if processes < 0:
            raise ValueError("processes is 0 (a thread) or more")
        self.upload_limit = upload_limit
        self.slow_after = slow_after
        self.cache_size = cache_size
        self.processes = 0 if executor is not None else processes
        self.layers = LayerCache(cache_size)  # the thread's cache; each worker process has its own
        self.layer_use = {"hit": 0, "miss": 0}  # wherever the picture was drawn
        self._executor = executor or ThreadPoolExecutor(max_workers=1, thread_name_prefix="fieldpost-render")
        self._own_executor = executor is None
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False
        self.queued = 0  # renders waiting or running

    def render_sync(self, view, kind: str = "board", **kw) -> bytes:
        """Draw and encode (PNG, or JPEG over the upload limit) in this thread; raises on failure."""
        return drawn(view, kind, self.layers, self.upload_limit, kw)[0]

    async def render(self, view, kind: str = "board", **kw) -> bytes | None:
        """The encoded picture, or None (logged) if drawing failed."""
        started = time.perf_counter()
        self.queued += 1
        try:
            if self.processes:
                data, layer = await self._in_pool(view, kind, kw)
            else:
                data, layer = await asyncio.get_running_loop().run_in_executor(
                    self._executor, functools.partial(drawn, view, kind, self.layers, self.upload_limit, kw))
        except Exception:
            metrics.RENDER_FAILURES.labels(kind).inc()
            log.exception("render of %s for %s turn %s phase %s failed", kind, getattr(view, "scenario", "?"),
                          getattr(view, "turn", "?"), getattr(view, "phase", "?"))
            return None
        finally:
            self.queued -= 1
            took = time.perf_counter() - started
            metrics.RENDER_SECONDS.labels(kind).observe(took)
            if took > self.slow_after:
                log.warning("slow render: %s for %s took %.1f s (%d still queued)", kind,
                            getattr(view, "scenario", "?"), took, self.queued)
        if layer is not None:
            self.layer_use[layer] += 1
            metrics.RENDER_LAYERS.labels(layer).inc()
        return data

    async def _in_pool(self, view, kind: str, kw: dict[str, Any]) -> tuple[bytes, Layer]:
        """Draw in a worker process. A pool found broken at submission (a worker died since the
        last render) is replaced and the render goes to the new one; a worker dying during this
        render fails it (its picture may be what killed it) and the pool is replaced for the next."""
        pool = self._live_pool()
        try:
            future = pool.submit(_render_in_worker, view, kind, self.upload_limit, kw)
        except BrokenProcessPool:
            pool = self._replace(pool)
            future = pool.submit(_render_in_worker, view, kind, self.upload_limit, kw)
        try:
            return await asyncio.wrap_future(future)
        except BrokenProcessPool:
            self._replace(pool)
            raise

    def _live_pool(self) -> ProcessPoolExecutor:
        if self._closed:
            raise RuntimeError("the render service is closed")
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self.processes, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_start_worker, initargs=(self.cache_size,))
        return self._pool

    def _replace(self, broken: ProcessPoolExecutor) -> ProcessPoolExecutor:
        """A new pool in place of `broken` (once, however many renders saw it break)."""
        if self._pool is broken:
            log.warning("a render worker process died; starting the render pool again")
            metrics.RENDER_POOLS_REPLACED.inc()
            broken.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        return self._live_pool()

    def close(self) -> None:
        """Stop the workers (a render under way finishes first); later renders give None."""
        self._closed = True
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
        if self._own_executor:
            self._executor.shutdown(wait=True)


def render_board_png(view) -> bytes:
    """The public board, encoded, for the console and tools (no cache, no executor)."""
    return for_upload(draw(view, "board"))


def render_private_png(view) -> bytes:
    return for_upload(draw(view, "board_private"))


def render_soldier_png(view, serial: int) -> bytes:
    return for_upload(draw(view, "soldier", serial=serial))


def render_panel_png(view, plate: int) -> bytes:
    """One vehicle's or gun's panel, public whatever view it is given; KeyError for a plate
    that is not in the game."""
    return for_upload(draw(view, "panel", plate=plate))
