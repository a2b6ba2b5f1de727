"""Hex Command Mechanized r3.1: the Command-and-Colors cube read on a D6, to-hit pushes,
range bands, the AT damage table, HE damage and the shot fall.

The to-hit ladder is automatic, color (4-6), code (5-6), code-n-color (6). Each cover level
or combat penalty pushes the need one rung up; a combat bonus pulls it one rung down.
"""
from __future__ import annotations

from typing import Any

from engine.core.rng import Rng
from engine.rolls import (
    Dice,
    Param,
    RollError,
    RollResult,
    System,
    check,
    register_system,
)

HC = register_system(
    System(key="hc", title="Hex Command Mechanized", slash="hc",
           help="Hex Command Mechanized: CnC cube, AT and HE damage")
)

LADDER = ("auto", "color", "code", "cnc")
LADDER_MIN_D6 = {"auto": 1, "color": 4, "code": 5, "cnc": 6}
LADDER_WORDS = {"auto": "automatic", "color": "color (4-6)", "code": "code (5-6)", "cnc": "code-n-color (6)"}
WEIGHTS = ("VL", "L", "M", "H", "VH")
WEIGHT_WORDS = {"VL": "very light", "L": "light", "M": "medium", "H": "heavy", "VH": "very heavy"}

# The cube's faces as we read them on a D6 (docs/rolls.md): 1-2 blank, 3 blue, 4 red,
# 5 star, 6 red star. Damage Results: red or blue = movement hit, a star = defense hit,
# the red star = combat hit.
FACES = {1: "blank", 2: "blank", 3: "blue", 4: "red", 5: "star", 6: "red star"}
DAMAGE = {
    "blank": ("none", "no damage"),
    "blue": ("movement", "movement hit: -1 hex of speed (blue marker)"),
    "red": ("movement", "movement hit: -1 hex of speed (blue marker)"),
    "star": ("defense", "defense hit: weight class drops one step (yellow marker)"),
    "red star": ("combat", "combat hit: -1 combat (red star)"),
}

# AT Damage Table, one column per target weight, read down by firer weight (VL, L, M, H, VH).
AT_TABLE = {
    "VL": ("1", "1", "2", "3", "4"),
    "L": ("color", "1", "2", "2", "3"),
    "M": ("none", "color", "1", "1", "2"),
    "H": ("none", "none", "color", "1", "1"),
    "VH": ("none", "none", "none", "color", "1"),
}

# Range bands (Combat Ranges; Firing chart): the last hex of each band, per weapon class.
RANGE_BANDS = {
    "small-arms": (2, 4, 6, 8),
    "cannon-a": (3, 6, 9, 15),
    "cannon-b": (3, 6, 9, 12),
    "cannon-c": (3, 6, 9, 10),
}
RANGE_LABELS = {
    "small-arms": "infantry small arms (2-hex bands)",
    "cannon-a": "cannon class A: very heavy and heavy guns",
    "cannon-b": "cannon class B: medium guns",
    "cannon-c": "cannon class C: light and very light guns",
}

# Red hit indicators an HE hit places, by shell weight (very light guns fire no HE).
HE_RED_HITS = {"L": 1, "M": 1, "H": 2, "VH": 3}

# Shot fall: 1 is the hex in front of the target's facing, then clockwise.
SHOT_FALL = {1: "front", 2: "front-right", 3: "rear-right", 4: "rear", 5: "rear-left", 6: "front-left"}


def roll_damage(dice: Dice, count: int, given: tuple[int, ...] | None) -> list[dict[str, Any]]:
    out = []
    for die in dice.many(6, count, given, "damage cube"):
        face = FACES[die]
        kind, text = DAMAGE[face]
        out.append({"d6": die, "face": face, "hit": kind, "text": text})
    return out


def _damage_lines(cubes: list[dict[str, Any]]) -> list[str]:
    return [f"damage cube d6 {c['d6']} ({c['face']}): **{c['text']}**" for c in cubes]


def _band_for(weapon: str, hexes: int) -> str | None:
    for band, last in zip(LADDER, RANGE_BANDS[weapon]):
        if hexes <= last:
            return band
    return None


@check(
    system=HC,
    name="hc-range",
    slash="range",
    help="Range band for a distance in hexes",
    params=(
        Param("weapon", "choice", "Weapon class", True, choices=tuple(RANGE_BANDS), labels=RANGE_LABELS),
        Param("hexes", "int", "Distance, hexes", True, minimum=0, maximum=99),
    ),
)
def range_band(p: dict[str, Any], rng: Rng) -> RollResult:
    band = _band_for(p["weapon"], p["hexes"])
    bands = RANGE_BANDS[p["weapon"]]
    spans = ", ".join(f"{LADDER[i]} {(bands[i - 1] + 1) if i else 0}-{bands[i]}" for i in range(4))
    lines = [f"{RANGE_LABELS[p['weapon']]}: {spans}",
             f"{p['hexes']} hexes: **{LADDER_WORDS[band] if band else 'out of range'}**"]
    return RollResult("Range band (Hex Command)", lines, {"band": band or "out-of-range", "max_hexes": bands[-1]})


@check(
    system=HC,
    name="hc-roll",
    slash="roll",
    help="To-hit on the CnC cube with cover pushes",
    params=(
        Param("need", "choice", "Base need", choices=LADDER, labels=LADDER_WORDS),
        Param("weapon", "choice", "Or weapon class (with hexes)", choices=tuple(RANGE_BANDS)),
        Param("hexes", "int", "Distance, hexes (with weapon)", minimum=0, maximum=99),
        Param("cover", "int", "Field cover levels", default=0, minimum=0, maximum=5),
        Param("hard_cover", "int", "Building cover levels", default=0, minimum=0, maximum=5),
        Param("obscured", "bool", "Line passes an obscurity", default=False),
        Param("indirect", "bool", "Indirect HE", default=False),
        Param("penalty", "int", "Other combat penalties", default=0, minimum=0, maximum=9),
        Param("bonus", "int", "Combat bonuses", default=0, minimum=0, maximum=9),
        Param("d6", "int", "The D6", minimum=1, maximum=6, die=True),
    ),
)
def to_hit(p: dict[str, Any], rng: Rng) -> RollResult:
    dice = Dice(rng)
    lines = []
    if p["need"] is not None:
        if p["weapon"] is not None or p["hexes"] is not None:
            raise RollError("hc-roll takes either --need or --weapon with --hexes, not both")
        base = p["need"]
    else:
        if p["weapon"] is None or p["hexes"] is None:
            raise RollError("hc-roll needs --need (one of auto, color, code, cnc) or --weapon with --hexes")
        band = _band_for(p["weapon"], p["hexes"])
        if band is None:
            longest = RANGE_BANDS[p["weapon"]][-1]
            raise RollError(f"{p['hexes']} hexes is out of range for {p['weapon']} (at most {longest})")
        base = band
        lines.append(f"{p['weapon']} at {p['hexes']} hexes: {LADDER_WORDS[band]}")
    steps = p["penalty"] + p["hard_cover"] - p["bonus"]
    parts = []
    if p["indirect"]:
        # HE procedures: indirect fire passes over obscurity and field cover, not buildings.
        if p["cover"] or p["obscured"]:
            parts.append("indirect: field cover and obscurity ignored")
    else:
        steps += p["cover"] + (1 if p["obscured"] else 0)
        if p["cover"]:
            parts.append(f"cover +{p['cover']}")
        if p["obscured"]:
            parts.append("obscured +1")
    if p["hard_cover"]:
        parts.append(f"building cover +{p['hard_cover']}")
    if p["penalty"]:
        parts.append(f"penalties +{p['penalty']}")
    if p["bonus"]:
        parts.append(f"bonuses -{p['bonus']}")
    index = LADDER.index(base) + steps
    lines.append(f"base {LADDER_WORDS[base]}" + (f"; {', '.join(parts)}" if parts else ""))
    data: dict[str, Any] = {"base": base, "pushes": steps}
    if index > 3:
        lines.append("**pushed past code-n-color: no hit possible**")
        data.update({"needed": "impossible", "success": False, "dice": dice.record})
        return RollResult("To hit (Hex Command)", lines, data)
    needed = LADDER[max(0, index)]
    if needed == "auto":
        lines.append("**automatic hit**")
        data.update({"needed": needed, "success": True, "dice": dice.record})
        return RollResult("To hit (Hex Command)", lines, data)
    die = dice.roll(6, p["d6"], "to hit")
    success = die >= LADDER_MIN_D6[needed]
    lines.append(f"needs {LADDER_WORDS[needed]}: d6 {die} ({FACES[die]}) **{'hit' if success else 'miss'}**")
    data.update({"needed": needed, "d6": die, "face": FACES[die], "success": success, "dice": dice.record})
    return RollResult("To hit (Hex Command)", lines, data)


_WEIGHT_LABELS = WEIGHT_WORDS


@check(
    system=HC,
    name="hc-at",
    slash="at",
    help="AT damage table and damage cubes",
    params=(
        Param("firer", "choice", "Firer's gun weight", True, choices=WEIGHTS, labels=_WEIGHT_LABELS),
        Param("target", "choice", "Target's weight", True, choices=WEIGHTS, labels=_WEIGHT_LABELS),
        Param("dice", "ints", "D6s: color roll if needed, then damage", minimum=1, maximum=6, die=True),
    ),
)
def at_damage(p: dict[str, Any], rng: Rng) -> RollResult:
    dice = Dice(rng)
    result = AT_TABLE[p["target"]][WEIGHTS.index(p["firer"])]
    given = list(p["dice"] or ())
    lines = [f"{WEIGHT_WORDS[p['firer']]} gun against {WEIGHT_WORDS[p['target']]} target: **{result}**"]
    cubes: list[dict[str, Any]] = []
    data: dict[str, Any] = {"result": result}
    if result == "none":
        lines.append("the gun cannot damage this target")
    elif result == "color":
        # A bare "Color" cell: score a color first, then one damage cube.
        die = dice.roll(6, given.pop(0) if given else None, "color roll")
        scored = die >= LADDER_MIN_D6["color"]
        data["color_roll"] = die
        lines.append(f"color roll d6 {die}: " + ("scored, one damage cube" if scored else "**no damage**"))
        if scored:
            cubes = roll_damage(dice, 1, tuple(given))
    else:
        cubes = roll_damage(dice, int(result), tuple(given))
    lines += _damage_lines(cubes)
    if cubes:
        lines.append("four hits of any kind knock a vehicle out")
    data.update({"damage": cubes, "dice": dice.record})
    return RollResult("AT damage (Hex Command)", lines, data)


@check(
    system=HC,
    name="hc-he",
    slash="he",
    help="HE damage by shell weight",
    params=(
        Param("weight", "choice", "Shell weight", True, choices=tuple(HE_RED_HITS),
              labels={k: WEIGHT_WORDS[k] for k in HE_RED_HITS}),
        Param("target", "choice", "Vehicle weight in the hex", choices=WEIGHTS, labels=_WEIGHT_LABELS),
        Param("dice", "ints", "D6s for the damage cubes", minimum=1, maximum=6, die=True),
    ),
)
def he_damage(p: dict[str, Any], rng: Rng) -> RollResult:
    dice = Dice(rng)
    weight = p["weight"]
    red = HE_RED_HITS[weight]
    lines = [f"{WEIGHT_WORDS[weight]} HE: **{red} red hit{'s' if red != 1 else ''}**, spread evenly over the hex"]
    data: dict[str, Any] = {"red_hits": red}
    if p["target"] is not None:
        step = WEIGHTS.index(weight) - WEIGHTS.index(p["target"])
        cubes: list[dict[str, Any]] = []
        if step < 0:
            lines.append(f"lighter than a {WEIGHT_WORDS[p['target']]} vehicle: **no damage possible**")
            data.update({"cubes": 0, "wipe_out": False})
        elif step >= 4:
            lines.append("four classes heavier: **everything in the hex is destroyed** (not concrete)")
            data.update({"cubes": 0, "wipe_out": True})
        else:
            # HE Damage: one cube at equal weight, one more per class heavier.
            count = 1 + step
            cubes = roll_damage(dice, count, p["dice"])
            plural = "s" if count != 1 else ""
            lines.append(f"{count} damage cube{plural} against the {WEIGHT_WORDS[p['target']]} vehicle")
            lines += _damage_lines(cubes)
            data.update({"cubes": count, "wipe_out": False})
        data["damage"] = cubes
    data["dice"] = dice.record
    return RollResult("HE damage (Hex Command)", lines, data)


@check(
    system=HC,
    name="hc-shot-fall",
    slash="shot-fall",
    help="Shot fall of indirect fire",
    params=(Param("d6", "int", "The D6", minimum=1, maximum=6, die=True),),
)
def shot_fall(p: dict[str, Any], rng: Rng) -> RollResult:
    dice = Dice(rng)
    die = dice.roll(6, p["d6"], "shot fall")
    lines = [f"d6 {die}: **lands in the {SHOT_FALL[die]} hex** (1 = in front of the target's facing, then clockwise)",
             "the named hex itself is never hit"]
    return RollResult("Shot fall (Hex Command)", lines, {"hex": die, "direction": SHOT_FALL[die], "dice": dice.record})


@check(
    system=HC,
    name="hc-damage",
    slash="damage",
    help="Roll and read damage cubes",
    params=(
        Param("cubes", "int", "Damage cubes", default=1, minimum=1, maximum=10),
        Param("dice", "ints", "D6s for the cubes", minimum=1, maximum=6, die=True),
    ),
)
def damage_cubes(p: dict[str, Any], rng: Rng) -> RollResult:
    dice = Dice(rng)
    if p["dice"] is not None and len(p["dice"]) > p["cubes"]:
        raise RollError(f"--dice: {len(p['dice'])} values for {p['cubes']} cube(s)")
    cubes = roll_damage(dice, p["cubes"], p["dice"])
    counts = {k: sum(1 for c in cubes if c["hit"] == k) for k in ("movement", "defense", "combat")}
    return RollResult("Damage cubes (Hex Command)", _damage_lines(cubes),
                      {"damage": cubes, **counts, "dice": dice.record})
