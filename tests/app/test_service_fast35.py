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


# ---------------------------------------------------------------- a parsed cached game at once

def _fields(loaded) -> tuple:
    return (loaded.game, loaded.lobby, loaded.state, loaded.deadlines, loaded.hours, loaded.decisions,
            loaded.away, loaded.seen, loaded.awaited, loaded.cards)


async def test_a_parsed_cache_hit_is_loads_answer_and_moves_the_game_alike(store, cat, clock):
    """`_parsed_hit` (`_load`'s cache read, without `_from_cache`'s coroutine) gives what
    `_load(cached=True)` gives, holding the very same objects, and leaves the cache's order and the
    parsed set as `_load` does; a game dropped to its text (or not cached) is None there and
    parsed by `_load`."""
    from bot.app import GameService, Where
    from tests.app.table import open_table
    from tests.app.test_memory import play_round_robin

    fast = GameService(store, cat, clock=clock, seed=lambda: 7, parsed_size=2)
    plain = GameService(store, cat, clock=clock, seed=lambda: 7, parsed_size=2)
    games = [(await open_table(fast, where=Where(channel_id=910 + n))).game_id for n in range(3)]
    twins = [(await open_table(plain, where=Where(channel_id=920 + n))).game_id for n in range(3)]
    hits = misses = 0
    for round_ in range(4):
        await play_round_robin(fast, games, 1, seed=round_)
        await play_round_robin(plain, twins, 1, seed=round_)
        for gid, twin in zip(games, twins):
            got = fast._parsed_hit(gid)
            if got is None:
                misses += 1
                assert fast._cache.get(gid) is None or fast._cache[gid].state is None
                continue
            hits += 1
            want = await fast._load(gid, cached=True)  # now it is the newest: the same order again
            assert all(a is b for a, b in zip(_fields(got), _fields(want), strict=True))
            await plain._load(twin, cached=True)
            assert [g - games[0] for g in fast._cache] == [t - twins[0] for t in plain._cache]
            assert [g - games[0] for g in fast._parsed] == [t - twins[0] for t in plain._parsed]
    assert hits >= 6 and misses >= 1


# ---------------------------------------------------------------- deadlines left as they are

def _rows():
    from datetime import UTC, datetime, timedelta

    from bot.store import Awaited, Deadline
    at = datetime(2026, 1, 1, tzinfo=UTC)
    key = S.sampled_from(["remind:0:a", "expire:0:a", "remind:1:b", "expire:1:b", "expire:act:0"])
    due = S.integers(0, 3).map(lambda h: at + timedelta(hours=h))
    left = S.none() | S.integers(0, 2).map(lambda h: timedelta(hours=h))
    awaited = S.builds(Awaited, key, S.integers(1, 2), due, left)
    deadline = S.builds(Deadline, S.just(5), key, S.integers(1, 2), due, S.booleans(), left)
    return S.lists(awaited | deadline, max_size=5), S.lists(awaited, max_size=5)


_PREVIOUS, _NEW = _rows()


@settings(max_examples=300, deadline=None)
@given(_PREVIOUS, _NEW, S.booleans())
def test_unchanged_is_the_set_comparison_of_the_rows(previous, new, reuse):
    from bot.app.deadlines import unchanged
    if reuse:  # the rows themselves again (plan hands back a row still standing as itself)
        new = [r for r in previous if not hasattr(r, "reminded")] or new
    want = {(d.key, d.user_id, d.due, d.left) for d in previous} == {(a.key, a.user_id, a.due, a.left) for a in new}
    assert unchanged(previous, new) == want
    assert unchanged(tuple(previous), iter(new)) == want


@given(S.lists(S.integers(0, 4), min_size=1, max_size=4), S.integers(0, 5))
def test_seat_of_is_the_first_seat_of_the_user(users, user):
    from datetime import UTC, datetime

    from bot.app.service import OPEN, _Loaded
    from bot.store import GameStatus, Seat, StoredGame
    at = datetime(2026, 1, 1, tzinfo=UTC)
    seats = tuple(Seat(i, "US", u, f"P{i}") for i, u in enumerate(users))
    game = StoredGame(1, 0, 2, None, "yard", GameStatus.ACTIVE, 1, 3, at, at, state="", seats=seats)
    want = None if user == OPEN else next((s.seat_index for s in seats if s.user_id == user), None)
    assert _Loaded(game).seat_of(user) == want


async def test_no_prompts_are_their_own_digest(service):
    """`_write` asks for digests only when it has prompts: none gives the very list back."""
    from datetime import UTC, datetime, timedelta
    asks: list = []
    assert await service._digests(1, asks, {}, datetime(2026, 1, 1, tzinfo=UTC), timedelta(hours=1)) is asks
