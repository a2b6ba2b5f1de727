"""The /roll slash commands, offline: the exported payload against Discord's limits, and the
callbacks answering mocked interactions."""
from __future__ import annotations

import re
from typing import Any
from unittest.mock import AsyncMock, MagicMock

import discord
import pytest
from discord import app_commands

from bot.discord import roll_cog
from engine import rolls

NAME = re.compile(r"^[-_a-z0-9]{1,32}$")


@pytest.fixture(scope="module")
def group() -> app_commands.Group:
    return roll_cog.roll_group()


@pytest.fixture(scope="module")
def payload(group: app_commands.Group) -> dict[str, Any]:
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    return group.to_dict(tree)


def interaction() -> MagicMock:
    it = MagicMock(spec=discord.Interaction)
    it.response = MagicMock()
    it.response.send_message = AsyncMock()
    return it


def command(group: app_commands.Group, system: str, name: str) -> app_commands.Command:
    sub = group.get_command(system)
    assert isinstance(sub, app_commands.Group)
    cmd = sub.get_command(name)
    assert isinstance(cmd, app_commands.Command)
    return cmd


def _walk(node: dict[str, Any]):
    yield node
    for child in node.get("options", []):
        yield from _walk(child)


def _size(node: dict[str, Any]) -> int:
    own = sum(len(str(node[k])) for k in ("name", "description", "value") if k in node)
    return own + sum(_size(c) for c in node.get("options", []) + node.get("choices", []))


# --- The exported command payload ---------------------------------------------------------------

def test_names_and_descriptions_fit_discord(payload):
    for node in _walk(payload):
        assert NAME.match(node["name"]), node["name"]
        assert 1 <= len(node["description"]) <= 100, node["name"]
        for choice in node.get("choices", []):
            assert 1 <= len(choice["name"]) <= 100


def test_option_subcommand_and_choice_counts_fit_discord(payload):
    assert len(payload["options"]) <= 25
    for node in _walk(payload):
        assert len(node.get("options", [])) <= 25, node["name"]
        assert len(node.get("choices", [])) <= 25, node["name"]


def test_required_options_come_first(payload):
    for node in _walk(payload):
        flags = [o.get("required", False) for o in node.get("options", []) if o["type"] > 2]
        assert flags == sorted(flags, reverse=True), node["name"]


def test_the_whole_roll_command_stays_inside_discords_size_budget(payload):
    # Discord refuses a command whose names, descriptions and values add up to more than 8,000.
    assert _size(payload) <= 8000
    core = sum(_size(s) for s in payload["options"] if s["name"] in ("how", "k47", "sw", "hc"))
    assert core <= 5000, "leave room for the Sergeants core checks"


def test_every_check_is_a_subcommand_with_its_options(group):
    for chk in rolls.all_checks():
        system = next(s for s in rolls.systems() if s.key == chk.system)
        cmd = command(group, system.slash, chk.slash)
        offered = {p.display_name for p in cmd.parameters}
        assert offered == {p.option for p in chk.params if not p.die}


def test_choice_options_use_autocomplete(payload):
    sw = next(s for s in payload["options"] if s["name"] == "sw")
    minefield = next(c for c in sw["options"] if c["name"] == "minefield")
    unit = next(o for o in minefield["options"] if o["name"] == "unit")
    assert unit["autocomplete"] is True
    assert "choices" not in unit


def test_autocomplete_filters_values_and_labels():
    unit = rolls.get("sw-minefield").param("unit")
    names = [c.value for c in roll_cog.suggest(unit, "half")]
    assert names == ["armored-car"]
    assert len(roll_cog.suggest(rolls.get("sw-terrain").param("terrain"), "")) == 25


# --- Callbacks ----------------------------------------------------------------------------------

async def test_penetration_answers_with_the_working(group, monkeypatch):
    monkeypatch.setattr(roll_cog.secrets, "randbits", lambda bits: 1234)
    it = interaction()
    await command(group, "how", "penetration").callback(it, hits=4, pen=9, blast=1, armor=4, damage_x=None)
    (message,), kwargs = it.response.send_message.call_args
    assert not kwargs.get("ephemeral")
    assert message.startswith("**Penetration (Hell on Wheels)**")
    assert "**10 damage results**" in message
    assert "seed 1234" in message
    assert "fieldpost roll penetration --hits 4 --pen 9 --blast 1 --armor 4 --seed 1234" in message
    assert len(message) <= 2000


async def test_dice_are_rolled_by_the_bot_from_secrets(group, monkeypatch):
    monkeypatch.setattr(roll_cog.secrets, "randbits", lambda bits: 99)
    first, second = interaction(), interaction()
    cmd = command(group, "sw", "minefield")
    await cmd.callback(first, unit="tank")
    await cmd.callback(second, unit="tank")
    assert first.response.send_message.call_args == second.response.send_message.call_args
    assert rolls.roll("sw-minefield", {"unit": "tank"}, 99).lines[0] in first.response.send_message.call_args[0][0]


async def test_bad_input_answers_ephemerally_with_a_reason(group):
    it = interaction()
    await command(group, "how", "protection").callback(it, hits=4, position="unbuttoned", armor=None)
    (message,), kwargs = it.response.send_message.call_args
    assert kwargs["ephemeral"] is True
    assert "--armor" in message


async def test_a_typed_choice_that_is_not_offered_names_the_valid_ones(group):
    it = interaction()
    await command(group, "hc", "at").callback(it, firer="huge", target="L")
    (message,), kwargs = it.response.send_message.call_args
    assert kwargs["ephemeral"] is True
    assert "one of VL, L, M, H, VH" in message


# A bug inside /roll is answered by the tree's on_error, through the gateway:
# tests/discord/test_errors.py::test_a_bug_a_callback_lets_through_reaches_the_trees_on_error


def test_long_answers_are_cut_to_discords_message_limit():
    result = rolls.RollResult("Title", [f"line {i} " + "x" * 90 for i in range(60)], {"seed": 5})
    text = roll_cog.render(result, "bog", {"pins": 1})
    assert len(text) <= 2000
    assert text.endswith("`fieldpost roll bog --pins 1 --seed 5`")
