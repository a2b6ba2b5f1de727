"""Tables set for one kind of decision, reached the way players reach it: a seeded random game
on a fixture scenario, each awaited player giving one of his legal commands through the
use-cases, until someone is awaited for that kind. The (scenario, seed) pairs were found by
playing the engine's random games; the same seed gives the same game every time."""
from __future__ import annotations

import json
import random

from bot.app import GameService, Prompt, Replies, Where
from bot.store import GameStore
from engine import awaiting
from tests.app.table import ANN, BO, open_table

CALLERS = {0: ANN, 1: BO}

# kind -> (fixture scenario, seed): a random game of that seed asks for it within a few dozen commands
WHERE_ASKED = {
    "declare": ("advanced-skirmish", 1),
    "react": ("advanced-skirmish", 9),
    "unhold": ("yard", 6),
    "fight": ("motor", 1),
    "capture": ("motor", 10),
}


async def drive_to(store: GameStore, cat, clock, kind: str, *, channel: int = 900
                   ) -> tuple[GameService, int, Prompt]:
    """Open the game WHERE_ASKED names for `kind` and play it randomly until a seat is awaited
    for `kind`: the service, the game id and that seat's prompt."""
    scenario, seed = WHERE_ASKED[kind]
    service = GameService(store, cat, clock=clock, seed=lambda: seed)
    gid = (await open_table(service, scenario=scenario, where=Where(channel_id=channel))).game_id
    where = Where(game_id=gid)
    rnd = random.Random(seed)
    for _ in range(400):
        waiting = await service.waiting(ANN, where)
        st = await service.load_state(gid)
        asked = next((a for a in awaiting(st) if a.kind == kind), None)
        if asked is not None:
            (prompt,) = (await service.prompts_for(CALLERS[asked.seat], where)).prompts
            return service, gid, prompt
        w = rnd.choice(waiting)
        caller = CALLERS[w.seat]
        await service.command(caller, where, rnd.choice(await service.options(caller, where)))
    raise AssertionError(f"no {kind} decision came up")


async def commits(store: GameStore, gid: int) -> tuple[int, int]:
    """(version, command envelopes in the log): what one carried-out command raises by one each."""
    game = await store.load_game(gid)
    logged = sum(json.loads(e.body)["type"] == "command" for e in await store.events_since(gid))
    return game.version, logged


async def play_seeded(service: GameService, gid: int, rnd: random.Random, steps: int, *,
                      clock=None, hours: float = 0.0) -> Replies:
    """`steps` commands of the random game `rnd` gives (an awaited seat, one of his legal
    commands), the clock moved `hours` before each; the last command's Replies."""
    where = Where(game_id=gid)
    r = Replies()
    for _ in range(steps):
        w = rnd.choice(await service.waiting(ANN, where))
        caller = CALLERS[w.seat]
        line = rnd.choice(await service.options(caller, where))
        if clock is not None:
            clock.advance(hours)
        r = await service.command(caller, where, line)
    return r
