"""The client offline: what setup_hook registers, buttons surviving a restart (a second bot
on the same database routes an old message's button by its custom ID), the deadline loop,
and `fieldpost bot` without a token."""
from __future__ import annotations

import argparse
import logging
import re
from unittest.mock import AsyncMock, patch

import discord
import pytest
from discord import app_commands

from bot.app import Caller, GameService, Where
from bot.config import Settings
from bot.discord import run as bot_run
from bot.discord.client import FieldpostBot
from bot.discord.components import ChoiceSelect
from tests.discord.conftest import CHANNEL, World, said


@pytest.fixture
def settings(tmp_path, monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("FIELDPOST_DB", str(tmp_path / "bot.db"))
    monkeypatch.setenv("FIELDPOST_DEV_GUILD", "4242")
    return Settings()


async def started_bot(settings, cat, *, syncs: bool = True) -> FieldpostBot:
    """The bot's setup hook run; `syncs`: whether it should sync the command tree (a restart
    with the same tree does not)."""
    bot = FieldpostBot(settings, catalog=cat)
    with patch.object(app_commands.CommandTree, "sync", AsyncMock(return_value=[])) as sync, \
            patch.object(type(bot.deadlines), "start") as start:
        await bot.setup_hook()
    if syncs:
        sync.assert_awaited_once()
        assert sync.await_args.kwargs["guild"].id == 4242  # the development guild, at once
    else:
        sync.assert_not_awaited()
    start.assert_called_once()
    return bot


async def test_setup_hook_registers_commands_buttons_and_deadlines(settings, cat):
    bot = await started_bot(settings, cat)
    try:
        names = {c.name for c in bot.tree.get_commands()}
        assert {"game", "act", "plan", "hand", "board", "log", "soldier", "roll"} <= names
        patterns = bot._connection._view_store._dynamic_items
        assert any(p.fullmatch("fp:c:12:1:40:0a1b2c3d") for p in patterns)
        assert any(p.fullmatch("fp:s:12:1:40") for p in patterns)
        assert any(p.fullmatch("fp:j:12:DE") for p in patterns)
        assert bot.intents.value == discord.Intents(guilds=True).value  # nothing privileged
    finally:
        await bot.store.close()


async def test_a_button_from_before_a_restart_still_works(settings, cat):
    first = await started_bot(settings, cat)
    service: GameService = first.adapter.service
    ann, bo = Caller(11, "Ann"), Caller(22, "Bo")
    here = Where(channel_id=CHANNEL, guild_id=900)
    await service.new_game(ann, here, "yard", side="US")
    await service.join(bo, here, "DE")
    start = await service.start(ann, here)
    prompt = next(p for p in start.prompts if p.seat == 0)
    await first.store.close()

    second = await started_bot(settings, cat, syncs=False)  # a new process on the same file, the same tree
    try:
        world = World()
        second.adapter.courier.client = world.client
        world.client.adapter = second.adapter
        it = world.interaction(world.add_user(11, "Ann"))
        custom_id = f"fp:s:{prompt.game_id}:0:{prompt.version}"
        factory, match = next((cls, p.fullmatch(custom_id))
                              for p, cls in second._connection._view_store._dynamic_items.items()
                              if p.fullmatch(custom_id))
        base = discord.ui.Select(custom_id=custom_id, options=[discord.SelectOption(label="x", value="y")])
        item = await factory.from_custom_id(it, base, match)
        assert isinstance(item, ChoiceSelect)
        item.item._values = [prompt.choices[0].stamp]
        await item.callback(it)
        assert "Done: `plan" in said(it)
        assert re.match(r"Ann places \d cards? face down\.", world.public()[-1])
    finally:
        await second.store.close()


async def test_the_deadline_loop_delivers_reminders(settings, cat, monkeypatch):
    bot = await started_bot(settings, cat)
    try:
        sent = []
        monkeypatch.setattr(bot.adapter.service, "tick", AsyncMock(return_value=["r1", "r2"]))
        monkeypatch.setattr(bot.adapter.courier, "deliver", AsyncMock(side_effect=sent.append))
        await bot.deadlines.coro(bot)
        assert sent == ["r1", "r2"]
        monkeypatch.setattr(bot.adapter.service, "tick", AsyncMock(side_effect=RuntimeError("db gone")))
        await bot.deadlines.coro(bot)  # logged; the loop goes on
    finally:
        await bot.store.close()


def test_without_a_token_fieldpost_bot_says_what_to_set(monkeypatch, capsys):
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert bot_run.run(argparse.Namespace()) == 2
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN" in err and "fieldpost play" in err


def test_a_bad_setting_is_named(monkeypatch, capsys):
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("FIELDPOST_DEV_GUILD", "not-a-number")
    assert bot_run.run(argparse.Namespace()) == 2
    assert "FIELDPOST_DEV_GUILD" in capsys.readouterr().err


def test_settings_defaults(monkeypatch):
    for name in ("DISCORD_TOKEN", "FIELDPOST_DB", "FIELDPOST_DEV_GUILD", "FIELDPOST_LOG_LEVEL",
                 "FIELDPOST_ERROR_CHANNEL"):
        monkeypatch.delenv(name, raising=False)
    s = Settings()
    assert s.discord_token is None and str(s.fieldpost_db) == "fieldpost.db"
    assert s.fieldpost_dev_guild is None and s.fieldpost_log_level == "INFO"
    assert s.fieldpost_error_channel is None


def test_the_error_channel_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("FIELDPOST_ERROR_CHANNEL", "123456789012345678")
    assert Settings().fieldpost_error_channel == 123456789012345678
    monkeypatch.setenv("FIELDPOST_ERROR_CHANNEL", " ")
    assert Settings().fieldpost_error_channel is None


def test_debug_logging_never_lets_discord_py_log_message_bodies():
    """At DEBUG discord.py logs each request's body: DMs with hands, ephemeral plans."""
    logger = logging.getLogger("discord")
    before = logger.level
    try:
        bot_run.configure_logging("DEBUG")
        assert not logging.getLogger("discord.http").isEnabledFor(logging.DEBUG)
        assert logging.getLogger("discord.http").isEnabledFor(logging.INFO)
    finally:
        logger.setLevel(before)


def test_fieldpost_bot_is_a_subcommand():
    from bot.cli import build_parser
    args = build_parser().parse_args(["bot"])
    assert args.run is bot_run.run


def test_the_token_never_prints(settings):
    assert "not-a-real-token" not in repr(settings) and "not-a-real-token" not in str(settings)
