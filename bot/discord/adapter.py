"""The thin layer between an interaction and a use-case: who is calling, from where, which
use-case, and the courier for the answer. Every reply to a command is ephemeral (a slash
command's options show in a public reply, and options can be secret: cards, a plan); the table
hears about it from the public summary the courier posts.
"""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime

import discord
from discord import app_commands

from bot.app import Caller, GameService, NotYours, Refused, Replies, Where
from bot.discord.courier import Courier, shown
from bot.discord.error_report import ErrorReporter, tell
from bot.store import StoreUnavailable

UseCase = Callable[[Caller, Where], Awaitable[Replies]]

NOT_YOURS = "These buttons are for someone else: nothing was changed."
LOBBY_CLOSED = "Game #{game} has already started: its join buttons are closed. Nothing was changed."


class Adapter:
    def __init__(self, service: GameService, courier: Courier, errors: ErrorReporter | None = None) -> None:
        self.service = service
        self.courier = courier
        self.errors = errors or ErrorReporter(courier.client)

    @staticmethod
    def caller(interaction: discord.Interaction) -> Caller:
        """Who is calling: his id and name, Manage Channels (an organiser anywhere in the channel),
        his roles in the server (its organiser role), Manage Server (its settings)."""
        perms = interaction.permissions
        in_guild = interaction.guild_id is not None
        organiser = in_guild and bool(perms and perms.manage_channels)
        user = interaction.user
        sent = getattr(interaction, "created_at", None)  # from the interaction's snowflake: Discord's clock
        roles = frozenset(r.id for r in getattr(user, "roles", ()) if isinstance(getattr(r, "id", None), int))
        return Caller(user.id, getattr(user, "display_name", None) or user.name, organiser=organiser,
                      sent_at=sent if isinstance(sent, datetime) else None, roles=roles if in_guild else frozenset(),
                      manages_server=in_guild and bool(perms and perms.manage_guild))

    @staticmethod
    def where(interaction: discord.Interaction, game: int | None = None) -> Where:
        """Where a command was given. In a thread, its parent is the game's channel (private
        threads are made there) and the thread is where the game is played."""
        if interaction.guild_id is None:  # a DM: the game comes from the option or the player
            return Where(channel_id=interaction.channel_id, game_id=game)
        channel = interaction.channel
        if isinstance(channel, discord.Thread):
            return Where(channel_id=channel.parent_id, thread_id=channel.id, game_id=game,
                         guild_id=interaction.guild_id)
        return Where(channel_id=interaction.channel_id, game_id=game, guild_id=interaction.guild_id)

    async def run(self, interaction: discord.Interaction, call: UseCase, *, game: int | None = None,
                  name: str = "command") -> Replies | None:
        """Defer (ephemerally), run the use-case, deliver; a refusal is told to the caller only,
        a bug is reported (error_report) and the caller gets an apology with its id."""
        return await self._serve(interaction, call, game=game, what=f"/{name}")

    async def press(self, interaction: discord.Interaction, game: int, seat: int, version: int,
                    stamp: str) -> None:
        """A button or select from a prompt: checked for seat and version by the use-case. The
        prompt loses its buttons only once its answer was carried out (a refused or repeated
        press leaves them)."""
        await self._serve(interaction, lambda c, w: self.service.choose(c, game, seat, version, stamp),
                          game=game, what="a choice button", pressed=True)

    async def join_pressed(self, interaction: discord.Interaction, game: int, side: str) -> None:
        """A lobby's Join button. On a game that has left its lobby it says so, and the stale
        buttons go from the lobby message and from the message pressed."""
        async def join(caller: Caller, where: Where) -> Replies:
            if await self.courier.lobby_closed(game):
                raise Refused(LOBBY_CLOSED.format(game=game))
            return await self.service.join(caller, where, side)

        async def refused() -> None:
            if await self.courier.lobby_closed(game):
                await self.courier.close_lobby(game, interaction.message)

        await self._serve(interaction, join, game=game, what="a join button", refused=refused)

    async def _serve(self, interaction: discord.Interaction, call: UseCase, *, game: int | None, what: str,
                     pressed: bool = False, refused: Callable[[], Awaitable[None]] | None = None
                     ) -> Replies | None:
        """Defer, run the use-case, take a pressed prompt's buttons away, deliver. A refusal is
        told to the caller alone; the store being unavailable is told in its own words; anything
        else is a bug, reported under an error id (error_report)."""
        carried_out = False
        try:
            await self._defer(interaction)
            try:
                replies = await call(self.caller(interaction), self.where(interaction, game))
            except NotYours as exc:
                await tell(interaction, NOT_YOURS if pressed else shown(str(exc)))
                return None
            except Refused as exc:  # out of date, already done, not allowed: the use-case's words
                await tell(interaction, shown(str(exc)))
                if refused is not None:
                    await refused()
                return None
            carried_out = True
            if pressed and interaction.message is not None:
                try:  # the prompt is answered: take its buttons away
                    await interaction.message.edit(view=None)
                except discord.HTTPException:
                    pass
            await self.courier.deliver(replies, interaction)
            return replies
        except StoreUnavailable as exc:
            if not carried_out:
                await self.errors.unavailable(exc, what=what, game_id=game, interaction=interaction)
                return None
            await self.errors.unexpected(exc, what=what, game_id=game, interaction=interaction, carried_out=True)
        except Exception as exc:  # noqa: BLE001 (a bug: reported with an id, never a traceback to the player)
            await self.errors.unexpected(exc, what=what, game_id=game or await self._game_of(interaction),
                                         interaction=interaction, carried_out=carried_out)
        return None

    async def deliver(self, replies: Replies, *, what: str) -> None:
        """Send what happened without an interaction (a deadline, a restart); a failure is
        reported and the next delivery goes on."""
        try:
            await self.courier.deliver(replies)
        except Exception as exc:  # noqa: BLE001 (reported with an id; the game itself is saved)
            await self.errors.unexpected(exc, what=what, game_id=replies.game_id)

    async def _game_of(self, interaction: discord.Interaction) -> int | None:
        """The game a failed command was about, for the error report, if it can be told."""
        try:
            return await self.service.resolve(self.caller(interaction), self.where(interaction))
        except Exception:  # noqa: BLE001 (a report without its game is still a report)
            return None

    @staticmethod
    async def _defer(interaction: discord.Interaction) -> None:
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)

    async def suggest(self, interaction: discord.Interaction, what: str, current: str, *,
                      game: int | None = None, **kw) -> list[app_commands.Choice[str]]:
        """Autocomplete: at most 25 (label, value) suggestions; never an error (a bug is logged
        under an error id, and the player sees no suggestions)."""
        try:
            pairs = await self.service.suggest(self.caller(interaction), self.where(interaction, game),
                                               what, current or "", **kw)
        except StoreUnavailable as exc:
            await self.errors.unavailable(exc, what=f"autocomplete {what}", game_id=game)
            return []
        except Exception as exc:  # noqa: BLE001
            await self.errors.unexpected(exc, what=f"autocomplete {what}", game_id=game)
            return []
        return [app_commands.Choice(name=label or value, value=value) for label, value in pairs]
