"""The slash commands: `/game` (a game's life, its seats, clocks, watchers and record), `/hand`,
`/plan`, `/act` (with react, preempt, then, skip), `/board`, `/log`, `/soldier`, `/panel`
(`/help`, `/rules` and `/card` are in help_cog.py).

Each callback builds what the player said and hands it to a use-case; an `/act` command is
the script line of the same action (`/act move soldier:101 to:12A:cover face:e` is
`move 101 12A:cover face e`), so a script and a slash command say the same thing and reach the
engine as the same `engine.core.commands` model. Every command takes an optional `game` (with
autocomplete) for a channel with several games or a DM.

    tree.add_command(...) for each in commands(adapter)
"""
from __future__ import annotations

from typing import Literal, Optional

import discord
from discord import app_commands

from bot.discord.adapter import Adapter

Facing = Literal["n", "ne", "e", "se", "s", "sw", "w", "nw"]
Part = Literal["tag", "team", "note"]
Side = Literal["US", "DE"]

GAME_HELP = "the game's number (only needed where several games are going on, or in a DM)"
PART_HELP = "which part of the card: tag (dog tag), team (bubble) or note (narrator box)"


def _opt(word: str, value) -> list[str]:
    return [] if value is None or value is False else [word] + ([] if value is True else [str(value)])


def line(verb: str, *words, via: str | None = None) -> str:
    """A script line from its words, dropping the options left out."""
    return " ".join([*([via] if via else []), verb, *(str(w) for w in words if w not in (None, ""))])


def commands(adapter: Adapter) -> list[app_commands.Command | app_commands.Group]:
    """Every Fieldpost slash command, wired to `adapter`."""
    s = adapter.service

    # -------------------------------------------------------------- autocomplete

    async def ac_game(it: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        return [app_commands.Choice(name=c.name, value=int(c.value))
                for c in await adapter.suggest(it, "game", current)]

    def ns(it: discord.Interaction, key: str):
        return getattr(it.namespace, key, None)

    async def ac_scenario(it, current):
        return await adapter.suggest(it, "scenario", current)

    async def ac_label(it, current):
        return await adapter.suggest(it, "label", current, game=ns(it, "game"))

    async def ac_force(it, current):
        return await adapter.suggest(it, "force", current, game=ns(it, "game"))

    def ac_soldier(verb: str | None):
        async def complete(it, current):
            return await adapter.suggest(it, "soldier", current, game=ns(it, "game"), verb=verb)
        return complete

    def ac_target(verb: str):
        async def complete(it, current):
            return await adapter.suggest(it, "target", current, game=ns(it, "game"), verb=verb,
                                         soldier=ns(it, "soldier") or ns(it, "victim"))
        return complete

    async def ac_item(it, current):
        return await adapter.suggest(it, "item", current, game=ns(it, "game"), soldier=ns(it, "soldier"))

    async def ac_plate(it, current) -> list[app_commands.Choice[int]]:
        return [app_commands.Choice(name=c.name, value=int(c.value))
                for c in await adapter.suggest(it, "plate", current, game=ns(it, "game"))]

    async def ac_dest(it, current):
        return await adapter.suggest(it, "dest", current, game=ns(it, "game"), soldier=ns(it, "soldier"))

    def ac_card(phase: int | None = None):
        async def complete(it, current):
            return await adapter.suggest(it, "card", current, game=ns(it, "game"), phase=phase, deck=ns(it, "deck"))
        return complete

    async def ac_deck(it, current):
        return await adapter.suggest(it, "deck", current, game=ns(it, "game"))

    async def ac_seat(it, current) -> list[app_commands.Choice[int]]:
        return [app_commands.Choice(name=c.name, value=int(c.value))
                for c in await adapter.suggest(it, "seat", current, game=ns(it, "game"))]

    def ac_play(what: str):  # react / preempt cards, preempt targets and the men it names
        async def complete(it, current):
            return await adapter.suggest(it, what, current, game=ns(it, "game"), card=ns(it, "card"),
                                         target=ns(it, "target"))
        return complete

    def act(text: str):
        return lambda c, w: s.command(c, w, text)

    # -------------------------------------------------------------- /game

    game = app_commands.Group(name="game", description="Open, join, start and run a game",
                              guild_only=True)

    @game.command(name="new", description="Open a new game of a scenario in this channel")
    @app_commands.describe(scenario="the scenario to play", side="join a side yourself",
                           deadline_hours="hours each decision may take before its default applies (24)",
                           window_hours="hours a react or preempt chance waits before it is skipped "
                                        "(a tenth of the deadline, at most 2)")
    @app_commands.autocomplete(scenario=ac_scenario)
    async def game_new(it: discord.Interaction, scenario: str, side: Optional[Side] = None,
                       deadline_hours: Optional[app_commands.Range[float, 0.05, 720.0]] = None,
                       window_hours: Optional[app_commands.Range[float, 0.05, 720.0]] = None):
        await adapter.run(it, lambda c, w: s.new_game(c, w, scenario, side=side, deadline_hours=deadline_hours,
                                                      window_hours=window_hours),
                          name="game new")

    @game.command(name="join", description="Take a seat on a side (or move sides); in a running game, an open seat")
    @app_commands.describe(side="US or DE", game=GAME_HELP)
    @app_commands.autocomplete(game=ac_game)
    async def game_join(it: discord.Interaction, side: Side, game: Optional[int] = None):
        await adapter.run(it, lambda c, w: s.join(c, w, side), game=game, name="game join")

    @game.command(name="leave", description="Give up your seat (a running game's seat then plays its defaults)")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.autocomplete(game=ac_game)
    async def game_leave(it: discord.Interaction, game: Optional[int] = None):
        await adapter.run(it, s.leave, game=game, name="game leave")

    @game.command(name="forces", description="Pick your soldiers within the VP budget, or take the preset")
    @app_commands.describe(soldiers="dog tags, e.g. `101 104:sgt 108:g3`; leave out for the preset share",
                           artillery="fire missions to buy, e.g. `light-artillery medium-mortars`, or none",
                           barrages="secret plans `KIND TURN TILE [smoke]`, `;` between, e.g. `rockets 3 L9A`",
                           mines="minefields `TILE TOKENS`, `;` between, e.g. `24A gp gp`; tokens at gp fake booby",
                           game=GAME_HELP)
    @app_commands.autocomplete(soldiers=ac_force, game=ac_game)
    async def game_forces(it: discord.Interaction, soldiers: Optional[str] = None, artillery: Optional[str] = None,
                          barrages: Optional[str] = None, mines: Optional[str] = None, game: Optional[int] = None):
        await adapter.run(it, lambda c, w: s.choose_force(c, w, soldiers, artillery=artillery, barrages=barrages,
                                                          mines=mines), game=game, name="game forces")

    @game.command(name="start", description="Organiser: set the scenario up and deal")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.autocomplete(game=ac_game)
    async def game_start(it: discord.Interaction, game: Optional[int] = None):
        await adapter.run(it, s.start, game=game, name="game start")

    @game.command(name="status", description="The game at a glance: turn, phase, VP, whom it waits for")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.autocomplete(game=ac_game)
    async def game_status(it: discord.Interaction, game: Optional[int] = None):
        await adapter.run(it, s.status, game=game, name="game status")

    @game.command(name="undo", description="Take back your last command, if it revealed nothing")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.autocomplete(game=ac_game)
    async def game_undo(it: discord.Interaction, game: Optional[int] = None):
        await adapter.run(it, s.undo, game=game, name="game undo")

    @game.command(name="rollback", description="Organiser: go back to the start of an earlier phase")
    @app_commands.describe(phase="the phase to go back to, e.g. T2P1 (turn 2, phase 1)", game=GAME_HELP)
    @app_commands.autocomplete(phase=ac_label, game=ac_game)
    async def game_rollback(it: discord.Interaction, phase: str, game: Optional[int] = None):
        await adapter.run(it, lambda c, w: s.rollback(c, w, phase), game=game, name="game rollback")

    @game.command(name="always-pass", description="Never be asked to play react or preempt cards (on), or be asked (off)")
    @app_commands.describe(setting="on: every react and preempt chance is skipped for you; off: you are asked",
                           game=GAME_HELP)
    @app_commands.autocomplete(game=ac_game)
    async def game_always_pass(it: discord.Interaction, setting: Literal["on", "off"], game: Optional[int] = None):
        await adapter.run(it, act(f"alwayspass {setting}"), game=game, name="game always-pass")

    @game.command(name="reslot", description="Move one of your soldiers to another slot of his team panel")
    @app_commands.describe(soldier="your soldier on a team panel", slot="the panel slot (0 = the first)",
                           game=GAME_HELP)
    @app_commands.autocomplete(soldier=ac_soldier("reslot"), game=ac_game)
    async def game_reslot(it: discord.Interaction, soldier: str, slot: int, game: Optional[int] = None):
        await adapter.run(it, act(line("reslot", soldier, slot)), game=game, name="game reslot")

    @game.command(name="abandon", description="Organiser: end the game without a result")
    @app_commands.describe(reason="why (kept in the game's log and told to the table)", game=GAME_HELP)
    @app_commands.autocomplete(game=ac_game)
    async def game_abandon(it: discord.Interaction, reason: Optional[app_commands.Range[str, 1, 200]] = None,
                           game: Optional[int] = None):
        await adapter.run(it, lambda c, w: s.abandon(c, w, reason), game=game, name="game abandon")

    # -------------------------------------------------------------- /game: seats over time

    @game.command(name="replace", description="Organiser: another member takes over a seat, with its cards")
    @app_commands.describe(seat="the seat (suggested: number, player, side)", user="who plays it from now on",
                           reason="why (kept in the game's log)", game=GAME_HELP)
    @app_commands.autocomplete(seat=ac_seat, game=ac_game)
    async def game_replace(it: discord.Interaction, seat: app_commands.Range[int, 1, 4], user: discord.Member,
                           reason: Optional[app_commands.Range[str, 1, 200]] = None, game: Optional[int] = None):
        await adapter.run(it, lambda c, w: s.replace_player(c, w, seat - 1, user.id, user.display_name, reason),
                          game=game, name="game replace")

    @game.command(name="organiser", description="Organiser: hand the game's organiser role to another member")
    @app_commands.describe(user="who organises the game from now on", game=GAME_HELP)
    @app_commands.autocomplete(game=ac_game)
    async def game_organiser(it: discord.Interaction, user: discord.Member, game: Optional[int] = None):
        await adapter.run(it, lambda c, w: s.hand_over(c, w, user.id, user.display_name), game=game,
                          name="game organiser")

    # -------------------------------------------------------------- /game: clocks

    @game.command(name="pause", description="Organiser: stop every clock; nothing is played until resumed")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.autocomplete(game=ac_game)
    async def game_pause(it: discord.Interaction, game: Optional[int] = None):
        await adapter.run(it, s.stop_clocks, game=game, name="game pause")

    @game.command(name="resume", description="Organiser: the clocks run again with the time each had left")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.autocomplete(game=ac_game)
    async def game_resume(it: discord.Interaction, game: Optional[int] = None):
        await adapter.run(it, s.start_clocks, game=game, name="game resume")

    @game.command(name="deadline", description="Organiser: the time new decisions get (current ones keep theirs)")
    @app_commands.describe(hours="hours each new decision may take before its default applies",
                           window_hours="hours a react or preempt chance waits", game=GAME_HELP)
    @app_commands.autocomplete(game=ac_game)
    async def game_deadline(it: discord.Interaction, hours: app_commands.Range[float, 0.05, 720.0],
                            window_hours: Optional[app_commands.Range[float, 0.05, 720.0]] = None,
                            game: Optional[int] = None):
        await adapter.run(it, lambda c, w: s.set_deadline(c, w, hours, window_hours), game=game,
                          name="game deadline")

    @game.command(name="extend", description="Organiser: more time for one seat's current decision")
    @app_commands.describe(seat="the seat (suggested: number, player, side)", hours="hours to add", game=GAME_HELP)
    @app_commands.autocomplete(seat=ac_seat, game=ac_game)
    async def game_extend(it: discord.Interaction, seat: app_commands.Range[int, 1, 4],
                          hours: app_commands.Range[float, 0.05, 720.0], game: Optional[int] = None):
        await adapter.run(it, lambda c, w: s.extend(c, w, seat - 1, hours), game=game, name="game extend")

    @game.command(name="nudge", description="Remind everyone the game waits for, now (once an hour)")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.autocomplete(game=ac_game)
    async def game_nudge(it: discord.Interaction, game: Optional[int] = None):
        await adapter.run(it, s.nudge, game=game, name="game nudge")

    @game.command(name="advance", description="Organiser: apply the defaults of the decisions awaited now")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.autocomplete(game=ac_game)
    async def game_advance(it: discord.Interaction, game: Optional[int] = None):
        await adapter.run(it, s.advance, game=game, name="game advance")

    @game.command(name="settings", description="Organiser: a quiet channel; what an away player's clock does")
    @app_commands.describe(quiet="on: updates go to players and watchers by DM, not to the channel",
                           away="stretch: an away player's clock waits for his return; defaults: they apply",
                           game=GAME_HELP)
    @app_commands.autocomplete(game=ac_game)
    async def game_settings(it: discord.Interaction, quiet: Optional[bool] = None,
                            away: Optional[Literal["stretch", "defaults"]] = None, game: Optional[int] = None):
        await adapter.run(it, lambda c, w: s.configure(c, w, quiet=quiet, away=away), game=game,
                          name="game settings")

    # -------------------------------------------------------------- /game: watching and records

    @game.command(name="watch", description="Watch a game without a seat: its public updates by DM")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.autocomplete(game=ac_game)
    async def game_watch(it: discord.Interaction, game: Optional[int] = None):
        await adapter.run(it, s.watch, game=game, name="game watch")

    @game.command(name="unwatch", description="Stop watching a game")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.autocomplete(game=ac_game)
    async def game_unwatch(it: discord.Interaction, game: Optional[int] = None):
        await adapter.run(it, s.unwatch, game=game, name="game unwatch")

    @game.command(name="record", description="The game's record file and public story (organiser: a running game's story)")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.autocomplete(game=ac_game)
    async def game_record(it: discord.Interaction, game: Optional[int] = None):
        await adapter.run(it, s.record, game=game, name="game record")

    # -------------------------------------------------------------- /hand, /plan

    @app_commands.command(name="hand", description="Your hand, placed and held cards, orders (only you see it)")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.autocomplete(game=ac_game)
    async def hand(it: discord.Interaction, game: Optional[int] = None):
        async def both(c, w):
            r = await s.hand(c, w)
            asked = await s.prompts_for(c, w)
            r.prompts = asked.prompts  # the current choices again, in case a DM went missing
            return r
        await adapter.run(it, both, game=game, name="hand")

    @app_commands.command(name="plan", description="Place one card face down on each phase (change it until all have placed)")
    @app_commands.describe(phase1="card for phase 1 (- for none; CARD:action for a two-action card)",
                           phase2="card for phase 2", phase3="card for phase 3",
                           deck="which of your decks: squad or a vehicle's plate (only with vehicles)",
                           extra="officer's extra cards: PHASE=CARD, e.g. `2=101-C3` or `1=101-C3 3=102-C1`",
                           game=GAME_HELP)
    @app_commands.autocomplete(phase1=ac_card(0), phase2=ac_card(1), phase3=ac_card(2), deck=ac_deck,
                               extra=ac_card(), game=ac_game)
    async def plan(it: discord.Interaction, phase1: Optional[str] = None, phase2: Optional[str] = None,
                   phase3: Optional[str] = None, deck: Optional[str] = None, extra: Optional[str] = None,
                   game: Optional[int] = None):
        await adapter.run(it, lambda c, w: s.plan(c, w, [phase1, phase2, phase3], deck=deck, extra=extra),
                          game=game, name="plan")

    # -------------------------------------------------------------- /act: actions

    grp = app_commands.Group(name="act", description="Carry out your card's actions and answer the game's questions")

    @grp.command(name="move", description="Move a soldier to a tile, its cover, a cell x,y, or off the board")
    @app_commands.describe(soldier="your soldier", to="a tile (12A), its cover (12A:cover), a cell (x,y) or exit AREA",
                           face="facing at the end", release="let his prisoner go",
                           take="a prisoner he escorts along", via=PART_HELP, game=GAME_HELP)
    @app_commands.autocomplete(soldier=ac_soldier("move"), to=ac_dest, take=ac_soldier(None), game=ac_game)
    async def act_move(it: discord.Interaction, soldier: str, to: str, face: Optional[Facing] = None,
                       release: Optional[bool] = None, take: Optional[str] = None,
                       via: Optional[Part] = None, game: Optional[int] = None):
        text = line("move", soldier, to, *_opt("face", face), *_opt("release", release), *_opt("take", take), via=via)
        await adapter.run(it, act(text), game=game, name="act move")

    @grp.command(name="charge", description="Charge an enemy: a straight move into combat")
    @app_commands.describe(soldier="your soldier", target="the enemy", via=PART_HELP, game=GAME_HELP)
    @app_commands.autocomplete(soldier=ac_soldier("charge"), target=ac_target("charge"), game=ac_game)
    async def act_charge(it: discord.Interaction, soldier: str, target: str, via: Optional[Part] = None,
                         game: Optional[int] = None):
        await adapter.run(it, act(line("charge", soldier, target, via=via)), game=game, name="act charge")

    @grp.command(name="face", description="Turn a soldier to face a direction")
    @app_commands.describe(soldier="your soldier", direction="n ne e se s sw w nw", via=PART_HELP, game=GAME_HELP)
    @app_commands.autocomplete(soldier=ac_soldier("face"), game=ac_game)
    async def act_face(it: discord.Interaction, soldier: str, direction: Facing, via: Optional[Part] = None,
                       game: Optional[int] = None):
        await adapter.run(it, act(line("face", soldier, direction, via=via)), game=game, name="act face")

    @grp.command(name="sight", description="Sight the closest unspotted enemy")
    @app_commands.describe(soldier="your soldier", target="only when the rules give a choice", via=PART_HELP,
                           game=GAME_HELP)
    @app_commands.autocomplete(soldier=ac_soldier("sight"), target=ac_target("sight"), game=ac_game)
    async def act_sight(it: discord.Interaction, soldier: str, target: Optional[str] = None,
                        via: Optional[Part] = None, game: Optional[int] = None):
        await adapter.run(it, act(line("sight", soldier, target, via=via)), game=game, name="act sight")

    @grp.command(name="cover", description="Take cover (lose the Spotted marker if the HIDE check passes)")
    @app_commands.describe(soldier="your soldier", via=PART_HELP, game=GAME_HELP)
    @app_commands.autocomplete(soldier=ac_soldier("cover"), game=ac_game)
    async def act_cover(it: discord.Interaction, soldier: str, via: Optional[Part] = None, game: Optional[int] = None):
        await adapter.run(it, act(line("cover", soldier, via=via)), game=game, name="act cover")

    @grp.command(name="rally", description="Rally a pinned soldier (himself first if he is pinned)")
    @app_commands.describe(soldier="your soldier", target="the pinned soldier", via=PART_HELP, game=GAME_HELP)
    @app_commands.autocomplete(soldier=ac_soldier("rally"), target=ac_target("rally"), game=ac_game)
    async def act_rally(it: discord.Interaction, soldier: str, target: str, via: Optional[Part] = None,
                        game: Optional[int] = None):
        await adapter.run(it, act(line("rally", soldier, target, via=via)), game=game, name="act rally")

    @grp.command(name="hold", description="Hold cards from your hand under a soldier")
    @app_commands.describe(soldier="your soldier", cards="card ids, separated by spaces", via=PART_HELP,
                           game=GAME_HELP)
    @app_commands.autocomplete(soldier=ac_soldier("hold"), cards=ac_card(), game=ac_game)
    async def act_hold(it: discord.Interaction, soldier: str, cards: str, via: Optional[Part] = None,
                       game: Optional[int] = None):
        await adapter.run(it, act(line("hold", soldier, cards, via=via)), game=game, name="act hold")

    @grp.command(name="draw", description="Draw cards")
    @app_commands.describe(soldier="your soldier", via=PART_HELP, game=GAME_HELP)
    @app_commands.autocomplete(soldier=ac_soldier("draw"), game=ac_game)
    async def act_draw(it: discord.Interaction, soldier: str, via: Optional[Part] = None, game: Optional[int] = None):
        await adapter.run(it, act(line("draw", soldier, via=via)), game=game, name="act draw")

    @grp.command(name="shoot", description="Shoot at a spotted enemy")
    @app_commands.describe(soldier="your soldier", target="a spotted enemy in his arc", via=PART_HELP,
                           game=GAME_HELP)
    @app_commands.autocomplete(soldier=ac_soldier("shoot"), target=ac_target("shoot"), game=ac_game)
    async def act_shoot(it: discord.Interaction, soldier: str, target: str, via: Optional[Part] = None,
                        game: Optional[int] = None):
        await adapter.run(it, act(line("shoot", soldier, target, via=via)), game=game, name="act shoot")

    @grp.command(name="toss", description="Toss a grenade, or use equipment: smoke, rifle grenade, rocket")
    @app_commands.describe(soldier="your soldier", target="a spotted enemy (or vehicle, for a rocket)",
                           at="move the blast to cell x,y; with item: where the smoke lands",
                           item="equipment to use instead of a grenade (the script's `use` line)",
                           via=PART_HELP, game=GAME_HELP)
    @app_commands.autocomplete(soldier=ac_soldier("toss"), target=ac_target("toss"), item=ac_item, game=ac_game)
    async def act_toss(it: discord.Interaction, soldier: str, target: Optional[str] = None,
                       at: Optional[str] = None, item: Optional[str] = None,
                       via: Optional[Part] = None, game: Optional[int] = None):
        if item:  # equipment goes by the `use` line: a target, or a cell for smoke
            aim = [target] if target else ["at", at or ""]
            text = line("use", soldier, item, *aim, via=via)
        else:
            text = line("toss", soldier, target or "", *_opt("at", at), via=via)
        await adapter.run(it, act(text), game=game, name="act toss")

    @grp.command(name="done", description="Finish the part of the card in use")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.autocomplete(game=ac_game)
    async def act_done(it: discord.Interaction, game: Optional[int] = None):
        await adapter.run(it, act("done"), game=game, name="act done")

    @grp.command(name="pass", description="Finish the whole card: whatever is left goes unused")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.autocomplete(game=ac_game)
    async def act_pass(it: discord.Interaction, game: Optional[int] = None):
        await adapter.run(it, act("pass"), game=game, name="act pass")

    # -------------------------------------------------------------- /act: the game's questions

    @grp.command(name="hitplus", description="After a Hit+: where the next hit goes")
    @app_commands.describe(target="the soldier the burst moves to", game=GAME_HELP)
    @app_commands.autocomplete(target=ac_target("hitplus"), game=ac_game)
    async def act_hitplus(it: discord.Interaction, target: str, game: Optional[int] = None):
        await adapter.run(it, act(line("hitplus", target)), game=game, name="act hitplus")

    @grp.command(name="fight", description="Play a fight card against an enemy in the fight")
    @app_commands.describe(card="one of your fight cards", target="the enemy", game=GAME_HELP)
    @app_commands.autocomplete(card=ac_card(), target=ac_target("fight"), game=ac_game)
    async def act_fight(it: discord.Interaction, card: str, target: str, game: Optional[int] = None):
        await adapter.run(it, act(line("fight", card, target)), game=game, name="act fight")

    @grp.command(name="capture", description="At the end of a fight: take the loser prisoner")
    @app_commands.describe(victim="the defeated enemy", escort="who escorts him", game=GAME_HELP)
    @app_commands.autocomplete(victim=ac_soldier("capture"), escort=ac_target("capture"), game=ac_game)
    async def act_capture(it: discord.Interaction, victim: str, escort: Optional[str] = None,
                          game: Optional[int] = None):
        await adapter.run(it, act(line("capture", victim, *_opt("by", escort))), game=game, name="act capture")

    @grp.command(name="kill", description="At the end of a fight: kill the loser instead")
    @app_commands.describe(victim="the defeated enemy", game=GAME_HELP)
    @app_commands.autocomplete(victim=ac_soldier("kill"), game=ac_game)
    async def act_kill(it: discord.Interaction, victim: str, game: Optional[int] = None):
        await adapter.run(it, act(line("kill", victim)), game=game, name="act kill")

    @grp.command(name="declare", description="Say which action a two-action card is used for")
    @app_commands.describe(card="the card", action="look, hide, move or shoot", game=GAME_HELP)
    @app_commands.autocomplete(card=ac_card(), game=ac_game)
    async def act_declare(it: discord.Interaction, card: str, action: Literal["look", "hide", "move", "shoot"],
                          game: Optional[int] = None):
        await adapter.run(it, act(line("declare", card, action)), game=game, name="act declare")

    # `/act keep` lives on as `/act unhold` without cards: /act has room for 25 subcommands only
    @grp.command(name="unhold", description="Take held cards back into your hand (no cards: keep them all held)")
    @app_commands.describe(cards="card ids, separated by spaces; leave out to keep every held card where it is",
                           game=GAME_HELP)
    @app_commands.autocomplete(cards=ac_card(), game=ac_game)
    async def act_unhold(it: discord.Interaction, cards: Optional[str] = None, game: Optional[int] = None):
        text = line("unhold", cards) if cards and cards.strip() else "keep"
        await adapter.run(it, act(text), game=game, name="act unhold")

    @grp.command(name="pay", description="Pay a red narrator box's cost with cards from your hand")
    @app_commands.describe(cards="card ids, separated by spaces", game=GAME_HELP)
    @app_commands.autocomplete(cards=ac_card(), game=ac_game)
    async def act_pay(it: discord.Interaction, cards: str, game: Optional[int] = None):
        await adapter.run(it, act(line("pay", cards)), game=game, name="act pay")

    @grp.command(name="decline", description="Refuse a red narrator box's cost: the card is cancelled")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.autocomplete(game=ac_game)
    async def act_decline(it: discord.Interaction, game: Optional[int] = None):
        await adapter.run(it, act("decline"), game=game, name="act decline")

    @grp.command(name="stay", description="A released prisoner stays where he is")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.autocomplete(game=ac_game)
    async def act_stay(it: discord.Interaction, game: Optional[int] = None):
        await adapter.run(it, act("stay"), game=game, name="act stay")

    # -------------------------------------------------------------- /act: react and preempt cards

    @grp.command(name="react", description="Play a react card after the enemy's action")
    @app_commands.describe(card="one of your live react cards", game=GAME_HELP)
    @app_commands.autocomplete(card=ac_play("react"), game=ac_game)
    async def act_react(it: discord.Interaction, card: str, game: Optional[int] = None):
        await adapter.run(it, act(line("react", card)), game=game, name="act react")

    @grp.command(name="preempt", description="Preempt an enemy card just revealed: the men you name act first")
    @app_commands.describe(card="one of your live preempt cards", target="the enemy card revealed for this phase",
                           soldiers="the enemy men who must act first: dog tags, separated by spaces",
                           game=GAME_HELP)
    @app_commands.autocomplete(card=ac_play("preempt"), target=ac_play("preempt-target"),
                               soldiers=ac_play("preempt-men"), game=ac_game)
    async def act_preempt(it: discord.Interaction, card: str, target: str, soldiers: str,
                          game: Optional[int] = None):
        await adapter.run(it, act(line("preempt", card, target, soldiers)), game=game, name="act preempt")

    @grp.command(name="then", description="Follow your preempt up: one of your soldiers acts against a named man")
    @app_commands.describe(soldier="your soldier", target="one of the enemy men your preempt named", game=GAME_HELP)
    @app_commands.autocomplete(soldier=ac_soldier("then"), target=ac_target("then"), game=ac_game)
    async def act_then(it: discord.Interaction, soldier: str, target: str, game: Optional[int] = None):
        await adapter.run(it, act(line("then", soldier, target)), game=game, name="act then")

    @grp.command(name="skip", description="Let a react or preempt chance (or a preempt's follow-up) go by")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.autocomplete(game=ac_game)
    async def act_skip(it: discord.Interaction, game: Optional[int] = None):
        await adapter.run(it, act("skip"), game=game, name="act skip")

    # -------------------------------------------------------------- /board, /log, /soldier, /panel

    @app_commands.command(name="board", description="The board: yours (with your secrets) or posted for all")
    @app_commands.describe(post="post the public board in the channel instead", game=GAME_HELP)
    @app_commands.autocomplete(game=ac_game)
    async def board(it: discord.Interaction, post: Optional[bool] = None, game: Optional[int] = None):
        await adapter.run(it, lambda c, w: s.board(c, w, post=bool(post)), game=game, name="board")

    @app_commands.command(name="log", description="What happened since you last looked (or the last moves)")
    @app_commands.describe(last="show the last N lines instead", game=GAME_HELP)
    @app_commands.autocomplete(game=ac_game)
    async def log(it: discord.Interaction, last: Optional[app_commands.Range[int, 1, 200]] = None,
                  game: Optional[int] = None):
        await adapter.run(it, lambda c, w: s.history(c, w, last=last), game=game, name="log")

    @app_commands.command(name="soldier", description="A soldier's card: ratings, state, markers")
    @app_commands.describe(soldier="dog tag or name", game=GAME_HELP)
    @app_commands.autocomplete(soldier=ac_soldier("any"), game=ac_game)
    async def soldier(it: discord.Interaction, soldier: str, game: Optional[int] = None):
        await adapter.run(it, lambda c, w: s.soldier(c, w, soldier), game=game, name="soldier")

    @app_commands.command(name="panel", description="A vehicle's or gun's panel: crew, damage, ammunition, markers")
    @app_commands.describe(plate="its license plate, e.g. 601", game=GAME_HELP)
    @app_commands.autocomplete(plate=ac_plate, game=ac_game)
    async def panel(it: discord.Interaction, plate: app_commands.Range[int, 1, 99999], game: Optional[int] = None):
        await adapter.run(it, lambda c, w: s.panel(c, w, plate), game=game, name="panel")

    return [game, hand, plan, grp, board, log, soldier, panel]
