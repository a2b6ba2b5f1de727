"""The play sequence (core manual, Play Sequence steps 1-8) as a small state machine.

`advance` carries out every automatic step — draws, the reveal of phase cards, random events,
reveals, fire, the order of sources, fights with no real choice — and stops at the first
decision the engine needs from a player (see `awaiting`)."""
from __future__ import annotations

from engine.advanced import preempt, react
from engine.battlefield import artillery, close_combat
from engine.core import initiative, rulebook
from engine.core.content import ACTION_MOVE, ACTION_SHOOT
from engine.core.log import Ctx
from engine.core.ratings import draws_by_controller
from engine.core.state import HoldPending, Weather
from engine.infantry import orders
from engine.infantry.blast import blast_tile
from engine.infantry.look import draw as look_draw
from engine.turn import events, fight, placement, victory
from engine.turn.cards import finish, start
from engine.vehicles.damage import burning, check_abandon, fire_at_phase_end
from engine.vehicles.orders import phase_end

MAX_STEPS = 100_000


def advance(ctx: Ctx) -> None:
    """Play on through every automatic step to the next decision; then nobody stands on a deck he
    is no longer on (engine/battlefield/close_combat.py)."""
    _advance(ctx)
    if ctx.st.vehicles:
        close_combat.forget_fallen(ctx.st)


def _advance(ctx: Ctx) -> None:
    st = ctx.st
    fighting: dict[str, int] = {}  # a man of each side still fighting, asked first at each step (turn/victory.py)
    # Whether a man may have left play since the last instant-victory check: the steps that only
    # move the sequence along (a decision queued or asked, a card finished, the next part found,
    # the reveal, the held-card window, a placement with no gap, a phase with no fire) take nobody
    # out of play, so the check after them would give the answer the check before them gave
    # (tests/engine/test_advance_cuts37.py).
    unchecked = True
    for _ in range(MAX_STEPS):
        if st.step == "over" or (unchecked and victory.check_instant(ctx, fighting)):
            return
        unchecked = True
        if st.pending is not None:
            return
        if st.pending_queue:
            st.pending = st.pending_queue.pop(0)
            unchecked = False
            continue
        step = st.step
        if step == "slot":  # the card parts: most of the rounds of this loop, so asked first
            if st.active is not None and preempt.then_due(ctx):
                unchecked = False
                continue  # a preempt's follow-up comes right after the named men have acted
            if st.react_after is not None:
                react.open_window(ctx)  # an action has just been completed: reacts, if anyone can
                unchecked = False
                continue
            if st.active is not None:
                if _has_options(st):
                    return
                ctx.say("nothing_left", f"Nothing more can be done with {st.active.card}: {_why_nothing_left(st)}.")
                finish(ctx)
                unchecked = False
                continue
            unchecked = _next_source(ctx)
        elif step == "turn_start":
            _turn_start(ctx)
        elif step == "place":
            if not all(f.planned for f in st.forces.values()):
                return
            if any(None in f.placed for f in st.forces.values()):  # shortfall has work only for a gap
                for fid in initiative.order(st):
                    placement.shortfall(ctx, fid)
            else:
                unchecked = False
            st.phase = 1
            st.step = "phase_start"
        elif step == "phase_start":
            p = st.setup.story[st.phase_cards[st.phase - 1]]
            ctx.say("phase", f"Phase {st.phase}: {p.top.value.upper()} and then {p.bottom.value.upper()}.",
                    phase=st.phase)
            placement.reveal(ctx, st.phase, initiative.order(st))
            st.step = "phase_preempt"
            unchecked = False
        elif step == "phase_preempt":
            st.step = "phase_hold"
            preempt.open_window(ctx)  # after the reveal (and declarations), before anyone acts
            unchecked = False
        elif step == "phase_hold":
            holding = {s.force for s in st.soldiers.values() if s.held}  # one pass over the men, not one a force
            holders = [f.id for f in st.forces.values() if f.id in holding]
            if holders:
                st.pending = HoldPending(forces=holders)
            st.step = "phase_fire"
            unchecked = False
        elif step == "phase_fire":
            unchecked = bool(st.fires)
            for tile in list(st.fires):
                blast_tile(ctx, tile, checks=1, by_force=None, cause="event", what="Fire", quiet_if_empty=True)
            st.slot, st.done_sources, st.done_cards = 0, [], []
            st.step = "slot"
        elif step == "fights":
            fight.start_fights(ctx)
            st.step = "fighting"
        elif step == "fighting":
            if st.fight is None:
                st.step = "phase_end"
                unchecked = False
                continue
            turn = fight.whose_turn(st)
            if turn is None:
                fight.end_fight(ctx)
                continue
            fight.sync_turn(st)
            choice = fight.auto_choice(st, turn)
            if choice is None:
                return
            fight.play(ctx, turn, *choice)
        elif step == "phase_end":
            _phase_end(ctx)
        elif step == "turn_end":
            _turn_end(ctx)
    raise RuntimeError("the play sequence did not settle")


def _has_options(st) -> bool:
    """Whether the card in play allows any action (engine/legal.py anything_to_do)."""
    return rulebook.anything_to_do(st, st.active.force)


def _why_nothing_left(st) -> str:
    """Why a card in play ends by itself, in a few words for its player and the table."""
    a = st.active
    if all(s.state == "closed" for s in a.sources):
        return "every part of it has been used"
    used = any(s.state != "ready" for s in a.sources)
    name = st.seats[st.forces[a.force].seat].name
    act = a.action.value.upper()
    # whether any of his vehicles or men (those he controls, and his own still to enter) is on the
    # board, else whether any man waits; for a SHOOT the first of his men (his side). The men are
    # read only as far as that needs: not at all for a vehicle on the board and no SHOOT.
    fid, shoot = a.force, a.action == ACTION_SHOOT
    vehicles = st.vehicles  # (none: no generator made to find none)
    present = bool(vehicles) and any(v.controller == fid and v.status == "board" for v in vehicles.values())
    first, waiting = None, False
    if shoot or not present:
        for s in st.soldiers.values():
            status = s.status
            if s.controller == fid or (status == "waiting" and s.force == fid):
                if first is None:
                    first = s
                    if present:
                        break
                if status in ("board", "aboard"):
                    present = True
                    break
                waiting = waiting or status == "waiting"
    if not present and not used:
        if waiting and a.action != ACTION_MOVE:
            return f"none of {name}'s men is on the board yet, and only a MOVE brings them on"
        return f"none of {name}'s men or vehicles is on the board"
    if shoot and not (first is not None and any(
            s.spotted and s.on_board and s.side != first.side for s in st.soldiers.values())):
        return "no enemy is spotted, and only a spotted enemy may be shot at"
    owner = st.soldiers.get(st.card(a.card).owner)
    tag_left = any(s.kind == "tag" and s.state != "closed" for s in a.sources)
    off = owner is not None and tag_left and owner.status not in ("board", "aboard")
    said = f"its dog tag's man, {st.name(owner.serial)}, is not on the board; " if off else ""
    return said + f"nobody {'else ' if off else ''}{'left ' if used else ''}to act for it can {act} from where he stands"


def _turn_start(ctx: Ctx) -> None:
    st = ctx.st
    if len(st.story_deck) < 3:
        victory.end_game(ctx, f"turn {st.turn} was the last one: fewer than three phase cards are left in the story deck")
        return
    st.turn += 1
    st.weather = Weather()
    ctx.say("turn", f"Turn {st.turn} begins.", turn=st.turn)
    # 1. draw: the scenario's base draw plus every soldier's LOOK draw value (summed for every
    # force in one pass: drawing cards changes no soldier)
    draws = draws_by_controller(st)
    base = st.setup.scenario.base_draw
    for fid in sorted(st.forces):
        look_draw(ctx, fid, base + draws.get(fid, 0), st.seats[st.forces[fid].seat].name)
    # 2. reveal three phase cards
    st.story_discard.extend(st.phase_cards)
    st.phase_cards = st.story_deck[:3]
    st.story_deck = st.story_deck[3:]
    cards = [st.setup.story[c] for c in st.phase_cards]
    ctx.say("phase_cards", "Phase cards: " + "; ".join(
        f"{i + 1}. {c.top.value.upper()} and then {c.bottom.value.upper()} ({c.title})" for i, c in enumerate(cards)),
        cards=list(st.phase_cards))
    orders.turn_start(ctx)
    # 3. cause and effect
    events.resolve(ctx)
    # 4. does the smoke dissipate (Hell on Wheels, Play Sequence 4: after the events of step 3)
    _smoke_schedule(ctx)
    artillery.turn_start(ctx)
    # 4-5. initiative follows the hands; every force places its cards
    able = {s.controller for s in st.soldiers.values() if s.in_play}  # one pass over the men, not one a force
    for fid in st.forces:  # each force's own copy (GameState.changing_force): all change
        f = st.changing_force(fid)
        f.placed = [None, None, None]
        f.extra = [None, None, None]
        f.revealed = [False, False, False]
        f.face_up = [False, False, False]
        f.shown = [None, None, None]
        f.declared = {}
        f.planned = f.id not in able
    st.phase = 0
    st.step = "place"


def _smoke_schedule(ctx: Ctx) -> None:
    """Smoke lasts at least a turn; after that the phase cards' colours decide (Smoke): it goes
    after phase 2 if card 2's colour differs from card 1's, else after phase 3 if card 3's does."""
    st = ctx.st
    c = [st.setup.story[x].color for x in st.phase_cards]
    for m in st.smoke:
        if m.turn >= st.turn:
            m.clears_after = None
        elif c[1] != c[0]:
            m.clears_after = 2
        elif c[2] != c[0]:
            m.clears_after = 3
        else:
            m.clears_after = None
        if m.clears_after is not None:
            ctx.say("smoke_thins", f"The smoke over {m.tile} will clear after phase {m.clears_after}.",
                    tile=m.tile, phase=m.clears_after)


def _next_source(ctx: Ctx) -> bool:
    """Phase card's top action for every player who played it, in initiative order, then the bottom.
    Whether a card was put in play (its narrator box may act at once); else only the slot or the
    step moved on."""
    st = ctx.st
    p = st.setup.story[st.phase_cards[st.phase - 1]]
    action = p.top if st.slot == 0 else p.bottom
    due: dict[str, str] = {}  # each force's next card for this action (an officer's two back to back)
    phase, done = st.phase, st.done_cards
    for fid, f in st.forces.items():
        if f.revealed[phase - 1] and (c := placement.next_card(st, fid, phase, action, done)) is not None:
            due[fid] = c
    if due:  # initiative, which may read every soldier, only to choose among several, and only among them
        fid = next(iter(due)) if len(due) == 1 else initiative.order(st, list(due))[0]
        start(ctx, fid, st.phase, action, card=due[fid])
        return True
    if st.slot == 0:
        st.slot, st.done_sources, st.done_cards = 1, [], []
    else:
        st.step = "fights"
    return False


def _phase_end(ctx: Ctx) -> None:
    st = ctx.st
    _vehicle_phase_end(ctx)
    st.last_trail, st.last_trail_phase, st.trail = st.trail, (st.turn, st.phase), []
    st.last_panels, st.panels = st.panels, []
    for fid, f in st.forces.items():
        c = f.placed[st.phase - 1]
        x = f.extra[st.phase - 1]
        if c is None and x is None:
            continue
        f = st.changing_force(fid)
        if c is not None:
            f.shown[st.phase - 1] = c if f.revealed[st.phase - 1] else None
            f.discard.append(c)
            f.placed[st.phase - 1] = None
        if x is not None:  # an officer's extra card
            f.discard.append(x)
            f.extra[st.phase - 1] = None
    orders.sample_landmarks(ctx)
    gone = [m for m in st.smoke if m.clears_after == st.phase]
    for m in gone:
        ctx.say("smoke_clears", f"The smoke over {m.tile} clears.", tile=m.tile)
    st.smoke = [m for m in st.smoke if m.clears_after != st.phase]
    st.active = None
    st.interrupted = None
    st.react_after = None
    st.preempts = []
    st.done_sources = []
    st.done_cards = []
    st.slot = 0
    if st.phase >= 3:
        st.step = "turn_end"
    else:
        st.phase += 1
        st.step = "phase_start"


def _vehicle_phase_end(ctx: Ctx) -> None:
    """After the phase's fights (Hell on Wheels, Play Sequence 10): ammunition cooking off and
    fires spreading in every vehicle; then each vehicle's ROF, license-plate hull move and the
    squares it moved start afresh."""
    st = ctx.st
    if not st.vehicles:
        return
    for plate in sorted(st.vehicles):
        v = st.vehicles[plate]
        if v.status == "board" and (burning(v) or v.cook_off):
            fire_at_phase_end(ctx, plate)
            if plate not in st.panels:
                st.panels.append(plate)
        v = st.vehicles[plate]  # read again: the fire may have made it the state's own
        if v.shots or v.hull_moved or v.moved:
            v = st.changing_vehicle(plate)
            v.shots, v.hull_moved, v.moved = 0, False, 0
    phase_end(ctx)


def _turn_end(ctx: Ctx) -> None:
    """8. discard what is left in the hands; held cards stay under their soldiers."""
    st = ctx.st
    st.sighted = {}  # Sight markers on tiles last the turn (docs/vehicles.md V38)
    if st.vehicles:
        for plate in sorted(st.vehicles):
            if st.vehicles[plate].looks:
                st.changing_vehicle(plate).looks = 0  # radio contact lasts one turn
            check_abandon(ctx, plate)
    for fid, f in st.forces.items():
        if f.hand:
            f = st.changing_force(fid)
            f.discard.extend(f.hand)
            f.hand = []
    orders.turn_end(ctx)
    artillery.turn_end(ctx)
    ctx.say("turn_end", f"Turn {st.turn} ends. " + ", ".join(
        f"{side} {st.side_vp(side)} VP" for side in sorted({s.side for s in st.seats})) + ".")
    st.phase = 0
    st.step = "turn_start"
