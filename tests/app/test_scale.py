"""Several bot processes, one database (issue 15): real subprocesses (tests/app/scale_child.py),
each with its own `GameService`, cache, per-game locks and deadline loop.

- Playing together: random legal commands on random games for a fixed time while deadlines run
  out (3.6 s each, 36 s at full size, set in the store: players may not choose deadlines that
  short) and every process ticks. Counted afterwards: lost updates (an acknowledged command
  that is not the stored log's command at that version), duplicate applications (a player's
  command in a log that no process acknowledged, a deadline default or a reminder that no
  claimed deadline row accounts for, a deadline row handed out twice), stalled decisions (a
  deadline long due and not carried out, an awaited decision without a deadline), and every
  game's log replays to its stored state.
- Restarting together: every process resumes at once over the same waiting games; each awaited
  player gets exactly one prompt, and the prompts go out no faster than the rate, all
  processes together. A second restart without a change asks nobody again.

The default run is small (tens of seconds in all); `FIELDPOST_SCALE=full` runs the sizes of
issue 15 (500 games played for two minutes; 1,000 waiting games at the default 20 prompts/s).
The deadlines are as short as the machine can carry out for that many games: each process
carries its due deadlines out one after the other, and on a shared 2-core machine a PostgreSQL
commit takes several milliseconds, so 500 games on 3.6 s deadlines would outrun it.
"""
from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.app import GameService, Where, eventlog
from bot.store import GameStatus, open_store
from engine import apply, awaiting
from tests.app.table import ANN, BO

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
FULL = os.environ.get("FIELDPOST_SCALE") == "full"
PLAYED_GAMES, PLAY_SECONDS, DEADLINE_HOURS = (500, 120.0, 0.01) if FULL else (40, 8.0, 0.001)
WAITING_GAMES, RESUME_RATE = (1000, 20.0) if FULL else (150, 100.0)
STARTUP_S = 60.0  # allowed for the children's imports, catalogue and store (they begin together when all are ready)
OVERDUE_S = 5.0  # a deadline due this long before the end and not carried out is stalled


async def new_tables(url: str, cat, count: int) -> list[int]:
    """`count` started games of the fixture's yard whose decisions run out in 3.6 s."""
    seeds = iter(range(1, 10**6))
    async with open_store(url) as store:
        service = GameService(store, cat, seed=lambda: next(seeds))
        ids = []
        for n in range(count):
            created = await service.new_game(ANN, Where(channel_id=10_000 + n), "yard", side="US",
                                             deadline_hours=0.05)
            gid = created.game_id
            for key in ("deadline_hours", "window_hours"):
                await store.set_setting(f"game:{gid}", key, DEADLINE_HOURS)
            await service.join(BO, Where(game_id=gid), "DE")
            await service.start(ANN, Where(game_id=gid))
            ids.append(gid)
    return ids


async def children(runs: list[list[str]], timeout: float) -> list[dict]:
    """Run each argument list as a scale_child process at once; when every one is ready, tell
    them all to begin now; every other JSON line they printed."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    pipe = asyncio.subprocess.PIPE
    procs = [await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.app.scale_child", *run, cwd=ROOT, env=env,
        stdin=pipe, stdout=pipe, stderr=pipe) for run in runs]

    async def ready(proc) -> None:
        line = await proc.stdout.readline()  # empty if it died starting: its error is told below
        assert not line or json.loads(line) == {"ready": True}, line

    async def run_all() -> list[tuple[bytes, bytes]]:
        await asyncio.gather(*(ready(p) for p in procs))
        go = f"{time.time()}\n".encode()
        return await asyncio.gather(*(p.communicate(go) for p in procs))

    outs = await asyncio.wait_for(run_all(), timeout)
    for proc, (_, err) in zip(procs, outs, strict=True):
        assert proc.returncode == 0, err.decode()[-3000:]
    return [json.loads(line) for out, _ in outs for line in out.decode().splitlines()]


def commands(cat, logged: list[eventlog.Logged]) -> list[tuple[int, dict, set[str]]]:
    """(version, envelope, the decision ids its seat was awaited for just before) for every
    command of a game's log; the version is the one its commit made."""
    out = []
    state = None
    bodies = [body for _, body in logged if body["type"] != "engine"]
    for version, body in enumerate(bodies):
        if body["type"] == "started":
            state = eventlog.replay(cat, [(0, body)])
        elif body["type"] == "command":
            out.append((version, body, {a.key for a in awaiting(state) if a.seat == body["seat"]}))
            state, _ = apply(state, eventlog.command_of(body))
    return out


def unclaimed_defaults(gid: int, played: list[tuple[int, dict, set[str]]], claims: Counter) -> list[str]:
    """The deadline defaults of a game's log that no claimed deadline row accounts for: each
    default must answer a decision its seat was awaited for, whose `expire` row this or another
    process was handed, and each row handed out answers at most one default. (A decision may
    come back under the same id after an interruption, a Hit+ say, and then gets a new row.)"""
    rows = Counter({key: n for (g, key, _, _), n in claims.items() if g == gid and key.startswith("expire:")})
    out = []
    for version, body, before in played:
        if body["by"] != "deadline":
            continue
        row = next((f"expire:{body['seat']}:{k}" for k in sorted(before)
                    if rows[f"expire:{body['seat']}:{k}"] > 0), None)
        if row is None:
            out.append(f"game {gid}: the default at version {version} answers no claimed deadline row")
        else:
            rows[row] -= 1
    return out


@pytest.mark.parametrize(("store_kind", "processes"), [
    ("sqlite", 2),
    pytest.param("postgres", 2, marks=pytest.mark.postgres),
    pytest.param("postgres", 4, marks=pytest.mark.postgres),
], indirect=["store_kind"])
async def test_processes_playing_together_lose_nothing_and_do_nothing_twice(store_url, cat, processes):
    games = await new_tables(store_url, cat, PLAYED_GAMES)
    records = await children(
        [["play", store_url, str(PLAY_SECONDS), str(seed), *map(str, games)]
         for seed in range(processes)], timeout=STARTUP_S + PLAY_SECONDS + 300)
    end = datetime.fromtimestamp(min(r["stop"] for r in records if "stop" in r), UTC)  # the first to stop

    acks = [r["ack"] for r in records if "ack" in r]
    claims = Counter(tuple(r["claimed"]) for r in records if "claimed" in r)
    reminders = Counter(tuple(r["reminder"]) for r in records if "reminder" in r)
    tally = sum((Counter(r["tally"]) for r in records if "tally" in r), Counter())
    twice = [f"deadline row {row} handed out {n} times" for row, n in claims.items() if n > 1]
    defaults = 0
    async with open_store(store_url) as store:
        service = GameService(store, cat)
        applied = set()  # (game, version) of every player's command in the logs
        envelopes = {}
        for gid in games:
            logged = eventlog.read(await store.events_since(gid))
            game = await store.load_game(gid)
            envelopes[gid] = [body for _, body in logged if body["type"] != "engine"]
            # one envelope per commit, and two in the first: "created", and "joined" for the organiser
            assert len(envelopes[gid]) == game.version + 1
            assert eventlog.replay(cat, logged) == await service.load_state(gid), f"game {gid} replays"
            played = commands(cat, logged)
            applied |= {(gid, version) for version, body, _ in played if body["by"] == "player"}
            defaults += sum(body["by"] == "deadline" for _, body, _ in played)
            twice += unclaimed_defaults(gid, played, claims)
            remind_rows = Counter(int(key.split(":")[1]) for g, key, _, _ in claims
                                  if g == gid and key.startswith("remind:"))
            twice += [f"game {gid}: seat {seat} reminded {n} times for {remind_rows[seat]} reminder rows"
                      for (g, seat), n in reminders.items() if g == gid and n > remind_rows[seat]]
        lost = 0
        for gid, version, seat, line in acks:
            body = envelopes[gid][version]  # the envelope of the commit that made `version`
            if not (body["type"] == "command" and body["by"] == "player" and body["seat"] == seat
                    and str(eventlog.command_of(body)) == line):
                lost += 1
        # a player's command applied that no process acknowledged: applied twice, or behind a caller's back
        twice += [f"game {gid}: the command at version {v} was applied unacknowledged"
                  for gid, v in sorted(applied - {(gid, v) for gid, v, _, _ in acks})]
        duplicated = len(twice)
        overdue = len(await store.due_deadlines(end - timedelta(seconds=OVERDUE_S)))
        undated = 0
        for gid in games:
            state = await service.load_state(gid)
            dated = {d.key for d in await store.deadlines(gid) if not d.reminded}
            undated += sum(f"expire:{a.seat}:{a.key}" not in dated for a in awaiting(state)
                           if state.step != "over")
        stalled = overdue + undated
        unmoved = [gid for gid in games if (await store.load_game(gid)).status == GameStatus.ACTIVE
                   and len(envelopes[gid]) <= 4]  # created, joined, joined, started: nothing since
    print(f"\n{processes} processes on {store_url.split(':')[0]}: {len(games)} games, {len(acks)} commands "
          f"acknowledged, {defaults} deadline defaults, {sum(reminders.values())} reminders, "
          f"{sum(claims.values())} deadline rows claimed; refused {tally['refused']}, already done "
          f"{tally['already']}; lost {lost}, duplicated {duplicated}, stalled {stalled} ({overdue} deadlines "
          f"overdue by {OVERDUE_S:g} s, {undated} decisions without one)")
    assert acks and defaults, "the run played commands and ran deadlines out"
    assert (lost, duplicated, stalled) == (0, 0, 0), twice
    assert not unmoved, f"games nothing happened in: {unmoved}"


async def waiting_games(url: str, cat, count: int) -> dict[int, set[int]]:
    """`count` active games each waiting for both players (one started through the use-cases,
    the rest stored copies of it); the seats each game waits for, by game."""
    async with open_store(url) as store:
        service = GameService(store, cat, seed=lambda: 5)
        created = await service.new_game(ANN, Where(channel_id=20_000), "yard", side="US")
        await service.join(BO, Where(game_id=created.game_id), "DE")
        await service.start(ANN, Where(game_id=created.game_id))
        first = await store.load_game(created.game_id)
        seats = {a.seat for a in awaiting(await service.load_state(first.id))}
        out = {first.id: seats}
        for n in range(1, count):
            copy = await store.create_game(guild_id=1, channel_id=20_000 + n, scenario_id="yard",
                                           organiser_id=ANN.user_id, state=first.state, seats=first.seats,
                                           status=GameStatus.ACTIVE)
            out[copy.id] = seats
    return out


@pytest.mark.parametrize(("store_kind", "processes"), [
    ("sqlite", 2),
    pytest.param("postgres", 4, marks=pytest.mark.postgres),
], indirect=["store_kind"])
async def test_processes_restarting_together_ask_each_awaited_player_once_within_the_rate(
        store_url, cat, processes):
    expected = await waiting_games(store_url, cat, WAITING_GAMES)
    runs = [["resume", store_url, str(RESUME_RATE)]] * processes
    budget = STARTUP_S + 2 * sum(map(len, expected.values())) / RESUME_RATE + 120
    records = [r for r in await children(runs, budget) if "resumed" in r]

    asked = Counter((r["resumed"], seat) for r in records for seat, _, _ in r["prompts"])
    awaited = {(gid, seat) for gid, seats in expected.items() for seat in seats}
    twice, unasked = sum(n - 1 for n in asked.values()), len(awaited - set(asked))
    sent = 0
    first = min(r["at"] for r in records)
    burst = RESUME_RATE * 0.25 + 4  # the first game's own delay, prints racing across processes
    for r in sorted(records, key=lambda r: r["at"]):
        assert sent <= RESUME_RATE * (r["at"] - first) + burst, "faster than the rate"
        sent += len(r["prompts"])
    print(f"\n{processes} processes restarting on {store_url.split(':')[0]}: {len(expected)} games, {sent} prompts "
          f"in {max(r['at'] for r in records) - first:.1f} s (rate {RESUME_RATE:g}/s), "
          f"{twice} asked twice, {unasked} not asked")
    assert set(asked) == awaited and (twice, unasked) == (0, 0), "one prompt per awaited player"

    again = await children([["resume", store_url, str(RESUME_RATE)]] * processes, STARTUP_S + 120)
    assert [r for r in again if "resumed" in r] == [], "a restart without a change asks nobody again"
