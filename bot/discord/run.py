"""`fieldpost bot`: run the Discord bot (settings from the environment, see bot/config.py)."""
from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from pydantic import ValidationError

from bot.config import SettingError, Settings
from bot.startup import settle
from bot.store import StoreError, StoreUnavailable, open_store

NO_TOKEN = """\
fieldpost bot needs a Discord bot token. Set:

  DISCORD_TOKEN=...              the token from https://discord.com/developers/applications (Bot page)
  FIELDPOST_DB=./fieldpost.db    where the games are kept: a file, or postgresql://… (optional)
  FIELDPOST_DEV_GUILD=...        a server id to get the commands there at once (optional)
  FIELDPOST_LOG_LEVEL=INFO       DEBUG, INFO, WARNING or ERROR (optional)
  FIELDPOST_ERROR_CHANNEL=...    a channel id where unexpected errors are reported (optional)
  FIELDPOST_SHARDS=2 FIELDPOST_SHARD_IDS=0   this process's shards of several (optional)
  FIELDPOST_RENDER_PROCESSES=2   picture worker processes, 0 for a thread (optional)
  FIELDPOST_HTTP_PORT=8080       serve /healthz and /metrics (optional; FIELDPOST_HTTP_HOST)

README.md, "Running the bot on Discord", walks through it. To play without Discord, in a
terminal: fieldpost play"""


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser("bot", help="run the Discord bot (needs DISCORD_TOKEN)",
                                   description=__doc__)
    parser.set_defaults(run=run)
    return parser


def configure_logging(level: str) -> None:
    """Fieldpost's own loggers at `level`; discord.py's at INFO at most, because at DEBUG it logs
    every request and answer body, and those carry hands and plans (DMs, ephemeral replies)."""
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    discord_log = logging.getLogger("discord")
    discord_log.setLevel(max(logging.getLevelName(level), logging.INFO))


def run(args: argparse.Namespace) -> int:
    try:
        settings = Settings()
    except ValidationError as exc:
        for error in exc.errors():
            why = error["msg"].removeprefix("Value error, ")
            print(f"fieldpost bot: {'.'.join(map(str, error['loc'])).upper()}: {why}", file=sys.stderr)
        return 2
    if settings.discord_token is None:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    configure_logging(settings.fieldpost_log_level)
    try:
        # The file first: a bad database stops the bot before it logs in to Discord.
        asyncio.run(_check_database(settings.fieldpost_db))
        # discord.py and the content load only here
        from bot.discord.client import fieldpost_bot
        from engine import load_catalog

        catalog = load_catalog()
        settle()  # the content and the modules stay for the process's life: out of the collector's sight
        fieldpost_bot(settings, catalog).run(settings.discord_token.get_secret_value(), log_handler=None)
    except StoreError as exc:  # BadDatabase, SchemaTooNew, StoreUnavailable: one line, no traceback
        print(f"fieldpost bot: {exc.reason if isinstance(exc, StoreUnavailable) else exc}", file=sys.stderr)
        return 1
    except SettingError as exc:  # FIELDPOST_HTTP_PORT taken: one line naming it
        print(f"fieldpost bot: {exc}", file=sys.stderr)
        return 1
    return 0


async def _check_database(url: str) -> None:
    """Open (check and migrate) and close the store: what the bot does at start-up, before it connects."""
    async with open_store(url):
        pass
