"""Which part of the card in play takes an action (core manual, Action Cards): the dog tag, the
team bubble or the narrator box, and with the tactics modules a 'Team' bubble and a command
card's identity box (engine/advanced/teams.py); who may act through the card at all. Routing
lives beside the tactics modules because they add parts of their own."""
from __future__ import annotations

from collections.abc import Callable

from engine.advanced.teams import (
    identity_accepted,
    identity_accepts,
    identity_used,
    team_accepted,
)
from engine.advanced.teams import team_entry as team_bubble_entry
from engine.core.action_cards import (
    ACCEPTED_BY,
    NOT_FOR_VEHICLES,
    VEHICLE_DOS,
    entry_accepts,
    entry_allows,
    entry_takes,
    owner_can_act,
    tag_subactions,
)
from engine.core.content import (
    ACTION_MOVE,
    ACTION_OF,
    ACTION_SHOOT,
    DO_COVER,
    DO_DRAW,
    DO_FACE,
    DO_MOVE,
    DO_RALLY,
    DO_SHOOT,
    DO_SIGHT,
    Do,
)
from engine.core.errors import RuleError
from engine.core.ratings import current
from engine.core.state import SUBACTION_WORDS, ActiveCard, Source
from engine.core.vehicle_geometry import enemy_vehicle_with

# what a man aboard may do from there: his vehicle's work and a few of his own
_FROM_ABOARD = frozenset({DO_SIGHT, DO_SHOOT, DO_MOVE, DO_FACE, DO_COVER, DO_DRAW} | VEHICLE_DOS)


def _soldier_ok(st, active: ActiveCard, serial: int, do: Do) -> None:
    if serial in st.vehicles:
        _vehicle_ok(st, active, serial, do)
        return
    s = st.soldiers.get(serial)
    if s is None:
        raise RuleError(f"there is no soldier {serial} in this game.")
    if s.status == "waiting" and s.force == active.force:
        if do != DO_MOVE:
            raise RuleError(f"{st.name(serial)} has not entered the board yet: his first action is a MOVE onto it.")
        return
    if s.status == "aboard" and s.controller == active.force and s.captor is None:
        if s.vehicle in st.vehicles and do in _FROM_ABOARD:
            _same_square(st, s.vehicle, do)
            return
        raise RuleError(f"{st.name(serial)} is aboard the {st.name(s.vehicle)}: he cannot {do.value} from there.")
    if s.controller != active.force or not s.free:
        if s.captor is not None and s.controller == active.force:
            raise RuleError(f"{st.name(serial)} is a prisoner: he goes where his escort takes him.")
        raise RuleError(f"{st.name(serial)} is not one of your soldiers on the board.")


def _vehicle_ok(st, active: ActiveCard, plate: int, do: Do) -> None:
    v = st.vehicles[plate]
    if v.controller != active.force:
        raise RuleError(f"the {st.name(plate)} is not commanded by this deck.")
    if v.status == "waiting":
        if do != DO_MOVE:
            raise RuleError(f"the {st.name(plate)} has not entered the board yet: its first action is a MOVE onto it.")
        return
    if v.status != "board":
        raise RuleError(f"the {st.name(plate)} is {v.status}.")
    _same_square(st, plate, do)


def _same_square(st, plate: int, do: Do) -> None:
    """With an enemy vehicle in its tile a vehicle may only MOVE and SHOOT (Same Square)."""
    if ACTION_OF[do] not in (ACTION_MOVE, ACTION_SHOOT) and enemy_vehicle_with(st, plate):
        raise RuleError(f"an enemy vehicle shares {st.vehicles[plate].tile} with the {st.name(plate)}: "
                        f"it may only MOVE or SHOOT.")


def _accepts(st, active: ActiveCard, src: Source, serial: int, do: Do) -> str | None:
    """Why this source cannot take the action, or None when it can."""
    card = st.card(active.card)
    if src.state == "closed":
        return f"the {src.kind} part of the card is finished"
    if src.kind == "tag":
        if serial != card.owner:
            return f"the dog tag action belongs to {st.name(card.owner) if card.owner in st.soldiers else card.owner}"
        if not owner_can_act(st, active):
            return "the dog tag owner is out of the game, so the dog tag action is lost"
        if do not in tag_subactions(st, active):
            return "the dog tag allows " + "/".join(sorted(d.value for d in tag_subactions(st, active)))
        if src.uses and do != DO_RALLY:
            return "the dog tag action is used"
        return _rally_room(st, active, src, do)
    if src.kind == "team":
        if serial in src.used:
            return f"{st.name(serial)} has acted for this team bubble already"
        if team_entry(st, card, src, serial, do) is not None:
            return None
        left = [f"{e.count} {'' if e.who == 'soldier' else e.who + ' '}{e.do.value}" for e in card.team[src.entry:]]
        return "the team bubble has " + (", then ".join(left) if left else "nothing") + " left" + \
            (" for the vehicle itself" if serial in st.vehicles else "")
    if src.kind == "identity":  # tactics modules: a command card's identity box (engine/advanced/teams.py)
        return identity_accepts(st, active, src, serial, do)
    note = card.narrator
    if serial != card.owner:
        return f"the narrator box is for {st.name(card.owner) if card.owner in st.soldiers else card.owner}"
    if not owner_can_act(st, active):
        return "the narrator box's soldier is out of the game"
    if not entry_accepts(Do(note.kind), do) or (serial in st.vehicles and do in NOT_FOR_VEHICLES):
        return f"the narrator box allows {note.kind}"
    if src.uses and do != DO_RALLY:
        return "the narrator box is used"
    return _rally_room(st, active, src, do)


def accepted(st, active: ActiveCard, src: Source, serial: int) -> frozenset[Do]:
    """Every sub-action this source would take from this man or plate now: the set form of
    `_accepts` (a property test holds the two together), for listing options quickly."""
    return acceptor(st, active, src)(serial)


_NONE: frozenset[Do] = frozenset()


def acceptor(st, active: ActiveCard, src: Source) -> Callable[[int], frozenset[Do]]:
    """`accepted` for one part and any man or plate: what is the same for every man of the part
    (its card, state, the entries it has left) is read once, for the listings that ask each man."""
    card = st.card(active.card)
    if src.state == "closed":
        return lambda serial: _NONE
    if src.kind == "identity":  # tactics modules: a command card's identity box (engine/advanced/teams.py)
        return lambda serial: identity_accepted(st, active, src, serial)
    if src.kind in ("tag", "note"):  # the owner's alone, while he can act (the same for every man asked)
        if not owner_can_act(st, active):
            return lambda serial: _NONE
        owner = card.owner
        return lambda serial: _owner_dos(st, active, src, card, serial) if serial == owner else _NONE
    used = src.used
    # the entries left (from the one in use, while it has uses): a 'soldier' entry takes the same
    # from every man and nothing from a plate (entry_allows), so its share is read once; the
    # other entries ask who the man is
    anyone, others, team = _NONE, [], False
    first, uses = src.entry, src.uses
    for i, e in enumerate(card.team):
        who = e.who
        team = team or who == "team"
        if i > first or (i == first and uses < e.count):
            if who == "soldier":
                anyone = anyone | ACCEPTED_BY[e.do]
            else:
                others.append(e)
    if team:  # tactics modules: a 'Team' bubble (engine/advanced/teams.py)
        return lambda serial: _NONE if serial in used else team_accepted(st, active, card, src, serial)
    vehicles = st.vehicles

    def of(serial: int) -> frozenset[Do]:
        if serial in used:
            return _NONE
        out = _NONE if serial in vehicles else anyone
        for e in others:
            out = out | entry_allows(st, e, serial)
        return out
    return of


def _owner_accepted(st, active: ActiveCard, src: Source, card, serial: int) -> frozenset[Do]:
    """accepted for the dog tag and the narrator box: their owner's alone."""
    if serial != card.owner or not owner_can_act(st, active):
        return _NONE
    return _owner_dos(st, active, src, card, serial)


def _owner_dos(st, active: ActiveCard, src: Source, card, serial: int) -> frozenset[Do]:
    """_owner_accepted for the owner, once he is known to be able to act."""
    dos = tag_subactions(st, active) if src.kind == "tag" else ACCEPTED_BY[SUBACTION_WORDS[card.narrator.kind]]
    if serial in st.vehicles:
        dos = dos - NOT_FOR_VEHICLES
    if src.uses:
        dos = dos & {DO_RALLY}
    if DO_RALLY in dos and _rally_room(st, active, src, DO_RALLY) is not None:
        dos = dos - {DO_RALLY}
    return frozenset(dos)


def team_entry(st, card, src: Source, serial: int, do: Do) -> int | None:
    """The team entry this man (or license plate) would take this action under, or None."""
    if any(e.who == "team" for e in card.team):  # tactics modules: a 'Team' bubble (engine/advanced/teams.py)
        return team_bubble_entry(st, st.active, card, src, serial, do)
    for i in range(src.entry, len(card.team)):
        e = card.team[i]
        if entry_takes(st, e, serial, do) and (i > src.entry or src.uses < e.count):
            return i
    return None


def _rally_room(st, active: ActiveCard, src: Source, do: Do) -> str | None:
    if do != DO_RALLY:
        return None
    limit = _rally_limit(st, active, src)
    if len(src.rallied) >= limit:
        who = st.name(st.card(active.card).owner)
        return f"{who} may rally {limit} soldier{'s' if limit != 1 else ''} with this"
    return None


def route(st, active: ActiveCard, serial: int, do: Do, via: str | None) -> int:
    """Which source an action goes through: the one named, else the one in use, else the team
    bubble, then the narrator box when it is a must, then the dog tag, then the narrator box."""
    reasons = []
    idx = {s.kind: i for i, s in enumerate(active.sources)}
    if via:
        if via not in idx:
            raise RuleError(f"this card has no {via} part.")
        why = _accepts(st, active, active.sources[idx[via]], serial, do)
        if why:
            raise RuleError(f"{via}: {why}.")
        return idx[via]
    open_ = [i for i, s in enumerate(active.sources) if s.state == "open"]
    if open_:
        why = _accepts(st, active, active.sources[open_[0]], serial, do)
        if why is None:
            return open_[0]
        reasons.append(f"{active.sources[open_[0]].kind}: {why}")
    card = st.card(active.card)
    prefer = ["team", "note", "tag"] if card.narrator and card.narrator.color == "blue" else ["team", "tag", "note"]
    prefer.append("identity")  # tactics modules: a command card's identity box
    for kind in prefer:
        if kind in idx and idx[kind] not in open_:
            why = _accepts(st, active, active.sources[idx[kind]], serial, do)
            if why is None:
                return idx[kind]
            reasons.append(f"{kind}: {why}")
    raise RuleError(f"{st.name(serial) if serial in st.soldiers else serial} cannot {do.value} with this card ("
                    + "; ".join(reasons) + ").")


def _rally_limit(st, active: ActiveCard, src: Source) -> int:
    if src.rally_limit is not None:
        return src.rally_limit
    card = st.card(active.card)
    if src.kind == "note":
        return card.narrator.count
    if src.kind == "tag":
        # his HIDE box rally count, halved while pinned; a pinned leader can always rally himself
        base, now = st.stats(card.owner).rally, current(st, card.owner, "rally")
        return max(1, now) if base > 0 else 0
    return 1


# --------------------------------------------------------------------------- spending a part's actions


def enter(st, card, src: Source, serial: int, do: Do) -> int | None:
    """The team entry this action is taken under (moving the bubble on to it), None for the other parts."""
    if src.kind != "team":
        return None
    entry = team_entry(st, card, src, serial, do)
    if entry > src.entry:
        src.entry, src.uses = entry, 0
    return entry


def spend(st, active: ActiveCard, src: Source, entry: int | None, serial: int, do: Do) -> None:
    """One action taken through this part: what it has left goes down (rulings 5, R62; V7)."""
    card = st.card(active.card)
    src.state = "open"
    if src.kind == "team" and any(e.who == "team" for e in card.team):  # tactics modules: each man once
        src.used.append(serial)
        src.uses += card.team[entry].who != "team"  # numbered entries keep their count
    elif src.kind == "identity":  # tactics modules: one of his drawn cards spent (engine/advanced/teams.py)
        identity_used(src, serial)
    elif src.kind == "team":
        if card.team[entry].who != "vehicle":  # each vehicle entry is the plate's, whoever works it
            src.used.append(serial)
        src.uses += 1
        if src.uses >= card.team[src.entry].count:
            src.entry += 1
            src.uses = 0
        if src.entry >= len(card.team):
            src.state = "closed"
    else:
        src.uses += 1
        if do == DO_RALLY:
            if len(src.rallied) >= _rally_limit(st, active, src):
                src.state = "closed"
        else:
            src.state = "closed"


def second_move_problem(st, active: ActiveCard, src: Source, serial: int) -> str | None:
    """Why this part of the card cannot give the same man or plate a second MOVE right after this
    one, or None: a Move++ marker costs two MOVE actions (Hell on Wheels, How to Move; ruling V2),
    both of one part, as an action never spans two parts (R62)."""
    after = src.model_copy(deep=True)
    spend(st, active, after, enter(st, st.card(active.card), after, serial, DO_MOVE), serial, DO_MOVE)
    why = _accepts(st, active, after, serial, DO_MOVE)
    if why is None:
        return None
    return (f"a Move++ costs two MOVE actions of one part of the card, and after one the {src.kind} part "
            f"has no second for {st.name(serial)} ({why}): save a Move+ instead.")
