"""A seat changing hands and the organiser's clock powers, through the use-cases on a real store
(issue 16): replacing a player mid-turn sends the new holder exactly the seat's secrets and
nobody anything of them, and the old holder is refused; a pause kept across a restart gives
every decision back its time left to the second; extend moves one decision and advance applies
the defaults now, each once."""
from __future__ import annotations

import random
from dataclasses import replace
from datetime import timedelta

import pytest

from bot.app import AlreadyDone, GameService, NotYours, Refused, Where
from bot.store import open_store
from tests.app.players import play_randomly
from tests.app.table import ANN, BO, CY, HERE, Clock, open_table
from tests.app.test_secrets import found, secrets_of, shown_cards

pytestmark = pytest.mark.both_stores


async def test_a_seat_replaced_mid_turn_gives_its_secrets_to_the_new_player_alone(service, store):
    started = await open_table(service)
    bo_prompt = next(p for p in started.prompts if p.user_id == BO.user_id)
    where = Where(channel_id=HERE.channel_id, game_id=started.game_id)
    await service.command(ANN, where, (await service.options(ANN, where))[0])  # Ann has placed, Bo not
    st = await service.load_state(started.game_id)
    secrets, open_cards = secrets_of(st), shown_cards(st)
    assert secrets[1] and secrets[0]

    r = await service.replace_player(ANN, where, 1, CY.user_id, CY.name, reason="Bo moved abroad")
    to_cy = "\n".join([p.text for p in r.private if p.user_id == CY.user_id]
                      + [p.text for p in r.prompts if p.user_id == CY.user_id])
    assert {p.user_id for p in r.private} | {p.user_id for p in r.prompts} <= {CY.user_id, BO.user_id}
    assert all(found(card, to_cy) for card in st.forces["DE-2"].hand), "every card of the seat's hand"
    assert not [s for s in secrets[0] - open_cards if found(s, to_cy)], "nothing of Ann's seat"
    to_bo = [p.text for p in r.private if p.user_id == BO.user_id]
    assert len(to_bo) == 1 and "no longer hold seat 2" in to_bo[0]
    assert not [s for s in secrets[1] if found(s, to_bo[0])], "Bo is told, and shown nothing of the seat"
    public = "\n".join(r.public)
    assert "Cy takes over seat 2 (DE) from Bo" in public and "Bo moved abroad" in public
    assert not [s for seat in secrets.values() for s in seat - open_cards if found(s, public)]

    version = (await store.load_game(started.game_id)).version
    with pytest.raises(NotYours):
        await service.hand(BO, where)
    with pytest.raises((NotYours, Refused)):
        await service.choose(BO, bo_prompt.game_id, bo_prompt.seat, bo_prompt.version, bo_prompt.choices[0].stamp)
    with pytest.raises(NotYours):
        await service.command(BO, where, (await service.options(CY, where))[0])
    assert (await store.load_game(started.game_id)).version == version, "Bo's refusals changed nothing"
    with pytest.raises(AlreadyDone):
        await service.replace_player(ANN, where, 1, CY.user_id, CY.name)
    assert "worth" in (await service.hand(CY, where)).ephemeral[0]
    await service.command(CY, where, (await service.options(CY, where))[0])
    log = "\n".join((await service.history(ANN, where, last=40)).ephemeral)
    assert "Cy" in log and "Bo" in log, "the log says who held the seat when"


async def test_a_pause_kept_over_a_restart_gives_each_decision_its_time_left_to_the_second(store_url, cat):
    clock = Clock()
    async with open_store(store_url) as store:
        first = GameService(store, cat, clock=clock, seed=lambda: 7)
        gid = (await open_table(first)).game_id
        where = Where(channel_id=HERE.channel_id, game_id=gid)
        await play_randomly(first, {0: ANN, 1: BO}, where, random.Random(2), limit=3)
        clock.advance(1.5)
        left = {(d.key, d.user_id): d.due - clock.now for d in await store.deadlines(gid)}
        assert left and all(t > timedelta(0) for t in left.values())
        await first.stop_clocks(ANN, where)
    clock.advance(24 * 5 + 1 / 3600)  # five days and a second, past every deadline
    async with open_store(store_url) as store:
        second = GameService(store, cat, clock=clock)
        assert await second.tick() == [], "nothing falls due while paused, whatever the process"
        with pytest.raises(Refused, match="paused"):
            await second.command(ANN, where, "pass")
        await second.start_clocks(ANN, where)
        after = {(d.key, d.user_id): d.due - clock.now for d in await store.deadlines(gid)}
        assert after == left
        with pytest.raises(AlreadyDone):
            await second.start_clocks(ANN, where)


async def test_extend_moves_one_decision_and_advance_applies_the_defaults_once(service, store, clock):
    started = await open_table(service)
    where = Where(channel_id=HERE.channel_id, game_id=started.game_id)
    gid = started.game_id
    before = {(d.key, d.user_id): d.due for d in await store.deadlines(gid)}
    with pytest.raises(NotYours):
        await service.extend(BO, where, 1, 6)
    with pytest.raises(Refused, match="between"):
        await service.extend(ANN, where, 1, 0)
    await service.extend(ANN, where, 1, 6)
    after = {(d.key, d.user_id): d.due for d in await store.deadlines(gid)}
    moved = {k for k in before if after[k] != before[k]}
    assert moved and all(k[1] == BO.user_id and after[k] - before[k] == timedelta(hours=6) for k in moved)
    assert all(after[k] == before[k] for k in before if k[1] != BO.user_id), "Ann's clock did not move"

    st = await service.load_state(gid)
    assert not any(f.planned for f in st.forces.values())
    with pytest.raises(NotYours):
        await service.advance(BO, where)
    clock.advance(0.001)
    order = replace(ANN, sent_at=clock.now)  # the interaction's own time, as Discord gives it
    r = await service.advance(order, where)
    assert any("advances the game" in line for line in r.public)
    st = await service.load_state(gid)
    assert all(f.planned for f in st.forces.values()), "both placements made by default"
    version = (await store.load_game(gid)).version
    with pytest.raises(AlreadyDone):
        await service.advance(replace(order, sent_at=clock.now + timedelta(seconds=2)), where)  # pressed twice
    assert (await store.load_game(gid)).version == version
