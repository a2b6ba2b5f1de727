from __future__ import annotations

import inspect
import json
from datetime import UTC, datetime, timedelta

import pytest

from bot.store import (
    Awaited,
    CampaignStore,
    GameNotFound,
    GameStatus,
    GameStore,
    Seat,
    SeatDecision,
    SqliteStore,
    VersionConflict,
    open_store,
)
from bot.store.postgres import PostgresStore
from tests.store import raw
from tests.store.sample import (
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    SEATS,
    THREAD,
    new_game,
    state,
)

pytestmark = pytest.mark.both_stores


@pytest.mark.parametrize("implementation", [SqliteStore, PostgresStore])
@pytest.mark.parametrize("protocol", [GameStore, CampaignStore])
def test_each_store_has_every_protocol_method_with_the_same_signature(implementation, protocol) -> None:
    members = [
        name for name, value in vars(protocol).items()
        if inspect.iscoroutinefunction(value) and not name.startswith("_")
    ]
    assert len(members) > 7
    for name in members:
        assert inspect.signature(getattr(implementation, name)) == inspect.signature(
            getattr(protocol, name)
        ), name


async def test_a_created_game_loads_back_whole(store: GameStore) -> None:
    created = await new_game(store)
    loaded = await store.load_game(created.id)
    assert loaded == created
    assert loaded.version == 1
    assert loaded.seats == SEATS
    assert (loaded.guild_id, loaded.channel_id, loaded.organiser_id) == (GUILD, CHANNEL, ALICE)
    assert json.loads(loaded.state) == {"turn": 1}


async def test_seats_come_back_in_seat_order(store: GameStore) -> None:
    created = await store.create_game(
        guild_id=GUILD, channel_id=CHANNEL, scenario_id="hill-30", organiser_id=ALICE,
        state=state(), seats=[Seat(2, "GER", BOB, "b"), Seat(0, "US", ALICE, "a"),
                              Seat(1, "GER", ALICE, "a again")],
    )
    loaded = await store.load_game(created.id)
    assert [seat.seat_index for seat in loaded.seats] == [0, 1, 2]
    assert created.seats == loaded.seats


async def test_a_missing_game_is_reported_by_id(store: GameStore) -> None:
    with pytest.raises(GameNotFound, match="42"):
        await store.load_game(42)
    with pytest.raises(GameNotFound):
        await store.commit(42, 1, state())


async def test_timestamps_come_from_the_store_clock(store_url: str) -> None:
    now = datetime(1944, 6, 6, 6, 30, tzinfo=UTC)

    def clock() -> datetime:
        return now

    async with open_store(store_url, clock=clock) as store:
        game = await new_game(store)
        now += timedelta(hours=2)
        await store.commit(game.id, 1, state(turn=2), ['{"fired": true}'])
        loaded = await store.load_game(game.id)
        events = await store.events_since(game.id)
    assert loaded.created_at == datetime(1944, 6, 6, 6, 30, tzinfo=UTC)
    assert loaded.updated_at == datetime(1944, 6, 6, 8, 30, tzinfo=UTC)
    assert events[0].created_at == loaded.updated_at


async def test_commit_bumps_the_version_by_one_and_appends_events_in_order(
    store: GameStore,
) -> None:
    game = await new_game(store, events=('{"type": "created"}',))
    first = await store.commit(game.id, 1, state(turn=1, moved=1), ['{"a": 1}', '{"a": 2}'])
    second = await store.commit(game.id, 2, state(turn=2), ['{"a": 3}'])
    quiet = await store.commit(game.id, 3, state(turn=2, note="x"))
    assert (first.version, first.last_seq) == (2, 3)
    assert (second.version, second.last_seq) == (3, 4)
    assert (quiet.version, quiet.last_seq) == (4, 4)
    loaded = await store.load_game(game.id)
    assert loaded.version == 4
    assert json.loads(loaded.state) == {"turn": 2, "note": "x"}
    events = await store.events_since(game.id)
    assert [event.seq for event in events] == [1, 2, 3, 4]
    assert [json.loads(event.body) for event in events] == [
        {"type": "created"}, {"a": 1}, {"a": 2}, {"a": 3}
    ]
    assert [event.seq for event in await store.events_since(game.id, after_seq=2)] == [3, 4]


async def test_a_stale_commit_raises_and_changes_nothing(store: GameStore) -> None:
    game = await new_game(store, snapshot="setup")
    await store.commit(game.id, 1, state(turn=2), ['{"a": 1}'])
    before = await store.load_game(game.id)
    with pytest.raises(VersionConflict) as conflict:
        await store.commit(
            game.id, 1, state(turn=99), ['{"lost": true}'],
            status=GameStatus.FINISHED, snapshot="T99", seats=[], awaited=[],
        )
    assert (conflict.value.expected, conflict.value.current) == (1, 2)
    assert await store.load_game(game.id) == before
    assert [event.seq for event in await store.events_since(game.id)] == [1]
    assert [snap.label for snap in await store.snapshots(game.id)] == ["setup"]
    # the loser reloads and succeeds
    assert (await store.commit(game.id, 2, state(turn=3))).version == 3


async def test_commit_sets_status_and_replaces_seats(store: GameStore) -> None:
    game = await new_game(store, status=GameStatus.LOBBY)
    seats = [Seat(0, "US", BOB, "Bob"), Seat(1, "GER", ALICE, "Alice")]
    await store.commit(game.id, 1, state(), status=GameStatus.ACTIVE, seats=seats)
    loaded = await store.load_game(game.id)
    assert loaded.status is GameStatus.ACTIVE
    assert loaded.seats == tuple(seats)
    await store.commit(game.id, 2, state())
    assert (await store.load_game(game.id)).seats == tuple(seats)  # None leaves them


async def test_events_must_be_a_list_of_texts(store: GameStore) -> None:
    game = await new_game(store)
    with pytest.raises(TypeError):
        await store.commit(game.id, 1, state(), '{"a": 1}')  # type: ignore[arg-type]
    assert (await store.load_game(game.id)).version == 1


async def test_state_and_events_must_be_json(store: GameStore, store_kind: str) -> None:
    game = await new_game(store)
    refused, words = raw.NOT_JSON[store_kind]
    with pytest.raises(refused, match=words):
        await store.commit(game.id, 1, "{not json")
    with pytest.raises(refused, match=words):
        await store.commit(game.id, 1, state(), ["{not json"])
    assert (await store.load_game(game.id)).version == 1
    assert await store.events_since(game.id) == []


async def test_unfinished_games_are_listed_for_resuming(store: GameStore) -> None:
    lobby = await new_game(store, status=GameStatus.LOBBY)
    active = await new_game(store, status=GameStatus.ACTIVE)
    finished = await new_game(store)
    abandoned = await new_game(store)
    await store.commit(finished.id, 1, state(), status=GameStatus.FINISHED)
    await store.commit(abandoned.id, 1, state(), status=GameStatus.ABANDONED)
    assert [game.id for game in await store.unfinished_games()] == [lobby.id, active.id]


async def test_games_in_a_channel_include_those_in_its_threads(store: GameStore) -> None:
    here = await new_game(store)
    threaded = await new_game(store)
    elsewhere = await new_game(store, channel_id=CHANNEL + 1)
    done = await new_game(store)
    await store.set_thread(threaded.id, THREAD)
    await store.commit(done.id, 1, state(), status=GameStatus.FINISHED)

    assert [g.id for g in await store.games_in_channel(CHANNEL)] == [here.id, threaded.id]
    assert [g.id for g in await store.games_in_channel(CHANNEL, include_finished=True)] == [
        here.id, threaded.id, done.id
    ]
    assert [g.id for g in await store.games_in_channel(THREAD)] == [threaded.id]
    assert [g.id for g in await store.games_in_channel(CHANNEL + 1)] == [elsewhere.id]
    assert (await store.load_game(threaded.id)).thread_id == THREAD
    with pytest.raises(GameNotFound):
        await store.set_thread(999, THREAD)


async def test_a_second_store_on_the_same_database_sees_everything(store_url: str) -> None:
    due = datetime(2026, 1, 1, 12, tzinfo=UTC)
    async with open_store(store_url) as first:
        game = await new_game(first, events=('{"e": 0}',), snapshot="setup")
        await first.commit(game.id, 1, state(turn=2), ['{"e": 1}'], snapshot="T2P1",
                           awaited=[], status=GameStatus.ACTIVE)
        await first.commit(game.id, 2, state(turn=2, moved=True), ['{"e": 2}'],
                           awaited=[Awaited("orders", BOB, due)])
        await first.set_setting(f"game:{game.id}", "deadline_hours", 24)
        await first.set_private_channel(game.id, BOB, THREAD)
        before = await first.load_game(game.id)

    async with open_store(store_url) as second:
        assert await second.load_game(game.id) == before
        assert [e.seq for e in await second.events_since(game.id)] == [1, 2, 3]
        assert [s.label for s in await second.snapshots(game.id)] == ["setup", "T2P1"]
        assert await second.get_setting(f"game:{game.id}", "deadline_hours") == 24
        assert await second.private_channels(game.id) == {BOB: THREAD}
        assert [(d.key, d.user_id, d.due) for d in await second.deadlines(game.id)] == [
            ("orders", BOB, due)
        ]
        assert [g.id for g in await second.unfinished_games()] == [game.id]
        resumed = await second.commit(game.id, 3, state(turn=3), ['{"e": 3}'])
    assert (resumed.version, resumed.last_seq) == (4, 4)


async def test_state_and_events_come_back_byte_for_byte(store: GameStore) -> None:
    """Text, not a parsed document: key order, spacing, escapes and big numbers stay as given
    (PostgreSQL's jsonb would reorder keys and rewrite escapes)."""
    odd = '{"z": 1,  "a" :[ 1.50, 12345678901234567890123],\n"\\u00e9": "\\ud83d\\ude00 é 😀 \\u0000"}'
    assert json.loads(odd)  # valid JSON
    game = await store.create_game(guild_id=GUILD, channel_id=CHANNEL, scenario_id="hill-30",
                                   organiser_id=ALICE, state=odd, events=[odd], snapshot="setup")
    await store.commit(game.id, 1, odd, [odd, " []"], snapshot="T1P1")
    assert (await store.load_game(game.id)).state == odd
    assert [e.body for e in await store.events_since(game.id)] == [odd, odd, " []"]
    assert (await store.load_snapshot(game.id, "T1P1")).state == odd


async def test_a_users_games_are_those_he_holds_a_seat_in(store: GameStore) -> None:
    first = await new_game(store)
    second = await new_game(store, channel_id=7)
    lobby = await new_game(store, status=GameStatus.LOBBY)
    assert [g.id for g in await store.games_of_user(BOB)] == [first.id, second.id, lobby.id]
    await store.commit(second.id, 1, state(), status=GameStatus.FINISHED)
    await store.commit(lobby.id, 1, state(), seats=[Seat(0, "US", ALICE, "Sgt Rock")])
    assert [g.id for g in await store.games_of_user(BOB)] == [first.id]
    assert [g.id for g in await store.games_of_user(BOB, include_finished=True)] == [first.id, second.id]
    assert await store.games_of_user(12345) == []


async def test_each_seats_decisions_are_written_with_a_commit(store: GameStore) -> None:
    game = await new_game(store)
    asked = SeatDecision(0, asked="place:T1:US-1", asked_version=2)
    await store.commit(game.id, 1, state(), decisions=[asked, SeatDecision(1, asked="place:T1:DE-2", asked_version=2)])
    answered = SeatDecision(0, asked=None, answered="place:T1:US-1", command="plan a b c",
                            sent_at=datetime(2026, 3, 1, 12, tzinfo=UTC))
    await store.commit(game.id, 2, state(), decisions=[answered])
    assert await store.decisions(game.id) == [answered, SeatDecision(1, asked="place:T1:DE-2", asked_version=2)]
    with pytest.raises(VersionConflict):
        await store.commit(game.id, 2, state(), decisions=[asked])
    assert not await store.record_decisions(game.id, 2, [asked])  # the game is at version 3
    assert await store.record_decisions(game.id, 3, [asked])
    assert (await store.decisions(game.id))[0] == asked
