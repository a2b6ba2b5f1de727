"""Deadlines: a reminder at half time, the engine's default at expiry, and no free extensions; a
game whose deadline fails holds up no other game."""
from __future__ import annotations

from dataclasses import FrozenInstanceError
from datetime import timedelta

import pytest

from bot.app import Counters, GameService, Where
from bot.app.deadlines import DeadlineKey, plan, unchanged
from bot.app.service import LEASE
from bot.store import Awaited
from engine import Await
from tests.app.table import ANN, BO, HERE, open_table

pytestmark = pytest.mark.both_stores


async def test_each_awaited_player_gets_a_reminder_at_half_time_and_an_expiry(service, store, clock):
    gid = (await open_table(service, deadline_hours=10)).game_id
    dues = {(d.key, d.user_id): d.due for d in await store.deadlines(gid)}
    assert dues == {("remind:0:place:T1:US-1", ANN.user_id): clock.now + timedelta(hours=5),
                    ("expire:0:place:T1:US-1", ANN.user_id): clock.now + timedelta(hours=10),
                    ("remind:1:place:T1:DE-2", BO.user_id): clock.now + timedelta(hours=5),
                    ("expire:1:place:T1:DE-2", BO.user_id): clock.now + timedelta(hours=10)}
    assert await service.tick(clock.now + timedelta(hours=4)) == []
    reminders = await service.tick(clock.advance(5))
    assert len(reminders) == 2
    for r in reminders:
        assert r.public[0].startswith("Reminder") and len(r.waiting) == 1 and len(r.prompts) == 1
        assert r.prompts[0].user_id == r.waiting[0].user_id
    assert await service.tick(clock.now) == []  # a reminder is sent once


async def test_when_time_runs_out_the_cards_are_placed_by_the_simple_rule(service, store, clock):
    gid = (await open_table(service, deadline_hours=2)).game_id
    await service.command(ANN, HERE, (await service.options(ANN, HERE))[0])
    clock.advance(2)
    expired = [r for r in await service.tick() if r.version]
    assert any("Time is up for Bo" in line for r in expired for line in r.public)
    st = await service.load_state(gid)
    assert st.step != "place"  # Bo's cards went down, the phase began
    envelopes = [e for e in await store.events_since(gid) if '"by":"deadline"' in e.body]
    assert len(envelopes) == 1


async def test_a_placement_does_not_extend_the_other_players_time(service, store, clock):
    gid = (await open_table(service, deadline_hours=10)).game_id
    bo_due = next(d.due for d in await store.deadlines(gid) if d.key == "expire:1:place:T1:DE-2")
    clock.advance(3)
    first, second = (await service.options(ANN, HERE))[:2]
    await service.command(ANN, HERE, first)
    deadlines = {d.key: d.due for d in await store.deadlines(gid)}
    assert deadlines == {"remind:1:place:T1:DE-2": bo_due - timedelta(hours=5), "expire:1:place:T1:DE-2": bo_due}


def test_the_same_decision_keeps_its_clock_and_a_new_one_starts_afresh(clock):
    part = Await(seat=0, kind="act", key="act:T1:P1:S0:US-1:0:move:0")
    old = [Awaited("remind:0:" + part.key, 1, clock.now), Awaited("expire:0:" + part.key, 1, clock.now)]
    later = clock.advance(1)
    kept = plan([part], {0: 1}, old, now=later, hours=4)
    assert {a.key: a.due for a in kept} == {"remind:0:" + part.key: clock.now - timedelta(hours=1),
                                           "expire:0:" + part.key: clock.now - timedelta(hours=1)}
    assert unchanged(old, kept)
    next_part = part.model_copy(update={"key": "act:T1:P1:S0:US-1:0:move:1"})
    new = plan([next_part], {0: 1}, old, now=later, hours=4)
    assert {a.key: a.due for a in new} == {"remind:0:" + next_part.key: later + timedelta(hours=2),
                                          "expire:0:" + next_part.key: later + timedelta(hours=4)}
    assert not unchanged(old, new)


def test_a_database_from_before_decision_ids_keeps_its_deadlines(clock):
    old = [Awaited("remind:place:0", 1, clock.now), Awaited("expire:place:0", 1, clock.now + timedelta(hours=2))]
    placing = Await(seat=0, kind="place", force="US-1", key="place:T1:US-1")
    kept = plan([placing], {0: 1}, old, now=clock.advance(1), hours=4)
    assert {a.key: a.due for a in kept} == {"remind:0:place:T1:US-1": clock.now - timedelta(hours=1),
                                           "expire:0:place:T1:US-1": clock.now + timedelta(hours=1)}
    assert DeadlineKey.parse("expire:place:0").names(placing)
    assert not DeadlineKey.parse("expire:act:0").names(placing)
    assert DeadlineKey.parse("expire:0:place:T1:US-1") == DeadlineKey("expire", 0, "place:T1:US-1", "place")
    assert DeadlineKey.parse("nonsense") is None and DeadlineKey.parse("expire:x:y") is None


def test_a_remembered_key_is_shared_frozen_and_reads_as_a_fresh_parse():
    """`DeadlineKey.parse` remembers its answers: one text gives one frozen key, which nobody
    can change under another reader, and the answer is the one a first parse gives."""
    from bot.app.deadlines import _parse_key

    texts = ["expire:0:place:T1:US-1", "remind:1:act:T1:P1:S0:US-1:0:move:0", "expire:place:0", "nonsense"]
    first = [DeadlineKey.parse(t) for t in texts]
    _parse_key.cache_clear()
    assert [DeadlineKey.parse(t) for t in texts] == first  # a fresh parse, the same keys
    again = DeadlineKey.parse(texts[0])
    assert again is DeadlineKey.parse(texts[0])
    with pytest.raises(FrozenInstanceError):
        again.seat = 3  # type: ignore[misc]
    assert DeadlineKey.parse(texts[0]) == DeadlineKey("expire", 0, "place:T1:US-1", "place")


async def test_a_deadline_that_no_longer_matches_the_game_does_nothing(service, store, clock):
    gid = (await open_table(service, deadline_hours=2)).game_id
    game = await store.load_game(gid)
    stale = [Awaited("expire:0:act:T1:P1:S0:US-1:0:move:0", ANN.user_id, clock.now),
             Awaited("remind:0:act:T1:P1:S0:US-1:0:move:0", ANN.user_id, clock.now)]
    await store.commit(gid, game.version, game.state, [], awaited=stale)  # nobody acts yet
    assert await service.tick(clock.advance(1)) == []
    assert (await store.load_game(gid)).version == game.version + 1
    assert all(d.reminded for d in await store.deadlines(gid))


async def test_deadlines_of_an_abandoned_game_are_gone(service, store, clock):
    gid = (await open_table(service, deadline_hours=2)).game_id
    await service.abandon(ANN, HERE)
    assert await store.deadlines(gid) == []
    assert await service.tick(clock.advance(3)) == []


async def test_deadlines_written_before_decision_ids_keep_their_time_and_run_out(service, store, cat, clock):
    gid = (await open_table(service, deadline_hours=10)).game_id
    game = await store.load_game(gid)
    due = clock.now + timedelta(hours=2)
    await store.commit(gid, game.version, game.state, [], awaited=[
        Awaited(f"{stage}:place:{seat}", user, due - timedelta(hours=1) if stage == "remind" else due)
        for stage in ("remind", "expire") for seat, user in ((0, ANN.user_id), (1, BO.user_id))])
    upgraded = GameService(store, cat, clock=clock)  # the bot after the upgrade
    assert [w.due for w in await upgraded.waiting(ANN, HERE)] == [due, due]
    await upgraded.command(ANN, HERE, (await upgraded.options(ANN, HERE))[0])
    assert {d.key: d.due for d in await store.deadlines(gid)} == {
        "remind:1:place:T1:DE-2": due - timedelta(hours=1), "expire:1:place:T1:DE-2": due}
    clock.now = due
    told = [r.public[0] for r in await upgraded.tick()]
    assert told == ["Reminder: half the time for this decision has gone in game #1.",
                    "Time is up for Bo: the game places cards by the simple rule for them."]


async def test_one_games_failing_deadline_leaves_the_others_and_comes_back_after_the_lease(
        service, store, clock, monkeypatch):
    broken, fine = [(await open_table(service, where=Where(channel_id=c), deadline_hours=10)).game_id
                    for c in (801, 802)]
    remind = service._remind

    async def failing(d, key):
        if d.game_id == broken:
            raise RuntimeError("a bug in one game")
        return await remind(d, key)

    monkeypatch.setattr(service, "_remind", failing)
    told = await service.tick(clock.advance(5))
    assert sorted({r.game_id for r in told}) == [fine], "the other game's reminders still come"
    assert [d.reminded for d in await store.deadlines(broken) if d.key.startswith("remind")] == [False, False]
    monkeypatch.setattr(service, "_remind", remind)
    assert await service.tick(clock.now) == []  # still claimed by the tick that failed
    again = await service.tick(clock.now + LEASE)
    assert {r.game_id for r in again} == {broken} and len(again) == 2


async def test_reminders_and_defaults_are_counted_for_the_front_end(store, cat, clock):
    fired: list[str] = []
    service = GameService(store, cat, clock=clock, seed=lambda: 3, counters=Counters(deadline_fired=fired.append))
    await open_table(service, deadline_hours=2)
    await service.tick(clock.advance(1))
    assert fired == ["reminder", "reminder"]
    await service.tick(clock.advance(1))
    assert fired == ["reminder", "reminder", "default", "default"]
    await service.tick(clock.now)
    assert len(fired) == 4, "each deadline is counted once"
