"""The game's event log: what the use-cases append, and how to read it back.

Every commit appends one *envelope* saying what was asked, then the engine's events:

    {"type": "started", "scenario": "yard", "seed": 7, "seats": [SeatSpec...]}
    {"type": "command", "seat": 0, "user": 11, "by": "player", "cmd": {...}, "undoable": true}
    {"type": "engine", "kind": "move", "text": "...", "to": null, "data": {...}}
    {"type": "undo", "to_seq": 41, "seat": 0, "user": 11}
    {"type": "rollback", "snapshot": "T2P1", "to_seq": 30, ...}     (written by the store)
    {"type": "seat", "seat": 1, "old": 22, "new": 33, "by": 11, "reason": null, "line": "..."}

A seat changing hands is a `seat` envelope (who held it before and after, who decided, why)
followed by the engine's `SeatName` command, which `replay` applies like any command (the
envelope itself changes no state); `holders` answers who held each seat when. Envelopes of the
organiser's changes that carry a `line` (a seat changing hands, the clocks stopped and running
again, deadlines changed, the organiser's role handed over) are public lines of the log.

So a game is rebuilt from the new_game parameters and the commands (`replay`), and an undo or
rollback says "back to the state after event `to_seq`". The log is private (boardgame.io
#227): only `public_lines` may reach the table, and only a seat's own private events reach it.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import ConfigDict, TypeAdapter

from engine import Catalog, Command, Event, GameState, SeatSpec, apply, new_game
from engine.core.commands import Cmd

# built when a logged command is first read back, not at import (every command's schema: a slow start)
COMMAND = TypeAdapter(Command, config=ConfigDict(defer_build=True))

Logged = tuple[int, dict[str, Any]]  # (seq, body)


def envelope(kind: str, **fields: Any) -> str:
    return json.dumps({"type": kind, **fields}, separators=(",", ":"))


def _json(model) -> str:
    """`model.model_dump_json()`: its class's serializer called with the same (default) settings,
    without `model_dump_json`'s Python frame passing on its fifteen keywords (a third of the
    call for an event; a command writes some eight models)."""
    return model.__pydantic_serializer__.to_json(model).decode()


# `json.dumps(by)` of the service's own words (every command's envelope names one)
_BY = {by: json.dumps(by) for by in ("player", "deadline", "organiser", "seat")}


def command_envelope(cmd: Cmd, *, seat: int, user: int, by: str, undoable: bool) -> str:
    return ('{"type":"command","seat":%d,"user":%d,"by":%s,"undoable":%s,"cmd":%s}'
            % (seat, user, _BY.get(by) or json.dumps(by), "true" if undoable else "false", _json(cmd)))


# Event's own serializer, bound once: `_json(e)` for an Event without looking it up on each event
_EVENT_JSON = Event.__pydantic_serializer__.to_json


def engine_events(events: Sequence[Event]) -> list[str]:
    to_json = _EVENT_JSON
    return ['{"type":"engine",' + (to_json(e).decode() if type(e) is Event else _json(e))[1:]
            for e in events]


def read(events: Iterable[Any]) -> list[Logged]:
    """Store events -> (seq, body) pairs."""
    return [(e.seq, json.loads(e.body)) for e in events]


def command_of(body: dict[str, Any]) -> Cmd:
    return COMMAND.validate_python(body["cmd"])


def replay(catalog: Catalog | None, log: Sequence[Logged],
           start: tuple[int, GameState] | None = None) -> GameState | None:
    """The state the log leads to: from `new_game` at "started" (or from `start`, a state
    after event seq), applying every command and going back at each undo and rollback."""
    targets = {b["to_seq"] for _, b in log if b["type"] in ("undo", "rollback")}
    kept: dict[int, GameState | None] = {}
    state: GameState | None = None
    if start is not None:
        kept[start[0]] = state = start[1]
    for seq, body in log:
        kind = body["type"]
        if kind == "started":
            if catalog is None:
                raise ValueError("replaying from the start needs the catalogue")
            seats = [SeatSpec.model_validate(s) for s in body["seats"]]
            state, _ = new_game(catalog, body["scenario"], seats, body["seed"])
        elif kind == "command":
            state, _ = apply(state, command_of(body))
        elif kind in ("undo", "rollback"):
            state = kept[body["to_seq"]]
        if seq in targets:
            kept[seq] = state
    return state


def timeline(log: Sequence[Logged]) -> list[Logged]:
    """The command envelopes still in force: those not taken back by an undo or rollback."""
    commands: list[Logged] = []
    for seq, body in log:
        if body["type"] == "command":
            commands.append((seq, body))
        elif body["type"] in ("undo", "rollback"):
            commands = [(s, b) for s, b in commands if s <= body["to_seq"]]
    return commands


def live_events(log: Sequence[Logged]) -> list[Logged]:
    """Engine events of commands still in force, plus the undo/rollback notes and the public
    lines of the organiser's changes, in order."""
    live = {seq for seq, _ in timeline(log)}
    out: list[Logged] = []
    keep = False
    for seq, body in log:
        kind = body["type"]
        if kind == "command":
            keep = seq in live
        elif kind == "started":
            keep = True
        elif kind in ("undo", "rollback"):
            keep = False
            out = [(s, b) for s, b in out if s <= body["to_seq"]]
            out.append((seq, body))
        elif kind == "engine" and keep or "line" in body:
            out.append((seq, body))
    return out


def visible_lines(log: Sequence[Logged], seat: int | None, after_seq: int = 0) -> list[str]:
    """What `seat` (None: the public) may read of the live log after `after_seq`."""
    return [line for _, line in visible(log, seat, after_seq)]


def visible(log: Sequence[Logged], seat: int | None, after_seq: int = 0) -> list[tuple[int, str]]:
    """(seq, line) of what `seat` (None: the public) may read of the live log after `after_seq`."""
    lines = []
    for seq, body in live_events(log):
        if seq <= after_seq:
            continue
        if body["type"] == "engine":
            if body.get("to") is None or body.get("to") == seat:
                prefix = "" if body.get("to") is None else "(only you) "
                lines.append((seq, prefix + body["text"]))
        elif body["type"] == "undo":
            lines.append((seq, f"{body.get('name', 'A player')} took back a command."))
        elif body["type"] == "rollback":
            lines.append((seq, f"The game was rolled back to {describe_label(body['snapshot'])}."))
        elif "line" in body:
            lines.append((seq, body["line"]))
    return lines


def holders(log: Sequence[Logged]) -> dict[int, list[tuple[int, int]]]:
    """Who held each seat when: seat -> [(seq from which, user id)], from the start (the seats
    in join order) through every `seat` envelope; user 0 is an open seat."""
    out: dict[int, list[tuple[int, int]]] = {}
    users: list[int] = []
    for seq, body in log:
        if body["type"] == "joined" and body["user"] not in users:
            users.append(body["user"])
        elif body["type"] == "left" and body["user"] in users:
            users.remove(body["user"])
        elif body["type"] == "started":
            out = {seat: [(seq, user)] for seat, user in enumerate(body.get("users", users))}
        elif body["type"] == "seat":
            out.setdefault(body["seat"], []).append((seq, body["new"]))
    return out


def last_command_seq(log: Sequence[Logged], seat: int) -> int:
    """The seq of the last event of `seat`'s last command still in force (0: none), so what
    follows is what happened since he last acted."""
    mine = max((seq for seq, b in timeline(log) if b["seat"] == seat and b.get("by") == "player"),
               default=0)
    if not mine:
        return 0
    end = mine
    for seq, body in log:
        if seq > mine:
            if body["type"] != "engine":
                break
            end = seq
    return end


def phase_label(state: GameState) -> str:
    """Snapshot label of the phase a state is in: T2P0 is turn 2's card placement."""
    return f"T{state.turn}P{state.phase}"


def describe_label(label: str) -> str:
    try:
        turn, phase = label[1:].split("P")
        return f"turn {int(turn)}, " + ("card placement" if phase == "0" else f"phase {int(phase)}")
    except ValueError:
        return label
