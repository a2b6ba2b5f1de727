"""Play a game into its first phase and roll it back to the card placement, again and again,
until killed; print each rollback's version once the use-case returned.

Run by test_crash.py as `python -m tests.app.rollback_child DB SEED`.
"""
from __future__ import annotations

import asyncio
import random
import sys

from bot.app import GameService, Refused, Where
from bot.store import SqliteStore
from engine import load_catalog
from tests.app.table import ANN, BO, FIXTURE, open_table

SEATS = {0: ANN, 1: BO}


async def main(path: str, seed: int) -> None:
    rnd = random.Random(seed)
    async with SqliteStore(path) as store:
        service = GameService(store, load_catalog(FIXTURE), seed=lambda: rnd.randrange(1 << 30))
        games = [g for g in await store.unfinished_games() if g.status == "active"]
        gid = games[0].id if games else (await open_table(service, where=Where(channel_id=8))).game_id
        where = Where(game_id=gid)
        print("ready", flush=True)
        while True:
            waiting = await service.waiting(ANN, where)
            if not waiting or waiting[0].detail.startswith("carry out"):
                r = await service.rollback(ANN, where, "T1P0")
                print(f"rolled {gid} {r.version}", flush=True)
                continue
            caller = SEATS[rnd.choice(waiting).seat]
            try:
                await service.command(caller, where, rnd.choice(await service.options(caller, where)))
            except Refused:
                continue


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
