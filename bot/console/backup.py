"""`fieldpost backup PATH`: copy the games database to PATH, safely while the bot runs.

The copy is made with SQLite's online backup API from the live file (FIELDPOST_DB, or --db),
checked with `PRAGMA integrity_check`, and only then given its name. To restore: stop the
bot, put the copy in place of the database file, start the bot (docs/store.md, Backups).
A PostgreSQL database is backed up with PostgreSQL's own pg_dump (docs/store.md, PostgreSQL).
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from bot.store import StoreError
from bot.store.database_file import backup
from bot.store.database_url import is_postgres, safe_url, sqlite_path


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser("backup", help="copy the games database to PATH (safe while the bot runs)",
                                   description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("path", type=Path, help="the file to write the copy to")
    parser.add_argument("--db", help="the database to copy (default: FIELDPOST_DB, else ./fieldpost.db)")
    parser.add_argument("--force", action="store_true", help="overwrite PATH if it exists")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    url = args.db or os.environ.get("FIELDPOST_DB") or "fieldpost.db"
    if is_postgres(url):
        print(f"fieldpost backup: {safe_url(url)} is a PostgreSQL database; fieldpost backup copies SQLite "
              "files: back it up with pg_dump, e.g. pg_dump -Fc -f fieldpost.dump DATABASE_URL "
              "(docs/store.md, PostgreSQL)", file=sys.stderr)
        return 1
    try:
        source = sqlite_path(url)
        size = backup(source, args.path, force=args.force)
    except StoreError as exc:
        print(f"fieldpost backup: {exc}", file=sys.stderr)
        return 1
    print(f"fieldpost backup: wrote {args.path} ({size:,} bytes), a copy of {source} that passes integrity_check")
    return 0
