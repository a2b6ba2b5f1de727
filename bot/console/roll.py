"""`fieldpost roll <check> [options] [--seed N] [--json]`: one rule roll or table look-up.

The options of every check come from the registry in `engine.rolls`, so a check added there
appears here with no code. Bad input prints one line (a JSON object with `--json`) and exits 2.
"""
from __future__ import annotations

import argparse
import json
import re
import secrets
import sys
from typing import NoReturn

from engine import rolls

_NEGATIVE = re.compile(r"^-\d")


class RollArgumentParser(argparse.ArgumentParser):
    """argparse with one-line errors, JSON when --json was asked for, and exit status 2."""

    # Set on every parse: the roll parser and its check parsers see the same arguments.
    as_json = False

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.accepts: dict[str, str] = {}  # option -> what it accepts, for error messages

    def parse_known_args(self, args=None, namespace=None):  # type: ignore[override]
        args = list(sys.argv[1:] if args is None else args)
        RollArgumentParser.as_json = "--json" in args
        args = _join_negative_values(self, args)
        parsed, extras = super().parse_known_args(args, namespace)
        if extras:
            valid = ", ".join(s for a in self._actions for s in a.option_strings if s.startswith("--"))
            self.error(f"unrecognised argument {extras[0]!r} (valid: {valid})")
        return parsed, extras

    def error(self, message: str) -> NoReturn:
        missing_value = re.search(r"argument (--[\w-]+): expected one argument", message)
        if missing_value and missing_value.group(1) in self.accepts:
            message += f" ({self.accepts[missing_value.group(1)]})"
        elif "required: <check>" in message:
            message += " (choose from " + ", ".join(c.name for c in rolls.all_checks()) + ")"
        _fail(f"{self.prog}: {message}", RollArgumentParser.as_json)


def _fail(message: str, as_json: bool) -> NoReturn:
    message = " ".join(message.split())
    if as_json:
        print(json.dumps({"error": message}))
    else:
        print(f"error: {message}", file=sys.stderr)
    raise SystemExit(2)


def _join_negative_values(parser: argparse.ArgumentParser, args: list[str]) -> list[str]:
    """Let `--mods -1,-2` through: argparse would read `-1,-2` as an option, so glue it on with `=`."""
    takes_value = {
        s for a in parser._actions if a.nargs is None and a.option_strings for s in a.option_strings
    }
    out: list[str] = []
    i = 0
    while i < len(args):
        token = args[i]
        if token in takes_value and i + 1 < len(args) and _NEGATIVE.match(args[i + 1]):
            out.append(f"{token}={args[i + 1]}")
            i += 2
            continue
        out.append(token)
        i += 1
    return out


def _option_help(param: rolls.Param) -> str:
    text = param.help
    if param.kind == "choice":
        text += " (" + ", ".join(f"{c}: {param.labels[c]}" if c in param.labels else c for c in param.choices) + ")"
    elif param.kind in ("int", "ints"):
        text += f" ({param.span()})" if param.span() else ""
    if param.die:
        text += " [rolled if left out]"
    if param.required:
        text += " [required]"
    elif param.default not in (None, False):
        text += f" [default {param.default}]"
    return text


def _listing() -> str:
    lines = ["checks by rulebook:"]
    for system in rolls.systems():
        checks = rolls.checks_for(system.key)
        if not checks:
            continue
        lines.append(f"\n  {system.title} ({system.key})")
        lines += [f"    {c.name:<22} {c.help}" for c in checks]
    lines.append("\nfieldpost roll <check> --help shows a check's options.")
    return "\n".join(lines)


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "roll",
        help="one-command rule rolls and table look-ups",
        description="Roll one rule check or look up one table, showing the working.",
        epilog=_listing(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    # The top-level parser picks the class of its sub-parsers; ours reports errors in one line.
    parser.__class__ = RollArgumentParser
    parser.accepts = {}
    checks = parser.add_subparsers(dest="check", metavar="<check>", parser_class=RollArgumentParser)
    checks.required = True
    for chk in rolls.all_checks():
        sub = checks.add_parser(chk.name, description=chk.help)
        sub.accepts = {p.flag: p.valid_values() for p in chk.params}
        for param in chk.params:
            if param.kind == "bool":
                sub.add_argument(param.flag, dest=param.name, action="store_true", help=_option_help(param))
            else:
                metavar = {"choice": "{" + ",".join(param.choices) + "}", "int": "N"}.get(param.kind, "N,N")
                sub.add_argument(param.flag, dest=param.name, metavar=metavar, help=_option_help(param))
        sub.add_argument("--seed", type=str, help="seed for the dice (default: a fresh random one)")
        sub.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    as_json = bool(getattr(args, "json", False))
    chk = rolls.get(args.check)
    raw = {p.name: getattr(args, p.name) for p in chk.params}
    # argparse gives False for an absent flag; the registry treats absent as "use the default".
    raw = {k: (None if v is False else v) for k, v in raw.items()}
    if args.seed is None:
        seed = secrets.randbits(64)
    elif re.fullmatch(r"\d{1,20}", args.seed.strip()):
        seed = int(args.seed)
    else:
        _fail(f"--seed must be a whole number of 0 or more (got {args.seed!r})", as_json)
    try:
        result = rolls.roll(chk.name, raw, seed)
    except rolls.RollError as exc:
        _fail(str(exc), as_json)
    if as_json:
        print(json.dumps(result.data, sort_keys=False))
    else:
        print(_plain(result))
    return 0


def _plain(result: rolls.RollResult) -> str:
    """Terminal rendering: the Discord markdown emphasis dropped, the seed shown for replays."""
    lines = [result.title, *("  " + line for line in result.lines), f"  (seed {result.data['seed']})"]
    return "\n".join(line.replace("**", "") for line in lines)
