"""Command callbacks answering mocked interactions: the happy path, permission refusals,
stale and foreign buttons, closed DMs falling back to a private thread, and bad input getting
a clear ephemeral reason, never a traceback."""
from __future__ import annotations

import re
from unittest.mock import AsyncMock, MagicMock

import discord
import pytest

from bot.app import Caller, Where
from bot.discord.components import ChoiceButton, ChoiceSelect, JoinButton, prompt_view
from bot.discord.courier import DM_HINT
from engine.script import parse_line
from tests.discord.conftest import CHANNEL, command, dms, forbidden, said


@pytest.fixture
def people(world):
    return world.add_user(11, "Ann"), world.add_user(22, "Bo"), world.add_user(99, "Eve")


async def open_game(world, tree, people, *, bo_dms: bool = True):
    ann, bo, _ = people
    if not bo_dms:
        bo.send.side_effect = forbidden()
    await command(tree, "game new").callback(world.interaction(ann), scenario="yard", side="US")
    await command(tree, "game join").callback(world.interaction(bo), side="DE")
    await command(tree, "game start").callback(world.interaction(ann))


def prompt_buttons(u) -> list:
    """The components of the last DM that carried a view."""
    for c in reversed(u.send.await_args_list):
        if "view" in c.kwargs:
            return c.kwargs["view"].children
    return []


async def test_game_new_defers_answers_ephemerally_and_posts_join_buttons(world, tree, people):
    ann = people[0]
    it = world.interaction(ann)
    await command(tree, "game new").callback(it, scenario="yard", side="US")
    it.response.defer.assert_awaited_once_with(ephemeral=True, thinking=True)
    assert "Game #1 is open" in said(it)
    (post,) = world.channels[CHANNEL].send.await_args_list
    assert "New game #1: Farmyard" in post.args[0]
    buttons = post.kwargs["view"].children
    assert [b.item.custom_id for b in buttons] == ["fp:j:1:US", "fp:j:1:DE"]
    assert post.kwargs["allowed_mentions"].everyone is False


async def test_a_join_button_seats_the_presser(world, tree, adapter, people):
    ann, bo, _ = people
    await command(tree, "game new").callback(world.interaction(ann), scenario="yard", side="US")
    it = world.interaction(bo)
    await JoinButton(1, "DE").callback(it)
    assert "You play DE" in said(it)
    assert "Bo joins DE." in world.public()[-1]


async def test_a_whole_start_deals_by_dm_and_mentions_the_awaited(world, tree, people):
    ann, bo, _ = people
    await open_game(world, tree, people)
    public = world.public()[-1]
    assert "Game #1 begins" in public and "<@11>" in public and "<@22>" in public
    for u in (ann, bo):
        text = "\n".join(dms(u))
        assert "Your hand" in text and "Your orders" in text
        assert prompt_buttons(u), "a placement prompt with a select"


async def test_only_the_organiser_starts(world, tree, people):
    ann, bo, eve = people
    await command(tree, "game new").callback(world.interaction(ann), scenario="yard", side="US")
    await command(tree, "game join").callback(world.interaction(bo), side="DE")
    it = world.interaction(bo)
    await command(tree, "game start").callback(it)
    assert "Only the game's organiser" in said(it)
    it = world.interaction(eve, organiser=True)  # Manage Channels administers
    await command(tree, "game start").callback(it)
    assert "Game #1 begins" in world.public()[-1]


async def test_a_spectator_cannot_act_and_a_player_only_for_himself(world, tree, people):
    await open_game(world, tree, people)
    it = world.interaction(people[2])
    await command(tree, "act pass").callback(it)
    assert "no seat" in said(it)
    it = world.interaction(people[0])
    await command(tree, "act pass").callback(it)
    assert "waiting for" in said(it)


async def test_hand_is_ephemeral_and_carries_the_current_choices(world, tree, people):
    await open_game(world, tree, people)
    it = world.interaction(people[0])
    await command(tree, "hand").callback(it)
    assert "Your hand" in said(it)
    assert "Your hand" not in "\n".join(world.public())


async def test_a_placement_select_places_the_cards(world, tree, adapter, people):
    ann, bo, _ = people
    await open_game(world, tree, people)
    (select,) = prompt_buttons(ann)
    assert isinstance(select, ChoiceSelect) and len(select.item.custom_id) <= 100
    message = MagicMock(spec=discord.Message)
    message.edit = AsyncMock()
    it = world.interaction(ann, message=message)
    select.item._values = [select.item.options[0].value]
    await select.callback(it)
    assert "Done: `plan" in said(it)
    assert re.match(r"Ann places \d cards? face down\.", world.public()[-1])
    message.edit.assert_awaited_once_with(view=None)


async def test_someone_elses_button_changes_nothing(world, tree, adapter, store, people):
    ann, bo, eve = people
    await open_game(world, tree, people)
    (select,) = prompt_buttons(ann)
    before = (await store.load_game(1)).version
    for who in (bo, eve):
        it = world.interaction(who)
        select.item._values = [select.item.options[0].value]
        await select.callback(it)
        assert said(it) == "These buttons are for someone else: nothing was changed."
    assert (await store.load_game(1)).version == before


async def test_a_stale_button_is_out_of_date_and_changes_nothing(world, tree, adapter, store, people):
    await open_game(world, tree, people)
    before = (await store.load_game(1)).version
    it = world.interaction(people[0])
    await ChoiceButton(1, 0, before - 1, "deadbeef").callback(it)
    assert "out of date" in said(it)
    assert (await store.load_game(1)).version == before


async def test_closed_dms_fall_back_to_one_private_thread_and_a_hint_once(world, tree, store, people):
    ann, bo, _ = people
    await open_game(world, tree, people, bo_dms=False)
    home = world.channels[CHANNEL]
    home.create_thread.assert_awaited_once()
    kwargs = home.create_thread.await_args.kwargs
    assert kwargs["type"] == discord.ChannelType.private_thread and kwargs["invitable"] is False
    (thread,) = home.threads
    thread.add_user.assert_awaited_once()
    assert thread.add_user.await_args.args[0].id == bo.id
    sent = [c.args[0] for c in thread.send.await_args_list]
    assert DM_HINT in sent[0] and any("Your hand" in t for t in sent)
    assert (await store.private_channels(1)) == {bo.id: thread.id}
    # the next secret goes to the same thread, found by its stored id, with no second hint
    line = (await adapter_options(tree, world, bo))[0]
    await command(tree, "plan").callback(world.interaction(bo), **dict(zip(
        ("phase1", "phase2", "phase3"), line.split()[1:])))
    assert any("You placed" in c.args[0] for c in thread.send.await_args_list)
    assert home.create_thread.await_count == 1
    assert sum(DM_HINT in c.args[0] for c in thread.send.await_args_list) == 1


async def adapter_options(tree, world, who):
    adapter = world.client.adapter
    return await adapter.service.options(Caller(who.id, who.display_name), Where(channel_id=CHANNEL))


async def test_a_player_whose_dm_fails_on_his_own_command_is_told_ephemerally_once(world, tree, people):
    ann, bo, _ = people
    await command(tree, "game new").callback(world.interaction(ann), scenario="yard", side="US")
    await command(tree, "game join").callback(world.interaction(bo), side="DE")
    ann.send.side_effect = forbidden()
    it = world.interaction(ann)
    await command(tree, "game start").callback(it)
    assert DM_HINT in said(it)
    it = world.interaction(ann)
    await command(tree, "hand").callback(it)
    assert DM_HINT not in said(it)


@pytest.mark.parametrize("options", [
    {"soldier": "nobody", "to": "12A"},
    {"soldier": "1", "to": "12A:roof"},
    {"soldier": "1", "to": "'"},
])
async def test_bad_input_gets_a_clear_ephemeral_reason(world, tree, people, options):
    await open_game(world, tree, people)
    it = world.interaction(people[0])
    await command(tree, "act move").callback(it, **options)
    text = said(it)
    assert text and "Traceback" not in text and "Error" not in text


async def test_a_bug_is_logged_and_the_player_gets_no_details(world, tree, adapter, people, caplog):
    adapter.service.status = AsyncMock(side_effect=KeyError("secret-card-1-C3"))
    it = world.interaction(people[0])
    await command(tree, "game status").callback(it)
    eid = re.search(r"error `([0-9a-f]{8})`", said(it))[1]
    assert said(it).startswith("Sorry: something went wrong on our side, and nothing was changed.")
    (record,) = [r for r in caplog.records if r.levelname == "ERROR"]
    assert f"error {eid}: /game status failed" in record.getMessage() and "KeyError" in record.getMessage()
    assert "secret" not in said(it) and "secret" not in caplog.text


async def test_commands_in_a_dm_find_the_players_game(world, tree, people):
    await open_game(world, tree, people)
    it = world.interaction(people[0], channel=None)
    await command(tree, "game status").callback(it)
    assert "Farmyard" in said(it)


@pytest.mark.parametrize("path, options, script", [
    ("act move", {"soldier": "1", "to": "35A:cover", "face": "e", "via": "team"}, "team move 1 35A:cover face e"),
    ("act move", {"soldier": "2", "to": "exit N", "take": "4", "release": True}, "move 2 exit N release take 4"),
    ("act shoot", {"soldier": "1", "target": "4", "via": "tag"}, "tag shoot 1 4"),
    ("act toss", {"soldier": "1", "target": "4", "at": "3,4"}, "toss 1 4 at 3,4"),
    ("act toss", {"soldier": "1", "item": "smoke-grenade", "at": "3,4"}, "use 1 smoke-grenade at 3,4"),
    ("act toss", {"soldier": "1", "target": "4", "item": "rifle-grenade"}, "use 1 rifle-grenade 4"),
    ("game reslot", {"soldier": "1", "slot": 2}, "reslot 1 2"),
    ("act face", {"soldier": "avery", "direction": "nw"}, "face 1 nw"),
    ("act sight", {"soldier": "1"}, "sight 1"),
    ("act hold", {"soldier": "1", "cards": "1-C1 1-C2"}, "hold 1 1-C1 1-C2"),
    ("act fight", {"card": "1-C1", "target": "4"}, "fight 1-C1 4"),
    ("act capture", {"victim": "4", "escort": "1"}, "capture 4 by 1"),
    ("act kill", {"victim": "4"}, "kill 4"),
    ("act declare", {"card": "1-C1", "action": "move"}, "declare 1-C1 move"),
    ("act pay", {"cards": "1-C1"}, "pay 1-C1"),
    ("act charge", {"soldier": "1", "target": "4"}, "charge 1 4"),
    ("act rally", {"soldier": "1", "target": "2"}, "rally 1 2"),
    ("act draw", {"soldier": "1"}, "draw 1"),
    ("act cover", {"soldier": "1"}, "cover 1"),
    ("act hitplus", {"target": "5"}, "hitplus 5"),
    ("act unhold", {"cards": "1-C1"}, "unhold 1-C1"),
    ("act unhold", {}, "keep"), ("act pass", {}, "pass"), ("act done", {}, "done"),
    ("act react", {"card": "21-x1"}, "react 21-x1"), ("act skip", {}, "skip"),
    ("act preempt", {"card": "22-X1", "target": "4-C1", "soldiers": "4 5"}, "preempt 22-X1 4-C1 4 5"),
    ("act then", {"soldier": "1", "target": "4"}, "then 1 4"),
    ("game always-pass", {"setting": "on"}, "alwayspass on"),
    ("act decline", {}, "decline"), ("act stay", {}, "stay"),
])
async def test_a_slash_command_is_the_script_line_of_the_same_action(world, tree, adapter, people, path,
                                                                     options, script):
    await open_game(world, tree, people)
    given = []
    real = adapter.service.command

    async def spy(caller, where, text, **kw):
        given.append(text)
        return await real(caller, where, text, **kw)

    adapter.service.command = spy
    await command(tree, path).callback(world.interaction(people[0]), **options)
    state = await adapter.service.load_state(1)
    assert parse_line(state, given[0], 0) == parse_line(state, script, 0)


async def test_autocomplete_offers_at_most_25_short_choices(world, tree, people):
    await open_game(world, tree, people)
    it = world.interaction(people[0], options={})
    plan = command(tree, "plan")
    choices = await plan._params["phase1"].autocomplete(it, "")
    assert 0 < len(choices) <= 25 and all(len(c.name) <= 100 for c in choices)
    games = await command(tree, "game status")._params["game"].autocomplete(it, "")
    assert [c.value for c in games] == [1]
    scenarios = await command(tree, "game new")._params["scenario"].autocomplete(it, "far")
    assert "yard" in [c.value for c in scenarios]  # other fixture scenarios may match "far" too


def test_a_prompt_with_few_choices_gets_buttons_and_many_a_select():
    from bot.app import Choice, Prompt
    few = Prompt(3, 9, 1, 22, "hitplus", "x", tuple(Choice(f"c{i}", f"hitplus {i}", f"{i:08x}") for i in range(2)))
    many = Prompt(3, 9, 1, 22, "place", "x", tuple(Choice("L" * 150, f"plan {i}", f"{i:08x}") for i in range(30)))
    assert [type(c) for c in prompt_view(few).children] == [ChoiceButton, ChoiceButton]
    (select,) = prompt_view(many).children
    assert len(select.item.options) == 25 and all(len(o.label) <= 100 for o in select.item.options)
    for item in [*prompt_view(few).children, select]:
        assert len(item.item.custom_id) <= 100 and item.item.custom_id.startswith("fp:")


async def test_help_sends_the_quick_reference_the_console_prints(world, tree, people):
    """/help needs no game: the shipped quick reference, to the caller only, in messages within
    Discord's limit whose code blocks each open and close; the same page as the console's `help`."""
    from bot.app.quick_reference import for_terminal
    from bot.discord.text import MESSAGE

    ann, _, _ = people
    it = world.interaction(ann, channel=None)
    await command(tree, "help").callback(it)
    sent = [c.args[0] if c.args else c.kwargs["content"] for c in it.followup.send.await_args_list]
    assert len(sent) > 1 and all(len(m) <= MESSAGE and m.count("```") % 2 == 0 for m in sent)
    text = said(it)
    assert "/act move soldier:104 to:12B" in text
    headings = [line for line in for_terminal().splitlines() if line.isupper() and len(line) > 3]
    assert len(headings) >= 6
    assert all(f"**{h.lower()}**" in text.lower().replace("`", "") for h in headings)
    for row in ("move S DEST", "A B X Y outside the edge", "One character is one inch"):
        assert row in text and row in for_terminal()
