"""An offline Discord for tests: the real `FieldpostBot` (its setup hook, command tree, dynamic
items, courier, service and a real SQLite file) with only its HTTP replaced. `Discord` is a
recording fake of Discord's side: it keeps the guild, channels, users, DMs, threads and every
message the bot made, records every request (route, JSON, files) and answers with the payloads
Discord would. Interactions go in as the gateway's INTERACTION_CREATE payloads through
discord.py's own parser (`ConnectionState.parse_interaction_create`), so the tree and the view
store dispatch them exactly as in production. docs/discord.md, "Testing through gateway
payloads", shows how to write such a test.

    async with Table(tmp_path, catalog) as t:
        ann, bo = t.player(11, "Ann"), t.player(22, "Bo", dms=False)
        await t.command(ann, "game new", scenario="yard", side="US")
        await t.press(bo, t.public()[-1], "fp:j:1:DE")
        asked = await t.command(ann, "game start")
        assert "Game #1 begins" in t.public()[-1].content and asked.ephemeral
"""
from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Self

import discord
from discord import app_commands
from discord.http import HTTPClient, Route
from discord.user import ClientUser
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from bot.config import Settings
from bot.discord.client import fieldpost_bot
from engine import Catalog

APPLICATION = 1_100_000_000_000_000_001
BOT = APPLICATION  # a bot user's id is its application's
GUILD = 1_100_000_000_000_000_900
CHANNEL = 1_100_000_000_000_000_500
ERRORS = 1_100_000_000_000_000_501  # the admins' error channel (FIELDPOST_ERROR_CHANNEL)
OWNER = 1_100_000_000_000_000_002

EPHEMERAL = 64  # message flags
LOADING = 128
SETTLE_SECONDS = 60.0  # a dispatched task still running after this is a hang, not slowness

PLAYER = discord.Permissions(view_channel=True, send_messages=True, read_message_history=True,
                             use_application_commands=True, send_messages_in_threads=True)
ORGANISER = PLAYER | discord.Permissions(manage_channels=True)
BOT_PERMISSIONS = PLAYER | discord.Permissions(create_private_threads=True, manage_threads=True,
                                               attach_files=True, embed_links=True)

_TEMPLATE = re.compile(r"{(\w+)}")


def invalid(body: dict[str, Any], files: dict[str, bytes]) -> list[str]:
    """What Discord would refuse in a message body (400, Invalid Form Body): content over 2,000
    characters, more than 5 rows, 5 buttons or 1 menu a row, custom ids over 100, button labels
    over 80, menus outside 1-25 options or with labels, values, descriptions over 100, more
    than 25 suggestions, embeds over 6,000 characters, more than 10 files."""
    bad = []
    if len(body.get("content") or "") > 2000:
        bad.append("content over 2000 characters")
    rows = body.get("components") or []
    if len(rows) > 5:
        bad.append("more than 5 action rows")
    for row in rows:
        items = row.get("components", [])
        menus = [c for c in items if c["type"] != 2]
        if len(items) > 5 or (menus and len(items) > 1):
            bad.append("a row with more than 5 buttons or a menu and more")
        for c in items:
            if not 1 <= len(c.get("custom_id", "x")) <= 100:
                bad.append(f"custom_id of {len(c.get('custom_id', ''))} characters")
            if c["type"] == 2 and len(c.get("label") or "") > 80:
                bad.append("button label over 80 characters")
            if c["type"] == 3:
                options = c.get("options", [])
                if not 1 <= len(options) <= 25:
                    bad.append(f"a menu of {len(options)} options")
                for o in options:
                    if max(len(o["label"]), len(o["value"]), len(o.get("description") or "")) > 100:
                        bad.append("a menu option over 100 characters")
    choices = body.get("choices") or []
    if len(choices) > 25 or any(not 1 <= len(c["name"]) <= 100 or len(str(c["value"])) > 100 for c in choices):
        bad.append("autocomplete over 25 choices or 100 characters")
    embeds = body.get("embeds") or []
    if sum(len(e.get("title", "")) + len(e.get("description", "")) for e in embeds) > 6000:
        bad.append("embeds over 6000 characters")
    if len(files) > 10:
        bad.append("more than 10 files")
    return bad


def _now() -> str:
    return datetime.now(UTC).isoformat()


class _Response:
    """What discord.HTTPException reads of an aiohttp response."""

    def __init__(self, status: int, reason: str) -> None:
        self.status, self.reason = status, reason


def refusal(status: int, code: int, message: str) -> discord.HTTPException:
    """The exception discord.py raises for Discord's answer `status` with JSON error `code`."""
    kind = {403: discord.Forbidden, 404: discord.NotFound}.get(status, discord.HTTPException)
    reason = {403: "Forbidden", 404: "Not Found"}.get(status, "Bad Request")
    return kind(_Response(status, reason), {"code": code, "message": message})


@dataclass
class Request:
    """One HTTP request the bot made: `path` is discord.py's route template, `params` its values."""

    method: str
    path: str
    params: dict[str, str]
    json: Any
    files: dict[str, bytes]
    query: dict[str, Any]

    @property
    def route(self) -> str:
        return f"{self.method} {self.path}"


@dataclass
class Sent:
    """A message as Discord holds it, after any edits. `user_id` is who may read it when only
    one may (an ephemeral reply); `token` the interaction it answered, if any."""

    id: int
    channel_id: int
    payload: dict[str, Any]
    files: dict[str, bytes] = field(default_factory=dict)
    token: str | None = None
    user_id: int | None = None
    edits: int = 0

    @property
    def content(self) -> str:
        return self.payload.get("content") or ""

    @property
    def ephemeral(self) -> bool:
        return bool(self.payload.get("flags", 0) & EPHEMERAL)

    @property
    def components(self) -> list[dict[str, Any]]:
        """The message's components now, each one flat (rows walked)."""
        return [c for row in self.payload.get("components", []) for c in row.get("components", [])]

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.components if "custom_id" in c]

    def values(self, custom_id: str) -> list[str]:
        """The option values of the select `custom_id`."""
        select = next(c for c in self.components if c.get("custom_id") == custom_id)
        return [o["value"] for o in select.get("options", [])]

    def text(self) -> str:
        """Everything a reader sees: content, embeds, button and option labels, file names."""
        parts = [self.content]
        for e in self.payload.get("embeds", []):
            parts += [e.get("title", ""), e.get("description", "")]
            parts += [f"{f.get('name', '')} {f.get('value', '')}" for f in e.get("fields", [])]
        for c in self.components:
            parts += [c.get("label") or "", c.get("placeholder") or ""]
            parts += [f"{o.get('label', '')} {o.get('description') or ''}" for o in c.get("options", [])]
        return "\n".join([*parts, *self.files])


@dataclass
class Asked:
    """One interaction a test sent, and what the bot answered it with."""

    id: int
    token: str
    user_id: int
    callbacks: list[dict[str, Any]] = field(default_factory=list)  # interaction responses, in order
    messages: list[Sent] = field(default_factory=list)  # the original response and followups
    channel_id: int = 0
    message_id: int | None = None  # the message a pressed component sits on
    original: Sent | None = None

    @property
    def text(self) -> str:
        return "\n".join(m.content for m in self.messages)

    @property
    def ephemeral(self) -> bool:
        """Every message of the answer is ephemeral (and there was one)."""
        return bool(self.messages) and all(m.ephemeral for m in self.messages)

    @property
    def choices(self) -> list[dict[str, Any]]:
        """An autocomplete's answer."""
        return next((c["data"]["choices"] for c in self.callbacks if c["type"] == 8), [])


class Discord:
    """Discord's side of the wire: state, a record of requests, and answers like the API's."""

    def __init__(self) -> None:
        self._ids = itertools.count(1_200_000_000_000_000_000)
        self.requests: list[Request] = []
        self.unhandled: list[Request] = []
        self.refused: list[tuple[Request, list[str]]] = []  # bodies Discord would not take
        self.channels: dict[int, dict[str, Any]] = {}
        self.users: dict[int, dict[str, Any]] = {}
        self.closed_dms: set[int] = set()
        self.dm_of: dict[int, int] = {}  # user id -> his DM channel id
        self.thread_members: dict[int, set[int]] = {}
        self.member_roles: dict[int, list[int]] = {}  # user id -> the guild roles he has
        self.member_permissions: dict[int, discord.Permissions] = {}  # one member's own, in the guild
        self.messages: dict[int, Sent] = {}
        self.asked: dict[str, Asked] = {}  # interaction token -> the exchange
        self.commands: dict[str, int] = {}  # registered command name -> id
        self.on_thread_created: Callable[[dict[str, Any]], None] | None = None
        self.bot_user = {"id": str(BOT), "username": "fieldpost", "discriminator": "0", "global_name": None,
                         "avatar": None, "bot": True, "public_flags": 0, "flags": 0}
        self.guild_channel(CHANNEL, "farmyard")
        self.guild_channel(ERRORS, "fieldpost-errors")

    def next_id(self) -> int:
        return next(self._ids)

    # ------------------------------------------------------------------ the world

    def guild_channel(self, cid: int, name: str) -> dict[str, Any]:
        self.channels[cid] = {"id": str(cid), "type": 0, "guild_id": str(GUILD), "name": name, "position": 0,
                              "permission_overwrites": [], "nsfw": False, "parent_id": None, "topic": None,
                              "last_message_id": None, "rate_limit_per_user": 0, "flags": 0}
        return self.channels[cid]

    def user(self, uid: int, name: str, *, dms: bool = True) -> dict[str, Any]:
        self.users[uid] = {"id": str(uid), "username": name.lower(), "discriminator": "0", "global_name": name,
                           "avatar": None, "bot": False, "public_flags": 0}
        if not dms:
            self.closed_dms.add(uid)
        return self.users[uid]

    def member(self, uid: int, permissions: discord.Permissions) -> dict[str, Any]:
        roles = [str(r) for r in self.member_roles.get(uid, [])]
        return {"user": self.users[uid], "roles": roles, "joined_at": _now(), "deaf": False, "mute": False,
                "flags": 0, "pending": False, "nick": None, "avatar": None, "permissions": str(permissions.value)}

    def guild_payload(self) -> dict[str, Any]:
        """GUILD_CREATE as the gateway sends it to a bot with the guilds intent."""
        everyone = {"id": str(GUILD), "name": "@everyone", "permissions": str(PLAYER.value), "position": 0,
                    "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0}
        me = {"user": self.bot_user, "roles": [], "joined_at": _now(), "deaf": False, "mute": False,
              "flags": 0, "pending": False, "nick": None, "avatar": None}
        return {"id": str(GUILD), "name": "Fieldpost test guild", "icon": None, "splash": None,
                "discovery_splash": None, "owner_id": str(OWNER), "afk_channel_id": None, "afk_timeout": 300,
                "verification_level": 0, "default_message_notifications": 0, "explicit_content_filter": 0,
                "roles": [everyone], "emojis": [], "stickers": [], "features": [], "mfa_level": 0,
                "application_id": None, "system_channel_id": None, "system_channel_flags": 0,
                "rules_channel_id": None, "vanity_url_code": None, "description": None, "banner": None,
                "premium_tier": 0, "preferred_locale": "en-US", "public_updates_channel_id": None,
                "nsfw_level": 0, "premium_progress_bar_enabled": False, "unavailable": False,
                "member_count": 1, "large": False, "joined_at": _now(),
                "channels": [c for c in self.channels.values() if c["type"] == 0],
                "threads": [], "members": [me], "voice_states": [], "presences": [], "stage_instances": [],
                "guild_scheduled_events": [], "soundboard_sounds": []}

    def channel_of(self, cid: int) -> dict[str, Any]:
        return self.channels[cid]

    def message_payload(self, mid: int, cid: int, body: dict[str, Any], files: dict[str, bytes], *,
                        flags: int = 0, interaction: bool = False) -> dict[str, Any]:
        channel = self.channels[cid]
        attachments = [{"id": str(self.next_id()), "filename": name, "size": len(data),
                        "url": f"https://cdn.discordapp.com/attachments/{cid}/{mid}/{name}",
                        "proxy_url": f"https://media.discordapp.net/attachments/{cid}/{mid}/{name}"}
                       for name, data in files.items()]
        payload = {"id": str(mid), "channel_id": str(cid), "author": self.bot_user,
                   "content": body.get("content") or "", "timestamp": _now(), "edited_timestamp": None,
                   "tts": bool(body.get("tts")), "mention_everyone": False, "mentions": [], "mention_roles": [],
                   "attachments": attachments, "embeds": body.get("embeds") or [], "pinned": False,
                   "type": 20 if interaction else 0, "flags": flags | (body.get("flags") or 0),
                   "components": body.get("components") or []}
        if "guild_id" in channel:
            payload["guild_id"] = channel["guild_id"]
        if interaction:
            payload["webhook_id"] = str(APPLICATION)
            payload["application_id"] = str(APPLICATION)
        return payload

    def keep(self, cid: int, body: dict[str, Any], files: dict[str, bytes], *, flags: int = 0,
             token: str | None = None, user_id: int | None = None) -> Sent:
        mid = self.next_id()
        payload = self.message_payload(mid, cid, body, files, flags=flags, interaction=token is not None)
        sent = Sent(mid, cid, payload, files, token, user_id if payload["flags"] & EPHEMERAL else None)
        self.messages[mid] = sent
        if token is not None:
            self.asked[token].messages.append(sent)
        return sent

    @staticmethod
    def edit(sent: Sent, body: dict[str, Any], files: dict[str, bytes]) -> dict[str, Any]:
        for key in ("content", "components", "embeds"):
            if key in body:
                sent.payload[key] = body[key] if body[key] is not None else ([] if key != "content" else "")
        if "flags" in body and body["flags"] is not None:
            sent.payload["flags"] = (sent.payload["flags"] & EPHEMERAL) | body["flags"]
        sent.payload["flags"] &= ~LOADING
        sent.payload["edited_timestamp"] = _now()
        sent.files.update(files)
        sent.edits += 1
        return sent.payload

    # ------------------------------------------------------------------ the wire

    @staticmethod
    def _params(route: Route) -> dict[str, str]:
        pattern = re.escape(Route.BASE + route.path).replace(r"\{", "{").replace(r"\}", "}")
        pattern = _TEMPLATE.sub(lambda m: f"(?P<{m[1]}>[^/]+)", pattern)
        found = re.fullmatch(pattern, route.url)
        return found.groupdict() if found else {}

    @staticmethod
    def _body(payload: Any, form: Any, files: Any) -> tuple[Any, dict[str, bytes]]:
        if form:
            payload = json.loads(next(p["value"] for p in form if p["name"] == "payload_json"))
        read: dict[str, bytes] = {}
        for f in files or []:
            f.reset()
            read[f.filename] = f.fp.read()
            f.reset()
        return payload, read

    async def rest(self, route: Route, *, files=None, form=None, **kwargs: Any) -> Any:
        """`HTTPClient.request`: the bot's REST calls."""
        body, read = self._body(kwargs.get("json"), form, files)
        return self._answer(Request(route.method, route.path, self._params(route), body, read,
                                    dict(kwargs.get("params") or {})))

    async def webhook(self, route: Route, *, payload=None, multipart=None, files=None, params=None,
                      **kwargs: Any) -> Any:
        """`AsyncWebhookAdapter.request`: interaction responses and followups."""
        body, read = self._body(payload, multipart, files)
        return self._answer(Request(route.method, route.path, self._params(route), body, read,
                                    dict(params or {})))

    def _answer(self, req: Request) -> Any:
        self.requests.append(req)
        handler = ROUTES.get(req.route)
        if handler is None:
            self.unhandled.append(req)
            raise refusal(404, 0, f"the offline Discord has no route {req.route}")
        body = (req.json or {}).get("data") if req.route.endswith("/callback") else req.json
        problems = invalid(body, req.files) if isinstance(body, dict) else []
        if problems:
            self.refused.append((req, problems))
            raise refusal(400, 50035, "Invalid Form Body: " + "; ".join(problems))
        return handler(self, req, **{k: int(v) if v.isdigit() else v for k, v in req.params.items()})

    # ------------------------------------------------------------------ routes

    def _get_channel(self, req: Request, channel_id: int) -> Any:
        if channel_id not in self.channels:
            raise refusal(404, 10003, "Unknown Channel")
        return self.channels[channel_id]

    def _edit_channel(self, req: Request, channel_id: int) -> Any:
        channel = self._get_channel(req, channel_id)
        meta = channel.get("thread_metadata")
        if meta is not None:
            meta.update({k: req.json[k] for k in ("archived", "locked") if k in req.json})
        channel.update({k: v for k, v in req.json.items() if k in ("name", "topic")})
        return channel

    def _post_message(self, req: Request, channel_id: int) -> Any:
        self._get_channel(req, channel_id)
        channel = self.channels[channel_id]
        if channel["type"] == 1 and int(channel["recipients"][0]["id"]) in self.closed_dms:
            raise refusal(403, 50007, "Cannot send messages to this user")
        return self.keep(channel_id, req.json or {}, req.files).payload

    def _edit_message(self, req: Request, channel_id: int, message_id: int) -> Any:
        sent = self.messages.get(message_id)
        if sent is None or sent.channel_id != channel_id:
            raise refusal(404, 10008, "Unknown Message")
        return self.edit(sent, req.json or {}, req.files)

    def _open_dm(self, req: Request) -> Any:
        return self.dm_channel(int(req.json["recipient_id"]))

    def dm_channel(self, uid: int) -> dict[str, Any]:
        if uid not in self.users:
            raise refusal(400, 50033, "Invalid Recipients")
        if uid not in self.dm_of:
            cid = self.next_id()
            self.dm_of[uid] = cid
            self.channels[cid] = {"id": str(cid), "type": 1, "last_message_id": None, "flags": 0,
                                  "recipients": [self.users[uid]]}
        return self.channels[self.dm_of[uid]]

    def _get_user(self, req: Request, user_id: int) -> Any:
        if user_id not in self.users:
            raise refusal(404, 10013, "Unknown User")
        return self.users[user_id]

    def _new_thread(self, req: Request, channel_id: int) -> Any:
        parent = self._get_channel(req, channel_id)
        tid = self.next_id()
        self.channels[tid] = {
            "id": str(tid), "type": req.json.get("type", 11), "guild_id": parent["guild_id"],
            "parent_id": str(channel_id), "owner_id": str(BOT), "name": req.json["name"], "last_message_id": None,
            "rate_limit_per_user": 0, "message_count": 0, "member_count": 1, "flags": 0, "total_message_sent": 0,
            "thread_metadata": {"archived": False, "auto_archive_duration": req.json.get("auto_archive_duration", 4320),
                                "archive_timestamp": _now(), "locked": False,
                                "invitable": req.json.get("invitable", True)}}
        self.thread_members[tid] = {BOT}
        if self.on_thread_created is not None:  # the gateway's THREAD_CREATE
            self.on_thread_created(self.channels[tid])
        return self.channels[tid]

    def _add_to_thread(self, req: Request, channel_id: int, user_id: int) -> None:
        self._get_channel(req, channel_id)
        self.thread_members.setdefault(channel_id, set()).add(user_id)

    def _archived_private(self, req: Request, channel_id: int) -> Any:
        archived = [c for c in self.channels.values() if c.get("parent_id") == str(channel_id)
                    and c["type"] == 12 and c["thread_metadata"]["archived"]]
        return {"threads": archived, "members": [], "has_more": False}

    def _sync(self, req: Request, application_id: int, guild_id: int | None = None) -> Any:
        out = []
        for command in req.json:
            cid = self.commands.setdefault(command["name"], self.next_id())
            out.append({**command, "id": str(cid), "application_id": str(application_id), "version": str(cid),
                        **({"guild_id": str(guild_id)} if guild_id else {})})
        return out

    def _callback(self, req: Request, webhook_id: int, webhook_token: str) -> Any:
        asked = self.asked[webhook_token]
        if asked.callbacks:
            raise refusal(400, 40060, "Interaction has already been acknowledged.")
        asked.callbacks.append(req.json)
        kind, data = req.json["type"], req.json.get("data") or {}
        interaction = {"id": str(webhook_id), "type": 2}
        resource: dict[str, Any] = {"type": kind}
        if kind in (4, 5):  # a message, or "thinking" that the first followup fills in
            flags = (data.get("flags") or 0) | (LOADING if kind == 5 else 0)
            sent = self.keep(asked.channel_id, data if kind == 4 else {}, req.files, flags=flags,
                             token=webhook_token, user_id=asked.user_id)
            asked.original = sent
            interaction |= {"response_message_id": str(sent.id), "response_message_loading": kind == 5,
                            "response_message_ephemeral": sent.ephemeral}
            resource["message"] = sent.payload
        elif kind == 7 and asked.message_id is not None:  # update the message the component sits on
            self.edit(self.messages[asked.message_id], data, req.files)
        return {"interaction": interaction, "resource": resource}

    def _followup(self, req: Request, webhook_id: int, webhook_token: str) -> Any:
        asked = self.asked.get(webhook_token)
        if asked is None or not asked.callbacks:
            raise refusal(404, 10015, "Unknown Webhook")
        original = asked.original
        if original is not None and original.payload["flags"] & LOADING:  # fills the "thinking" message
            return self.edit(original, {k: v for k, v in (req.json or {}).items() if k != "flags"}, req.files)
        return self.keep(asked.channel_id, req.json or {}, req.files, token=webhook_token,
                         user_id=asked.user_id).payload

    def _edit_original(self, req: Request, webhook_id: int, webhook_token: str) -> Any:
        original = self.asked[webhook_token].original
        if original is None:
            raise refusal(404, 10008, "Unknown Message")
        return self.edit(original, req.json or {}, req.files)

    def _edit_followup(self, req: Request, webhook_id: int, webhook_token: str, message_id: int) -> Any:
        sent = self.messages.get(message_id)
        if sent is None or sent.token != webhook_token:
            raise refusal(404, 10008, "Unknown Message")
        return self.edit(sent, req.json or {}, req.files)


ROUTES: dict[str, Callable[..., Any]] = {
    "GET /channels/{channel_id}": Discord._get_channel,
    "PATCH /channels/{channel_id}": Discord._edit_channel,
    "POST /channels/{channel_id}/messages": Discord._post_message,
    "PATCH /channels/{channel_id}/messages/{message_id}": Discord._edit_message,
    "POST /users/@me/channels": Discord._open_dm,
    "GET /users/{user_id}": Discord._get_user,
    "POST /channels/{channel_id}/threads": Discord._new_thread,
    "PUT /channels/{channel_id}/thread-members/{user_id}": Discord._add_to_thread,
    "GET /channels/{channel_id}/threads/archived/private": Discord._archived_private,
    "PUT /applications/{application_id}/commands": Discord._sync,
    "PUT /applications/{application_id}/guilds/{guild_id}/commands": Discord._sync,
    "POST /interactions/{webhook_id}/{webhook_token}/callback": Discord._callback,
    "POST /webhooks/{webhook_id}/{webhook_token}": Discord._followup,
    "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original": Discord._edit_original,
    "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}": Discord._edit_followup,
}


class RecordingHTTP(HTTPClient):
    """discord.py's HTTP client with its wire replaced by `Discord`."""

    def __init__(self, loop: asyncio.AbstractEventLoop, wire: Discord) -> None:
        super().__init__(loop)
        self.wire = wire

    async def request(self, route: Route, *, files=None, form=None, **kwargs: Any) -> Any:
        return await self.wire.rest(route, files=files, form=form, **kwargs)


class RecordingWebhooks(AsyncWebhookAdapter):
    """discord.py's webhook adapter (interaction responses, followups) on `Discord`."""

    def __init__(self, wire: Discord) -> None:
        super().__init__()
        self.wire = wire

    async def request(self, route: Route, session: Any, **kwargs: Any) -> Any:
        return await self.wire.webhook(route, **kwargs)


@dataclass(frozen=True)
class Player:
    id: int
    name: str


@dataclass(frozen=True)
class Role:
    """A guild role, as a command's role option names it."""
    id: int
    name: str

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "name": self.name, "permissions": "0", "position": 1, "color": 0,
                "hoist": False, "managed": False, "mentionable": True, "flags": 0}


class Table:
    """The running bot on the offline Discord, and what a test does and reads there."""

    def __init__(self, tmp_path: Path, catalog: Catalog, *, seed: int = 7, pictures: bool = False,
                 error_channel: int | None = ERRORS, wire: Discord | None = None, **settings: Any) -> None:
        """`wire`: another Table's Discord, for a second bot process on the same guild (and, on
        the same `tmp_path`, the same database file). `settings`: more of the bot's settings
        (`fieldpost_shards=2, fieldpost_shard_ids=(0,)`): as on Discord, a sharded bot hears of
        the guild (its GUILD_CREATE, THREAD_CREATE) only if it runs the guild's shard. Pictures
        are drawn in a thread unless `fieldpost_render_processes` says otherwise."""
        self.discord = wire or Discord()
        self.settings = Settings(**{"discord_token": "offline", "fieldpost_db": tmp_path / "fieldpost.db",
                                    "fieldpost_dev_guild": GUILD, "fieldpost_error_channel": error_channel,
                                    "fieldpost_render_processes": 0, **settings})
        self.bot = fieldpost_bot(self.settings, catalog=catalog, seed=lambda: seed)
        self._pictures = pictures
        self._webhooks = RecordingWebhooks(self.discord)
        self._before: set[asyncio.Task[Any]] = set()

    async def __aenter__(self) -> Self:
        bot = self.bot
        await bot._async_setup_hook()  # what login() does first: the loop, the ready event
        bot.http = bot._connection.http = RecordingHTTP(bot.loop, self.discord)
        bot._connection.application_id = APPLICATION
        bot._connection.user = ClientUser(state=bot._connection, data=self.discord.bot_user)
        if self.holds_guild:
            bot._connection.parse_guild_create(self.discord.guild_payload())
            self.discord.on_thread_created = lambda data: bot._connection.parse_thread_create(
                {**data, "newly_created": True})
        self._before = set(asyncio.all_tasks())
        await bot.setup_hook()  # the real one: store, tree, dynamic items, command sync
        bot.deadlines.cancel()  # ticks come from `tick()`, never from a clock
        if not self._pictures:
            bot.adapter.courier.renders = None
        await self.settle()
        return self

    async def __aexit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        await self.settle()
        await self.bot.close()
        if kind is None:  # every test on the wire also checks the bot asked nothing Discord refuses
            assert not self.discord.unhandled, [r.route for r in self.discord.unhandled]
            assert not self.discord.refused, [(r.route, why) for r, why in self.discord.refused]

    @property
    def holds_guild(self) -> bool:
        """This bot runs the shard Discord gives the guild to (every bot that is not sharded does)."""
        shards = self.bot.own_shards
        return shards is None or (GUILD >> 22) % self.settings.fieldpost_shards in shards

    @property
    def store(self):
        return self.bot.store

    @property
    def service(self):
        return self.bot.adapter.service

    def player(self, uid: int, name: str, *, dms: bool = True) -> Player:
        self.discord.user(uid, name, dms=dms)
        return Player(uid, name)

    def role(self, rid: int, name: str, *members: Player) -> Role:
        """A guild role made now (GUILD_ROLE_CREATE), held by `members`."""
        role = Role(rid, name)
        self.bot._connection.parse_guild_role_create({"guild_id": str(GUILD), "role": role.payload()})
        for who in members:
            self.discord.member_roles.setdefault(who.id, []).append(rid)
        return role

    # ------------------------------------------------------------------ sending interactions

    @contextlib.contextmanager
    def _wire(self) -> Iterator[None]:
        """Tasks started inside copy this context: their webhook calls reach `Discord`."""
        token = async_context.set(self._webhooks)
        try:
            yield
        finally:
            async_context.reset(token)

    def payload(self, who: Player, kind: int, data: dict[str, Any], *, channel: int | None = CHANNEL,
                organiser: bool = False, message: Sent | None = None) -> dict[str, Any]:
        """An INTERACTION_CREATE payload: from a guild channel (a member with permissions) or,
        with `channel=None` or a DM message, from the user's DM with the bot."""
        iid = self.discord.next_id()
        token = f"interaction-token-{iid}"
        if message is not None:
            channel = message.channel_id
        in_dm = channel is None or self.discord.channels[channel]["type"] == 1
        if channel is None:
            channel = int(self.discord.dm_channel(who.id)["id"])
        payload: dict[str, Any] = {
            "id": str(iid), "application_id": str(APPLICATION), "type": kind, "token": token, "version": 1,
            "data": data, "channel_id": str(channel), "channel": self.discord.channel_of(channel),
            "locale": "en-US", "app_permissions": str(BOT_PERMISSIONS.value), "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
            "authorizing_integration_owners": {"0": str(GUILD)} if not in_dm else {"1": str(who.id)},
            "context": 1 if in_dm else 0,
        }
        if in_dm:
            payload["user"] = self.discord.users[who.id]
        else:
            payload["guild_id"] = str(GUILD)
            payload["guild_locale"] = "en-US"
            perms = self.discord.member_permissions.get(who.id, ORGANISER if organiser else PLAYER)
            payload["member"] = self.discord.member(who.id, perms)
        if message is not None:
            payload["message"] = message.payload
        self.discord.asked[token] = Asked(iid, token, who.id, channel_id=channel,
                                              message_id=message.id if message else None)
        return payload

    def dispatch(self, payload: dict[str, Any]) -> Asked:
        """Hand `payload` to discord.py's gateway parser; its callbacks run as tasks (settle)."""
        with self._wire():
            self.bot._connection.parse_interaction_create(payload)
        return self.discord.asked[payload["token"]]

    def command_data(self, path: str, options: dict[str, Any], focused: str | None = None, *,
                     guild: bool = True) -> dict[str, Any]:
        """The `data` of an application command: `path` ("game new") with its options typed as
        the tree declares them (a `Player` or `Role` for a user or role option, resolved as Discord
        does). `focused` marks the option being typed (autocomplete); `guild`:
        given in the guild, where the development guild's copy of the command answers."""
        names = path.split()
        node: Any = self.bot.tree.get_command(names[0])
        if node is None:
            raise KeyError(f"no command /{names[0]}")
        top = node
        chain = []
        for name in names[1:]:
            node = node.get_command(name)
            chain.append(node)
        params = {p.name: p for p in node.parameters}
        leaf = []
        resolved: dict[str, dict[str, Any]] = {}
        for name, value in options.items():
            if value is None:
                continue
            if name not in params:
                raise KeyError(f"/{path} has no option {name}")
            if isinstance(value, Player):  # a user option: Discord sends the id and the member resolved
                member = {k: v for k, v in self.discord.member(value.id, PLAYER).items() if k != "user"}
                resolved.setdefault("users", {})[str(value.id)] = self.discord.users[value.id]
                resolved.setdefault("members", {})[str(value.id)] = member
                value = str(value.id)
            elif isinstance(value, Role):
                resolved.setdefault("roles", {})[str(value.id)] = value.payload()
                value = str(value.id)
            opt = {"name": params[name].display_name, "type": params[name].type.value, "value": value}
            if name == focused:
                opt |= {"focused": True, "value": str(value)}
            leaf.append(opt)
        for sub in reversed(chain):
            kind = 2 if isinstance(sub, app_commands.Group) else 1
            leaf = [{"name": sub.name, "type": kind, **({"options": leaf} if leaf or kind == 1 else {})}]
        data: dict[str, Any] = {"id": str(self.discord.commands.get(top.name, 0)), "name": top.name, "type": 1}
        if leaf:
            data["options"] = leaf
        if resolved:
            data["resolved"] = resolved
        if guild and self.settings.fieldpost_dev_guild:
            data["guild_id"] = str(GUILD)
        return data

    async def command(self, who: Player, path: str, *, channel: int | None = CHANNEL, organiser: bool = False,
                      **options: Any) -> Asked:
        """`/path option:value ...` typed by `who`, answered in full."""
        data = self.command_data(path, options, guild=channel is not None)
        asked = self.dispatch(self.payload(who, 2, data, channel=channel, organiser=organiser))
        await self.settle()
        return asked

    async def autocomplete(self, who: Player, path: str, focused: str, *, channel: int | None = CHANNEL,
                           **options: Any) -> list[dict[str, Any]]:
        """The suggestions for option `focused` while `who` types `options[focused]`."""
        data = self.command_data(path, options, focused, guild=channel is not None)
        asked = self.dispatch(self.payload(who, 4, data, channel=channel))
        await self.settle()
        return asked.choices

    def press_payload(self, who: Player, message: Sent, custom_id: str, values: list[str] | None = None,
                      *, organiser: bool = False) -> dict[str, Any]:
        component = next((c for c in message.components if c.get("custom_id") == custom_id), None)
        if component is None:
            raise KeyError(f"message {message.id} has no component {custom_id} now")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component["type"]}
        if component["type"] != 2:
            data["values"] = values if values is not None else [component["options"][0]["value"]]
        return self.payload(who, 3, data, message=message, organiser=organiser)

    async def press(self, who: Player, message: Sent, custom_id: str, values: list[str] | None = None) -> Asked:
        """`who` presses the button `custom_id` (or picks `values` in that select) on `message`
        as he sees it (a copy taken earlier is a stale view of it)."""
        asked = self.dispatch(self.press_payload(who, message, custom_id, values))
        await self.settle()
        return asked

    async def settle(self) -> None:
        """Wait until every task discord.py dispatched (and what they started) has finished."""
        me = asyncio.current_task()
        while True:
            pending = {t for t in asyncio.all_tasks() if t is not me and not t.done() and t not in self._before}
            if not pending:
                return
            _, late = await asyncio.wait(pending, timeout=SETTLE_SECONDS)
            if late:
                raise AssertionError(f"tasks still running after {SETTLE_SECONDS} s: "
                                     + ", ".join(t.get_name() for t in late))

    async def tick(self) -> None:
        """One pass of the bot's deadline loop."""
        with self._wire():
            await self.bot.deadlines.coro(self.bot)
        await self.settle()

    # ------------------------------------------------------------------ reading what was sent

    def public(self, channel: int = CHANNEL) -> list[Sent]:
        """Messages everyone in `channel` reads (ephemeral answers left out)."""
        return [m for m in self.discord.messages.values() if m.channel_id == channel and not m.ephemeral]

    def dms(self, who: Player) -> list[Sent]:
        cid = self.discord.dm_of.get(who.id)
        return [m for m in self.discord.messages.values() if m.channel_id == cid]

    def threads_of(self, who: Player) -> list[int]:
        """The private threads `who` was added to."""
        return [tid for tid, members in self.discord.thread_members.items()
                if who.id in members and self.discord.channels[tid]["type"] == 12]

    def private(self, who: Player) -> list[Sent]:
        """What reaches `who` alone: his DMs, his private threads, his ephemeral answers."""
        threads = set(self.threads_of(who))
        dm = self.discord.dm_of.get(who.id)
        return [m for m in self.discord.messages.values()
                if m.channel_id == dm or m.channel_id in threads or (m.ephemeral and m.user_id == who.id)]

    def told(self, who: Player) -> list[Sent]:
        """The ephemeral answers `who` got."""
        return [m for m in self.discord.messages.values() if m.ephemeral and m.user_id == who.id]

    def prompt(self, who: Player) -> Sent | None:
        """The newest private message to `who` that still has buttons or a menu."""
        return next((m for m in reversed(self.private(who)) if m.custom_ids and not m.ephemeral), None)

    def requests(self, route: str) -> list[Request]:
        """The requests made on `route` ("PATCH /channels/{channel_id}/messages/{message_id}")."""
        return [r for r in self.discord.requests if r.route == route]
