"""How a `fieldpost` subcommand ends when something goes wrong: one line on stderr saying what
and what to check, never a traceback (docs/console.md, Exit codes).

    0    done
    1    a runtime failure: a broken content or input file, a database, the network, a refusal
    2    a usage error: an unknown scenario, a bad option value (argparse's own errors too)
    130  stopped with Ctrl-C

A subcommand raises `BadUsage` for what the user typed wrong; everything else it lets through
to `guarded`, which words it. An error nobody foresaw is a bug: its traceback goes to a file
whose name the one line gives, so a user can send it in.
"""
from __future__ import annotations

import atexit
import json
import os
import signal
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import ValidationError

if TYPE_CHECKING:
    import yaml

USAGE = 2
FAILURE = 1
INTERRUPTED = 130


class BadUsage(Exception):
    """The command line asks for something that is not there (an unknown scenario, a file
    that is no position): exit 2 with this message."""


def guarded(prog: str, run: Callable[[], int | None]) -> int:
    """Run a subcommand; any failure becomes one line on stderr and its exit code."""
    try:
        return int(run() or 0)
    except KeyboardInterrupt:
        print("\nStopped (Ctrl-C).", file=sys.stderr)
        return INTERRUPTED
    except BadUsage as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return USAGE
    except Exception as exc:  # noqa: BLE001 - the one place every failure is worded for a user
        print(f"{prog}: {describe(exc, online=prog.endswith(' bot'))}", file=sys.stderr)
        return FAILURE


def end_process(code: int) -> int:
    """End the `fieldpost` program at once with `code`, skipping the interpreter's teardown, which
    frees every object the run made one by one: some 30 ms of CPU and more of wall time at the
    end of a 0.5 s `fieldpost play` (docs/architecture.md, A quick start). What an exit owes is
    done first: the at-exit handlers run (logging's flush, temporary folders' removal) and
    standard output and error are flushed. Only when no other thread is alive (Python would wait
    for it); otherwise, or when the output cannot be flushed (a closed pipe, for Python's own
    exit to report), it returns `code` for the ordinary exit."""
    if threading.active_count() > 1:
        return code
    atexit._run_exitfuncs()
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):
        return code
    os._exit(code)


def describe(exc: BaseException, *, online: bool = False) -> str:
    """One line for a failure: what happened, and where to look (`online`: the subcommand talks
    to Discord, so a connection that fails is Discord's)."""
    from bot.app.errors import Refused
    from bot.store import StoreError, StoreUnavailable
    from engine.core.errors import ContentError, RuleError

    if isinstance(exc, StoreUnavailable):
        return exc.reason
    if isinstance(exc, (ContentError, RuleError, Refused, StoreError)):
        return str(exc)
    yaml = sys.modules.get("yaml")  # a run that never imported PyYAML raised none of its errors
    if yaml is not None and isinstance(exc, yaml.YAMLError):
        return yaml_problem(exc)
    if isinstance(exc, json.JSONDecodeError):
        return f"not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
    if isinstance(exc, ValidationError):
        return "; ".join(f"{'.'.join(map(str, e['loc'])) or '(top)'}: {e['msg']}" for e in exc.errors())
    network = _network(exc, online)
    if network:
        return network
    if isinstance(exc, OSError):
        where = f"{exc.filename}: " if exc.filename else ""
        return f"{where}{exc.strerror or exc}"
    return _bug(exc)


def yaml_problem(exc: yaml.YAMLError, path: Path | str | None = None) -> str:
    """"FILE: line 4, column 7: could not find expected ':'" out of PyYAML's several lines."""
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    name = path or (mark.name if mark is not None and not mark.name.startswith("<") else None)
    where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
    problem = getattr(exc, "problem", None) or str(exc)
    return f"{f'{name}: ' if name else ''}not valid YAML: {where}{problem}"


def _network(exc: BaseException, online: bool) -> str | None:
    """Discord and the network, for `fieldpost bot`: what failed and what to check."""
    module = type(exc).__module__
    if module.startswith("discord"):
        name = type(exc).__name__
        if name == "LoginFailure":
            return ("Discord refused the token: copy DISCORD_TOKEN again from the Bot page of your application "
                    "(https://discord.com/developers/applications; Reset Token makes a new one).")
        if name == "PrivilegedIntentsRequired":
            return "Discord asks for a privileged intent this bot does not use: check the bot's version."
        return (f"Discord answered with an error ({exc}); check https://discordstatus.com and try again "
                "in a minute.")
    if module.startswith("aiohttp") or (online and isinstance(exc, (ConnectionError, TimeoutError))):
        return (f"cannot reach Discord ({exc}). Check this machine's network connection, its DNS, and any "
                "proxy or firewall between it and discord.com (HTTPS, port 443).")
    return None


def _bug(exc: BaseException) -> str:
    """An error nobody foresaw: its traceback into a file, and one line naming the file."""
    report = Path(tempfile.gettempdir()) / f"fieldpost-error-{time.strftime('%Y%m%d-%H%M%S')}.txt"
    try:
        report.write_text("".join(traceback.format_exception(exc)), encoding="utf-8")
        saved = f"; the details are in {report}"
    except OSError:
        saved = ""
    return f"unexpected error ({type(exc).__name__}: {exc}). This is a bug in Fieldpost{saved}."


@contextmanager
def ctrl_c_at_once() -> Iterator[None]:
    """Ctrl-C stops an interactive subcommand at once, even while it waits for a line.

    asyncio.run only cancels its task on the first Ctrl-C, which a blocking input() sees when
    Enter is pressed; with a handler of our own in place it leaves SIGINT alone, and the
    KeyboardInterrupt comes where the program is (`guarded` words it)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt
