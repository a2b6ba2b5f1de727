"""Which database `FIELDPOST_DB` names, and the store that keeps it.

    open_store("fieldpost.db")                          # SQLite, a file path (the default)
    open_store("sqlite:///data/fieldpost.db")           # SQLite, the same as "data/fieldpost.db"
    open_store("sqlite:////data/fieldpost.db")          # SQLite, the absolute /data/fieldpost.db
    open_store("postgresql://fieldpost@db/fieldpost")   # PostgreSQL (also postgres://)

Like `open()` for files, `open_store` gives the store ready to open: `async with
open_store(url) as store:` (or `await open_store(url).open()`). asyncpg, the PostgreSQL
driver, is imported only for a PostgreSQL URL (`pip install -e '.[postgres]'`).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from bot.store.protocol import StoreError

if TYPE_CHECKING:
    from bot.store.postgres import PostgresStore
    from bot.store.sqlite import SqliteStore

DEFAULT = "fieldpost.db"
SQLITE_PREFIX = "sqlite:///"
POSTGRES_SCHEMES = ("postgresql", "postgres")
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")


def is_postgres(url: str) -> bool:
    scheme = _SCHEME.match(url.strip())
    return scheme is not None and scheme.group(1).lower() in POSTGRES_SCHEMES


def sqlite_path(url: str | Path) -> Path:
    """The SQLite file a URL or path names; `StoreError` for a URL of another kind."""
    text = str(url).strip() or DEFAULT
    if text.lower().startswith(SQLITE_PREFIX):
        return Path(text[len(SQLITE_PREFIX):] or DEFAULT)
    if is_postgres(text):
        raise StoreError(f"{safe_url(text)} is a PostgreSQL database, not an SQLite file")
    if (scheme := _SCHEME.match(text)) is not None:
        raise StoreError(f"FIELDPOST_DB: {scheme.group(1)}:// is no database Fieldpost knows; give "
                         "a file path, sqlite:///PATH or postgresql://…")
    return Path(text)


def check_url(url: str | Path) -> str:
    """`url` itself, stripped (empty is the default file), if it names a database Fieldpost can
    use; `StoreError` saying what it takes otherwise."""
    text = str(url).strip() or DEFAULT
    if not is_postgres(text):
        sqlite_path(text)
    return text


def safe_url(url: str) -> str:
    """The URL without its password, to name the database in messages and the log."""
    parts = urlsplit(url)
    user, at, host = parts.netloc.rpartition("@")
    netloc = f"{user.partition(':')[0]}{at}{host}"
    query = "&".join(p for p in parts.query.split("&") if p and not p.lower().startswith("password="))
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def open_store(url: str | Path, **options: Any) -> SqliteStore | PostgresStore:
    """The store for `url` (a file path, `sqlite:///PATH` or `postgresql://…`), not yet open.
    `options` go to the store (`clock=`, `busy_timeout=`, …)."""
    text = check_url(url)
    if is_postgres(text):
        try:
            from bot.store.postgres import PostgresStore
        except ModuleNotFoundError as exc:
            if exc.name != "asyncpg":
                raise
            raise StoreError("FIELDPOST_DB names a PostgreSQL database, but asyncpg is not "
                             "installed: pip install 'fieldpost[postgres]'") from exc
        return PostgresStore(text, **options)
    from bot.store.sqlite import SqliteStore

    return SqliteStore(sqlite_path(text), **options)
