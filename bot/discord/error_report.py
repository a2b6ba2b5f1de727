"""Errors seen by someone: an unexpected exception in a command, a button, autocomplete or the
deadline loop gives the player a short apology with an error id, puts the traceback in the log
under that id and, when `FIELDPOST_ERROR_CHANNEL` is set, posts a short report there.

Nothing secret goes into a report: it names the command (or button), the game and the
exception's type, and its traceback is the frames alone. Never the exception's message (a
KeyError can quote a card that a `/plan` named), an option's value, or a message's text.

    errors = ErrorReporter(client, channel_id=settings.fieldpost_error_channel)
    await errors.unexpected(exc, what="/game status", game_id=3, interaction=it)
"""
from __future__ import annotations

import io
import logging
import secrets
import traceback

import discord
from discord import app_commands

from bot.app import Refused
from bot.discord.text import MESSAGE, trim
from bot.store import StoreUnavailable

log = logging.getLogger(__name__)

APOLOGY = ("Sorry: something went wrong on our side, and nothing was changed. It is logged as "
           "error `{id}` (tell the bot's admin that id if you ask about it).")
SENDING_FAILED = ("Done, but something went wrong while sending the messages that go with it (error "
                  "`{id}`): `/game status` and `/hand` show where the game stands.")
STALE_COMMAND = ("Discord showed you an older version of this command: reload Discord (Ctrl+R) "
                 "and try again. Nothing was changed.")
NO_NOTICE = discord.AllowedMentions.none()


def error_id() -> str:
    """Eight hex characters: short to read out, unlikely to repeat in a bot's lifetime of errors."""
    return secrets.token_hex(4)


def type_name(kind: type[BaseException]) -> str:
    module = kind.__module__
    return kind.__qualname__ if module == "builtins" else f"{module}.{kind.__qualname__}"


def frames(exc: BaseException) -> str:
    """The traceback of `exc` and the exceptions it came from, with their types and frames but
    without their messages (a message may quote what a player typed)."""
    chain: list[tuple[BaseException, str]] = []  # newest first, each with how it led to the one before
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if current.__cause__ is not None:
            link, older = "The above exception was the direct cause of the following one:", current.__cause__
        elif current.__context__ is not None and not current.__suppress_context__:
            link, older = "During handling of the above exception, another one occurred:", current.__context__
        else:
            link, older = "", None
        chain.append((current, link))
        current = older
    out: list[str] = []
    for e, link in reversed(chain):  # oldest first, as Python prints them
        if link:
            out.append(f"\n{link}\n\n")
        out.append("Traceback (most recent call last):\n")
        out.extend(traceback.format_list(traceback.extract_tb(e.__traceback__)))
        out.append(f"{type_name(type(e))} (its message is left out: it may quote a player's input)\n")
    return "".join(out)


async def tell(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral answer, whether or not the interaction was answered (deferred) already."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(trim(text), ephemeral=True)
        else:
            await interaction.response.send_message(trim(text), ephemeral=True)
    except discord.HTTPException as exc:  # an expired interaction: nobody is left to tell
        log.warning("could not answer interaction %s (%s)", interaction.id, exc.status)


class ErrorReporter:
    def __init__(self, client: discord.Client, channel_id: int | None = None) -> None:
        self.client = client
        self.channel_id = channel_id

    async def unexpected(self, exc: BaseException, *, what: str, game_id: int | None = None,
                         interaction: discord.Interaction | None = None, carried_out: bool = False) -> str:
        """Report a bug: log it, tell the player (if any) and the error channel; returns the id.
        `carried_out`: the use-case succeeded and only its delivery failed."""
        eid = error_id()
        game = f" in game #{game_id}" if game_id is not None else ""
        trace = frames(exc)
        log.error("error %s: %s failed%s with %s\n%s", eid, what, game, type_name(type(exc)), trace)
        if interaction is not None:
            await tell(interaction, (SENDING_FAILED if carried_out else APOLOGY).format(id=eid))
        await self._post(eid, what, game, exc, trace)
        return eid

    async def unavailable(self, exc: StoreUnavailable, *, what: str, game_id: int | None = None,
                          interaction: discord.Interaction | None = None) -> None:
        """The database could not serve (busy, disk full): the player reads its own words, the
        log its reason; not a bug, so no error id and no report."""
        game = f" in game #{game_id}" if game_id is not None else ""
        log.warning("%s%s: the store is unavailable: %s", what, game, exc.reason)
        if interaction is not None:
            await tell(interaction, str(exc))

    async def on_tree_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        """The command tree's `on_error`: whatever a command callback let through ends here."""
        command = interaction.command
        what = f"/{command.qualified_name}" if command is not None else "a command"
        if isinstance(error, app_commands.CommandInvokeError):
            original = error.original
            if isinstance(original, StoreUnavailable):
                await self.unavailable(original, what=what, interaction=interaction)
            elif isinstance(original, Refused):
                await tell(interaction, str(original))
            else:
                game = getattr(interaction.namespace, "game", None)
                await self.unexpected(original, what=what, game_id=game if isinstance(game, int) else None,
                                      interaction=interaction)
            return
        log.warning("%s was not run: %s", what, type(error).__name__)
        if isinstance(error, (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch)):
            await tell(interaction, STALE_COMMAND)
        else:  # discord.py's own words about the caller's input or rights, for the caller alone
            await tell(interaction, str(error))

    async def _post(self, eid: str, what: str, game: str, exc: BaseException, trace: str) -> None:
        if self.channel_id is None:
            return
        head = f"**Error `{eid}`**: {what} failed{game} with `{type_name(type(exc))}`."
        body = f"{head}\n```py\n{trace}```"
        try:
            channel = self.client.get_channel(self.channel_id) or await self.client.fetch_channel(self.channel_id)
            if len(body) <= MESSAGE:
                await channel.send(body, allowed_mentions=NO_NOTICE)
            else:
                await channel.send(head, allowed_mentions=NO_NOTICE,
                                   file=discord.File(io.BytesIO(trace.encode()), filename=f"error-{eid}.txt"))
        except Exception:  # noqa: BLE001 (reporting must never raise; the log has it already)
            log.warning("error %s could not be posted to channel %s", eid, self.channel_id)
