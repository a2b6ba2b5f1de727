"""A new game's Join buttons (issue 14): they come off the lobby message once the game leaves
its lobby (started or abandoned), also when another bot process (or the same bot after a
restart) starts it, since the message is remembered in the store; a stale Join button pressed
on a started game says so, changes nothing and loses its buttons."""
from __future__ import annotations

import copy

from bot.discord.courier import LOBBY_MESSAGE
from tests.discord.gateway import CHANNEL, Sent, Table

EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"


def edits_of(t: Table, message: Sent) -> list[list]:
    """The components each edit of `message` gave it."""
    return [r.json["components"] for r in t.requests(EDIT) if r.params["message_id"] == str(message.id)]


async def test_starting_the_game_takes_the_join_buttons_off_the_lobby_message(table):
    ann, bo = table.player(11, "Ann"), table.player(22, "Bo")
    await table.command(ann, "game new", scenario="yard", side="US")
    (lobby,) = table.public()
    assert await table.store.get_setting("game:1", LOBBY_MESSAGE) == [CHANNEL, lobby.id]
    await table.press(bo, lobby, "fp:j:1:DE")
    assert lobby.custom_ids == ["fp:j:1:US", "fp:j:1:DE"] and not edits_of(table, lobby)
    asked = await table.command(ann, "game start")
    assert "went wrong" not in asked.text
    assert edits_of(table, lobby) == [[]] and lobby.custom_ids == []
    assert await table.store.get_setting("game:1", LOBBY_MESSAGE) is None


async def test_a_stale_join_button_on_a_started_game_says_so_and_loses_its_buttons(table):
    ann, bo, eve = table.player(11, "Ann"), table.player(22, "Bo"), table.player(33, "Eve")
    await table.command(ann, "game new", scenario="yard", side="US")
    lobby = table.public()[0]
    stale = copy.deepcopy(lobby)  # how Eve's client still shows it (the bot was down at the start)
    await table.press(bo, lobby, "fp:j:1:DE")
    await table.command(ann, "game start")
    version = (await table.store.load_game(1)).version
    asked = await table.press(eve, stale, "fp:j:1:US")
    assert asked.ephemeral and asked.text.startswith("Game #1 has already started: its join buttons are closed.")
    assert [s.user_id for s in (await table.store.load_game(1)).seats] == [11, 22]
    assert (await table.store.load_game(1)).version == version
    assert edits_of(table, lobby) == [[], []] and lobby.custom_ids == [], "closed at the start and again"


async def test_another_bot_process_closes_the_lobby_the_first_one_posted(tmp_path, cat):
    async with Table(tmp_path, cat) as first:
        ann, bo = first.player(11, "Ann"), first.player(22, "Bo")
        await first.command(ann, "game new", scenario="yard", side="US")
        await first.command(bo, "game join", side="DE")
        lobby = first.public()[0]
    async with Table(tmp_path, cat, wire=first.discord) as second:  # a restart, or a second shard
        asked = await second.command(ann, "game start")
        assert "went wrong" not in asked.text
        assert lobby.custom_ids == [] and edits_of(second, lobby) == [[]]


async def test_abandoning_a_lobby_closes_it_and_a_deleted_lobby_message_is_no_error(table):
    ann = table.player(11, "Ann")
    await table.command(ann, "game new", scenario="yard", side="US")
    await table.command(ann, "game abandon")
    assert table.public()[0].custom_ids == []
    await table.command(ann, "game new", scenario="yard", side="US")
    second = table.public()[-1]
    del table.discord.messages[second.id]  # someone deleted the lobby message
    asked = await table.command(ann, "game abandon", game=2)
    assert "went wrong" not in asked.text and "abandoned" in table.public()[-1].content
    assert await table.store.get_setting("game:2", LOBBY_MESSAGE) is None
