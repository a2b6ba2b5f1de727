"""Reading a command fast reads it as the plain way did: item_names skips the names a line cannot
hold and keeps its patterns with the setup, check_references revalidates a model from its
__dict__ rather than dict(model), parse_command keeps its verb tables at module level. Each is
checked here against the plain implementation it replaced (kept below as the reference): the same
line, the same command, the same refusal word for word, over every legal command of positions
along seeded random games and hostile lines and models built from them."""
from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import new_game
from engine.agent import RandomAgent
from engine.apply import apply
from engine.core import commands as C
from engine.core import references as R
from engine.core.errors import RuleError, UsageError
from engine.core.state import GameState
from engine.legal import legal_commands
from engine.script import FLAGS, ITEM_VERBS, VIAS, item_names, parse_line, soldier_for
from engine.turn.setup import SeatSpec
from tests.hostile_input import hostile_line, hostile_model

SCENARIOS = ("tardieu-bombardment", "hedgerow-dawn", "mill-at-tardieu", "night-orchard")


# ------------------------------------------------------------------ the plain implementations
def plain_item_names(st: GameState, line: str) -> str:
    try:
        words = C.read_words(line)
    except RuleError:
        return line
    verbs = [w.lower() for w in words[:2]]
    if not verbs or not (verbs[0] in ITEM_VERBS or (verbs[0] in VIAS and verbs[1:] and verbs[1] in ITEM_VERBS)):
        return line
    verb = verbs[1] if verbs[0] in VIAS else verbs[0]
    flags = ""
    while (m := re.search(r"\s+(\w+)\s*$", line)) and m.group(1).lower() in FLAGS.get(verb, ()):
        line, flags = line[:m.start()], m.group(0) + flags
    for item, d in sorted(st.setup.equipment.items(), key=lambda kv: -len(kv[1].name)):
        spelled = r"\s+".join(re.escape(part) for part in d.name.split())
        line = re.sub(rf"""(?i)(["']?)(?<![\w-]){spelled}(?![\w-])\1""", item, line)
    return line + flags


def plain_check_references(st: GameState, cmd: C.Cmd) -> C.Cmd:
    if not isinstance(cmd, C.Cmd):
        raise UsageError(f"not a command: {type(cmd).__name__}.")
    cmd = type(cmd).model_validate(dict(cmd))
    verb = cmd.type
    for field, kind, container in R.named_fields(type(cmd)):
        value = getattr(cmd, field)
        if value is None:
            continue
        values = value if container == "each" else value.keys() if container == "keys" else \
            value.values() if container == "values" else [value]
        for v in values:
            if v is not None:
                R._check(st, verb, R.ROLES.get(field, field), kind, v)
    return cmd


def outcome(make) -> tuple:
    """What building a command came to: the command, or the refusal's kind and words."""
    try:
        return "made", make()
    except RuleError as exc:
        return "refused", type(exc).__name__, str(exc)


def read_plainly(game: GameState, line: str, seat: int) -> tuple:
    return outcome(lambda: C.parse_command(plain_item_names(game, line), seat=seat,
                                           resolve=lambda w: soldier_for(game, w)))


def same_reading(game: GameState, line: str, seat: int) -> None:
    assert item_names(game, line) == plain_item_names(game, line), line
    assert outcome(lambda: parse_line(game, line, seat)) == read_plainly(game, line, seat), line


def same_check(game: GameState, cmd) -> None:
    fast, plain = outcome(lambda: R.check_references(game, cmd)), outcome(lambda: plain_check_references(game, cmd))
    assert fast == plain, cmd
    if fast[0] == "made":
        assert type(fast[1]) is type(plain[1]) and fast[1].__pydantic_fields_set__ == plain[1].__pydantic_fields_set__


# ------------------------------------------------------------------ positions and lines
@pytest.fixture(scope="module")
def positions(shipped) -> list[GameState]:
    out = []
    for sc in SCENARIOS:
        sides = [s.id.value for s in shipped.scenario(sc).sides]
        for seed in (3, 11):
            game, _ = new_game(shipped, sc, [SeatSpec(name=f"P{i}", side=sides[i % 2]) for i in range(2)], seed)
            agent = RandomAgent(seed)
            for n in range(60):
                if game.step == "over":
                    break
                if n % 4 == 0:
                    out.append(game)
                game, _ = apply(game, agent.choose(game, agent.seat_to_act(game)))
    return out


_legal: dict[tuple[int, int], list[C.Cmd]] = {}


def legal(game: GameState, seat: int) -> list[C.Cmd]:
    key = (id(game), seat)
    if key not in _legal:
        _legal[key] = legal_commands(game, seat)
    return _legal[key]


def item_line(rng: random.Random, game: GameState) -> str:
    """A line naming equipment or ordnance as a player might type it: the name in any case, its
    words spaced or quoted anyhow, a letter swapped for one (?i) takes for it ("ſ", the Kelvin
    sign), cut short, glued to a word, or another item's id; with or without closing flags."""
    names = [d.name for d in game.setup.equipment.values()] + list(game.setup.equipment)
    name = rng.choice(names)
    how = rng.choice(("as is", "upper", "lower", "swapcase", "spaces", "quoted", "unicode", "cut", "glued"))
    if how == "upper":
        name = name.upper()
    elif how == "lower":
        name = name.lower()
    elif how == "swapcase":
        name = name.swapcase()
    elif how == "spaces":
        name = rng.choice(("  ", "\t", " \u00a0 ", " ")).join(name.split())
    elif how == "quoted":
        q = rng.choice(("'", '"'))
        name = q + name + rng.choice((q, "", "'" if q == '"' else '"'))
    elif how == "unicode":
        name = name.replace(rng.choice("sSkK"), rng.choice(("ſ", "\u212a", "é")), 1)
    elif how == "cut":
        name = name[:rng.randrange(1, len(name) + 1)]
    else:
        name = rng.choice(("x", "-", "_", "1")) + name if rng.random() < 0.5 else name + rng.choice(("x", "-", "9"))
    verb = rng.choice(ITEM_VERBS)
    head = ([rng.choice(VIAS)] if rng.random() < 0.3 else []) + [verb if rng.random() < 0.8 else verb.upper()]
    serial = str(rng.choice(list(game.soldiers) + list(game.vehicles) or [101]))
    tile = rng.choice(("8A", "L4A", "12B", name))
    body = {"call": [serial, name, tile], "barrage": [name, str(rng.randrange(1, 6)), tile],
            "use": [serial, name, rng.choice((serial, "at 3,4"))], "handoff": [serial, name, serial],
            "recover": [serial, name]}[verb]
    flags = [rng.choice(("fake", "smoke", "SMOKE", "relay", "fake smoke")) for _ in range(rng.randrange(3))]
    return " ".join(head + body + flags)


# ------------------------------------------------------------------ the tests
def test_every_legal_command_reads_and_checks_as_the_plain_way_does(positions):
    seen = 0
    for game in positions:
        for seat in range(len(game.seats)):
            for cmd in legal(game, seat):
                same_reading(game, str(cmd), seat)
                same_check(game, cmd)
                seen += 1
    assert seen > 1000


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_hostile_and_item_lines_read_as_the_plain_way_does(positions, data):
    game = data.draw(st.sampled_from(positions))
    seat = data.draw(st.integers(0, len(game.seats) - 1))
    rng = data.draw(st.randoms(use_true_random=False))
    line = item_line(rng, game) if rng.random() < 0.5 else hostile_line(rng, game, [str(c) for c in legal(game, seat)])
    same_reading(game, line, seat)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_hostile_models_are_checked_as_the_plain_way_does(positions, data):
    game = data.draw(st.sampled_from(positions))
    seat = data.draw(st.integers(0, len(game.seats) - 1))
    cmds = legal(game, seat)
    if not cmds:
        return
    unchecked, _ = hostile_model(data.draw(st.randoms(use_true_random=False)), game, cmds)
    same_check(game, unchecked)


def test_a_model_with_data_beside_its_fields_is_refused_as_before(positions):
    """A program's model_copy(update=...) may put in a name that is no field: the check sees it
    as dict(model) shows it, and refuses it as before."""
    game = positions[0]
    cmd = next(c for c in legal(game, 0))
    for update in ({"bogus": 1}, {"_private": 2}, {"seat": -1}):
        odd = cmd.model_copy(update=update)
        same_check(game, odd)
        assert outcome(lambda odd=odd: R.check_references(game, odd))[0] == ("made" if "_private" in update else "refused")


def test_item_names_finds_every_name_in_any_case_and_spacing(positions):
    game = next(g for g in positions if g.setup.equipment)
    for item, d in game.setup.equipment.items():
        for spelled in (d.name, d.name.upper(), "  ".join(d.name.split()), f'"{d.name.lower()}"'):
            assert item_names(game, f"call 101 {spelled} 8A fake") == f"call 101 {item} 8A fake"


def test_a_name_spelled_with_letters_re_takes_for_ascii_is_found_as_before(positions):
    """(?i) takes "ſ" for an s and the Kelvin sign for a k: a line holding them is not ASCII, so
    no name is skipped for a word the lower-cased line seems to lack."""
    game = next(g for g in positions if g.setup.equipment)
    found = 0
    for d in game.setup.equipment.values():
        for odd in ("ſ", "\u212a"):
            spelled = d.name.replace("s", odd).replace("k", odd) if odd == "ſ" else d.name.replace("k", odd)
            if spelled == d.name:
                continue
            line = f"barrage {spelled} 3 L4A smoke"
            assert item_names(game, line) == plain_item_names(game, line)
            found += item_names(game, line) != line
    assert found > 5
