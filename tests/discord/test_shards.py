"""Several bot processes on one database, each running some of the deployment's shards
(FIELDPOST_SHARDS, FIELDPOST_SHARD_IDS), through gateway payloads: the command tree is synced
once, by shard 0's process, and again only when it changed; a game is served by whichever
process an interaction or a deadline reaches, also one that never heard of the game's guild."""
from __future__ import annotations

import argparse
from datetime import UTC, datetime, timedelta

import discord
import pytest
from discord import app_commands

from bot.config import Settings
from bot.discord import client as bot_client
from bot.discord import run as bot_run
from bot.discord.client import FieldpostBot, ShardedFieldpostBot, fieldpost_bot
from tests.discord.gateway import CHANNEL, Table

SYNC = "PUT /applications/{application_id}/guilds/{guild_id}/commands"
FETCH = "GET /channels/{channel_id}"


def shard(n: int) -> dict:
    """The settings of a process running shard n of 2."""
    return {"fieldpost_shards": 2, "fieldpost_shard_ids": (n,)}


async def test_the_settings_choose_the_client():
    unsharded = fieldpost_bot(Settings(discord_token="x", fieldpost_render_processes=0))
    sharded = fieldpost_bot(Settings(discord_token="x", fieldpost_render_processes=0,
                                     fieldpost_shards=4, fieldpost_shard_ids="2-3"))
    assert type(unsharded) is FieldpostBot and not isinstance(unsharded, discord.AutoShardedClient)
    assert isinstance(sharded, ShardedFieldpostBot) and isinstance(sharded, discord.AutoShardedClient)
    assert (sharded.shard_count, sharded.shard_ids) == (4, [2, 3])
    assert sharded.own_shards == [2, 3] and unsharded.own_shards is None


@pytest.mark.parametrize(("shards", "ids", "said"), [
    ("2", "2", "FIELDPOST_SHARD_IDS: shard 2 is not below FIELDPOST_SHARDS=2 (shards are 0 to 1)"),
    ("4", "1,0-2", "FIELDPOST_SHARD_IDS: shard 1 is named twice"),
    ("4", "one", "FIELDPOST_SHARD_IDS: 'one' is not a shard id or a range like 2-3"),
    ("", "0", "FIELDPOST_SHARD_IDS: FIELDPOST_SHARD_IDS needs FIELDPOST_SHARDS, the total shard count"),
])
def test_bad_shard_settings_stop_the_bot_with_one_line(monkeypatch, capsys, shards, ids, said):
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("FIELDPOST_SHARDS", shards)
    monkeypatch.setenv("FIELDPOST_SHARD_IDS", ids)
    assert bot_run.run(argparse.Namespace()) == 2
    assert capsys.readouterr().err == f"fieldpost bot: {said}\n"


async def test_the_tree_is_synced_once_by_shard_zero_and_again_only_when_it_changed(tmp_path, cat, monkeypatch):
    async with Table(tmp_path, cat, **shard(1)) as one:
        assert not one.requests(SYNC), "shard 1's process never syncs"
        assert one.bot.tree.get_command("game") is not None  # it serves the commands all the same
        async with Table(tmp_path, cat, wire=one.discord, **shard(0)) as zero:
            assert len(zero.requests(SYNC)) == 1, "two processes start: one sync, by shard 0's"
    async with Table(tmp_path, cat, wire=zero.discord, **shard(0)):
        pass
    assert len(zero.requests(SYNC)) == 1, "a restart with the same tree: no sync"

    def with_a_new_command(*args, **kw):
        tree = build(*args, **kw)
        tree.add_command(app_commands.Command(name="salute", description="A new command",
                                              callback=lambda it: None))
        return tree
    build = bot_client.build_tree
    monkeypatch.setattr(bot_client, "build_tree", with_a_new_command)
    async with Table(tmp_path, cat, wire=zero.discord, **shard(0)), \
            Table(tmp_path, cat, wire=zero.discord, **shard(1)):
        pass
    syncs = zero.requests(SYNC)
    assert len(syncs) == 2 and "salute" in {c["name"] for c in syncs[-1].json}, "a changed tree: one sync"
    async with Table(tmp_path, cat, wire=zero.discord, **shard(0)):
        pass
    assert len(zero.requests(SYNC)) == 2


async def test_a_game_is_served_by_whichever_process_an_interaction_or_deadline_reaches(tmp_path, cat, monkeypatch):
    """The guild is on shard 1; DMs come to shard 0, whose process never saw the guild."""
    async with Table(tmp_path, cat, **shard(1)) as guild_side, \
            Table(tmp_path, cat, wire=guild_side.discord, **shard(0)) as dm_side:
        assert guild_side.holds_guild and not dm_side.holds_guild
        assert dm_side.bot.get_channel(CHANNEL) is None
        ann, bo = guild_side.player(11, "Ann"), guild_side.player(22, "Bo", dms=False)
        await guild_side.command(ann, "game new", scenario="yard", side="US")
        await guild_side.press(bo, guild_side.public()[-1], "fp:j:1:DE")
        await guild_side.command(ann, "game start")
        public_before = len(guild_side.public())
        fetched_before = len(dm_side.requests(FETCH))

        prompt = dm_side.prompt(ann)  # her placement menu, in her DMs: pressed there, served by shard 0
        menu = prompt.custom_ids[0]
        asked = await dm_side.press(ann, prompt, menu, [prompt.values(menu)[0]])
        assert asked.text.startswith("Done:"), asked.text
        assert "Ann places" in guild_side.public()[-1].content, "the channel it never cached hears of it"
        assert [r.params["channel_id"] for r in dm_side.requests(FETCH)[fetched_before:]].count(str(CHANNEL)) >= 1

        hand = await dm_side.command(ann, "hand", channel=None)  # a command typed in her DMs
        assert hand.ephemeral and "went wrong" not in hand.text

        in_thread = len([m for m in guild_side.private(bo) if m.channel_id in guild_side.threads_of(bo)])
        later = datetime.now(UTC) + timedelta(hours=13)
        tick = dm_side.service.tick
        monkeypatch.setattr(dm_side.service, "tick", lambda: tick(later))
        await dm_side.tick()  # Bo's placement is half way to its deadline
        reminder = guild_side.public()[-1]
        assert len(guild_side.public()) > public_before + 1 and "Reminder" in reminder.content
        (thread,) = guild_side.threads_of(bo)
        assert len([m for m in guild_side.private(bo) if m.channel_id == thread]) > in_thread
        assert guild_side.prompt(bo).channel_id == thread, "his prompt again, in his thread"
        assert not dm_side.public(guild_side.settings.fieldpost_error_channel)
