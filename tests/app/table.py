"""The table the use-case tests play at: the fixture catalogue's folder, the players, where they
sit, a clock a test moves, and `open_table`. Apart from tests/app/conftest.py (the fixtures), so
that the child processes some tests start (scale_child, crash_child, ...) import it without
pytest: a fifth of a child's start."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.app import Caller, GameService, Where

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "rules"

ANN = Caller(11, "Ann")
BO = Caller(22, "Bo")
CY = Caller(33, "Cy")
EVE = Caller(99, "Eve")  # never seated
HERE = Where(channel_id=500, guild_id=1)


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, hours: float) -> datetime:
        self.now += timedelta(hours=hours)
        return self.now


async def open_table(service: GameService, players=(ANN, BO), sides=("US", "DE"),
                     scenario: str = "yard", where: Where = HERE, **new):
    """A game created by the first player, joined by all, started: the start's Replies."""
    created = await service.new_game(players[0], where, scenario, side=sides[0], **new)
    where = Where(channel_id=where.channel_id, game_id=created.game_id)
    for caller, side in zip(players[1:], sides[1:]):
        await service.join(caller, where, side)
    return await service.start(players[0], where)
