"""A play-by-post group over weeks (issue 16), through gateway payloads (tests/discord/gateway.py):
a seat changing hands mid-turn (the new player gets the seat's cards by DM and nothing of the
other seat's, the old player's buttons refuse), pause and resume keeping each decision's time
left to the microsecond, organiser-only commands refused to others (and allowed to a server's
organiser role), a watcher who gets the table's view and no secret, every time shown as a
Discord timestamp, a repeated command answered "already", and an ended game's record that
replays to the game's state."""
from __future__ import annotations

import json
import random
import re
from datetime import timedelta

import discord

from bot.app import Caller, Where
from bot.discord.adapter import NOT_YOURS
from engine import Record
from tests.app.test_secrets import found, secrets_of, shown_cards
from tests.discord.gateway import Player, Sent, Table
from tests.discord.test_gateway import Watch, open_yard
from tests.discord.test_presses import carried_out_once, twice

STAMP = re.compile(r"<t:[0-9]+:f> \(<t:[0-9]+:R>\)")  # format_dt absolute, then relative
CLOCK_TEXT = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}[ T][0-9]{2}:[0-9]{2}|\bUTC\b")


async def version(t: Table) -> int:
    return (await t.store.load_game(1)).version


def texts(messages: list[Sent]) -> str:
    return "\n".join(m.text() for m in messages)


class Clock:
    """The service's clock, moved by the test."""

    def __init__(self, t: Table) -> None:
        self.now = t.service.clock()
        t.service.clock = lambda: self.now


async def test_a_replaced_players_buttons_refuse_and_the_new_player_gets_the_seat_alone(table):
    t = table
    ann, bo = await open_yard(t)
    cy = t.player(33, "Cy")
    old_prompt = t.prompt(bo)
    assert old_prompt is not None
    st = await t.service.load_state(1)
    secrets, hand = secrets_of(st), st.forces["DE-2"].hand

    asked = await t.command(ann, "game replace", seat=2, user=cy, reason="Bo moved abroad")
    assert asked.ephemeral and "Cy holds seat 2" in asked.text
    assert "Cy takes over seat 2 (DE) from Bo" in t.public()[-1].content
    assert "Bo moved abroad" in t.public()[-1].content

    desk = texts(t.private(cy))
    assert hand and all(found(card, desk) for card in hand), "Cy has the seat's hand, every card of it"
    assert not [s for s in secrets[0] if found(s, desk)], "and nothing of Ann's seat"
    assert t.prompt(cy) is not None, "Cy is asked the seat's decision"
    assert "no longer hold seat 2" in texts(t.dms(bo))

    before = await version(t)
    refused = await t.press(bo, old_prompt, old_prompt.custom_ids[0])
    assert refused.ephemeral and refused.text == NOT_YOURS
    assert await version(t) == before, "Bo's old buttons change nothing"

    again = await t.command(ann, "game replace", seat=2, user=cy)
    assert "already holds seat 2" in again.text and await version(t) == before
    public = texts(t.public())
    assert not [s for seat in secrets.values() for s in seat - shown_cards(st) if found(s, public)]

    prompt = t.prompt(cy)  # the new holder's buttons work, once
    answers = await twice(t, cy, prompt, prompt.custom_ids[0], None, "sequential")
    assert await version(t) == before + 1, "one commit for two presses"
    carried_out_once(t, prompt, answers)


async def test_a_player_leaves_his_seat_plays_its_defaults_and_a_late_joiner_takes_it(table):
    t = table
    _ann, bo = await open_yard(t)
    dee = t.player(44, "Dee")
    asked = await t.command(bo, "game leave")
    assert asked.ephemeral and "plays its defaults" in asked.text
    assert "Bo leaves game #1" in t.public()[-1].content
    clock = Clock(t)
    clock.now += timedelta(minutes=1)  # an open seat's decisions fall due at once
    await t.tick()
    st = await t.service.load_state(1)
    assert st.forces["DE-2"].planned, "the open seat placed its cards by the default"
    joined = await t.command(dee, "game join", side="DE")
    assert joined.ephemeral and "You play seat 2 (DE)" in joined.text
    assert any(found(card, texts(t.private(dee))) for card in st.forces["DE-2"].hand)
    again = await t.command(dee, "game join", side="DE")
    assert "already play seat 2" in again.text


async def test_pause_and_resume_keep_each_decisions_time_left(table):
    t = table
    ann, _bo = await open_yard(t)
    clock = Clock(t)
    due = {(d.key, d.user_id): d.due for d in await t.store.deadlines(1) if not d.reminded}
    assert due
    clock.now += timedelta(hours=2)
    paused = await t.command(ann, "game pause")
    assert paused.ephemeral and "pauses game #1" in t.public()[-1].content

    again = await t.command(ann, "game pause")
    assert "already paused" in again.text and STAMP.search(again.text), "the time it stopped, as a timestamp"
    clock.now += timedelta(days=9)  # long past every deadline: nothing falls due while paused
    await t.tick()
    assert not (await t.service.load_state(1)).forces["US-1"].planned
    hand = (await t.service.load_state(1)).forces["US-1"].hand
    refused = await t.command(ann, "plan", phase1=hand[0], phase2="-", phase3="-")
    assert "paused" in refused.text.lower()

    stopped = timedelta(hours=3)
    clock.now += stopped
    await t.command(ann, "game resume")
    assert "resumes game #1" in t.public()[-1].content
    after = {(d.key, d.user_id): d.due for d in await t.store.deadlines(1) if not d.reminded}
    assert after == {k: v + timedelta(days=9) + stopped for k, v in due.items()}, "each kept its time left"
    assert "not paused" in (await t.command(ann, "game resume")).text


async def test_organiser_commands_refuse_others_and_a_servers_organiser_role_may_use_them(table):
    t = table
    _ann, bo = await open_yard(t)
    cy = t.player(33, "Cy")
    umpires = t.role(77, "umpires")
    before = await version(t)
    tries = [("game pause", {}), ("game deadline", {"hours": 12.0}), ("game extend", {"seat": 1, "hours": 6.0}),
             ("game advance", {}), ("game replace", {"seat": 1, "user": cy}), ("game organiser", {"user": bo}),
             ("game settings", {"quiet": True}), ("settings organiser-role", {"role": umpires})]
    for path, options in tries:
        asked = await t.command(bo, path, **options)
        assert asked.ephemeral and asked.text.startswith("Only"), (path, asked.text)
    assert await version(t) == before and not (await t.store.load_game(1)).paused_at

    eve = t.player(55, "Eve")
    t.discord.member_permissions[eve.id] = discord.Permissions(manage_guild=True, use_application_commands=True)
    set_role = await t.command(eve, "settings organiser-role", role=umpires)
    assert "organise every game of this server" in set_role.text
    assert "already" in (await t.command(eve, "settings organiser-role", role=umpires)).text
    t.discord.member_roles[bo.id] = [umpires.id]
    await t.command(bo, "game pause")
    assert (await t.store.load_game(1)).paused_at is not None, "the role's member organises"


async def test_settings_carry_manage_server_as_their_default_permission(table):
    (sync,) = table.requests("PUT /applications/{application_id}/guilds/{guild_id}/commands")
    by_name = {c["name"]: c for c in sync.json}
    assert int(by_name["settings"]["default_member_permissions"]) == discord.Permissions(manage_guild=True).value


async def test_a_watcher_gets_the_tables_view_and_no_secret_and_a_player_cannot_watch(table):
    t = table
    ann, bo = await open_yard(t)
    dee = t.player(44, "Dee")
    assert "You play in game #1" in (await t.command(ann, "game watch")).text
    asked = await t.command(dee, "game watch")
    assert asked.ephemeral and "You watch game #1" in asked.text
    assert "already watch" in (await t.command(dee, "game watch")).text
    players = {0: ann, 1: bo}
    watch = Watch(t, players, watchers=(dee,))
    await watch.look()
    rnd = random.Random(3)
    for _ in range(40):  # a turn or so, by buttons and menus
        waiting = await t.service.waiting(Caller(ann.id, ann.name), Where(game_id=1))
        if not waiting:
            break
        who = players[rnd.choice(waiting).seat]
        prompt = t.prompt(who)
        if prompt is None:
            await t.command(who, "hand")
        else:
            custom_id = rnd.choice(prompt.custom_ids)
            values = [rnd.choice(prompt.values(custom_id))] if custom_id.startswith("fp:s:") else None
            if "out of date" in (await t.press(who, prompt, custom_id, values)).text:
                await t.command(who, "hand")
        await watch.look()
    news = t.dms(dee)
    assert len(news) >= 3, "the watcher got the glance and the table's news"
    assert not [m for m in news if m.custom_ids], "a watcher gets no buttons"
    assert watch.leaks == []
    assert "no longer watch" in (await t.command(dee, "game unwatch")).text


async def test_every_time_shown_is_a_discord_timestamp(table):
    t = table
    ann, bo = await open_yard(t)
    await t.command(ann, "game deadline", hours=12.0)
    await t.command(ann, "game extend", seat=2, hours=6.0)
    await t.command(bo, "game nudge")
    status = await t.command(bo, "game status")
    assert STAMP.search(status.text), status.text
    everything = [m for m in t.discord.messages.values()]
    assert any(STAMP.search(m.text()) for m in everything)
    assert not [m.text()[:120] for m in everything if CLOCK_TEXT.search(m.text())]


async def test_an_ended_games_record_replays_to_its_state_and_a_running_one_gives_no_record(table, cat):
    t = table
    ann, bo = await open_yard(t)
    running = await t.command(ann, "game record")
    names = [n for m in running.messages for n in m.files]
    assert "game-1-story.md" in names and "game-1.record.json" not in names, "no seed nor commands while it runs"
    assert "Only" in (await t.command(bo, "game record")).text, "a player may not export a running game"
    await t.command(ann, "game abandon", reason="the group broke up")
    assert "the group broke up" in t.public()[-1].content
    asked = await t.command(bo, "game record")
    files = {n: d for m in asked.messages for n, d in m.files.items()}
    record = Record.model_validate(json.loads(files["game-1.record.json"]))
    final = record.final(cat)
    assert final.model_dump() == (await t.service.load_state(1)).model_dump()


async def test_the_player_option_is_resolved_as_discord_sends_it(table):
    """The harness sends a user option with its resolved member (else discord.py would hand the
    callback a bare Object and refuse the option)."""
    table.player(33, "Cy")
    data = table.command_data("game replace", {"seat": 2, "user": Player(33, "Cy")})
    (user,) = [o for o in data["options"][0]["options"] if o["name"] == "user"]
    assert user["value"] == "33" and data["resolved"]["members"]["33"]["roles"] == []
    assert data["resolved"]["users"]["33"]["global_name"] == "Cy"


async def test_advance_nudge_and_away_by_payloads(table):
    t = table
    ann, bo = await open_yard(t)
    assert "Only" in (await t.command(bo, "game advance")).text
    asked = await t.command(ann, "game advance")
    assert asked.ephemeral and "Advanced: 2 defaults applied" in asked.text
    st = await t.service.load_state(1)
    assert st.step != "place" or (st.forces["US-1"].planned and st.forces["DE-2"].planned)
    assert "advances the game" in texts(t.public())

    nudged = await t.command(bo, "game nudge")
    assert nudged.ephemeral and "Nudged" in nudged.text
    again = await t.command(ann, "game nudge")
    assert "was nudged" in again.text and STAMP.search(again.text), "rate-limited, with the next time shown"

    away = await t.command(bo, "me away", until="3d")
    assert away.ephemeral and "You are away until" in away.text and STAMP.search(away.text)
    assert "Welcome back" in (await t.command(bo, "me back")).text
    assert "were not away" in (await t.command(bo, "me back")).text


async def test_a_quiet_game_tells_its_players_by_dm_and_not_the_channel(table):
    t = table
    ann, bo = await open_yard(t)
    await t.command(ann, "game settings", quiet=True)
    in_channel = len(t.public())
    before = {who: len(t.dms(who)) for who in (ann, bo)}
    await t.command(ann, "game pause")
    assert len(t.public()) == in_channel, "nothing more in the channel"
    for who in (ann, bo):
        assert "pauses game #1" in texts(t.dms(who)[before[who]:]), who.name


async def test_help_answers_each_topic_for_the_caller_alone(table):
    t = table
    ann = t.player(11, "Ann")
    listing = await t.command(ann, "help")
    assert listing.ephemeral and "organisers" in listing.text
    asked = await t.command(ann, "help", topic="organisers")
    assert asked.ephemeral and "/game replace" in asked.text and not t.public()


async def test_extend_moves_one_seats_deadline_and_deadline_only_the_next_decisions(table):
    t = table
    ann, bo = await open_yard(t)
    rows = {(d.key, d.user_id): d.due for d in await t.store.deadlines(1)}
    await t.command(ann, "game extend", seat=2, hours=6.0)
    after = {(d.key, d.user_id): d.due for d in await t.store.deadlines(1)}
    moved = {k for k in rows if after.get(k) != rows[k]}
    assert moved and all(user == bo.id for _, user in moved), "only Bo's clock moved"
    expiry = [k for k in moved if k[0].startswith("expire:")]
    assert expiry and all(after[k] - rows[k] == timedelta(hours=6) for k in expiry)
    await t.command(ann, "game deadline", hours=12.0)
    assert {(d.key, d.user_id): d.due for d in await t.store.deadlines(1)} == after, "asked decisions keep theirs"
    assert "already" in (await t.command(ann, "game deadline", hours=12.0)).text
