"""`fieldpost campaign`: run and inspect a campaign from a terminal, through the same use-cases
as /campaign on Discord (bot/app/campaign.py), on the bot's SQLite file or another.

    fieldpost campaign new road-to-sainte-gisele --as Olga
    fieldpost campaign join 1 US --as Ann
    fieldpost campaign join 1 DE --as Bo
    fieldpost campaign play 1 --autoplay --seed 7        # the next scenario between random agents
    fieldpost campaign review 1 ; fieldpost campaign confirm 1 --as Olga
    fieldpost campaign roster 1 --as Ann ; fieldpost campaign soldier 1 101 --png brannigan.png

A terminal user is named with --as (default: Organiser); his user id is derived from the
name, so the same name is the same player from one command to the next. The terminal may do
what an organiser may.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import sys
import zlib
from pathlib import Path

from bot.app.campaign import CampaignReplies, CampaignService
from bot.app.errors import Refused
from bot.app.replies import Caller, Where
from bot.store import StoreError, open_store
from engine import apply, load_catalog, new_game
from engine.agent import RandomAgent
from engine.core.errors import ContentError
from engine.record import Record, load_record

CHANNEL = 0  # the terminal's "channel": campaigns opened here live in it
MAX_COMMANDS = 20_000


def user_id(name: str) -> int:
    """A terminal user's stable id: the same name is the same player."""
    return zlib.crc32(name.strip().lower().encode()) or 1


def add_parser(sub) -> None:
    p = sub.add_parser("campaign", help="run and inspect campaigns (rosters between scenarios)",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--db", default=None,
                   help="the database, an SQLite file or postgresql://… (default: $FIELDPOST_DB or ./fieldpost.db)")
    p.add_argument("--as", dest="who", default="Organiser", help="who gives the command (default Organiser)")
    cmds = p.add_subparsers(dest="action", required=True)

    def cmd(name: str, help_: str, *, campaign: bool = True):
        c = cmds.add_parser(name, help=help_, description=help_)
        c.add_argument("--as", dest="who", default=argparse.SUPPRESS, help="who gives the command")
        if campaign:
            c.add_argument("campaign", type=int, help="the campaign's number")
        return c

    cmd("list", "campaigns in this database and the campaign definitions", campaign=False)
    c = cmd("new", "open a campaign of a definition; you organise it", campaign=False)
    c.add_argument("definition")
    c.add_argument("--name", help="a name of your own")
    c = cmd("join", "join a side (the side's company is shared among its players)")
    c.add_argument("side", choices=("US", "DE", "us", "de"))
    cmd("status", "the next scenario, who has picked, what waits for review")
    c = cmd("roster", "a roster: yours with VP, or a player's without")
    c.add_argument("player", nargs="?")
    c.add_argument("--public", action="store_true", help="the public version (no VP)")
    c = cmd("soldier", "a soldier's service record")
    c.add_argument("soldier", help="dog tag or name")
    c.add_argument("--public", action="store_true")
    c.add_argument("--png", type=Path, help="write the service-record card here")
    c = cmd("pick", "choose your force for the next scenario")
    c.add_argument("force", help="dog tags and plates, e.g. '101 105 109:g6 107:radio 601:AP6:gunner=153', "
                                 "or 'auto'")
    c = cmd("enlist", "a recruit from the depot joins a roster")
    c.add_argument("soldier", nargs="?", help="dog tag or name (default: the next in the depot)")
    c.add_argument("--for", dest="player", help="the organiser enlists for this player")
    c = cmd("choose", "the winners choose the campaign's branch")
    c.add_argument("step")
    c = cmd("play", "play the next scenario (random agents) or apply a recorded game")
    how = c.add_mutually_exclusive_group(required=True)
    how.add_argument("--autoplay", action="store_true", help="random agents play every seat")
    how.add_argument("--record", type=Path, help="a game record (fieldpost play --record) of the next scenario")
    c.add_argument("--seed", type=int, default=None, help="the game's seed (autoplay)")
    c.add_argument("--record-out", type=Path, help="autoplay: write the game's record here")
    c.add_argument("--confirm", action="store_true", help="confirm the result at once")
    for name, help_ in (("review", "what a pending result would do"), ("confirm", "apply a pending result"),
                        ("revert", "take the last confirmed result back"), ("reject", "throw a pending result out")):
        c = cmd(name, help_)
        c.add_argument("number", type=int, nargs="?", help="the result's number (default: the latest)")
    c = cmd("award", "pin a medal or badge on a soldier")
    c.add_argument("soldier")
    c.add_argument("award", help="medals: silver, bronze, merit, distinguished; badges: close_combat, marksman, "
                                 "combat")
    c.add_argument("--citation", required=True)
    c = cmd("promote", "promote a leader one rank")
    c.add_argument("soldier")
    c.add_argument("--citation", default="")
    c = cmd("crews", "the short-crews rule: who fills a vehicle's empty driver's or gunner's seat")
    c.add_argument("rule", choices=("stay_home", "cross_trained", "untrained"))
    c = cmd("mark", "correct a status (men: fit, wounded, captured, missing, killed; vehicles: fit, "
                    "workshop, lost)")
    c.add_argument("soldier")
    c.add_argument("status")
    c.add_argument("--note", default="")
    c = cmd("standings", "VP per player over the scenarios")
    c.add_argument("--png", type=Path, help="write the standings chart here")
    cmd("history", "results and the organiser's acts, in order")
    c = cmd("export", "the campaign as JSON (re-importable) and the rosters as CSV")
    c.add_argument("--json", type=Path, help="write the JSON here (default: print it)")
    c.add_argument("--csv", type=Path, help="write the CSV here")
    c = cmd("import", "a new campaign from an exported JSON file", campaign=False)
    c.add_argument("file", type=Path)
    p.set_defaults(run=run)


def run(args) -> int:
    try:
        return asyncio.run(_run(args))
    except (Refused, ContentError, StoreError) as exc:
        print(f"fieldpost campaign: {exc}", file=sys.stderr)
        return 1


def _db(args) -> str:
    return args.db or os.environ.get("FIELDPOST_DB") or "fieldpost.db"


async def _run(args) -> int:
    cat = load_catalog()
    async with open_store(_db(args)) as store:
        service = CampaignService(store, cat)
        me = Caller(user_id(args.who), args.who, organiser=True)
        here = Where(channel_id=CHANNEL)
        return await ACTIONS[args.action](service, me, here, args)


def show(r: CampaignReplies) -> None:
    for line in [*r.public, *r.ephemeral]:
        print(line)


async def _list(s: CampaignService, me, here, args) -> int:
    for c in await s.campaigns_here(here):
        print(f"#{c.id} {c.name} ({c.definition_id}, {c.status.value})")
    print("definitions: " + ", ".join(sorted(s.definitions)))
    return 0


async def _new(s, me, here, args) -> int:
    show(await s.new(me, here, args.definition, name=args.name))
    return 0


async def _soldier(s, me, here, args) -> int:
    r = await s.soldier(me, args.campaign, args.soldier, public=args.public)
    show(r)
    if args.png:
        from bot.render.service_record import render_service_record_png
        image = (r.images or r.ephemeral_images)[0]
        args.png.write_bytes(render_service_record_png(image.view))
        print(f"wrote {args.png}")
    return 0


async def _standings(s, me, here, args) -> int:
    r = await s.standings(me, args.campaign)
    show(r)
    if args.png:
        if not r.images:
            print("no scenario played yet: no chart", file=sys.stderr)
            return 1
        from bot.render.standings import render_standings_png
        args.png.write_bytes(render_standings_png(r.images[0].view))
        print(f"wrote {args.png}")
    return 0


async def _play(s: CampaignService, me, here, args) -> int:
    if args.record:
        rec = load_record(args.record)
        final = rec.final(s.catalog)
        st = await s.load_state(args.campaign)
        users = [_seat_user(st, seat.name) for seat in final.seats]
        if st.status == "enlisting":  # the recorded game was the first: it begins the campaign
            show((await s.prepare(me, args.campaign))[0])
        show(await s.submit_game(me, args.campaign, final, users))
    else:
        r, prepared = await s.prepare(me, args.campaign)
        show(r)
        seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
        state, _ = new_game(s.catalog, prepared.scenario, list(prepared.seats), seed)
        agent = RandomAgent(seed)
        commands = []
        while state.step != "over" and len(commands) < MAX_COMMANDS:
            cmd = agent.choose(state, agent.seat_to_act(state))
            commands.append(cmd)
            state, _ = apply(state, cmd)
        if state.step != "over":
            raise Refused(f"the game did not end after {MAX_COMMANDS} commands (seed {seed})")
        if args.record_out:
            args.record_out.write_text(Record(scenario=prepared.scenario, seed=seed, seats=list(prepared.seats),
                                              commands=commands).dumps(), encoding="utf-8")
            print(f"wrote {args.record_out}")
        print(f"Played with seed {seed}: " + "; ".join(f"{k} {v} VP" for k, v in state.result.vp.items())
              + f" — {state.result.reason}.")
        show(await s.submit_game(me, args.campaign, state, list(prepared.users)))
    if args.confirm:
        show(await s.confirm(me, args.campaign))
    else:
        show(await s.review(me, args.campaign))
    return 0


def _seat_user(st, name: str) -> int:
    for p in st.players:
        if p.name.lower() == name.strip().lower():
            return p.user_id
    raise Refused(f"the record's seat {name!r} is no player of this campaign "
                  f"({', '.join(p.name for p in st.players)}); name the seats after the players.")


async def _export(s: CampaignService, me, here, args) -> int:
    r = await s.export(me, args.campaign)
    files = {f.filename.rsplit(".", 1)[-1]: f.data for f in r.files}
    if args.json:
        args.json.write_bytes(files["json"])
        print(f"wrote {args.json}")
    elif not args.csv:
        print(files["json"].decode())
    if args.csv:
        args.csv.write_bytes(files["csv"])
        print(f"wrote {args.csv}")
    return 0


async def _import(s: CampaignService, me, here, args) -> int:
    show(await s.import_json(me, here, args.file.read_text(encoding="utf-8")))
    return 0


def _action(call):
    async def action(s, me, here, args) -> int:
        show(await call(s, me, args))
        return 0
    return action


ACTIONS = {
    "list": _list,
    "new": _new,
    "join": _action(lambda s, me, a: s.join(me, a.campaign, a.side)),
    "status": _action(lambda s, me, a: s.status(me, a.campaign)),
    "roster": _action(lambda s, me, a: s.roster(me, a.campaign, a.player, public=a.public)),
    "soldier": _soldier,
    "pick": _action(lambda s, me, a: s.pick(me, a.campaign, a.force)),
    "enlist": _action(lambda s, me, a: s.enlist(me, a.campaign, a.soldier, player=a.player)),
    "choose": _action(lambda s, me, a: s.choose(me, a.campaign, a.step)),
    "play": _play,
    "review": _action(lambda s, me, a: s.review(me, a.campaign, a.number)),
    "confirm": _action(lambda s, me, a: s.confirm(me, a.campaign, a.number)),
    "revert": _action(lambda s, me, a: s.revert(me, a.campaign, a.number)),
    "reject": _action(lambda s, me, a: s.reject(me, a.campaign, a.number)),
    "award": _action(lambda s, me, a: s.award(me, a.campaign, a.soldier, a.award, a.citation)),
    "promote": _action(lambda s, me, a: s.promote(me, a.campaign, a.soldier, a.citation)),
    "crews": _action(lambda s, me, a: s.crews(me, a.campaign, a.rule)),
    "mark": _action(lambda s, me, a: s.mark(me, a.campaign, a.soldier, a.status, a.note)),
    "standings": _standings,
    "history": _action(lambda s, me, a: s.history(me, a.campaign)),
    "export": _export,
    "import": _import,
}
