"""The in-flight limit's hand-off (a release gives its slot straight to the first waiter) lets in,
holds back, wakes and passes on slots as `asyncio.Semaphore` does, tasks cancelled while
waiting or after being woken included."""
from __future__ import annotations

import asyncio

from hypothesis import given, settings
from hypothesis import strategies as S

from bot.app.service import _InFlight


async def _trace(limit: int, plan: list[tuple[int, int | None]], kind) -> list[tuple]:
    """Tasks entering the limit one loop turn apart, each holding it for its number of turns;
    a task with a second number is cancelled that many turns after it began (while waiting, just
    woken, or inside). The order of entries, exits and cancellations, how many are inside at
    each entry, and the free slots at the end."""
    gate = kind(limit)
    inside = 0
    out: list[tuple] = []

    async def task(i: int, turns: int) -> None:
        nonlocal inside
        try:
            async with gate:
                inside += 1
                out.append(("in", i, inside))
                try:
                    for _ in range(turns):
                        await asyncio.sleep(0)
                finally:
                    inside -= 1
                    out.append(("out", i))
        except asyncio.CancelledError:
            out.append(("cancelled", i))

    async def cancel(t: asyncio.Task, after: int) -> None:
        for _ in range(after):
            await asyncio.sleep(0)
        t.cancel()

    tasks, cancels = [], []
    for i, (turns, cancel_after) in enumerate(plan):
        t = asyncio.create_task(task(i, turns))
        tasks.append(t)
        if cancel_after is not None:
            cancels.append(asyncio.create_task(cancel(t, cancel_after)))
        await asyncio.sleep(0)
    await asyncio.gather(*tasks, *cancels, return_exceptions=True)
    out.append(("free", gate._value))
    return out


@settings(max_examples=150, deadline=None)
@given(S.integers(1, 3), S.lists(S.tuples(S.integers(0, 4), S.none() | S.integers(0, 6)), min_size=1, max_size=9))
def test_the_hand_off_admits_as_a_semaphore_does_with_cancellations(limit, plan):
    ours = asyncio.run(_trace(limit, plan, _InFlight))
    theirs = asyncio.run(_trace(limit, plan, asyncio.Semaphore))
    assert ours == theirs
    assert ours[-1] == ("free", limit)
    assert max((n for kind, *rest in ours if kind == "in" for n in rest[1:]), default=0) <= limit


def test_a_release_takes_the_woken_waiters_future_out_of_the_queue():
    async def run() -> tuple[int, int]:
        gate = _InFlight(1)
        await gate.acquire()
        waiters = [asyncio.create_task(gate.acquire()) for _ in range(3)]
        await asyncio.sleep(0)
        assert len(gate._waiters) == 3
        gate.release()  # handed to the first: it leaves the queue at once, no slot freed
        queued, free = len(gate._waiters), gate._value
        for _ in range(3):
            gate.release()
            await asyncio.sleep(0)
        await asyncio.gather(*waiters)
        return queued, free

    assert asyncio.run(run()) == (2, 0)
