"""`/help topic:`, `/rules topic:` and `/card id:`: the help texts (assets/help, bot/app/help.py),
a rules term in our own words, and a card the caller may see read part by part. Every answer
is for the caller alone."""
from __future__ import annotations

from typing import Literal, Optional

import discord
from discord import app_commands

from bot.app.help import TOPICS
from bot.discord.adapter import Adapter
from bot.discord.commands import GAME_HELP

Topic = Literal[TOPICS]  # type: ignore[valid-type]


def help_commands(adapter: Adapter) -> list[app_commands.Command]:
    s = adapter.service

    async def ac_rule(it: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await adapter.suggest(it, "rule", current)

    async def ac_card(it: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await adapter.suggest(it, "visible-card", current, game=getattr(it.namespace, "game", None))

    async def ac_game(it: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        return [app_commands.Choice(name=c.name, value=int(c.value))
                for c in await adapter.suggest(it, "game", current)]

    @app_commands.command(name="help", description="How Fieldpost works: pick a topic (only you see the answer)")
    @app_commands.describe(topic="leave out for the list of topics")
    async def help_(it: discord.Interaction, topic: Optional[Topic] = None):
        await adapter.run(it, lambda c, w: s.help(topic), name="help")

    @app_commands.command(name="rules", description="A rules term in a few lines: LOOK, Hit+, bog, hull down...")
    @app_commands.describe(topic="the term (suggested)")
    @app_commands.autocomplete(topic=ac_rule)
    async def rules(it: discord.Interaction, topic: app_commands.Range[str, 1, 60]):
        await adapter.run(it, lambda c, w: s.rules(topic), name="rules")

    @app_commands.command(name="card", description="A card you can see, part by part: what each part does")
    @app_commands.describe(id="the card's id, e.g. 101-C3 (suggested: your cards and those shown face up)",
                           game=GAME_HELP)
    @app_commands.autocomplete(id=ac_card, game=ac_game)
    async def card(it: discord.Interaction, id: app_commands.Range[str, 1, 48], game: Optional[int] = None):
        await adapter.run(it, lambda c, w: s.card(c, w, id), game=game, name="card")

    return [help_, rules, card]
