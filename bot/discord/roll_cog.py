"""`/roll <system> <check>`: the rule rolls of `engine.rolls` as Discord slash commands.

Every command and option is generated from the registry, so a check registered in the engine
shows up here without code. `roll_group()` builds the `/roll` group; the bot attaches it to its
command tree. Answers show the working; bad input gets an ephemeral one-line reason.
"""
from __future__ import annotations

import inspect
import secrets
from typing import Any, Optional

import discord
from discord import app_commands

from engine import rolls

MESSAGE_LIMIT = 2000


def roll_group() -> app_commands.Group:
    """The `/roll` command group: one subcommand group per rulebook, one command per check."""
    root = app_commands.Group(name="roll", description="One-command rule rolls and table look-ups")
    for system in rolls.systems():
        checks = rolls.checks_for(system.key)
        if not checks:
            continue
        group = app_commands.Group(name=system.slash, description=system.help, parent=root)
        for chk in checks:
            group.add_command(_command(chk, group))
    return root


def discord_params(chk: rolls.Check) -> list[rolls.Param]:
    """The options offered on Discord: all but explicit die values, which the bot always rolls."""
    return [p for p in chk.params if not p.die]


def _annotation(param: rolls.Param) -> Any:
    if param.kind == "bool":
        base: Any = bool
    elif param.kind == "int" and (param.minimum is not None or param.maximum is not None):
        base = app_commands.Range[int, param.minimum, param.maximum]
    elif param.kind == "int":
        base = int
    else:
        base = str  # choices (offered by autocomplete) and comma-separated lists
    # Optional[...] rather than `| None`: Range[...] is a runtime object, not a type.
    return base if param.required else Optional[base]  # noqa: UP045


def suggest(param: rolls.Param, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for a choice option: values containing what was typed, with their labels."""
    typed = current.strip().lower()
    out = []
    for value in param.choices:
        label = param.labels.get(value, "")
        if typed in value.lower() or typed in label.lower():
            name = f"{value}: {label}" if label else value
            out.append(app_commands.Choice(name=name if len(name) <= 100 else name[:99] + "…", value=value))
    return out[:25]


def _autocompleter(param: rolls.Param):
    async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return suggest(param, current)

    return complete


def _command(chk: rolls.Check, parent: app_commands.Group) -> app_commands.Command:
    async def callback(interaction: discord.Interaction, **options: Any) -> None:
        await answer(interaction, chk.name, options)

    # discord.py reads option names, types and defaults from the callback's signature.
    offered = sorted(discord_params(chk), key=lambda p: not p.required)
    first = inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction)
    parameters = [first]
    parameters += [
        inspect.Parameter(
            p.name,
            inspect.Parameter.KEYWORD_ONLY,
            annotation=_annotation(p),
            default=inspect.Parameter.empty if p.required else None,
        )
        for p in offered
    ]
    callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    callback.__name__ = callback.__qualname__ = chk.name.replace("-", "_")
    app_commands.describe(**{p.name: p.help for p in offered})(callback)
    app_commands.rename(**{p.name: p.option for p in offered if p.option != p.name})(callback)
    # Choices go through autocomplete: static choices would count against Discord's
    # 8,000-character budget for the whole /roll command.
    completers = {p.name: _autocompleter(p) for p in offered if p.kind == "choice"}
    if completers:
        app_commands.autocomplete(**completers)(callback)
    return app_commands.Command(name=chk.slash, description=chk.help, callback=callback, parent=parent)


async def answer(interaction: discord.Interaction, check_name: str, options: dict[str, Any]) -> None:
    """Roll `check_name` with the given options and reply; bad input gets an ephemeral reason."""
    seed = secrets.randbits(64)
    try:
        result = rolls.roll(check_name, options, seed)
    except rolls.RollError as exc:
        await interaction.response.send_message(f"Can't roll that: {exc}", ephemeral=True)
        return
    await interaction.response.send_message(render(result, check_name, options))


def render(result: rolls.RollResult, check_name: str, options: dict[str, Any]) -> str:
    """The reply: bold title, the working, and a footer with the seed and the console command."""
    replay = f"fieldpost roll {check_name}" + "".join(_flag(k, v) for k, v in options.items() if v not in (None, False))
    footer = f"-# seed {result.data['seed']} · `{replay} --seed {result.data['seed']}`"
    body = [f"**{result.title}**", *result.lines]
    text = "\n".join([*body, footer])
    while len(text) > MESSAGE_LIMIT and len(body) > 1:
        body = body[:-1]
        text = "\n".join([*body, "…", footer])
    return text[:MESSAGE_LIMIT]


def _flag(name: str, value: Any) -> str:
    flag = " --" + name.replace("_", "-")
    return flag if value is True else f"{flag} {value}" if not str(value).startswith("-") else f"{flag}={value}"
