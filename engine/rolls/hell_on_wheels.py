"""Sergeants: Hell on Wheels (vehicle book) calculators: armour penetration, crew protection,
combat initiative, bogging, vehicle sighting and the artillery chart.

These rules work from cards the players pull, so the checks take the cards' counts as
inputs and do the arithmetic the book asks for; no dice are rolled.
"""
from __future__ import annotations

from typing import Any

from engine.core.rng import Rng
from engine.rolls import (
    Param,
    RollError,
    RollResult,
    System,
    check,
    register_system,
    shown,
)

HOW = register_system(
    System(
        key="how",
        title="Sergeants: Hell on Wheels",
        slash="how",
        help="Hell on Wheels: vehicles, crews and artillery",
    )
)


@check(
    system=HOW,
    name="penetration",
    slash="penetration",
    help="Damage results: hits + penetration + blast - armour",
    params=(
        Param("hits", "int", "Hits on the hit-check card (0 = miss)", True, minimum=0, maximum=99),
        Param("pen", "int", "Round's penetration at this range", True, minimum=-20, maximum=60),
        Param("blast", "int", "Blast hits pulled, summed", default=0, minimum=0, maximum=99),
        Param("armor", "int", "Armour at the hit location", True, minimum=0, maximum=60),
        Param("damage_x", "int", "Weapon's damage multiple (3 for 3x)", default=1, minimum=1, maximum=10),
    ),
)
def penetration(p: dict[str, Any], rng: Rng) -> RollResult:
    # Penetrating a Vehicle's Armor: a card with no hits misses, whatever the round's penetration.
    hits, pen, blast, armor, mult = p["hits"], p["pen"], p["blast"], p["armor"], p["damage_x"]
    if hits == 0:
        lines = ["no hits on the hit-check card: the shot misses, nothing penetrates", "**0 damage results**"]
        data = {"missed": True, "total": 0, "penetrating": 0, "damage_results": 0}
        return RollResult("Penetration (Hell on Wheels)", lines, data)
    total = hits + pen + blast
    through = max(0, total - armor)
    results = through * mult
    lines = [
        f"card hits {hits} + penetration {shown(pen)} + blast hits {blast} = {total}",
        f"{total} - armour {armor} = {through} penetrating" + (" (armour holds)" if total <= armor else ""),
    ]
    if mult > 1:
        # Damage X: each penetrating hit pulls X damage results.
        lines.append(f"{through} x damage multiple {mult} = {results}")
    lines.append(f"**{results} damage result{'s' if results != 1 else ''}** to pull from the target's deck")
    data = {"missed": False, "total": total, "penetrating": through, "damage_results": results}
    return RollResult("Penetration (Hell on Wheels)", lines, data)


POSITIONS = ("unbuttoned", "dismounted", "hulldown", "roadblock")


@check(
    system=HOW,
    name="protection",
    slash="protection",
    help="Hits left after armour shields crew or a hull-down vehicle",
    params=(
        Param("hits", "int", "Hits scored", True, minimum=0, maximum=99),
        Param("armor", "int", "Lowest armour of the compartment or turret/cabin", minimum=0, maximum=60),
        Param(
            "position",
            "choice",
            "Where the target is",
            True,
            choices=POSITIONS,
            labels={
                "unbuttoned": "crew at an open hatch or inside in close combat",
                "dismounted": "crew on the deck or an outside location",
                "hulldown": "a hull-down vehicle (2 hits off)",
                "roadblock": "soldier in a roadblock fighting position (2 hits off)",
            },
        ),
    ),
)
def protection(p: dict[str, Any], rng: Rng) -> RollResult:
    hits, armor, position = p["hits"], p["armor"], p["position"]
    if position in ("unbuttoned", "dismounted") and armor is None:
        raise RollError(f"protection for {position} crew needs --armor: a whole number from 0 to 60")
    if position == "unbuttoned":
        # Shooting at Unbuttoned Crew / Shooting in Close Combat: the compartment's lowest armour, capped at 3.
        shield = min(armor, 3)
        why = f"lowest compartment armour {armor}, at most 3 -> {shield}"
    elif position == "dismounted":
        # Shooting at Dismounted Crew: half the lower of turret/cabin armour, rounded down.
        shield = armor // 2
        why = f"half of turret/cabin armour {armor}, rounded down -> {shield}"
    elif position == "hulldown":
        shield = 2  # Hull Down: a protection modifier of two hits
        why = "hull down -> 2"
    else:
        shield = 2  # Roadblocks and Barricades: the fighting position is worth two hits
        why = "roadblock fighting position -> 2"
    left = max(0, hits - shield)
    lines = [f"protection: {why}", f"{hits} hits - {shield} = **{left} hit{'s' if left != 1 else ''}**"]
    return RollResult("Protection (Hell on Wheels)", lines, {"protection": shield, "hits": left})


@check(
    system=HOW,
    name="combat-initiative",
    slash="combat-initiative",
    help="Close-combat initiative: hand + Fight cards",
    params=(
        Param("hand", "int", "Cards in hand", True, minimum=0, maximum=60),
        Param("fight", "int", "Total Fight value of your fighters", True, minimum=0, maximum=60),
        Param("buttoned", "bool", "Against a buttoned hatch (halved)", default=False),
    ),
)
def combat_initiative(p: dict[str, Any], rng: Rng) -> RollResult:
    hand, fight = p["hand"], p["fight"]
    lines = [f"cards in hand: {hand}"]
    if p["buttoned"]:
        # Combat Initiative: against a buttoned hatch the Fight cards drawn are halved, rounded down.
        drawn = fight // 2
        lines.append(f"Fight {fight} against a buttoned hatch, halved -> {drawn} cards")
    else:
        drawn = fight
        lines.append(f"Fight cards: {drawn}")
    value = hand + drawn
    lines.append(f"{hand} + {drawn} = **combat initiative {value}**")
    lines.append("ties: highest-VP fighter first, then lowest dog tag")
    return RollResult("Combat initiative (Hell on Wheels)", lines, {"fight_cards": drawn, "value": value})


@check(
    system=HOW,
    name="bog",
    slash="bog",
    help="Pin markers from a failed Bog check",
    params=(
        Param("pins", "int", "Pin results pulled", True, minimum=0, maximum=20),
        Param("bog", "int", "Bog pins of the square", True, minimum=0, maximum=20),
    ),
)
def bog(p: dict[str, Any], rng: Rng) -> RollResult:
    pins, per_pin = p["pins"], p["bog"]
    markers = pins * per_pin
    if pins == 0:
        lines = ["no Pin results: the vehicle does not bog and moves on", "**0 Pin markers**"]
    else:
        lines = [
            f"{pins} Pin result{'s' if pins != 1 else ''} x bog {per_pin} = **{markers} Pin markers**",
            "the Move action is cancelled; remove one Pin per Move action",
        ]
    return RollResult("Bog (Hell on Wheels)", lines, {"bogged": pins > 0, "pin_markers": markers})


@check(
    system=HOW,
    name="bog-checks",
    slash="bog-checks",
    help="How many Bog checks a move needs",
    params=(
        Param("move", "int", "SMG: square's MOVE modifier", minimum=-20, maximum=0),
        Param(
            "sdd",
            "choice",
            "SDD: square's MOVE letter",
            choices=("S", "R", "T"),
            labels={"S": "slow", "R": "rough", "T": "tracked-only obstacle"},
        ),
        Param("tracked", "bool", "Fully tracked vehicle", default=False),
        Param("passing", "bool", "Passing a vehicle on a road", default=False),
    ),
)
def bog_checks(p: dict[str, Any], rng: Rng) -> RollResult:
    move, letter = p["move"], p["sdd"]
    if (move is None) == (letter is None):
        raise RollError(
            "bog-checks needs exactly one of --move (a whole number from -20 to 0) or --sdd (one of S, R, T)"
        )
    if move is not None:
        count = -move
        lines = [f"MOVE {move}: one check per point -> {count}"]
    else:
        # Bog Checks [SDD]: S one, R two, T one for tracked vehicles and two for the rest.
        count = {"S": 1, "R": 2, "T": 1 if p["tracked"] else 2}[letter]
        lines = [f"{letter}" + (" (tracked)" if letter == "T" and p["tracked"] else "") + f" -> {count}"]
    if p["passing"] and count == 0:
        count = 1
        lines.append("passing on a road -> at least 1")
    lines.append(f"**{count} Bog check{'s' if count != 1 else ''}**: any Pin result bogs the vehicle")
    return RollResult("Bog checks (Hell on Wheels)", lines, {"checks": count})


@check(
    system=HOW,
    name="vehicle-sight",
    slash="vehicle-sight",
    help="A crewman's Sight range in squares",
    params=(
        Param("crew_sight", "int", "Crewman's Sight", True, minimum=0, maximum=60),
        Param("vehicle_sight", "int", "Vehicle's Sight modifier", True, minimum=-30, maximum=0),
        Param("unbuttoned", "bool", "Crewman is unbuttoned", default=False),
        Param("visibility", "int", "Target's Visibility multiplier", default=1, minimum=1, maximum=20),
        Param("mods", "ints", "LOOK modifiers on the line, e.g. -1,-2", minimum=-30, maximum=30),
        Param("optics", "int", "Optics value N (as in 0-N)", default=0, minimum=0, maximum=10),
    ),
)
def vehicle_sight(p: dict[str, Any], rng: Rng) -> RollResult:
    crew, veh, optics, vis = p["crew_sight"], p["vehicle_sight"], p["optics"], p["visibility"]
    mods = list(p["mods"] or ())
    lines = []
    if p["unbuttoned"]:
        sight = crew
        lines.append(f"unbuttoned: Sight {crew}, vehicle modifier not used")
    elif optics:
        # Optics: looking through optics cancels the vehicle's Sight modifier.
        sight = crew
        lines.append(f"buttoned with optics 0-{optics}: Sight {crew}, vehicle modifier {veh} cancelled")
    else:
        sight = crew + veh
        lines.append(f"buttoned: Sight {crew} {shown(veh)} vehicle = {sight}")
    base = sight * vis
    if vis != 1:
        # Visibility: the Sight value is multiplied before any LOOK modifier is counted.
        lines.append(f"target Visibility x{vis}: {sight} x {vis} = {base}")
    ignored = [m for m in mods if optics and -optics <= m < 0]
    counted = [m for m in mods if not (optics and -optics <= m < 0)]
    if ignored:
        lines.append(f"optics ignore {', '.join(shown(m) for m in ignored)}")
    total_mod = sum(counted)
    rng_sq = max(0, base + total_mod)
    if counted:
        lines.append(f"LOOK modifiers {' '.join(shown(m) for m in counted)} = {shown(total_mod)}")
    lines.append(f"{base} {shown(total_mod)} = **range {rng_sq} square{'s' if rng_sq != 1 else ''}**")
    data = {"adjusted_sight": sight, "before_modifiers": base, "mods_counted": counted, "mods_ignored": ignored,
            "range": rng_sq}
    return RollResult("Vehicle sight (Hell on Wheels)", lines, data)


# Artillery (Types chart): devices that may call it, VP cost, blast checks, and when it lands.
_NEAR = ("normal: after one LOOK phase, 1 Sight action by field telephone or 2 by other devices; "
         "relay: 2 Sight actions after one LOOK phase")
_FAR = "normal: 2 Sight actions after one LOOK phase; relay: 3 Sight actions after two LOOK phases"
_PLANNED = "pre-planned on landmarks or X-terrain: lands at the start of its secret turn (play-sequence step 5)"
ARTILLERY: dict[str, dict[str, Any]] = {
    "medium-mortars": {"devices": ("radio", "walkie-talkie", "field-telephone"), "vp": 2, "blast": 2, "arrives": _NEAR},
    "light-artillery": {"devices": ("radio", "walkie-talkie"), "vp": 3, "blast": 3, "arrives": _NEAR},
    "heavy-mortars": {"devices": ("radio", "field-telephone"), "vp": 4, "blast": 4, "arrives": _FAR},
    "medium-artillery": {"devices": ("radio", "field-telephone"), "vp": 5, "blast": 5, "arrives": _FAR},
    "rockets": {"devices": ("scenario",), "vp": 5, "blast": 5, "arrives": _PLANNED},
    "heavy-artillery": {"devices": ("scenario",), "vp": 6, "blast": 6, "arrives": _PLANNED},
}
# Placement and Tracking: the Sight row the marker starts on, by device and type.
SIGHT_ROW = {
    ("field-telephone", "medium-mortars"): 1,
    ("field-telephone", "heavy-mortars"): 1,
    ("radio", "medium-mortars"): 2,
    ("walkie-talkie", "medium-mortars"): 2,
    ("radio", "light-artillery"): 2,
    ("walkie-talkie", "light-artillery"): 2,
    ("radio", "medium-artillery"): 3,
    ("field-telephone", "medium-artillery"): 3,
    ("radio", "heavy-mortars"): 2,  # not in the placement list; the chart's normal count (see docs/rolls.md)
}


@check(
    system=HOW,
    name="artillery",
    slash="artillery",
    help="Artillery chart: devices, VP, blast, arrival",
    params=(
        Param("type", "choice", "Artillery type", True, choices=tuple(ARTILLERY)),
        Param(
            "device",
            "choice",
            "Calling device",
            choices=("radio", "walkie-talkie", "field-telephone"),
        ),
    ),
)
def artillery(p: dict[str, Any], rng: Rng) -> RollResult:
    kind, device = p["type"], p["device"]
    row = ARTILLERY[kind]
    lines = [
        f"{kind}: {row['vp']} VP, {row['blast']}x blast checks on the target square or landmark",
        "called by: " + (", ".join(row["devices"]) if row["devices"] != ("scenario",) else "scenario rules only"),
        f"arrives: {row['arrives']}",
        "a vehicle hit by artillery uses its lowest armour",
    ]
    data: dict[str, Any] = {
        "type": kind,
        "devices": list(row["devices"]),
        "vp_cost": row["vp"],
        "blast": row["blast"],
        "arrival": row["arrives"],
    }
    if device is not None:
        allowed = device in row["devices"]
        data["can_call"] = allowed
        data["sight_row"] = SIGHT_ROW.get((device, kind)) if allowed else None
        if allowed:
            lines.append(f"**{device} may call it**; marker starts on the {data['sight_row']}-Sight row")
        else:
            lines.append(f"**{device} may not call {kind}**")
    return RollResult("Artillery (Hell on Wheels)", lines, data)
