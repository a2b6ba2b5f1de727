"""What the service keeps of its games (docs/app.md, Memory): the parsed state of the games used
last, the stored text of the others, which plays on exactly as a parsed one; and a bound on the
commands that hold states at once, over all games."""
from __future__ import annotations

import asyncio
import random

from bot.app import GameService, Where
from bot.app.prompts import cards_by_seat
from engine import awaiting, legal_commands
from tests.app.table import ANN, BO, open_table

PLAYERS = {0: ANN, 1: BO}


async def play_round_robin(service: GameService, games: list[int], commands: int, seed: int) -> None:
    """`commands` random legal commands in each game, one game after another in turn."""
    rnd = random.Random(seed)
    for _ in range(commands):
        for gid in games:
            st = await service.load_state(gid)
            if st.step == "over":
                continue
            seat = rnd.choice(awaiting(st)).seat
            await service.command(PLAYERS[seat], Where(game_id=gid), str(rnd.choice(legal_commands(st, seat))))


async def test_a_game_kept_as_text_plays_on_as_one_kept_parsed(store, cat, clock):
    kept = GameService(store, cat, clock=clock, seed=lambda: 7)
    games = [(await open_table(kept, where=Where(channel_id=600 + n))).game_id for n in range(3)]
    await play_round_robin(kept, games, 6, seed=1)
    parsed = {gid: await kept.load_state(gid) for gid in games}

    lean = GameService(store, cat, clock=clock, seed=lambda: 7, parsed_size=1)
    again = [(await open_table(lean, where=Where(channel_id=700 + n))).game_id for n in range(3)]
    await play_round_robin(lean, again, 6, seed=1)
    assert [lean._cache[gid].state is None for gid in again] == [True, True, False], \
        "only the game used last stays parsed"
    for gid, twin in zip(games, again):
        mine = await lean.load_state(twin)
        assert mine.model_dump(exclude={"setup"}) == parsed[gid].model_dump(exclude={"setup"})


async def test_no_more_commands_hold_states_at_once_than_the_bound(store, cat, clock):
    async def most_at_once(bound: int) -> int:
        service = GameService(store, cat, clock=clock, seed=lambda: 7, in_flight=bound)
        games = [(await open_table(service, where=Where(channel_id=800 + 10 * bound + n))).game_id
                 for n in range(6)]
        now = peak = 0
        commit = store.commit

        async def counted(*args, **kwargs):
            nonlocal now, peak
            now += 1
            peak = max(peak, now)
            try:
                await asyncio.sleep(0)  # let every other game's command reach its commit too
                return await commit(*args, **kwargs)
            finally:
                now -= 1

        store.commit = counted
        try:
            await asyncio.gather(*(play_round_robin(service, [gid], 3, seed=gid) for gid in games))
        finally:
            del store.commit
        return peak

    assert await most_at_once(2) == 2
    assert await most_at_once(64) > 2, "without the bound the games commit together"


async def test_what_is_kept_worked_out_with_a_cached_state_is_that_states(store, cat, clock):
    """`_commit` takes `awaiting(before)`, `_outcome` each seat's cards before, from the cache:
    they must be of the very state cached, and go when the state is dropped to text (a state
    parsed again works them out afresh)."""
    lean = GameService(store, cat, clock=clock, seed=lambda: 7, parsed_size=1)
    games = [(await open_table(lean, where=Where(channel_id=900 + n))).game_id for n in range(3)]
    kept = 0
    for round_ in range(8):
        await play_round_robin(lean, games, 1, seed=round_)
        for gid in games:
            entry = lean._cache[gid]
            if entry.awaited is not None:
                kept += 1
                assert entry.state is not None
                assert entry.awaited == awaiting(entry.state)
                assert entry.cards == cards_by_seat(entry.state)
                assert entry.cards.held == cards_by_seat(entry.state).held
            if entry.state is None:
                assert entry.awaited is None and entry.cards is None
    assert kept >= 8, "the game played last keeps what its commit worked out"
