"""Scripted players: each awaited player gives one of his legal commands at random (seeded),
through the use-cases only, the way a person at the table would: typing a command, pressing a
button from his last prompt, now and then taking a command back, and the organiser now and
then rolling the game back a phase."""
from __future__ import annotations

import random
from collections.abc import Awaitable, Callable

from bot.app import Caller, GameService, Prompt, Refused, Replies, Where


async def play_randomly(service: GameService, seats: dict[int, Caller], where: Where,
                        rnd: random.Random, *, limit: int = 400,
                        seen: Callable[[Replies], Awaitable[None] | None] | None = None,
                        buttons: float = 0.3, undo: float = 0.0, rollback: float = 0.0) -> int:
    """Play until the game ends or `limit` commands; returns how many were accepted.
    `seen` is called with every Replies; seats[0] must be the organiser."""
    offered: dict[int, Prompt] = {}
    done = 0
    rolled = 0
    while done < limit:
        waiting = await service.waiting(seats[0], where)
        if not waiting:
            return done
        w = rnd.choice(waiting)
        caller = seats[w.seat]
        prompt = offered.get(w.seat)
        try:
            if rollback and rolled < 2 and rnd.random() < rollback:
                labels = [label for label, _ in await service.snapshot_labels(seats[0], where)]
                r = await service.rollback(seats[0], where, rnd.choice(labels))
                rolled += 1
            elif prompt is not None and prompt.choices and rnd.random() < buttons:
                pick = rnd.choice(prompt.choices)
                r = await service.choose(caller, prompt.game_id, prompt.seat, prompt.version, pick.stamp)
            else:
                line = rnd.choice(await service.options(caller, where))
                r = await service.command(caller, where, line)
        except Refused:
            offered.pop(w.seat, None)  # an old prompt: ask the game again next time
            continue
        await _show(seen, r)
        for p in r.prompts:
            offered[p.seat] = p
        done += 1
        if r.undoable and rnd.random() < undo:
            back = await service.undo(caller, where)
            await _show(seen, back)
            for p in back.prompts:
                offered[p.seat] = p
    return done


async def _show(seen, r: Replies) -> None:
    if seen is not None:
        out = seen(r)
        if out is not None:
            await out
