"""Fieldpost's Prometheus metrics, served at /metrics (bot/discord/health.py).

    from bot import metrics
    metrics.RENDER_SECONDS.labels("board").observe(0.04)

Only bot/discord and bot/render import this module: engine/ and bot/app stay free of
prometheus. What happens inside bot/app or bot/store (a deadline fired, a version conflict, a
retry) is counted through the plain callables at the end (`deadline_fired`, `store_conflict`,
`store_retry`), which those layers can be handed as hooks without importing anything from here.
Every process counts its own; Prometheus adds the processes up.
"""
from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

# Commands answer in tens of milliseconds and slow ones wait on the store's busy timeout (seconds).
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
REFUSAL_KINDS = ("refused", "not_yours", "out_of_date", "already_done", "unavailable", "error")
DEADLINE_KINDS = ("reminder", "default")

COMMANDS_APPLIED = Counter(
    "fieldpost_commands_applied", "Commands and presses carried out, by use-case", ["use_case"])
COMMANDS_REFUSED = Counter(
    "fieldpost_commands_refused",
    "Commands and presses not carried out, by use-case and why: refused (a rule or a wrong turn), "
    "not_yours, out_of_date, already_done (a repeat), unavailable (the store), error (a bug)",
    ["use_case", "kind"])
USE_CASE_SECONDS = Histogram(
    "fieldpost_use_case_seconds", "Time a use-case took, from the interaction to its replies, by use-case",
    ["use_case"], buckets=LATENCY_BUCKETS)

RENDER_SECONDS = Histogram(
    "fieldpost_render_seconds", "Time from asking for a picture to its encoded bytes (queue included), by kind",
    ["kind"], buckets=(0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0))
RENDER_FAILURES = Counter("fieldpost_render_failures", "Pictures that failed (the message went without)", ["kind"])
RENDER_LAYERS = Counter("fieldpost_render_layers", "Static picture layers taken from a cache (hit) or drawn (miss)",
                        ["cache"])
RENDER_POOLS_REPLACED = Counter("fieldpost_render_pools_replaced",
                                "Render worker pools started again after a worker died")

DEADLINES_FIRED = Counter("fieldpost_deadlines_fired", "Deadlines acted on: reminders sent and defaults applied",
                          ["kind"])
STORE_CONFLICTS = Counter("fieldpost_store_conflicts", "Commits that lost a version check to another writer")
STORE_RETRIES = Counter("fieldpost_store_retries", "Use-cases run again after a lost version check")

GAMES_ACTIVE = Gauge("fieldpost_games_active", "Games in the store by status, read at the last scrape",
                     ["status"])

for _kind in DEADLINE_KINDS:  # shown as 0 before the first one fires, so rates start from the beginning
    DEADLINES_FIRED.labels(_kind)


def deadline_fired(kind: str) -> None:
    """A hook: a deadline's `kind` ("reminder" or "default") was acted on."""
    DEADLINES_FIRED.labels(kind).inc()


def store_conflict() -> None:
    """A hook: a commit lost its version check."""
    STORE_CONFLICTS.inc()


def store_retry() -> None:
    """A hook: a use-case is run again after a lost version check."""
    STORE_RETRIES.inc()
