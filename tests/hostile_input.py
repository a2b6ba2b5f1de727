"""Hostile input for the fuzz tests and the fuzz benchmark: words a player (or a broken client)
may type where a command expects a dog tag, a plate, a card, a tile or a facing, and ways to
spoil a legal command. Every generator draws from a `random.Random`, so hypothesis drives it
through `st.randoms()` and tests/benchmarks/fuzz_commands.py through a seeded one."""
from __future__ import annotations

import random

from engine.core import commands as C
from engine.core.state import GameState

UNICODE_DIGITS = ["²", "١٢", "１２", "𝟙𝟘𝟙", "٣", "߁", "½", "⑫", "೧೦೧", "Ⅻ"]
HUGE_NUMBERS = ["9" * 5000, "9" * 30, "18446744073709551616", "9223372036854775808", "-1", "-0", "+5",
                "1_000", "1e3", "0x10", "007", "0"]
BROKEN_TEXT = ["\ud800", "a\udfff", "\udc80\udc80", "\x00", "nul\x00l", "\x1b[31m", "\u202e101", "\ufeff",
               "é", "e\u0301", "🪖"]
BAD_FACINGS = ["up", "north", "N", "nne", "x", "0", "Ｎ", "ｎｅ", "n e", "360"]
PUNCTUATION = [":", "-", "--", ",", "::", "+", "=", "+1=", "+4=X", "(", ")", "(1,", ",2", "'", '"', "\\", "@",
               "#", ":x", "x:", "-:-", "1,", ",", "*", "%s", "{}", "''", '""', "1,2,3", "(1,2", "12A:", "12A::cover"]
LONG_WORDS = ["A" * 2000, "1" * 50, "12A" * 400, "x" * 100_000]
PLAIN = ["main", "coax", "hull_mg", "AP", "HE", "road", "back", "cover", "exit", "face", "take", "release",
         "by", "at", "for", "squad", "grenade", "hull", "turret", "cabin", "fake", "on", "off", "track--",
         "engine", "driver", "gunner", "loader", "commander", "99Z", "L9B", "12A", "0A", "999", "4999", "500",
         "60000", "100000"]

FIXED_WORDS = UNICODE_DIGITS + HUGE_NUMBERS + BROKEN_TEXT + BAD_FACINGS + PUNCTUATION + LONG_WORDS + PLAIN

VERBS = sorted({"plan", "declare", "unhold", "keep", "move", "charge", "face", "sight", "draw", "cover", "rally",
                "hold", "shoot", "toss", "done", "pass", "hitplus", "pay", "decline", "fight", "capture", "kill",
                "stay", "react", "preempt", "then", "skip", "alwayspass", "use", "reslot", "vmove", "vturn",
                "turret", "moveplus", "moveplusplus", "unpin", "fire", "load", "acquire", "unbutton", "button", "hulldown",
                "vcover", "mount", "dismount", "shift", "repair", "extinguish", *C.BATTLEFIELD_VERBS})
VIAS = ["tag", "team", "note", "identity"]


def game_words(st: GameState) -> list[str]:
    """Words that mean something in this game, to put where they mean the wrong thing: every
    dog tag and plate, soldiers' names, every card (anyone's), tiles, crew posts and machinery."""
    words = [str(n) for n in st.soldiers] + [str(p) for p in st.vehicles]
    words += [st.setup.soldiers[n].name.split()[0] for n in list(st.soldiers)[:8]]
    words += list(st.setup.cards)[:40] + [c.lower() for c in list(st.setup.cards)[:5]]
    words += [t for row in st.setup.scenario.map for t in row][:20]
    for d in st.setup.vehicles.values():
        words += [loc.id for loc in d.locations] + [m.id for m in d.mgs]
    words += list(st.setup.equipment)[:10] + list(st.forces)
    return words


def spoil(rng: random.Random, line: str, words: list[str]) -> str:
    """One legal command line with one thing done wrong to one of its words."""
    parts = line.split()
    if not parts:
        return rng.choice(words)
    i = rng.randrange(len(parts))
    how = rng.choice(("replace", "replace", "replace", "insert", "delete", "append", "swap", "glue", "case"))
    word = rng.choice(words)
    if how == "replace":
        parts[i] = word
    elif how == "insert":
        parts.insert(i, word)
    elif how == "delete":
        del parts[i]
    elif how == "append":
        parts.append(word)
    elif how == "swap":
        j = rng.randrange(len(parts))
        parts[i], parts[j] = parts[j], parts[i]
    elif how == "glue":  # a word run into punctuation or another word
        parts[i] = parts[i] + rng.choice((":", ",", "-", "", "=", ":cover", word))
    else:
        parts[i] = parts[i].upper() if rng.random() < 0.5 else parts[i].swapcase()
    return " ".join(parts)


def random_line(rng: random.Random, words: list[str]) -> str:
    """A verb (perhaps behind tag/team/note) and zero to five words of anything."""
    head = [rng.choice(VIAS)] if rng.random() < 0.15 else []
    head.append(rng.choice(VERBS) if rng.random() < 0.9 else rng.choice(words))
    return " ".join(head + [rng.choice(words) for _ in range(rng.randrange(6))])


def hostile_line(rng: random.Random, st: GameState, legal: list[str]) -> str:
    """A line to throw at the parser: mostly a spoiled legal command, else a random one."""
    words = FIXED_WORDS + game_words(st)
    if legal and rng.random() < 0.7:
        return spoil(rng, rng.choice(legal), words)
    return random_line(rng, words)


def _hostile_value(rng: random.Random, st: GameState, current: object) -> object:
    """A wrong value: mostly of the same Python type as `current`, sometimes of another."""
    ids = list(st.soldiers) + list(st.vehicles)
    numbers = [-1, 0, 999, 4999, 60000, 2**63, 10**30, -2**63, 10**5000, rng.choice(ids), rng.choice(ids) + 1]
    if rng.random() < 0.1:
        return rng.choice([None, "101", 101.5, float("nan"), [101], [10**5000], (1, 2), {"a": 1}, True,
                           rng.choice(FIXED_WORDS)])
    if isinstance(current, bool):
        return not current
    if isinstance(current, int):
        return rng.choice(numbers)
    if isinstance(current, str):
        return rng.choice(FIXED_WORDS + game_words(st))
    if isinstance(current, tuple):
        return rng.choice([(-1, 0), (0, -5), (10**9, 3), (2**63, 2**63), (5000, 5000), (1,), (1, 2, 3)])
    if isinstance(current, list):
        pick = current[:]
        if pick and rng.random() < 0.6:
            pick[rng.randrange(len(pick))] = _hostile_value(rng, st, pick[0] if pick[0] is not None else "")
        else:
            pick = rng.choice([[], [None], pick * 40, [rng.choice(FIXED_WORDS)], [rng.choice(numbers)]])
        return pick
    if isinstance(current, dict):
        return rng.choice([{rng.choice(FIXED_WORDS): rng.choice(FIXED_WORDS)}, {9: "X"}, {-1: "X"},
                           {2: rng.choice(FIXED_WORDS)}])
    return rng.choice([rng.choice(FIXED_WORDS), rng.choice(numbers), (1, 1), ["X"]])


def hostile_model(rng: random.Random, st: GameState, legal: list[C.Cmd]) -> tuple[C.Cmd, dict]:
    """A legal command model with one field given a wrong value: the data a program (not the
    parser) could hand the engine. Returns the model built without validation (as
    `model_copy(update=...)` builds one) and the same data, for `model_validate`."""
    cmd = rng.choice(legal)
    name = rng.choice([f for f in type(cmd).model_fields if f != "type"])
    value = _hostile_value(rng, st, getattr(cmd, name))
    return cmd.model_copy(update={name: value}), {**dict(cmd), name: value}
