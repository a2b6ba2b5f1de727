"""Konflikt '47-style vehicle rules (book 002): damage values, penetration, the armoured damage
results table, pinning by crew quality, and tank and infantry assaults on vehicles.

A roll to damage is one D6 plus the modified Pen value against the target's Damage value.
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
    shown,
)

K47 = register_system(
    System(key="k47", title="Konflikt '47 vehicles", slash="k47",
           help="Konflikt '47-style vehicle damage, pinning and assaults")
)

# Damage Value Table: the score a roll to damage needs, by target type.
DAMAGE_VALUES: dict[str, int] = {
    "inexperienced-infantry": 3,
    "regular-infantry": 4,
    "veteran-infantry": 5,
    "soft-skin": 6,
    "armoured-car": 7,
    "light-tank": 8,
    "medium-tank": 9,
    "heavy-tank": 10,
    "super-heavy-tank": 11,
}
TARGET_LABELS = {
    "inexperienced-infantry": "inexperienced infantry or artillery",
    "regular-infantry": "regular infantry or artillery",
    "veteran-infantry": "veteran infantry or artillery",
    "soft-skin": "soft-skinned vehicle or scout walker",
    "armoured-car": "armoured car, carrier or light walker",
    "light-tank": "light tank or medium walker",
    "medium-tank": "medium tank or heavy walker",
    "heavy-tank": "heavy tank or super-heavy walker",
    "super-heavy-tank": "super-heavy tank",
}
ARMOURED_FROM = 7  # armoured targets start at Damage value 7
ASPECT_PEN = {"front": 0, "side": 1, "top": 1, "rear": 2}

# Damage Results on Armoured Targets, by the modified D6 (1 or less, 2, 3, 4 or more).
EFFECTS = {
    1: ("stunned", "crew stunned: one more pin, the vehicle halts (Down) this turn"),
    2: ("immobilised", "immobilised: one more pin, it never moves again; a second one knocks it out"),
    3: ("on-fire", "on fire: one more pin and a morale check; fail and the crew bail out (knocked out)"),
    4: ("knocked-out", "knocked out: the vehicle is a wreck"),
}


def effect_for(modified: int) -> tuple[str, str]:
    return EFFECTS[min(4, max(1, modified))]


def _dv_param(help_text: str = "Target's Damage value (N+)") -> Param:
    return Param("damage_value", "int", help_text, True, minimum=2, maximum=12)


_ASPECT = Param(
    "aspect",
    "choice",
    "Armour facing the shot",
    default="front",
    choices=("front", "side", "rear", "top"),
    labels={"front": "no bonus", "side": "+1 Pen", "rear": "+2 Pen", "top": "+1 Pen (mortars and the like)"},
)
_RANGE = Param("range", "choice", "Range band", default="normal", choices=("normal", "long"),
               labels={"normal": "up to half the weapon's range", "long": "beyond half its range, -1 Pen"})
_WALKER = Param("walker", "bool", "Target is a walker", default=False)


def modified_pen(pen: int, dv: int, rng_band: str, aspect: str, walker: bool) -> tuple[int, list[str]]:
    """Pen after the heavy-weapon-against-armour modifiers, with one working line per modifier."""
    lines = [f"weapon Pen {shown(pen)}"]
    if pen < 1 or dv < ARMOURED_FROM:
        # Penetration modifiers apply only to heavy weapons shooting at armoured targets.
        lines.append("no facing or range modifiers (not a heavy weapon against armour)")
        return pen, lines
    total = pen
    bonus = 0 if walker else ASPECT_PEN[aspect]
    if bonus:
        lines.append(f"{aspect} armour {shown(bonus)}")
        total += bonus
    elif aspect != "front" and walker:
        lines.append(f"{aspect} of a walker: no bonus")
    if rng_band == "long":
        lines.append("long range -1")
        total -= 1
    return total, lines


def damage_effects(
    dice: Dice, kind: str, given: tuple[int, ...] | None, plus_one: bool
) -> list[dict[str, Any]]:
    """Roll the armoured damage results table once (superficial or full) or twice (massive)."""
    count = 2 if kind == "massive" else 1
    rolls = dice.many(6, count, given, "damage result")
    out = []
    for die in rolls:
        modified = die - (3 if kind == "superficial" else 0) + (1 if plus_one else 0)
        key, text = effect_for(modified)
        out.append({"die": die, "modified": modified, "effect": key, "text": text})
    return out


def _effect_lines(kind: str, effects: list[dict[str, Any]], plus_one: bool) -> list[str]:
    lines = []
    for e in effects:
        mods = (" -3 superficial" if kind == "superficial" else "") + (" +1 open-topped, indirect" if plus_one else "")
        lines.append(f"damage result d6 {e['die']}{mods} = {e['modified']}: **{e['text']}**")
    return lines


@check(
    system=K47,
    name="k47",
    slash="damage",
    help="Roll to damage: D6 + Pen vs Damage value",
    params=(
        Param("pen", "int", "Weapon's Pen (0 = small arms)", True, minimum=-5, maximum=12),
        _dv_param(),
        _RANGE,
        _ASPECT,
        _WALKER,
        Param("die", "int", "D6 to damage", minimum=1, maximum=6, die=True),
        Param("effect_dice", "ints", "D6 for damage results", minimum=1, maximum=6, die=True),
        Param("open_topped", "bool", "Target is open-topped", default=False),
        Param("indirect", "bool", "Hit by indirect fire", default=False),
    ),
)
def damage(p: dict[str, Any], rng: Rng) -> RollResult:
    dice = Dice(rng)
    dv = p["damage_value"]
    pen, lines = modified_pen(p["pen"], dv, p["range"], p["aspect"], p["walker"])
    can = 6 + pen >= dv
    lines.append(f"needs {dv}+: best roll 6 {shown(pen)} = {6 + pen} -> " + ("can damage" if can else "cannot damage"))
    die = dice.roll(6, p["die"], "to damage")
    total = die + pen
    armoured = dv >= ARMOURED_FROM
    if total < dv:
        outcome = "none"
    elif not armoured:
        outcome = "damaged"
    elif total == dv:
        outcome = "superficial"  # Superficial damage: the exact score needed
    elif total >= dv + 3 and p["pen"] >= 1:
        outcome = "massive"  # Massive damage: 3 or more over what was needed
    else:
        outcome = "damaged"
    lines.append(f"d6 {die} {shown(pen)} = {total} vs {dv}+: **{outcome}**")
    effects: list[dict[str, Any]] = []
    plus_one = p["open_topped"] and p["indirect"]
    if outcome != "none" and armoured:
        kind = "superficial" if outcome == "superficial" else "massive" if outcome == "massive" else "full"
        effects = damage_effects(dice, kind, p["effect_dice"], plus_one)
        lines += _effect_lines(kind, effects, plus_one)
    elif outcome == "damaged":
        lines.append("soft target: " + ("destroyed outright" if dv == 6 else "one casualty"))
    data = {"pen": pen, "needed": dv, "can_damage": can, "die": die, "total": total, "outcome": outcome,
            "effects": effects, "dice": dice.record}
    return RollResult("Roll to damage (Konflikt '47)", lines, data)


@check(
    system=K47,
    name="k47-result",
    slash="result",
    help="Damage results table for armoured targets",
    params=(
        Param("die", "int", "The D6", minimum=1, maximum=6, die=True),
        Param("superficial", "bool", "Superficial damage (-3)", default=False),
        Param("open_topped_indirect", "bool", "Open-topped, indirect fire (+1)", default=False),
    ),
)
def damage_result(p: dict[str, Any], rng: Rng) -> RollResult:
    dice = Dice(rng)
    kind = "superficial" if p["superficial"] else "full"
    given = None if p["die"] is None else (p["die"],)
    effects = damage_effects(dice, kind, given, p["open_topped_indirect"])
    e = effects[0]
    lines = _effect_lines(kind, effects, p["open_topped_indirect"])
    data = {"die": e["die"], "modified": e["modified"], "effect": e["effect"], "text": e["text"], "dice": dice.record}
    return RollResult("Damage result (Konflikt '47)", lines, data)


@check(
    system=K47,
    name="k47-target",
    slash="target",
    help="Damage value of each kind of target",
    params=(
        Param("target", "choice", "Kind of target", True, choices=tuple(DAMAGE_VALUES), labels=TARGET_LABELS),
    ),
)
def target(p: dict[str, Any], rng: Rng) -> RollResult:
    key = p["target"]
    dv = DAMAGE_VALUES[key]
    armoured = dv >= ARMOURED_FROM
    lines = [f"{TARGET_LABELS[key]}: **damage value {dv}+**",
             "armoured: small arms cannot hurt it" if armoured else "soft: a damaging hit destroys it"]
    return RollResult("Damage value (Konflikt '47)", lines, {"target": key, "needed": dv, "armoured": armoured})


@check(
    system=K47,
    name="k47-pin",
    slash="pin",
    help="Does a hit pin a vehicle? (crew quality)",
    params=(
        Param("quality", "choice", "Crew quality", True, choices=("inexperienced", "regular", "veteran")),
        Param("pen", "int", "Hit's Pen (0 = small arms)", True, minimum=-5, maximum=12),
        _dv_param(),
        _RANGE,
        _ASPECT,
        _WALKER,
        Param("open_topped", "bool", "Vehicle is open-topped", default=False),
        Param("d6", "int", "Regular crew's reaction D6", minimum=1, maximum=6, die=True),
    ),
)
def pin(p: dict[str, Any], rng: Rng) -> RollResult:
    dice = Dice(rng)
    dv, quality = p["damage_value"], p["quality"]
    behaves = quality
    if p["open_topped"] or dv < ARMOURED_FROM:
        pinned = True
        lines = ["open-topped or soft target: any hit pins it, as for infantry"]
        pen, can = p["pen"], None
    elif p["pen"] < 1:
        pinned = False
        lines = ["small arms (Pen below +1) never pin a fully enclosed armoured vehicle"]
        pen, can = p["pen"], None
    else:
        pen, lines = modified_pen(p["pen"], dv, p["range"], p["aspect"], p["walker"])
        can = 6 + pen >= dv
        lines.append(f"best roll 6 {shown(pen)} = {6 + pen} vs {dv}+ -> " + ("can damage" if can else "cannot damage"))
        if quality == "regular":
            # Vehicles and Pinning: a regular crew reacts as inexperienced on 1-3, as veterans on 4+.
            die = dice.roll(6, p["d6"], "crew reaction")
            behaves = "inexperienced" if die <= 3 else "veteran"
            lines.append(f"regular crew, d6 {die} -> reacts as {behaves}")
        pinned = True if behaves == "inexperienced" else can
        lines.append("inexperienced: every heavy hit pins" if behaves == "inexperienced" else
                     "veteran: pinned only by a hit that could damage it")
    markers = 1 if pinned else 0
    lines.append(f"**{markers} pin marker{'s' if markers != 1 else ''}**")
    data = {"pinned": pinned, "pin_markers": markers, "pen": pen, "can_damage": can, "behaves_as": behaves,
            "dice": dice.record}
    return RollResult("Pinning a vehicle (Konflikt '47)", lines, data)


def _vehicle_damage(dice: Dice, who: str, dv: int, kind: str, given: list[int]) -> dict[str, Any]:
    """Damage to one vehicle after an assault: soft-skins are destroyed, armour rolls the table."""
    if kind == "none":
        return {"damage": "none", "effects": []}
    if dv < ARMOURED_FROM:
        return {"damage": "destroyed", "effects": []}
    die = given.pop(0) if given else None
    effects = damage_effects(dice, kind, None if die is None else (die,), False)
    return {"damage": kind, "effects": effects}


@check(
    system=K47,
    name="k47-tank-assault",
    slash="tank-assault",
    help="Tank assault on a vehicle",
    params=(
        Param("attacker_dv", "int", "Assaulting tank's Damage value", True, minimum=8, maximum=12),
        Param("defender_dv", "int", "Target's Damage value (6 soft-skin)", True, minimum=6, maximum=12),
        Param("attacker_die", "int", "Attacker's D6", minimum=1, maximum=6, die=True),
        Param("defender_die", "int", "Defender's D6", minimum=1, maximum=6, die=True),
        Param("effect_dice", "ints", "D6 for damage results", minimum=1, maximum=6, die=True),
    ),
)
def tank_assault(p: dict[str, Any], rng: Rng) -> RollResult:
    dice = Dice(rng)
    a_dv, d_dv = p["attacker_dv"], p["defender_dv"]
    lines = []
    if d_dv >= 8:
        lines.append("assaulting a tank or walker: the attacker's order test takes -3")
    a_die = dice.roll(6, p["attacker_die"], "attacker")
    d_die = dice.roll(6, p["defender_die"], "defender")
    # Tank Assaults on Vehicles: armoured vehicles add their Damage value to the die.
    a_score = a_die + (a_dv if a_dv >= ARMOURED_FROM else 0)
    d_score = d_die + (d_dv if d_dv >= ARMOURED_FROM else 0)
    lines.append(f"attacker d6 {a_die} + {a_dv} = {a_score}; defender d6 {d_die}" +
                 (f" + {d_dv}" if d_dv >= ARMOURED_FROM else " (soft-skin adds nothing)") + f" = {d_score}")
    if a_score > d_score:
        winner, result = "attacker", {"attacker": "won", "defender": "lost"}
    elif d_score > a_score:
        winner, result = "defender", {"attacker": "lost", "defender": "won"}
    else:
        winner, result = "none", {"attacker": "lost", "defender": "lost"}
    dvs = {"attacker": a_dv, "defender": d_dv}
    given = list(p["effect_dice"] or ())
    sides: dict[str, Any] = {}
    for who, other in (("attacker", "defender"), ("defender", "attacker")):
        if result[who] == "lost":
            kind = "superficial" if dvs[who] > dvs[other] else "full"
        else:
            kind = "none" if dvs[who] > dvs[other] else "superficial"
        outcome = _vehicle_damage(dice, who, dvs[who], kind, given)
        sides[who] = {"score": a_score if who == "attacker" else d_score, "result": result[who], **outcome}
        line = f"{who} {result[who]}: " + ("no damage" if outcome["damage"] == "none" else
                                            "destroyed (soft-skin)" if outcome["damage"] == "destroyed" else
                                            f"{outcome['damage']} damage")
        lines.append(line)
        lines += [f"  {who} d6 {e['die']} -> {e['modified']}: **{e['text']}**" for e in outcome["effects"]]
    lines.append("both survivors halt (Down) and take one more pin")
    data = {"winner": winner, "attacker": sides["attacker"], "defender": sides["defender"], "dice": dice.record}
    return RollResult("Tank assault on a vehicle (Konflikt '47)", lines, data)


@check(
    system=K47,
    name="k47-infantry-assault",
    slash="infantry-assault",
    help="Infantry assault on a vehicle",
    params=(
        Param("attacks", "int", "Attack dice of the unit", True, minimum=0, maximum=40),
        _dv_param("Vehicle's Damage value"),
        Param(
            "vehicle",
            "choice",
            "Vehicle's state (not running)",
            default="halted",
            choices=("halted", "advancing"),
            labels={"halted": "halted, Down, immobilised or not yet acted", "advancing": "on an Advance order"},
        ),
        Param("open_topped", "bool", "Vehicle is open-topped", default=False),
        Param("at_weapons", "bool", "Unit has anti-tank weapons", default=False),
        Param("attack_dice", "ints", "Attack dice, e.g. 4,6,2", minimum=1, maximum=6, die=True),
        Param("die", "int", "D6 to damage", minimum=1, maximum=6, die=True),
        Param("effect_dice", "ints", "D6 for damage results", minimum=1, maximum=6, die=True),
    ),
)
def infantry_assault(p: dict[str, Any], rng: Rng) -> RollResult:
    dice = Dice(rng)
    dv, n = p["damage_value"], p["attacks"]
    if dv < 6:
        raise RollError("--damage-value must be 6 or more for a vehicle (6 = soft-skin)")
    armoured, enclosed = dv >= ARMOURED_FROM, dv >= ARMOURED_FROM and not p["open_topped"]
    lines = []
    if enclosed and not p["at_weapons"]:
        lines.append("no anti-tank weapons against an enclosed vehicle: order test at -3 first (tank fear)")
    need = 4 if p["vehicle"] == "halted" else 6
    attack = dice.many(6, n, p["attack_dice"], "attack", strict=True)
    hits = sum(1 for d in attack if d >= need)
    shown_dice = ", ".join(map(str, attack)) or "none"
    lines.append(f"{n} attacks hitting on {need}+: {shown_dice} -> {hits} hit{'s' if hits != 1 else ''}")
    die = dice.roll(6, p["die"], "to damage")
    total = die + hits
    lines.append(f"d6 {die} + {hits} hits = {total} vs {dv}+")
    effects: list[dict[str, Any]] = []
    if total < dv:
        outcome = "none"
    elif not enclosed:
        outcome = "destroyed"  # soft-skins and open-topped vehicles go outright
    else:
        outcome = "superficial" if total == dv or not p["at_weapons"] else "damaged"
        kind = "superficial" if outcome == "superficial" else "full"
        effects = damage_effects(dice, kind, p["effect_dice"], False)
    lines.append(f"**{outcome}**")
    lines += _effect_lines("superficial" if outcome == "superficial" else "full", effects, False)
    data = {"hits": hits, "total": total, "needed": dv, "armoured": armoured, "outcome": outcome,
            "effects": effects, "dice": dice.record}
    return RollResult("Infantry assault on a vehicle (Konflikt '47)", lines, data)
