"""Suggestions for a half-typed command option: the caller's soldiers, legal targets, tiles,
cards in his hand. Built from `legal_commands` and the caller's own view, so a suggestion is
something the engine would accept and shows nothing the caller may not see.

Each suggestion is (label, value): the label is what a menu shows, the value what goes into
the script line. At most LIMIT, those containing what was typed first.
"""
from __future__ import annotations

from collections.abc import Iterable

from bot.app import vehicle_words as W
from engine import GameState
from engine.core import commands as C
from engine.view import private_view, view

LIMIT = 25

# which command field each option names, per verb
_SOLDIER_FIELD = {"capture": "victim", "kill": "victim"}
_TARGET_FIELD = {"capture": "escort", "hitplus": "target"}


def pick(pairs: Iterable[tuple[str, str]], typed: str) -> list[tuple[str, str]]:
    """Unique pairs matching `typed` (in label or value), best matches first, trimmed."""
    typed = typed.strip().lower()
    seen: dict[str, str] = {}
    for label, value in pairs:
        seen.setdefault(value, label)
    hits = [(label, value) for value, label in seen.items()
            if not typed or typed in label.lower() or typed in value.lower()]
    hits.sort(key=lambda p: not (p[1].lower().startswith(typed) or p[0].lower().startswith(typed)))
    return [(label[:100], value[:100]) for label, value in hits[:LIMIT]]


def _of_verb(cmds: list[C.Cmd], verb: str) -> list[C.Cmd]:
    return [c for c in cmds if getattr(c, "type", None) == verb]


VEHICLE_VERBS = {cls.model_fields["type"].default for cls in C.VEHICLE_COMMANDS}
CREW_ONLY = {"dismount", "shift", "repair", "extinguish"}  # a man does these, never the plate


def soldiers(st: GameState, seat: int, cmds: list[C.Cmd], verb: str | None) -> list[tuple[str, str]]:
    """The caller's soldiers (and, for vehicle verbs, plates and crewmen) that can do `verb`
    now; without one (or none can), all his men."""
    field = _SOLDIER_FIELD.get(verb or "", "serial")
    serials = [getattr(c, field) for c in _of_verb(cmds, verb or "") if getattr(c, field, None) is not None]
    if not serials:
        mine = {f.id for f in st.forces.values() if f.seat == seat}
        if verb in VEHICLE_VERBS - {"mount"}:  # his vehicles (for their own actions) and the men aboard
            serials = [] if verb in CREW_ONLY else \
                [p for p, v in sorted(st.vehicles.items()) if v.controller in mine and v.status == "board"]
            serials += sorted(s.serial for s in st.soldiers.values() if s.controller in mine and s.status == "aboard")
        else:
            serials = sorted(s.serial for s in st.soldiers.values()
                             if s.controller in mine and s.status in ("board", "waiting"))
    return [(W.who(st, s), str(s)) for s in serials]


def targets(st: GameState, cmds: list[C.Cmd], verb: str, soldier: str | None) -> list[tuple[str, str]]:
    """Legal targets of `verb` (for `soldier` if given): spotted enemies in arc and so on."""
    field = _TARGET_FIELD.get(verb, "target")
    out = []
    for c in _of_verb(cmds, verb):
        if soldier and str(getattr(c, "serial", getattr(c, "victim", ""))) != soldier.strip():
            continue
        t = getattr(c, field, None)
        if t is not None:
            out.append((W.who(st, t), str(t)))
    return out


def _actor(c: C.Cmd, actor: str | None) -> bool:
    return not actor or str(getattr(c, "serial", "")) == actor.strip()


def _actor_plate(st: GameState, actor: str | None) -> int | None:
    a = (actor or "").strip()
    return W.plate_of(st, int(a)) if C.NUMBER.fullmatch(a) else None


def drives(st: GameState, cmds: list[C.Cmd], actor: str | None) -> list[tuple[str, str]]:
    """Where a vehicle may drive now (`vmove`): the tile, with `road` or `back` when that is how."""
    out = []
    for c in _of_verb(cmds, "vmove"):
        if _actor(c, actor):
            how = " road" if c.road else " back" if c.back else ""
            words = " along the road" if c.road else " in reverse" if c.back else " across country"
            out.append((f"{c.tile}{words} ({W.who(st, c.serial)})", f"{c.tile}{how}"))
    return out


def items(st: GameState, cmds: list[C.Cmd], soldier: str | None) -> list[tuple[str, str]]:
    """The equipment the soldier can use now with the card in play (smoke, rifle grenades,
    rockets): the items of the legal `use` commands."""
    ids = list(dict.fromkeys(c.item for c in _of_verb(cmds, "use")
                             if soldier is None or str(c.serial) == str(soldier)))
    return [(f"{i} — {st.setup.equipment[i].name}", i) for i in ids if i in st.setup.equipment]


def weapons(st: GameState, cmds: list[C.Cmd], actor: str | None) -> list[tuple[str, str]]:
    """The weapons the actor can fire now (else every weapon of his vehicle)."""
    plate = _actor_plate(st, actor)
    ids = list(dict.fromkeys(c.weapon for c in _of_verb(cmds, "fire") if _actor(c, actor)))
    if not ids and plate is not None:
        d = st.vehicle_def(plate)
        ids = (["main"] if d.main_gun else []) + [m.id for m in d.mgs]
    return [(f"{w} — {W.weapon(st, plate, w)}", w) for w in ids]


def ammunition(st: GameState, cmds: list[C.Cmd], actor: str | None) -> list[tuple[str, str]]:
    """Rounds the loader can take from the ready rack now, with how many are left."""
    out = []
    for c in _of_verb(cmds, "load"):
        if _actor(c, actor) and c.ammo:
            plate = W.plate_of(st, c.serial)
            left = st.vehicles[plate].ready.get(c.ammo, 0) if plate in st.vehicles else 0
            out.append((f"{W.ammo(st, plate, c.ammo)}, {left} ready", c.ammo))
    return out


def posts(st: GameState, cmds: list[C.Cmd], verb: str, actor: str | None,
          plate: str | None = None) -> list[tuple[str, str]]:
    """Places on a panel: where a crewman may shift, where a man may get on, what he may
    repair or put out (from the legal commands; for `mount`, the vehicle's free crew posts)."""
    field = "location" if verb in ("repair", "extinguish") else "post"
    out = []
    for c in _of_verb(cmds, verb):
        value = getattr(c, field, None)
        if value and _actor(c, actor):
            on = c.plate if isinstance(c, C.Mount) else W.plate_of(st, c.serial)
            out.append((f"{W.post(st, on, value)} ({value})", value))
    if not out and verb == "mount" and plate and C.NUMBER.fullmatch(plate.strip()) and int(plate) in st.vehicles:
        p = int(plate)
        v = st.vehicles[p]
        out = [(f"{loc.name} ({loc.id})", loc.id) for loc in st.vehicle_def(p).crew_positions if loc.id not in v.crew]
    return out


def plates(st: GameState, cmds: list[C.Cmd], soldier: str | None) -> list[tuple[str, str]]:
    """Vehicles a soldier may get on now (`mount`)."""
    return [(W.vehicle(st, c.plate), str(c.plate)) for c in _of_verb(cmds, "mount") if _actor(c, soldier)]


def decks(st: GameState, seat: int) -> list[tuple[str, str]]:
    """The caller's decks (squad and vehicles) for `/plan deck:`, with their hand sizes."""
    out = []
    for f in st.force_of_seat(seat):
        state = "placed" if f.planned else "to place"
        name = "squad" if f.kind == "squad" else W.deck_name(st, f.id)
        out.append((f"{name} — {len(f.hand)} cards in hand, {state}", "squad" if f.kind == "squad" else str(f.plate)))
    return out


def destinations(st: GameState, cmds: list[C.Cmd], soldier: str | None) -> list[tuple[str, str]]:
    """Where `soldier` may move: tiles, their cover, exits (a cell x,y may also be typed)."""
    out = []
    for c in _of_verb(cmds, "move"):
        if soldier and str(c.serial) != soldier.strip():
            continue
        if c.exit:
            value = "exit" + (f" {c.area}" if c.area else "")
            out.append((f"leave the board ({c.area or 'any exit'})", value))
        elif c.tile:
            value = c.tile + (":cover" if c.cover else "")
            out.append((f"{c.tile}{' in cover' if c.cover else ''}", value))
    return out


def cards(st: GameState, seat: int, phase: int | None = None, cmds: list[C.Cmd] = (),
          deck: str | None = None) -> list[tuple[str, str]]:
    """Cards in the caller's hand (for a phase: those his legal placements put there; with
    `deck`, those of that deck only: "squad", a plate or a deck id)."""
    mine = private_view(st, seat)
    if mine is None:
        return []
    ids = None
    if phase is not None:
        ids = {c.cards[phase] for c in cmds if isinstance(c, C.Plan) and len(c.cards) > phase}
    fid = W.deck_for(st, seat, deck) if deck else None
    if fid is not None:
        f = next(x for x in mine.forces if x.id == fid)
        pool = [*f.hand, *(c for c in f.placed if c)]
    else:
        pool = [*mine.hand, *(c for f in mine.forces for c in f.placed if c), *mine.fight_cards,
                *(c for held in mine.held.values() for c in held)]
    out = []
    for c in pool:
        if ids is None or c.id in ids:
            owner = W.vehicle(st, c.owner) if c.owner in st.vehicles else c.owner_name
            out.append((f"{c.id} {c.title} ({'/'.join(a.upper() for a in c.actions)}, {owner})", c.id))
    if phase is not None and None in (ids or set()):
        out.append(("— leave this phase empty", "-"))
    return out


def window_cards(st: GameState, cmds: list[C.Cmd], verb: str) -> list[tuple[str, str]]:
    """The react or preempt cards (`verb`) the caller may play now: only live cards of his own
    hand that the engine would accept, so nothing he may not see."""
    out = []
    for c in _of_verb(cmds, verb):
        card = st.card(c.card)
        out.append((f"{c.card} {card.title}" if card.title else c.card, c.card))
    return out


def preempt_targets(st: GameState, cmds: list[C.Cmd], card: str | None) -> list[tuple[str, str]]:
    """The enemy cards revealed this phase that the chosen preempt (or any) fits."""
    out = []
    for c in _of_verb(cmds, "preempt"):
        if card and c.card != card.strip().upper():
            continue
        acts = "/".join(a.value.upper() for a in st.card(c.target).actions)
        out.append((f"{c.target} ({acts}), revealed for this phase", c.target))
    return out


def preempt_men(st: GameState, cmds: list[C.Cmd], card: str | None, target: str | None) -> list[tuple[str, str]]:
    """Enemy men the preempt may name (the legal lists: as many as allowed, then each alone)."""
    out = []
    for c in _of_verb(cmds, "preempt"):
        if (card and c.card != card.strip().upper()) or (target and c.target != target.strip().upper()):
            continue
        out.append((", ".join(W.who(st, s) for s in c.soldiers), " ".join(str(s) for s in c.soldiers)))
    return out


# ----------------------------------------------------------------- the battlefield (issue 9): /field

def battlefield(st: GameState, seat: int, cmds: list[C.Cmd], verb: str, field: str,
                soldier: str | None = None) -> list[tuple[str, str]]:
    """Values of a `/field` option: the `field` of the legal `verb` commands (for `soldier`, if
    chosen), labelled in the game's words. Artillery kinds and letters come from the caller's
    own `Mine` when nothing is legal yet (his ordnance, his calls): only his own secrets, and
    autocomplete answers only him."""
    from bot.app import battlefield_words as B
    names = B.ordnance_names(st)
    mine = private_view(st, seat)

    def label(value) -> str:
        if field in ("plate",) or (field in ("serial", "relay") and value in st.vehicles):
            return W.vehicle(st, value) if value in st.vehicles else str(value)
        if field in ("serial", "to", "relay"):
            return W.who(st, value)
        if field == "kind":
            return f"{B.ordnance_name(value, names)} ({value})"
        if field == "letter":
            call = next((c for c in (mine.artillery if mine else []) if c.letter == value), None)
            return B.call_line(call, names) if call else value
        if field == "item" and value in st.setup.equipment:
            return f"{value} — {st.setup.equipment[value].name}"
        return str(value)

    values = []
    for c in _of_verb(cmds, verb):
        if field != "serial" and soldier and not _actor(c, soldier):
            continue
        v = getattr(c, field, None)
        if isinstance(v, list):  # a load's tokens (laymines): written at+gp
            v = "+".join(v)
        if v is not None and v not in values:
            values.append(v)
    if field == "order" and mine is not None:  # the men he sees in the tiles of his calls one Sight from On Target
        tiles = {c.tile for c in mine.artillery if c.rows_left <= 1}
        men = [s.serial for s in view(st, seat).soldiers
               if s.status == "board" and s.at is not None and st.board.tile_at(s.at) in tiles]
        both = [(", then ".join(W.who(st, m) for m in men), ",".join(map(str, men)))] if len(men) > 1 else []
        return [(W.who(st, m), str(m)) for m in men] + both
    if not values and mine is not None:
        if field == "kind" and verb == "call":  # a barrage's kinds come only from the legal plans
            values = list(dict.fromkeys(mine.ordnance))
        elif field == "letter":
            values = [c.letter for c in mine.artillery]
    if not values and field == "serial":
        return soldiers(st, seat, cmds, verb)
    return [(label(v), str(v)) for v in values]
