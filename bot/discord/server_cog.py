"""A member's and a server's own commands: `/me away|back` (an absence: clocks stretch or
defaults apply, as each game says), `/stats player|server` (statistics of finished games), and
`/settings organiser-role` (a role whose members organise the server's games; the group
carries Manage Server as its default member permission, and the use-case checks it too)."""
from __future__ import annotations

from typing import Optional

import discord
from discord import app_commands

from bot.discord.adapter import Adapter


def server_groups(adapter: Adapter) -> list[app_commands.Group]:
    s = adapter.service

    me = app_commands.Group(name="me", description="You across your games: absences")

    @me.command(name="away", description="You are away: your clocks wait for you (or defaults apply)")
    @app_commands.describe(until="3d, 36h, a UTC date 2026-06-10 (18:00), or a Discord timestamp <t:...>")
    async def me_away(it: discord.Interaction, until: app_commands.Range[str, 1, 40]):
        await adapter.run(it, lambda c, w: s.away(c, until), name="me away")

    @me.command(name="back", description="You are back: your clocks run as usual")
    async def me_back(it: discord.Interaction):
        await adapter.run(it, lambda c, w: s.back(c), name="me back")

    stats = app_commands.Group(name="stats", description="Statistics of finished games in this server",
                               guild_only=True)

    @stats.command(name="player", description="A player's games, wins, losses, kills and medals here")
    @app_commands.describe(user="whose (leave out: yours)")
    async def stats_player(it: discord.Interaction, user: Optional[discord.Member] = None):
        await adapter.run(it, lambda c, w: s.stats(c, w, user.id if user else None), name="stats player")

    @stats.command(name="server", description="The most active players of this server")
    async def stats_server(it: discord.Interaction):
        await adapter.run(it, s.server_stats, name="stats server")

    settings = app_commands.Group(name="settings", description="This server's Fieldpost settings",
                                  guild_only=True, default_permissions=discord.Permissions(manage_guild=True))

    @settings.command(name="organiser-role", description="A role whose members organise every game here")
    @app_commands.describe(role="the role (leave out: no organiser role)")
    async def settings_role(it: discord.Interaction, role: Optional[discord.Role] = None):
        await adapter.run(it, lambda c, w: s.set_organiser_role(c, w, role.id if role else None),
                          name="settings organiser-role")

    return [me, stats, settings]
