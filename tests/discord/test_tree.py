"""The whole command tree exported offline (`to_dict(tree)` for every command) against
Discord's limits (LESSONS: a 26th subcommand once broke registration everywhere), and the
/act commands against the engine's script grammar."""
from __future__ import annotations

import re
from typing import Any

import discord
import pytest

from engine.core.commands import GRAMMAR
from tests.discord.conftest import command

NAME = re.compile(r"^[-_a-z0-9]{1,32}$")
SUB = (1, 2)  # option types: subcommand, subcommand group


@pytest.fixture
def payloads(tree) -> list[dict[str, Any]]:
    return [cmd.to_dict(tree) for cmd in tree.get_commands()]


def walk(node: dict[str, Any]):
    yield node
    for child in node.get("options", []):
        yield from walk(child)


def size(node: dict[str, Any]) -> int:
    """What Discord counts against a command's 8,000 characters: names, descriptions, values."""
    own = sum(len(str(node[k])) for k in ("name", "description", "value") if k in node)
    return own + sum(size(c) for c in node.get("options", []) + node.get("choices", []))


def test_the_tree_has_every_command_of_the_issue(tree):
    names = {c.name for c in tree.get_commands()}
    assert names == {"game", "hand", "plan", "act", "vehicle", "field", "board", "log", "soldier", "panel",
                     "campaign", "roll", "help", "rules", "card", "me", "stats", "settings"}
    assert "play" in {c.name for c in command(tree, "campaign").commands}
    assert {c.name for c in command(tree, "game").commands} == {
        "new", "join", "leave", "forces", "start", "status", "undo", "rollback", "abandon", "always-pass",
        "reslot", "replace", "organiser", "pause", "resume", "deadline", "extend", "nudge", "advance",
        "settings", "watch", "unwatch", "record"}
    assert {c.name for c in command(tree, "me").commands} == {"away", "back"}
    assert {c.name for c in command(tree, "stats").commands} == {"player", "server"}
    assert {c.name for c in command(tree, "settings").commands} == {"organiser-role"}


def test_names_are_lower_case_and_short(payloads):
    for payload in payloads:
        for node in walk(payload):
            assert NAME.match(node["name"]), node["name"]


def test_descriptions_fit(payloads):
    for payload in payloads:
        for node in walk(payload):
            assert 1 <= len(node["description"]) <= 100, (node["name"], node["description"])
            for choice in node.get("choices", []):
                assert 1 <= len(choice["name"]) <= 100 and len(str(choice["value"])) <= 100


def test_at_most_25_options_subcommands_and_choices_per_level(payloads):
    assert len(payloads) <= 100  # global commands per application
    for payload in payloads:
        for node in walk(payload):
            assert len(node.get("options", [])) <= 25, node["name"]
            assert len(node.get("choices", [])) <= 25, node["name"]


def test_required_options_come_before_optional_ones(payloads):
    for payload in payloads:
        for node in walk(payload):
            flags = [o.get("required", False) for o in node.get("options", []) if o["type"] not in SUB]
            assert flags == sorted(flags, reverse=True), node["name"]


def test_each_command_stays_within_discords_size_budget(payloads):
    for payload in payloads:
        assert size(payload) <= 8000, (payload["name"], size(payload))


def leaves(payload: dict[str, Any]):
    """The commands a player can run: nodes whose options are parameters, not subcommands."""
    options = payload.get("options", [])
    if any(o["type"] in SUB for o in options):
        for o in options:
            if o["type"] in SUB:
                yield from leaves(o)
    else:
        yield payload


def test_every_play_command_takes_an_optional_game(payloads):
    found = 0
    for payload in payloads:
        # they name a check, a campaign, a topic, a player or a server, not a game
        if payload["name"] in ("roll", "campaign", "help", "rules", "me", "stats", "settings"):
            continue
        for leaf in leaves(payload):
            if leaf["name"] == "new":
                continue
            games = [o for o in leaf.get("options", []) if o["name"] == "game"]
            assert games and games[0]["type"] == 4 and not games[0].get("required"), leaf["name"]
            assert games[0].get("autocomplete"), leaf["name"]
            found += 1
    # /game but new; hand, plan, board, log, soldier, panel, card; /act; /vehicle; /field
    assert found == 22 + 7 + 25 + 17 + 10


def grammar_verbs() -> set[str]:
    """Every verb of the script grammar, the "a | b" lines' later halves too."""
    verbs = set()
    for row in GRAMMAR.splitlines():
        spec = re.split(r"\s{3,}", row.strip())[0].replace("[tag|team|note]", "").replace("[via]", "")
        for part in spec.split("|"):
            m = re.match(r"^\s*([a-z]+)\b", part)
            if m:
                verbs.add(m.group(1))
    return verbs - {"vehicles"}  # the heading of the vehicle lines


def test_act_and_vehicle_mirror_every_verb_of_the_script_grammar(tree):
    from bot.discord.vehicle_cog import VERBS
    from engine.core.commands import ADVANCED_GRAMMAR, VEHICLE_COMMANDS
    vehicle_verbs = {cls.model_fields["type"].default for cls in VEHICLE_COMMANDS}
    act = {c.name for c in command(tree, "act").commands}
    vehicle = {VERBS.get(c.name, c.name) for c in command(tree, "vehicle").commands}
    # /plan is its own command, `keep` is /act unhold without cards, `alwayspass` is /game always-pass,
    # `reslot` is /game reslot, `use` is /act toss with item, `moveplusplus` is /vehicle moveplus with double:
    advanced = {line.split()[0] for line in ADVANCED_GRAMMAR.splitlines()} - {"alwayspass", "reslot", "use"}
    assert (grammar_verbs() | advanced) - {"plan", "keep", "moveplusplus"} == act | vehicle
    assert vehicle == vehicle_verbs and not act & vehicle_verbs


def test_vehicle_commands_take_the_script_lines_options(tree):
    """Each /vehicle command's required options are the script line's words, in order."""
    words = {"move": ["actor", "to"], "fire": ["actor", "weapon", "target"], "mount": ["soldier", "plate"],
             "shift": ["crewman", "post"], "repair": ["crewman", "location"], "turn": ["actor", "direction"]}
    for name, required in words.items():
        cmd = command(tree, f"vehicle {name}")
        assert [p.name for p in cmd.parameters if p.required] == required, name
        assert all(p.autocomplete or p.choices or p.type.name in ("boolean", "integer")
                   for p in cmd.parameters if p.name not in ("via", "direction")), name


def test_dm_only_game_group_is_guild_only(payloads):
    game = next(p for p in payloads if p["name"] == "game")
    assert game.get("dm_permission") is False or game.get("contexts") == [0]


def test_field_mirrors_every_verb_of_the_battlefield_grammar(tree):
    """/field has one subcommand per BATTLEFIELD_GRAMMAR verb (issue 9), and none of /act's or /vehicle's."""
    from bot.discord.field_cog import VERBS
    from engine.core.commands import BATTLEFIELD_GRAMMAR, BATTLEFIELD_VERBS
    grammar = {row.replace("[via]", "").split()[0] for row in BATTLEFIELD_GRAMMAR.splitlines()}
    field = {VERBS.get(c.name, c.name) for c in command(tree, "field").commands}
    assert field == grammar == set(BATTLEFIELD_VERBS)
    others = {c.name for c in command(tree, "act").commands} | {c.name for c in command(tree, "vehicle").commands}
    assert not field & others


def test_field_commands_take_the_script_lines_options(tree):
    """Each /field command's required options are the script line's words, in order, and every
    word option is suggested (or a choice)."""
    words = {"assail": ["soldier", "plate", "part"], "call": ["actor", "kind", "tile"], "adjust": ["actor", "letter"],
             "barrage": ["kind", "turn", "tile"], "popsmoke": ["actor"], "handoff": ["soldier", "item", "to"],
             "recover": ["soldier"], "climb": ["soldier", "plate"], "laymines": ["actor", "tile", "tokens"],
             "clearmines": ["soldier", "tile"]}
    for name, required in words.items():
        cmd = command(tree, f"field {name}")
        assert [p.name for p in cmd.parameters if p.required] == required, name
        assert all(p.autocomplete or p.choices or p.type.name in ("boolean", "integer")
                   for p in cmd.parameters if p.name not in ("via",)), name
        via = [p for p in cmd.parameters if p.name == "via"]
        from engine.core.commands import BATTLEFIELD_ACTION_VERBS
        assert bool(via) == (name in BATTLEFIELD_ACTION_VERBS), name


def test_the_server_settings_carry_manage_server_and_game_commands_stay_visible(payloads):
    """Discord lets a default member permission sit only on a top-level command: /settings
    carries Manage Server; /game's organiser commands are subcommands (a game's creator needs
    no permission), so the use-cases check them (tests/app/test_organiser.py)."""
    by_name = {p["name"]: p for p in payloads}
    assert int(by_name["settings"]["default_member_permissions"]) == discord.Permissions(manage_guild=True).value
    assert by_name["game"].get("default_member_permissions") is None


def test_every_help_text_names_only_commands_of_the_tree(payloads):
    """Each help topic and rules text (assets/help) names slash commands that exist: each word
    after the slash is a command, group or subcommand of the exported tree, down to a leaf."""
    from bot.app.help import TOPICS, commands_named, load_texts
    topics, rules = load_texts()
    assert list(topics) == list(TOPICS) and len(rules) >= 20
    by_name = {p["name"]: p for p in payloads}
    named = 0
    for text in [*topics.values(), *rules.values()]:
        for words in commands_named(text.body):
            node = by_name.get(words[0])
            assert node is not None, (text.key, words)
            for word in words[1:]:
                subs = {o["name"]: o for o in node.get("options", []) if o["type"] in SUB}
                if not subs:
                    break  # a leaf: the rest are its options' values
                assert word in subs, (text.key, words)
                node = subs[word]
            named += 1
    assert named > 100


def test_a_help_text_naming_a_missing_command_is_caught(payloads):
    """The check above can fail: a made-up subcommand is not found."""
    from bot.app.help import commands_named
    by_name = {p["name"]: p for p in payloads}
    words = commands_named("use `/game teleport` now")[0]
    subs = {o["name"] for o in by_name[words[0]].get("options", []) if o["type"] in SUB}
    assert words == ["game", "teleport"] and "teleport" not in subs
