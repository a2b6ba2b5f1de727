"""Commit to one game in a loop until killed; print each version once its commit returned.

Run by test_crash.py as `python crash_child.py DB GAME_ID`. Each state is ~20 KB so that
some kills land inside a WAL checkpoint.
"""
from __future__ import annotations

import asyncio
import json
import sys

from bot.store import SqliteStore


async def main(path: str, game_id: int) -> None:
    pad = "x" * 20_000
    async with SqliteStore(path) as store:
        version = (await store.load_game(game_id)).version
        print(f"ready {version}", flush=True)
        while True:
            done = await store.commit(
                game_id, version, json.dumps({"v": version + 1, "pad": pad}),
                [json.dumps({"v": version + 1})],
            )
            version = done.version
            print(f"committed {version}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
