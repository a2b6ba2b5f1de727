"""How vehicles, guns, their crews and their commands read to a player: "M4A1 Sherman 601:
drive to 14A along the road", "Pvt. Calloway (151, M4A1 Sherman 601): fire the 75 mm M3 at
PzKw IV Ausf. H 701". A crewman is always named with his vehicle, so a line about him says
which tank he sits in. Built from the state the command is given in; names only what the
table sees (plates, crews, panels are public).
"""
from __future__ import annotations

import re
from functools import lru_cache

from engine import GameState
from engine.core import commands as C

_PARENS = re.compile(r"\s*\([^)]*\)")


@lru_cache(maxsize=256)
def short(name: str) -> str:
    """A vehicle's name without its bracketed detail: "M4A1 Sherman (75 mm)" -> "M4A1 Sherman".
    Remembered per name (a catalogue has a few dozen): every line naming a vehicle asks it."""
    return _PARENS.sub("", name).strip() or name


def vehicle(st: GameState, plate: int) -> str:
    """"M4A1 Sherman 601"."""
    return f"{short(st.vehicle_def(plate).name)} {plate}"


def crew_vehicle(st: GameState, serial: int) -> int | None:
    """The plate of the vehicle a man is aboard, or beside as its dismounted crewman."""
    s = st.soldiers.get(serial)
    if s is None or s.vehicle is None or s.vehicle not in st.vehicles:
        return None
    if s.status == "aboard" or (s.dismounted and s.status == "board"):
        return s.vehicle
    return None


def who(st: GameState, serial: int) -> str:
    """A plate as its vehicle, a crewman with his dog tag and vehicle, a soldier with his dog tag."""
    if serial in st.vehicles:
        return vehicle(st, serial)
    if serial not in st.soldiers:
        return str(serial)
    plate = crew_vehicle(st, serial)
    name = st.name(serial)
    return f"{name} ({serial}, {vehicle(st, plate)})" if plate is not None else f"{name} ({serial})"


def post(st: GameState, plate: int | None, where: str) -> str:
    """A crew position or machinery location by its panel name ("Gunner", "Radial engine")."""
    if plate is not None and plate in st.vehicles:
        try:
            return st.vehicle_def(plate).location(where).name
        except KeyError:
            pass
    return where.replace("_", " ")


def weapon(st: GameState, plate: int | None, wid: str) -> str:
    """"the 75 mm M3" for main, a machine gun by its panel name."""
    if plate is None or plate not in st.vehicles:
        return wid
    d = st.vehicle_def(plate)
    if wid == "main" and d.main_gun is not None:
        return f"the {d.main_gun.name}"
    mg = next((m for m in d.mgs if m.id == wid), None)
    return f"the {mg.name}" if mg is not None else wid


def ammo(st: GameState, plate: int | None, aid: str) -> str:
    d = st.vehicle_def(plate) if plate is not None and plate in st.vehicles else None
    if d is None or d.main_gun is None:
        return aid
    a = d.main_gun.ammo_type(aid)
    return f"{aid} ({a.name})" if a is not None else aid


def plate_of(st: GameState, serial: int) -> int | None:
    """The vehicle a command's actor stands for: the plate itself or the crewman's vehicle."""
    return serial if serial in st.vehicles else crew_vehicle(st, serial)


def is_vehicle_command(st: GameState, cmd: C.Cmd) -> bool:
    """A command a vehicle or one of its crew gives (including sight, shoot and draw by a plate or
    a man aboard), or a soldier getting on."""
    if isinstance(cmd, C.VEHICLE_COMMANDS):
        return True
    if not isinstance(cmd, (C.SightCmd, C.ShootCmd, C.DrawCmd)):
        return False  # asked after every command: no `serial` looked up through pydantic's miss path
    return cmd.serial is not None and plate_of(st, cmd.serial) is not None


def _what(st: GameState, cmd: C.Cmd, plate: int | None) -> str:
    if isinstance(cmd, C.VMove):
        how = " along the road" if cmd.road else " in reverse" if cmd.back else ""
        return f"drive to {cmd.tile}{how}"
    if isinstance(cmd, C.VTurn):
        return f"turn the hull to {cmd.facing.upper()}"
    if isinstance(cmd, C.Turret):
        return f"traverse the turret to {cmd.facing.upper()}"
    if isinstance(cmd, C.MovePlus):
        return "save up two MOVEs of movement (Move++, 3 squares)" if cmd.double else "save up movement (Move+)"
    if isinstance(cmd, C.Unpin):
        return "shed a Pin marker"
    if isinstance(cmd, C.Fire):
        return f"fire {weapon(st, plate, cmd.weapon)} at {who(st, cmd.target)}"
    if isinstance(cmd, C.Load):
        if cmd.back:
            return "take a loading step back (breach -> hands -> ready rack)"
        return f"load {ammo(st, plate, cmd.ammo)} from the ready rack" if cmd.ammo else "load the breach"
    if isinstance(cmd, C.Acquire):
        return f"acquire {who(st, cmd.target)}"
    if isinstance(cmd, C.Unbutton):
        return "open his hatch" if cmd.serial not in st.vehicles else "open a hatch"
    if isinstance(cmd, C.Button):
        return "close his hatch" if cmd.serial not in st.vehicles else "close a hatch"
    if isinstance(cmd, C.HullDown):
        return "go hull down"
    if isinstance(cmd, C.VCover):
        return "take cover"
    if isinstance(cmd, C.Mount):
        at = f" at the {post(st, cmd.plate, cmd.post)}" if cmd.post else ""
        return f"get on the {vehicle(st, cmd.plate)}{at}"
    if isinstance(cmd, C.Dismount):
        return "get off"
    if isinstance(cmd, C.Shift):
        return f"move to the {post(st, plate, cmd.post)}"
    if isinstance(cmd, C.Repair):
        return f"repair the {post(st, plate, cmd.location)}"
    if isinstance(cmd, C.Extinguish):
        return f"put out the fire in the {post(st, plate, cmd.location)}"
    if isinstance(cmd, C.SightCmd):
        return "sight" + (f" {who(st, cmd.target)}" if cmd.target else " the closest unspotted enemy")
    if isinstance(cmd, C.ShootCmd):
        return f"shoot at {who(st, cmd.target)}"
    if isinstance(cmd, C.DrawCmd):
        return "draw cards"
    return str(cmd)


def describe(st: GameState, cmd: C.Cmd) -> str:
    """A vehicle or crew command in words, naming the crewman and his vehicle; the card part
    (`team`, `tag`, `note`) in brackets when the command names one."""
    serial = cmd.serial
    plate = cmd.plate if isinstance(cmd, C.Mount) else plate_of(st, serial)
    via = f" [{cmd.via}]" if getattr(cmd, "via", None) else ""
    return f"{who(st, serial)}: {_what(st, cmd, plate)}{via}"


def deck_name(st: GameState, force_id: str) -> str:
    """A seat's deck: "your squad", or its vehicle ("M4A1 Sherman 601")."""
    f = st.forces[force_id]
    if f.kind == "vehicle" and f.plate is not None and f.plate in st.vehicles:
        return vehicle(st, f.plate)
    return "your squad"


def deck_for(st: GameState, seat: int, word: str) -> str | None:
    """Which of a seat's decks a word names: its force id, a plate ("601"), a vehicle's name
    ("sherman"), or "squad"; None if none (or several) fit."""
    w = word.strip().lower()
    mine = st.force_of_seat(seat)
    for f in mine:
        if f.id.lower() == w:
            return f.id
    if w in ("squad", "infantry", "soldiers", "men"):
        hits = [f.id for f in mine if f.kind == "squad"]
    elif C.NUMBER.fullmatch(w):  # ASCII digits only: int() takes "١٢" and fails on "²"
        hits = [f.id for f in mine if f.plate == int(w)]
    else:
        hits = [f.id for f in mine if f.kind == "vehicle" and f.plate in st.vehicles
                and w in st.vehicle_def(f.plate).name.lower()]
    return hits[0] if len(hits) == 1 else None
