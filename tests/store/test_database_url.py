"""FIELDPOST_DB chooses the store: a file path or sqlite:///PATH is SQLite (the default),
postgresql:// or postgres:// is PostgreSQL; anything else is refused saying what it takes, and a
PostgreSQL password is never repeated in a message."""
from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from bot import cli
from bot.config import Settings
from bot.store import SqliteStore, StoreError, open_store
from bot.store.database_url import safe_url
from bot.store.postgres import PostgresStore


@pytest.mark.parametrize(("url", "path"), [
    ("fieldpost.db", Path("fieldpost.db")),
    ("/data/fieldpost.db", Path("/data/fieldpost.db")),
    ("  ", Path("fieldpost.db")),
    (Path("games/x.db"), Path("games/x.db")),
    ("sqlite:///games/x.db", Path("games/x.db")),
    ("sqlite:////data/fieldpost.db", Path("/data/fieldpost.db")),
    ("SQLITE:///x.db", Path("x.db")),
])
def test_a_path_or_an_sqlite_url_is_sqlite(url, path: Path) -> None:
    store = open_store(url)
    assert isinstance(store, SqliteStore) and store.path == path


@pytest.mark.parametrize("url", ["postgresql://fieldpost@db/fieldpost", "postgres://u:p@localhost:5433/games",
                                 "postgresql://fieldpost@/fieldpost?host=/run/postgresql"])
def test_a_postgresql_url_is_postgresql(url: str) -> None:
    store = open_store(url, busy_timeout=1.0)
    assert isinstance(store, PostgresStore) and store.dsn == url


def test_another_kind_of_url_is_refused_saying_what_is_taken() -> None:
    with pytest.raises(StoreError, match=r"mysql:// is no database Fieldpost knows.*postgresql://"):
        open_store("mysql://root@db/games")


def test_the_setting_takes_both_and_refuses_others(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FIELDPOST_DB", "postgresql://fieldpost@db/fieldpost")
    assert Settings().fieldpost_db == "postgresql://fieldpost@db/fieldpost"
    monkeypatch.setenv("FIELDPOST_DB", "/data/fieldpost.db")
    assert Settings().fieldpost_db == "/data/fieldpost.db"
    monkeypatch.setenv("FIELDPOST_DB", "")
    assert Settings().fieldpost_db == "fieldpost.db"
    monkeypatch.setenv("FIELDPOST_DB", "redis://cache")
    with pytest.raises(ValidationError, match="redis://"):
        Settings()


@pytest.mark.parametrize(("url", "shown"), [
    ("postgresql://fieldpost:s3cret@db:5432/games", "postgresql://fieldpost@db:5432/games"),
    ("postgres://fieldpost@db/games?password=s3cret&sslmode=require", "postgres://fieldpost@db/games?sslmode=require"),
    ("postgresql://db/games", "postgresql://db/games"),
])
def test_a_password_is_never_shown(url: str, shown: str) -> None:
    assert safe_url(url) == shown
    assert open_store(url).where == shown


def test_backup_is_for_sqlite_and_sends_postgresql_to_pg_dump(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setenv("FIELDPOST_DB", "postgresql://fieldpost:s3cret@db/games")
    assert cli.main(["backup", str(tmp_path / "copy.db")]) == 1
    err = capsys.readouterr().err
    assert "pg_dump" in err and "s3cret" not in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "copy.db").exists()


def test_the_bot_stops_with_one_line_when_postgresql_cannot_be_reached(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("FIELDPOST_DB", f"postgresql://fieldpost:s3cret@/games?host={tmp_path}")  # no server there
    assert cli.main(["bot"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("fieldpost bot: postgresql://fieldpost@/games")
    assert "s3cret" not in err[0]
