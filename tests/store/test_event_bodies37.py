"""The one statement's events come as one text and each body's place in its UTF-8 bytes
(`sqlite_commits.bodies`, issue 17, stop 37), no longer as a JSON array of JSON strings: every
body is stored as the very text given, byte for byte, whatever it holds (escapes, unicode of one
to four bytes, floats and big integers as written, nesting, key order, whitespace), as the slow way
and the PostgreSQL store keep it; a body the store cannot keep is still refused with its message."""
from __future__ import annotations

import asyncio
import json
import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as S

from bot.store import sqlite_commits
from bot.store.protocol import StoreError
from bot.store.sqlite import SqliteStore
from tests.store.test_fast_commits import GAMES, _compare, _Counted

AWKWARD = [
    '{"a":1}',
    '{"t": "caf\u00e9 \u2014 \u00e9\u2028 \U0001f600 \u4e2d\u6587", "z": 1, "a": 2}',  # 2, 3 and 4 bytes, keys unsorted
    '{"t":"caf\\u00e9 \\ud83d\\ude00 \\u0000 \\/ \\b\\f\\n\\r\\t \\"q\\" \\\\"}',  # escapes kept as written
    '{"f": 4.830, "e": 1E5, "g": -0.0, "h": 1.5e-7, "big": 123456789012345678901234567890}',
    '  {\n\t"spaced" :  [ 1 , { "b" : [ ] } ] }  ',
    '[[[[{"deep": [[{"deeper": null}]]}]]]]',
    '"just a string \u00fc"',
    "3",
    "true",
    '{"dup": 1, "dup": 2}',
    '{"raw": "\x7f\u0085\u00a0\ufeff\uffff"}',
    "{}",
]


def _stored(path: Path) -> list[tuple[int, int, str, str]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT game_id, seq, typeof(body), body FROM events ORDER BY game_id, seq").fetchall()
    finally:
        conn.close()


def _ops(bodies: list[list[str]]) -> list[tuple]:
    """One commit a game (1..3, at version 2) with these bodies."""
    return [("commit", n % GAMES + 1, 2 + n // GAMES, '{"n": 2}', {"events": events})
            for n, events in enumerate(bodies)]


@pytest.mark.sqlite_only
def test_awkward_bodies_are_stored_as_given_by_the_one_statement(monkeypatch: pytest.MonkeyPatch) -> None:
    runs = [AWKWARD[:4], AWKWARD[4:9], AWKWARD[9:], AWKWARD[::-1], [AWKWARD[1]], AWKWARD]
    counted = _compare(_ops(runs), monkeypatch)  # the same tables and answers as the slow way
    assert counted.applied == GAMES + len(runs) and counted.failed == 0  # and all went the fast way
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "x.db"

        async def run() -> None:
            async with SqliteStore(path) as store:
                game = await store.create_game(guild_id=1, channel_id=2, scenario_id="s", organiser_id=3, state="{}")
                version = game.version
                for events in runs:
                    version = (await store.commit(game.id, version, "{}", events)).version
                assert [e.body for e in await store.events_since(game.id)] == [b for r in runs for b in r]

        asyncio.run(run())
        given_bodies = [b for r in runs for b in r]
        stored = _stored(path)
        assert [row[2] for row in stored] == ["text"] * len(given_bodies)
        assert [row[3].encode() for row in stored] == [b.encode() for b in given_bodies]  # byte for byte


_TEXT = S.text(S.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=12)
_VALUE = S.recursive(
    S.none() | S.booleans() | S.integers(-(10**30), 10**30) | S.floats(allow_nan=False, allow_infinity=False) | _TEXT,
    lambda inner: S.lists(inner, max_size=3) | S.dictionaries(_TEXT, inner, max_size=3), max_leaves=8)


@S.composite
def _body(draw: S.DrawFn) -> str:
    """A JSON text as some writer might have written it: compact or spaced, escaped or not."""
    value = draw(_VALUE)
    return json.dumps(value, ensure_ascii=draw(S.booleans()),
                      separators=draw(S.sampled_from([(",", ":"), (", ", ": "), (" ,", " :  ")])),
                      indent=draw(S.sampled_from([None, None, 2, "\t"])), sort_keys=draw(S.booleans()))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(bodies=S.lists(S.lists(_body(), min_size=1, max_size=5), min_size=1, max_size=6))
def test_any_json_body_is_stored_as_given(bodies: list[list[str]], monkeypatch: pytest.MonkeyPatch) -> None:
    counted = _compare(_ops(bodies), monkeypatch)
    assert counted.failed == 0 and counted.applied == GAMES + len(bodies)


@pytest.mark.parametrize("events", [[], ["{}"], ['{"a": "\u00e9"}', "[]", '"\U0001f600"'], ("1", "2")])
def test_bodies_says_where_each_body_lies_in_the_bytes(events: list[str]) -> None:
    joined, spans, count = sqlite_commits.bodies(events)
    assert count == len(events)
    if not events:
        assert (joined, spans) == (None, None)
        return
    data = joined.encode()
    cut = [data[(v >> 32) - 1:(v >> 32) - 1 + (v & 0xFFFFFFFF)].decode() for v in json.loads(spans)]
    assert cut == list(events)


@pytest.mark.parametrize("events", [["{}", "a\x00b"], ["\ud800"], ['{"a": 1}', "\udfff x \u00e9"], "{}",
                                    ["{}", 5], [b"{}"]])
def test_bodies_leaves_what_it_cannot_vouch_for_to_the_walk(events: object) -> None:
    assert sqlite_commits.bodies(events) is None  # type: ignore[arg-type]


@pytest.mark.sqlite_only
@pytest.mark.parametrize(("events", "message"), [
    (["{}", '{"a": "x\x00"}'], "events[1] is not valid text (a NUL character at character 8); nothing was written"),
    (['"\u00e9"', '"\ud800"'], "events[1] is not valid text (a lone surrogate at character 1); nothing was written"),
])
def test_an_unkeepable_body_is_refused_as_before(events: list[str], message: str, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    counted = _Counted(sqlite_commits.insert)
    monkeypatch.setattr(sqlite_commits, "insert", counted)

    async def run() -> None:
        async with SqliteStore(tmp_path / "x.db") as store:
            game = await store.create_game(guild_id=1, channel_id=2, scenario_id="s", organiser_id=3, state="{}")
            with pytest.raises(StoreError) as refused:
                await store.commit(game.id, game.version, "{}", events)
            assert str(refused.value) == message
            assert await store.events_since(game.id) == []
            assert (await store.load_game(game.id)).version == game.version

    asyncio.run(run())
    assert counted.applied == 0
