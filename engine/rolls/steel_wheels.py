"""Steel Wheels WWII v2.4 charts: the tests and the table look-ups.

Dice: D6 for tests, D8 at long range, D10 at effective range (and for fragments), D12 at short
range. Combat skill (CS) and commander rank (CR) run 0-3. The tables live in
`steel_wheels_tables`; this module reads them and shows which row and column it used.
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
from engine.rolls import steel_wheels_tables as T

SW = register_system(
    System(key="sw", title="Steel Wheels WWII", slash="sw", help="Steel Wheels WWII v2.4: tests and chart look-ups")
)

# Our words for the chart's effect codes.
WORDS = {
    "-": "no effect",
    "dead": "whole crew killed",
    "ct": "courage test",
    "dt": "dodge test first",
    "brief": "brief moves only",
    "slow": "slow moves only",
    "immobile": "immobilised",
    "out": "knocked out",
    "boom": "blown up, no survivors",
    "saved": "crew unhurt",
    "track": "track broken",
    "broken": "track broken",
    "mg": "machine gun knocked out",
    "main": "main weapon knocked out",
    "gun-jam": "gun jammed",
    "gun-lost": "gun knocked out",
    "turret-jam": "turret jammed",
    "carriage-jam": "gun carriage jammed",
    "quenched": "flames die out",
    "sf": "chart code SF",
    "fire": "set ablaze",
    "killed": "killed",
    "killed-mp": "killed (chart code /MP)",
    "killed-p": "killed (chart code /P)",
    "blast": "everyone within the blast radius is eliminated",
    "floor": "everyone on the floor hit is eliminated",
    "collapse": "building collapses: everyone inside is eliminated",
}


def describe(code: str) -> str:
    """Render an effect code such as `out+3+ct` as words: `knocked out, 3 killed, courage test`."""
    parts = []
    for token in code.split("+"):
        if token.isdigit():
            parts.append(f"{token} killed")
        else:
            parts.append(WORDS[token])
    return ", ".join(parts)


def _range_die(band: str) -> int:
    return {"long": 8, "effective": 10, "fragments": 10, "short": 12}[band]


_CS = Param("cs", "int", "Combat skill (0-3)", default=0, minimum=0, maximum=3)
BAND_LABELS = {"long": "D8", "effective": "D10", "short": "D12", "fragments": "HE fragments, D10"}
_RANGE = Param("range", "choice", "Range band (D8/D10/D12)", True, choices=("long", "effective", "short"),
               labels={k: BAND_LABELS[k] for k in ("long", "effective", "short")})


def _band_die(dice: Dice, band: str, given: int | None) -> tuple[int, int]:
    sides = _range_die(band)
    return sides, dice.roll(sides, given, band)


@check(
    system=SW,
    name="sw-test",
    slash="test",
    help="Tests chart: RT, DFR, IFR, CF, CT, PT, DT, MC",
    params=(
        Param("test", "choice", "Test", True, choices=tuple(T.TESTS),
              labels={k: v["what"] for k, v in T.TESTS.items()}),
        Param("cs", "int", "Combat skill (0-3)", True, minimum=0, maximum=3),
        Param("cr", "int", "Commander rank (0-3)", default=0, minimum=0, maximum=3),
        Param("d6", "int", "Your D6", minimum=1, maximum=6, die=True),
        Param("vs", "int", "Opposing die, or opponent's total (RT/MC)", minimum=1, maximum=12),
        Param("opp_cs", "int", "Opponent's CS (RT/MC)", default=0, minimum=0, maximum=3),
        Param("opp_cr", "int", "Opponent's CR (RT)", default=0, minimum=0, maximum=3),
        Param("pt_die", "choice", "PT: die to beat", default="10", choices=("10", "12")),
        Param("crew_loss", "bool", "RT: unit has lost crew (D6 = 1)", default=False),
    ),
)
def test(p: dict[str, Any], rng: Rng) -> RollResult:
    dice = Dice(rng)
    name, cs, cr = p["test"], p["cs"], p["cr"]
    rule = T.TESTS[name]
    lines = [f"{name}: {rule['what']}"]
    if p["crew_loss"] and name == "RT":
        # Crew casualties: a unit that has lost crew counts a 1 instead of rolling for RT.
        die = 1
        lines.append("crew lost: D6 counts as 1")
    else:
        die = dice.roll(6, p["d6"], name)
    score = die + cs + (cr if rule["cr"] else 0)
    score_text = f"d6 {die} + CS {cs}" + (f" + CR {cr}" if rule["cr"] else "") + f" = {score}"
    if not rule["cr"] and cr:
        score_text += f" (CR does not count in {name})"
    lines.append(score_text)
    if rule["against"] is None:
        if p["vs"] is not None:
            against = p["vs"]
            lines.append(f"opponent's total {against}")
        else:
            opp = dice.roll(6, None, "opponent")
            opp_cr = p["opp_cr"] if rule["cr"] else 0
            against = opp + p["opp_cs"] + opp_cr
            cr_text = f" + CR {opp_cr}" if rule["cr"] else ""
            lines.append(f"opponent d6 {opp} + CS {p['opp_cs']}{cr_text} = {against}")
        success = score > against
        rel = ">" if success else "<=" if score < against else "= (a tie: neither beats the other)"
        lines.append(f"{score} {rel} {against}: **{'success' if success else 'failure'}**")
    else:
        sides = int(p["pt_die"]) if name == "PT" else rule["against"]
        if p["vs"] is not None and p["vs"] > sides:
            raise RollError(f"--vs for {name} is the D{sides}: a whole number from 1 to {sides}")
        against = dice.roll(sides, p["vs"], f"{name} opposing die")
        success = score >= against
        lines.append(f"needs {score} >= d{sides} {against}: **{'success' if success else 'failure'}**")
    return RollResult(f"{name} test (Steel Wheels)", lines, {"test": name, "score": score, "against": against,
                                                             "success": success, "dice": dice.record})


MINE_UNITS = {
    "tank": "tank or self-propelled gun",
    "armored-car": "armoured car or half-track",
    "truck": "truck, car, jeep or bike",
    "infantry": "infantry or artillery team",
}


@check(
    system=SW,
    name="sw-minefield",
    slash="minefield",
    help="Minefield effects chart (D6)",
    params=(
        Param("unit", "choice", "Unit type",
              True, choices=tuple(T.MINEFIELD), labels=MINE_UNITS),
        Param("d6", "int", "The D6", minimum=1, maximum=6, die=True),
    ),
)
def minefield(p: dict[str, Any], rng: Rng) -> RollResult:
    dice = Dice(rng)
    die = dice.roll(6, p["d6"], "minefield")
    code = T.MINEFIELD[p["unit"]][die - 1]
    effect = describe(code) if p["unit"] != "infantry" else f"{code} killed"
    lines = [f"{MINE_UNITS[p['unit']]}, d6 {die}: **{effect}**", "then a courage test for the unit"]
    data = {"effect": effect, "code": code, "d6": die, "dice": dice.record}
    return RollResult("Minefield (Steel Wheels)", lines, data)


SPEED = {"T": "tactical", "B": "brief", "S": "slow", "X": "impassable"}
SUFFIX = {"dt": "dodge test first", "remove": "removes the obstacle", "ruins": "leaves it in ruins",
          "shift": "pushes it aside"}


def _terrain_cell(code: str) -> str:
    if code.startswith("R"):
        return f"road: {code[1:]} cm for each 1 cm of tactical move"
    speed, _, extra = code.partition("+")
    return SPEED[speed] + (f" ({SUFFIX[extra]})" if extra else "")


@check(
    system=SW,
    name="sw-terrain",
    slash="terrain",
    help="Terrain effects chart: shelter and movement",
    params=(
        Param("terrain", "choice", "Terrain", True, choices=tuple(T.TERRAIN)),
        Param("unit", "choice", "Unit type", True, choices=T.TERRAIN_UNITS),
    ),
)
def terrain(p: dict[str, Any], rng: Rng) -> RollResult:
    shelter, row = T.TERRAIN[p["terrain"]]
    code = row.split()[T.TERRAIN_UNITS.index(p["unit"])]
    move = _terrain_cell(code)
    lines = [f"{p['terrain']}: shelter {shelter}", f"{p['unit']}: **{move}**"]
    return RollResult("Terrain (Steel Wheels)", lines, {"shelter": shelter, "movement": move, "code": code})


@check(
    system=SW,
    name="sw-spotting",
    slash="spotting",
    help="Spotting chart: distance in cm",
    params=(
        Param("target", "choice", "Target class", True, choices=("big", "small", "infantry"), labels={
            "big": "tank, SPG, half-track, truck", "small": "light tank or SPG, armoured car, jeep, car, gun",
            "infantry": "infantry, mortar, bike"}),
        Param("terrain", "choice", "Target's terrain", True, choices=tuple(T.SPOTTING_GROUPS["big"])),
        Param("status", "choice", "Target's status", default="stationary", choices=("stationary", "moving", "firing")),
        Param("inside", "bool", "Spotter inside the area", default=False),
        Param("reduced", "bool", "Reduced visibility", default=False),
    ),
)
def spotting(p: dict[str, Any], rng: Rng) -> RollResult:
    target, where, status = p["target"], p["terrain"], p["status"]
    group = T.SPOTTING_GROUPS[target][where]
    column = (2 if p["reduced"] else 0) + (1 if p["inside"] else 0)
    cm = T.SPOTTING[target][group][status][column]
    if target == "infantry" and status == "moving" and where in ("houses", "trenches"):
        cm = T.SPOTTING_MOVING_BUILT_UP[column]
    lines = [
        f"{target} target in {where} ({group} terrain), {status}",
        (f"{'reduced' if p['reduced'] else 'normal'} visibility,"
         f" spotter {'inside' if p['inside'] else 'outside'} the area"),
        f"**spotted at up to {cm} cm**",
        "a vehicle within 4 cm of friendly infantry (not fleeing) spots as they do",
    ]
    return RollResult("Spotting (Steel Wheels)", lines, {"distance_cm": cm, "group": group})


FIRE_TARGET_LABELS = {
    "big-tank": "big tank, SPG or assault gun", "tank": "tank, SPG or assault gun",
    "small-tank": "small tank or SPG, armoured car", "half-track": "half-track", "truck": "truck or tractor",
    "jeep": "jeep, car or bike", "soldier": "a single soldier", "artillery": "gun with shield",
    "building-1": "building column hit on 4+", "building-2": "building column hit on 6+ (wall)",
    "building-3": "building column hit on 8+ (bunker front wall centre)", "building-4": "building column hit on 9+",
    "building-5": "building column hit only on the top row",
}
FIRE_WORDS = {
    "-": "miss", "body": "hits the body", "turret": "hits the turret (casemate on an SPG)", "track": "hits a track",
    "wheel": "hits a wheel", "wheel|track": "hits a wheel or track", "choice": "firer picks the part hit",
    "dead-s": "soldier killed unless in any shelter", "dead-m": "soldier killed unless in medium or hard shelter",
    "dead-h": "soldier killed unless in hard shelter", "dead": "soldier killed", "shield": "hits the gun shield",
    "gun": "hits the gun", "hit": "building hit",
}
SHELTER_RANK = {"none": 0, "soft": 1, "medium": 2, "hard": 3}
NEEDS_SHELTER = {"dead-s": 1, "dead-m": 2, "dead-h": 3, "dead": 4}


@check(
    system=SW,
    name="sw-fire",
    slash="fire",
    help="Heavy weapons fire chart: part of the target hit",
    params=(
        Param("target", "choice", "Target column", True, choices=T.FIRE_TARGETS, labels=FIRE_TARGET_LABELS),
        Param("range", "choice", "Range band (D8/D10/D12)", True, choices=("long", "effective", "short", "fragments"),
              labels=BAND_LABELS),
        _CS,
        Param("die", "int", "The range die", minimum=1, maximum=12, die=True),
        Param("moving", "bool", "Target is moving", default=False),
        Param("shelter", "choice", "Soldier's shelter", default="none", choices=tuple(SHELTER_RANK)),
        Param("calibre", "int", "Shell calibre, mm (soldier)", minimum=1, maximum=999),
    ),
)
def fire(p: dict[str, Any], rng: Rng) -> RollResult:
    dice = Dice(rng)
    sides, die = _band_die(dice, p["range"], p["die"])
    score = die + p["cs"]
    moving = p["moving"] and p["range"] != "fragments" and not p["target"].startswith("building")
    read = score - 3 if moving else score  # the moving column sits three rows lower
    row = 0 if read <= 3 else min(8, read - 3)
    cell = T.FIRE[p["target"]].split()[row]
    lines = [f"d{sides} {die} + CS {p['cs']} = {score}" + (f" (moving target: read as {read})" if moving else "")]
    data: dict[str, Any] = {"score": score, "row": row, "cell": cell, "hit": cell != "-", "dice": dice.record}
    result = FIRE_WORDS[cell]
    if cell in NEEDS_SHELTER:
        shelter = p["shelter"]
        rank = SHELTER_RANK[shelter]
        calibre = p["calibre"] or 0
        # Heavy weapons fire notes: shells over 70 mm deny soft shelter, over 122 mm medium too.
        if (calibre > 70 and rank == 1) or (calibre > 122 and rank == 2):
            lines.append(f"{calibre} mm shell: {shelter} shelter does not count")
            rank = 0
        killed = rank < NEEDS_SHELTER[cell]
        data["killed"] = killed
        result += f" -> in {shelter} shelter: " + ("killed" if killed else "survives")
    lines.append(f"{p['target']}: **{result}**")
    data["result"] = result
    return RollResult("Heavy weapons fire (Steel Wheels)", lines, data)


def _in_column(thickness: int, label: str) -> bool:
    """Whether a thickness falls in a chart column labelled "7", "9-10" or "17+"."""
    if label.endswith("+"):
        return thickness >= int(label[:-1])
    low, _, high = label.partition("-")
    return int(low) <= thickness <= int(high or low)


def _pen_row(ammo: str | None, calibre: int | None, gun: str | None) -> tuple[int | None, str]:
    if (calibre is None) == (gun is None):
        raise RollError("sw-penetration needs exactly one of --calibre (mm) or --gun (one of "
                        + ", ".join(T.PEN_NAMED) + ")")
    if gun is not None:
        column, row = T.PEN_NAMED[gun]
        return row, f"{gun} ({column.upper()} row {row + 1})"
    if ammo is None:
        raise RollError("--calibre needs --ammo: one of ap, he")
    bands = T.PEN_AP_BANDS if ammo == "ap" else T.PEN_HE_BANDS
    for i, band in enumerate(bands):
        if band and calibre >= band[0] and (band[1] is None or calibre <= band[1]):
            return i, f"{calibre} mm {ammo.upper()} ({band[0]}" + (f"-{band[1]} mm)" if band[1] else " mm and up)")
    return None, f"{calibre} mm {ammo.upper()} (too small for the chart)"


@check(
    system=SW,
    name="sw-penetration",
    slash="penetration",
    help="Armour penetration chart",
    params=(
        Param("armor", "int", "Armour, cm", True, minimum=1, maximum=60),
        Param("calibre", "int", "Calibre, mm", minimum=1, maximum=999),
        Param("ammo", "choice", "Ammo column (with calibre)", choices=("ap", "he")),
        Param("gun", "choice", "Named gun or device", choices=tuple(T.PEN_NAMED), labels={
            "2p": "2-pounder, AP", "50l": "German long 50 mm, AP", "6p-ap": "6-pounder, AP",
            "17-25p-ap": "17/25-pounder, AP",
            "75l": "German long 75 mm, AP", "88l": "German long 88 mm, AP", "hand-bomb": "hand bomb",
            "fragments": "HE fragments", "6p-he": "6-pounder, HE", "explosive": "explosive charge",
            "17-25p-he": "17/25-pounder, HE", "magnetic-mine": "magnetic mine"}),
        Param("block", "choice", "Chart block", default="a", choices=("a", "b"), labels={
            "a": "left block (its heading names indirect fire)", "b": "right block (its heading names Hb, Ex)"}),
        Param("range", "choice", "Range band (D8/D10/D12)", True, choices=("long", "effective", "short", "fragments"),
              labels=BAND_LABELS),
        Param("die", "int", "The range die", minimum=1, maximum=12, die=True),
    ),
)
def penetration(p: dict[str, Any], rng: Rng) -> RollResult:
    dice = Dice(rng)
    row, row_text = _pen_row(p["ammo"], p["calibre"], p["gun"])
    thick = p["armor"]
    label, column = next((k, v) for k, v in T.PENETRATION[p["block"]].items() if _in_column(thick, k))
    needed = None
    if row is not None:
        cell = column.split()[row]
        needed = None if cell == "-" else int(cell)
    sides, die = _band_die(dice, p["range"], p["die"])
    penetrates = needed is not None and die >= needed
    lines = [f"{row_text}, {thick} cm armour (column {label} cm), block {p['block']}",
             "needs " + (f"{needed}+" if needed is not None else "an impossible roll (-)") + f" on the d{sides}",
             f"d{sides} {die}: **{'penetrates' if penetrates else 'does not penetrate'}**"]
    if needed is not None and needed > sides:
        lines.insert(2, f"(a d{sides} cannot reach {needed}: only a closer range can)")
    data = {"needed": needed, "die": die, "penetrates": penetrates, "dice": dice.record}
    return RollResult("Armour penetration (Steel Wheels)", lines, data)


@check(
    system=SW,
    name="sw-effects",
    slash="effects",
    help="Heavy weapons effects chart (D10)",
    params=(
        Param("part", "choice", "Part hit", True, choices=T.EFFECT_PARTS, labels={
            "open-top": "into an open top", "tank-body": "body of a tank, SPG, assault gun or armoured car",
            "truck-body": "body of a truck or half-track", "turret": "turret of a tank or armoured car",
            "casemate": "casemate of a tank, SPG or assault gun", "track": "track",
            "jeep-body": "body of a jeep, car or bike",
            "wheel": "wheel", "artillery": "gun: cannon or howitzer"}),
        Param("die", "int", "The D10", minimum=1, maximum=10, die=True),
        Param("fragments", "bool", "HE fragments only", default=False),
    ),
)
def effects(p: dict[str, Any], rng: Rng) -> RollResult:
    dice = Dice(rng)
    die = dice.roll(10, p["die"], "effects")
    row = (T.EFFECT_FRAGMENT_ROW if p["fragments"] else T.EFFECT_FULL_ROW)[die - 1]
    code = T.EFFECTS[p["part"]].split()[row]
    effect = describe(code)
    lines = [f"d10 {die} ({'fragments' if p['fragments'] else 'full shot'}), {p['part']}: **{effect}**"]
    if "ct" in code.split("+"):
        lines.append("a failed courage test sends the unit back; crews leave immobilised vehicles")
    return RollResult("Heavy weapons effects (Steel Wheels)", lines,
                      {"effect": effect, "code": code, "row": row, "dice": dice.record})


def _shots_column(tops: tuple[int | None, ...], shots: int) -> tuple[int, str]:
    """The column for a number of shots, and its span as text ("8-12", "over 75")."""
    for i, top in enumerate(tops):
        low = 1 if i == 0 else tops[i - 1] + 1  # type: ignore[operator]
        if top is None:
            return i, f"over {low - 1}"
        if shots <= top:
            return i, f"{low}-{top}"
    raise AssertionError("the last column has no limit")


def _lw_row(score: int, table: dict[int, int], top: int) -> int:
    return table.get(max(1, score), top)


_LW_PARAMS = (
    Param("shots", "int", "Shots fired", True, minimum=1, maximum=999),
    _RANGE,
    _CS,
    Param("die", "int", "The range die", minimum=1, maximum=12, die=True),
    Param("moving", "bool", "Target is moving", default=False),
)


def _lw_vehicle_cell(code: str) -> str:
    if code == "-":
        return "no effect"
    if code == "x":
        return "blown up, everyone aboard killed"
    if code.isdigit():
        return f"{code} killed"
    what = {"b": "brief moves only", "s": "slow moves only", "i": "immobilised", "d": "knocked out"}[code[0]]
    return f"{what}, {code[1:]} killed, courage test"


@check(
    system=SW,
    name="sw-lw-vehicle",
    slash="lw-vehicle",
    help="Light weapon fire against unarmoured vehicles",
    params=_LW_PARAMS,
)
def lw_vehicle(p: dict[str, Any], rng: Rng) -> RollResult:
    dice = Dice(rng)
    sides, die = _band_die(dice, p["range"], p["die"])
    score = die + p["cs"]
    row = _lw_row(score, T.LW_VEHICLE_MOVING if p["moving"] else T.LW_VEHICLE_STATIONARY, 9)
    col, span = _shots_column(T.LW_SHOT_TOPS, p["shots"])
    code = T.LW_VEHICLE[row].split()[col]
    effect = _lw_vehicle_cell(code)
    lines = [f"d{sides} {die} + CS {p['cs']} = {score} ({'moving' if p['moving'] else 'stationary'} target)",
             f"{p['shots']} shots (column {span})",
             f"**{effect}**", "casualties never exceed the people aboard, crew included"]
    return RollResult("Light weapons vs vehicle (Steel Wheels)", lines,
                      {"effect": effect, "code": code, "score": score, "dice": dice.record})


@check(
    system=SW,
    name="sw-lw-infantry",
    slash="lw-infantry",
    help="Light weapon fire against infantry or artillery",
    params=_LW_PARAMS + (
        Param("shelter", "choice", "Target's shelter", default="none", choices=tuple(SHELTER_RANK)),
    ),
)
def lw_infantry(p: dict[str, Any], rng: Rng) -> RollResult:
    dice = Dice(rng)
    sides, die = _band_die(dice, p["range"], p["die"])
    score = die + p["cs"]
    row = _lw_row(score, T.LW_INFANTRY_MOVING if p["moving"] else T.LW_INFANTRY_STATIONARY, 9)
    col, span = _shots_column(T.LW_INFANTRY_SHOT_TOPS, p["shots"])
    cell = T.LW_INFANTRY[row].split()[col]
    triple = tuple(int(c) for c in (cell.split(".") if "." in cell else cell))
    casualties = triple[min(2, SHELTER_RANK[p["shelter"]])]
    lines = [f"d{sides} {die} + CS {p['cs']} = {score} ({'moving' if p['moving'] else 'stationary'} target)",
             f"{p['shots']} shots (column {span})",
             f"{p['shelter']} shelter: **{casualties} casualt{'y' if casualties == 1 else 'ies'}**",
             "a team at half strength or less takes a courage test on new casualties"]
    return RollResult("Light weapons vs infantry (Steel Wheels)", lines,
                      {"casualties": casualties, "score": score, "dice": dice.record})


@check(
    system=SW,
    name="sw-scatter",
    slash="scatter",
    help="Scatter of a miss or a barrage",
    params=(
        Param("kind", "choice", "What scattered", True, choices=tuple(T.SCATTER), labels={
            "missed-indirect": "indirect HE that missed its target", "missed-hand": "hand-thrown HE that missed",
            "mortar-direct": "mortar direct fire", "on-board": "barrage from on-table artillery",
            "off-board": "barrage from off-table artillery"}),
        _CS,
        Param("cr", "int", "Commander rank (barrages)", default=0, minimum=0, maximum=3),
        Param("distance_dice", "ints", "Distance dice, e.g. 7,3", minimum=1, maximum=12, die=True),
        Param("direction", "int", "Direction die", minimum=1, maximum=10, die=True),
    ),
)
def scatter(p: dict[str, Any], rng: Rng) -> RollResult:
    dice = Dice(rng)
    rule = T.SCATTER[p["kind"]]
    given = tuple(p["distance_dice"] or ())
    if len(given) > len(rule["dice"]):
        raise RollError(f"--distance-dice: {p['kind']} uses {len(rule['dice'])} dice")
    rolled = [dice.roll(s, given[i] if i < len(given) else None, "distance") for i, s in enumerate(rule["dice"])]
    cr = p["cr"] if rule["cr"] else 0
    raw = sum(rolled) - p["cs"] - cr
    direction = dice.roll(rule["direction"], p["direction"], "direction")
    dice_text = " + ".join(f"d{s} {v}" for s, v in zip(rule["dice"], rolled))
    lines = [f"{dice_text} - CS {p['cs']}" + (f" - CR {cr}" if rule["cr"] else "") + f" = {raw}"]
    exact = rule["cr"] and raw < 1
    distance = max(0, raw)
    if exact:
        lines.append("**below 1: the marked point itself is hit**")
    else:
        lines.append(f"**{distance} cm from {rule['from']}, toward arrow {direction} (d{rule['direction']})**")
    if not rule["cr"]:
        lines.append("if the arrow points at the target, the shot flies over and hits nothing")
    return RollResult("Scatter (Steel Wheels)", lines, {"distance_cm": 0 if exact else distance, "direction": direction,
                                                        "exact_hit": bool(exact), "dice": dice.record})


@check(
    system=SW,
    name="sw-incendiary",
    slash="incendiary",
    help="Incendiary weapons chart (D10)",
    params=(
        Param("target", "choice", "Target", True, choices=T.INCENDIARY_TARGETS, labels={
            "tank": "tank, SPG or armoured car", "truck": "truck, tractor or half-track", "jeep": "jeep, car or bike",
            "soldier": "each soldier under the flames"}),
        Param("die", "int", "The D10", minimum=1, maximum=10, die=True),
    ),
)
def incendiary(p: dict[str, Any], rng: Rng) -> RollResult:
    dice = Dice(rng)
    die = dice.roll(10, p["die"], "incendiary")
    code = T.INCENDIARY[p["target"]][T.INCENDIARY_ROW[die - 1]]
    effect = describe(code)
    lines = [f"d10 {die}, {p['target']}: **{effect}**"]
    if p["target"] == "soldier":
        lines.append("roll once for each model whose base is under the flames")
    return RollResult("Incendiary weapons (Steel Wheels)", lines, {"effect": effect, "code": code, "dice": dice.record})


@check(
    system=SW,
    name="sw-building",
    slash="building",
    help="Effects against buildings (D10)",
    params=(
        Param("building", "choice", "Building type", True, choices=T.BUILDING_TYPES, labels={
            "wooden": "wooden house, sandbags", "brick": "brick house, trench", "palace": "palace, fort",
            "bunker": "bunker, casemate, pill-box"}),
        Param("calibre", "int", "Calibre, mm (over 30)", True, minimum=31, maximum=999),
        Param("die", "int", "The D10", minimum=1, maximum=10, die=True),
    ),
)
def building(p: dict[str, Any], rng: Rng) -> RollResult:
    dice = Dice(rng)
    calibre = p["calibre"]
    column = 120 if calibre > 120 else 70 if calibre > 70 else 30
    die = dice.roll(10, p["die"], "building")
    row = T.BUILDING_ROW[column][die - 1]
    code = T.BUILDING[row][T.BUILDING_TYPES.index(p["building"])]
    effect = WORDS[code] if code != "fire" else "on fire: the floor hit is cleared, everyone must leave; courage test"
    lines = [f"{calibre} mm (column over {column} mm), d10 {die}, {p['building']}: **{effect}**"]
    return RollResult("Effects against buildings (Steel Wheels)", lines,
                      {"effect": effect, "code": code, "row": row, "dice": dice.record})


@check(
    system=SW,
    name="sw-crew",
    slash="crew",
    help="Crew casualties chart",
    params=(
        Param("crew", "int", "Crew at full strength", True, minimum=1, maximum=30),
        Param("dead", "int", "Crew killed", True, minimum=0, maximum=30),
    ),
)
def crew(p: dict[str, Any], rng: Rng) -> RollResult:
    size, dead = p["crew"], p["dead"]
    if dead > size:
        raise RollError("--dead must be a whole number from 0 to --crew")
    effects = []
    if dead >= 1:
        effects.append("readiness tests count the D6 as 1")
    if dead * 2 >= size:
        effects.append("simple maneuvers only")
    if size - dead == 1:
        effects.append("light weapons only")
    lines = [f"{dead} of {size} killed"] + [f"**{e}**" for e in effects] + (["no effect"] if not effects else [])
    if dead == size:
        lines.append("no one left")
    return RollResult("Crew casualties (Steel Wheels)", lines, {"effects": effects, "survivors": size - dead})


@check(
    system=SW,
    name="sw-comms",
    slash="comms",
    help="Communications chart: link distances",
    params=(
        Param("link", "choice", "Link", True, choices=tuple(T.COMMS), labels={
            "crew": "models of one team or crew", "platoon": "teams of one platoon",
            "radio": "teams of one platoon, by radio"}),
        Param("interrupted", "bool", "Sight line interrupted", default=False),
        Param("distance", "int", "Distance, cm", minimum=0, maximum=9999),
        Param("entrenched", "bool", "Entrenched units", default=False),
    ),
)
def comms(p: dict[str, Any], rng: Rng) -> RollResult:
    clear, blocked = T.COMMS[p["link"]]
    limit = blocked if p["interrupted"] else clear
    lines = [f"{p['link']}, {'interrupted' if p['interrupted'] else 'clear'} sight line: up to {limit} cm"]
    if p["entrenched"]:
        limit = max(limit, T.COMMS_ENTRENCHED_CM)
        lines.append(f"entrenched: up to {limit} cm")
    data: dict[str, Any] = {"max_cm": limit}
    if p["distance"] is not None:
        ok = p["distance"] <= limit or p["distance"] <= T.COMMS_ALWAYS_CM
        data["in_range"] = ok
        lines.append(f"{p['distance']} cm: **{'in touch' if ok else 'out of touch'}**"
                     + (" (within 8 cm always works)" if ok and p["distance"] > limit else ""))
    else:
        lines.append(f"**{limit} cm**; within {T.COMMS_ALWAYS_CM} cm always works")
    return RollResult("Communications (Steel Wheels)", lines, data)
