"""`fieldpost replay FILE`: rebuild a game from its record and print it, command by command."""
from __future__ import annotations

import sys
from pathlib import Path

from engine import RuleError, load_catalog
from engine.core.errors import ContentError
from engine.record import load_record


def add_parser(sub) -> None:
    p = sub.add_parser("replay", help="rebuild a game from its record (fieldpost play --record) and print it")
    p.add_argument("file", type=Path)
    p.add_argument("--private", action="store_true", help="print every player's private events too")
    p.add_argument("--state-out", type=Path, help="write the rebuilt final state as JSON here")
    p.set_defaults(run=run)


def run(args) -> int:
    try:
        rec = load_record(args.file)
        cat = load_catalog()
        st = None
        names: dict[int, str] = {}
        for cmd, st, events in rec.replay(cat):
            names = {s.index: s.name for s in st.seats}
            if cmd is not None:
                print(f"> {names[cmd.seat]}: {cmd}")
            for e in events:
                if e.to is None:
                    print(e.text)
                elif args.private:
                    print(f"  [to {names[e.to]}] {e.text}")
    except (ContentError, RuleError) as exc:
        print(f"fieldpost replay: {exc}", file=sys.stderr)
        return 2
    if args.state_out and st is not None:
        args.state_out.write_text(st.model_dump_json(indent=1), encoding="utf-8")
    return 0
