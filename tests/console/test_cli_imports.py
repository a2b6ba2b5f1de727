"""`fieldpost SUBCOMMAND` imports that subcommand's module alone (a quick start for `roll`);
`fieldpost --help` still lists every subcommand."""
from __future__ import annotations

import os
import subprocess
import sys

from bot.cli import SUBCOMMANDS, build_parser
from tests.cli_probe import PROBE, loaded


def _modules_after(argv: list[str], **env: str) -> set[str]:
    proc = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, check=True,
                          env={**os.environ, **env})
    return loaded(proc.stderr)


def test_a_roll_imports_no_other_subcommand():
    loaded = _modules_after(["roll", "bog", "--bog", "1", "--pins", "1", "--seed", "1"])
    assert "bot.console.roll" in loaded
    others = {m for name, m in SUBCOMMANDS.items() if name != "roll"}
    assert not loaded & others
    assert not {"bot.app.service", "bot.render.service", "bot.discord.client", "discord"} & loaded


def test_help_lists_every_subcommand(capsys):
    text = build_parser().format_help()
    assert all(name in text for name in SUBCOMMANDS)


def test_a_named_subcommand_parses_as_before():
    args = build_parser("roll").parse_args(["roll", "bog", "--bog", "1", "--pins", "1"])
    assert args.run.__module__ == "bot.console.roll"


def test_a_roll_loads_no_rule_and_no_content_model_and_a_draw_only_the_content():
    """`import engine` is lazy: the roll registry and its checks' arithmetic (engine/core/formulas.py)
    need no rule package; a card draw loads the catalogue's models, still no rule."""
    rules = {"engine.apply", "engine.legal", "engine.core.state", "engine.infantry", "engine.vehicles", "engine.turn"}
    bog = _modules_after(["roll", "bog", "--bog", "1", "--pins", "1", "--seed", "1"])
    assert "engine.rolls.sergeants" in bog
    assert not (rules | {"engine.core.content"}) & bog
    draw = _modules_after(["roll", "hitcheck", "--seed", "1"])
    assert "engine.core.content" in draw
    assert not rules & draw


def test_a_scripted_game_loads_no_campaign_position_or_record_module(tmp_path):
    """`fieldpost play --script` on a scenario reaches its first command without the campaign rules
    and records, positions or game records (they load only on the paths that use them: a quick
    start; the store's campaign records alone were 3% of it), nor the hot-seat screens."""
    script = tmp_path / "one.txt"
    script.write_text("plan 115-P2 110-C3 109-C1\n", encoding="utf-8")
    loaded = _modules_after(["play", "--scenario", "hedgerow-dawn", "--seed", "7", "--script", str(script)])
    assert {"bot.app.service", "engine.apply"} <= loaded  # the game was played
    assert not {"engine.campaign", "engine.position", "engine.record", "bot.app.campaign",
                "bot.console.campaign", "bot.store.campaigns", "bot.console.hotseat"} & loaded


def test_a_warm_start_does_not_import_pyyaml(tmp_path):
    """With the parsed content cached, `fieldpost play` reads no YAML, so it does not import PyYAML
    (5% of a start, most of it a regular expression PyYAML compiles as it loads)."""
    script = tmp_path / "one.txt"
    script.write_text("plan 115-P2 110-C3 109-C1\n", encoding="utf-8")
    argv = ["play", "--scenario", "hedgerow-dawn", "--seed", "7", "--script", str(script)]
    cold = _modules_after(argv, FIELDPOST_CACHE=str(tmp_path / "cache"))
    assert "yaml" in cold  # the first run parsed the content
    warm = _modules_after(argv, FIELDPOST_CACHE=str(tmp_path / "cache"))
    assert "engine.apply" in warm and "yaml" not in warm
