"""`fieldpost play`: a whole game in one terminal (hot-seat), or a script of commands.

The console is one more front end of the use-cases in bot/app, like the Discord adapter: the
game lives in a database (a temporary SQLite file unless `--db` names one, so a console game
can be stopped and resumed), every command goes through `GameService.command`, and what the
service hands back is printed: public lines for the table, private ones only to their player.

Hot-seat (bot/console/hotseat.py): whoever the game waits for is prompted in turn; the screen
is cleared and a "pass to <player>" page shown before and after each player's secrets. Script:
every line is applied in order and the log is printed. `--campaign N` plays campaign N's next
scenario with the forces its players picked, in the campaign's database, and records the
result for the organiser's review. A `--position` starts a rules question from a written-down
position with the engine alone (positions are a tool for designers and bug reports), or from
where a game record (`--record`, Discord's `/game record`) ends.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
from pathlib import Path

from bot.app import Caller, GameService, Where, eventlog
from bot.app.errors import Refused
from bot.app.records import record_of
from bot.console import ending, text
from bot.console.table import Table
from bot.exits import BadUsage, ctrl_c_at_once, yaml_problem
from bot.startup import settle
from bot.store import StoreUnavailable, open_store
from engine import RuleError, awaiting, load_catalog, view
from engine.core.commands import NUMBER
from engine.core.content import scenario_ids
from engine.core.errors import ContentError
from engine.script import ScriptError, run_script
from engine.turn.setup import SeatSpec

DEFAULT_SCENARIO = "hedgerow-dawn"
TABLE = 1  # the console's one "channel"
ORGANISER = "Organiser"  # who sets a campaign's scenario up from the terminal (as `fieldpost campaign`)


def add_parser(sub) -> None:
    p = sub.add_parser("play", help="play a game in this terminal (hot-seat) or run a script of commands",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--scenario", help="scenario id (default: the bundled starter scenario)")
    p.add_argument("--seed", type=int, default=None, help="random seed (default: a fresh one)")
    p.add_argument("--players", default="US:US,Germany:DE",
                   help="comma-separated NAME:SIDE pairs, 2 to 4 (default 'US:US,Germany:DE')")
    for flag, what in (("--force", "his soldiers, e.g. 'Ann=101 104:sgt 108:g3' (else the preset share)"),
                       ("--artillery", "fire missions he buys, e.g. 'Ann=light-artillery medium-mortars'"),
                       ("--barrages", "barrages he plans in secret, e.g. 'Ann=rockets 3 L9A; heavy-artillery 4 L2A'"),
                       ("--mines", "minefields he lays, e.g. 'Bo=24A gp gp; L2A at at at at'")):
        p.add_argument(flag, action="append", default=[], metavar="NAME=TEXT",
                       help=f"a new game: {what}; within the VP budget, as /game forces (repeat per player)")
    p.add_argument("--campaign", type=int, metavar="N",
                   help="play campaign N's next scenario hot-seat with its players' picked forces, in the "
                        "campaign's database (--db, else $FIELDPOST_DB or ./fieldpost.db); the result waits "
                        "for the organiser (fieldpost campaign review N)")
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
            raise BadUsage(f"--players: write NAME:SIDE pairs with side US or DE, not {part!r}")
        out.append(SeatSpec(name=name, side=side.upper()))
    return out


def _read_position(path: Path) -> dict:
    import yaml  # a position's path only: a game's start reads no YAML (docs/architecture.md, A quick start)

    try:
        raw = path.read_text(encoding="utf-8")
        data = json.loads(raw) if path.suffix == ".json" else yaml.safe_load(raw)
    except yaml.YAMLError as exc:
        raise BadUsage(yaml_problem(exc, path)) from None
    except json.JSONDecodeError as exc:
        raise BadUsage(f"{path}: not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    except OSError as exc:
        raise BadUsage(f"{path}: {exc.strerror or exc}") from None
    if not isinstance(data, dict):
        raise BadUsage(f"{path}: a position is a mapping (docs/position.md)")
    return data


def run(args) -> int:
    """Exit codes and messages: bot/exits.py (a position or a scenario that is not there: 2)."""
    for given in (args.script, args.position):
        if given is not None and not given.is_file():
            raise BadUsage(f"{given}: no such file")
    if args.position:
        try:
            return _position(args)
        except (ContentError, RuleError) as exc:  # the position file is what the user gave
            raise BadUsage(str(exc)) from None
    _seats(args.players)  # a typo in --players or --scenario is said before anything loads
    known = scenario_ids()
    if args.scenario and args.scenario not in known:
        raise BadUsage(f"there is no scenario {args.scenario!r}. Scenarios: {', '.join(known)}")
    with ctrl_c_at_once():
        return asyncio.run(_table(args))


# ------------------------------------------------------------------------------ the table


def _campaign_db(args) -> str:
    return args.db or os.environ.get("FIELDPOST_DB") or "fieldpost.db"


async def _table(args) -> int:
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    cat = load_catalog()  # broken content stops here, before any database is touched
    with tempfile.TemporaryDirectory() as tmp:
        db = _campaign_db(args) if args.campaign is not None else args.db or Path(tmp) / "console.db"
        temporary = args.db is None and args.campaign is None
        # a throwaway game's file goes with its folder: never flushed to the disk (docs/console.md)
        async with (open_store(db, durable=False) if temporary else open_store(db)) as store:  # a bad --db stops here
            service = GameService(store, cat, seed=lambda: seed)
            table = await (_open_campaign(service, cat, args) if args.campaign is not None
                           else _open(service, cat, args))
            table.db, table.temporary = db, temporary
            try:
                if args.script:
                    code = await _script(table)
                else:
                    # a script never prompts: its start skips the table's screens
                    from bot.console.hotseat import HotSeat

                    settle()  # a table at the terminal may stay open for hours; a script is over in seconds
                    code = await HotSeat(table).loop()
            except KeyboardInterrupt:
                print("\n" + ("The game was not saved." if temporary
                              else f"The game stays in {db}: `fieldpost play --db {db}` goes on from there."))
                raise
            st = await table.state()
            if args.state_out and st is not None:
                args.state_out.write_text(st.model_dump_json(indent=1), encoding="utf-8")
            if args.record:
                logged = eventlog.read(await store.events_since(table.gid))
                args.record.write_text(record_of(logged).dumps(), encoding="utf-8")
    return code


async def _open(service: GameService, cat, args) -> Table:
    """Resume the unfinished game in --db, or open, seat and start a new one."""
    where = Where(channel_id=TABLE)
    games = [g for g in await service.store.unfinished_games() if g.status == "active"]
    if games:
        return await _resume(service, games[0].id, args)
    scenario = args.scenario or (DEFAULT_SCENARIO if DEFAULT_SCENARIO in cat.scenarios else sorted(cat.scenarios)[0])
    seats = _seats(args.players)
    callers = [Caller(i + 1, s.name) for i, s in enumerate(seats)]
    try:
        created = await service.new_game(callers[0], where, scenario, side=seats[0].side)
        gid = created.game_id
        for caller, s in zip(callers[1:], seats[1:], strict=True):
            await service.join(caller, Where(game_id=gid), s.side)
    except Refused as exc:  # a seat the scenario has no room for, a side it does not have
        raise BadUsage(f"--players {args.players}: {exc}") from None
    await _choose_forces(service, gid, callers, args)
    try:
        started = await service.start(callers[0], Where(game_id=gid))
    except Refused as exc:  # the forces chosen do not make a game (mines without Hold orders, say)
        raise BadUsage(str(exc)) from None
    table = Table(service, callers, gid, args)
    table.show(started)
    return table


async def _choose_forces(service: GameService, gid: int, callers: list[Caller], args) -> None:
    """--force, --artillery, --barrages and --mines, each NAME=TEXT, through /game forces' use-case."""
    by_name = {c.name: c for c in callers}
    chosen: dict[str, dict[str, str]] = {}
    for flag, key in (("force", "force"), ("artillery", "artillery"), ("barrages", "barrages"), ("mines", "mines")):
        for given in getattr(args, flag, None) or []:  # callers that build args themselves may leave them out
            name, sep, text = given.partition("=")
            if not sep or name.strip() not in by_name:
                raise BadUsage(f"--{flag}: write NAME=TEXT with NAME one of the players "
                               f"({', '.join(by_name)}), not {given!r}")
            chosen.setdefault(name.strip(), {})[key] = text
    for name, picks in chosen.items():
        try:
            r = await service.choose_force(by_name[name], Where(game_id=gid), picks.pop("force", None), **picks)
        except Refused as exc:
            raise BadUsage(f"{name}'s force: {exc}") from None
        print(f"{name}: " + " ".join(r.ephemeral))


async def _resume(service: GameService, gid: int, args) -> Table:
    loaded = await service.store.load_game(gid)
    callers = [Caller(s.user_id, s.display_name) for s in sorted(loaded.seats, key=lambda s: s.seat_index)]
    table = Table(service, callers, gid, args)
    print(f"Resuming game #{gid} from {args.db or _campaign_db(args)}.")
    async for r in service.resume():
        if r.game_id == gid:
            table.show(r)
    return table


async def _open_campaign(service: GameService, cat, args) -> Table:
    """Campaign N's game: resumed if one is under way, else its next scenario set up (the
    organiser's step) and started with the seats and forces its rosters give. The service
    hands the finished game to the campaign as a result for the organiser's review."""
    # the campaign rules load only for a campaign's game: a plain game starts sooner
    from bot.app.campaign import CampaignService
    from bot.console.campaign import user_id as campaign_user
    from engine.campaign import CampaignError, next_step

    campaigns = CampaignService(service.store, cat)
    service.campaigns = campaigns
    cid = args.campaign
    for g in await service.store.unfinished_games():
        of = await service.store.get_setting(f"game:{g.id}", "campaign")
        if g.status == "active" and of is not None and int(of) == cid:
            return await _resume(service, g.id, args)
    try:
        st = await campaigns.load_state(cid)
        step = next_step(st, campaigns.definitions[st.definition])
    except (Refused, CampaignError) as exc:
        raise BadUsage(f"--campaign {cid}: {exc}") from None
    if args.scenario and args.scenario != step.scenario:
        raise BadUsage(f"campaign #{cid} plays {step.scenario} next, not {args.scenario}")
    organiser = Caller(campaign_user(ORGANISER), ORGANISER, organiser=True)
    r, prepared = await campaigns.prepare(organiser, cid)
    for line in [*r.public, *r.ephemeral]:
        print(text.plain(line, campaign=cid))
    names = {p.user_id: p.name for p in st.players}
    callers = [Caller(u, names.get(u, s.name)) for u, s in zip(prepared.users, prepared.seats, strict=True)]
    started = await service.new_campaign_game(organiser, Where(channel_id=TABLE), prepared)
    table = Table(service, callers, started.game_id, args, campaign=cid)
    table.show(started)
    return table


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
    else:
        st = await table.state()
        if st is not None and st.step == "over":
            print(ending.end_screen(view(st)))
    return 0


# ------------------------------------------------------------------------------ positions


def _is_record(data: dict) -> bool:
    """A game record has commands and seats; a position has players (docs/position.md)."""
    return "commands" in data and "players" not in data


def _position(args) -> int:
    """A position is a rules question: the engine alone, no table and no store. A game record
    is read as the position its commands reach, and says what its last command did."""
    # positions and records load only here: a game from a scenario starts sooner
    from engine.position import load_position
    from engine.record import load_record

    cat = load_catalog()
    data = _read_position(args.position)
    if _is_record(data):
        if args.seed is not None:
            raise BadUsage(f"{args.position}: a game record carries its own seed; leave --seed out")
        rec = load_record(args.position)
        print(f"{args.position}: a game record of {rec.scenario or 'a position'}, "
              f"{len(rec.commands)} commands replayed.")
        events: list = []
        for _, st, events in rec.replay(cat):
            pass
    else:
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
            print("Waiting for: " + "; ".join(f"{st.seats[a.seat].name} to {a.detail}" for a in awaiting(st)))
        if args.state_out:
            args.state_out.write_text(st.model_dump_json(indent=1), encoding="utf-8")
        return 0
    if args.state_out:
        args.state_out.write_text(st.model_dump_json(indent=1), encoding="utf-8")
    if st.step == "over":
        return 0
    print("A position starts a rules question: give --script with the commands to try "
          "(or play the same set-up as a scenario with --scenario).")
    return 0
