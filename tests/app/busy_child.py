"""Change Ann's placement in one game again and again from a process of its own, as a second
bot on the same database file would; print what became of the commands.

Run by test_processes.py as `python -m tests.app.busy_child DB GAME COUNT SEED`.
"""
from __future__ import annotations

import asyncio
import json
import random
import sys

from bot.app import AlreadyDone, GameService, Refused, Where
from bot.store import SqliteStore
from engine import load_catalog
from engine.legal import plan_options
from tests.app.table import ANN, FIXTURE


async def main(path: str, gid: int, count: int, seed: int) -> None:
    rnd = random.Random(seed)
    where = Where(game_id=gid)
    tally = {"accepted": 0, "already": 0, "refused": []}
    async with SqliteStore(path) as store:
        service = GameService(store, load_catalog(FIXTURE))
        plans = [str(p) for p in plan_options(await service.load_state(gid), "US-1")]  # placed or not
        print("ready", flush=True)
        for _ in range(count):
            try:
                await service.command(ANN, where, rnd.choice(plans))
                tally["accepted"] += 1
            except AlreadyDone:
                tally["already"] += 1
            except Refused as exc:
                tally["refused"].append(str(exc))
    print(json.dumps(tally), flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])))
