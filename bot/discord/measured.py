"""The adapter, counted: every command and press is timed by use-case and counted as carried
out or, when not, by why (bot/metrics.py). The use-cases themselves know nothing of it.

    adapter = MeasuredAdapter(service, courier, errors)   # what FieldpostBot runs
"""
from __future__ import annotations

import time
from typing import Any

import discord

from bot import metrics
from bot.app import AlreadyDone, NotYours, OutOfDate, Refused, Replies
from bot.discord.adapter import Adapter, UseCase
from bot.store import StoreUnavailable


def use_case_name(what: str) -> str:
    """The metrics' label for what the adapter serves: "/game new" is "game new", "a choice
    button" is "choice button"."""
    return what.removeprefix("/").removeprefix("a ")


def refusal_kind(exc: Exception) -> str:
    """Why a use-case was not carried out, as counted (metrics.REFUSAL_KINDS)."""
    for kind, cls in (("not_yours", NotYours), ("out_of_date", OutOfDate), ("already_done", AlreadyDone),
                      ("refused", Refused), ("unavailable", StoreUnavailable)):
        if isinstance(exc, cls):
            return kind
    return "error"


def measured(call: UseCase, name: str) -> UseCase:
    """`call`, timed into the use-case histogram and counted by outcome; it raises what it raised."""
    async def counted(caller: Any, where: Any) -> Replies:
        started = time.perf_counter()
        try:
            replies = await call(caller, where)
        except Exception as exc:
            metrics.COMMANDS_REFUSED.labels(name, refusal_kind(exc)).inc()
            raise
        finally:
            metrics.USE_CASE_SECONDS.labels(name).observe(time.perf_counter() - started)
        metrics.COMMANDS_APPLIED.labels(name).inc()
        return replies
    return counted


class MeasuredAdapter(Adapter):
    async def _serve(self, interaction: discord.Interaction, call: UseCase, *, what: str,
                     **kw: Any) -> Replies | None:
        return await super()._serve(interaction, measured(call, use_case_name(what)), what=what, **kw)
