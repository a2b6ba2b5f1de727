"""Sergeants Miniatures Game (core manual) checks: sight, shoot bands, take cover, rally, and card
draws for hit checks, damage and fights.

The arithmetic is the game engine's own (engine/core/formulas.py), so a roll and a game can never
disagree. Draws come from the real action cards: a named soldier's
seven cards, or the standard deck of every action card in the catalogue.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from engine.core.formulas import (
    bands_in_range,
    cover_value,
    halve,
    hides,
    hit_value,
    rally_reach,
    sight_range,
)
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

SMG = register_system(System(key="sergeants", title="Sergeants Miniatures Game", slash="sergeants",
                             help="Sergeants core rules: sight, shooting, cover, rally, card draws"))

PINNED = Param("pinned", "bool", "He is pinned (ratings halved)", default=False)


@check(system=SMG, name="sight", slash="sight", help="Can he see that far: sight + LOOK mods vs squares",
       params=(Param("sight", "int", "Sight rating (squares)", True, minimum=0, maximum=40),
               Param("mods", "ints", "LOOK modifiers on the line, comma-separated", default=(0,)),
               Param("distance", "int", "Distance in squares", True, minimum=0, maximum=60),
               PINNED))
def sight(p: dict[str, Any], rng: Rng) -> RollResult:
    rating = halve(p["sight"]) if p["pinned"] else p["sight"]
    mods = sum(p["mods"])
    rng_ = sight_range(rating, mods)
    ok = p["distance"] <= rng_
    lines = [f"sight {p['sight']}" + (f", pinned: {rating}" if p["pinned"] else ""),
             f"{rating} {shown(mods)} LOOK = modified sight {rng_} squares",
             f"distance {p['distance']} {'<=' if ok else '>'} {rng_}: **{'spotted' if ok else 'not seen'}**"]
    return RollResult("Sight (Sergeants)", lines, {"range": rng_, "success": ok, "mods": mods})


@check(system=SMG, name="shoot", slash="shoot", help="Which hit-check bands a shot reads",
       params=(Param("long", "int", "Long range (squares)", True, minimum=0, maximum=40),
               Param("short", "int", "Short range (squares)", True, minimum=0, maximum=40),
               Param("close", "int", "Close range (inches)", True, minimum=0, maximum=60),
               Param("mods", "ints", "SHOOT modifiers on the line, comma-separated", default=(0,)),
               Param("squares", "int", "Distance in squares", True, minimum=0, maximum=60),
               Param("inches", "int", "Distance in inches (to check Close)", minimum=0, maximum=300),
               PINNED))
def shoot(p: dict[str, Any], rng: Rng) -> RollResult:
    half = (lambda v: halve(v)) if p["pinned"] else (lambda v: v)
    lo, sh, cl = half(p["long"]), half(p["short"]), half(p["close"])
    mods = sum(p["mods"])
    inches_ = p["inches"] if p["inches"] is not None else 10**6  # no inches given: Close not checked
    bands = bands_in_range(lo, sh, cl, mods, p["squares"], inches_)
    lines = [f"Long {lo} {shown(mods)} = {lo + mods} squares vs {p['squares']}: "
             f"{'yes' if 'long' in bands else 'no'}",
             f"Short {sh} {shown(mods)} = {sh + mods} squares vs {p['squares']}: "
             f"{'yes' if 'short' in bands else 'no'}"]
    if p["inches"] is None:
        lines.append("Close: give --inches to check it")
    else:
        lines.append(f"Close {cl} {shown(mods)} = {cl + mods}\" vs {p['inches']}\": "
                     f"{'yes' if 'close' in bands else 'no'}")
    lines.append("**reads " + (", ".join(b.capitalize() for b in bands) if bands else "nothing: out of range") + "**")
    return RollResult("Shoot (Sergeants)", lines, {"bands": bands, "mods": mods})


@check(system=SMG, name="cover", slash="cover", help="Take cover: cover + HIDE mods must be below zero",
       params=(Param("cover", "int", "Cover value", True, minimum=-10, maximum=20),
               Param("mods", "ints", "HIDE modifiers, own square to the enemy's", default=(0,)),
               PINNED))
def cover(p: dict[str, Any], rng: Rng) -> RollResult:
    mods = sum(p["mods"])
    value = cover_value(p["cover"], mods, p["pinned"])
    ok = hides(value)
    base = halve(p["cover"]) if p["pinned"] else p["cover"]
    lines = [f"cover {p['cover']}" + (f", pinned (toward zero): {base}" if p["pinned"] else ""),
             f"{base} {shown(mods)} HIDE = {value}",
             f"**{'takes cover' if ok else 'stays spotted'}** ({value} {'<' if ok else '>='} 0)"]
    return RollResult("Take cover (Sergeants)", lines, {"value": value, "success": ok, "mods": mods})


@check(system=SMG, name="rally", slash="rally", help="Rally reach: 10 inches + HIDE mods vs distance",
       params=(Param("mods", "ints", "HIDE modifiers, rallier's square to the pinned man's", default=(0,)),
               Param("distance", "int", "Distance in inches", True, minimum=0, maximum=300)))
def rally(p: dict[str, Any], rng: Rng) -> RollResult:
    mods = sum(p["mods"])
    reach = rally_reach(mods)
    ok = p["distance"] <= reach
    lines = [f"10\" {shown(mods)} HIDE = reach {reach}\"",
             f"distance {p['distance']}\" {'<=' if ok else '>'} {reach}\": **{'rallied' if ok else 'out of reach'}**"]
    return RollResult("Rally (Sergeants)", lines, {"reach": reach, "success": ok, "mods": mods})


# ----------------------------------------------------------------------------- draws


@lru_cache(maxsize=1)
def _cards():
    """The catalogue's cards and soldiers: the content models are imported on the first draw, so
    every other roll starts without them; the shipped content is the process's one catalogue."""
    from engine.core.content import load_catalog
    cat = load_catalog()
    return cat.cards, cat.soldiers


def _deck(soldier: int | None, rank: str = "private") -> tuple[list[str], str]:
    """The standard deck, or one soldier's seven cards: his four core cards and his rank's three."""
    cards, soldiers = _cards()
    if soldier is None:
        return sorted(cards), "the standard deck (every action card)"
    if soldier not in soldiers:
        raise RollError(f"--soldier must be a dog tag in the catalogue, e.g. {min(soldiers)} (got {soldier})")
    d = soldiers[soldier]
    ranks = {r.rank.value: r for r in d.ranks}
    if rank not in ranks:
        raise RollError(f"--rank must be one of {', '.join(ranks)} for {d.name} (got {rank!r})")
    return list(d.core_cards) + list(ranks[rank].cards), f"{d.name}'s cards ({rank.replace('_', ' ')})"


SOLDIER = Param("soldier", "int", "Draw from this soldier's cards (dog tag)", minimum=1, maximum=9999)
RANK = Param("rank", "choice", "His rank, for a leader's cards", default="private",
             choices=("private", "junior_nco", "senior_nco"))


@check(system=SMG, name="hitcheck", slash="hitcheck", help="Draw a hit check and read its bands",
       params=(Param("bands", "choice", "Bands the shot reads", default="long,short,close",
                     choices=("long", "long,short", "long,short,close", "short,close", "close", "blast")),
               Param("hit_plus", "bool", "The shooter has Use Hit+", default=False), SOLDIER, RANK))
def hitcheck(p: dict[str, Any], rng: Rng) -> RollResult:
    cards, _ = _cards()
    pool, where = _deck(p["soldier"], p["rank"])
    cid = rng.choice(pool)
    card = cards[cid]
    hits, chain, lines = 0, False, [f"draws {cid} from {where}"]
    for b in p["bands"].split(","):
        n, plus = hit_value(getattr(card.hit, b))
        hits += n
        chain = chain or (plus and p["hit_plus"] and b != "blast")
        lines.append(f"{b.capitalize()}: {getattr(card.hit, b)}")
    lines.append(f"**{hits} hit{'s' if hits != 1 else ''}**" + (", and Hit+ fires again" if chain else ""))
    return RollResult("Hit check (Sergeants)", lines, {"card": cid, "hits": hits, "hit_plus": chain})


@check(system=SMG, name="damage", slash="damage", help="Draw damage checks: Zip, Pin, Wound or Kill",
       params=(Param("hits", "int", "Hits taken (one check each)", default=1, minimum=1, maximum=20), SOLDIER, RANK))
def damage(p: dict[str, Any], rng: Rng) -> RollResult:
    cards, _ = _cards()
    pool, where = _deck(p["soldier"], p["rank"])
    drawn = [rng.choice(pool) for _ in range(p["hits"])]
    results = [cards[c].damage.value for c in drawn]
    lines = [f"from {where}:"] + [f"{c}: {r}" for c, r in zip(drawn, results)]
    return RollResult("Damage (Sergeants)", lines, {"cards": drawn, "results": results})


@check(system=SMG, name="fight", slash="fight", help="Draw fight cards: Fight value, halved in the rear",
       params=(Param("fight", "int", "Fight value", True, minimum=0, maximum=10),
               Param("rear", "bool", "Struck in the rear (half the cards)", default=False),
               PINNED, SOLDIER, RANK))
def fight(p: dict[str, Any], rng: Rng) -> RollResult:
    cards, _ = _cards()
    pool, where = _deck(p["soldier"], p["rank"])
    n = halve(p["fight"]) if p["pinned"] else p["fight"]
    working = [f"Fight {p['fight']}" + (f", pinned: {n}" if p["pinned"] else "")]
    if p["rear"]:
        n = halve(n)
        working.append(f"struck in the rear: {n} card{'s' if n != 1 else ''}")
    deck = list(pool)
    rng.shuffle(deck)
    drawn = deck[:n]
    results = [cards[c].damage.value for c in drawn]
    working.append(f"from {where}: " + (", ".join(f"{c} {r}" for c, r in zip(drawn, results)) or "no cards"))
    return RollResult("Fight cards (Sergeants)", working, {"cards": drawn, "results": results, "count": n})
