"""`fieldpost backup PATH`: a consistent copy of the live database, taken while the store writes,
that opens as a Fieldpost database; an existing file is kept unless --force."""
from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

import pytest

from bot import cli
from bot.store import SqliteStore
from tests.store.sample import new_game, state

pytestmark = pytest.mark.sqlite_only  # the SQLite file itself; tests/store/test_postgres.py for PostgreSQL


async def test_a_backup_taken_while_the_store_writes_is_a_consistent_database(
    db_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "copies" / "fieldpost-backup.db"
    target.parent.mkdir()
    async with SqliteStore(db_path) as store:
        game = await new_game(store)
        stop = asyncio.Event()
        versions: list[int] = [1]

        async def play() -> None:
            while not stop.is_set():
                v = versions[-1]
                await store.commit(game.id, v, state(v=v + 1, pad="x" * 2000), [json.dumps({"v": v + 1})])
                versions.append(v + 1)
                await asyncio.sleep(0)

        writing = asyncio.create_task(play())
        while len(versions) < 20:
            await asyncio.sleep(0.001)
        before = versions[-1]
        code = await asyncio.to_thread(cli.main, ["backup", str(target), "--db", str(db_path)])
        after = versions[-1]
        while len(versions) < after + 20:  # the store goes on writing after the backup
            await asyncio.sleep(0.001)
        stop.set()
        await writing

    assert code == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and str(target) in out[0] and "integrity_check" in out[0]
    assert sorted(p.name for p in target.parent.iterdir()) == [target.name]  # no partial left behind
    with sqlite3.connect(target) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    conn.close()
    async with SqliteStore(target) as copy:
        copied = await copy.load_game(game.id)
        assert before <= copied.version <= after
        assert json.loads(copied.state)["v"] == copied.version  # state and version of one moment
        events = await copy.events_since(game.id)
        assert [json.loads(e.body)["v"] for e in events] == list(range(2, copied.version + 1))


async def test_a_backup_never_overwrites_unless_forced(
    db_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with SqliteStore(db_path) as store:
        game = await new_game(store)
    target = tmp_path / "precious.db"
    target.write_bytes(b"last week's backup")

    assert cli.main(["backup", str(target), "--db", str(db_path)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(target) in err[0] and "--force" in err[0]
    assert target.read_bytes() == b"last week's backup"

    assert cli.main(["backup", str(target), "--db", str(db_path), "--force"]) == 0
    async with SqliteStore(target) as copy:
        assert (await copy.load_game(game.id)).version == 1


async def test_the_database_comes_from_fieldpost_db_and_a_missing_one_is_not_created(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    live = tmp_path / "live.db"
    monkeypatch.setenv("FIELDPOST_DB", str(live))
    assert cli.main(["backup", str(tmp_path / "copy.db")]) == 1
    assert str(live) in capsys.readouterr().err
    assert not live.exists() and not (tmp_path / "copy.db").exists()

    async with SqliteStore(live) as store:
        await store.set_setting("guild:1", "deadline_hours", 12)
    assert cli.main(["backup", str(tmp_path / "copy.db")]) == 0
    async with SqliteStore(tmp_path / "copy.db") as copy:
        assert await copy.get_setting("guild:1", "deadline_hours") == 12
