"""Offline Discord: spec'd mocks of interactions, users, channels and threads around a real
service on a real SQLite file. Nothing here talks to Discord."""
from __future__ import annotations

import contextlib
import functools
import itertools
import types
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from unittest.mock import AsyncMock, MagicMock

import discord
import pytest
from discord import app_commands

from bot.app import GameService
from bot.app.campaign import CampaignService
from bot.discord.adapter import Adapter
from bot.discord.client import build_tree, intents
from bot.discord.courier import Courier
from bot.store import SqliteStore
from engine import load_catalog
from tests.discord.gateway import Table

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "rules"
GUILD = 900
CHANNEL = 500

_ids = itertools.count(10_000)


def forbidden() -> discord.Forbidden:
    response = MagicMock(status=403, reason="Forbidden")
    return discord.Forbidden(response, {"code": 50007, "message": "Cannot send messages to this user"})


def user(uid: int, name: str, *, dms: bool = True) -> MagicMock:
    u = MagicMock(spec=discord.User)
    u.id, u.name, u.display_name, u.bot = uid, name.lower(), name, False
    u.send = AsyncMock(side_effect=None if dms else forbidden())
    return u


def messages_in(channel: MagicMock) -> None:
    """`send` answers with a message (with an id), `get_partial_message` hands out the ones a
    test can check edits of (`channel.partial[message_id].edit`)."""
    channel.send = AsyncMock(side_effect=lambda *a, **kw: MagicMock(spec=discord.Message, id=next(_ids)))
    channel.partial = {}

    def partial(message_id: int) -> MagicMock:
        if message_id not in channel.partial:
            m = MagicMock(spec=discord.PartialMessage, id=message_id)
            m.edit = AsyncMock()
            channel.partial[message_id] = m
        return channel.partial[message_id]

    channel.get_partial_message = MagicMock(side_effect=partial)


def thread(name: str, parent) -> MagicMock:
    t = MagicMock(spec=discord.Thread)
    t.id, t.name, t.parent_id, t.parent = next(_ids), name, parent.id, parent
    messages_in(t)
    t.add_user = AsyncMock()
    t.edit = AsyncMock()
    return t


class World:
    """The bits of Discord a test can see: channels, threads, users and what was sent."""

    def __init__(self) -> None:
        self.channels: dict[int, MagicMock] = {}
        self.users: dict[int, MagicMock] = {}
        self.client = MagicMock(spec=discord.Client)
        self.client.get_channel = MagicMock(side_effect=lambda cid: self.channels.get(cid))
        self.client.fetch_channel = AsyncMock(side_effect=self._fetch_channel)
        self.client.get_user = MagicMock(side_effect=lambda uid: self.users.get(uid))
        self.client.fetch_user = AsyncMock(side_effect=lambda uid: self.users[uid])
        # a DM channel's messages land on its user's `send` mock (dms(user) reads them)
        self.dm_channels: dict[int, MagicMock] = {}
        self.client.create_dm = AsyncMock(side_effect=self._open_dm)
        self.client.get_partial_messageable = MagicMock(side_effect=self._partial_messageable)
        self.text_channel(CHANNEL)

    async def _open_dm(self, who) -> MagicMock:
        cid = who.id + 1_000_000
        if cid not in self.dm_channels:
            dm = MagicMock(spec=discord.DMChannel)
            dm.id, dm.send = cid, self.users[who.id].send
            self.dm_channels[cid] = dm
        return self.dm_channels[cid]

    def _partial_messageable(self, cid: int, **kw) -> MagicMock:
        if cid in self.dm_channels:
            return self.dm_channels[cid]
        gone = MagicMock(spec=discord.PartialMessageable)
        gone.id = cid
        gone.send = AsyncMock(side_effect=discord.NotFound(MagicMock(status=404, reason="Not Found"),
                                                           {"code": 10003, "message": "Unknown Channel"}))
        return gone

    async def _fetch_channel(self, cid):
        if cid not in self.channels:
            raise discord.NotFound(MagicMock(status=404, reason="Not Found"), "Unknown Channel")
        return self.channels[cid]

    def text_channel(self, cid: int) -> MagicMock:
        ch = MagicMock(spec=discord.TextChannel)
        ch.id, ch.guild = cid, MagicMock(id=GUILD)
        messages_in(ch)
        ch.threads = []

        async def create_thread(*, name, type=None, invitable=True, auto_archive_duration=None, **kw):
            t = thread(name, ch)
            self.channels[t.id] = t
            ch.threads.append(t)
            return t

        async def no_archived(**kw):
            return
            yield  # an async generator with nothing in it

        ch.create_thread = AsyncMock(side_effect=create_thread)
        ch.archived_threads = MagicMock(side_effect=lambda **kw: no_archived(**kw))
        self.channels[cid] = ch
        return ch

    def add_user(self, uid: int, name: str, *, dms: bool = True) -> MagicMock:
        self.users[uid] = user(uid, name, dms=dms)
        return self.users[uid]

    def interaction(self, who: MagicMock, *, channel: int | None = CHANNEL, organiser: bool = False,
                    options: dict | None = None, message=None) -> MagicMock:
        it = MagicMock(spec=discord.Interaction)
        it.user = who
        it.client = self.client
        it.guild_id = GUILD if channel is not None else None
        it.channel_id = channel if channel is not None else next(_ids)
        it.channel = self.channels.get(channel) if channel is not None else MagicMock(spec=discord.DMChannel)
        it.permissions = discord.Permissions(manage_channels=organiser)
        it.response = MagicMock(spec=discord.InteractionResponse)
        answered = []  # like Discord: an interaction is answered once (defer or a message)

        async def answer(*args, **kwargs) -> None:
            answered.append(True)

        it.response.is_done = MagicMock(side_effect=lambda: bool(answered))
        it.response.defer = AsyncMock(side_effect=answer)
        it.response.send_message = AsyncMock(side_effect=answer)
        it.followup = MagicMock(spec=discord.Webhook)
        it.followup.send = AsyncMock()
        it.namespace = types.SimpleNamespace(**(options or {}))
        it.message = message
        return it

    def public(self, cid: int = CHANNEL) -> list[str]:
        return [c.args[0] if c.args else c.kwargs.get("content") for c in self.channels[cid].send.await_args_list]


def said(it: MagicMock) -> str:
    """Everything the caller was told (all ephemeral)."""
    out = []
    for c in it.followup.send.await_args_list:
        assert c.kwargs.get("ephemeral") is True, "a reply to a command must be ephemeral"
        out.append(c.args[0] if c.args else c.kwargs.get("content", ""))
    return "\n".join(out)


def dms(u: MagicMock) -> list[str]:
    return [c.args[0] for c in u.send.await_args_list]


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    async with SqliteStore(tmp_path / "fieldpost.db") as opened:
        yield opened


@pytest.fixture(scope="session")
def cat():
    return load_catalog(FIXTURE)


@pytest.fixture
async def table(tmp_path: Path, cat) -> AsyncIterator[Table]:
    """The bot on the offline Discord (tests/discord/gateway.py), on the fixture catalogue."""
    async with Table(tmp_path, cat) as t:
        yield t


@pytest.fixture
def world() -> World:
    return World()


@pytest.fixture
def adapter(store, cat, world) -> Adapter:
    service = GameService(store, cat, seed=lambda: 7)
    a = Adapter(service, Courier(world.client, service, renders=None))
    world.client.adapter = a
    return a


class Current:
    """Stands for the object `find()` names at each attribute read: the running test's. What
    the tree's builder reads from it while nothing is wired (at build time) is a stand-in too:
    the adapter's service, courier and errors are given as `parts`, and any other attribute read
    then (`campaigns.review`, kept to be called later) calls the wired object's method of that
    name at each call. So a callback reaches the test's objects, never those of a test before."""

    def __init__(self, find: Callable[[], object | None], **parts: object) -> None:
        self._find, self._parts = find, parts

    def __getattr__(self, name: str):
        if name in self._parts:
            return self._parts[name]
        now = self._find()
        if now is None:  # read while the tree is built
            return functools.partial(_call_wired, self._find, name)
        return getattr(now, name)


def _call_wired(find: Callable[[], object | None], name: str, *args, **kwargs):
    now = find()
    assert now is not None, f"the shared tree called {name} outside a test that wired it"
    return getattr(now, name)(*args, **kwargs)


class CurrentErrors(Current):
    """The error reporter: `tree.error()` takes a coroutine function, so this one is spelled out."""

    async def on_tree_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await _call_wired(self._find, "on_tree_error", interaction, error)


class Wiring:
    """The adapter and campaign service the shared tree's callbacks reach now (`wired`)."""

    adapter: Adapter | None = None
    campaigns: CampaignService | None = None


def _part(name: str) -> Callable[[], object | None]:
    return lambda: getattr(Wiring.adapter, name) if Wiring.adapter is not None else None


@pytest.fixture(scope="session")
def shared_tree() -> app_commands.CommandTree:
    """The command tree as the bot builds it, built once a test process (a build costs about
    0.04 s of CPU, and some 120 tests take a tree): `build_tree` gets stand-ins (`Current`)
    that reach the adapter and campaign service a test wired (`wired`, the `tree` fixture)."""
    adapter = Current(lambda: Wiring.adapter, service=Current(_part("service")), courier=Current(_part("courier")),
                      errors=CurrentErrors(_part("errors")))
    return build_tree(discord.Client(intents=intents()), adapter, Current(lambda: Wiring.campaigns))  # type: ignore[arg-type]


@contextlib.contextmanager
def wired(adapter: Adapter, campaigns: CampaignService | None) -> Iterator[None]:
    """The shared tree's callbacks reach `adapter` and `campaigns` until the block ends."""
    Wiring.adapter, Wiring.campaigns = adapter, campaigns
    try:
        yield
    finally:
        Wiring.adapter = Wiring.campaigns = None


@pytest.fixture
def tree(shared_tree, adapter, store, shipped) -> Iterator[app_commands.CommandTree]:
    """The tree as the bot builds it, with /campaign (its definitions need the shipped catalogue),
    wired to this test's adapter."""
    with wired(adapter, CampaignService(store, shipped)):
        yield shared_tree


def command(tree, path: str):
    """`tree`'s command at "game new" / "hand"."""
    first, *rest = path.split()
    cmd = tree.get_command(first)
    for name in rest:
        cmd = cmd.get_command(name)
    return cmd
