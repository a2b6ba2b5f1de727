"""The database file itself: what an SQLite error means for it, what Fieldpost checks before
using a file, and how to copy a live one.

    check_file(Path("fieldpost.db"))                  # BadDatabase if it cannot be used
    backup(Path("fieldpost.db"), Path("copy.db"))     # SQLite's online backup, while the bot runs

The check opens the file read-only, so a refused file keeps every byte it had.
"""
from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from bot.store.protocol import BadDatabase, StoreError, StoreUnavailable

# Primary result codes (https://sqlite.org/rescode.html); extended codes keep them in the low byte.
_BUSY = {5, 6}  # SQLITE_BUSY, SQLITE_LOCKED: another connection holds a lock
_BROKEN = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB: the file's content is damaged
_CANTOPEN = 14  # SQLITE_CANTOPEN: a missing directory, no permission, a directory as the file
# The disk, the OS or the file failed the database: SQLITE_NOMEM, READONLY, IOERR, FULL,
# CANTOPEN, PROTOCOL, NOLFS, and the damaged file above.
_UNAVAILABLE = {7, 8, 10, 13, _CANTOPEN, 15, 22} | _BROKEN

WHAT_TO_DO = "restore a backup (docs/store.md, Backups), or move the file away to start a new database"


def _code(exc: BaseException) -> int | None:
    code = getattr(exc, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF


def is_busy(exc: BaseException) -> bool:
    """True if `exc` is SQLite saying another connection holds the lock it needs."""
    return _code(exc) in _BUSY


def is_unavailable(exc: BaseException) -> bool:
    """True if `exc` is the database failing (busy, disk full, I/O, damage), not the caller's
    request: the caller is told "try again later" and the admin log gets the reason."""
    return _code(exc) in _UNAVAILABLE | _BUSY


def describe(path: Path, exc: BaseException) -> str:
    """SQLite's own words for a failure, naming the file: the admin's reason."""
    name = getattr(exc, "sqlite_errorname", None)
    return f"{path}: {exc}" + (f" ({name})" if name else "")


def opening_error(path: Path, exc: BaseException) -> StoreError | None:
    """The store's error for an SQLite failure while opening `path`: `BadDatabase` for a damaged
    file, `StoreUnavailable` for a busy or failing one, None for anything else."""
    if _code(exc) in _BROKEN:
        return BadDatabase(f"{path} is not a usable Fieldpost database ({exc}): {WHAT_TO_DO}")
    if _code(exc) == _CANTOPEN:
        return BadDatabase(f"cannot open {path} ({exc}): check the path and its permissions")
    if is_unavailable(exc):
        return StoreUnavailable(describe(path, exc), busy=is_busy(exc))
    return None


def read_only(path: Path, timeout: float) -> sqlite3.Connection:
    """A connection that can neither create `path` nor write to it."""
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=timeout)


def _problems(rows: list[tuple[str]]) -> str:
    """What quick_check or integrity_check found, on one short line; "" if the file is sound."""
    lines = [line for (text,) in rows for line in text.splitlines() if line and not line.startswith("***")]
    found = "; ".join(line for line in lines if line != "ok")
    return found if len(found) <= 200 else found[:199] + "…"


def check_file(path: Path, *, timeout: float = 5.0) -> None:
    """Refuse, with `BadDatabase` naming the file and what to do, a file Fieldpost must not
    use: an empty one (a missing file is a new database; an existing empty one is something
    gone wrong, not a fresh start), one SQLite cannot read, one failing `PRAGMA quick_check`,
    or an SQLite database of some other program. Changes nothing, not even a byte."""
    if not path.exists():
        return
    if not path.is_file():
        raise BadDatabase(f"{path} is not a file: set FIELDPOST_DB (or --db) to a database file")
    if path.stat().st_size == 0:
        raise BadDatabase(
            f"{path} is an empty file (0 bytes), not a Fieldpost database: delete it to start "
            "a new database, or restore a backup (docs/store.md, Backups)"
        )
    # A read-only connection to a WAL file makes -wal and -shm beside it if they are missing;
    # a refused file gets them taken away again, so it is left exactly as it was found.
    beside = [path.with_name(path.name + suffix) for suffix in ("-wal", "-shm")]
    made = [side for side in beside if not side.exists()]
    try:
        _check_contents(path, timeout)
    except BadDatabase:
        for side in made:
            side.unlink(missing_ok=True)
        raise


def _check_contents(path: Path, timeout: float) -> None:
    try:
        conn = read_only(path, timeout)
    except sqlite3.Error as exc:
        raise (opening_error(path, exc) or exc) from exc
    try:
        problems = _problems(conn.execute("PRAGMA quick_check(3)").fetchall())
        if problems:
            raise BadDatabase(f"{path} is damaged (quick_check: {problems}): {WHAT_TO_DO}")
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = conn.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0]
        if version == 0 and tables:
            # Fieldpost's first migration sets user_version in the transaction that makes its tables.
            raise BadDatabase(
                f"{path} is an SQLite database of another program (it has tables but no Fieldpost "
                "schema version): set FIELDPOST_DB (or --db) to another file"
            )
    except sqlite3.Error as exc:
        raise (opening_error(path, exc) or exc) from exc
    finally:
        conn.close()


def backup(source: Path, target: Path, *, force: bool = False, timeout: float = 5.0) -> int:
    """Copy the database at `source` to `target` with SQLite's online backup API and return the
    copy's size in bytes. Safe while the bot writes: the copy is one consistent moment (WAL
    readers do not block the writer). The copy is written beside `target` under a temporary
    name, must pass `PRAGMA integrity_check`, and only then takes `target`'s name; an existing
    `target` is refused unless `force`."""
    if not source.is_file():
        raise StoreError(f"there is no database at {source}: set FIELDPOST_DB or give --db")
    if target.exists() and not force:
        raise StoreError(f"{target} already exists: choose another name, or give --force to overwrite it")
    if target.exists() and target.resolve() == source.resolve():
        raise StoreError(f"{target} is the live database itself: choose another name")
    partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
    try:
        copy_into(source, partial, timeout)
        if force:
            os.replace(partial, target)
        else:
            os.link(partial, target)  # fails if someone made `target` meanwhile: never overwrite
        _sync_directory(target.parent)
    except FileExistsError as exc:
        raise StoreError(f"{target} already exists: choose another name, or give --force to overwrite it") from exc
    except OSError as exc:
        raise StoreError(f"cannot write {target}: {exc.strerror or exc}") from exc
    finally:
        partial.unlink(missing_ok=True)
    return target.stat().st_size


def copy_into(source: Path, partial: Path, timeout: float) -> None:
    """The online backup of `source` into the new file `partial`, checked whole."""
    try:
        src = read_only(source, timeout)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open {source}: {exc}") from exc
    try:
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst)  # every page in one step, so a concurrent write cannot restart it
            problems = _problems(dst.execute("PRAGMA integrity_check(3)").fetchall())
            if problems:
                raise StoreError(f"the copy of {source} fails integrity_check ({problems}): "
                                 "the live database may be damaged; nothing was written")
        finally:
            dst.close()
    except sqlite3.Error as exc:
        raise StoreError(f"cannot copy {source}: {describe(source, exc)}") from exc
    finally:
        src.close()


def _sync_directory(directory: Path) -> None:
    """Make the new name durable, not only the bytes (POSIX; a no-op where directories cannot be opened)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
