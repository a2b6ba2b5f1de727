"""The service's per-command shortcuts give the straightforward answers: engine events written
through Event's bound serializer are `model_dump_json`'s text; the in-flight limit entered
without `acquire`'s coroutine lets in, holds back and wakes tasks as `asyncio.Semaphore` does."""
from __future__ import annotations

import asyncio

import pytest
from hypothesis import given, settings
from hypothesis import strategies as S

from bot.app import eventlog
from bot.app.service import _InFlight
from engine import apply
from engine.core.log import Event
from tests.engine.autoplay_kit import autoplayed


@pytest.mark.parametrize("scenario", ["tardieu-bombardment", "hedgerow-dawn", "night-orchard"])
def test_engine_events_are_each_events_model_dump_json(shipped, scenario):
    events = []

    def play(st, cmd):
        after, evs = apply(st, cmd)
        events.extend(evs)
        return after, evs

    for _ in autoplayed(shipped, scenario, 4, 60, play):
        pass
    assert len(events) > 50
    assert eventlog.engine_events(events) == ['{"type":"engine",' + e.model_dump_json()[1:] for e in events]


def test_an_event_of_another_class_is_written_by_its_own_serializer():
    class Noted(Event):
        note: str = "x"

    e = Noted(kind="k", text="t", to=1, data={"a": [1, "b"]})
    assert eventlog.engine_events([e]) == ['{"type":"engine",' + e.model_dump_json()[1:]]
    assert '"note":"x"' in eventlog.engine_events([e])[0]


async def _trace(limit, plan: list[int], kind) -> list[tuple]:
    """Tasks entering the limit at once, each holding it for its number of loop turns: the order
    in which they enter and leave, and how many are inside at each entry."""
    gate = kind(limit)
    inside = 0
    out: list[tuple] = []

    async def task(i: int, turns: int) -> None:
        nonlocal inside
        async with gate:
            inside += 1
            out.append(("in", i, inside))
            for _ in range(turns):
                await asyncio.sleep(0)
            inside -= 1
            out.append(("out", i))

    await asyncio.gather(*(task(i, t) for i, t in enumerate(plan)))
    out.append(("free", gate._value))
    return out


@settings(max_examples=60, deadline=None)
@given(S.integers(1, 4), S.lists(S.integers(0, 4), min_size=1, max_size=9))
def test_the_in_flight_limit_is_a_semaphores(limit, plan):
    ours = asyncio.run(_trace(limit, plan, _InFlight))
    theirs = asyncio.run(_trace(limit, plan, asyncio.Semaphore))
    assert ours == theirs
    assert max(n for kind, *rest in ours if kind == "in" for n in rest[1:]) <= limit
