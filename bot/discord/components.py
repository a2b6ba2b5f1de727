"""Buttons and selects that survive restarts: every custom ID carries the game, the seat and
the state version (LESSONS: AsyncTI4 #96, boardgame.io's state ID), and a press is routed by
its ID alone (`DynamicItem`), so a message sent before a restart still works.

    fp:c:<game>:<seat>:<version>:<stamp>   a button for one offered answer
    fp:s:<game>:<seat>:<version>           a select of offered answers (values are stamps)
    fp:j:<game>:<side>                     join a new game's side
"""
from __future__ import annotations

import re

import discord

from bot.app import Prompt
from bot.discord.text import BUTTON_LABEL, SELECT_LABEL, trim

CHOICE = re.compile(r"fp:c:(?P<game>\d{1,20}):(?P<seat>\d{1,2}):(?P<version>\d{1,12}):(?P<stamp>[0-9a-f]{1,16})")
SELECT = re.compile(r"fp:s:(?P<game>\d{1,20}):(?P<seat>\d{1,2}):(?P<version>\d{1,12})")
JOIN = re.compile(r"fp:j:(?P<game>\d{1,20}):(?P<side>[A-Z]{1,8})")

BUTTONS_AT_MOST = 5  # one row; longer lists become a select


def adapter_of(interaction: discord.Interaction):
    return interaction.client.adapter  # type: ignore[attr-defined]


class ChoiceButton(discord.ui.DynamicItem[discord.ui.Button], template=CHOICE):
    def __init__(self, game: int, seat: int, version: int, stamp: str, label: str = "Choose") -> None:
        super().__init__(discord.ui.Button(
            label=trim(label, BUTTON_LABEL), style=discord.ButtonStyle.primary,
            custom_id=f"fp:c:{game}:{seat}:{version}:{stamp}"))
        self.game, self.seat, self.version, self.stamp = game, seat, version, stamp

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):  # noqa: D102
        return cls(int(match["game"]), int(match["seat"]), int(match["version"]), match["stamp"],
                   label=item.label or "Choose")

    async def callback(self, interaction: discord.Interaction) -> None:
        await adapter_of(interaction).press(interaction, self.game, self.seat, self.version, self.stamp)


class ChoiceSelect(discord.ui.DynamicItem[discord.ui.Select], template=SELECT):
    def __init__(self, game: int, seat: int, version: int,
                 options: list[discord.SelectOption] | None = None) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"fp:s:{game}:{seat}:{version}", placeholder="Choose…",
            options=options or [], min_values=1, max_values=1))
        self.game, self.seat, self.version = game, seat, version

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):  # noqa: D102
        return cls(int(match["game"]), int(match["seat"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = self.item.values
        if not values:
            await interaction.response.send_message("Pick one of the options.", ephemeral=True)
            return
        await adapter_of(interaction).press(interaction, self.game, self.seat, self.version, values[0])


class JoinButton(discord.ui.DynamicItem[discord.ui.Button], template=JOIN):
    def __init__(self, game: int, side: str) -> None:
        super().__init__(discord.ui.Button(
            label=f"Join {side}", style=discord.ButtonStyle.success, custom_id=f"fp:j:{game}:{side}"))
        self.game, self.side = game, side

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):  # noqa: D102
        return cls(int(match["game"]), match["side"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await adapter_of(interaction).join_pressed(interaction, self.game, self.side)


ITEMS = (ChoiceButton, ChoiceSelect, JoinButton)


def prompt_view(prompt: Prompt) -> discord.ui.View | None:
    """Buttons (up to five) or a select (up to 25) for a prompt's choices; None if it has none."""
    if not prompt.choices:
        return None
    view = discord.ui.View(timeout=None)
    if len(prompt.choices) <= BUTTONS_AT_MOST:
        for choice in prompt.choices:
            view.add_item(ChoiceButton(prompt.game_id, prompt.seat, prompt.version, choice.stamp,
                                       choice.label))
    else:
        options = [discord.SelectOption(label=trim(c.label, SELECT_LABEL), value=c.stamp)
                   for c in prompt.choices[:25]]
        view.add_item(ChoiceSelect(prompt.game_id, prompt.seat, prompt.version, options))
    return view


def join_view(game: int, sides: tuple[str, ...]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for side in sides[:BUTTONS_AT_MOST]:
        view.add_item(JoinButton(game, side))
    return view
