"""Action cards (core manual, Action Cards): what each part of a card allows (dog tag, team
bubble, narrator box), the sub-action each action command is, and a card in words. Pure
answers about cards, read by the card in play (engine/turn/cards.py), the routing of an action to
a part (engine/advanced/sources.py), the tactics modules and the option listing."""
from __future__ import annotations

from functools import cache

from engine.core import commands as C
from engine.core import per_setup
from engine.core.content import (
    ACTION_OF,
    DO_FACE,
    DO_MOVE,
    DO_SHOOT,
    DO_TOSS,
    Action,
    Do,
    subactions,
)
from engine.core.crew import is_crew_of, position_of, trained_at
from engine.core.state import ActiveCard

DO_OF = {C.MoveCmd: Do.MOVE, C.Charge: Do.MOVE, C.Face: Do.FACE, C.SightCmd: Do.SIGHT, C.DrawCmd: Do.DRAW,
         C.CoverCmd: Do.COVER, C.RallyCmd: Do.RALLY, C.HoldCmd: Do.HOLD, C.ShootCmd: Do.SHOOT, C.TossCmd: Do.TOSS,
         C.VMove: Do.MOVE, C.VTurn: Do.FACE, C.Turret: Do.TURRET, C.MovePlus: Do.MOVE, C.Unpin: Do.UNPIN,
         C.Fire: Do.SHOOT, C.Load: Do.LOAD, C.Acquire: Do.ACQUIRE, C.Unbutton: Do.UNBUTTON, C.Button: Do.BUTTON,
         C.HullDown: Do.HULLDOWN, C.VCover: Do.COVER, C.Mount: Do.MOUNT, C.Dismount: Do.DISMOUNT,
         C.Shift: Do.SHIFT, C.Repair: Do.REPAIR, C.Extinguish: Do.EXTINGUISH}


DO_OF[C.UseCmd] = Do.TOSS  # equipment (engine/infantry/equipment.py): a SHOOT like a toss, taken by 'shoot' entries


# the vehicle battlefield (issue 9): an artillery adjustment is a Sight, popping smoke a SHOOT,
# handing off and recovering equipment, climbing onto an enemy vehicle's deck, laying and clearing mines MOVEs
DO_OF.update({C.AdjustCmd: Do.SIGHT, C.PopSmokeCmd: Do.SHOOT, C.HandOffCmd: Do.MOVE, C.RecoverCmd: Do.MOVE,
               C.ClimbCmd: Do.MOVE, C.LayMinesCmd: Do.MOVE, C.ClearMinesCmd: Do.MOVE})


# The vehicle book's sub-actions a plain entry of the same action allows: "1 soldier move" lets the
# driver drive, the gunner turn the turret, a crewman climb about; "1 soldier shoot" lets the
# loader load; "sight" lets a crewman open his hatch or acquire; "cover" lets him button up.
GENERIC = {Do.MOVE, Do.SIGHT, Do.COVER, Do.SHOOT}


VEHICLE_DOS = {Do.ACQUIRE, Do.UNBUTTON, Do.BUTTON, Do.HULLDOWN, Do.TURRET, Do.MOUNT, Do.DISMOUNT, Do.SHIFT,
               Do.REPAIR, Do.EXTINGUISH, Do.UNPIN, Do.LOAD}


def entry_accepts(entry_do: Do, do: Do) -> bool:
    """A 'move' entry also lets a soldier just turn; a 'shoot' entry lets him toss a grenade; a
    plain entry allows the vehicle sub-actions of the same action."""
    if entry_do == do or (entry_do == DO_MOVE and do == DO_FACE) or (entry_do == DO_SHOOT and do == DO_TOSS):
        return True
    return entry_do in GENERIC and do in VEHICLE_DOS and ACTION_OF[entry_do] == ACTION_OF[do]


def who_fits(st, who: str, serial: int) -> bool:
    """Team entries by who takes them (Untrained Soldiers as Crew; License Plate): 'vehicle'
    entries the license plate or, for the vehicle's own work (PLATE_WORK), the man at the crew post
    who does it; 'crew' entries men trained on the vehicle they serve; 'soldier' entries any man
    (never the plate)."""
    if serial in st.vehicles:
        return who == "vehicle"
    if who == "soldier":
        return True
    if who == "vehicle":
        return at_a_post(st, serial)
    if who == "crew":
        s = st.soldiers.get(serial)
        return s is not None and s.vehicle is not None and s.vehicle in st.vehicles and is_crew_of(st, serial, s.vehicle)
    return False


# What the plate does through the man at a post, so a 'vehicle' entry may name him instead of the
# plate (`turret 152 ne` as well as `turret 601 ne`, ruling V41); his own business (getting off,
# shifting posts, repairs) is never the vehicle's.
PLATE_WORK = frozenset({Do.MOVE, Do.FACE, Do.TURRET, Do.UNPIN, Do.HULLDOWN, Do.COVER, Do.SHOOT, Do.LOAD,
                        Do.ACQUIRE, Do.SIGHT, Do.UNBUTTON, Do.BUTTON})


def at_a_post(st, serial: int) -> bool:
    """A man at one of his vehicle's crew posts and trained for it: the man the plate would use
    there (the plate is never served by a cross-trained man, so neither is its entry)."""
    loc = position_of(st, serial)
    return loc is not None and trained_at(st, serial, st.soldiers[serial].vehicle, loc)


def entry_takes(st, e, serial: int, do: Do) -> bool:
    """Does this team entry take this sub-action from this man or plate (who and what)?"""
    if not entry_accepts(e.do, do) or not who_fits(st, e.who, serial):
        return False
    return e.who != "vehicle" or serial in st.vehicles or do in PLATE_WORK


def entry_allows(st, e, serial: int) -> frozenset[Do]:
    """Every sub-action this team entry takes from this man or plate: the set form of entry_takes."""
    if not who_fits(st, e.who, serial):
        return frozenset()
    dos = ACCEPTED_BY[e.do]
    return dos if e.who != "vehicle" or serial in st.vehicles else dos & PLATE_WORK


_SUBACTIONS = {a: subactions(a) for a in Action}  # each action's sub-actions, read once (every question asks)


def tag_subactions(st, active: ActiveCard) -> frozenset[Do]:
    """A multi-action card's dog tag may use any of its actions, whatever the phase (Multi-Action Cards)."""
    card = st.card(active.card)
    return _tag_dos(tuple(card.actions) if card.multi else active.action, card.owner in st.vehicles)


@cache
def _tag_dos(actions: tuple[Action, ...] | Action, vehicle: bool) -> frozenset[Do]:
    """tag_subactions for a card's actions (or the one in use), worked out once: a handful of keys,
    and every question about a dog tag asks."""
    dos = frozenset(d for a in (actions if isinstance(actions, tuple) else (actions,)) for d in _SUBACTIONS[a])
    return dos - NOT_FOR_VEHICLES if vehicle else dos


# What a license plate never does itself: a vehicle has no rally, hold or grenade.
NOT_FOR_VEHICLES = frozenset({Do.RALLY, Do.HOLD, Do.TOSS})


def owner_can_act(st, active: ActiveCard) -> bool:
    """The owner's dog tag works only while he is alive and his own side's (ruling 4); a license
    plate while its vehicle is in the game and the card's force commands it."""
    card = st.card(active.card)
    v = st.vehicles.get(card.owner)
    if v is not None:
        return v.controller == active.force and v.status in ("board", "waiting")
    s = st.soldiers.get(card.owner)
    return s is not None and s.controller == active.force and s.status in ("board", "waiting", "aboard") \
        and s.captor is None


def describe(st, cid: str) -> str:
    """The card in words: dog tag, team bubble, narrator box. A card's own words (its actions,
    team bubble, narrator box) are worked out once per setup; the owner's name, which follows
    his rank, each time."""
    card = st.card(cid)
    words = per_setup.memo(st.setup, "describe")
    got = words.get(cid)
    if got is None:
        got = words[cid] = _card_words(card)
    acts, rest = got
    if card.owner in st.vehicles:
        head = f"license plate {st.name(card.owner)} ({acts})"
    elif card.tagless:
        head = f"team card ({acts})"
    elif card.any_action:
        head = f"dog tag {st.name(card.owner) if card.owner in st.soldiers else card.owner} (ANY)"
    elif card.kind in ("react", "preempt"):  # played from the hand, no dog tag action
        head = f"{card.kind} card of {st.name(card.owner) if card.owner in st.soldiers else card.owner}"
    else:
        owner = st.name(card.owner) if card.owner in st.soldiers else str(card.owner)
        head = f"dog tag {owner} ({acts})"
    return head + rest


def _card_words(card) -> tuple[str, str]:
    """A card's actions, and its team bubble and narrator box as describe ends with them."""
    parts = [""]
    if card.team:
        parts.append("team: " + ", then ".join(f"{e.count} {_who_words(e.who, e.count)} {e.do.value}"
                                               for e in card.team))
    if card.narrator:
        colour = {"white": "may", "blue": "must", "red": "cost"}[card.narrator.color]
        parts.append(f"narrator ({colour}): {card.narrator.text or card.narrator.kind}")
    return '/'.join(a.value.upper() for a in card.actions), "; ".join(parts) + "."


def _who_words(who: str, n: int) -> str:
    """A team entry's taker as the card prints it: the vehicle, crewmen, or soldiers."""
    if who == "vehicle":
        return "vehicle"
    if who == "crew":
        return "crewman" if n == 1 else "crewmen"
    return "soldier" if n == 1 else "soldiers"


# ------------------------------------------------------------------------ routing a command to a source


ACCEPTED_BY: dict[Do, frozenset[Do]] = {e: frozenset(d for d in Do if entry_accepts(e, d)) for e in Do}
