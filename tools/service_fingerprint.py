"""A fingerprint of everything the use-cases hand back and store over a fixed set of games:
every Replies (public lines, private messages, prompts with their choices and stamps, waiting
lines, pictures asked for, ephemeral answers, refusals), and at the end every row of every table
of the SQLite file. Two checkouts that give the same digests behave the same for these games
(issue 17: the service's shortcuts must change no reply, prompt or stored row).

    .venv/bin/python tools/service_fingerprint.py [--games 4] [--steps 50] [--out FILE] [--settled]

Each game is played with a fixed clock (a minute a step), seats taking turns at random between
a typed legal command, a press of one of their prompt's buttons, `/game undo`, `/game prompts`,
and now and then a deadline run out (`tick` far ahead). One digest per scenario, then the
database's. `--out` writes the whole text fingerprinted, for a diff.
"""
from __future__ import annotations

import argparse
import asyncio
import hashlib
import random
import sqlite3
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.app import Caller, GameService, Where
from bot.app.errors import Refused
from bot.store import SqliteStore
from engine import awaiting, legal_commands, load_catalog

SCENARIOS = ("tardieu-bombardment", "hedgerow-dawn", "croix-verte-ridge", "night-orchard", "chapel-gun",
             "mill-at-tardieu", "crossroads-roadblock", "vautrin-pair")
PLAYERS = (Caller(1, "Ann"), Caller(2, "Bo"))


def said(r) -> str:
    """Replies as text: every field a front end reads."""
    if r is None:
        return "None"
    if isinstance(r, list):
        return "[" + "|".join(said(x) for x in r) + "]"
    imgs = lambda xs: [(i.kind, i.seat, i.serial, i.plate, i.caption) for i in xs]
    return repr((r.game_id, r.version, r.channel_id, r.public, imgs(r.images), r.waiting,
                 [(p.user_id, p.seat, p.text, imgs(p.images)) for p in r.private], r.prompts, r.ephemeral,
                 imgs(r.ephemeral_images), r.ended, r.join_sides, r.undoable, r.public_text()))


async def game(service: GameService, catalog, scenario: str, n: int, steps: int, clock: list, out: list) -> None:
    rnd = random.Random(f"{scenario}/{n}")
    sides = [s.id.value for s in catalog.scenario(scenario).sides]
    where = Where(channel_id=1000 + n + 100 * SCENARIOS.index(scenario))
    r = await service.new_game(PLAYERS[0], where, scenario, side=sides[0])
    gid = r.game_id
    where = Where(game_id=gid)
    out.append(said(r))
    out.append(said(await service.join(PLAYERS[1], where, sides[1])))
    last = await service.start(PLAYERS[0], where)
    out.append(said(last))
    asked = {p.seat: p for p in last.prompts}
    for step in range(steps):
        clock[0] += timedelta(minutes=1)
        st = await service.load_state(gid)
        if st is None or st.step == "over":
            break
        seat = rnd.choice(awaiting(st)).seat
        who = PLAYERS[seat]
        roll = rnd.random()
        try:
            if roll < 0.3 and seat in asked and asked[seat].choices:
                p = asked[seat]
                pick = rnd.choice(p.choices)
                r = await service.choose(who, gid, seat, p.version, pick.stamp)
            elif roll < 0.36:
                r = await service.undo(who, where)
            elif roll < 0.4:
                r = await service.prompts_for(who, where)
            elif roll < 0.43:
                clock[0] += timedelta(days=3)
                r = await service.tick()
            else:
                cmd = rnd.choice(legal_commands(st, seat))
                r = await service.command(who, where, str(cmd), sent_at=clock[0])
        except Refused as exc:
            out.append(f"refused {type(exc).__name__}: {exc}")
            continue
        out.append(said(r))
        for x in (r if isinstance(r, list) else [r]):
            for p in x.prompts:
                asked[p.seat] = p


async def run(games: int, steps: int, scenarios) -> tuple[list[tuple[str, str]], str]:
    catalog = load_catalog()
    parts = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fp.db"
        clock = [datetime(2026, 1, 1, 12, tzinfo=UTC)]
        async with SqliteStore(path, clock=lambda: clock[0]) as store:
            seeds = iter(range(1, 10**6))
            service = GameService(store, catalog, seed=lambda: next(seeds), clock=lambda: clock[0])
            for scenario in scenarios:
                out: list[str] = []
                for n in range(games):
                    await game(service, catalog, scenario, n, steps, clock, out)
                parts.append((scenario, "\n".join(out)))
        db = sqlite3.connect(path)
        rows = []
        for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name"):
            rows.append(f"# {table}")
            rows += sorted(repr(row) for row in db.execute(f'SELECT * FROM "{table}"'))
        db.close()
    return parts, "\n".join(rows)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--steps", type=int, default=50)
    ap.add_argument("--scenarios", default=",".join(SCENARIOS))
    ap.add_argument("--out")
    ap.add_argument("--settled", action="store_true",
                    help="as the bot runs once started: bot.startup.settle() first; the digests must not change")
    a = ap.parse_args()
    if a.settled:
        from bot.startup import settle
        settle()
    parts, db = asyncio.run(run(a.games, a.steps, a.scenarios.split(",")))
    for scenario, text in parts:
        print(scenario, hashlib.sha256(text.encode()).hexdigest()[:16], text.count("\n") + 1, "lines")
    print("database", hashlib.sha256(db.encode()).hexdigest()[:16], db.count("\n") + 1, "rows")
    if a.out:
        Path(a.out).write_text("\n".join(text for _, text in parts) + "\n" + db + "\n")


if __name__ == "__main__":
    main()
