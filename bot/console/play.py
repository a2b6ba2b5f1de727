"""`fieldpost play`: a whole game in one terminal (hot-seat), or a script of commands.

The console is one more front end of the use-cases in bot/app, like the Discord adapter: the
game lives in a SQLite file (a temporary one unless `--db` names it, so a console game can
be stopped and resumed), every command goes through `GameService.command`, and what the
service hands back is printed: public lines for the table, private ones only to their player.

Hot-seat: whoever the game waits for is prompted in turn; before a player's secrets show
there is a "pass to <player>" pause. Script: every line is applied in order and the log is
printed. A `--position` starts a rules question from a written-down position with the
engine alone (positions are a tool for designers and bug reports, not a table game).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
from pathlib import Path

import yaml

from bot.app import Caller, GameService, Replies, Where, eventlog, prompts
from bot.app.errors import Refused
from bot.console import text
from bot.store import StoreError, StoreUnavailable, open_store
from engine import RuleError, load_catalog, view
from engine.core.commands import ADVANCED_GRAMMAR, BATTLEFIELD_GRAMMAR, GRAMMAR, NUMBER
from engine.core.errors import ContentError
from engine.position import load_position
from engine.record import Record, parse_command_json
from engine.script import ScriptError, parse_line, run_script
from engine.turn.setup import SeatSpec

DEFAULT_SCENARIO = "hedgerow-dawn"
TABLE = 1  # the console's one "channel"
OPTIONS = 60  # legal commands listed (and numbered) by `options`


def add_parser(sub) -> None:
    p = sub.add_parser("play", help="play a game in this terminal (hot-seat) or run a script of commands",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--scenario", help="scenario id (default: the bundled starter scenario)")
    p.add_argument("--seed", type=int, default=None, help="random seed (default: a fresh one)")
    p.add_argument("--players", default="US:US,Germany:DE",
                   help="comma-separated NAME:SIDE pairs, 2 to 4 (default 'US:US,Germany:DE')")
    p.add_argument("--position", type=Path, help="start from a position file (YAML or JSON, docs/position.md)")
    p.add_argument("--script", type=Path, help="run the commands in this file and print the log")
    p.add_argument("--db", help="keep the game in this database, an SQLite file or postgresql://… "
                   "(run again to resume it)")
    p.add_argument("--state-out", type=Path, help="write the final game state as JSON here")
    p.add_argument("--record", type=Path, help="write the game record (for fieldpost replay) here")
    p.add_argument("--images", type=Path,
                   help="write the board pictures (and vehicle panels) the game posts into this folder")
    p.add_argument("--private", action="store_true", help="script mode: print private messages too")
    p.set_defaults(run=run)


def _seats(spec: str) -> list[SeatSpec]:
    out = []
    for part in spec.split(","):
        name, _, side = part.strip().rpartition(":")
        if not name or side.upper() not in ("US", "DE"):
            raise ContentError(f"--players: write NAME:SIDE pairs with side US or DE, not {part!r}")
        out.append(SeatSpec(name=name, side=side.upper()))
    return out


def _read_position(path: Path) -> dict:
    raw = path.read_text(encoding="utf-8")
    data = json.loads(raw) if path.suffix == ".json" else yaml.safe_load(raw)
    if not isinstance(data, dict):
        raise ContentError(f"{path}: a position is a mapping (docs/position.md)")
    return data


def run(args) -> int:
    try:
        if args.position:
            return _position(args)
        return asyncio.run(_table(args))
    except (ContentError, RuleError) as exc:
        print(f"fieldpost play: {exc}", file=sys.stderr)
        return 2
    except StoreError as exc:  # a bad --db file, a newer schema, a full disk: one line, no traceback
        print(f"fieldpost play: {exc.reason if isinstance(exc, StoreUnavailable) else exc}", file=sys.stderr)
        return 1


# ------------------------------------------------------------------------------ the table


SLASH = (("/game undo", "undo"), ("/act ", ""),
         (f"/vehicle {prompts.VEHICLE_ACTIONS}", prompts.SCRIPT_VEHICLE_ACTIONS), ("/vehicle ", ""),
         ("/plan deck:", "plan for "), ("/plan extra:", "plan CARD CARD CARD +"), ("/plan", "plan"), ("/hand", "hand"), ("/board", "board"),
         ("/log", "log"), ("/game always-pass", "alwayspass"), ("/game ", ""))


def plain(line: str) -> str:
    """The service's words for a terminal: no Markdown, console commands for slash commands."""
    line = line.replace("**", "").replace("`", "")
    for slash, word in SLASH:
        line = line.replace(slash, word)
    return line


class Table:
    """One console game over the use-cases: the players, the service, and what to print."""

    def __init__(self, service: GameService, callers: list[Caller], gid: int, args) -> None:
        self.service, self.callers, self.gid, self.args = service, callers, gid, args
        self.where = Where(game_id=gid)
        self.by_user = {c.user_id: c for c in callers}
        self.waiting_news: dict[int, list[str]] = {c.user_id: [] for c in callers}
        self.choices: dict[int, list[str]] = {}
        self.picture = 0

    def show(self, r: Replies, *, private_to: int | None = None) -> None:
        """Public lines for everyone; private lines kept for their player (or printed now, if
        he is the one at the keyboard); ephemeral lines are the caller's own."""
        for line in r.public:
            print(plain(line))
        for line in r.ephemeral:
            print(plain(line))
        for item in r.private:
            self._keep(item.user_id, item.text)
        for p in r.prompts:
            body = p.text
            if p.choices:
                self.choices[p.user_id] = [c.command for c in p.choices]
                body += "\n" + "\n".join(f"  {i + 1}) {c.label}" for i, c in enumerate(p.choices))
            self._keep(p.user_id, body)
        if private_to is not None:
            self.flush(private_to)
        self._pictures(r.images)

    def _keep(self, user_id: int, text_: str) -> None:
        text_ = plain(text_)
        if self.args.private and self.args.script:
            print(f"  [to {self.by_user[user_id].name}] " + text_.replace("\n", "\n    "))
        else:
            self.waiting_news[user_id].append(text_)

    def flush(self, user_id: int) -> bool:
        """Print what waited for this player; True if his hand was among it."""
        news, self.waiting_news[user_id] = self.waiting_news[user_id], []
        for line in news:
            print("  (for you) " + line.replace("\n", "\n  "))
        return any("Your hand" in line for line in news)  # "Your hand:", or "Your hand, squad" per deck

    def _pictures(self, images) -> None:
        """The public boards the game posts (one after every phase) and the panels posted with
        them (vehicles that acted or were hit), as Discord would show them."""
        if not self.args.images:
            return
        from bot.render.files import save_phase_images
        plates = [req.plate for req in images if req.kind == "panel"]
        for req in images:
            if req.kind == "board" and req.public:
                self.picture += 1
                v = req.view
                save_phase_images(v, self.args.images, f"{self.picture:03d}-t{v.turn}p{v.phase}", plates=plates)

    async def waiting(self):
        return await self.service.waiting(self.callers[0], self.where)

    async def state(self):
        return await self.service.load_state(self.gid)


async def _table(args) -> int:
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "console.db"
        async with open_store(db) as store:  # a bad --db stops here, before the content loads
            cat = load_catalog()
            service = GameService(store, cat, seed=lambda: seed)
            table = await _open(service, cat, args)
            if args.script:
                code = await _script(table)
            else:
                code = await HotSeat(table).loop()
            st = await table.state()
            if args.state_out and st is not None:
                args.state_out.write_text(st.model_dump_json(indent=1), encoding="utf-8")
            if args.record:
                args.record.write_text((await _record(store, table.gid)).dumps(), encoding="utf-8")
    return code


async def _open(service: GameService, cat, args) -> Table:
    """Resume the unfinished game in --db, or open, seat and start a new one."""
    where = Where(channel_id=TABLE)
    games = [g for g in await service.store.unfinished_games() if g.status == "active"]
    if games:
        gid = games[0].id
        loaded = await service.store.load_game(gid)
        callers = [Caller(s.user_id, s.display_name) for s in sorted(loaded.seats, key=lambda s: s.seat_index)]
        table = Table(service, callers, gid, args)
        print(f"Resuming game #{gid} from {args.db}.")
        async for r in service.resume():
            table.show(r)
        return table
    scenario = args.scenario or (DEFAULT_SCENARIO if DEFAULT_SCENARIO in cat.scenarios else sorted(cat.scenarios)[0])
    seats = _seats(args.players)
    callers = [Caller(i + 1, s.name) for i, s in enumerate(seats)]
    created = await service.new_game(callers[0], where, scenario, side=seats[0].side)
    gid = created.game_id
    table = Table(service, callers, gid, args)
    for caller, s in zip(callers[1:], seats[1:], strict=True):
        await service.join(caller, Where(game_id=gid), s.side)
    table.show(await service.start(callers[0], Where(game_id=gid)))
    return table


async def _record(store, gid: int) -> Record:
    """The engine's game record out of the app's log: the start, then every command not undone."""
    logged = eventlog.read(await store.events_since(gid))
    rec = Record()
    kept: list[tuple[int, object]] = []
    for seq, body in logged:
        if body["type"] == "started":
            rec = Record(scenario=body["scenario"], seed=body["seed"],
                         seats=[SeatSpec.model_validate(s) for s in body["seats"]])
        elif body["type"] == "command":
            kept.append((seq, parse_command_json(body["cmd"])))
        elif body["type"] in ("undo", "rollback"):
            kept = [(s, c) for s, c in kept if s <= body["to_seq"]]
    rec.commands = [c for _, c in kept]
    return rec


async def _script(table: Table) -> int:
    """Every line through the use-cases, `@NAME` switching the player; stops at a refused line."""
    args = table.args
    names = {c.name.lower(): c for c in table.callers}
    caller = table.callers[0]
    # bytes that are not UTF-8 become lone surrogates, which the command edge refuses by line
    for no, raw in enumerate(args.script.read_text(encoding="utf-8", errors="surrogateescape").splitlines(),
                             start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("@"):
            who = line[1:].strip().lower()
            if NUMBER.fullmatch(who) and int(who) < len(table.callers):
                caller = table.callers[int(who)]
            elif who in names:
                caller = names[who]
            else:
                print(f"{args.script}: line {no}: no player {line[1:][:40]!a}", file=sys.stderr)
                return 1
            continue
        try:
            r = await table.service.command(caller, table.where, line)
        except (Refused, RuleError, StoreUnavailable) as exc:
            print(f"{args.script}: line {no}: {raw.strip()}: {exc}", file=sys.stderr)
            return 1
        table.show(r)
    waits = await table.waiting()
    if waits:
        print("Waiting for: " + "; ".join(f"{w.name} to {w.detail}" for w in waits))
    return 0


def _read(prompt: str) -> str | None:
    """A line typed at the terminal; None when input has closed."""
    try:
        return input(prompt)
    except EOFError:
        return None


class HotSeat:
    """The terminal loop: prompt the awaited player, read a command, carry it out."""

    def __init__(self, table: Table) -> None:
        self.t = table
        self.current: int | None = None

    async def loop(self) -> int:
        for stream, errors in ((sys.stdin, "surrogateescape"), (sys.stdout, "backslashreplace")):
            if hasattr(stream, "reconfigure"):  # bytes that are not UTF-8 reach the command edge as lone
                stream.reconfigure(errors=errors)  # surrogates, refused there; printing never fails on them
        st = await self.t.state()
        print(text.full_text(view(st)))
        print("\nType a command (`help` for the list, `quit` to stop).")
        while True:
            try:
                done = await self._turn()
            except StoreUnavailable as exc:  # the database is busy or cannot save: nothing was changed
                print(exc)
                if _read("Press Enter to try again (or type quit) > ") not in (None, "quit", "exit"):
                    continue
                return 0
            if done is not None:
                return done

    async def _turn(self) -> int | None:
        """Prompt the awaited player and carry out one line; an exit code when the game stops."""
        waits = await self.t.waiting()
        if not waits:
            st = await self.t.state()
            if st is not None:
                print(text.header(view(st)))
            return 0
        w = waits[0]
        caller = self.t.by_user[w.user_id]
        if caller.user_id != self.current and not await self._pass_to(caller):
            return 0
        self.t.flush(caller.user_id)
        line = _read(f"{caller.name}, {w.detail} > ")
        if line is None:
            print("\n(input closed: the game stops here)")
            return 0
        line = line.strip()
        if not line:
            return None
        if line in ("quit", "exit"):
            return 0
        try:
            if await self._meta(line, caller, w.seat):
                return None
            picks = self.t.choices.get(caller.user_id, [])
            if NUMBER.fullmatch(line) and 1 <= int(line) <= len(picks):
                line = picks[int(line) - 1]
            r = await self.t.service.command(caller, self.t.where, line)
        except (Refused, RuleError) as exc:
            print(f"Not allowed: {exc}")
            return None
        self.t.choices.pop(caller.user_id, None)
        self.t.show(r, private_to=caller.user_id)
        return None

    @staticmethod
    def _words(st, seat: int, line: str) -> str:
        """A legal command as the player reads it, then its script line: "M4A1 Sherman 601:
        drive to 14A along the road [team]  (team vmove 601 14A road)"."""
        try:
            label = prompts.label(st, parse_line(st, line, seat))
        except (RuleError, KeyError):
            return line
        return line if label == line else f"{label}  ({line})"

    async def _pass_to(self, caller: Caller) -> bool:
        if self.current is not None:
            print("\n" * 3)
        try:
            input(f"--- Pass to {caller.name} and press Enter (nobody else should look) ---")
        except EOFError:
            print("\n(input closed: the game stops here)")
            return False
        self.current = caller.user_id
        if not self.t.flush(caller.user_id):  # his news already shows his hand, else show it
            self.t.show(await self.t.service.hand(caller, self.t.where))
        return True

    async def _meta(self, line: str, caller: Caller, seat: int) -> bool:
        word = line.split()[0].lower()
        svc, where = self.t.service, self.t.where
        if word == "help":
            print(GRAMMAR)
            print(ADVANCED_GRAMMAR)
            print("the battlefield (artillery, close combat on vehicles, smoke, equipment):")
            print(BATTLEFIELD_GRAMMAR)
            print("Also: board, soldiers, vehicles, hand, options, log, undo, quit; a number picks a listed "
                  "choice (`options` lists every command you may give now, numbered). Soldiers may be named "
                  "by dog tag or name, vehicles by license plate.")
        elif word in ("board", "soldiers", "vehicles"):
            v = view(await self.t.state(), seat)
            shown = {"board": text.full_text, "soldiers": lambda x: "\n".join(text.soldier_lines(x)),
                     "vehicles": lambda x: "\n".join(text.vehicle_lines(x)) or "No vehicles or guns."}[word]
            print(shown(v))
        elif word == "hand":
            self.t.show(await svc.hand(caller, where))
        elif word == "options":
            opts = await svc.options(caller, where)
            st = await self.t.state()
            picks = opts[:OPTIONS]
            self.t.choices[caller.user_id] = picks
            print("You may (type the number or the command):\n"
                  + "\n".join(f"  {i + 1}) {self._words(st, seat, o)}" for i, o in enumerate(picks))
                  + (f"\n  ... and {len(opts) - OPTIONS} more" if len(opts) > OPTIONS else ""))
        elif word == "log":
            self.t.show(await svc.history(caller, where))
        elif word == "undo":
            self.t.show(await svc.undo(caller, where), private_to=caller.user_id)
        else:
            return False
        return True


# ------------------------------------------------------------------------------ positions


def _position(args) -> int:
    """A position is a rules question: the engine alone, no table and no store."""
    cat = load_catalog()
    data = _read_position(args.position)
    if args.seed is not None:
        data["seed"] = args.seed
    st, events = load_position(cat, data)
    names = {s.index: s.name for s in st.seats}

    def say(e) -> None:
        if e.to is None:
            print(e.text)
        elif args.private:
            print(f"  [to {names[e.to]}] {e.text}")

    for e in events:
        say(e)
    if args.script:
        try:
            script = args.script.read_text(encoding="utf-8", errors="surrogateescape")  # bad bytes: refused lines
            st, _ = run_script(st, script, on_event=lambda _c, e: say(e))
        except ScriptError as exc:
            print(f"{args.script}: {exc}", file=sys.stderr)
            return 1
        if st.step != "over":
            from engine import awaiting
            print("Waiting for: " + "; ".join(f"{st.seats[a.seat].name} to {a.detail}" for a in awaiting(st)))
        if args.state_out:
            args.state_out.write_text(st.model_dump_json(indent=1), encoding="utf-8")
        return 0
    print("A position starts a rules question: give --script with the commands to try "
          "(or play the same set-up as a scenario with --scenario).")
    return 0
