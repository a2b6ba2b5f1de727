"""Values SQLite cannot keep (an integer beyond 64 bits, text with a lone surrogate) are refused
with a StoreError naming the argument, before anything is written; looked up, they find nothing."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as S

from bot.store import (
    Awaited,
    GameNotFound,
    GameStore,
    Seat,
    SnapshotNotFound,
    StoreError,
)
from bot.store.keepable import refuse_unkeepable, unkeepable
from tests.store.sample import ALICE, SEATS, new_game, state

pytestmark = pytest.mark.both_stores

TOO_BIG = 2**63
TOO_SMALL = -(2**63) - 1
LONE = "Sgt \udc80Rock"  # a lone surrogate: a Python str, but not Unicode text
NUL = "Sgt\x00Rock"  # Unicode, but PostgreSQL's text cannot hold it, so neither store keeps it
DUE = datetime(2026, 6, 6, tzinfo=UTC)


async def test_an_id_beyond_64_bits_is_no_game(store: GameStore) -> None:
    await new_game(store)
    for game_id in (TOO_BIG, TOO_SMALL, 2**200):
        with pytest.raises(GameNotFound):
            await store.load_game(game_id)
        assert await store.events_since(game_id) == []
        assert await store.deadlines(game_id) == []
        assert await store.private_channels(game_id) == {}
        with pytest.raises(SnapshotNotFound):
            await store.load_snapshot(game_id, "setup")
    assert await store.games_in_channel(TOO_BIG) == []
    assert await store.campaigns([TOO_BIG, -TOO_BIG * 2]) == []


async def test_a_seq_beyond_64_bits_means_what_it_says(store: GameStore) -> None:
    game = await new_game(store, events=('{"a": 1}', '{"b": 2}'))
    assert await store.events_since(game.id, after_seq=TOO_BIG) == []
    assert [e.seq for e in await store.events_since(game.id, after_seq=TOO_SMALL)] == [1, 2]


@pytest.mark.parametrize(("call", "named"), [
    (lambda s, g: s.commit(TOO_BIG, 1, state()), "game_id"),
    (lambda s, g: s.commit(g, TOO_BIG, state()), "expected_version"),
    (lambda s, g: s.commit(g, 1, state(), seats=[*SEATS, Seat(2, "US", TOO_BIG, "Pvt Big")]),
     "seats[2].user_id"),
    (lambda s, g: s.commit(g, 1, state(), awaited=[Awaited("orders", TOO_SMALL, DUE)]),
     "awaited[0].user_id"),
    (lambda s, g: s.rollback(g, 1, "setup", by_user_id=TOO_BIG), "by_user_id"),
    (lambda s, g: s.set_thread(g, TOO_BIG), "thread_id"),
    (lambda s, g: s.set_private_channel(g, ALICE, TOO_BIG), "channel_id"),
    (lambda s, g: s.mark_reminded(TOO_BIG, "orders", ALICE), "game_id"),
    (lambda s, g: s.create_game(guild_id=TOO_BIG, channel_id=1, scenario_id="x", organiser_id=1,
                                state=state()), "guild_id"),
], ids=["game", "version", "seat", "deadline", "rollback-by", "thread", "private-channel",
        "reminded", "guild"])
async def test_an_id_beyond_64_bits_is_refused_naming_it(store: GameStore, call, named: str) -> None:
    game = await new_game(store, snapshot="setup")
    with pytest.raises(StoreError) as refused:
        await call(store, game.id)
    assert str(refused.value).startswith(f"{named} = ") and "64-bit" in str(refused.value), refused.value
    await unchanged(store, game.id)


@pytest.mark.parametrize(("call", "named"), [
    (lambda s, g: s.commit(g, 1, '{"name": "' + LONE + '"}'), "state"),
    (lambda s, g: s.commit(g, 1, state(), [state(a=1), f'{{"said": "{LONE}"}}']), "events[1]"),
    (lambda s, g: s.commit(g, 1, state(), seats=[Seat(0, "US", ALICE, LONE)]), "seats[0].display_name"),
    (lambda s, g: s.commit(g, 1, state(), snapshot=LONE), "snapshot"),
    (lambda s, g: s.rollback(g, 1, LONE), "label"),
    (lambda s, g: s.set_setting("guild:1", "motto", {"text": LONE}), "value"),
    (lambda s, g: s.set_setting(f"user:{LONE}", "k", 1), "scope"),
    (lambda s, g: s.create_game(guild_id=1, channel_id=1, scenario_id=LONE, organiser_id=1,
                                state=state()), "scenario_id"),
    (lambda s, g: s.create_campaign(guild_id=1, channel_id=1, definition_id="normandy", name=LONE,
                                    organiser_id=1, state=state()), "name"),
], ids=["state", "event", "name", "snapshot", "label", "setting", "scope", "scenario", "campaign-name"])
async def test_text_with_a_lone_surrogate_is_refused_naming_it(store: GameStore, call, named: str) -> None:
    game = await new_game(store, snapshot="setup")
    with pytest.raises(StoreError) as refused:
        await call(store, game.id)
    assert str(refused.value).startswith(f"{named} is not valid text"), refused.value
    await unchanged(store, game.id)
    assert await store.settings("guild:1") == {}


@pytest.mark.parametrize(("call", "named"), [
    (lambda s, g: s.commit(g, 1, state(), seats=[Seat(0, "US", ALICE, NUL)]), "seats[0].display_name"),
    (lambda s, g: s.commit(g, 1, state(), [state(a=1), '{"said": "' + NUL + '"}']), "events[1]"),
    (lambda s, g: s.commit(g, 1, state(), snapshot=NUL), "snapshot"),
    (lambda s, g: s.set_setting("guild:1", NUL, 1), "key"),
    (lambda s, g: s.mark_reminded(g, NUL, ALICE), "key"),
], ids=["name", "event", "snapshot", "setting-key", "deadline-key"])
async def test_text_with_a_nul_character_is_refused_naming_it(store: GameStore, call, named: str) -> None:
    game = await new_game(store, snapshot="setup")
    with pytest.raises(StoreError) as refused:
        await call(store, game.id)
    assert str(refused.value).startswith(f"{named} is not valid text (a NUL character at character "), \
        refused.value
    await unchanged(store, game.id)
    assert await store.settings("guild:1") == {}


async def test_a_nul_inside_a_setting_value_is_kept_as_json_writes_it(store: GameStore) -> None:
    await store.set_setting("guild:1", "motto", {"text": NUL})
    assert await store.get_setting("guild:1", "motto") == {"text": NUL}


@pytest.mark.parametrize("bad", [LONE, NUL])
async def test_looking_up_text_that_cannot_be_kept_finds_nothing(store: GameStore, bad: str) -> None:
    game = await new_game(store, snapshot="setup")
    assert await store.get_setting(f"user:{bad}", "k", "none") == "none"
    assert await store.settings(bad) == {}
    with pytest.raises(SnapshotNotFound):
        await store.load_snapshot(game.id, bad)


async def unchanged(store: GameStore, game_id: int) -> None:
    """Nothing was written: the sample game is as created, and no second game exists."""
    game = await store.load_game(game_id)
    assert (game.version, game.thread_id, game.seats) == (1, None, SEATS)
    assert await store.events_since(game_id) == []
    assert [s.label for s in await store.snapshots(game_id)] == ["setup"]
    assert await store.private_channels(game_id) == {}
    assert [g.id for g in await store.games_in_channel(game.channel_id)] == [game_id]


@settings(max_examples=300, deadline=None)
@given(S.text(S.characters(blacklist_categories=()), max_size=12), S.integers(min_value=0, max_value=3))
def test_the_first_bad_character_is_named_wherever_the_text_sits(text: str, depth: int) -> None:
    """Non-ASCII text, ASCII text, lone surrogates and NULs anywhere, the text alone or inside
    lists, tuples and records: the answer names the first lone surrogate, else the first NUL."""
    surrogate = next((i for i, c in enumerate(text) if 0xD800 <= ord(c) <= 0xDFFF), None)
    nul = text.find("\x00")
    want = (f" is not valid text (a lone surrogate at character {surrogate})" if surrogate is not None
            else f" is not valid text (a NUL character at character {nul})" if nul >= 0 else None)
    wrappers = [(lambda v: Seat(seat_index=1, side="US", user_id=2, display_name=v), ".display_name"),
                (lambda v: ["fine", 7, v], "[2]"), (lambda v: (v,), "[0]")]
    value, path = text, ""
    for wrap, where in wrappers[:depth]:
        value, path = wrap(value), where + path
    assert unkeepable(value) == (None if want is None else path + want)


@pytest.mark.parametrize("n", [2**63 - 1, -(2**63), 2**63, -(2**63) - 1, True, False])
def test_integers_are_kept_up_to_the_64_bit_bounds_and_named_past_them(n: int) -> None:
    fits = isinstance(n, bool) or -(2**63) <= n < 2**63
    assert unkeepable([n]) == (None if fits else f"[0] = {n} does not fit the database's 64-bit integers")


def test_the_first_argument_at_fault_is_named_in_the_order_given() -> None:
    """Several arguments at fault: the refusal names the first as they were passed; times inside
    records, and text, numbers and lists that fit, pass on the way to it."""
    fine = {"state": "{}", "events": ["{}", "{}"], "awaited": [Awaited("orders", 7, DUE)], "seen": None, "flag": True}
    refuse_unkeepable(**fine)
    with pytest.raises(StoreError) as refused:
        refuse_unkeepable(**fine, label=NUL, game_id=TOO_BIG)
    assert str(refused.value) == "label is not valid text (a NUL character at character 3); nothing was written"
    with pytest.raises(StoreError) as refused:
        refuse_unkeepable(game_id=TOO_BIG, **fine, label=NUL)
    assert str(refused.value) == ("game_id = 9223372036854775808 does not fit the database's 64-bit integers;"
                                  " nothing was written")
