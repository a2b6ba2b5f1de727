"""How the vehicle book's battlefield reads to players (issue 9): artillery markers, planned
barrages, radio contact, ordnance, minefields, roadblocks and close combats.

Two kinds of lines, kept apart on purpose:

- `private_lines(mine)` reads only a seat's `Mine` (engine/view.py): his own artillery calls
  with their letters and faces, his planned barrages, his radio contact, his ordnance left,
  his side's minefields with their kinds and the mines left in his side's vehicles' loads.
  They go to that player alone (his desk, his DM, the console's private text).
- `public_lines(view)` reads only the public `View`: markers and tokens face down (a number and
  a side, never a letter, a kind or a face), roadblocks, close combats and the optional rules.

Used by bot/app/prompts.py (the desk), bot/app/service.py (`/game status`), bot/console/text.py
and bot/render (the picture's words), so every front end says the same thing.
"""
from __future__ import annotations

from bot.app import vehicle_words as W
from engine.core import commands as C
from engine.core.views import ArtilleryCallView, Mine, View

MINE_KINDS = {"at": "anti-tank", "gp": "general purpose", "mixed": "mixed", "booby": "booby trap",
              "fake": "fake"}
TOKEN_NAMES = {"at": "AT", "gp": "GP", "fake": "fake", "booby": "booby"}
OPTION_NAMES = {"trained_snipers": "trained snipers", "ammo_loadouts": "ammo loadouts",
                "smg_vehicle_movement": "SMG-style vehicle movement", "schurzen": "Schürzen",
                "shooting_in_contact": "shooting in combat contact", "fight_buttoned_up": "fighting buttoned up"}
PARTS = {"hull": "hull", "turret": "turret", "cabin": "cabin"}


def ordnance_name(kind: str, names: dict[str, str] | None = None) -> str:
    """An ordnance chart id as a player reads it: its chart name if known, else the id."""
    if names and kind in names:
        return names[kind]
    return kind.replace("_", " ").replace("-", " ")


def mine_kind(kind: str) -> str:
    return MINE_KINDS.get(kind, kind)


def call_state(c: ArtilleryCallView) -> str:
    """"Fake", "On Target" or "2 rows to On Target"."""
    if c.fake:
        return "Fake"
    if c.rows_left <= 0:
        return "On Target"
    return f"{c.rows_left} row{'s' if c.rows_left != 1 else ''} to On Target"


def call_line(c: ArtilleryCallView, names: dict[str, str] | None = None, who=str) -> str:
    by = f", called by {who(c.caller)}" if c.caller is not None else ""
    smoke = " firing smoke" if c.smoke else ""
    relay = f", relayed through {who(c.relay)}" if c.relay is not None else ""
    return f"{c.letter}: {ordnance_name(c.kind, names)}{smoke} on {c.tile}, {call_state(c)}{by}{relay}"


def private_lines(mine: Mine, names: dict[str, str] | None = None, *, bold: bool = True, who=None) -> list[str]:
    """The seat's battlefield secrets, one line per subject (none when he has none). `names`
    maps ordnance ids to their chart names; `who` names a caller's dog tag or plate ("Pvt.
    Avery (1)"); `bold` marks the heads for Discord."""
    b = (lambda s: f"**{s}**") if bold else (lambda s: s)  # noqa: E731

    def name(serial) -> str:
        try:
            return who(int(serial)) if who is not None else str(serial)
        except (KeyError, ValueError, AttributeError):
            return str(serial)
    out = []
    if mine.artillery:
        out.append(b("Your artillery calls:") + " " + "; ".join(call_line(c, names, name) for c in mine.artillery))
    if mine.barrages:
        out.append(b("Your planned barrages (secret):") + " " + "; ".join(
            f"{ordnance_name(p.kind, names)}{' firing smoke' if p.smoke else ''} on {p.tile} at the start of turn "
            f"{p.turn}" for p in mine.barrages))
    if mine.radio:
        out.append(b("Radio contact this turn:") + " " + "; ".join(
            f"{name(caller)}: {n} LOOK phase{'s' if n != 1 else ''} so far" for caller, n in sorted(mine.radio.items())))
    if mine.ordnance:
        counts: dict[str, int] = {}
        for k in mine.ordnance:
            counts[k] = counts.get(k, 0) + 1
        out.append(b("Artillery to call:") + " " + ", ".join(
            f"{ordnance_name(k, names)}" + (f" x{n}" if n > 1 else "") for k, n in counts.items()))
    if mine.minefields:
        out.append(b("Your side's minefields (face down to the enemy):") + " " + "; ".join(
            f"{m.tile} {mine_kind(m.kind)} ({'+'.join(TOKEN_NAMES.get(t, t) for t in m.tokens)})"
            for m in mine.minefields))
    if mine.mine_loads:
        out.append(b("Mines to lay from your vehicles:") + " " + "; ".join(
            f"{name(plate)}: " + ", ".join('+'.join(f) for f in load) for plate, load in sorted(mine.mine_loads.items())))
    return out


def public_lines(v: View, *, bold: bool = True) -> list[str]:
    """What the table sees of the battlefield: markers and tokens face down, roadblocks,
    close combats, optional rules in force. Reads no `mine`."""
    b = (lambda s: f"**{s}**") if bold else (lambda s: s)  # noqa: E731
    out = []
    if v.artillery:
        out.append(b("Artillery markers (face down):") + " " + ", ".join(
            f"{m.tile} ({m.side})" for m in sorted(v.artillery, key=lambda m: (m.tile, m.side, m.id))))
    if v.minefields:  # a field's kind is public only once it has gone off (the engine says so)
        out.append(b("Mine tokens (face down):") + " " + ", ".join(
            f"{m.tile}: {m.tokens} {m.side} token{'s' if m.tokens != 1 else ''}"
            + (f" ({mine_kind(getattr(m, 'kind', None))}, gone off)" if getattr(m, "kind", None) else "")
            for m in sorted(v.minefields, key=lambda m: (m.tile, m.side))))
    if getattr(v, "mines", None):
        out.append(b("Known minefields:") + " " + ", ".join(sorted(v.mines)))
    if v.roadblocks:
        out.append(b("Roadblocks:") + " " + ", ".join(
            f"{r.tile} {r.kind}" + (f" ({r.name})" if r.name else "")
            + (f", fighting position held by {r.defender}" if r.defender is not None else "")
            for r in v.roadblocks))
    if v.close_combats:
        out.append(b("Close combats:") + " " + "; ".join(
            f"{c.plate} {PARTS.get(c.part, c.part)}: {', '.join(map(str, c.attackers)) or 'nobody'} against "
            f"{', '.join(map(str, c.crew)) or 'an empty compartment'} ({c.step})" for c in v.close_combats))
    on = [OPTION_NAMES.get(k, k.replace("_", " ")) for k, val in v.options.items() if val is True]
    if on and v.vehicles:  # the vehicle book's optional rules mean nothing without vehicles
        out.append(b("Optional rules:") + " " + ", ".join(on))
    return out


def view_names(v: View):
    """A `who` for `private_lines` from a view: "Pvt. Avery (1)", "Test Sherman 901"."""
    men = {s.serial: f"{s.title} {s.name} ({s.serial})" for s in [*v.soldiers, *(v.mine.own_hidden if v.mine else [])]}
    cars = {x.plate: f"{x.name.split(' (')[0]} {x.plate}" for x in v.vehicles}
    return lambda serial: men.get(serial) or cars.get(serial) or str(serial)


def ordnance_names(st) -> dict[str, str]:
    """Ordnance chart ids -> names, from a game's equipment cards (empty if it has none). Made
    once per equipment dict (a game's setup is frozen and shared by all its states; the last
    NAMES_REMEMBERED kept, each beside the very dict it was made of), so read it, never change it."""
    try:
        equipment = st.setup.equipment
    except AttributeError:
        return {}
    held = _names.get(id(equipment))
    if held is not None and held[0] is equipment:
        return held[1]
    names = {k: e.name for k, e in equipment.items()}
    _names[id(equipment)] = (equipment, names)  # the dict kept alive with it: its id names no other
    if len(_names) > NAMES_REMEMBERED:
        del _names[next(iter(_names))]  # the oldest
    return names


NAMES_REMEMBERED = 64  # a process plays a few setups of a dozen scenarios
_names: dict[int, tuple[object, dict[str, str]]] = {}


BATTLEFIELD_COMMANDS = (C.AssailCmd, C.CallCmd, C.AdjustCmd, C.BarrageCmd, C.PopSmokeCmd, C.LayMinesCmd,
                        C.ClearMinesCmd, C.HandOffCmd, C.RecoverCmd)


def describe(st, cmd) -> str | None:
    """A battlefield command in the game's words, for its own player only (his buttons, his
    console options, his "Done:" reply): "Pvt. Avery (1) calls 81 mm mortar on 12A (a fake)".
    None for any other command."""
    if not isinstance(cmd, BATTLEFIELD_COMMANDS):
        return None  # asked of every command's "Done:" reply and label: most are none of these

    def who(serial: int) -> str:
        try:
            return W.who(st, serial)
        except (KeyError, AttributeError):
            return str(serial)

    via = f" [{cmd.via}]" if getattr(cmd, "via", None) else ""
    names = ordnance_names(st) if isinstance(cmd, (C.CallCmd, C.BarrageCmd)) else None
    if isinstance(cmd, C.AssailCmd):
        how = ", dropping a grenade in" if cmd.grenade else ""
        return f"{who(cmd.serial)} attacks the {cmd.part} of {who(cmd.plate)}{how}"
    if isinstance(cmd, C.CallCmd):
        return (f"{who(cmd.serial)} calls {ordnance_name(cmd.kind, names)} on {cmd.tile}"
                + (" (a fake)" if cmd.fake else "") + (" firing smoke" if cmd.smoke else "")
                + (f", relayed through {who(cmd.relay)}" if cmd.relay else ""))
    if isinstance(cmd, C.AdjustCmd):
        order = (", the men drawing in the order " + ", ".join(who(s) for s in cmd.order)) if cmd.order else ""
        return f"{who(cmd.serial)} adjusts artillery call {cmd.letter}{via}{order}"
    if isinstance(cmd, C.BarrageCmd):
        return (f"plan {ordnance_name(cmd.kind, names)} on {cmd.tile} for the start of turn {cmd.turn}"
                + (" firing smoke" if cmd.smoke else "") + " (secret)")
    if isinstance(cmd, C.PopSmokeCmd):
        return f"{who(cmd.serial)} pops smoke{via}"
    if isinstance(cmd, C.LayMinesCmd):
        return f"{who(cmd.serial)} lays {'+'.join(cmd.tokens)} mines from the load in {cmd.tile}{via}"
    if isinstance(cmd, C.ClearMinesCmd):
        return f"{who(cmd.serial)} lifts the mines in {cmd.tile}{via}"
    if isinstance(cmd, C.HandOffCmd):
        return f"{who(cmd.serial)} hands {_item(st, cmd.item)} to {who(cmd.to)}{via}"
    if isinstance(cmd, C.RecoverCmd):
        if cmd.plate is not None:
            return f"{who(cmd.serial)} takes over {who(cmd.plate)}{via}"
        return f"{who(cmd.serial)} searches for {_item(st, cmd.item)}{via}"
    return None


def _item(st, item: str) -> str:
    try:
        return st.setup.equipment[item].name
    except (KeyError, AttributeError):
        return item
