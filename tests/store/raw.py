"""The database under a store, reached around it: what the schema itself refuses, on either store."""
from __future__ import annotations

import itertools
import re
import sqlite3
from typing import Any

import asyncpg

# What each database raises for a row its schema refuses (a trigger, a key, a CHECK).
REFUSED: dict[str, type[Exception]] = {
    "sqlite": sqlite3.IntegrityError,
    "postgres": asyncpg.IntegrityConstraintViolationError,
}
# What each raises for text that is not JSON in a JSON column (SQLite: CHECK json_valid;
# PostgreSQL: CHECK (… ::json IS NOT NULL), which fails parsing the text).
NOT_JSON: dict[str, tuple[type[Exception], str]] = {
    "sqlite": (sqlite3.IntegrityError, "CHECK constraint failed"),
    "postgres": (asyncpg.InvalidTextRepresentationError, "invalid input syntax for type json"),
}
A_TIME = "2026-01-01T00:00:00.000000+00:00"  # a time both schemas take as written


async def execute(store_kind: str, store_url: str, sql: str, *args: Any) -> None:
    """Run one statement with `?` placeholders on a connection of its own, and commit it."""
    if store_kind == "sqlite":
        with sqlite3.connect(store_url) as conn:
            conn.execute(sql, args)
        return
    numbers = itertools.count(1)
    conn = await asyncpg.connect(store_url)
    try:
        await conn.execute(re.sub(r"\?", lambda _: f"${next(numbers)}", sql), *args)
    finally:
        await conn.close()
