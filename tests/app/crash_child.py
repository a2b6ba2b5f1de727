"""Play games through the use-cases until killed; print each version once its command returned.

Run by test_crash.py as `python -m tests.app.crash_child DB SEED`. It resumes any unfinished
game it finds, else opens a new one.
"""
from __future__ import annotations

import asyncio
import random
import sys

from bot.app import GameService, Refused, Where
from bot.store import SqliteStore
from engine import load_catalog
from tests.app.table import ANN, BO, FIXTURE, open_table


async def main(path: str, seed: int) -> None:
    rnd = random.Random(seed)
    seats = {0: ANN, 1: BO}
    async with SqliteStore(path) as store:
        service = GameService(store, load_catalog(FIXTURE), seed=lambda: rnd.randrange(1 << 30))
        print("ready", flush=True)
        while True:
            games = [g for g in await store.unfinished_games() if g.status == "active"]
            if games:
                gid = games[0].id
            else:
                gid = (await open_table(service, where=Where(channel_id=7))).game_id
            where = Where(channel_id=7, game_id=gid)
            waiting = await service.waiting(ANN, where)
            if not waiting:
                continue
            caller = seats[rnd.choice(waiting).seat]
            try:
                r = await service.command(caller, where, rnd.choice(await service.options(caller, where)))
            except Refused:
                continue
            print(f"committed {gid} {r.version}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
