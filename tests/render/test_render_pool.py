"""RenderService on a pool of worker processes: the very bytes the thread draws, each worker
keeping its own map layers, and a worker that dies costs at most the picture it was drawing."""
from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import time

import pytest
from prometheus_client import REGISTRY

from bot.render.service import RenderService
from engine import view


class DiesWhenUnpickled:
    """A 'view' whose unpickling ends the worker process that receives it, mid-render."""

    def __reduce__(self):
        return os._exit, (3,)


def sample(name: str, **labels: str) -> float:
    """A counter's value now in this process (0 before its first increment)."""
    return REGISTRY.get_sample_value(name, labels) or 0.0


@pytest.fixture
def pool():
    services = []

    def make(processes: int) -> RenderService:
        services.append(RenderService(processes=processes))
        return services[-1]
    yield make
    for s in services:
        s.close()


def game_moments(position):
    """Pictures of three games (two maps) and of several kinds, as the bot asks for them."""
    yard, smoky = position(), position(turn=1, smoke={"33A": 2})
    other = position(scenario="range", soldiers=[{"serial": 1, "seat": 0, "at": [2, 2]},
                                                 {"serial": 4, "seat": 1, "at": [30, 2]}])
    return [(view(yard), "board", {}), (view(smoky), "board", {}), (view(other), "board", {}),
            (view(yard, 0), "board_private", {}), (view(smoky, 1), "soldier", {"serial": 4}),
            (view(other), "board", {})]


async def test_renders_of_several_games_at_once_give_the_bytes_of_the_thread(position, pool):
    asked = game_moments(position)
    in_thread = RenderService(processes=0)
    try:
        expected = [in_thread.render_sync(v, kind, **kw) for v, kind, kw in asked]
    finally:
        in_thread.close()
    svc = pool(2)
    got = await asyncio.gather(*(svc.render(v, kind, **kw) for v, kind, kw in asked))
    assert got == expected
    assert len(multiprocessing.active_children()) >= 1  # drawn in worker processes
    assert svc.layer_use["miss"] >= 2 and sum(svc.layer_use.values()) == len(asked) - 1  # a card has no layer


async def test_a_worker_keeps_a_games_map_layer_between_renders(position, pool):
    svc = pool(1)
    for turn in (1, 2, 3):
        assert await svc.render(view(position(turn=turn)), "board") is not None
    assert svc.layer_use == {"miss": 1, "hit": 2}


async def test_a_dead_worker_costs_at_most_the_picture_it_was_drawing(position, pool, caplog):
    svc = pool(1)
    v = view(position())
    first = await svc.render(v, "board")
    replaced = sample("fieldpost_render_pools_replaced_total")
    failures = sample("fieldpost_render_failures_total", kind="board")

    workers = multiprocessing.active_children()  # killed between two renders: nothing is lost
    assert workers
    for worker in workers:
        os.kill(worker.pid, signal.SIGKILL)
    deadline = time.monotonic() + 30
    while any(w.is_alive() for w in workers) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.2)  # the pool's manager thread notices the death
    assert await svc.render(v, "board") == first
    assert sample("fieldpost_render_pools_replaced_total") == replaced + 1

    assert await svc.render(DiesWhenUnpickled(), "board") is None  # dies drawing: that picture only
    assert sample("fieldpost_render_failures_total", kind="board") == failures + 1
    assert await svc.render(v, "board") == first
    assert sample("fieldpost_render_pools_replaced_total") == replaced + 2
    assert "render worker process died" in caplog.text


async def test_a_closed_service_renders_nothing(position, pool):
    svc = pool(1)
    svc.close()
    assert await svc.render(view(position()), "board") is None
