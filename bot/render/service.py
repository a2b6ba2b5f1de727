"""RenderService: pictures for the bot, rendered off the event loop.

    renders = RenderService()
    png = await renders.render(view(state), "board")              # the public board
    mine = await renders.render(view(state, viewer=0), "board_private")
    card = await renders.render(view(state, viewer=0), "soldier", serial=101)
    tank = await renders.render(view(state), "panel", plate=601)  # a vehicle's panel (public)

One service per process: its single worker thread is the process's render queue, so a burst
of phases waits its turn there while the event loop goes on answering commands. A failed
render is logged and gives None, and the game goes on with its text.
"""
from __future__ import annotations

import asyncio
import functools
import logging
import time
from concurrent.futures import ThreadPoolExecutor

from PIL import Image

from bot.render.board import BoardPanel
from bot.render.encode import DEFAULT_UPLOAD_LIMIT, for_upload
from bot.render.panel import LayerCache
from bot.render.private import PrivateBoardPanel
from bot.render.soldier_card import SoldierCard
from bot.render.vehicle_panel import VehiclePanel

log = logging.getLogger(__name__)

KINDS = ("board", "board_private", "soldier", "panel")


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


class RenderService:
    def __init__(self, *, upload_limit: int = DEFAULT_UPLOAD_LIMIT, cache_size: int = 32,
                 slow_after: float = 10.0, executor: ThreadPoolExecutor | None = None) -> None:
        self.upload_limit = upload_limit
        self.slow_after = slow_after
        self.layers = LayerCache(cache_size)
        self._executor = executor or ThreadPoolExecutor(max_workers=1, thread_name_prefix="fieldpost-render")
        self._own_executor = executor is None
        self.queued = 0  # renders waiting or running

    def render_sync(self, view, kind: str = "board", **kw) -> bytes:
        """Draw and encode (PNG, or JPEG over the upload limit); raises on failure."""
        return for_upload(draw(view, kind, self.layers, **kw), self.upload_limit)

    async def render(self, view, kind: str = "board", **kw) -> bytes | None:
        """The encoded picture, or None (logged) if drawing failed."""
        loop = asyncio.get_running_loop()
        started = time.perf_counter()
        self.queued += 1
        try:
            return await loop.run_in_executor(self._executor, functools.partial(self.render_sync, view, kind, **kw))
        except Exception:
            log.exception("render of %s for %s turn %s phase %s failed", kind, getattr(view, "scenario", "?"),
                          getattr(view, "turn", "?"), getattr(view, "phase", "?"))
            return None
        finally:
            self.queued -= 1
            took = time.perf_counter() - started
            if took > self.slow_after:
                log.warning("slow render: %s for %s took %.1f s (%d still queued)", kind,
                            getattr(view, "scenario", "?"), took, self.queued)

    def close(self) -> None:
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
