"""Equipment cards (advanced rules, Markers and Equipment; core manual, Equipment).

Equipment is bought with force VP at set-up (engine/turn/setup.py force_cost, check_force) and is
carried by one soldier (SoldierState.equipment, a list of equipment ids). The same list keeps
what the game does to a card, so positions and clones carry it for free:

  "<id>!used"     one use of a limited card spent (smoke canisters, rockets, rifle grenades)
  "dug@x,y"       the soldier dug a scrape at cell x,y with his entrenching tool

This module answers who may use what and how many uses are left, and digs the scrape of an
entrenching tool. Thrown smoke, fired weapons, handing equipment over and the VP for captured
equipment are engine/advanced/equipment_use.py.
"""
from __future__ import annotations

from engine.core.content import EquipmentDef
from engine.core.log import Ctx
from engine.core.ratings import current

USED = "!used"
DUG = "dug@"


# --------------------------------------------------------------------------- what he carries


def carried(st, serial: int) -> list[str]:
    """The equipment ids the soldier carries (marks left out)."""
    return [q for q in st.soldiers[serial].equipment if USED not in q and not q.startswith(DUG)]


def uses_left(st, serial: int, item: str) -> int | None:
    """Uses left of a limited card (None: no limit); 0 when he does not carry it."""
    eq = st.setup.equipment.get(item)
    if eq is None or item not in carried(st, serial):
        return 0
    if eq.uses is None:
        return None
    mine = st.soldiers[serial].equipment
    return max(0, eq.uses * mine.count(item) - mine.count(item + USED))


def spend(st, serial: int, item: str) -> None:
    """One use spent; the last use throws the card away (an empty tube, no more canisters)."""
    mine = st.changing(serial).equipment
    mine.append(item + USED)
    if uses_left(st, serial, item) == 0:
        while item in mine:
            mine.remove(item)
        while item + USED in mine:
            mine.remove(item + USED)


def meets(sdef, stats, need) -> bool:
    """Does a soldier (his card and current ratings) meet an equipment card's requirement?"""
    if need is None:
        return True
    if need.badge is not None and sdef.badge == need.badge:
        return True
    if need.cover_max is not None and stats.cover <= need.cover_max:
        return True
    if need.sight is not None and stats.sight >= need.sight:
        return True
    return False


def entry_problem(cat, entry) -> str | None:
    """Force selection: may this soldier carry all the equipment he is given? A card with a
    requirement goes to the specialist whose kit lists it or to a man who meets it; the whole
    load keeps within his equip limit (`equip_problem`)."""
    d = cat.soldiers[entry.serial]
    stats = d.profile(entry.rank).healthy
    for q in entry.equipment:
        eq = cat.equipment.get(q)
        if eq is None or eq.requires is None or q in d.kit or meets(d, stats, eq.requires):
            continue
        return f"{d.name} ({d.serial}) cannot use the {eq.name}: {need_words(eq)}."
    return equip_problem(cat.equipment, entry.serial, f"{d.name} ({d.serial})", d.profile(entry.rank).vp,
                         list(entry.equipment))


# --------------------------------------------------------------------------- the equip limit


def counts_against(eq: EquipmentDef, serial: int) -> bool:
    """Does this card weigh on the man's equip limit? Only cards on the chart with Equip "Yes",
    and never a card bearing his own name or dog tag (the SMG reading: ruling E2)."""
    return eq.chart and eq.equip and eq.owner != serial


def equip_problem(catalogue: dict[str, EquipmentDef], serial: int, who: str, vp: int,
                  items: list[str]) -> str | None:
    """Why a man worth `vp` may not carry all these cards at once, or None (vehicle book, Equip):
    the cards that count add up to at most twice his VP, and of any card worth more than he is
    he carries one at most. His own named cards, cards off the chart and Equip "No" cards are free."""
    total, count = 0, {}
    for q in items:
        eq = catalogue.get(q)
        if eq is None or not counts_against(eq, serial):
            continue
        total += eq.vp
        count[q] = count.get(q, 0) + 1
    for q, n in count.items():
        eq = catalogue[q]
        if n > 1 and eq.vp > vp:
            return (f"{who} may carry only one {eq.name}: at {eq.vp} VP it is worth more than he is ({vp} VP), "
                    f"and he would have {n}.")
    if total > 2 * vp:
        return (f"{who} may carry {2 * vp} VP of equipment (twice his {vp} VP); "
                f"that load is worth {total} VP.")
    return None


def load_problem(st, serial: int, extra: list[str] = ()) -> str | None:
    """In play: could the man carry what he has plus `extra` (a hand-off, a find)?"""
    return equip_problem(st.setup.equipment, serial, st.name(serial), st.vp_value(serial),
                         carried(st, serial) + list(extra))


def need_words(eq: EquipmentDef) -> str:
    n = eq.requires
    parts = []
    if n.badge:
        parts.append(f"{'an' if n.badge[0] in 'aeiou' else 'a'} {n.badge} badge")
    if n.cover_max is not None:
        parts.append(f"a cover value of {n.cover_max} or less")
    if n.sight is not None:
        parts.append(f"a sight of {n.sight} or more")
    return "it needs " + " or ".join(parts)


def may_use(st, serial: int, item: str) -> str | None:
    """Why the soldier cannot use an item he holds, or None when he can."""
    eq = st.setup.equipment.get(item)
    if eq is None:
        return f"there is no equipment {item!r}."
    if item not in carried(st, serial):
        return f"{st.name(serial)} does not carry the {eq.name}."
    d = st.setup.soldiers[serial]
    if eq.requires is None or item in d.kit or meets(d, st.stats(serial), eq.requires):
        return None
    return f"{st.name(serial)} cannot use the {eq.name}: {need_words(eq)}."


def device_of(eq: EquipmentDef | None) -> str | None:
    """What a piece of equipment calls the guns with: its device, a plain radio card counting as
    a radio."""
    if eq is None:
        return None
    return eq.device or ("radio" if eq.kind == "radio" else None)


def grenade_bonus(cat, entry) -> int:
    """Grenades a grenade pouch adds to the soldier's own."""
    return sum(cat.equipment[q].grenades for q in entry.equipment if q in cat.equipment)


# --------------------------------------------------------------------------- the blade


def fight_rating(st, serial: int) -> int:
    """The fight cards a man draws in a fight before a strike in the rear halves them: his Fight
    rating as it stands now, plus what a blade he may use adds (the combat knife, ruling R65)."""
    edge = max((st.setup.equipment[q].fight or 0 for q in set(carried(st, serial))
                if q in st.setup.equipment and may_use(st, serial, q) is None), default=0)
    return current(st, serial, "fight") + edge


# --------------------------------------------------------------------------- the scrape


def dig_bonus(st, serial: int) -> int:
    """How much a scrape dug where he stands improves his cover (0: none)."""
    s = st.soldiers[serial]
    if s.at is None:
        return 0
    here = f"{DUG}{s.at[0]},{s.at[1]}"
    if here not in s.equipment:
        return 0
    return max((st.setup.equipment[q].dig or 0 for q in carried(st, serial)
                if q in st.setup.equipment and st.setup.equipment[q].kind == "tool"), default=0)


def dig_in(ctx: Ctx, serial: int) -> None:
    """After a successful Take Cover, a man with an entrenching tool scrapes a hole where he lies:
    it counts from his next Take Cover on, as long as he does not leave the cell."""
    st = ctx.st
    s = st.soldiers[serial]
    tools = [q for q in carried(st, serial) if q in st.setup.equipment and st.setup.equipment[q].kind == "tool"]
    if not tools or s.at is None or may_use(st, serial, tools[0]) is not None:
        return
    s = st.changing(serial)
    s.equipment[:] = [q for q in s.equipment if not q.startswith(DUG)]
    s.equipment.append(f"{DUG}{s.at[0]},{s.at[1]}")
    ctx.say("dig_in", f"{st.name(serial)} digs a scrape with his {st.setup.equipment[tools[0]].name}.", serial=serial)
