"""Hostile input through the use-cases (issue 14), on real SQLite files: a typed command, a
force typed into the lobby, a half-typed autocomplete. GameService answers with Refused (and
changes nothing: neither the state, nor the stored version, nor the event log) or carries the
command out; it never raises anything else. Games of every shipped scenario, at a few points
along a seeded random game, are prepared once and copied for each example."""
from __future__ import annotations

import asyncio
import random
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.app import GameService, Refused, Where
from bot.app.documents import parse_force
from bot.store import SqliteStore
from engine import RuleError
from tests.app.table import ANN, BO, HERE, open_table
from tests.hostile_input import FIXED_WORDS, hostile_line

pytestmark = pytest.mark.slow  # dealt to the front of a worker's share: tests/conftest.py

STOPS = (0, 9, 25)  # commands played before a copy is taken: placement, the first actions, later


def _files(db: Path) -> list[Path]:
    return [p for p in (db, db.with_name(db.name + "-wal")) if p.exists()]


async def _prepare(shipped, folder: Path) -> list[tuple[Path, int]]:
    """(database file, game id) for every shipped scenario at every stop."""
    out = []
    for sc in sorted(shipped.scenarios):
        sides = tuple(s.id.value for s in shipped.scenario(sc).sides)
        rng = random.Random(sc)
        db = folder / f"{sc}.db"
        gid, played = None, 0
        for stop in STOPS:
            async with SqliteStore(db) as store:
                service = GameService(store, shipped, seed=lambda: 5)
                if gid is None:
                    gid = (await open_table(service, sides=sides, scenario=sc)).game_id
                where = Where(channel_id=HERE.channel_id, game_id=gid)
                while played < stop and (waits := await service.waiting(ANN, where)):
                    caller = ANN if waits[0].user_id == ANN.user_id else BO
                    await service.command(caller, where, rng.choice(await service.options(caller, where)))
                    played += 1
            copy = folder / f"{sc}-{stop}"
            copy.mkdir()
            for f in _files(db):
                shutil.copy(f, copy / f.name)
            out.append((copy / db.name, gid))
    return out


@pytest.fixture(scope="session")
def prepared(shipped, tmp_path_factory) -> list[tuple[Path, int]]:
    return asyncio.run(_prepare(shipped, tmp_path_factory.mktemp("fuzz-usecases")))


async def _throw(shipped, db: Path, gid: int, caller_pick: int, throw) -> None:
    """Copy a prepared game, throw one thing at it, check the outcome."""
    with tempfile.TemporaryDirectory() as tmp:
        for f in _files(db):
            shutil.copy(f, Path(tmp) / f.name)
        async with SqliteStore(Path(tmp) / db.name) as store:
            service = GameService(store, shipped, seed=lambda: 5)
            where = Where(channel_id=HERE.channel_id, game_id=gid)
            caller = (ANN, BO)[caller_pick]
            before = (await store.load_game(gid)), len(await store.events_since(gid))
            try:
                await throw(service, caller, where)
            except Refused as exc:
                assert str(exc) and "Traceback" not in str(exc)
                after = (await store.load_game(gid)), len(await store.events_since(gid))
                assert (after[0].version, after[0].state, after[1]) == (before[0].version, before[0].state, before[1])
                return
            await service.options(caller, where)  # the game goes on: what comes next can be listed


@settings(max_examples=160, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_typed_command_is_carried_out_or_refused_and_a_refusal_changes_nothing(shipped, prepared, data):
    db, gid = data.draw(st.sampled_from(prepared))
    pick = data.draw(st.integers(0, 1))
    rng = data.draw(st.randoms(use_true_random=False))

    async def throw(service, caller, where):
        state = await service.load_state(gid)
        try:
            legal = await service.options(caller, where)
        except Refused:
            legal = []
        await service.command(caller, where, hostile_line(rng, state, legal))

    asyncio.run(_throw(shipped, db, gid, pick, throw))


WHATS = ["field:", "field:x", "field:a:b:c", "field::", "field:call:kind", "field:call:__class__", ":", "", "game",
         "soldier", "target", "dest", "card", "plate", "post", "board", "deck", "force", "label", "preempt-men",
         "drive", "weapon", "ammo", "item", "react"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_autocomplete_never_raises_whatever_is_half_typed(shipped, prepared, data):
    db, gid = data.draw(st.sampled_from(prepared))
    pick = data.draw(st.integers(0, 1))
    hostile = st.sampled_from(FIXED_WORDS) | st.text(max_size=12)
    what, typed, soldier, plate = data.draw(st.tuples(st.sampled_from(WHATS) | hostile, hostile,
                                                      st.none() | hostile, st.none() | hostile))

    async def throw(service, caller, where):
        found = await service.suggest(caller, where, what, typed, verb=data.draw(st.none() | hostile),
                                      soldier=soldier, plate=plate, card=typed, target=typed)
        assert isinstance(found, list)

    asyncio.run(_throw(shipped, db, gid, pick, throw))


@settings(max_examples=200, deadline=None)
@given(text=st.lists(st.sampled_from(FIXED_WORDS) | st.text(max_size=10), max_size=4).map(" ".join))
def test_a_typed_force_is_read_or_refused_by_the_rules_error(text):
    try:
        parse_force(text)
    except RuleError as exc:
        assert len(str(exc)) < 600


@pytest.mark.parametrize("force, named", [
    ("999" + "9" * 5000, "at most 400 characters"),  # `/game forces soldiers:999…`
    ("101 ²", "'²'"),
    ("101:g" + "9" * 300, "too long"),
    ("101 \ud800", "\\ud800"),
    ("1234567", "at most 6 digits"),
])
async def test_a_force_the_lobby_cannot_read_is_refused_naming_it(service, store, force, named):
    created = await service.new_game(ANN, HERE, "yard", side="US")
    where = Where(channel_id=HERE.channel_id, game_id=created.game_id)
    await service.join(BO, where, "DE")
    version = (await store.load_game(created.game_id)).version
    with pytest.raises(Refused) as refused:
        await service.choose_force(BO, where, force)
    assert named in str(refused.value)
    assert (await store.load_game(created.game_id)).version == version


@pytest.mark.parametrize("what", ["field:", "field:call", "field:a:b:c", "field::::"])
async def test_a_malformed_field_suggestion_is_an_empty_list(service, what):
    await open_table(service)
    assert await service.suggest(ANN, HERE, what, "") == []
