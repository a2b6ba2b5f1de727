"""Placing action cards (play sequence steps 5-6): one secret card per phase matching either of its
actions, as many phases filled as the hand allows, the shortfall procedure, and the reveal."""
from __future__ import annotations

from engine.advanced.dead_cards import dead_reason, is_dead
from engine.core import commands as C
from engine.core import rulebook
from engine.core.content import Action
from engine.core.deck import take_top
from engine.core.errors import RuleError
from engine.core.log import Ctx
from engine.core.state import DeclarePending
from engine.turn.matching import fits, matching, placeable
from engine.turn.officer import check_extras


def max_filled(st, hand: list[str], force: str | None = None) -> int:
    """The most phases this hand can fill with different cards."""
    return most_filled(fitting(st, hand, force))


def fitting(st, hand: list[str], force: str | None = None) -> list[list[str]]:
    """For each phase card in play, the cards of `hand` that may go on it (matching.fits),
    `placeable` asked once a card, not once a phase."""
    phases = [st.setup.story[c] for c in st.phase_cards]
    live = [(c, st.card(c)) for c in hand if placeable(st, c, force)]
    return [[c for c, card in live if matching(card, p)] for p in phases]


def most_filled(fits_: list[list[str]]) -> int:
    """The most phases filled with different cards, each phase's cards as `fitting` gives them
    (a placement search that has them already asks this rather than max_filled)."""
    best = 0
    n_phases = len(fits_)

    def search(i: int, used: frozenset, n: int) -> None:
        nonlocal best
        if n + (n_phases - i) <= best:
            return
        if i == n_phases:
            best = max(best, n)
            return
        for c in fits_[i]:
            if c not in used:
                search(i + 1, used | {c}, n + 1)
        search(i + 1, used, n)

    search(0, frozenset(), 0)
    del search  # it refers to itself: unbound now, it is freed at once, not by the collector
    return best


def plan(ctx: Ctx, force_id: str, cards: list[str | None], declare: dict[str, str],
         extra: dict[int, str] | None = None) -> None:
    st = ctx.st
    f = st.forces[force_id]
    extra = dict(extra or {})
    previous = ([c for c in f.placed if c] + [c for c in f.extra if c]) if f.planned else []
    hand = f.hand + previous  # a placement may change until the last player has placed
    cards = list(cards) + [None] * (3 - len(cards))
    if len(cards) != 3:
        raise RuleError("place exactly three cards, one per phase (use - for a phase you cannot fill).")
    phases = [st.setup.story[c] for c in st.phase_cards]
    chosen = [c for c in cards if c]
    if len(set(chosen)) != len(chosen):
        raise RuleError("each card can go on one phase only.")
    for c in chosen:
        if c not in hand:
            raise RuleError(f"{c} is not in your hand. Your hand: {', '.join(hand) or 'empty'}.")
    for i, c in enumerate(cards):
        if c is None:
            continue
        p = phases[i]
        fit = fits(st, c, p, force_id)
        card = st.card(c)
        if card.kind in ("react", "preempt"):
            raise RuleError(f"{c} is a {card.kind} card: it is played from the hand when the rules allow, "
                            f"never placed on a phase.")
        if not fit and is_dead(st, c, force_id):
            raise RuleError(dead_reason(st, c, force_id) + "; it cannot be placed.")
        if not fit:
            acts = "/".join(a.value.upper() for a in st.card(c).actions)
            raise RuleError(f"{c} is a {acts} card; phase {i + 1} is {p.top.value.upper()} and then "
                            f"{p.bottom.value.upper()}.")
        if c in declare:
            a = declare[c]
            if a not in [x.value for x in fit]:
                raise RuleError(f"{c} can be used for " + " or ".join(x.value for x in fit) + f" in phase {i + 1}.")
    if len(chosen) < len(phases):  # with every phase filled no hand can fill more: no search
        best = max_filled(st, hand, force_id)
        if len(chosen) < best:
            raise RuleError(f"your hand can fill {best} phases; place as many cards as you can "
                            f"(you placed {len(chosen)}).")
    extras = check_extras(st, force_id, cards, extra, [c for c in hand if c not in chosen])  # officers
    for ph, c in extras.items():
        if c in declare:
            fit = fits(st, c, phases[ph - 1], force_id)
            if declare[c] not in [x.value for x in fit]:
                raise RuleError(f"{c} can be used for " + " or ".join(x.value for x in fit) + f" in phase {ph}.")
    placed_all = chosen + list(extras.values())
    f = st.changing_force(force_id)
    f.hand = [c for c in hand if c not in placed_all]
    f.placed = cards
    f.extra = [extras.get(i + 1) for i in range(3)]
    f.declared = {c: Action(a) for c, a in declare.items() if c in placed_all}
    f.planned = True
    seat = st.seats[f.seat]
    verb = "changes the placement:" if previous else "places"
    n = len(placed_all)
    more = f" (with {len(extras)} extra by the officer's command)" if extras else ""
    ctx.say("placed", f"{seat.name} {verb} {n} card{'s' if n != 1 else ''} face down{more}.",
            force=force_id, extra=sorted(extras))
    ctx.tell(f.seat, "placed_private", "You placed: " + ", ".join(
        f"phase {i + 1}: {c or '—'}" + (f" + {extras[i + 1]}" if i + 1 in extras else "")
        for i, c in enumerate(cards)) + ".", cards=cards, extra=[[ph, c] for ph, c in sorted(extras.items())])


def auto_plan(st, force_id: str) -> list[str | None]:
    """A simple legal placement (deadline default and hints): the first maximal assignment found."""
    f = st.forces[force_id]
    phases = [st.setup.story[c] for c in st.phase_cards]
    best: list[str | None] = [None, None, None]
    target = max_filled(st, f.hand, force_id)

    def search(i: int, acc: list) -> bool:
        nonlocal best
        if i == 3:
            if sum(1 for c in acc if c) == target:
                best = list(acc)
                return True
            return False
        for c in f.hand:
            if c not in acc and fits(st, c, phases[i], force_id) and search(i + 1, acc + [c]):
                return True
        return search(i + 1, acc + [None])

    search(0, [])
    return best


def shortfall(ctx: Ctx, force_id: str) -> None:
    """A hand that cannot fill every phase: its cards on the phases turn face up, the rest of the
    hand is shown and discarded, then one card at a time is drawn for each empty phase until one
    fits, placed face up; the misfits are discarded (Play Sequence, step 5)."""
    st = ctx.st
    empty = [i for i, c in enumerate(st.forces[force_id].placed) if c is None]
    if not empty:
        return
    f = st.changing_force(force_id)  # before take_top below, which makes it the state's own too
    seat = st.seats[f.seat]
    played = [(i, c) for i, c in enumerate(f.placed) if c is not None]
    for i, c in played:
        f.face_up[i] = True
    if played:
        ctx.say("shortfall_played", f"{seat.name} is short of cards and plays face up: " + ", ".join(
            f"{c} on phase {i + 1}" for i, c in played) + ".", force=force_id, cards=[c for _, c in played])
    shown = ", ".join(f.hand) or "no cards"
    ctx.say("shortfall", f"{seat.name} cannot fill phase{'s' if len(empty) > 1 else ''} "
            + ", ".join(str(i + 1) for i in empty) + f" and shows the rest of the hand: {shown}.",
            force=force_id, hand=list(f.hand))
    f.discard.extend(f.hand)
    f.hand = []
    total = len(st.setup.cards)
    for i in empty:
        p = st.setup.story[st.phase_cards[i]]
        for _ in range(total + 1):
            if not f.deck and not f.discard:
                break
            c = take_top(ctx, force_id)
            if fits(st, c, p, force_id):
                f.placed[i] = c
                f.face_up[i] = True
                fit = fits(st, c, p, force_id)
                if len(fit) == 1:
                    f.declared[c] = fit[0]
                ctx.say("shortfall_card", f"{seat.name} turns up {c} for phase {i + 1}, face up.",
                        force=force_id, card=c, phase=i + 1)
                break
            f.discard.append(c)
            ctx.say("shortfall_discard", f"{seat.name} turns up {c}, which does not fit, and discards it.",
                    force=force_id, card=c)


def card_action(st, force_id: str, phase: int, card: str | None = None) -> Action | None:
    """The action a revealed card is used for this phase (declared, or its only fit); `card`:
    which of the force's cards on the phase (default its one ordinary card; an officer's extra)."""
    f = st.forces[force_id]
    c = f.placed[phase - 1] if card is None else card
    if c is None:
        return None
    if c in f.declared:
        return f.declared[c]
    fit = matching(st.card(c), st.setup.story[st.phase_cards[phase - 1]])
    return fit[0] if len(fit) == 1 else None


def phase_cards_of(st, force_id: str, phase: int) -> list[str]:
    """The force's cards on a phase: its ordinary card, then an officer's extra card."""
    f = st.forces[force_id]
    cards = [c] if (c := f.placed[phase - 1]) else []
    if x := f.extra[phase - 1]:
        cards.append(x)
    return cards


def next_card(st, force_id: str, phase: int, action: Action, done: list[str]) -> str | None:
    """The force's first card on the phase, in phase_cards_of's order (its ordinary card, then an
    officer's extra), that is not in `done` and is used for `action` (card_action); None if none.
    The play sequence asks it for every revealed force at each card part: read in place."""
    f = st.forces[force_id]
    i = phase - 1
    for c in (f.placed[i], f.extra[i]):
        if c and c not in done:
            used = f.declared.get(c)  # card_action's first answer
            if (used if used is not None else card_action(st, force_id, phase, c)) == action:
                return c
    return None


def reveal(ctx: Ctx, phase: int, order: list[str]) -> None:
    """Every player reveals his card for the phase in initiative order; a multi-action card that
    fits both actions must be declared as it is revealed (Multi-Action Cards)."""
    st = ctx.st
    p = st.setup.story[st.phase_cards[phase - 1]]
    for fid in order:
        f = st.forces[fid]
        c = f.placed[phase - 1]
        seat = st.seats[f.seat]
        if c is None:
            ctx.say("reveal", f"{seat.name} has no card for phase {phase}.", force=fid, phase=phase)
            continue
        st.changing_force(fid).revealed[phase - 1] = True
        for c in phase_cards_of(st, fid, phase):  # an officer's extra card is revealed with it
            _reveal_one(ctx, fid, c, phase, p)


def _reveal_one(ctx: Ctx, fid: str, c: str, phase: int, p) -> None:
    st = ctx.st
    f = st.forces[fid]
    seat = st.seats[f.seat]
    card = st.card(c)
    fit = matching(card, p)
    acts = "ANY" if card.any_action else "/".join(a.value.upper() for a in card.actions)
    owner = st.name(card.owner) if card.owner in st.soldiers or card.owner in st.vehicles \
        else "team card" if card.tagless else f"dog tag {card.owner}"
    ctx.say("reveal", f"{seat.name} reveals {c} ({acts}, {owner}: {card.title}).", force=fid, card=c,
            phase=phase)
    if len(fit) == 1:
        st.changing_force(fid).declared[c] = fit[0]
    elif c not in f.declared:
        st.pending_queue.append(DeclarePending(force=fid, card=c, phase=phase, options=fit))
    else:
        ctx.say("declare", f"{seat.name} uses {c} as {f.declared[c].value.upper()}.", force=fid, card=c)


def declare(ctx: Ctx, pending: DeclarePending, action: str) -> None:
    st = ctx.st
    if action not in [a.value for a in pending.options]:
        raise RuleError(f"{pending.card} can be used as " + " or ".join(a.value for a in pending.options) + ".")
    f = st.changing_force(pending.force)
    f.declared[pending.card] = Action(action)
    ctx.say("declare", f"{st.seats[f.seat].name} uses {pending.card} as {action.upper()}.", force=pending.force,
            card=pending.card)


# --------------------------------------------------------------------------- what its commands do (engine/core/rulebook.py)


@rulebook.answers(C.Plan)
def plan_answer(ctx: Ctx, cmd: C.Plan, force: str) -> None:
    plan(ctx, force, cmd.cards, cmd.declare, cmd.extra)


@rulebook.answers(C.Declare)
def declare_answer(ctx: Ctx, cmd: C.Declare, force: str) -> None:
    p = ctx.st.pending
    ctx.st.pending = None
    declare(ctx, p, cmd.action)
