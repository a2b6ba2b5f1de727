"""Private messages cost one request once the player's DM channel is known (its id is stored, so
any process, even one just started, sends straight to it), a stored id Discord no longer knows is
replaced, and bot processes starting together DM each awaited player one prompt — counted on
the offline Discord's record of requests (tests/discord/gateway.py)."""
from __future__ import annotations

import asyncio

from bot.discord.courier import DM_CHANNEL
from tests.discord.gateway import CHANNEL, Request, Table
from tests.discord.test_gateway import open_yard

OPEN_DM = "POST /users/@me/channels"
GET_USER = "GET /users/{user_id}"
POST = "POST /channels/{channel_id}/messages"


def to_discord(requests: list[Request]) -> list[Request]:
    """The bot's own REST requests (interaction answers and followups left out)."""
    return [r for r in requests if not r.path.startswith(("/interactions", "/webhooks"))]


async def place(t: Table, who, prompt) -> list[Request]:
    """`who` picks the first choice on `prompt` (its first option, if it is a menu): the requests
    that made."""
    before = len(t.discord.requests)
    first = prompt.custom_ids[0]
    await t.press(who, prompt, first, prompt.values(first)[:1] or None)
    return to_discord(t.discord.requests[before:])


async def test_a_private_message_costs_one_request_once_the_dm_channel_is_stored(tmp_path, cat):
    async with Table(tmp_path, cat) as t:
        ann, _ = await open_yard(t)
        assert len(t.requests(OPEN_DM)) == 2 and not t.requests(GET_USER)  # each DM opened once
        dm = t.discord.dm_of[ann.id]
        assert await t.store.get_setting(f"user:{ann.id}", DM_CHANNEL) == dm
        prompt = t.prompt(ann)
    async with Table(tmp_path, cat, wire=t.discord) as restarted:  # another process: nothing cached
        made = await place(restarted, ann, prompt)
    private = [r for r in made if r.route == POST and r.params["channel_id"] == str(dm)]
    assert private, "Ann is told her placement by DM"
    assert not [r for r in made if r.route in (OPEN_DM, GET_USER)], [r.route for r in made]


async def test_a_stored_dm_channel_discord_no_longer_knows_is_replaced(tmp_path, cat):
    async with Table(tmp_path, cat) as t:
        ann, _ = await open_yard(t)
        dm = t.discord.dm_of[ann.id]
        await t.store.set_setting(f"user:{ann.id}", DM_CHANNEL, 4242)  # a channel Discord never had
        prompt = t.prompt(ann)
    async with Table(tmp_path, cat, wire=t.discord) as restarted:
        made = await place(restarted, ann, prompt)
        assert await restarted.store.get_setting(f"user:{ann.id}", DM_CHANNEL) == dm
    private = [(r.route, r.params.get("channel_id")) for r in made
               if r.route == OPEN_DM or (r.route == POST and r.params["channel_id"] != str(CHANNEL))]
    assert private[:3] == [(POST, "4242"), (OPEN_DM, None), (POST, str(dm))]


async def test_closed_dms_behind_a_stored_channel_go_to_the_private_thread_at_once(table):
    _, bo = await open_yard(table)
    await table.store.set_setting(f"user:{bo.id}", DM_CHANNEL, table.discord.dm_of.get(bo.id) or 4343)
    table.discord.closed_dms.add(bo.id)
    before = len(table.discord.requests)
    await place(table, bo, table.prompt(bo))
    made = to_discord(table.discord.requests[before:])
    assert not [r for r in made if r.route == OPEN_DM], "closed DMs are not opened again"
    assert table.threads_of(bo)


async def test_processes_starting_together_dm_each_awaited_player_one_prompt(tmp_path, cat):
    async with Table(tmp_path, cat) as t:
        ann, bo = await open_yard(t)
    wire = t.discord
    before = len(wire.messages)
    async with Table(tmp_path, cat, wire=wire) as one, Table(tmp_path, cat, wire=wire) as two:
        await asyncio.gather(one.bot.on_ready(), two.bot.on_ready())
        await one.settle()
    asked = [m.channel_id for m in list(wire.messages.values())[before:] if m.custom_ids]
    assert sorted(asked) == sorted((wire.dm_of[ann.id], wire.dm_of[bo.id])), "one prompt each, not two"
