"""`/field`: the vehicle book's battlefield (issue 9), one subcommand per line of the script's
BATTLEFIELD_GRAMMAR (`/act` is at Discord's 25-subcommand cap).

Each command is the script line of its verb and reaches the engine by the same use-case as
`/act` (`GameService.command`): `/field call actor:104 kind:mortar-81 tile:12A` is
`call 104 mortar-81 12A`, `/field adjust actor:104 letter:B via:tag` is `tag adjust 104 B`.
Options suggest what the engine would accept now (the legal commands); artillery kinds and
letters fall back on the caller's own ordnance and calls, which only he is shown (autocomplete
answers only the one typing).

    tree.add_command(field_group(adapter))
"""
from __future__ import annotations

from typing import Literal, Optional

import discord
from discord import app_commands

from bot.discord.adapter import Adapter
from bot.discord.commands import GAME_HELP, PART_HELP, Part, line

ACTOR_HELP = "your radio operator's dog tag, or the plate of a vehicle with a radio"
SOLDIER_HELP = "your soldier (dog tag or name)"
Compartment = Literal["hull", "turret", "cabin"]

# /field subcommand -> script verb (all the same word today; kept like /vehicle's VERBS)
VERBS: dict[str, str] = {}


def field_group(adapter: Adapter) -> app_commands.Group:
    """The `/field` group, wired to `adapter`."""
    s = adapter.service
    grp = app_commands.Group(name="field", description="The battlefield: artillery, close combat on tanks, "
                                                       "smoke, equipment hand-offs, mines")

    def ns(it: discord.Interaction, key: str):
        return getattr(it.namespace, key, None)

    def actor_of(it: discord.Interaction):
        return ns(it, "actor") or ns(it, "soldier")

    def ac_actor(verb: str):
        async def complete(it: discord.Interaction, current: str):
            return await adapter.suggest(it, f"field:{verb}:serial", current, game=ns(it, "game"))
        return complete

    def ac(verb: str, field: str):
        async def complete(it: discord.Interaction, current: str):
            return await adapter.suggest(it, f"field:{verb}:{field}", current, game=ns(it, "game"),
                                         soldier=actor_of(it))
        return complete

    async def ac_game(it: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        return [app_commands.Choice(name=c.name, value=int(c.value))
                for c in await adapter.suggest(it, "game", current)]

    def run(it: discord.Interaction, sub: str, words: list, game: int | None, via: str | None = None):
        text = line(VERBS.get(sub, sub), *words, via=via)
        return adapter.run(it, lambda c, w: s.command(c, w, text), game=game, name=f"field {sub}")

    @grp.command(name="assail", description="In an enemy vehicle's tile: the compartment your soldier attacks")
    @app_commands.describe(soldier=SOLDIER_HELP, plate="the enemy vehicle's plate", part="hull, turret or cabin",
                           grenade="drop a grenade in instead of shooting", game=GAME_HELP)
    @app_commands.autocomplete(soldier=ac_actor("assail"), plate=ac("assail", "plate"), game=ac_game)
    async def f_assail(it: discord.Interaction, soldier: str, plate: str, part: Compartment,
                       grenade: Optional[bool] = None, game: Optional[int] = None):
        await run(it, "assail", [soldier, plate, part, "grenade" if grenade else None], game)

    @grp.command(name="climb", description="(MOVE) Climb onto an enemy vehicle's deck (or turret) to fight at its hatches")
    @app_commands.describe(soldier=SOLDIER_HELP, plate="the enemy vehicle's plate (he walks to it if need be)",
                           turret="on up onto its turret rather than the hull deck", via=PART_HELP, game=GAME_HELP)
    @app_commands.autocomplete(soldier=ac_actor("climb"), plate=ac("climb", "plate"), game=ac_game)
    async def f_climb(it: discord.Interaction, soldier: str, plate: str, turret: Optional[bool] = None,
                      via: Optional[Part] = None, game: Optional[int] = None):
        await run(it, "climb", [soldier, plate, "turret" if turret else None], game, via)

    @grp.command(name="call", description="After radio contact: call artillery you bought onto a tile")
    @app_commands.describe(actor=ACTOR_HELP, kind="the artillery (your ordnance is suggested)",
                           tile="the tile it falls on (spotted, in his sight)",
                           fake="a bluff: a marker pair that never fires",
                           smoke="smoke instead of shells: 3x smoke on the tile (3 blast checks or more)",
                           relay="a friendly radio (dog tag or plate) to pass the call on, when his set cannot reach",
                           game=GAME_HELP)
    @app_commands.autocomplete(actor=ac_actor("call"), kind=ac("call", "kind"), tile=ac("call", "tile"),
                               relay=ac("call", "relay"), game=ac_game)
    async def f_call(it: discord.Interaction, actor: str, kind: str, tile: str, fake: Optional[bool] = None,
                     smoke: Optional[bool] = None, relay: Optional[str] = None, game: Optional[int] = None):
        await run(it, "call", [actor, kind, tile, "fake" if fake else None, "smoke" if smoke else None,
                               *(["relay", relay] if relay else [])], game)

    @grp.command(name="adjust", description="A Sight for one of your artillery calls: its marker climbs a row")
    @app_commands.describe(actor=ACTOR_HELP, letter="the call's letter (only you see your letters)",
                           order="On Target: dog tags of men in the tile, in the order they draw (e.g. 2,4)",
                           via=PART_HELP, game=GAME_HELP)
    @app_commands.autocomplete(actor=ac_actor("adjust"), letter=ac("adjust", "letter"), order=ac("adjust", "order"),
                               game=ac_game)
    async def f_adjust(it: discord.Interaction, actor: str, letter: str, order: Optional[str] = None,
                       via: Optional[Part] = None, game: Optional[int] = None):
        await run(it, "adjust", [actor, letter, *(["order", order] if order else [])], game, via)

    @grp.command(name="barrage", description="Plan heavy artillery or rockets in secret for a turn on a landmark")
    @app_commands.describe(kind="heavy artillery or rockets you bought", turn="the turn it falls at the start of",
                           tile="the landmark tile (e.g. L5A)", smoke="smoke instead of shells: 3x smoke on it",
                           game=GAME_HELP)
    @app_commands.autocomplete(kind=ac("barrage", "kind"), tile=ac("barrage", "tile"), game=ac_game)
    async def f_barrage(it: discord.Interaction, kind: str, turn: app_commands.Range[int, 1, 99], tile: str,
                        smoke: Optional[bool] = None, game: Optional[int] = None):
        await run(it, "barrage", [kind, turn, tile, "smoke" if smoke else None], game)

    @grp.command(name="popsmoke", description="A vehicle pops smoke (a SHOOT): smoke in its tile, then cover")
    @app_commands.describe(actor="the vehicle's plate, or the crewman who pops it", via=PART_HELP, game=GAME_HELP)
    @app_commands.autocomplete(actor=ac_actor("popsmoke"), game=ac_game)
    async def f_popsmoke(it: discord.Interaction, actor: str, via: Optional[Part] = None,
                         game: Optional[int] = None):
        await run(it, "popsmoke", [actor], game, via)

    @grp.command(name="handoff", description="(MOVE) Hand a piece of equipment to a friend beside him")
    @app_commands.describe(soldier=SOLDIER_HELP, item="the equipment he carries", to="the friend who takes it",
                           via=PART_HELP, game=GAME_HELP)
    @app_commands.autocomplete(soldier=ac_actor("handoff"), item=ac("handoff", "item"), to=ac("handoff", "to"),
                               game=ac_game)
    async def f_handoff(it: discord.Interaction, soldier: str, item: str, to: str, via: Optional[Part] = None,
                        game: Optional[int] = None):
        await run(it, "handoff", [soldier, item, to], game, via)

    @grp.command(name="recover", description="(MOVE) Search for dropped equipment, or take over an abandoned vehicle")
    @app_commands.describe(soldier=SOLDIER_HELP, item="the abandoned equipment to search for",
                           plate="or: the abandoned vehicle or gun's plate", via=PART_HELP, game=GAME_HELP)
    @app_commands.autocomplete(soldier=ac_actor("recover"), item=ac("recover", "item"),
                               plate=ac("recover", "plate"), game=ac_game)
    async def f_recover(it: discord.Interaction, soldier: str, item: Optional[str] = None,
                        plate: Optional[str] = None, via: Optional[Part] = None, game: Optional[int] = None):
        if (item is None) == (plate is None):
            await adapter._defer(it)
            await it.followup.send("Name either the item to search for or the plate of the vehicle to take over "
                                   "(one of the two).", ephemeral=True)
            return
        await run(it, "recover", [soldier, item or plate], game, via)

    @grp.command(name="laymines", description="(MOVE) A vehicle lays a minefield of its load in a square beside it")
    @app_commands.describe(actor="the vehicle's plate, or a man aboard it", tile="a map square beside the vehicle",
                           tokens="the load's two tokens, e.g. at+gp (only your side sees its load)",
                           via=PART_HELP, game=GAME_HELP)
    @app_commands.autocomplete(actor=ac_actor("laymines"), tile=ac("laymines", "tile"),
                               tokens=ac("laymines", "tokens"), game=ac_game)
    async def f_laymines(it: discord.Interaction, actor: str, tile: str, tokens: str, via: Optional[Part] = None,
                         game: Optional[int] = None):
        await run(it, "laymines", [actor, tile, tokens], game, via)

    @grp.command(name="clearmines", description="(MOVE) With a mine detector, lift the mines in his square or one beside")
    @app_commands.describe(soldier=SOLDIER_HELP, tile="his square, or one beside it, with mine tokens",
                           via=PART_HELP, game=GAME_HELP)
    @app_commands.autocomplete(soldier=ac_actor("clearmines"), tile=ac("clearmines", "tile"), game=ac_game)
    async def f_clearmines(it: discord.Interaction, soldier: str, tile: str, via: Optional[Part] = None,
                           game: Optional[int] = None):
        await run(it, "clearmines", [soldier, tile], game, via)

    return grp
