"""`/vehicle`: the vehicle and crew actions of a card, one subcommand per script verb.

Each command is the script line of its verb, with the leading `v` dropped where the script
needs it to tell a vehicle from a soldier (`/vehicle move` is `vmove`, `turn` is `vturn`,
`cover` is `vcover`): `/vehicle fire actor:152 weapon:main target:701` is
`fire 152 main 701`. The actor is the vehicle's license plate (the man at the post the
action needs carries it out) or a crewman's dog tag; every option suggests what the engine
would accept now (`engine.legal`), labelled with the crewman and his vehicle.
`/act sight|shoot|draw` take a plate or a crewman too.

    tree.add_command(vehicle_group(adapter))
"""
from __future__ import annotations

from typing import Optional

import discord
from discord import app_commands

from bot.discord.adapter import Adapter
from bot.discord.commands import GAME_HELP, PART_HELP, Facing, Part, line

ACTOR_HELP = "the vehicle's plate (e.g. 601) or a crewman's dog tag"
CREWMAN_HELP = "a crewman aboard (dog tag or name)"

# /vehicle subcommand -> script verb (the others are the same word)
VERBS = {"move": "vmove", "turn": "vturn", "cover": "vcover"}


def vehicle_group(adapter: Adapter) -> app_commands.Group:
    """The `/vehicle` group, wired to `adapter`."""
    s = adapter.service
    grp = app_commands.Group(name="vehicle", description="Vehicle and crew actions: drive, turn, fire, load, hatches")

    def ns(it: discord.Interaction, key: str):
        return getattr(it.namespace, key, None)

    def actor_of(it: discord.Interaction):
        return ns(it, "actor") or ns(it, "crewman") or ns(it, "soldier")

    def ac(what: str, verb: str | None = None):
        async def complete(it: discord.Interaction, current: str):
            return await adapter.suggest(it, what, current, game=ns(it, "game"), verb=verb,
                                         soldier=actor_of(it))
        return complete

    def ac_actor(verb: str):
        async def complete(it: discord.Interaction, current: str):
            return await adapter.suggest(it, "soldier", current, game=ns(it, "game"), verb=verb)
        return complete

    async def ac_mount_post(it: discord.Interaction, current: str):
        plate = ns(it, "plate")
        return await adapter.suggest(it, "post", current, game=ns(it, "game"), verb="mount",
                                     soldier=actor_of(it), plate=str(plate) if plate else None)

    async def ac_game(it: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        return [app_commands.Choice(name=c.name, value=int(c.value))
                for c in await adapter.suggest(it, "game", current)]

    def run(it: discord.Interaction, sub: str, words: list, via: str | None, game: int | None):
        text = line(VERBS.get(sub, sub), *words, via=via)
        return adapter.run(it, lambda c, w: s.command(c, w, text), game=game, name=f"vehicle {sub}")

    @grp.command(name="move", description="Drive toward a tile (across country, along a road, or one back)")
    @app_commands.describe(actor=ACTOR_HELP, to="a tile (14A); suggestions add road or back where that is the way",
                           road="along the road", back="one square in reverse", via=PART_HELP, game=GAME_HELP)
    @app_commands.autocomplete(actor=ac_actor("vmove"), to=ac("drive"), game=ac_game)
    async def v_move(it: discord.Interaction, actor: str, to: str, road: Optional[bool] = None,
                     back: Optional[bool] = None, via: Optional[Part] = None, game: Optional[int] = None):
        await run(it, "move", [actor, to, "road" if road else None, "back" if back else None], via, game)

    @grp.command(name="turn", description="Turn the hull in its tile (up to four compass points)")
    @app_commands.describe(actor=ACTOR_HELP, direction="n ne e se s sw w nw", via=PART_HELP, game=GAME_HELP)
    @app_commands.autocomplete(actor=ac_actor("vturn"), game=ac_game)
    async def v_turn(it: discord.Interaction, actor: str, direction: Facing, via: Optional[Part] = None,
                     game: Optional[int] = None):
        await run(it, "turn", [actor, direction], via, game)

    @grp.command(name="turret", description="Traverse the turret")
    @app_commands.describe(actor=ACTOR_HELP, direction="n ne e se s sw w nw", via=PART_HELP, game=GAME_HELP)
    @app_commands.autocomplete(actor=ac_actor("turret"), game=ac_game)
    async def v_turret(it: discord.Interaction, actor: str, direction: Facing, via: Optional[Part] = None,
                       game: Optional[int] = None):
        await run(it, "turret", [actor, direction], via, game)

    @grp.command(name="moveplus", description="Save movement up for later: a Move+ (one MOVE) or a Move++ (two)")
    @app_commands.describe(actor=ACTOR_HELP, double="a Move++ marker: 3 squares for two MOVEs of one part of the card",
                           via=PART_HELP, game=GAME_HELP)
    @app_commands.autocomplete(actor=ac_actor("moveplus"), game=ac_game)
    async def v_moveplus(it: discord.Interaction, actor: str, double: Optional[bool] = None,
                         via: Optional[Part] = None, game: Optional[int] = None):
        await run(it, "moveplusplus" if double else "moveplus", [actor], via, game)

    @grp.command(name="unpin", description="Shed a Pin marker (a bogged vehicle works itself free)")
    @app_commands.describe(actor=ACTOR_HELP, via=PART_HELP, game=GAME_HELP)
    @app_commands.autocomplete(actor=ac_actor("unpin"), game=ac_game)
    async def v_unpin(it: discord.Interaction, actor: str, via: Optional[Part] = None, game: Optional[int] = None):
        await run(it, "unpin", [actor], via, game)

    @grp.command(name="fire", description="Fire the main gun or a machine gun at a soldier or a vehicle")
    @app_commands.describe(actor=ACTOR_HELP, weapon="main, or a machine gun (suggested)",
                           target="a spotted enemy or vehicle in the weapon's arc", via=PART_HELP, game=GAME_HELP)
    @app_commands.autocomplete(actor=ac_actor("fire"), weapon=ac("weapon"), target=ac("target", "fire"),
                               game=ac_game)
    async def v_fire(it: discord.Interaction, actor: str, weapon: str, target: str, via: Optional[Part] = None,
                     game: Optional[int] = None):
        await run(it, "fire", [actor, weapon, target], via, game)

    @grp.command(name="load", description="Loader: a round from the ready rack into his hands, or into the breach")
    @app_commands.describe(actor=ACTOR_HELP, ammo="the round to take from the ready rack (AP, HE ...); "
                                                  "leave out to load the breach",
                           back="take a step back instead: breach -> hands -> ready rack, to change rounds",
                           via=PART_HELP, game=GAME_HELP)
    @app_commands.autocomplete(actor=ac_actor("load"), ammo=ac("ammo"), game=ac_game)
    async def v_load(it: discord.Interaction, actor: str, ammo: Optional[str] = None, back: Optional[bool] = None,
                     via: Optional[Part] = None, game: Optional[int] = None):
        await run(it, "load", [actor, ammo, "back" if back else None], via, game)

    @grp.command(name="acquire", description="Swing the gun onto a marked target outside its arc")
    @app_commands.describe(actor=ACTOR_HELP, target="the target", via=PART_HELP, game=GAME_HELP)
    @app_commands.autocomplete(actor=ac_actor("acquire"), target=ac("target", "acquire"), game=ac_game)
    async def v_acquire(it: discord.Interaction, actor: str, target: str, via: Optional[Part] = None,
                        game: Optional[int] = None):
        await run(it, "acquire", [actor, target], via, game)

    @grp.command(name="unbutton", description="A crewman opens his hatch (better sight, but exposed)")
    @app_commands.describe(crewman=CREWMAN_HELP + " at a hatch, or the plate", via=PART_HELP, game=GAME_HELP)
    @app_commands.autocomplete(crewman=ac_actor("unbutton"), game=ac_game)
    async def v_unbutton(it: discord.Interaction, crewman: str, via: Optional[Part] = None,
                         game: Optional[int] = None):
        await run(it, "unbutton", [crewman], via, game)

    @grp.command(name="button", description="A crewman closes his hatch")
    @app_commands.describe(crewman=CREWMAN_HELP + " with his hatch open, or the plate", via=PART_HELP,
                           game=GAME_HELP)
    @app_commands.autocomplete(crewman=ac_actor("button"), game=ac_game)
    async def v_button(it: discord.Interaction, crewman: str, via: Optional[Part] = None,
                       game: Optional[int] = None):
        await run(it, "button", [crewman], via, game)

    @grp.command(name="hulldown", description="Go hull down in the tile (a bog check)")
    @app_commands.describe(actor=ACTOR_HELP, via=PART_HELP, game=GAME_HELP)
    @app_commands.autocomplete(actor=ac_actor("hulldown"), game=ac_game)
    async def v_hulldown(it: discord.Interaction, actor: str, via: Optional[Part] = None,
                         game: Optional[int] = None):
        await run(it, "hulldown", [actor], via, game)

    @grp.command(name="cover", description="The vehicle takes cover (loses Spotted if the HIDE check passes)")
    @app_commands.describe(actor=ACTOR_HELP, via=PART_HELP, game=GAME_HELP)
    @app_commands.autocomplete(actor=ac_actor("vcover"), game=ac_game)
    async def v_cover(it: discord.Interaction, actor: str, via: Optional[Part] = None, game: Optional[int] = None):
        await run(it, "cover", [actor], via, game)

    @grp.command(name="mount", description="A soldier gets on a friendly vehicle in his tile")
    @app_commands.describe(soldier="your soldier on foot", plate="the vehicle's plate",
                           post="a free crew position (leave out to ride as a passenger or rider)",
                           via=PART_HELP, game=GAME_HELP)
    @app_commands.autocomplete(soldier=ac_actor("mount"), plate=ac("board"), post=ac_mount_post, game=ac_game)
    async def v_mount(it: discord.Interaction, soldier: str, plate: str, post: Optional[str] = None,
                      via: Optional[Part] = None, game: Optional[int] = None):
        await run(it, "mount", [soldier, plate, post], via, game)

    @grp.command(name="dismount", description="A man aboard gets off beside his vehicle")
    @app_commands.describe(soldier="a man aboard (dog tag or name)", via=PART_HELP, game=GAME_HELP)
    @app_commands.autocomplete(soldier=ac_actor("dismount"), game=ac_game)
    async def v_dismount(it: discord.Interaction, soldier: str, via: Optional[Part] = None,
                         game: Optional[int] = None):
        await run(it, "dismount", [soldier], via, game)

    @grp.command(name="shift", description="A crewman moves to another place on the panel")
    @app_commands.describe(crewman=CREWMAN_HELP, post="a crew position or a damaged machinery location",
                           via=PART_HELP, game=GAME_HELP)
    @app_commands.autocomplete(crewman=ac_actor("shift"), post=ac("post", "shift"), game=ac_game)
    async def v_shift(it: discord.Interaction, crewman: str, post: str, via: Optional[Part] = None,
                      game: Optional[int] = None):
        await run(it, "shift", [crewman, post], via, game)

    @grp.command(name="repair", description="A crewman repairs the wrecked location he is at")
    @app_commands.describe(crewman=CREWMAN_HELP, location="the location (suggested)", via=PART_HELP,
                           game=GAME_HELP)
    @app_commands.autocomplete(crewman=ac_actor("repair"), location=ac("post", "repair"), game=ac_game)
    async def v_repair(it: discord.Interaction, crewman: str, location: str, via: Optional[Part] = None,
                       game: Optional[int] = None):
        await run(it, "repair", [crewman, location], via, game)

    @grp.command(name="extinguish", description="A crewman puts out a fire where he is")
    @app_commands.describe(crewman=CREWMAN_HELP, location="the burning location (suggested)", via=PART_HELP,
                           game=GAME_HELP)
    @app_commands.autocomplete(crewman=ac_actor("extinguish"), location=ac("post", "extinguish"), game=ac_game)
    async def v_extinguish(it: discord.Interaction, crewman: str, location: str, via: Optional[Part] = None,
                           game: Optional[int] = None):
        await run(it, "extinguish", [crewman, location], via, game)

    return grp
