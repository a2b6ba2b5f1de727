"""`fieldpost migrate-store FROM TO`: copy every game, setting and campaign from one database
into another, empty one — an SQLite file into PostgreSQL when one process is no longer enough.

FROM and TO are what FIELDPOST_DB takes: a file path, sqlite:///PATH or postgresql://….
Ids, versions, event logs, snapshots, deadlines and times are kept exactly; the target is
written in one transaction, so a failed copy leaves it empty. Stop the bot first, copy, then
start it with FIELDPOST_DB set to TO (README, "Running at scale").
"""
from __future__ import annotations

import argparse
import asyncio
import sys

from bot.store import StoreError, StoreUnavailable
from bot.store.database_url import safe_url
from bot.store.transfer import migrate_store


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser("migrate-store", help="copy every game and campaign into another, empty database",
                                   description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", metavar="FROM", help="the database to copy: a file, sqlite:///PATH or postgresql://…")
    parser.add_argument("target", metavar="TO", help="the empty database to fill (made and migrated if need be)")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    try:
        counts = asyncio.run(migrate_store(args.source, args.target))
    except StoreError as exc:  # a missing source, a non-empty target, a server not there: one line
        print(f"fieldpost migrate-store: {exc.reason if isinstance(exc, StoreUnavailable) else exc}", file=sys.stderr)
        return 1
    copied = ", ".join(f"{n:,} {table}" for table, n in counts.items())
    print(f"fieldpost migrate-store: copied {copied} from {safe_url(args.source)} to {safe_url(args.target)}")
    return 0
