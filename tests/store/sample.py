"""A sample game for store tests: realistic 64-bit Discord ids, two seats, a small state."""
from __future__ import annotations

import json

from bot.store import GameStatus, GameStore, Seat, StoredGame

# Discord snowflakes are 64-bit; use realistic ones so nothing narrows them.
GUILD = 1_098_765_432_109_876_543
CHANNEL = 1_123_456_789_012_345_678
THREAD = 1_200_000_000_000_000_001
ALICE = 987_654_321_098_765_432
BOB = 876_543_210_987_654_321
SEATS = (Seat(0, "US", ALICE, "Sgt Rock"), Seat(1, "GER", BOB, "Feldwebel Kurz"))


def state(**fields: object) -> str:
    return json.dumps(fields, sort_keys=True)


async def new_game(
    store: GameStore,
    *,
    channel_id: int = CHANNEL,
    status: GameStatus = GameStatus.ACTIVE,
    events: tuple[str, ...] = (),
    snapshot: str | None = None,
) -> StoredGame:
    return await store.create_game(
        guild_id=GUILD,
        channel_id=channel_id,
        scenario_id="hill-30",
        organiser_id=ALICE,
        state=state(turn=1),
        status=status,
        seats=SEATS,
        events=events,
        snapshot=snapshot,
    )
