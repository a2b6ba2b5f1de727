"""Several bot processes on one database file (here: several services, each on its own
SqliteStore of the same path): the cache never trips over an entry another task dropped, two
deadline ticks at once apply each default exactly once, and legal commands sent through both
at once are all carried out (none refused for losing a race)."""
from __future__ import annotations

import asyncio
import json
import os
import sys
from datetime import timedelta
from pathlib import Path

from bot.app import GameService, Where
from bot.store import SqliteStore
from tests.app.table import Clock, open_table

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = 100
PROCESSES = 4


async def test_the_cache_survives_entries_dropped_while_a_load_waits(store, cat, clock):
    # a cache of one game and reads of three, started a little apart: entries are evicted while
    # other reads of them wait for the database
    service = GameService(store, cat, clock=clock, seed=lambda: 3, cache_size=1)
    games = [(await open_table(service, where=Where(channel_id=c))).game_id for c in (1, 2, 3)]

    async def read(gid: int, n: int):
        await asyncio.sleep(n * 0.0002)
        return await service.load_state(gid)

    states = await asyncio.gather(*(read(gid, n) for n in range(200) for gid in games))
    assert all(st is not None for st in states)


async def deadline_defaults(store, gid: int) -> int:
    return sum(json.loads(e.body).get("by") == "deadline" for e in await store.events_since(gid))


async def test_two_deadline_ticks_at_once_apply_each_default_once(db_path, cat):
    clock = Clock()
    async with SqliteStore(db_path) as a_store, SqliteStore(db_path) as b_store:
        a = GameService(a_store, cat, clock=clock, seed=lambda: 4)
        b = GameService(b_store, cat, clock=clock)
        gid = (await open_table(a, deadline_hours=1)).game_id
        for _ in range(10):
            rows = await a_store.deadlines(gid)
            reminds = [d for d in rows if d.key.startswith("remind") and not d.reminded]
            expires = [d for d in rows if d.key.startswith("expire") and not d.reminded]
            assert expires, "every awaited decision has a deadline that has not run out yet"
            clock.now = max(d.due for d in expires) + timedelta(minutes=1)
            before = await deadline_defaults(a_store, gid)
            told = [r for out in await asyncio.gather(a.tick(), b.tick()) for r in out]
            reminded = sum(r.public[0].startswith("Reminder") for r in told)
            applied = await deadline_defaults(a_store, gid) - before
            assert (reminded, applied) == (len(reminds), len(expires))
            if (await a_store.load_game(gid)).status != "active":
                break


async def test_legal_commands_from_four_real_processes_are_all_carried_out(db_path, cat):
    async with SqliteStore(db_path) as store:
        service = GameService(store, cat, seed=lambda: 3)
        gid = (await open_table(service)).game_id
        v0 = (await store.load_game(gid)).version
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    children = [await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.app.busy_child", str(db_path), str(gid), str(COMMANDS), str(n),
        stdout=asyncio.subprocess.PIPE, cwd=ROOT, env=env) for n in range(PROCESSES)]
    outputs = await asyncio.wait_for(asyncio.gather(*(child.communicate() for child in children)), 300)
    tallies = [json.loads(out.decode().splitlines()[-1]) for out, _ in outputs]
    assert [t["refused"] for t in tallies] == [[]] * PROCESSES
    accepted = sum(t["accepted"] for t in tallies)
    assert accepted + sum(t["already"] for t in tallies) == PROCESSES * COMMANDS
    async with SqliteStore(db_path) as store:
        assert (await store.load_game(gid)).version == v0 + accepted
