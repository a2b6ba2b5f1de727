"""Playing through the use-cases: commands, buttons, undo, rollback, and what each player reads."""
from __future__ import annotations

import pytest

from bot.app import AlreadyDone, Caller, GameService, NotYours, OutOfDate, Refused, Where
from bot.app import eventlog
from bot.store import GameStatus
from engine import GameState
from engine.position import load_position
from engine.script import run_script
from tests.app.table import ANN, BO, CY, EVE, HERE, open_table


async def state_of(store, gid) -> tuple[GameState, int]:
    g = await store.load_game(gid)
    return await GameService(store, None).load_state(gid), g.version  # a second reader


async def test_a_command_is_carried_out_told_publicly_and_confirmed_to_its_giver(service, store):
    gid = (await open_table(service)).game_id
    _, v0 = await state_of(store, gid)
    line = (await service.options(ANN, HERE))[0]
    r = await service.command(ANN, HERE, line)
    st, v1 = await state_of(store, gid)
    assert v1 == v0 + 1 and r.version == v1
    assert r.public == ["Ann places 3 cards face down."]
    assert r.ephemeral[0].startswith(f"Done: `{line}`")
    assert [p.user_id for p in r.private] == [ANN.user_id]  # her placed cards, by DM
    assert "You placed" in r.private[0].text
    assert [w.name for w in r.waiting] == ["Bo"] and r.prompts == []  # Bo already has his


async def test_only_seated_players_act_and_each_only_when_awaited(service, store):
    gid = (await open_table(service)).game_id
    _, v0 = await state_of(store, gid)
    with pytest.raises(NotYours, match="no seat"):
        await service.command(EVE, HERE, "pass")
    with pytest.raises(Refused, match="waiting for"):
        await service.command(ANN, HERE, "pass")
    assert (await state_of(store, gid))[1] == v0


@pytest.mark.parametrize("garbage", ["", "fly 1 to the moon", "move", "move 1 12A:roof",
                                     "plan 1-C1 1-C1 1-C1", "shoot x y", "'unclosed"])
async def test_garbage_gets_a_plain_reason_and_changes_nothing(service, store, garbage):
    gid = (await open_table(service)).game_id
    _, v0 = await state_of(store, gid)
    with pytest.raises(Refused) as refused:
        await service.command(ANN, HERE, garbage)
    assert str(refused.value) and "Traceback" not in str(refused.value)
    assert (await state_of(store, gid))[1] == v0


async def test_cards_can_be_changed_until_the_last_player_places(service, store):
    gid = (await open_table(service)).game_id
    first, second = (await service.options(ANN, HERE))[:2]
    await service.command(ANN, HERE, first)
    r = await service.command(ANN, HERE, second)
    assert "You placed" in r.private[0].text
    await service.command(BO, HERE, (await service.options(BO, HERE))[0])
    st, _ = await state_of(store, gid)
    assert st.step != "place"
    with pytest.raises(Refused):
        await service.command(ANN, HERE, first)


async def test_placement_buttons_stay_good_while_the_other_player_places(service, store):
    start = await open_table(service)
    ann, bo = sorted(start.prompts, key=lambda p: p.seat)
    r = await service.choose(ANN, ann.game_id, ann.seat, ann.version, ann.choices[0].stamp)
    assert r.version == ann.version + 1
    # Bo's buttons were made one version ago; placement is simultaneous, so they still count.
    r = await service.choose(BO, bo.game_id, bo.seat, bo.version, bo.choices[-1].stamp)
    assert any("reveals" in line for line in r.public)


async def test_another_players_button_is_not_yours_and_changes_nothing(service, store):
    start = await open_table(service)
    ann = next(p for p in start.prompts if p.seat == 0)
    with pytest.raises(NotYours):
        await service.choose(BO, ann.game_id, ann.seat, ann.version, ann.choices[0].stamp)
    with pytest.raises(NotYours):
        await service.choose(EVE, ann.game_id, ann.seat, ann.version, ann.choices[0].stamp)
    with pytest.raises(OutOfDate):
        await service.choose(ANN, ann.game_id, ann.seat, ann.version, "nonsense")
    assert (await state_of(store, ann.game_id))[1] == ann.version


async def hit_plus_table(service, store, cat):
    """Ann's Brooks has just fired a Hit+ burst at Dorn (the core manual's example): she must
    choose where the next hit goes."""
    gid = (await open_table(service, scenario="range")).game_id
    st, _ = load_position(cat, {
        "scenario": "range", "seed": 1,
        "players": [{"name": "Ann", "side": "US"}, {"name": "Bo", "side": "DE"}],
        "soldiers": [{"serial": 2, "seat": 0, "at": [22, 2], "facing": "e"},
                     {"serial": 4, "seat": 1, "at": [26, 2], "facing": "w", "spotted": True},
                     {"serial": 5, "seat": 1, "at": [26, 4], "facing": "w", "spotted": True}],
        "phase_cards": ["S10", "S01", "S05"],
        "hands": {0: ["2-P2", "2-C3", "2-C4"], 1: ["4-C2", "4-C3", "4-C4"]},
        "decks": {0: ["2-C2", "2-C3"], 1: ["4-P1", "4-P2", "4-C1", "5-C3"]}})
    st, _ = run_script(st, "@Ann\nplan 2-P2 2-C3 2-C4\n@Bo\nplan 4-C2 4-C3 4-C4")
    g = await store.load_game(gid)
    await service._keep_setup(st)  # set the table by hand
    await store.commit(gid, g.version, service._codec.dumps(st), [])
    return gid


async def test_a_hit_plus_is_asked_with_buttons_that_go_stale_once_answered(service, store, cat):
    gid = await hit_plus_table(service, store, cat)
    r = await service.command(ANN, HERE, "tag shoot brooks dorn")
    ask = next(p for p in r.prompts if p.kind == "hitplus")
    assert ask.user_id == ANN.user_id
    assert [c.command for c in ask.choices] == ["hitplus 4", "hitplus 5"]
    assert "Hit+ on Schtz. Engel (5)" in [c.label for c in ask.choices]
    await service.command(ANN, HERE, "hitplus 5")
    _, version = await state_of(store, gid)
    with pytest.raises(AlreadyDone):  # she has answered that Hit+ already
        await service.choose(ANN, gid, 0, ask.version, ask.choices[0].stamp)
    assert (await state_of(store, gid))[1] == version


async def test_a_hit_plus_button_carries_the_choice_out(service, store, cat):
    gid = await hit_plus_table(service, store, cat)
    r = await service.command(ANN, HERE, "tag shoot 2 4")
    ask = next(p for p in r.prompts if p.kind == "hitplus")
    engel = next(c for c in ask.choices if c.command == "hitplus 5")
    r = await service.choose(ANN, gid, 0, ask.version, engel.stamp)
    st, _ = await state_of(store, gid)
    assert st.soldiers[5].pinned
    assert r.ephemeral[0] == "Done: `hitplus 5`."


@pytest.mark.both_stores
async def test_undo_takes_back_only_your_own_last_command_that_revealed_nothing(service, store):
    gid = (await open_table(service)).game_id
    before, v0 = await state_of(store, gid)
    r = await service.command(ANN, HERE, (await service.options(ANN, HERE))[0])
    assert r.undoable
    with pytest.raises(Refused, match="not yours"):
        await service.undo(BO, HERE)
    r = await service.undo(ANN, HERE)
    after, v2 = await state_of(store, gid)
    assert v2 == v0 + 2
    assert after.model_dump_json() == before.model_dump_json()
    assert r.public[0] == "Ann takes back a command."
    assert [p.user_id for p in r.prompts] == [ANN.user_id]  # asked to place again
    with pytest.raises(Refused, match="nothing to take back"):
        await service.undo(ANN, HERE)


async def test_a_command_that_revealed_cards_cannot_be_taken_back(service, store):
    await open_table(service)
    await service.command(ANN, HERE, (await service.options(ANN, HERE))[0])
    r = await service.command(BO, HERE, (await service.options(BO, HERE))[0])
    assert not r.undoable and "/game undo" not in r.ephemeral[0]
    with pytest.raises(Refused, match="revealed"):
        await service.undo(BO, HERE)


@pytest.mark.both_stores
async def test_the_organiser_rolls_back_to_an_earlier_phase(service, store, cat):
    gid = (await open_table(service)).game_id
    start, _ = await state_of(store, gid)
    from tests.app.players import play_randomly
    import random
    await play_randomly(service, {0: ANN, 1: BO}, HERE, random.Random(3), limit=12)
    labels = [label for label, _ in await service.snapshot_labels(ANN, HERE)]
    assert labels[0] == "T1P0" and len(labels) > 1
    with pytest.raises(NotYours):
        await service.rollback(BO, HERE, "T1P0")
    with pytest.raises(Refused, match="T1P0"):
        await service.rollback(ANN, HERE, "T9P9")
    r = await service.rollback(ANN, HERE, "t1p0")
    st, _ = await state_of(store, gid)
    assert st.model_dump_json() == start.model_dump_json()
    assert "rolled game" in r.public[0] and r.images and r.images[0].view.mine is None
    assert {p.user_id for p in r.prompts} == {ANN.user_id, BO.user_id}
    assert {p.user_id for p in r.private} == {ANN.user_id, BO.user_id}  # hands again
    assert [s.label for s in await store.snapshots(gid)] == ["T1P0"]
    assert {d.key for d in await store.deadlines(gid)} == {
        "remind:0:place:T1:US-1", "expire:0:place:T1:US-1", "remind:1:place:T1:DE-2", "expire:1:place:T1:DE-2"}
    logged = eventlog.read(await store.events_since(gid))
    assert eventlog.replay(cat, logged).model_dump_json() == st.model_dump_json()


async def test_hand_is_private_and_status_is_public(service, store):
    await open_table(service)
    mine = (await service.hand(ANN, HERE)).ephemeral[0]
    assert "Your hand" in mine and "Orders" in mine and "worth" in mine
    with pytest.raises(NotYours):
        await service.hand(EVE, HERE)
    status = (await service.status(EVE, HERE)).ephemeral[0]
    assert "Farmyard" in status and "Waiting for Ann" in status and "worth" not in status


async def test_a_soldiers_vp_is_shown_only_to_his_own_player(service, store):
    await open_table(service)
    own = (await service.soldier(ANN, HERE, "avery")).ephemeral[0]
    theirs = (await service.soldier(BO, HERE, "avery")).ephemeral[0]
    assert "worth" in own and "VP" in own
    assert "worth" not in theirs and "Avery" in theirs
    r = await service.soldier(BO, HERE, "1")
    assert r.ephemeral_images[0].view.mine is None and r.ephemeral_images[0].serial == 1
    with pytest.raises(Refused, match="no soldier"):
        await service.soldier(ANN, HERE, "nobody")


@pytest.mark.both_stores
async def test_the_log_since_you_last_looked(service, store):
    await open_table(service)
    await service.command(ANN, HERE, (await service.options(ANN, HERE))[0])
    await service.command(BO, HERE, (await service.options(BO, HERE))[0])
    ann = (await service.history(ANN, HERE)).ephemeral[0]
    assert ann.startswith("**Since you last looked** (<time:")
    assert "Bo places 3 cards face down." in ann and "Ann places" not in ann
    assert "You placed" not in ann  # Bo's private line is his alone
    eve = (await service.history(EVE, HERE)).ephemeral[0]
    assert "You placed" not in eve and "Ann places 3 cards face down." in eve


async def test_board_requests_the_right_view(service):
    await open_table(service)
    mine = (await service.board(ANN, HERE)).ephemeral_images[0]
    assert mine.seat == 0 and mine.view.mine is not None
    spectator = (await service.board(EVE, HERE)).ephemeral_images[0]
    assert spectator.public and spectator.view.mine is None
    posted = await service.board(ANN, HERE, post=True)
    assert posted.images[0].public and posted.images[0].view.mine is None


@pytest.mark.both_stores
async def test_a_finished_game_is_still_read_but_not_played(service, store):
    import random
    from tests.app.players import play_randomly
    gid = (await open_table(service)).game_id
    await play_randomly(service, {0: ANN, 1: BO}, HERE, random.Random(5))
    assert (await store.load_game(gid)).status == GameStatus.FINISHED
    assert "finished" in (await service.status(ANN, HERE)).ephemeral[0]
    with pytest.raises(Refused):
        await service.command(ANN, Where(channel_id=HERE.channel_id, game_id=gid), "pass")


async def test_a_third_player_joins_a_side(service, store):
    r = await open_table(service, players=(ANN, BO, CY), sides=("US", "DE", "US"))
    st, _ = await state_of(store, r.game_id)
    assert [s.name for s in st.seats] == ["Ann", "Bo", "Cy"]
    assert {p.user_id for p in r.prompts} == {ANN.user_id, BO.user_id, CY.user_id}
    assert Caller  # seats are users: the caller decides the seat
