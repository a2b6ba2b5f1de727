"""`FieldpostBot`: the discord.py client that carries the commands, buttons and deadlines.

Intents: only `guilds` (not privileged): slash commands and buttons arrive as interactions
whatever the intents, DMs are sent without any, and nothing reads message content or members.
"""
from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import tasks

from bot.app import GameService, Replies
from bot.app.campaign import CampaignService
from bot.config import Settings
from bot.discord.adapter import Adapter
from bot.discord.campaign_cog import campaign_group
from bot.discord.commands import commands
from bot.discord.components import ITEMS
from bot.discord.courier import Courier
from bot.discord.error_report import ErrorReporter
from bot.discord.field_cog import field_group
from bot.discord.roll_cog import roll_group
from bot.discord.vehicle_cog import vehicle_group
from bot.store import SqliteStore, StoreUnavailable, open_store
from engine import Catalog, ContentError, load_catalog

if TYPE_CHECKING:
    from bot.store.postgres import PostgresStore

log = logging.getLogger(__name__)

DEADLINE_CHECK_SECONDS = 60


def intents() -> discord.Intents:
    wanted = discord.Intents.none()
    wanted.guilds = True  # channels and threads in the cache; not a privileged intent
    return wanted


def build_tree(client: discord.Client, adapter: Adapter, campaigns: CampaignService | None = None
               ) -> app_commands.CommandTree:
    """The command tree: Fieldpost's commands, /vehicle, the /campaign group and the /roll group.
    Whatever a callback lets through goes to the adapter's error reporter (bot.discord.error_report)."""
    tree = app_commands.CommandTree(client)
    tree.error(adapter.errors.on_tree_error)
    for command in commands(adapter):
        tree.add_command(command)
    tree.add_command(vehicle_group(adapter))
    tree.add_command(field_group(adapter))  # issue 9: the battlefield's lines
    if campaigns is not None:
        tree.add_command(campaign_group(campaigns, adapter.service, adapter.courier))
    tree.add_command(roll_group())
    return tree


class FieldpostBot(discord.Client):
    def __init__(self, settings: Settings, catalog: Catalog | None = None,
                 seed: Callable[[], int] | None = None) -> None:
        super().__init__(intents=intents(), allowed_mentions=discord.AllowedMentions(
            everyone=False, roles=False, users=True))
        self.settings = settings
        self._catalog = catalog
        self._seed = seed  # new games' seeds (tests fix it); random by default
        self.store: SqliteStore | PostgresStore | None = None
        self.adapter: Adapter | None = None
        self.tree: app_commands.CommandTree | None = None
        self._resumed = False

    async def setup_hook(self) -> None:
        self.store = await open_store(self.settings.fieldpost_db).open()
        catalog = self._catalog or load_catalog()
        service = GameService(self.store, catalog, **({"seed": self._seed} if self._seed else {}))
        try:  # finished campaign games go back to their campaign
            service.campaigns = CampaignService(self.store, catalog)
        except ContentError:
            log.exception("the campaign definitions do not fit this catalogue: /campaign is off")
        self.adapter = Adapter(service, Courier(self, service),
                               ErrorReporter(self, self.settings.fieldpost_error_channel))
        self.tree = build_tree(self, self.adapter, service.campaigns)
        self.add_dynamic_items(*ITEMS)  # buttons of messages sent before a restart still work
        guild = self.settings.fieldpost_dev_guild
        if guild:
            target = discord.Object(id=guild)
            self.tree.copy_global_to(guild=target)
            synced = await self.tree.sync(guild=target)
            log.info("synced %d commands to the development guild", len(synced))
        else:
            synced = await self.tree.sync()
            log.info("synced %d global commands (they may take up to an hour to appear)", len(synced))
        self.deadlines.start()

    async def on_ready(self) -> None:
        log.info("connected as %s to %d servers", self.user, len(self.guilds))
        if self._resumed:
            return
        self._resumed = True
        await self._resume()

    async def _resume(self) -> None:
        """The restart's re-prompts, each game's delivered as soon as the service gives it (it
        paces them; on_ready runs as a task of its own, so commands are answered meanwhile). A
        failure is reported and ends them: the games not reached are asked at the next start."""
        what = "the restart's re-prompts"
        try:
            async for replies in self.adapter.service.resume(rate=self.settings.fieldpost_resume_rate):
                await self.adapter.deliver(replies, what=what)
        except StoreUnavailable as exc:
            await self.adapter.errors.unavailable(exc, what=what)
        except Exception as exc:  # noqa: BLE001 (reported with an id)
            await self.adapter.errors.unexpected(exc, what=what)

    @tasks.loop(seconds=DEADLINE_CHECK_SECONDS)
    async def deadlines(self) -> None:
        await self._each(self.adapter.service.tick, "the deadline check")

    async def _each(self, work: Callable[[], Awaitable[list[Replies]]], what: str) -> None:
        """Deliver every Replies `work()` returns; a failure is reported (error_report) and never
        stops the loop (a tasks.loop that raises stops for good)."""
        errors = self.adapter.errors
        try:
            due = await work()
        except StoreUnavailable as exc:
            await errors.unavailable(exc, what=what)
            return
        except Exception as exc:  # noqa: BLE001 (reported with an id; tried again next minute)
            await errors.unexpected(exc, what=what)
            return
        for replies in due:
            await self.adapter.deliver(replies, what=what)

    @deadlines.before_loop
    async def _wait_until_ready(self) -> None:
        await self.wait_until_ready()

    async def close(self) -> None:
        self.deadlines.cancel()
        await super().close()
        if self.store is not None:
            await self.store.close()
