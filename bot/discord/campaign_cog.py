"""`/campaign`: campaigns on Discord, each subcommand a few lines that parse, call a use-case
of `bot.app.campaign.CampaignService`, and send (docs/campaigns.md).

    tree.add_command(campaign_group(CampaignService(store, catalog)))

Every answer to the caller is ephemeral; what the table should see (a new campaign, a player
joining, a confirmed result, a public roster or service record, the standings) is posted in
the channel. A player's own roster and his soldiers' records come with their VP, privately;
the public versions have none.
"""
from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable
from typing import Literal

import discord
from discord import app_commands

from bot.app.campaign import CampaignImage, CampaignReplies, CampaignService
from bot.app.errors import Refused
from bot.app.replies import Caller, Where
from bot.discord.courier import shown
from bot.render.service_record import render_service_record_png
from bot.render.standings import render_standings_png
from engine.campaign import AWARDS

log = logging.getLogger(__name__)

MESSAGE_LIMIT = 2000
CAMPAIGN_HELP = "the campaign's number (only needed where several campaigns run)"
RESULT_HELP = "the result's number (default: the latest)"
Side = Literal["US", "DE"]
StatusWord = Literal["fit", "wounded", "captured", "missing", "killed", "workshop", "lost"]
CrewRule = Literal["stay_home", "cross_trained", "untrained"]
AWARD_CHOICES = [app_commands.Choice(name=f"{a.category}: {a.names['US']} / {a.names['DE']}"[:100], value=a.id)
                 for a in AWARDS]

UseCase = Callable[[Caller, Where], Awaitable[CampaignReplies]]


def caller(it: discord.Interaction) -> Caller:
    """Who is calling; an organiser is anyone who may manage the channel (or the creator)."""
    perms = it.permissions
    organiser = it.guild_id is not None and bool(perms and perms.manage_channels)
    user = it.user
    return Caller(user.id, getattr(user, "display_name", None) or user.name, organiser=organiser)


def where(it: discord.Interaction, campaign: int | None = None) -> Where:
    """The campaign named, else the channel (a thread is its own place) it was asked in."""
    channel = it.channel
    thread = channel.id if isinstance(channel, discord.Thread) else None
    parent = channel.parent_id if isinstance(channel, discord.Thread) else it.channel_id
    return Where(channel_id=parent, thread_id=thread, game_id=campaign, guild_id=it.guild_id or 0)


def chunks(lines: list[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """Messages of at most `limit` characters, breaking between lines (a long line is cut)."""
    out: list[str] = []
    current = ""
    for text in lines:
        for line in text.split("\n"):
            line = line if len(line) <= limit else line[: limit - 1] + "…"
            if current and len(current) + 1 + len(line) > limit:
                out.append(current)
                current = line
            else:
                current = f"{current}\n{line}" if current else line
    if current:
        out.append(current)
    return out


async def picture(image: CampaignImage) -> discord.File:
    draw = render_service_record_png if image.kind == "service_record" else render_standings_png
    data = await asyncio.to_thread(draw, image.view)
    return discord.File(io.BytesIO(data), filename=f"{image.kind}.png", description=image.caption[:100])


async def deliver(it: discord.Interaction, r: CampaignReplies) -> None:
    """Public lines and pictures to the channel, the rest to the caller alone."""
    public_files = [await picture(i) for i in r.images]
    if r.public or public_files:
        messages = chunks([shown(line) for line in r.public]) or [""]
        channel = it.channel
        for k, text in enumerate(messages):
            await channel.send(text or None, files=public_files if k == len(messages) - 1 else [])
    files = [await picture(i) for i in r.ephemeral_images]
    files += [discord.File(io.BytesIO(a.data), filename=a.filename) for a in r.files]
    private = chunks([shown(line) for line in r.ephemeral]) or ["Done; posted in the channel." if r.public else "Done."]
    for k, text in enumerate(private):
        await it.followup.send(text, ephemeral=True, files=files if k == len(private) - 1 else [])


async def run(it: discord.Interaction, call: UseCase, *, campaign: int | None = None) -> CampaignReplies | None:
    """Defer (ephemerally), run the use-case, deliver; a refusal is told to the caller only. A bug
    goes on to the tree's error handler (bot.discord.error_report): an apology with an error id."""
    if not it.response.is_done():
        await it.response.defer(ephemeral=True, thinking=True)
    try:
        replies = await call(caller(it), where(it, campaign))
    except Refused as exc:
        await it.followup.send(chunks([shown(str(exc))])[0], ephemeral=True)
        return None
    await deliver(it, replies)
    return replies


def campaign_group(service: CampaignService, games=None, courier=None) -> app_commands.Group:
    """The `/campaign` command group, wired to `service`; with the bot's GameService and its
    Courier it also gets `/campaign play`, which starts the next scenario as a live game."""
    s = service
    group = app_commands.Group(name="campaign", description="Campaigns: rosters, medals and promotions across "
                                                           "scenarios", guild_only=True)

    # ------------------------------------------------------------------ autocomplete

    async def ac_campaign(it: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        try:
            found = await s.campaigns_here(where(it))
        except Exception:
            log.exception("campaign autocomplete failed")
            return []
        typed = current.strip().lower()
        return [app_commands.Choice(name=f"#{c.id} {c.name} ({c.status.value})"[:100], value=c.id)
                for c in reversed(found) if typed in f"{c.id} {c.name}".lower()][:25]

    async def ac_definition(it: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        typed = current.strip().lower()
        return [app_commands.Choice(name=f"{d.name} ({len(d.steps)} scenarios)"[:100], value=d.id)
                for d in s.definitions.values() if typed in f"{d.id} {d.name}".lower()][:25]

    async def ac_soldier(it: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            st = await s.load_state(where(it, getattr(it.namespace, "campaign", None)))
        except Refused:  # no campaign here yet
            return []
        except Exception:
            log.exception("soldier autocomplete failed")
            return []
        typed = current.strip().lower()
        out = []
        for p in st.players:
            for e in p.roster:
                label = f"{e.name} ({e.serial}) — {p.name}, {e.status.value}"
                if typed in label.lower():
                    out.append(app_commands.Choice(name=label[:100], value=str(e.serial)))
        return out[:25]

    async def ac_step(it: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            st = await s.load_state(where(it, getattr(it.namespace, "campaign", None)))
            cdef = s.definitions[st.definition]
        except Refused:
            return []
        except Exception:
            log.exception("step autocomplete failed")
            return []
        options = st.choice.options if st.choice else []
        return [app_commands.Choice(name=f"{cdef.step(o).title or o} ({o})"[:100], value=o) for o in options][:25]

    # ------------------------------------------------------------------ commands

    if games is not None and courier is not None:
        @group.command(name="play", description="Organiser: start the next scenario here as a game")
        @app_commands.describe(campaign=CAMPAIGN_HELP)
        @app_commands.autocomplete(campaign=ac_campaign)
        async def play(it: discord.Interaction, campaign: int | None = None):
            async def start(c, w):
                prepared_replies, prepared = await s.prepare(c, w)
                game_where = Where(channel_id=it.channel_id, guild_id=it.guild_id or 0)
                await courier.deliver(await games.new_campaign_game(c, game_where, prepared))
                return prepared_replies
            await run(it, start, campaign=campaign)

    @group.command(name="new", description="Open a campaign in this channel; you organise it")
    @app_commands.describe(definition="the campaign to run", name="a name of your own for it")
    @app_commands.autocomplete(definition=ac_definition)
    async def new(it: discord.Interaction, definition: str, name: str | None = None):
        await run(it, lambda c, w: s.new(c, w, definition, name=name))

    @group.command(name="join", description="Join a side; its company is shared among its players")
    @app_commands.describe(side="US or DE", campaign=CAMPAIGN_HELP)
    @app_commands.autocomplete(campaign=ac_campaign)
    async def join(it: discord.Interaction, side: Side, campaign: int | None = None):
        await run(it, lambda c, w: s.join(c, w, side), campaign=campaign)

    @group.command(name="status", description="The next scenario, budgets, who has picked, what waits")
    @app_commands.describe(campaign=CAMPAIGN_HELP)
    @app_commands.autocomplete(campaign=ac_campaign)
    async def status(it: discord.Interaction, campaign: int | None = None):
        await run(it, s.status, campaign=campaign)

    @group.command(name="roster", description="Your roster with VP (privately), or a player's without")
    @app_commands.describe(player="another player's name", public="post the public version (no VP) here",
                           campaign=CAMPAIGN_HELP)
    @app_commands.autocomplete(campaign=ac_campaign)
    async def roster(it: discord.Interaction, player: str | None = None, public: bool = False,
                     campaign: int | None = None):
        await run(it, lambda c, w: s.roster(c, w, player, public=public), campaign=campaign)

    @group.command(name="soldier", description="A soldier's service record (his VP only for his own player)")
    @app_commands.describe(soldier="dog tag or name", public="post it here without VP", campaign=CAMPAIGN_HELP)
    @app_commands.autocomplete(soldier=ac_soldier, campaign=ac_campaign)
    async def soldier(it: discord.Interaction, soldier: str, public: bool = False, campaign: int | None = None):
        await run(it, lambda c, w: s.soldier(c, w, soldier, public=public), campaign=campaign)

    @group.command(name="pick", description="Choose your force for the next scenario from your roster")
    @app_commands.describe(soldiers="dog tags and plates, e.g. `101 109:g6 601:AP6:gunner=153`; leave out: "
                                    "chosen for you",
                           campaign=CAMPAIGN_HELP)
    @app_commands.autocomplete(campaign=ac_campaign)
    async def pick(it: discord.Interaction, soldiers: str | None = None, campaign: int | None = None):
        await run(it, lambda c, w: s.pick(c, w, soldiers), campaign=campaign)

    @group.command(name="enlist", description="A recruit from the depot fills an open place on a roster")
    @app_commands.describe(soldier="dog tag or name (default: the next in the depot)",
                           player="organiser: enlist for this player", campaign=CAMPAIGN_HELP)
    @app_commands.autocomplete(campaign=ac_campaign)
    async def enlist(it: discord.Interaction, soldier: str | None = None, player: str | None = None,
                     campaign: int | None = None):
        await run(it, lambda c, w: s.enlist(c, w, soldier, player=player), campaign=campaign)

    @group.command(name="choose", description="Winners: choose where the campaign goes next")
    @app_commands.describe(step="the branch to take", campaign=CAMPAIGN_HELP)
    @app_commands.autocomplete(step=ac_step, campaign=ac_campaign)
    async def choose(it: discord.Interaction, step: str, campaign: int | None = None):
        await run(it, lambda c, w: s.choose(c, w, step), campaign=campaign)

    def result_command(name: str, description: str, call):
        @app_commands.describe(result=RESULT_HELP, campaign=CAMPAIGN_HELP)
        @app_commands.autocomplete(campaign=ac_campaign)
        async def callback(it: discord.Interaction, result: int | None = None, campaign: int | None = None):
            await run(it, lambda c, w: call(c, w, result), campaign=campaign)

        group.add_command(app_commands.Command(name=name, description=description, callback=callback,
                                               parent=group))

    result_command("review", "What a pending result would do to the rosters", s.review)
    result_command("confirm", "Organiser: apply a pending result to the rosters", s.confirm)
    result_command("revert", "Organiser: take the last confirmed result back, exactly", s.revert)
    result_command("reject", "Organiser: throw a pending result out", s.reject)

    @group.command(name="award", description="Organiser: a medal or badge for a soldier, with a citation")
    @app_commands.describe(soldier="dog tag or name", award="the medal or badge (US / German name)",
                           citation="what he did", campaign=CAMPAIGN_HELP)
    @app_commands.choices(award=AWARD_CHOICES)
    @app_commands.autocomplete(soldier=ac_soldier, campaign=ac_campaign)
    async def award(it: discord.Interaction, soldier: str, award: str, citation: str,
                    campaign: int | None = None):
        await run(it, lambda c, w: s.award(c, w, soldier, award, citation), campaign=campaign)

    @group.command(name="promote", description="Organiser: promote a leader one rank")
    @app_commands.describe(soldier="dog tag or name", citation="why", campaign=CAMPAIGN_HELP)
    @app_commands.autocomplete(soldier=ac_soldier, campaign=ac_campaign)
    async def promote(it: discord.Interaction, soldier: str, citation: str | None = None,
                      campaign: int | None = None):
        await run(it, lambda c, w: s.promote(c, w, soldier, citation or ""), campaign=campaign)

    @group.command(name="crews", description="Organiser: who fills a vehicle's empty driver's or gunner's seat")
    @app_commands.describe(rule="stay_home, cross_trained (crew of that vehicle) or untrained (any of your men)",
                           campaign=CAMPAIGN_HELP)
    @app_commands.autocomplete(campaign=ac_campaign)
    async def crews(it: discord.Interaction, rule: CrewRule, campaign: int | None = None):
        await run(it, lambda c, w: s.crews(c, w, rule), campaign=campaign)

    @group.command(name="mark", description="Organiser: correct a status (treated, exchanged, missing)")
    @app_commands.describe(soldier="dog tag, plate or name", status="his (its) status now", note="why",
                           campaign=CAMPAIGN_HELP)
    @app_commands.autocomplete(soldier=ac_soldier, campaign=ac_campaign)
    async def mark(it: discord.Interaction, soldier: str, status: StatusWord, note: str | None = None,
                   campaign: int | None = None):
        await run(it, lambda c, w: s.mark(c, w, soldier, status, note or ""), campaign=campaign)

    @group.command(name="standings", description="VP per player over the scenarios, with a chart")
    @app_commands.describe(campaign=CAMPAIGN_HELP)
    @app_commands.autocomplete(campaign=ac_campaign)
    async def standings(it: discord.Interaction, campaign: int | None = None):
        await run(it, s.standings, campaign=campaign)

    @group.command(name="history", description="The campaign's results and the organiser's acts, in order")
    @app_commands.describe(campaign=CAMPAIGN_HELP)
    @app_commands.autocomplete(campaign=ac_campaign)
    async def history(it: discord.Interaction, campaign: int | None = None):
        await run(it, s.history, campaign=campaign)

    @group.command(name="export", description="JSON and CSV files (organiser: all; a player: his roster)")
    @app_commands.describe(campaign=CAMPAIGN_HELP)
    @app_commands.autocomplete(campaign=ac_campaign)
    async def export(it: discord.Interaction, campaign: int | None = None):
        await run(it, s.export, campaign=campaign)

    @group.command(name="import", description="A new campaign in this channel from an exported JSON file")
    @app_commands.describe(file="the .json file from /campaign export")
    async def import_(it: discord.Interaction, file: discord.Attachment):
        async def call(c: Caller, w: Where) -> CampaignReplies:
            if file.size > 8 * 1024 * 1024:
                raise Refused("That file is too big for a campaign export.")
            data = await file.read()
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                raise Refused("That file is not a JSON text file.") from None
            return await s.import_json(c, w, text)

        await run(it, call)

    return group


__all__ = ["campaign_group", "chunks", "deliver", "run"]
