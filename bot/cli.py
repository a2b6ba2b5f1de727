"""The `fieldpost` command: one entry point for the bot, the console game and the tools.

Each subcommand lives in its own module with `add_parser(subparsers)` and a `run(args)`
that returns the exit code; this file only wires them together, every run inside
`bot.exits.guarded` (a failure is one line and an exit code, never a traceback).
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys

from bot.exits import end_process, guarded
from bot.startup import loading_modules

# subcommand name -> module implementing add_parser/run
SUBCOMMANDS = {
    "bot": "bot.discord.run",
    "play": "bot.console.play",
    "autoplay": "bot.console.autoplay",
    "replay": "bot.console.replay",
    "roll": "bot.console.roll",
    "render": "bot.console.render",
    "campaign": "bot.console.campaign",
    "backup": "bot.console.backup",
    "migrate-store": "bot.console.migrate_store",
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every subcommand, or with `only` of that one alone: a run names one, and
    importing the others (the bot, pictures, the store) would only slow its start."""
    parser = argparse.ArgumentParser(
        prog="fieldpost",
        description="Play-by-post WWII skirmish games. With no subcommand: the Discord bot "
        "when DISCORD_TOKEN is set, otherwise a console game on a bundled scenario.",
    )
    sub = parser.add_subparsers(dest="command")
    for name, module_name in SUBCOMMANDS.items():
        if only is not None and name != only:
            continue
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:  # a subcommand whose module has not landed yet
            if exc.name != module_name:
                raise
            continue
        module.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    program = argv is None  # the fieldpost program itself; a caller passing argv keeps its collector as it was
    argv = list(sys.argv[1:] if program else argv)
    named = argv[0] if argv and argv[0] in SUBCOMMANDS else None
    if not argv:
        argv = ["bot"] if os.environ.get("DISCORD_TOKEN") else ["play"]
    if program:
        # No pydantic plugin serves Fieldpost, and looking for one reads every installed package's
        # entry points on each start (0.8% of `fieldpost play`'s); PYDANTIC_DISABLE_PLUGINS= (empty)
        # lets an operator's plugin load (docs/architecture.md, A quick start)
        os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "1")
    with loading_modules(freeze=program):
        parser = build_parser(named) if named else build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    code = guarded(f"fieldpost {getattr(args, 'command', None) or argv[0]}", lambda: args.run(args))
    return end_process(code) if program else code


if __name__ == "__main__":
    raise SystemExit(main())
