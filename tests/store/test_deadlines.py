from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta, timezone

import pytest

from bot.store import Awaited, GameStatus, GameStore, open_store
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


async def test_a_commit_keeps_exactly_the_deadlines_it_names_of_its_own_game(store: GameStore) -> None:
    """Keys shared by two players, one player awaited twice, a repeated pair: what a commit names
    stays (once), every other row of its game goes, and another game's rows are left alone."""
    game, other = await new_game(store), await new_game(store)
    await store.commit(other.id, 1, state(), awaited=[Awaited("orders", ALICE, NOON)])
    await store.commit(game.id, 1, state(), awaited=[
        Awaited("orders", ALICE, NOON), Awaited("orders", BOB, NOON), Awaited("place:1", ALICE, NOON)])
    await store.commit(game.id, 2, state(), awaited=[
        Awaited("orders", BOB, NOON), Awaited("place:1", ALICE, NOON), Awaited("place:1", ALICE, NOON)])
    assert sorted((d.key, d.user_id) for d in await store.deadlines(game.id)) == [
        ("orders", BOB), ("place:1", ALICE)]
    await store.commit(game.id, 3, state(), awaited=[])
    assert await store.deadlines(game.id) == []
    assert [(d.key, d.user_id) for d in await store.deadlines(other.id)] == [("orders", ALICE)]


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


async def test_a_due_deadline_is_claimed_by_one_store_at_a_time(store_url: str) -> None:
    async with open_store(store_url) as a, open_store(store_url) as b:
        game = await new_game(a)
        await a.commit(game.id, 1, state(), awaited=[
            Awaited("expire:0:place:T1:US-1", ALICE, NOON), Awaited("expire:1:place:T1:DE-2", BOB, NOON),
            Awaited("expire:1:later", BOB, NOON + timedelta(hours=3)),
        ])
        lease = timedelta(minutes=5)
        first, second = await asyncio.gather(a.claim_deadlines(NOON, lease), b.claim_deadlines(NOON, lease))
        assert sorted(d.key for d in first + second) == ["expire:0:place:T1:US-1", "expire:1:place:T1:DE-2"]
        assert not {d.key for d in first} & {d.key for d in second}
        assert await a.claim_deadlines(NOON + lease - timedelta(seconds=1), lease) == []
        await a.mark_reminded(game.id, "expire:0:place:T1:US-1", ALICE)
        # the lease has run out and its claimer never said it was done: another takes it again
        again = await b.claim_deadlines(NOON + lease, lease)
        assert [d.key for d in again] == ["expire:1:place:T1:DE-2"]


async def test_a_commit_that_keeps_a_due_time_keeps_its_claim(store: GameStore) -> None:
    game = await new_game(store)
    await store.commit(game.id, 1, state(), awaited=[Awaited("expire:0:x", ALICE, NOON)])
    assert len(await store.claim_deadlines(NOON, timedelta(minutes=5))) == 1
    await store.commit(game.id, 2, state(), awaited=[Awaited("expire:0:x", ALICE, NOON)])
    assert await store.claim_deadlines(NOON, timedelta(minutes=5)) == []
    await store.commit(game.id, 3, state(), awaited=[Awaited("expire:0:x", ALICE, NOON - timedelta(hours=1))])
    assert len(await store.claim_deadlines(NOON, timedelta(minutes=5))) == 1  # a new due time, a new claim


async def test_commits_leave_the_deadlines_as_upserting_every_named_row_would(store: GameStore) -> None:
    """A commit writes only the deadlines that changed; what it leaves must be what deleting the
    rows not named and upserting every named one, in order, would leave: an unchanged due keeps
    the row's reminded flag and its claim, a changed due or a new row starts afresh, the time
    left is the one given. A seeded random walk of commits, reminders and claims against that
    rule written out (keys repeated in one commit included)."""
    rng = random.Random(1717)
    game = await new_game(store)
    keys = [("orders", ALICE), ("orders", BOB), ("react", ALICE), ("remind:0:x", BOB)]
    dues = [NOON + timedelta(hours=h) for h in range(3)]
    lefts = [None, None, None, timedelta(minutes=5)]
    later = NOON + timedelta(days=30)  # every due has passed: a claim takes whatever it may
    model: dict[tuple[str, int], list] = {}  # key -> [due, left, reminded, claimed]
    version = 1
    for _ in range(60):
        awaited = [Awaited(*rng.choice(keys), rng.choice(dues), rng.choice(lefts))
                   for _ in range(rng.randrange(5))]
        await store.commit(game.id, version, state(), awaited=awaited)
        version += 1
        model = {k: v for k, v in model.items() if k in {(a.key, a.user_id) for a in awaited}}
        for a in awaited:
            old = model.get((a.key, a.user_id))
            same = old is not None and old[0] == a.due
            model[a.key, a.user_id] = [a.due, a.left, same and old[2], same and old[3]]
        for key, row in model.items():
            if row[1] is None and rng.random() < 0.3:
                await store.mark_reminded(game.id, *key)
                row[2] = True
        if rng.random() < 0.3:
            claimed = await store.claim_deadlines(later, timedelta(days=1))
            takes = sorted(k for k, row in model.items() if row[1] is None and not row[2] and not row[3])
            assert sorted((d.key, d.user_id) for d in claimed) == takes
            for key in takes:
                model[key][3] = True
        assert sorted((d.key, d.user_id, d.due, d.left, d.reminded) for d in await store.deadlines(game.id)) == sorted(
            (*key, row[0], row[1], row[2]) for key, row in model.items())
