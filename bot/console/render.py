"""`fieldpost render --scenario ID [--position FILE] [--seed N] --out DIR`: a gallery of pictures.

Plays seeded games between eager random players (they prefer shooting, tossing and charging
to passing) until each wanted moment has happened, and writes its pictures, so anyone can
review the look without playing: the start, a shooting phase, a fight, a blast, smoke and
fire, a seat's private board, soldier cards (his own, with VP, and an enemy's, without) and,
in a scenario with vehicles or guns, the panel of each one in the middle of the game.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path

import yaml

from bot.render.service import (
    render_board_png,
    render_panel_png,
    render_private_png,
    render_soldier_png,
)
from engine import apply, awaiting, legal_commands, load_catalog, new_game, view
from engine.core.content import Catalog
from engine.core.errors import ContentError, RuleError
from engine.position import dump_position, load_position
from engine.turn.setup import SeatSpec

# how much an eager player likes each kind of command, against 1 for the rest
EAGER = {"Shoot": 8, "Toss": 6, "Charge": 6, "Move": 3, "Pass": 0.3, "Done": 0.5}
GAMES = 24  # seeded games tried before a moment is given up
MAX_COMMANDS = 3000


def _kinds(v) -> list[str]:
    return [m.kind for m in v.trail]


# gallery picture -> does this public view show it?
MOMENTS: dict[str, Callable] = {
    "shooting": lambda v: "shot" in _kinds(v) and "move" in _kinds(v),
    "fight": lambda v: v.fight is not None or "charge" in _kinds(v),
    "blast": lambda v: "blast" in _kinds(v) or "toss" in _kinds(v),
    "smoke-fire": lambda v: bool(v.smoke) and bool(v.fires),
    "prisoner": lambda v: any(s.captor is not None for s in v.soldiers),
}


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("render", help="write a gallery of board pictures and soldier cards",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--scenario", required=True, help="scenario id, e.g. hedgerow-dawn")
    p.add_argument("--position", type=Path, help="start from this position file (YAML or JSON)")
    p.add_argument("--seed", type=int, default=1, help="first seed tried (default 1)")
    p.add_argument("--out", type=Path, required=True, help="folder for the pictures")
    p.add_argument("--content", type=Path, help="content root holding assets/ and campaigns/ (default: the project's)")
    p.set_defaults(run=run)


def run(args) -> int:
    try:
        cat = load_catalog(args.content) if args.content else load_catalog()
        start = _starter(cat, args.scenario, args.position)
        written = gallery(cat, start, args.seed, args.out)
    except (ContentError, RuleError, OSError, yaml.YAMLError, json.JSONDecodeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for name, path in written:
        print(f"{name:14} {path}")
    return 0


def _starter(cat: Catalog, scenario: str, position: Path | None):
    """seed -> a fresh game (from the position file, when given)."""
    if position is not None:
        text = position.read_text(encoding="utf-8")
        data = json.loads(text) if position.suffix == ".json" else yaml.safe_load(text)
        data["scenario"] = scenario

        def from_position(seed: int):
            return load_position(cat, {**data, "seed": seed})[0]
        return from_position
    sides = [s.id.value for s in cat.scenario(scenario).sides]
    names = ["Ann", "Bo", "Cy", "Di"]
    seats = [SeatSpec(name=names[i], side=side) for i, side in enumerate(sides)]

    def fresh(seed: int):
        return new_game(cat, scenario, seats, seed=seed)[0]
    return fresh


def play(st, rng: random.Random):
    """Yield every state of one game between eager random players."""
    for _ in range(MAX_COMMANDS):
        waits = awaiting(st)
        if not waits:
            return
        cmds = legal_commands(st, waits[0].seat)
        if not cmds:
            return
        cmd = rng.choices(cmds, [EAGER.get(type(c).__name__, 1) for c in cmds])[0]
        st, _ = apply(st, cmd)
        yield st


def find_moments(cat: Catalog, start, seed: int, games: int = GAMES) -> dict[str, object]:
    """The first state of each MOMENT in seeded games, plus "start" and a "middle" state."""
    found: dict[str, object] = {"start": start(seed)}
    for g in range(games):
        states = list(play(start(seed + g), random.Random(seed + g)))
        if states and "middle" not in found:
            found["middle"] = states[len(states) // 2]
        for st in states:
            v = view(st)
            for name, shows in MOMENTS.items():
                if name not in found and shows(v):
                    found[name] = st
        if all(name in found for name in MOMENTS):
            break
    if "smoke-fire" not in found and "middle" in found:
        found["smoke-fire"] = _with_smoke_and_fire(cat, found["middle"])
    return found


def _with_smoke_and_fire(cat: Catalog, st):
    """The middle of a game written as a position, with smoke and a fire added where men stand:
    smoke and fire come from story cards, which a few random games may never turn up."""
    pos = dump_position(st)
    rows = st.setup.scenario.map
    tiles = []
    for s in sorted(st.soldiers.values(), key=lambda s: s.serial):
        if s.at and s.status == "board":
            t = rows[s.at[1] // 5][s.at[0] // 5]
            if t not in tiles:
                tiles.append(t)
    if len(tiles) < 2:
        tiles += [t for row in rows for t in row if t not in tiles][: 2 - len(tiles)]
    pos["smoke"] = {tiles[0]: 3}
    pos["fires"] = [tiles[1]]
    pos.pop("hands", None)
    pos.pop("phase_cards", None)
    return load_position(cat, pos)[0]


def gallery(cat: Catalog, start, seed: int, out: Path) -> list[tuple[str, Path]]:
    out.mkdir(parents=True, exist_ok=True)
    found = find_moments(cat, start, seed)
    written = []

    def save(name: str, data: bytes) -> None:
        path = out / f"{name}.png"
        path.write_bytes(data)
        written.append((name, path))

    for name in ("start", *MOMENTS):
        if name in found:
            save(name, render_board_png(view(found[name])))
    mid = found.get("middle", found["start"])
    seat_view = view(mid, viewer=0)
    save("private-seat0", render_private_png(seat_view))
    mine = [s for s in seat_view.soldiers if s.serial in seat_view.mine.soldier_vp]
    theirs = [s for s in seat_view.soldiers if s.serial not in seat_view.mine.soldier_vp]
    if mine:
        save(f"soldier-{mine[0].serial}-own", render_soldier_png(seat_view, mine[0].serial))
    if theirs:
        save(f"soldier-{theirs[0].serial}-enemy", render_soldier_png(seat_view, theirs[0].serial))
    public = view(mid)
    for v in public.vehicles:
        save(f"panel-{v.plate}", render_panel_png(public, v.plate))
    return written
