"""The thin layer between an interaction and a use-case: who is calling, from where, which
use-case, and the courier for the answer. Every reply to a command is ephemeral (a slash
command's options show in a public reply, and options can be secret: cards, a plan); the table
hears about it from the public summary the courier posts.
"""
from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord
from discord import app_commands

from bot.app import Caller, GameService, NotYours, OutOfDate, Refused, Replies, Where
from bot.discord.courier import Courier
from bot.discord.text import trim

log = logging.getLogger(__name__)

UseCase = Callable[[Caller, Where], Awaitable[Replies]]

OOPS = "Something went wrong on our side; it has been logged and nothing was changed."
NOT_YOURS = "These buttons are for someone else: nothing was changed."


class Adapter:
    def __init__(self, service: GameService, courier: Courier) -> None:
        self.service = service
        self.courier = courier

    @staticmethod
    def caller(interaction: discord.Interaction) -> Caller:
        perms = interaction.permissions
        organiser = interaction.guild_id is not None and bool(perms and perms.manage_channels)
        user = interaction.user
        return Caller(user.id, getattr(user, "display_name", None) or user.name, organiser=organiser)

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
        """Defer (ephemerally), run the use-case, deliver; a refusal is told to the caller only."""
        await self._defer(interaction)
        try:
            replies = await call(self.caller(interaction), self.where(interaction, game))
        except Refused as exc:
            await interaction.followup.send(trim(str(exc)), ephemeral=True)
            return None
        except Exception:
            log.exception("%s failed", name)
            await interaction.followup.send(OOPS, ephemeral=True)
            return None
        await self.courier.deliver(replies, interaction)
        return replies

    @staticmethod
    async def _defer(interaction: discord.Interaction) -> None:
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)

    async def press(self, interaction: discord.Interaction, game: int, seat: int, version: int,
                    stamp: str) -> None:
        """A button or select from a prompt: checked for seat and version by the use-case."""
        await self._defer(interaction)
        try:
            replies = await self.service.choose(self.caller(interaction), game, seat, version, stamp)
        except NotYours:
            await interaction.followup.send(NOT_YOURS, ephemeral=True)
            return
        except OutOfDate as exc:
            await interaction.followup.send(str(exc), ephemeral=True)
            return
        except Refused as exc:
            await interaction.followup.send(trim(str(exc)), ephemeral=True)
            return
        except Exception:
            log.exception("a choice in game %s failed", game)
            await interaction.followup.send(OOPS, ephemeral=True)
            return
        message = interaction.message
        if message is not None:
            try:  # the prompt is answered: take its buttons away
                await message.edit(view=None)
            except discord.HTTPException:
                pass
        await self.courier.deliver(replies, interaction)

    async def join_pressed(self, interaction: discord.Interaction, game: int, side: str) -> None:
        await self.run(interaction, lambda c, w: self.service.join(c, w, side), game=game,
                       name="join button")

    async def suggest(self, interaction: discord.Interaction, what: str, current: str, *,
                      game: int | None = None, **kw) -> list[app_commands.Choice[str]]:
        """Autocomplete: at most 25 (label, value) suggestions; never an error."""
        try:
            pairs = await self.service.suggest(self.caller(interaction), self.where(interaction, game),
                                               what, current or "", **kw)
        except Exception:
            log.exception("autocomplete %s failed", what)
            return []
        return [app_commands.Choice(name=label or value, value=value) for label, value in pairs]
