"""RenderService: off the event loop, cached map layers, JPEG fallback, failures give None."""
from __future__ import annotations

import asyncio
import io
import logging
import threading

from PIL import Image

from bot.render import service
from bot.render.encode import image_ext
from bot.render.files import save_phase_images
from bot.render.service import RenderService, draw
from engine import view


async def test_render_returns_png_bytes_made_off_the_event_loop(position, monkeypatch):
    threads = []
    real = service.draw

    def spy(*a, **kw):
        threads.append(threading.current_thread())
        return real(*a, **kw)
    monkeypatch.setattr(service, "draw", spy)
    svc = RenderService()
    try:
        data = await svc.render(view(position()), "board")
    finally:
        svc.close()
    assert image_ext(data) == "png"
    assert Image.open(io.BytesIO(data)).size[0] >= 1200
    assert threads and threads[0] is not threading.main_thread()


async def test_the_event_loop_answers_while_a_burst_renders(position):
    svc = RenderService()
    v = view(position())
    try:
        burst = [asyncio.ensure_future(svc.render(v, "board")) for _ in range(4)]
        ticks = 0
        while not all(t.done() for t in burst):
            await asyncio.sleep(0)
            ticks += 1
        results = await asyncio.gather(*burst)
    finally:
        svc.close()
    assert all(r is not None for r in results)
    assert ticks > 4  # the loop kept turning while the pictures were drawn


async def test_a_failed_render_logs_and_returns_none(position, caplog):
    svc = RenderService()
    try:
        with caplog.at_level(logging.ERROR, logger="bot.render.service"):
            assert await svc.render(view(position()), "soldier", serial=999) is None
            assert await svc.render(view(position()), "no such picture") is None
    finally:
        svc.close()
    failures = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(failures) == 2
    assert "yard" in failures[0].getMessage()


def test_the_map_layer_is_drawn_once_per_map(position, cat):
    svc = RenderService()
    try:
        first = svc.render_sync(view(position()), "board")
        assert (svc.layers.misses, svc.layers.hits) == (1, 0)
        other_moment = view(position(turn=1, smoke={"33A": 2}))
        cached = svc.render_sync(other_moment, "board")
        assert (svc.layers.misses, svc.layers.hits) == (1, 1)
        # the cached layer gives the very picture a fresh drawing gives
        assert Image.open(io.BytesIO(cached)).tobytes() == draw(other_moment, "board").tobytes()
        assert first != cached
        svc.render_sync(view(position(scenario="range", soldiers=[
            {"serial": 1, "seat": 0, "at": [2, 2]}, {"serial": 4, "seat": 1, "at": [30, 2]}])), "board")
        assert svc.layers.misses == 2  # another map, another layer
    finally:
        svc.close()


def test_over_the_upload_limit_the_picture_becomes_a_jpeg(position):
    svc = RenderService(upload_limit=60_000)
    try:
        data = svc.render_sync(view(position()), "board")
    finally:
        svc.close()
    assert image_ext(data) == "jpg"
    assert len(data) <= 60_000
    assert Image.open(io.BytesIO(data)).format == "JPEG"


def test_phase_images_are_written_public_and_private(position, tmp_path):
    st = position()
    paths = save_phase_images(view(st), tmp_path / "img", "t1-p2", seat_view=view(st, 0))
    assert [p.name for p in paths] == ["t1-p2.png", "t1-p2-seat0.png"]
    assert all(p.stat().st_size > 10_000 for p in paths)
    assert save_phase_images(view(st), tmp_path / "img", "t1-p3") == [tmp_path / "img" / "t1-p3.png"]
