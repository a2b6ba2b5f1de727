"""Deadlines: a reminder at half time, the engine's default at expiry, and no free extensions."""
from __future__ import annotations

from datetime import timedelta

import pytest

from bot.app.deadlines import plan, unchanged
from bot.store import Awaited
from tests.app.conftest import ANN, BO, HERE, open_table

pytestmark = pytest.mark.both_stores


async def test_each_awaited_player_gets_a_reminder_at_half_time_and_an_expiry(service, store, clock):
    gid = (await open_table(service, deadline_hours=10)).game_id
    dues = {(d.key, d.user_id): d.due for d in await store.deadlines(gid)}
    assert dues == {("remind:place:0", ANN.user_id): clock.now + timedelta(hours=5),
                    ("expire:place:0", ANN.user_id): clock.now + timedelta(hours=10),
                    ("remind:place:1", BO.user_id): clock.now + timedelta(hours=5),
                    ("expire:place:1", BO.user_id): clock.now + timedelta(hours=10)}
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
    bo_due = next(d.due for d in await store.deadlines(gid) if d.key == "expire:place:1")
    clock.advance(3)
    first, second = (await service.options(ANN, HERE))[:2]
    await service.command(ANN, HERE, first)
    deadlines = {d.key: d.due for d in await store.deadlines(gid)}
    assert deadlines == {"remind:place:1": bo_due - timedelta(hours=5), "expire:place:1": bo_due}


def test_the_same_decision_keeps_its_clock_and_a_new_one_starts_afresh(clock):
    old = [Awaited("remind:act:0", 1, clock.now), Awaited("expire:act:0", 1, clock.now)]
    later = clock.advance(1)
    card = (0, "act", "carry out 1-C3 (MOVE)")
    kept = plan([card], {0: 1}, old, still=[card], now=later, hours=4)
    assert {a.key: a.due for a in kept} == {"remind:act:0": clock.now - timedelta(hours=1),
                                           "expire:act:0": clock.now - timedelta(hours=1)}
    assert unchanged(old, kept)
    next_card = (0, "act", "carry out 1-C4 (HIDE)")
    new = plan([next_card], {0: 1}, old, still=[card], now=later, hours=4)
    assert {a.key: a.due for a in new} == {"remind:act:0": later + timedelta(hours=2),
                                          "expire:act:0": later + timedelta(hours=4)}
    assert not unchanged(old, new)


async def test_a_deadline_that_no_longer_matches_the_game_does_nothing(service, store, clock):
    gid = (await open_table(service, deadline_hours=2)).game_id
    game = await store.load_game(gid)
    stale = [Awaited("expire:act:0", ANN.user_id, clock.now), Awaited("remind:act:0", ANN.user_id, clock.now)]
    await store.commit(gid, game.version, game.state, [], awaited=stale)  # nobody acts yet
    assert await service.tick(clock.advance(1)) == []
    assert (await store.load_game(gid)).version == game.version + 1
    assert all(d.reminded for d in await store.deadlines(gid))


async def test_deadlines_of_an_abandoned_game_are_gone(service, store, clock):
    gid = (await open_table(service, deadline_hours=2)).game_id
    await service.abandon(ANN, HERE)
    assert await store.deadlines(gid) == []
    assert await service.tick(clock.advance(3)) == []
