"""Scripts: one command per line, `#` comments, `@PLAYER` lines to switch who acts.

    @Ann                  # Ann acts from here on (a seat name or number)
    plan 101-C1 104-C2 -
    move 101 12A:cover face e
    @Bo
    plan 201-C3 202-C1 203-P2

The grammar is in engine.core.commands.GRAMMAR and docs/script.md; the Discord slash commands say
the same things.
"""
from __future__ import annotations

import difflib
import re
from typing import get_args

from engine.apply import apply
from engine.core.commands import (
    MAX_DIGITS,
    NUMBER,
    Cmd,
    Via,
    number,
    parse_command,
    read_words,
    shown,
    text_problem,
)
from engine.core.errors import RuleError, UsageError
from engine.core.log import Event
from engine.core.per_setup import memo
from engine.core.state import GameState


class ScriptError(RuleError):
    """A refused script line: which line, and the rule's reason."""

    def __init__(self, line_no: int, line: str, reason: str) -> None:
        text = line.strip()
        super().__init__(f"line {line_no}: {shown(text) if text_problem(text) or len(text) > 120 else text}: {reason}")
        self.line_no, self.line, self.reason = line_no, line, reason


def seat_for(st: GameState, word: str) -> int:
    w = word.strip().lstrip("@")
    if NUMBER.fullmatch(w) and int(w) < len(st.seats):
        return int(w)
    for s in st.seats:
        if s.name.lower() == w.lower():
            return s.index
    raise UsageError(f"no player {shown(word)}; players: " + ", ".join(f"{s.index} {s.name}" for s in st.seats))


def soldier_for(st: GameState, word: str) -> int:
    """A dog tag number, or a soldier's name as the player sees it: "Whitcomb", "Cpl. Whitcomb"
    (quoted in a line), or any unambiguous start of the name."""
    if word.isascii() and word.isdigit() and len(word) <= MAX_DIGITS:  # number()'s answer, at once
        return int(word)
    if word.isdigit() or word.isnumeric():  # "²" and "١٢" are digits to Python, not to a dog tag
        return number(word, "a dog tag or plate")
    w = " ".join(word.lower().split())
    names = {n: d.name.lower() for n, d in st.setup.soldiers.items()}
    titled = {n: f"{_title(st, n)} {names[n]}".lower() for n in names}
    hits = [n for n in names if w in (names[n], titled[n])]
    if not hits:
        hits = [n for n in names if names[n].startswith(w) or titled[n].startswith(w)]
    if len(hits) == 1:
        return hits[0]
    if not hits:
        near = difflib.get_close_matches(w, list(names.values()), n=3, cutoff=0.7)
        guess = [f"{st.setup.soldiers[n].name} ({n})" for n in names if names[n] in near]
        raise UsageError(f"no soldier called {shown(word)} in this game"
                         + (f"; did you mean {' or '.join(guess)}?" if guess else "."))
    raise UsageError(f"{shown(word)} could be " + ", ".join(f"{st.setup.soldiers[n].name} ({n})" for n in hits) + ".")


def _title(st: GameState, serial: int) -> str:
    s = st.soldiers.get(serial)
    return st.setup.soldiers[serial].profile(s.rank).title if s is not None else ""


# verbs that name equipment or ordnance (engine/commands.py BATTLEFIELD_GRAMMAR, `use`)
ITEM_VERBS = ("call", "barrage", "use", "handoff", "recover")
FLAGS = {"call": ("fake", "smoke"), "barrage": ("smoke",)}  # their closing words, never an item's name
VIAS = get_args(Via)
_ITEM_VERB_SET, _VIA_SET = frozenset(ITEM_VERBS), frozenset(VIAS)


def _spellings(st: GameState) -> list[tuple[str, re.Pattern, str | None]]:
    """Each equipment or ordnance name of the game as item_names looks for it, longest first:
    (its id, the pattern, its longest word in lower case when the name is ASCII, else None).
    Kept with the setup."""
    kept = memo(st.setup, "script.spellings")
    got = kept.get("names")
    if got is None:
        got = kept["names"] = []
        for item, d in sorted(st.setup.equipment.items(), key=lambda kv: -len(kv[1].name)):
            spelled = r"\s+".join(re.escape(part) for part in d.name.split())
            got.append((item, re.compile(rf"""(?i)(["']?)(?<![\w-]){spelled}(?![\w-])\1"""),
                        max(d.name.lower().split() or [""], key=len) if d.name.isascii() else None))
    return got


def _plain(line: str) -> bool:
    """A line read_words splits at its spaces alone (engine/core/commands.py read_words)."""
    return line.isascii() and line.isprintable() and '"' not in line and "'" not in line and "\\" not in line


def _item_verb(head: list[str]) -> bool:
    """Whether a line's first two words (lower-cased) open an item command, itself or after a via."""
    return bool(head) and (head[0] in ITEM_VERBS or (head[0] in VIAS and len(head) > 1 and head[1] in ITEM_VERBS))


def item_names(st: GameState, line: str) -> str:
    """A line with equipment and ordnance written as the player reads them ("Heavy artillery",
    "field glasses", quoted or not) turned into their ids ("heavy-artillery"), for the verbs
    that name them; any other line comes back as it is."""
    # read_words gives a plain line's words by str.split (or refuses it, and the line comes back
    # as it is): its first two words tell without reading the whole line
    if isinstance(line, str) and _plain(line):
        head = line.split(None, 2)
        if not head:
            return line
        first = head[0].lower()  # _item_verb, asked of the first word, then of the second after a via
        if first not in _ITEM_VERB_SET and (first not in _VIA_SET or len(head) < 2
                                            or head[1].lower() not in _ITEM_VERB_SET):
            return line
    try:
        words = read_words(line)
    except RuleError:
        return line  # the parser refuses it, naming the problem
    verbs = [w.lower() for w in words[:2]]
    if not _item_verb(verbs):
        return line
    verb = verbs[1] if verbs[0] in VIAS else verbs[0]
    flags = ""
    while (m := re.search(r"\s+(\w+)\s*$", line)) and m.group(1).lower() in FLAGS.get(verb, ()):
        line, flags = line[:m.start()], m.group(0) + flags
    low = line.lower() if line.isascii() else None
    for item, pattern, word in _spellings(st):
        # in an ASCII line an ASCII name matches only where each of its words is, in any case: a
        # name whose longest word is not in the line is not looked for (outside ASCII, (?i)
        # matches more: "ſ" is an s)
        if low is not None and word is not None and word not in low:
            continue
        changed = pattern.sub(item, line)
        if changed != line:
            line = changed
            low = line.lower() if line.isascii() else None
    return line + flags


def parse_line(st: GameState, line: str, seat: int) -> Cmd:
    return parse_command(item_names(st, line), seat=seat, resolve=lambda w: soldier_for(st, w))


def run_script(st: GameState, text: str, seat: int = 0, on_event=None) -> tuple[GameState, list[tuple[Cmd, list[Event]]]]:
    """Apply every line; stops at the first refused line with a ScriptError naming it."""
    done: list[tuple[Cmd, list[Event]]] = []
    for no, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            if line.startswith("@"):
                seat = seat_for(st, line[1:])
                continue
            cmd = parse_line(st, line, seat)
            st, events = apply(st, cmd)
        except RuleError as exc:
            raise ScriptError(no, raw, str(exc)) from None
        done.append((cmd, events))
        if on_event:
            for e in events:
                on_event(cmd, e)
    return st, done
