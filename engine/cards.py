"""Carrying out an action card (core manual, Action Cards): its dog tag action for the owner,
its team bubble ("N soldiers DO", each soldier once, entries in printed order) and its narrator
box (white may, blue must, red cost or condition). One part is finished before the next starts;
the player picks the order."""
from __future__ import annotations

from engine import commands as C
from engine.content import ACTION_OF, NARRATOR_ACTIONS, Action, Do, subactions
from engine.crew import is_crew_of
from engine.errors import RuleError
from engine.log import Ctx
from engine.look import draw as look_draw, draw_count, sight
from engine.hide import hold, rally, rally_check, take_cover
from engine.move import Dest, charge, escorted_by, face, move
from engine.blast import toss
from engine.ratings import current
from engine.shoot import shoot
from engine.state import ActiveCard, PayPending, Source

DO_OF = {C.MoveCmd: Do.MOVE, C.Charge: Do.MOVE, C.Face: Do.FACE, C.SightCmd: Do.SIGHT, C.DrawCmd: Do.DRAW,
         C.CoverCmd: Do.COVER, C.RallyCmd: Do.RALLY, C.HoldCmd: Do.HOLD, C.ShootCmd: Do.SHOOT, C.TossCmd: Do.TOSS,
         C.VMove: Do.MOVE, C.VTurn: Do.FACE, C.Turret: Do.TURRET, C.MovePlus: Do.MOVE, C.Unpin: Do.UNPIN,
         C.Fire: Do.SHOOT, C.Load: Do.LOAD, C.Acquire: Do.ACQUIRE, C.Unbutton: Do.UNBUTTON, C.Button: Do.BUTTON,
         C.HullDown: Do.HULLDOWN, C.VCover: Do.COVER, C.Mount: Do.MOUNT, C.Dismount: Do.DISMOUNT,
         C.Shift: Do.SHIFT, C.Repair: Do.REPAIR, C.Extinguish: Do.EXTINGUISH}
DO_OF[C.UseCmd] = Do.TOSS  # equipment (engine/equipment.py): a SHOOT like a toss, taken by 'shoot' entries
# the vehicle battlefield (issue 9): an artillery adjustment is a Sight, popping smoke a SHOOT,
# handing off and recovering equipment MOVEs
DO_OF.update({C.AdjustCmd: Do.SIGHT, C.PopSmokeCmd: Do.SHOOT, C.HandOffCmd: Do.MOVE, C.RecoverCmd: Do.MOVE})

# The vehicle book's sub-actions a plain entry of the same action allows: "1 soldier move" lets the
# driver drive, the gunner turn the turret, a crewman climb about; "1 soldier shoot" lets the
# loader load; "sight" lets a crewman open his hatch or acquire; "cover" lets him button up.
GENERIC = {Do.MOVE, Do.SIGHT, Do.COVER, Do.SHOOT}
VEHICLE_DOS = {Do.ACQUIRE, Do.UNBUTTON, Do.BUTTON, Do.HULLDOWN, Do.TURRET, Do.MOUNT, Do.DISMOUNT, Do.SHIFT,
               Do.REPAIR, Do.EXTINGUISH, Do.UNPIN, Do.LOAD}


def entry_accepts(entry_do: Do, do: Do) -> bool:
    """A 'move' entry also lets a soldier just turn; a 'shoot' entry lets him toss a grenade; a
    plain entry allows the vehicle sub-actions of the same action."""
    if entry_do == do or (entry_do == Do.MOVE and do == Do.FACE) or (entry_do == Do.SHOOT and do == Do.TOSS):
        return True
    return entry_do in GENERIC and do in VEHICLE_DOS and ACTION_OF[entry_do] == ACTION_OF[do]


def who_fits(st, who: str, serial: int) -> bool:
    """Team entries by who takes them (Untrained Soldiers as Crew; License Plate): 'vehicle'
    entries the license plate, 'crew' entries men trained on the vehicle they serve, 'soldier'
    entries any man (never the plate)."""
    if serial in st.vehicles:
        return who == "vehicle"
    if who == "soldier":
        return True
    if who == "crew":
        s = st.soldiers.get(serial)
        return s is not None and s.vehicle is not None and s.vehicle in st.vehicles and is_crew_of(st, serial, s.vehicle)
    return False


def tag_subactions(st, active: ActiveCard) -> set[Do]:
    """A multi-action card's dog tag may use any of its actions, whatever the phase (Multi-Action Cards)."""
    card = st.card(active.card)
    acts = card.actions if card.multi else [active.action]
    dos = {d for a in acts for d in subactions(a)}
    return dos - NOT_FOR_VEHICLES if card.owner in st.vehicles else dos


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


def start(ctx: Ctx, force_id: str, phase: int, action, card: str | None = None) -> None:
    """Put a revealed card in play (`card`: which of the force's cards on the phase, for an
    officer's extra card; default the ordinary one)."""
    st = ctx.st
    f = st.forces[force_id]
    cid = card or f.placed[phase - 1]
    card = st.card(cid)
    sources = [Source(kind="tag")] if not card.tagless else []  # a team card has no dog tag
    if card.team:
        sources.append(Source(kind="team"))
    if card.narrator and card.narrator.kind in NARRATOR_ACTIONS:
        sources.append(Source(kind="note"))
    st.active = ActiveCard(force=force_id, card=cid, phase=phase, action=action, sources=sources)
    seat = st.seats[f.seat]
    if f.kind == "vehicle" and action == Action.LOOK and f.plate in st.vehicles \
            and st.vehicles[f.plate].status == "board" \
            and st.vehicles[f.plate].controller == force_id:  # issue 9: a taken-over vehicle's old deck counts no radio LOOKs
        from engine.vehicle_look import look_card_played
        look_card_played(ctx, f.plate)
    elif f.kind == "squad" and action == Action.LOOK:  # radio contact for men with sets (engine/artillery.py)
        from engine.artillery import look_card_played as radio_look
        radio_look(ctx, force_id)
    ctx.say("card", f"{seat.name}'s {action.value.upper()}: {cid} — {describe(st, cid)}", force=force_id, card=cid)
    from engine.dead_cards import dead_reason
    dead = dead_reason(st, cid, force_id)
    if dead:  # dead cards (owner gone, or a team card's panel slot empty): no actions this phase
        ctx.say("dead_card", f"{dead}: it gives no actions this phase.", card=cid, force=force_id)
        finish(ctx)
        return
    if card.panel is not None or card.identity is not None:  # tactics modules (engine/teams.py):
        from engine import teams  # an empty slot or unmet restriction, then the identity box's checks
        problem = teams.unplayable(st, force_id, cid)
        if problem:
            ctx.say("unplayable", f"{cid} is not playable: {problem} It gives no actions this phase.",
                    card=cid, force=force_id)
            finish(ctx)
            return
        if card.identity is not None:
            st.active.sources.append(Source(kind="identity", drawn=teams.identity_start(ctx, force_id, cid)))
    note = card.narrator
    if note and note.color == "red":
        problem = _condition_problem(st, force_id, cid)
        if problem:
            ctx.say("cancelled", f"{cid} is cancelled: {problem}", card=cid)
            finish(ctx)
            return
        if note.kind == "discard":
            st.pending = PayPending(force=force_id, card=cid, count=note.count)
            return
    if note and note.color == "blue" and note.kind in ("spotted", "draw_cards"):
        owner = st.soldiers.get(card.owner) or st.vehicles.get(card.owner)
        if note.kind == "spotted" and owner and (owner.status == "board" and getattr(owner, "captor", None) is None):
            owner.spotted = True
            it = card.owner in st.vehicles
            ctx.say("spotted", f"{st.name(card.owner)} gives {'itself' if it else 'himself'} away: "
                    f"{'it' if it else 'he'} is spotted.", serial=card.owner)
        elif note.kind == "draw_cards":
            look_draw(ctx, force_id, note.count, seat.name)


def _condition_problem(st, force_id: str, cid: str) -> str | None:
    card = st.card(cid)
    note = card.narrator
    owner = st.soldiers.get(card.owner)
    name = st.name(card.owner) if owner or card.owner in st.vehicles else f"dog tag {card.owner}"
    if note.kind == "discard":
        n = len(st.forces[force_id].hand)
        return None if n >= note.count else f"it costs {note.count} card{'s' if note.count > 1 else ''} " \
                                             f"from the hand and the hand holds {n}."
    v = st.vehicles.get(card.owner)
    if v is not None:
        if v.status != "board" or v.controller != force_id:
            return f"the {name} is not on the board to meet its condition."
        if note.kind == "unpinned" and v.pins:
            return f"the {name} is bogged down (Pin markers)."
        if note.kind == "unspotted" and (v.spotted or v.spotted_by):
            return f"the {name} is spotted."
        if note.kind == "in_cover" and not v.hull_down and (st.board.tiles[v.tile].mods.hide or 0) > -3:
            return f"the {name} is neither hull down nor in a tile of HIDE -3 or less."
        if note.kind == "healthy" and any(v.damage.values()):
            return f"the {name} is damaged."
        return None
    aboard = owner is not None and owner.status == "aboard" and owner.captor is None
    if owner is None or not (owner.free or aboard) or owner.controller != force_id:
        return f"{name} is not on the board to meet its condition."
    if note.kind == "unpinned" and owner.pinned:
        return f"{name} is pinned."
    if note.kind == "unspotted" and (owner.spotted or owner.spotted_by):
        return f"{name} is spotted."
    if note.kind == "in_cover" and (aboard or not st.board.in_cover(owner.at)):
        return f"{name} is not In Cover."
    if note.kind == "healthy" and owner.wounded:
        return f"{name} is wounded."
    return None


def pay(ctx: Ctx, cards: list[str]) -> None:
    st = ctx.st
    p = st.pending
    f = st.forces[p.force]
    if len(cards) != p.count or len(set(cards)) != len(cards) or any(c not in f.hand for c in cards):
        raise RuleError(f"pay exactly {p.count} different card{'s' if p.count > 1 else ''} from your hand: "
                        + ", ".join(f.hand) + ".")
    for c in cards:
        f.hand.remove(c)
        f.discard.append(c)
    st.pending = None
    ctx.say("paid", f"{st.seats[f.seat].name} discards {len(cards)} card{'s' if len(cards) > 1 else ''} to play {p.card}.",
            cards=cards)


def decline(ctx: Ctx) -> None:
    st = ctx.st
    p = st.pending
    st.pending = None
    ctx.say("cancelled", f"{st.seats[st.forces[p.force].seat].name} will not pay; {p.card} is cancelled.")
    finish(ctx)


def finish(ctx: Ctx) -> None:
    st = ctx.st
    if st.active is None:
        return
    if st.active.react:  # a react card ends: the interrupted card carries on (engine/react.py)
        from engine.react import finish_react
        finish_react(ctx)
        return
    st.done_sources.append(st.active.force)
    st.done_cards.append(st.active.card)
    st.active = None


def describe(st, cid: str) -> str:
    """The card in words: dog tag, team bubble, narrator box."""
    card = st.card(cid)
    parts = []
    acts = '/'.join(a.value.upper() for a in card.actions)
    if card.owner in st.vehicles:
        parts.append(f"license plate {st.name(card.owner)} ({acts})")
    elif card.tagless:
        parts.append(f"team card ({acts})")
    elif card.any_action:
        parts.append(f"dog tag {st.name(card.owner) if card.owner in st.soldiers else card.owner} (ANY)")
    elif card.kind in ("react", "preempt"):  # played from the hand, no dog tag action
        parts.append(f"{card.kind} card of {st.name(card.owner) if card.owner in st.soldiers else card.owner}")
    else:
        owner = st.name(card.owner) if card.owner in st.soldiers else str(card.owner)
        parts.append(f"dog tag {owner} ({acts})")
    if card.team:
        parts.append("team: " + ", then ".join(f"{e.count} soldier{'s' if e.count > 1 else ''} {e.do.value}"
                                               for e in card.team))
    if card.narrator:
        colour = {"white": "may", "blue": "must", "red": "cost"}[card.narrator.color]
        parts.append(f"narrator ({colour}): {card.narrator.text or card.narrator.kind}")
    return "; ".join(parts) + "."


# ------------------------------------------------------------------------ routing a command to a source


def _soldier_ok(st, active: ActiveCard, serial: int, do: Do) -> None:
    if serial in st.vehicles:
        _vehicle_ok(st, active, serial, do)
        return
    s = st.soldiers.get(serial)
    if s is None:
        raise RuleError(f"there is no soldier {serial} in this game.")
    if s.status == "waiting" and s.force == active.force:
        if do != Do.MOVE:
            raise RuleError(f"{st.name(serial)} has not entered the board yet: his first action is a MOVE onto it.")
        return
    if s.status == "aboard" and s.controller == active.force and s.captor is None:
        if s.vehicle in st.vehicles and do in {Do.SIGHT, Do.SHOOT, Do.MOVE, Do.FACE, Do.COVER, Do.DRAW} | VEHICLE_DOS:
            _same_square(st, s.vehicle, do)
            return
        raise RuleError(f"{st.name(serial)} is aboard the {st.name(s.vehicle)}: he cannot {do.value} from there.")
    if s.controller != active.force or not s.free:
        if s.captor is not None and s.controller == active.force:
            raise RuleError(f"{st.name(serial)} is a prisoner: he goes where his escort takes him.")
        raise RuleError(f"{st.name(serial)} is not one of your soldiers on the board.")


def _vehicle_ok(st, active: ActiveCard, plate: int, do: Do) -> None:
    v = st.vehicles[plate]
    name = st.name(plate)
    if v.controller != active.force:
        raise RuleError(f"the {name} is not commanded by this deck.")
    if v.status == "waiting":
        if do != Do.MOVE:
            raise RuleError(f"the {name} has not entered the board yet: its first action is a MOVE onto it.")
        return
    if v.status != "board":
        raise RuleError(f"the {name} is {v.status}.")
    _same_square(st, plate, do)


def _same_square(st, plate: int, do: Do) -> None:
    """With an enemy vehicle in its tile a vehicle may only MOVE and SHOOT (Same Square)."""
    from engine.vehicle_move import enemy_vehicle_with
    if enemy_vehicle_with(st, plate) and ACTION_OF[do] not in (Action.MOVE, Action.SHOOT):
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
        if src.uses and do != Do.RALLY:
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
    if src.kind == "identity":  # tactics modules: a command card's identity box (engine/teams.py)
        from engine.teams import identity_accepts
        return identity_accepts(st, active, src, serial, do)
    note = card.narrator
    if serial != card.owner:
        return f"the narrator box is for {st.name(card.owner) if card.owner in st.soldiers else card.owner}"
    if not owner_can_act(st, active):
        return "the narrator box's soldier is out of the game"
    if not entry_accepts(Do(note.kind), do) or (serial in st.vehicles and do in NOT_FOR_VEHICLES):
        return f"the narrator box allows {note.kind}"
    if src.uses and do != Do.RALLY:
        return "the narrator box is used"
    return _rally_room(st, active, src, do)


ACCEPTED_BY: dict[Do, frozenset[Do]] = {e: frozenset(d for d in Do if entry_accepts(e, d)) for e in Do}


def accepted(st, active: ActiveCard, src: Source, serial: int) -> frozenset[Do]:
    """Every sub-action this source would take from this man or plate now: the set form of
    `_accepts` (a property test holds the two together), for listing options quickly."""
    card = st.card(active.card)
    if src.state == "closed":
        return frozenset()
    if src.kind == "identity":  # tactics modules: a command card's identity box (engine/teams.py)
        from engine.teams import identity_accepted
        return identity_accepted(st, active, src, serial)
    if src.kind in ("tag", "note"):
        if serial != card.owner or not owner_can_act(st, active):
            return frozenset()
        dos = tag_subactions(st, active) if src.kind == "tag" else ACCEPTED_BY[Do(card.narrator.kind)]
        if serial in st.vehicles:
            dos = dos - NOT_FOR_VEHICLES
        if src.uses:
            dos = dos & {Do.RALLY}
        if Do.RALLY in dos and _rally_room(st, active, src, Do.RALLY) is not None:
            dos = dos - {Do.RALLY}
        return frozenset(dos)
    if serial in src.used:
        return frozenset()
    if any(e.who == "team" for e in card.team):  # tactics modules: a 'Team' bubble (engine/teams.py)
        from engine.teams import team_accepted
        return team_accepted(st, active, card, src, serial)
    out: set[Do] = set()
    for i in range(src.entry, len(card.team)):
        e = card.team[i]
        if who_fits(st, e.who, serial) and (i > src.entry or src.uses < e.count):
            out |= ACCEPTED_BY[e.do]
    return frozenset(out)


def team_entry(st, card, src: Source, serial: int, do: Do) -> int | None:
    """The team entry this man (or license plate) would take this action under, or None."""
    if any(e.who == "team" for e in card.team):  # tactics modules: a 'Team' bubble (engine/teams.py)
        from engine.teams import team_entry as team_bubble_entry
        return team_bubble_entry(st, st.active, card, src, serial, do)
    for i in range(src.entry, len(card.team)):
        e = card.team[i]
        if entry_accepts(e.do, do) and who_fits(st, e.who, serial) and (i > src.entry or src.uses < e.count):
            return i
    return None


def _rally_room(st, active: ActiveCard, src: Source, do: Do) -> str | None:
    if do != Do.RALLY:
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


def act(ctx: Ctx, cmd) -> None:
    """Carry out one action command through the card in play."""
    st = ctx.st
    active = st.active
    do = DO_OF[type(cmd)]
    _soldier_ok(st, active, cmd.serial, do)
    from engine.preempt import check_forced, note_forced
    check_forced(st, cmd.serial, do, cmd.via)  # preempted men act first
    i = route(st, active, cmd.serial, do, cmd.via)
    src = active.sources[i]
    for other in active.sources:
        if other is not src and other.state == "open":
            other.state = "closed"  # moving on to another part finishes the one in use
    card = st.card(active.card)
    entry = None
    if src.kind == "team":
        entry = team_entry(st, card, src, cmd.serial, do)
        if entry > src.entry:
            src.entry, src.uses = entry, 0
    _perform(ctx, cmd, src, card.team[entry].do if entry is not None else None)
    if src.kind == "team":
        note_forced(st, cmd.serial)
    if not active.react:  # an action completed: the opponents' react window is due (no react to a react)
        st.react_after = active.force
    src.state = "open"
    if src.kind == "team" and any(e.who == "team" for e in card.team):  # tactics modules: each man once
        src.used.append(cmd.serial)
        src.uses += card.team[entry].who != "team"  # numbered entries keep their count
    elif src.kind == "identity":  # tactics modules: one of his drawn cards spent (engine/teams.py)
        from engine.teams import identity_used
        identity_used(src, cmd.serial)
    elif src.kind == "team":
        if cmd.serial not in st.vehicles:  # the license plate may take each vehicle entry
            src.used.append(cmd.serial)
        src.uses += 1
        if src.uses >= card.team[src.entry].count:
            src.entry += 1
            src.uses = 0
        if src.entry >= len(card.team):
            src.state = "closed"
    else:
        src.uses += 1
        if do == Do.RALLY:
            limit = _rally_limit(st, active, src)
            if len(src.rallied) >= limit:
                src.state = "closed"
        else:
            src.state = "closed"


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


def _perform(ctx: Ctx, cmd, src: Source, entry_do: Do | None = None) -> None:
    st = ctx.st
    active = st.active
    card = st.card(active.card)
    seat_name = st.seats[st.forces[active.force].seat].name
    if isinstance(cmd, C.BATTLEFIELD_ACTIONS):  # the vehicle battlefield (issue 9): one module per rule
        _battlefield(ctx, cmd)
        return
    if isinstance(cmd, C.VEHICLE_COMMANDS) or cmd.serial in st.vehicles or (
            cmd.serial in st.soldiers and st.soldiers[cmd.serial].status == "aboard"):
        from engine.vehicle_actions import perform
        perform(ctx, cmd, src, entry_do)
        return
    if isinstance(cmd, C.ShootCmd):
        from engine.vehicle_shoot import involves_vehicle, small_arms
        if involves_vehicle(st, cmd.serial, cmd.target):
            small_arms(ctx, cmd.serial, cmd.target)
            return
    if isinstance(cmd, C.MoveCmd):
        if escorted_by(st, cmd.serial):
            if cmd.serial in active.moved_escorts:
                raise RuleError(f"{st.name(cmd.serial)} is escorting prisoners: one move per action card.")
            active.moved_escorts.append(cmd.serial)
        move(ctx, cmd.serial, Dest(cell=cmd.cell, tile=cmd.tile, cover=cmd.cover, exit=cmd.exit, area=cmd.area),
             cmd.facing, release=cmd.release, take=cmd.take)
    elif isinstance(cmd, C.Charge):
        charge(ctx, cmd.serial, cmd.target)
    elif isinstance(cmd, C.Face):
        face(ctx, cmd.serial, cmd.facing)
    elif isinstance(cmd, C.SightCmd):
        if cmd.square:
            from engine.vehicle_look import sight_square
            sight_square(ctx, cmd.serial, cmd.square)
        else:
            sight(ctx, cmd.serial, cmd.target)
    elif isinstance(cmd, C.DrawCmd):
        n = card.narrator.count if src.kind == "note" else draw_count(st, cmd.serial)
        look_draw(ctx, active.force, n, st.name(cmd.serial))
    elif isinstance(cmd, C.CoverCmd):
        take_cover(ctx, cmd.serial)
    elif isinstance(cmd, C.RallyCmd):
        if src.kind == "team" and cmd.serial != cmd.target and st.soldiers[cmd.serial].pinned:
            raise RuleError(f"{st.name(cmd.serial)} is pinned himself and must rally himself first.")
        if cmd.target in src.rallied:
            raise RuleError(f"{st.name(cmd.target)} has been rallied with this already.")
        rally_check(st, cmd.serial, cmd.target, done_self=cmd.serial in src.rallied)
        src.rally_limit = _rally_limit(st, active, src)
        rally(ctx, cmd.serial, cmd.target, done_self=cmd.serial in src.rallied)
        src.rallied.append(cmd.target)
    elif isinstance(cmd, C.HoldCmd):
        hold(ctx, cmd.serial, cmd.cards)
    elif isinstance(cmd, C.ShootCmd):
        shoot(ctx, cmd.serial, cmd.target)
    elif isinstance(cmd, C.TossCmd):
        toss(ctx, cmd.serial, cmd.target, cmd.at)
    elif isinstance(cmd, C.UseCmd):  # equipment: smoke or a weapon (engine/equipment.py)
        from engine.equipment import use
        use(ctx, cmd.serial, cmd.item, cmd.target, cmd.at)
    else:
        raise RuleError(f"{seat_name}: {cmd} is not an action.")


def _battlefield(ctx: Ctx, cmd) -> None:
    if isinstance(cmd, C.AdjustCmd):
        from engine.artillery import adjust
        adjust(ctx, cmd.serial, cmd.letter)
    elif isinstance(cmd, C.PopSmokeCmd):
        from engine.vehicle_smoke import pop_smoke
        pop_smoke(ctx, cmd.serial)
    elif isinstance(cmd, C.HandOffCmd):
        from engine.equipment import hand_off
        hand_off(ctx, cmd.serial, cmd.item, cmd.to)
    elif isinstance(cmd, C.RecoverCmd):
        from engine.recovery import recover
        recover(ctx, cmd.serial, cmd.item, cmd.plate)


def must_left(st) -> str | None:
    """A blue narrator action not yet taken that is still possible: the card cannot end yet."""
    from engine.legal import action_options
    active = st.active
    card = st.card(active.card)
    note = card.narrator
    if not note or note.color != "blue" or note.kind not in NARRATOR_ACTIONS:
        return None
    src = next(s for s in active.sources if s.kind == "note")
    if src.state == "closed" or src.uses:
        return None
    for cmd in action_options(st, active.force, only_source="note"):
        return f"{st.name(card.owner)} must {note.kind} first (blue narrator box): for example `{cmd}`."
    return None


def done(ctx: Ctx) -> None:
    st = ctx.st
    active = st.active
    from engine.preempt import forced_problem
    problem = forced_problem(st)
    if problem:
        raise RuleError(problem)
    open_ = [s for s in active.sources if s.state == "open"]
    if open_:
        for s in open_:
            s.state = "closed"
        ctx.say("done", f"{st.seats[st.forces[active.force].seat].name} finishes the {open_[0].kind} part of {active.card}.")
        return
    pass_card(ctx)


def pass_card(ctx: Ctx) -> None:
    st = ctx.st
    from engine.preempt import forced_problem
    problem = must_left(st) or forced_problem(st)
    if problem:
        raise RuleError(problem)
    ctx.say("pass", f"{st.seats[st.forces[st.active.force].seat].name} is done with {st.active.card}.")
    finish(ctx)
