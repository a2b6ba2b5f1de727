"""One bot-equivalent process for tests/app/test_scale.py and tests/benchmarks/bench_scale.py:
its own store connection, its own `GameService` (its own cache and per-game locks) and, when
playing, its own deadline loop — what a `fieldpost bot` process runs, without Discord.

    python -m tests.app.scale_child play   URL SECONDS SEED GAME_ID...
    python -m tests.app.scale_child resume URL RATE

Once its imports, catalogue and store are ready it prints `{"ready": true}` and waits for the
Unix time to begin at on its standard input (the parent sends it when every process is ready,
so they all begin together without a fixed wait). Then it prints one JSON object a line:

- play: for SECONDS, four players choosing random games (every other one of GAME_ID...: the
  rest move only as their deadlines run out) and random legal commands for their awaited seats (`{"ack": [game, version, seat, command]}` once a command returned) beside a
  deadline tick every 0.2 s (`{"claimed": [game, key, user, due]}` for every deadline row the
  store handed this process, `{"reminder": [game, seat]}`, `{"default": [game, version]}`);
  last `{"tally": {...}, "stop": time}` with the commands refused or already done, and when it
  stopped playing and ticking;
- resume: the restart's re-prompts at RATE a second (`{"resumed": game, "at": time,
  "prompts": [[seat, user, decision], ...]}`), last `{"tally": {...}}`.
"""
from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from collections import Counter
from datetime import datetime, timedelta

from bot.app import AlreadyDone, GameService, Refused, Where
from bot.store import Deadline, open_store
from engine import load_catalog
from tests.app.table import ANN, BO, FIXTURE

SEATS = {0: ANN, 1: BO}
PLAYERS = 4
TICK_S = 0.2


def say(**record: object) -> None:
    print(json.dumps(record), flush=True)


async def ready() -> None:
    """Say it is ready, then wait for the moment the parent names to begin."""
    say(ready=True)
    moment = await asyncio.to_thread(sys.stdin.readline)
    await asyncio.sleep(max(0.0, float(moment) - time.time()))


async def play(url: str, seconds: float, seed: int, games: list[int]) -> None:
    rnd = random.Random(seed)
    tally: Counter[str] = Counter()
    async with open_store(url) as store:
        claim = store.claim_deadlines

        async def claimed(now: datetime, lease: timedelta) -> list[Deadline]:
            rows = await claim(now, lease)
            for d in rows:
                say(claimed=[d.game_id, d.key, d.user_id, d.due.isoformat()])
            return rows

        store.claim_deadlines = claimed  # records what this process was handed; the store decides
        service = GameService(store, load_catalog(FIXTURE))
        await ready()
        stop = time.time() + seconds

        async def ticker() -> None:
            while time.time() < stop:
                for r in await service.tick():
                    if r.public and r.public[0].startswith("Reminder"):
                        say(reminder=[r.game_id, r.waiting[0].seat])
                    else:
                        say(default=[r.game_id, r.version])
                await asyncio.sleep(TICK_S)

        played = games[::2]

        async def player() -> None:
            while time.time() < stop:
                gid = rnd.choice(played)
                where = Where(game_id=gid)
                try:
                    waiting = await service.waiting(ANN, where)
                    if not waiting:
                        tally["over"] += 1
                        await asyncio.sleep(0.01)
                        continue
                    seat = rnd.choice(waiting).seat
                    lines = await service.options(SEATS[seat], where)
                    if not lines:  # another process moved the game on since it was read
                        tally["moved"] += 1
                        continue
                    line = rnd.choice(lines)
                    r = await service.command(SEATS[seat], where, line)
                except AlreadyDone:
                    tally["already"] += 1
                    continue
                except Refused:  # another process moved the game between options and command
                    tally["refused"] += 1
                    continue
                tally["acked"] += 1
                say(ack=[gid, r.version, seat, line])

        await asyncio.gather(ticker(), *(player() for _ in range(PLAYERS)))
    say(tally=tally, stop=stop)


async def resume(url: str, rate: float) -> None:
    tally: Counter[str] = Counter()
    async with open_store(url) as store:
        service = GameService(store, load_catalog(FIXTURE))
        await ready()
        async for r in service.resume(rate=rate):
            tally["games"] += 1
            tally["prompts"] += len(r.prompts)
            say(resumed=r.game_id, at=time.time(), prompts=[[p.seat, p.user_id, p.decision] for p in r.prompts])
    say(tally=tally)


if __name__ == "__main__":
    mode, url, *rest = sys.argv[1:]
    if mode == "play":
        asyncio.run(play(url, float(rest[0]), int(rest[1]), [int(g) for g in rest[2:]]))
    else:
        asyncio.run(resume(url, float(rest[0])))
