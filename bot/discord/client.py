"""`FieldpostBot`: the discord.py client that carries the commands, buttons and deadlines.

Intents: only `guilds` (not privileged): slash commands and buttons arrive as interactions
whatever the intents, DMs are sent without any, and nothing reads message content or members.

Sharded (FIELDPOST_SHARDS, FIELDPOST_SHARD_IDS) it is a `ShardedFieldpostBot`, discord.py's
AutoShardedClient running this process's shards; `fieldpost_bot(settings)` picks the class.
Any process may serve any game (DMs come to shard 0, deadlines fire wherever they are
claimed), so nothing here relies on a game's channel being in this process's cache: the
courier fetches what it does not hold.
"""
from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import tasks

from bot import metrics
from bot.app import Counters, GameService, Replies
from bot.app.campaign import CampaignService
from bot.config import Settings
from bot.discord.adapter import Adapter
from bot.discord.campaign_cog import campaign_group
from bot.discord.commands import commands
from bot.discord.components import ITEMS
from bot.discord.courier import Courier
from bot.discord.error_report import ErrorReporter
from bot.discord.field_cog import field_group
from bot.discord.health import HealthEndpoint
from bot.discord.help_cog import help_commands
from bot.discord.measured import MeasuredAdapter
from bot.discord.roll_cog import roll_group
from bot.discord.server_cog import server_groups
from bot.discord.vehicle_cog import vehicle_group
from bot.render.service import RenderService
from bot.store import SqliteStore, StoreUnavailable, open_store
from engine import Catalog, ContentError, load_catalog

if TYPE_CHECKING:
    from bot.store.postgres import PostgresStore

log = logging.getLogger(__name__)

DEADLINE_CHECK_SECONDS = 60
TREE_SCOPE = "bot"  # the store setting tree_hash:<guild id or "global"> of scope "bot"


def intents() -> discord.Intents:
    wanted = discord.Intents.none()
    wanted.guilds = True  # channels and threads in the cache; not a privileged intent
    return wanted


def build_tree(client: discord.Client, adapter: Adapter, campaigns: CampaignService | None = None
               ) -> app_commands.CommandTree:
    """The command tree: Fieldpost's commands, /vehicle, /field, /help, /rules, /card, /me, /stats,
    /settings, the /campaign group and the /roll group.
    Whatever a callback lets through goes to the adapter's error reporter (bot.discord.error_report)."""
    tree = app_commands.CommandTree(client)
    tree.error(adapter.errors.on_tree_error)
    for command in commands(adapter):
        tree.add_command(command)
    tree.add_command(vehicle_group(adapter))
    tree.add_command(field_group(adapter))  # issue 9: the battlefield's lines
    for command in [*help_commands(adapter), *server_groups(adapter)]:  # issue 16
        tree.add_command(command)
    if campaigns is not None:
        tree.add_command(campaign_group(campaigns, adapter.service, adapter.courier))
    tree.add_command(roll_group())
    return tree


def tree_digest(tree: app_commands.CommandTree, guild: discord.abc.Snowflake | None = None) -> str:
    """A stable hash of the payload a sync of `guild`'s (or the global) commands would send."""
    payload = sorted((c.to_dict(tree) for c in tree.get_commands(guild=guild)),
                     key=lambda c: (c.get("type", 1), c["name"]))
    return hashlib.sha256(json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


class FieldpostBot(discord.Client):
    def __init__(self, settings: Settings, catalog: Catalog | None = None,
                 seed: Callable[[], int] | None = None) -> None:
        shards = {}
        if isinstance(self, discord.AutoShardedClient):
            ids = settings.fieldpost_shard_ids
            shards = {"shard_count": settings.fieldpost_shards, "shard_ids": list(ids) if ids is not None else None}
        super().__init__(intents=intents(), allowed_mentions=discord.AllowedMentions(
            everyone=False, roles=False, users=True), **shards)
        self.settings = settings
        self._catalog = catalog
        self._seed = seed  # new games' seeds (tests fix it); random by default
        self.store: SqliteStore | PostgresStore | None = None
        self.adapter: Adapter | None = None
        self.tree: app_commands.CommandTree | None = None
        self.renders: RenderService | None = None
        self.health: HealthEndpoint | None = None
        self._resumed = False

    @property
    def own_shards(self) -> list[int] | None:
        """The shards this process runs (None: unsharded)."""
        count, ids = self.settings.fieldpost_shards, self.settings.fieldpost_shard_ids
        if count is None:
            return None
        return list(ids) if ids is not None else list(range(count))

    async def setup_hook(self) -> None:
        self.store = await open_store(self.settings.fieldpost_db).open()
        catalog = self._catalog or load_catalog()
        counted = Counters(deadline_fired=metrics.deadline_fired, conflict=metrics.store_conflict,
                           retry=metrics.store_retry)
        service = GameService(self.store, catalog, counters=counted,
                              **({"seed": self._seed} if self._seed else {}))
        try:  # finished campaign games go back to their campaign
            service.campaigns = CampaignService(self.store, catalog)
        except ContentError:
            log.exception("the campaign definitions do not fit this catalogue: /campaign is off")
        self.renders = RenderService(processes=self.settings.fieldpost_render_processes)
        self.adapter = MeasuredAdapter(service, Courier(self, service, renders=self.renders),
                                       ErrorReporter(self, self.settings.fieldpost_error_channel))
        self.tree = build_tree(self, self.adapter, service.campaigns)
        self.add_dynamic_items(*ITEMS)  # buttons of messages sent before a restart still work
        if self.settings.fieldpost_http_port is not None:  # up before the gateway: 503 until ready
            self.health = HealthEndpoint(self, self.store, host=self.settings.fieldpost_http_host,
                                         port=self.settings.fieldpost_http_port, shard_ids=self.own_shards)
            await self.health.start()
        await self.sync_commands()
        self.deadlines.start()

    async def sync_commands(self) -> None:
        """Shard 0's process (or the one unsharded process) syncs the command tree, and only when
        its payload changed since the last sync: its hash is kept in the store (setting
        tree_hash:<guild or global> of scope "bot"), so N processes starting, or one restarting,
        sync at most once. Every process copies the commands to the development guild, which
        is where their interactions come from."""
        guild = self.settings.fieldpost_dev_guild
        target = discord.Object(id=guild) if guild else None
        if target is not None:
            self.tree.copy_global_to(guild=target)
        if not self.settings.syncs_commands:
            log.info("the process running shard 0 syncs the commands; this one runs shards %s", self.own_shards)
            return
        key = f"tree_hash:{guild or 'global'}"
        digest = tree_digest(self.tree, target)
        if await self.store.get_setting(TREE_SCOPE, key) == digest:
            log.info("the commands are as last synced: no sync")
            return
        synced = await self.tree.sync(guild=target)
        await self.store.set_setting(TREE_SCOPE, key, digest)
        if target is not None:
            log.info("synced %d commands to the development guild", len(synced))
        else:
            log.info("synced %d global commands (they may take up to an hour to appear)", len(synced))

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
        if self.health is not None:
            await self.health.stop()
        if self.renders is not None:  # waits for a render under way; the workers exit
            await asyncio.to_thread(self.renders.close)
        if self.store is not None:
            await self.store.close()


class ShardedFieldpostBot(FieldpostBot, discord.AutoShardedClient):
    """The same bot on this process's shards of the deployment's FIELDPOST_SHARDS."""


def fieldpost_bot(settings: Settings, catalog: Catalog | None = None,
                  seed: Callable[[], int] | None = None) -> FieldpostBot:
    """The bot these settings ask for: sharded when FIELDPOST_SHARDS is set."""
    return (ShardedFieldpostBot if settings.sharded else FieldpostBot)(settings, catalog, seed)
