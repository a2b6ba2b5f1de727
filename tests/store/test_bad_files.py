"""A database file Fieldpost must not use is refused at open with one line naming the file and
what to do, and keeps every byte; the bot and the console stop on it without a traceback."""
from __future__ import annotations

import logging
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.store import BadDatabase, SchemaTooNew, SqliteStore, StoreUnavailable
from bot.store.migrations import MIGRATIONS, migrate
from tests.store.sample import new_game, state

pytestmark = pytest.mark.sqlite_only  # the SQLite file itself; tests/store/test_postgres.py for PostgreSQL

ROOT = Path(__file__).resolve().parents[2]


async def a_real_database(path: Path, games: int = 40) -> None:
    """A closed Fieldpost database whose games fill many pages (the WAL folded into the file)."""
    async with SqliteStore(path) as store:
        for n in range(games):
            game = await new_game(store)
            await store.commit(game.id, 1, state(turn=2, pad="x" * 3000, n=n), ['{"moved": 1}'])


async def refused_untouched(path: Path) -> BadDatabase:
    """Open `path`, expect BadDatabase, and check the file is as it was and nothing grew beside it."""
    before = path.read_bytes()
    beside = sorted(p.name for p in path.parent.iterdir())
    with pytest.raises(BadDatabase) as refused:
        await SqliteStore(path).open()
    assert path.read_bytes() == before
    assert sorted(p.name for p in path.parent.iterdir()) == beside
    message = str(refused.value)
    assert str(path) in message and "\n" not in message
    return refused.value


async def test_an_existing_empty_file_is_refused_not_made_a_new_database(tmp_path: Path) -> None:
    path = tmp_path / "fieldpost.db"
    path.touch()
    message = str(await refused_untouched(path))
    assert "empty" in message and "delete it" in message and "backup" in message


async def test_a_missing_file_is_a_new_database(tmp_path: Path) -> None:
    path = tmp_path / "fieldpost.db"
    async with SqliteStore(path) as store:
        assert await store.unfinished_games() == []
    assert path.stat().st_size > 0


async def test_a_truncated_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "fieldpost.db"
    await a_real_database(path)
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) // 2])
    assert "restore a backup" in str(await refused_untouched(path))


@pytest.mark.parametrize("content", [
    random.Random(1944).randbytes(50_000),
    b"games: none\n" * 400,
    b"SQLite format 3\x00" + random.Random(6).randbytes(8_000),
], ids=["random", "text", "sqlite-header-then-garbage"])
async def test_a_garbage_file_is_refused(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "fieldpost.db"
    path.write_bytes(content)
    assert "restore a backup" in str(await refused_untouched(path))


async def test_damage_that_only_quick_check_finds_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "fieldpost.db"
    await a_real_database(path, games=3)
    with sqlite3.connect(path) as conn:
        (root,), = conn.execute("SELECT rootpage FROM sqlite_schema WHERE name = 'games_by_channel'")
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    damaged = bytearray(path.read_bytes())
    at = (root - 1) * page_size + 8  # the index page's first cell pointers
    damaged[at:at + 4] = bytes(4)
    path.write_bytes(bytes(damaged))
    assert "quick_check" in str(await refused_untouched(path))


async def test_an_sqlite_database_of_another_program_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE recipes (name TEXT)")
    conn.close()
    assert "another program" in str(await refused_untouched(path))


async def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(BadDatabase, match="not a file"):
        await SqliteStore(tmp_path).open()


async def test_a_newer_schema_reads_as_one_line_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "fieldpost.db"
    migrate(path, (*MIGRATIONS, "CREATE TABLE later (id INTEGER PRIMARY KEY) STRICT;"))
    with pytest.raises(SchemaTooNew) as refused:
        await SqliteStore(path).open()
    message = str(refused.value)
    assert str(path) in message and "newer" in message and "\n" not in message


# -- the front ends: one line and an exit code, never a traceback ----------------------------


def fieldpost(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).with_name("fieldpost")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "bot.cli"]
    return subprocess.run(
        [*command, *args], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120,
        cwd=ROOT, env={**os.environ, **(env or {})}, check=False,
    )


def one_line_about(done: subprocess.CompletedProcess[str], path: Path) -> str:
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr + done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and str(path) in lines[0], done.stderr
    return lines[0]


def test_the_console_stops_on_an_empty_db_file_with_one_line(tmp_path: Path) -> None:
    path = tmp_path / "game.db"
    path.touch()
    line = one_line_about(fieldpost("play", "--db", str(path)), path)
    assert line.startswith("fieldpost play: ") and "empty" in line
    assert path.stat().st_size == 0


def test_the_bot_stops_on_a_garbage_db_before_it_connects(tmp_path: Path) -> None:
    path = tmp_path / "fieldpost.db"
    path.write_bytes(random.Random(7).randbytes(20_000))
    # a proxy nobody listens on: a login attempt would fail loudly, not hang
    done = fieldpost("bot", env={"DISCORD_TOKEN": "x", "FIELDPOST_DB": str(path),
                                 "HTTPS_PROXY": "http://127.0.0.1:9", "HTTP_PROXY": "http://127.0.0.1:9"})
    line = one_line_about(done, path)
    assert line.startswith("fieldpost bot: ") and "restore a backup" in line


def test_the_bot_stops_on_a_newer_schema_with_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    from bot import cli

    path = tmp_path / "fieldpost.db"
    migrate(path, (*MIGRATIONS, "CREATE TABLE later (id INTEGER PRIMARY KEY) STRICT;"))
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("FIELDPOST_DB", str(path))
    assert cli.main(["bot"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(path) in err[0] and "newer" in err[0]



async def test_a_file_damaged_while_the_store_is_open_fails_reads_as_unavailable(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "fieldpost.db"
    async with SqliteStore(path) as store:
        games = [await new_game(store) for _ in range(3)]
        with sqlite3.connect(path) as conn:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # every page in the main file
            (root,), = conn.execute("SELECT rootpage FROM sqlite_schema WHERE name = 'games'")
            page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        conn.close()
        with path.open("r+b") as f:  # the games table's page, overwritten as by a failing disk
            f.seek((root - 1) * page_size)
            f.write(b"\xa5" * page_size)

        for _ in range(2):
            with pytest.raises(StoreUnavailable) as refused:
                await store.load_game(games[0].id)
            assert str(path) in refused.value.reason and "malformed" in refused.value.reason
            assert "nothing was changed" in str(refused.value)
        said = [r for r in caplog.records if r.levelno == logging.ERROR and str(path) in r.getMessage()]
        assert len(said) == 1
