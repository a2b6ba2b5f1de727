from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from bot.store import Awaited, GameStatus, GameStore
from tests.store.sample import ALICE, BOB, new_game, state

pytestmark = pytest.mark.both_stores

NOON = datetime(2026, 3, 1, 12, tzinfo=UTC)


async def test_a_commit_sets_what_the_game_awaits(store: GameStore) -> None:
    game = await new_game(store)
    await store.commit(game.id, 1, state(), awaited=[
        Awaited("orders", BOB, NOON + timedelta(hours=24)),
        Awaited("orders", ALICE, NOON + timedelta(hours=12)),
    ])
    deadlines = await store.deadlines(game.id)
    assert [(d.key, d.user_id, d.due, d.reminded) for d in deadlines] == [
        ("orders", ALICE, NOON + timedelta(hours=12), False),
        ("orders", BOB, NOON + timedelta(hours=24), False),
    ]
    # a later commit that leaves `awaited` out leaves the deadlines alone
    await store.commit(game.id, 2, state())
    assert await store.deadlines(game.id) == deadlines


async def test_due_deadlines_are_those_passed_and_not_yet_reminded(store: GameStore) -> None:
    game = await new_game(store)
    await store.commit(game.id, 1, state(), awaited=[
        Awaited("orders", ALICE, NOON), Awaited("orders", BOB, NOON + timedelta(hours=1)),
    ])
    assert await store.due_deadlines(NOON - timedelta(seconds=1)) == []
    assert [d.user_id for d in await store.due_deadlines(NOON)] == [ALICE]
    assert [d.user_id for d in await store.due_deadlines(NOON + timedelta(hours=2))] == [
        ALICE, BOB
    ]
    await store.mark_reminded(game.id, "orders", ALICE)
    assert [d.user_id for d in await store.due_deadlines(NOON + timedelta(hours=2))] == [BOB]


async def test_a_reminder_is_kept_until_the_due_time_changes(store: GameStore) -> None:
    game = await new_game(store)
    await store.commit(game.id, 1, state(), awaited=[Awaited("orders", ALICE, NOON)])
    await store.mark_reminded(game.id, "orders", ALICE)

    await store.commit(game.id, 2, state(), awaited=[
        Awaited("orders", ALICE, NOON), Awaited("react", BOB, NOON)
    ])
    assert [(d.key, d.reminded) for d in await store.deadlines(game.id)] == [
        ("orders", True), ("react", False)
    ]
    later = NOON + timedelta(days=1)
    await store.commit(game.id, 3, state(), awaited=[Awaited("orders", ALICE, later)])
    assert [(d.key, d.due, d.reminded) for d in await store.deadlines(game.id)] == [
        ("orders", later, False)
    ]
    await store.commit(game.id, 4, state(), awaited=[])
    assert await store.deadlines(game.id) == []


async def test_finished_games_have_nothing_due(store: GameStore) -> None:
    game = await new_game(store)
    await store.commit(game.id, 1, state(), awaited=[Awaited("orders", ALICE, NOON)])
    await store.commit(game.id, 2, state(), status=GameStatus.FINISHED)
    assert await store.due_deadlines(NOON + timedelta(days=1)) == []


async def test_times_in_other_zones_compare_as_the_same_instant(store: GameStore) -> None:
    game = await new_game(store)
    paris_summer = timezone(timedelta(hours=2))
    await store.commit(game.id, 1, state(), awaited=[
        Awaited("orders", ALICE, datetime(2026, 3, 1, 14, tzinfo=paris_summer))
    ])
    assert [d.due for d in await store.deadlines(game.id)] == [NOON]
    assert await store.due_deadlines(NOON - timedelta(microseconds=1)) == []
    new_york_winter = timezone(timedelta(hours=-5))
    assert len(await store.due_deadlines(datetime(2026, 3, 1, 7, tzinfo=new_york_winter))) == 1


async def test_times_must_say_their_zone(store: GameStore) -> None:
    game = await new_game(store)
    with pytest.raises(ValueError, match="naive"):
        await store.commit(game.id, 1, state(), awaited=[
            Awaited("orders", ALICE, datetime(2026, 3, 1, 12))
        ])
    assert (await store.load_game(game.id)).version == 1
    with pytest.raises(ValueError, match="naive"):
        await store.due_deadlines(datetime(2026, 3, 1, 12))
