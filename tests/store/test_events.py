"""The event log is append-only: the API has no way to change it, and the schema refuses."""
from __future__ import annotations

import pytest

from bot.store import GameStore
from tests.store import raw
from tests.store.sample import new_game, state

pytestmark = pytest.mark.both_stores


async def logged_game(store: GameStore) -> int:
    game = await new_game(store, events=('{"e": 1}',), snapshot="setup")
    await store.commit(game.id, 1, state(turn=2), ['{"e": 2}', '{"e": 3}'])
    return game.id


def test_the_protocol_only_reads_events() -> None:
    touching_events = sorted(name for name in vars(GameStore) if "event" in name)
    assert touching_events == ["events_since"]


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE events SET body = '{\"e\": 99}' WHERE seq = 2",
        "DELETE FROM events WHERE seq = 3",
        "DELETE FROM events",
    ],
)
async def test_the_schema_refuses_to_rewrite_events(
    store: GameStore, store_kind: str, store_url: str, statement: str
) -> None:
    game_id = await logged_game(store)
    before = await store.events_since(game_id)
    with pytest.raises(raw.REFUSED[store_kind], match="append-only"):
        await raw.execute(store_kind, store_url, statement)
    assert await store.events_since(game_id) == before


@pytest.mark.postgres
async def test_postgres_refuses_to_truncate_the_logs(postgres_dsn: str) -> None:
    with pytest.raises(raw.REFUSED["postgres"], match="append-only"):
        await raw.execute("postgres", postgres_dsn, "TRUNCATE events CASCADE")
    with pytest.raises(raw.REFUSED["postgres"], match="append-only"):
        await raw.execute("postgres", postgres_dsn, "TRUNCATE campaign_log")


@pytest.mark.parametrize("seq", [1, 3, 5, 0])
async def test_the_schema_refuses_gaps_and_repeats_in_seq(
    store: GameStore, store_kind: str, store_url: str, seq: int
) -> None:
    game_id = await logged_game(store)
    with pytest.raises(raw.REFUSED[store_kind]):
        await raw.execute(store_kind, store_url,
                          "INSERT INTO events (game_id, seq, body, created_at)"
                          f" VALUES (?, ?, '{{}}', '{raw.A_TIME}')", game_id, seq)
    assert [event.seq for event in await store.events_since(game_id)] == [1, 2, 3]


async def test_each_game_counts_its_own_seq(store: GameStore) -> None:
    one = await new_game(store)
    two = await new_game(store)
    await store.commit(one.id, 1, state(), ['{"g": 1}'])
    await store.commit(two.id, 1, state(), ['{"g": 2}', '{"g": 2}'])
    await store.commit(one.id, 2, state(), ['{"g": 1}'])
    assert [(e.game_id, e.seq) for e in await store.events_since(one.id)] == [
        (one.id, 1), (one.id, 2)
    ]
    assert [(e.game_id, e.seq) for e in await store.events_since(two.id)] == [
        (two.id, 1), (two.id, 2)
    ]
