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

from engine.apply import apply
from engine.core.commands import NUMBER, Cmd, number, parse_command, shown, text_problem
from engine.core.errors import RuleError, UsageError
from engine.core.log import Event
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
    """A dog tag number, or a soldier's name (any unambiguous start of it)."""
    if word.isdigit() or word.isnumeric():  # "²" and "١٢" are digits to Python, not to a dog tag
        return number(word, "a dog tag or plate")
    w = word.lower().strip()
    hits = [n for n, d in st.setup.soldiers.items() if d.name.lower() == w]
    if not hits:
        hits = [n for n, d in st.setup.soldiers.items() if d.name.lower().startswith(w)]
    if len(hits) == 1:
        return hits[0]
    if not hits:
        raise UsageError(f"no soldier called {shown(word)} in this game.")
    raise UsageError(f"{shown(word)} could be " + ", ".join(f"{st.setup.soldiers[n].name} ({n})" for n in hits) + ".")


def parse_line(st: GameState, line: str, seat: int) -> Cmd:
    return parse_command(line, seat=seat, resolve=lambda w: soldier_for(st, w))


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
