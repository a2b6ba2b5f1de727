"""The courier: turns Replies into Discord messages.

- the caller's own answer: ephemeral (the interaction's followup);
- public lines and pictures: the game's channel (or its thread), mentioning whom the game
  waits for, and never anything else (no @everyone, no roles);
- private news and prompts: a DM, sent straight to the DM channel whose id the store keeps
  (setting `dm_channel` of scope `user:<id>`: one request a message, from any process; a
  stored id Discord no longer knows is replaced by opening the DM again); if DMs are closed, the
  player's private thread in the game channel (looked up by stored id, then by name, then among
  archived threads, and only then created: AsyncTI4 #264/#4004), and the player is told once
  how to open his DMs;
- a new game's Join buttons: the message is remembered in the store (setting `lobby_message`
  of scope `game:<id>`: [channel id, message id]), and once the game has left its lobby
  (started, abandoned) the buttons are taken off it, whichever process or restart sees it first;
- a game's watchers get its public lines and public pictures by DM, and a quiet game's players
  too, instead of the channel (`GameService.audience`);
- every time a text names (bot/app's time tokens) becomes a Discord timestamp, absolute and
  relative (`<t:UNIX:f> (<t:UNIX:R>)`), so each reader sees his own time zone; a user token
  becomes a mention (which pings nobody: mentions are off but in the channel's waiting line);
- files for the caller (a game record) go with his ephemeral answer.

Nothing secret is logged: log lines name games, seats and kinds, never texts.
"""
from __future__ import annotations

import io
import logging
from collections import defaultdict
from datetime import datetime
from typing import Any

import discord
from discord.utils import format_dt

from bot.app import GameService, ImageRequest, Private, Prompt, Replies
from bot.app.tokens import render
from bot.app.watching import Audience
from bot.discord.components import join_view, prompt_view
from bot.discord.text import FILES_PER_MESSAGE, chunks
from bot.store import GameNotFound, GameStatus

log = logging.getLogger(__name__)

PUBLIC_MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)
NO_MENTIONS = discord.AllowedMentions.none()

DM_HINT = ("I could not send you a direct message, so your cards come here, in a private thread "
           "only you and the bot can read. To get them by DM instead: right-click the server "
           "icon → Privacy Settings → turn on Direct Messages (or allow DMs from server members).")
DM_FORBIDDEN = 50007  # Discord: cannot send messages to this user
LOBBY_MESSAGE = "lobby_message"  # setting of scope game:<id>: [channel id, message id] of its Join buttons
DM_CHANNEL = "dm_channel"  # setting of scope user:<id>: the id of the bot's DM channel with him


def _renderer():
    """The picture service if bot.render is installed and working, else None (text only)."""
    try:
        from bot.render.service import RenderService
    except Exception:  # noqa: BLE001 (a missing or broken renderer only costs pictures)
        log.warning("bot.render is not available; the bot posts text without pictures")
        return None
    return RenderService()


def mention(user_id: int, name: str) -> str:
    return f"<@{user_id}>" if user_id else name


def moment(t: datetime) -> str:
    """A time as Discord shows it to each reader in his own zone: the date and time, and how
    long from now."""
    return f"{format_dt(t, 'f')} ({format_dt(t, 'R')})"


def shown(text: str) -> str:
    """A use-case's text as Discord shows it: its time and user tokens rendered."""
    return render(text, moment, lambda user_id: f"<@{user_id}>")


class Courier:
    def __init__(self, client: discord.Client, service: GameService, renders: Any = "auto") -> None:
        self.client = client
        self.service = service
        self.store = service.store
        self.renders = _renderer() if renders == "auto" else renders
        self._dm_closed: set[int] = set()  # users whose DMs failed since this process started

    # ------------------------------------------------------------------ the whole delivery

    async def deliver(self, r: Replies, interaction: discord.Interaction | None = None) -> None:
        hint_for: set[int] = set()
        if interaction is not None:
            await self.answer(interaction, r)
        audience = await self.audience(r)
        if not audience.quiet or r.join_sides:
            await self.post_public(r)
        by_user: dict[int, list[Private | Prompt]] = defaultdict(list)
        public = self.public_copy(r)
        if public is not None:  # watchers, and a quiet game's players: the table's view only
            for user_id in (*audience.players, *audience.watchers):
                by_user[user_id].append(Private(user_id, None, public.text, public.images))
        for item in [*r.private, *r.prompts]:
            by_user[item.user_id].append(item)
        for user_id, items in by_user.items():
            if await self.send_private(r.game_id, user_id, items) == "thread":
                hint_for.add(user_id)
        if interaction is not None and interaction.user.id in hint_for:
            await self.hint_once(interaction)
        if r.ended and r.game_id is not None:
            await self.archive_threads(r.game_id)
        if r.game_id is not None:
            await self.sweep_lobby(r.game_id)

    async def audience(self, r: Replies) -> Audience:
        """Whom this Replies' public part goes to by DM besides (or, quiet, instead of) the channel."""
        if r.game_id is None or not (r.public or r.waiting or r.images):
            return Audience()
        return await self.service.audience(r.game_id)

    @staticmethod
    def public_copy(r: Replies) -> Private | None:
        """The public lines and public pictures as one private message: what a watcher reads.
        Only the table's part: never a Private or a Prompt of the Replies."""
        text = r.public_text(mention)
        images = tuple(i for i in r.images if i.public)
        if not text and not images:
            return None
        return Private(0, None, text or "The board:", images)

    async def answer(self, interaction: discord.Interaction, r: Replies) -> None:
        """The caller's own reply: ephemeral text, pictures and files (after a deferred response)."""
        files = [f for f in [await self.file(i) for i in r.ephemeral_images] if f]
        files = [discord.File(io.BytesIO(a.data), filename=a.name) for a in r.attachments] + files
        text = shown("\n".join(r.ephemeral)) or ("Done." if not files else "")
        parts = chunks(text) or [""]
        for n, part in enumerate(parts):
            last = n == len(parts) - 1
            kwargs: dict[str, Any] = {"ephemeral": True, "allowed_mentions": NO_MENTIONS}
            if last and files:
                kwargs["files"] = files[:FILES_PER_MESSAGE]
            if part or files:
                await interaction.followup.send(part or "\u200b", **kwargs)

    # ------------------------------------------------------------------ public

    async def channel(self, channel_id: int | None):
        if channel_id is None:
            return None
        found = self.client.get_channel(channel_id)
        if found is not None:
            return found
        try:
            return await self.client.fetch_channel(channel_id)
        except discord.HTTPException:
            log.warning("channel %s cannot be reached", channel_id)
            return None

    async def post_public(self, r: Replies) -> None:
        text = shown(r.public_text(mention))
        if not text and not r.images and not r.join_sides:
            return
        target = await self.channel(r.channel_id)
        if target is None:
            return
        files = [f for f in [await self.file(i) for i in r.images if i.public] if f]
        parts = chunks(text) or ([""] if files or r.join_sides else [])
        for n, part in enumerate(parts):
            kwargs: dict[str, Any] = {"allowed_mentions": PUBLIC_MENTIONS}
            lobby = n == len(parts) - 1 and bool(r.join_sides) and r.game_id is not None
            if n == len(parts) - 1 and files:
                kwargs["files"] = files[:FILES_PER_MESSAGE]
            if lobby:
                kwargs["view"] = join_view(r.game_id, r.join_sides)
            try:
                sent = await target.send(part or "\u200b", **kwargs)
            except discord.HTTPException as exc:
                log.warning("game %s: public message not sent (%s)", r.game_id, exc.status)
                return
            if lobby:
                await self.store.set_setting(f"game:{r.game_id}", LOBBY_MESSAGE, [target.id, sent.id])

    # ------------------------------------------------------------------ the lobby's Join buttons

    async def sweep_lobby(self, game_id: int) -> None:
        """Once the game has left its lobby, its Join buttons go (looked at only while the store
        keeps a lobby message for it)."""
        if await self.store.get_setting(f"game:{game_id}", LOBBY_MESSAGE) is None:
            return
        if await self.lobby_closed(game_id):
            await self.close_lobby(game_id)

    async def lobby_closed(self, game_id: int) -> bool:
        """The game has left its lobby (started, abandoned, gone)."""
        try:
            game = await self.store.load_game(game_id)
        except GameNotFound:
            return True
        return game.status != GameStatus.LOBBY

    async def close_lobby(self, game_id: int, pressed: discord.Message | None = None) -> None:
        """Take the Join buttons off the lobby message the store remembers (and off `pressed`,
        a message whose stale Join button was just pressed), then forget it."""
        kept = await self.store.get_setting(f"game:{game_id}", LOBBY_MESSAGE)
        targets = []
        if kept is not None:
            channel = await self.channel(int(kept[0]))
            if channel is not None:
                targets.append(channel.get_partial_message(int(kept[1])))
        if pressed is not None and (kept is None or pressed.id != int(kept[1])):
            targets.append(pressed)
        for message in targets:
            try:
                await message.edit(view=None)
            except discord.HTTPException as exc:  # deleted meanwhile: nothing left to close
                log.info("game %s: lobby message not edited (%s)", game_id, exc.status)
        if kept is not None:
            await self.store.delete_setting(f"game:{game_id}", LOBBY_MESSAGE)

    async def file(self, request: ImageRequest) -> discord.File | None:
        if self.renders is None:
            return None
        kind = "board_private" if request.kind == "board" and request.seat is not None else request.kind
        kw = {"serial": request.serial} if request.serial is not None else {}
        if request.plate is not None:
            kw["plate"] = request.plate
        try:
            png = await self.renders.render(request.view, kind, **kw)
        except Exception:  # noqa: BLE001 (the service should never raise; pictures are optional)
            log.exception("render of %s failed", kind)
            return None
        if not png:
            return None
        suffix = "jpg" if png[:2] == b"\xff\xd8" else "png"
        name = f"panel-{request.plate}" if request.plate is not None else kind
        return discord.File(io.BytesIO(png), filename=f"{name}.{suffix}", description=request.caption[:1000] or None)

    # ------------------------------------------------------------------ private

    async def send_private(self, game_id: int | None, user_id: int, items: list[Private | Prompt]) -> str | None:
        """Send one player's news and prompts; returns "dm", "thread" or None (undelivered)."""
        messages = []
        for item in items:
            files = [f for f in [await self.file(i) for i in getattr(item, "images", ())] if f]
            view = prompt_view(item) if isinstance(item, Prompt) else None
            head = f"**Game #{game_id}** — " if game_id is not None else ""
            for n, part in enumerate(p := chunks(shown(head + item.text))):
                last = n == len(p) - 1
                messages.append((part, view if last else None, files if last else []))
        if user_id not in self._dm_closed:
            try:
                await self.send_dm(user_id, messages)
                return "dm"
            except discord.Forbidden:
                self._dm_closed.add(user_id)
                log.info("game %s: DMs closed for a player; using a private thread", game_id)
            except discord.HTTPException as exc:
                log.warning("game %s: DM failed (%s); using a private thread", game_id, exc.status)
        if game_id is None:
            return None
        thread = await self.private_thread(game_id, user_id)
        if thread is None:
            log.warning("game %s: no way to reach a player privately", game_id)
            return None
        first = not await self.store.get_setting(f"user:{user_id}", "dm_hint")
        try:
            if first:
                await thread.send(f"<@{user_id}> {DM_HINT}", allowed_mentions=PUBLIC_MENTIONS)
                await self.store.set_setting(f"user:{user_id}", "dm_hint", True)
            for text, view, files in messages:
                await thread.send(f"<@{user_id}> {text}"[:2000], **self._kw(view, files, PUBLIC_MENTIONS))
        except discord.HTTPException as exc:
            log.warning("game %s: private thread message failed (%s)", game_id, exc.status)
            return None
        return "thread"

    async def send_dm(self, user_id: int, messages: list[tuple[str, Any, list]]) -> None:
        """Send `messages` by DM: straight to the stored DM channel (one request each); if Discord
        no longer knows it or refuses it there, the DM is opened again and its id stored."""
        scope = f"user:{user_id}"
        stored = await self.store.get_setting(scope, DM_CHANNEL)
        if stored is not None:
            channel = self.client.get_partial_messageable(int(stored), type=discord.ChannelType.private)
            sent = 0
            try:
                for text, view, files in messages:
                    await channel.send(text, **self._kw(view, files))
                    sent += 1
                return
            except discord.HTTPException as exc:
                # closed DMs stay closed in a new DM; a failure after the first message is no stale id
                if sent or exc.status not in (403, 404) or exc.code == DM_FORBIDDEN:
                    raise
                log.info("a stored DM channel was refused (%s); opening the DM again", exc.status)
        channel = await self.client.create_dm(discord.Object(id=user_id))
        if channel.id != stored:
            await self.store.set_setting(scope, DM_CHANNEL, channel.id)
        for text, view, files in messages:
            await channel.send(text, **self._kw(view, files))

    @staticmethod
    def _kw(view, files, mentions=NO_MENTIONS) -> dict[str, Any]:
        kw: dict[str, Any] = {"allowed_mentions": mentions}
        if view is not None:
            kw["view"] = view
        if files:
            kw["files"] = files[:FILES_PER_MESSAGE]
        return kw

    async def hint_once(self, interaction: discord.Interaction) -> None:
        """Tell the caller, once, ephemerally, why his secrets went to a private thread."""
        scope = f"user:{interaction.user.id}"
        if await self.store.get_setting(scope, "dm_hint_told"):
            return
        await self.store.set_setting(scope, "dm_hint_told", True)
        await interaction.followup.send(DM_HINT, ephemeral=True)

    async def private_thread(self, game_id: int, user_id: int):
        """The player's private thread in the game's channel: by stored id, by name, among
        archived threads, and only then a new one (invitable=False: nobody else can be added)."""
        stored = (await self.store.private_channels(game_id)).get(user_id)
        if stored is not None:
            thread = await self.channel(stored)
            if thread is not None:
                return thread
        game = await self.store.load_game(game_id)
        home = await self.channel(game.channel_id)
        if home is None or not hasattr(home, "create_thread"):
            return None
        seat = next((s for s in game.seats if s.user_id == user_id), None)
        name = f"game {game_id} · {seat.display_name if seat else user_id} · private"[:100]
        thread = next((t for t in getattr(home, "threads", []) if t.name == name), None)
        if thread is None:
            try:
                async for old in home.archived_threads(private=True, limit=100):
                    if old.name == name:
                        thread = old
                        break
            except discord.HTTPException:
                pass  # needs Manage Threads; fall through to a new thread
        if thread is None:
            try:
                thread = await home.create_thread(name=name, type=discord.ChannelType.private_thread,
                                                  invitable=False, auto_archive_duration=10080)
                await thread.add_user(discord.Object(id=user_id))
            except discord.HTTPException as exc:
                log.warning("game %s: private thread not created (%s)", game_id, exc.status)
                return None
        await self.store.set_private_channel(game_id, user_id, thread.id)
        await self.store.set_setting(f"channel:{thread.id}", "game", game_id)
        return thread

    async def archive_threads(self, game_id: int) -> None:
        """A finished game's private threads are archived (a guild holds ~1,000 active threads)."""
        for thread_id in (await self.store.private_channels(game_id)).values():
            thread = await self.channel(thread_id)
            if thread is None or not hasattr(thread, "edit"):
                continue
            try:
                await thread.edit(archived=True, locked=True)
            except discord.HTTPException as exc:
                log.warning("game %s: thread not archived (%s)", game_id, exc.status)
