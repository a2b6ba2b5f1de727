"""Fuzz the command edge: hostile lines and hostile command models thrown at the engine (and,
with --usecases, at GameService on a real SQLite file) at every decision of random games on
every shipped scenario. Counts every exception that is not a refusal, by kind and place.

    .venv/bin/python tests/benchmarks/fuzz_commands.py --commands 100000
    .venv/bin/python tests/benchmarks/fuzz_commands.py --usecases --commands 20000

A refusal (RuleError in the engine, Refused in the use-cases) must leave the state as it was
(the engine: the state's JSON; the use-cases: the stored version and event count). An accepted
hostile command must leave a state that serialises and still lists its legal commands. Exit
status 1 when anything else happened. See docs/script.md, "What the engine refuses".
"""
from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine import apply, load_catalog, new_game
from engine.agent import RandomAgent
from engine.core.errors import RuleError
from engine.legal import awaiting, legal_commands
from engine.script import parse_line
from engine.turn.setup import SeatSpec
from engine.view import view
from tests.hostile_input import hostile_line, hostile_model

ROOT = str(Path(__file__).resolve().parents[2])


class Tally:
    """Exceptions that are not refusals, by (kind, where raised), with the first example."""

    def __init__(self, outcomes=None) -> None:
        self.outcomes = outcomes  # a file: one line per engine command, to compare two trees with diff
        self.kinds: Counter = Counter()
        self.example: dict[tuple[str, str], str] = {}
        self.commands = 0
        self.refused = 0
        self.accepted = 0

    def bad(self, kind: str, exc: BaseException | None, what: str) -> None:
        place = "-"
        if exc is not None:
            frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename.startswith(ROOT)
                      and "/tests/" not in f.filename]
            if frames:
                f = frames[-1]
                place = f"{f.filename[len(ROOT) + 1:]}:{f.lineno} {f.name}"
            kind = f"{kind} {type(exc).__name__}"
        key = (kind, place)
        self.kinds[key] += 1
        if key not in self.example:
            msg = str(exc)[:160] if exc is not None else ""
            self.example[key] = f"{what[:160]!r} -> {msg!r}"

    def note(self, source: str, outcome: str, what: str, message: str = "") -> None:
        if self.outcomes is not None:
            self.outcomes.write(f"{self.commands}\t{source}\t{outcome}\t{what[:200]!r}\t{message[:200]!r}\n")

    def report(self, seconds: float) -> int:
        print(f"\n{self.commands} commands in {seconds:.0f} s: {self.refused} refused, {self.accepted} accepted, "
              f"{sum(self.kinds.values())} failures of {len(self.kinds)} kinds")
        for (kind, place), n in self.kinds.most_common():
            print(f"{n:>7}  {kind}  at {place}\n         e.g. {self.example[(kind, place)]}")
        return 1 if self.kinds else 0


def _described(template: str, thing: object) -> str:
    try:
        return template.format(thing)
    except ValueError:  # a number of more digits than Python will print
        return template.format(f"<{type(thing).__name__} holding a number too long to print>")


def _engine_one(tally: Tally, rng: random.Random, st, seat: int, legal) -> None:
    before = st.model_dump_json()
    if rng.random() < 0.7 or not legal:
        line = hostile_line(rng, st, [str(c) for c in legal])
        what, source = line, "line"

        def make():
            return parse_line(st, line, seat)
    else:
        built, data = hostile_model(rng, st, legal)
        validate = rng.random() < 0.5
        what = _described(f"{type(built).__name__} {{!r}}", data) if validate else _described("{!r}", built)
        source = "model" if validate else "unvalidated model"

        def make():
            return type(built).model_validate(data) if validate else built
    tally.commands += 1
    try:
        after, _ = apply(st, make())
    except RuleError as exc:
        tally.refused += 1
        tally.note(source, "refused", what, str(exc))
        if st.model_dump_json() != before:
            tally.bad(f"{source}: state changed on refusal", None, what)
        return
    except Exception as exc:  # noqa: BLE001 - every kind is counted and shown
        tally.note(source, "failed", what, type(exc).__name__)
        tally.bad(f"{source}: raised", exc, what)
        return
    tally.accepted += 1
    tally.note(source, "accepted", what)
    try:
        after.model_dump_json()
        for a in awaiting(after):
            legal_commands(after, a.seat)
        view(after, seat)
    except Exception as exc:  # noqa: BLE001
        tally.bad(f"{source}: broken state after", exc, what)


def fuzz_engine(commands: int, per_step: int, seed: int, outcomes=None) -> Tally:
    cat = load_catalog()
    scenarios = sorted(cat.scenarios)
    rng = random.Random(seed)
    tally = Tally(outcomes)
    game = 0
    while tally.commands < commands:
        sc = scenarios[game % len(scenarios)]
        sides = [s.id.value for s in cat.scenario(sc).sides]
        players = 2 + (game // len(scenarios)) % 3
        st, _ = new_game(cat, sc, [SeatSpec(name=f"P{i}", side=sides[i % 2]) for i in range(players)], seed + game)
        agent = RandomAgent(seed + game)
        game += 1
        steps = 0
        while st.step != "over" and steps < 3000 and tally.commands < commands:
            seat = agent.seat_to_act(st)
            legal = legal_commands(st, seat)
            for _ in range(per_step):
                who = seat if rng.random() < 0.85 else rng.randrange(len(st.seats))
                _engine_one(tally, rng, st, who, legal if who == seat else legal_commands(st, who))
            st, _ = apply(st, agent.choose(st, seat))
            steps += 1
        print(f"game {game} {sc} players={players}: {steps} steps, {tally.commands} commands so far", flush=True)
    return tally


SUGGEST = ["field:", "field:x", "field:a:b:c", "field::", ":", "game", "soldier", "target", "nothing", "\ud800",
           "field:call:kind", "post"]


async def fuzz_usecases(commands: int, per_step: int, seed: int) -> Tally:
    from bot.app import Caller, GameService, Refused, Where
    from bot.store import SqliteStore
    from tests.hostile_input import FIXED_WORDS
    cat = load_catalog()
    scenarios = sorted(cat.scenarios)
    rng = random.Random(seed)
    tally = Tally()
    with tempfile.TemporaryDirectory() as tmp:
        async with SqliteStore(Path(tmp) / "fuzz.db") as store:
            service = GameService(store, cat, seed=lambda: seed)
            game = 0
            while tally.commands < commands:
                sc = scenarios[game % len(scenarios)]
                sides = [s.id.value for s in cat.scenario(sc).sides]
                callers = [Caller(1000 * game + i + 1, f"P{i}") for i in range(2)]
                here = Where(channel_id=10_000 + game)
                game += 1
                created = await service.new_game(callers[0], here, sc, side=sides[0])
                where = Where(channel_id=here.channel_id, game_id=created.game_id)
                await service.join(callers[1], where, sides[1])
                for _ in range(per_step):  # forces as typed into /game forces
                    tally.commands += 1
                    force = " ".join(rng.choice(FIXED_WORDS) for _ in range(rng.randrange(1, 4)))
                    try:
                        await service.choose_force(callers[1], where, force)
                    except Refused:
                        tally.refused += 1
                    except Exception as exc:  # noqa: BLE001
                        tally.bad("choose_force", exc, force)
                await service.choose_force(callers[1], where, None)
                await service.start(callers[0], where)
                gid = created.game_id
                steps = 0
                while tally.commands < commands and steps < 400:
                    waits = await service.waiting(callers[0], where)
                    if not waits:
                        break
                    caller = next(c for c in callers if c.user_id == waits[0].user_id)
                    state = await service.load_state(gid)
                    legal = await service.options(caller, where)
                    for _ in range(per_step):
                        await _usecase_one(tally, rng, service, store, gid, state, caller, where, legal)
                    what = rng.choice(SUGGEST)
                    try:
                        await service.suggest(caller, where, what, rng.choice(FIXED_WORDS))
                    except Exception as exc:  # noqa: BLE001
                        tally.bad("suggest", exc, what)
                    waits = await service.waiting(callers[0], where)  # a hostile command may have been legal
                    if not waits:
                        break
                    caller = next(c for c in callers if c.user_id == waits[0].user_id)
                    await service.command(caller, where, rng.choice(await service.options(caller, where)))
                    steps += 1
                print(f"game {game} {sc}: {steps} steps, {tally.commands} commands so far", flush=True)
    return tally


async def _usecase_one(tally: Tally, rng: random.Random, service, store, gid: int, state, caller, where,
                       legal: list[str]) -> None:
    from bot.app import Refused
    from bot.store import StoreUnavailable
    line = hostile_line(rng, state, legal)
    before = (await store.load_game(gid)).version, len(await store.events_since(gid))
    tally.commands += 1
    try:
        await service.command(caller, where, line)
    except (Refused, StoreUnavailable):
        tally.refused += 1
        if ((await store.load_game(gid)).version, len(await store.events_since(gid))) != before:
            tally.bad("store changed on refusal", None, line)
        return
    except Exception as exc:  # noqa: BLE001
        tally.bad("raised", exc, line)
        return
    tally.accepted += 1
    try:
        await service.options(caller, where)
    except Exception as exc:  # noqa: BLE001
        tally.bad("broken game after", exc, line)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--commands", type=int, default=100_000)
    ap.add_argument("--per-step", type=int, default=12, help="hostile commands at each decision")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--usecases", action="store_true", help="through GameService and SQLite instead of apply")
    ap.add_argument("--outcomes", type=Path, help="the engine: write each command's outcome here (diff two trees)")
    args = ap.parse_args()
    t0 = time.perf_counter()
    if args.usecases:
        tally = asyncio.run(fuzz_usecases(args.commands, args.per_step, args.seed))
    elif args.outcomes:
        with args.outcomes.open("w", encoding="utf-8") as outcomes:
            tally = fuzz_engine(args.commands, args.per_step, args.seed, outcomes)
    else:
        tally = fuzz_engine(args.commands, args.per_step, args.seed)
    return tally.report(time.perf_counter() - t0)


if __name__ == "__main__":
    raise SystemExit(main())
