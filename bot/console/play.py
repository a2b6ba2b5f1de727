"""`fieldpost play`: a whole game in one terminal (hot-seat), or a script of commands.

Hot-seat: whoever the engine waits for is prompted in turn; before a player's secrets show
there is a "pass to <player>" pause, and his private view (hand, orders, held cards) appears
only then. Script: every line is applied in order and the log is printed.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import yaml

from bot.console import text
from engine import RuleError, apply, awaiting, legal_commands, load_catalog, new_game, view
from engine.commands import GRAMMAR
from engine.errors import ContentError
from engine.position import load_position
from engine.record import Record
from engine.script import ScriptError, parse_line, run_script
from engine.setup import SeatSpec

DEFAULT_SCENARIO = "hedgerow-dawn"


def add_parser(sub) -> None:
    p = sub.add_parser("play", help="play a game in this terminal (hot-seat) or run a script of commands",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--scenario", help="scenario id (default: the bundled starter scenario)")
    p.add_argument("--seed", type=int, default=None, help="random seed (default: a fresh one)")
    p.add_argument("--players", default="US:US,Germany:DE",
                   help="comma-separated NAME:SIDE pairs, 2 to 4 (default 'US:US,Germany:DE')")
    p.add_argument("--position", type=Path, help="start from a position file (YAML or JSON, docs/position.md)")
    p.add_argument("--script", type=Path, help="run the commands in this file and print the log")
    p.add_argument("--state-out", type=Path, help="write the final game state as JSON here")
    p.add_argument("--record", type=Path, help="write the game record (for fieldpost replay) here")
    p.add_argument("--images", type=Path, help="write the board picture after each phase into this folder")
    p.add_argument("--private", action="store_true", help="script mode: print private events too")
    p.set_defaults(run=run)


def _seats(spec: str) -> list[SeatSpec]:
    out = []
    for part in spec.split(","):
        name, _, side = part.strip().rpartition(":")
        if not name or side.upper() not in ("US", "DE"):
            raise ContentError(f"--players: write NAME:SIDE pairs with side US or DE, not {part!r}")
        out.append(SeatSpec(name=name, side=side.upper()))
    return out


def _read_position(path: Path) -> dict:
    raw = path.read_text(encoding="utf-8")
    data = json.loads(raw) if path.suffix == ".json" else yaml.safe_load(raw)
    if not isinstance(data, dict):
        raise ContentError(f"{path}: a position is a mapping (docs/position.md)")
    return data


def start(args) -> tuple[object, list, Record]:
    cat = load_catalog()
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    if args.position:
        data = _read_position(args.position)
        if args.seed is not None:
            data["seed"] = args.seed
        st, events = load_position(cat, data)
        rec = Record(position=data)
    else:
        scenario = args.scenario or _default_scenario(cat)
        seats = _seats(args.players)
        st, events = new_game(cat, scenario, seats, seed)
        rec = Record(scenario=scenario, seed=seed, seats=seats)
    return st, events, rec


def _default_scenario(cat) -> str:
    return DEFAULT_SCENARIO if DEFAULT_SCENARIO in cat.scenarios else sorted(cat.scenarios)[0]


def run(args) -> int:
    try:
        st, events, rec = start(args)
    except (ContentError, RuleError) as exc:
        print(f"fieldpost play: {exc}", file=sys.stderr)
        return 2
    images = _Images(args.images) if args.images else None
    if args.script:
        code, st = _run_script(st, events, args, images)
    else:
        code, st = HotSeat(st, events, rec, images).loop()
    if args.state_out:
        args.state_out.write_text(st.model_dump_json(indent=1), encoding="utf-8")
    if args.record and not args.script:
        args.record.write_text(rec.dumps(), encoding="utf-8")
    return code


class _Images:
    """The board picture each time a phase is over, when the render package is available."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)

    def after(self, st, finished: tuple[int, int]) -> None:
        try:
            from bot.render.files import save_phase_images
        except ImportError:
            return
        turn, phase = finished
        save_phase_images(view(st), self.folder, f"t{turn}p{phase}" if phase else f"t{turn}")


def _print_events(events, seat_filter=None, private=False) -> None:
    for e in events:
        if e.to is None:
            print(e.text)
        elif private or e.to == seat_filter:
            print(f"  [to {e.to}] {e.text}")


def _run_script(st, events, args, images) -> tuple[int, object]:
    _print_events(events, private=args.private)
    body = args.script.read_text(encoding="utf-8")
    names = {s.index: s.name for s in st.seats}

    def show(cmd, e) -> None:
        if e.to is None:
            print(e.text)
        elif args.private:
            print(f"  [to {names[e.to]}] {e.text}")

    try:
        st, _ = run_script(st, body, on_event=lambda cmd, e: show(cmd, e))
    except ScriptError as exc:
        print(f"{args.script}: {exc}", file=sys.stderr)
        return 1, st
    if images:
        images.after(st, (st.turn, st.phase))
    if st.step != "over":
        waits = awaiting(st)
        print("Waiting for: " + "; ".join(f"{st.seats[a.seat].name} to {a.detail}" for a in waits))
    return 0, st


class HotSeat:
    """The terminal loop: prompt the awaited player, read a command, apply it, tell the story."""

    def __init__(self, st, events, rec: Record, images) -> None:
        self.st = st
        self.rec = rec
        self.images = images
        self.private: dict[int, list[str]] = {i: [] for i in range(len(st.seats))}
        self.current: int | None = None
        self._story(events)

    def _story(self, events) -> None:
        for e in events:
            if e.to is None:
                print(e.text)
            else:
                self.private[e.to].append(e.text)

    def loop(self) -> tuple[int, object]:
        print(text.full_text(view(self.st)))
        print("\nType a command (`help` for the list, `quit` to stop).")
        while self.st.step != "over":
            waits = awaiting(self.st)
            seat = waits[0].seat
            if seat != self.current:
                if not self._pass_to(seat):
                    return 0, self.st
            line = self._ask(seat, waits[0].detail)
            if line is None:
                return 0, self.st
            if not line:
                continue
            if self._meta(line, seat):
                continue
            if line in ("quit", "exit"):
                return 0, self.st
            try:
                cmd = parse_line(self.st, line, seat)
                before = (self.st.turn, self.st.phase)
                self.st, events = apply(self.st, cmd)
            except RuleError as exc:
                print(f"Not allowed: {exc}")
                continue
            self.rec.commands.append(cmd)
            self._story(events)
            if self.images and (self.st.turn, self.st.phase) != before:
                self.images.after(self.st, before)
        print(text.header(view(self.st)))
        return 0, self.st

    def _pass_to(self, seat: int) -> bool:
        name = self.st.seats[seat].name
        if self.current is not None:
            print("\n" * 3)
        try:
            input(f"--- Pass to {name} and press Enter (nobody else should look) ---")
        except EOFError:
            print("\n(input closed: the game stops here)")
            return False
        self.current = seat
        v = view(self.st, seat)
        print(text.private_text(v))
        for line in self.private[seat]:
            print(f"  (for you) {line}")
        self.private[seat] = []
        return True

    def _ask(self, seat: int, detail: str) -> str | None:
        name = self.st.seats[seat].name
        for line in self.private[seat]:
            print(f"  (for you) {line}")
        self.private[seat] = []
        try:
            return input(f"{name}, {detail} > ").strip()
        except EOFError:
            print("\n(input closed: the game stops here)")
            return None

    def _meta(self, line: str, seat: int) -> bool:
        word = line.split()[0].lower()
        v = view(self.st, seat)
        if word == "help":
            print(GRAMMAR)
            print("Also: board, soldiers, hand, options, log, quit. Soldiers may be named by dog tag or name.")
        elif word == "board":
            print(text.full_text(v))
        elif word == "soldiers":
            print("\n".join(text.soldier_lines(v)))
        elif word == "hand":
            print(text.private_text(v))
        elif word == "options":
            opts = legal_commands(self.st, seat)
            shown = [str(c) for c in opts[:40]]
            print("You may, for example:\n  " + "\n  ".join(shown) + (f"\n  ... and {len(opts) - 40} more"
                                                                         if len(opts) > 40 else ""))
        else:
            return False
        return True
