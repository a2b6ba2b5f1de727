"""What to ask an awaited player, and how a player's private things read.

`choices(state, decision)` is the short list of answers offered as buttons or a select for one
decision (an `engine.Await`, by default the first the seat is awaited for). Each answer carries
a `stamp`: 8 hex digits naming the decision (its id, `engine.legal.decision_key`) and 8 naming
the answer. A press names (game, seat, version, stamp) and is carried out only while that
decision is still open and the same answer is on offer for it, whatever the version.
"""
from __future__ import annotations

import hashlib
from itertools import compress
from operator import attrgetter, eq, is_, is_not
from types import SimpleNamespace

from bot.app import battlefield_words, vehicle_words
from bot.app.replies import Choice, make_choice
from engine import Await, GameState, awaiting, legal_commands
from engine.battlefield import artillery
from engine.core import commands as C
from engine.core.per_setup import memo
from engine.core.views import CardView, Mine
from engine.legal import plan_drafts
from engine.view import card_view, private_battlefield

# the /vehicle subcommands, as a prompt names them (the console writes the script verbs instead)
VEHICLE_ACTIONS = ("move|turn|turret|fire|load|acquire|unbutton|button|hulldown|cover|moveplus|unpin|"
                   "mount|dismount|shift|repair|extinguish")
SCRIPT_VEHICLE_ACTIONS = VEHICLE_ACTIONS.replace("move|turn", "vmove|vturn").replace("|cover|", "|vcover|")

# Discord's limits for a select (25 options, labels of 100) are also a sane list for anyone.
MAX_CHOICES = 25
MAX_LABEL = 100


def _trim(text: str, limit: int = MAX_LABEL) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _card(st: GameState, cid: str | None) -> str:
    if cid is None:
        return "—"
    title = st.card(cid).title
    return f"{cid} {title}" if title else cid


def _who(st: GameState, serial: int) -> str:
    return f"{st.name(serial)} ({serial})"


def label(st: GameState, cmd: C.Cmd, words: dict | None = None) -> str:
    """A button's words for a command, in the game's language. `words`: a placement's card and
    deck words kept for the next placement of the same list (`answers`)."""
    if isinstance(cmd, C.Plan):
        return _plan_label(st, cmd, {} if words is None else words)
    if isinstance(cmd, C.Declare):
        return f"Use {cmd.card} to {cmd.action.upper()}"
    if isinstance(cmd, C.Keep):
        return "Keep the held cards"
    if isinstance(cmd, C.Unhold):
        return "Take back " + ", ".join(cmd.cards) if cmd.cards else "Take back nothing"
    if isinstance(cmd, C.HitPlus):
        return f"Hit+ on {_who(st, cmd.target)}"
    if isinstance(cmd, C.Pay):
        return "Pay with " + ", ".join(_card(st, c) for c in cmd.cards)
    if isinstance(cmd, C.Decline):
        return "Decline (the card is cancelled)"
    if isinstance(cmd, C.FightCmd):
        return f"{_card(st, cmd.card)} against {_who(st, cmd.target)}"
    if isinstance(cmd, C.Capture):
        by = f", escorted by {_who(st, cmd.escort)}" if cmd.escort else ""
        return f"Take {_who(st, cmd.victim)} prisoner{by}"
    if isinstance(cmd, C.KillCmd):
        return f"Kill {_who(st, cmd.victim)}"
    if isinstance(cmd, C.Stay):
        return "Stay where he is"
    if isinstance(cmd, C.Done):
        return "Done with this part of the card"
    if isinstance(cmd, C.Pass):
        return "Pass (finish the whole card)"
    if isinstance(cmd, C.MoveCmd):
        return f"Move {_who(st, cmd.serial)} to " + str(cmd).split(" move ", 1)[-1].split(" ", 1)[-1]
    if isinstance(cmd, C.ReactCmd):
        return f"React with {_card(st, cmd.card)}"
    if isinstance(cmd, C.PreemptCmd):
        men = ", ".join(_who(st, s) for s in cmd.soldiers)
        return f"Preempt {cmd.target} with {_card(st, cmd.card)}: {men} act first"
    if isinstance(cmd, C.Then):
        return f"{_who(st, cmd.serial)} follows up against {_who(st, cmd.target)}"
    if isinstance(cmd, C.Skip):
        return "Skip (let this chance go by)"
    if isinstance(cmd, C.AlwaysPass):
        return "Always pass on react and preempt cards" if cmd.on else "Ask me about react and preempt cards"
    if vehicle_words.is_vehicle_command(st, cmd):
        return vehicle_words.describe(st, cmd)
    words = battlefield_words.describe(st, cmd)  # issue 9: the battlefield's commands
    if words is not None:
        return words
    return str(cmd)


def _plan_label(st: GameState, cmd: C.Plan, words: dict) -> str:
    # each slot's words ("P2 101-C3 Advance") kept in `words` by (phase, card): a placement
    # prompt labels some 25 plans of the same few cards (no closure or generator per plan)
    slots = []
    for i, c in enumerate(cmd.cards):
        text = words.get((i, c))
        if text is None:
            text = words[(i, c)] = f"P{i + 1} {_card(st, c)}"
        slots.append(text)
    cards = " | ".join(slots)
    if cmd.extra:  # an officer's extra cards, beside the phase's own
        cards += " | " + " ".join(f"+P{ph} {_card(st, c)}" for ph, c in sorted(cmd.extra.items()))
    if cmd.force is not None and cmd.force in st.forces:
        deck = words.get(("deck", cmd.force))
        if deck is None:
            deck = words[("deck", cmd.force)] = vehicle_words.deck_name(st, cmd.force)
        return f"{deck}: {cards}"
    return cards


def in_words(st: GameState, cmd: C.Cmd) -> str:
    """" — Pvt. Calloway (151, M4A1 Sherman 601): open his hatch" after a vehicle or crew
    command's script line (so the crewman and his vehicle are named), " — for M4A1 Sherman 601"
    after a placement for a vehicle's deck; nothing after other commands."""
    # asked after every command: a command of a class none of the checks below takes (a move, a
    # card's finish, a react...) says nothing, known by its class once, not by some thirty failed
    # isinstance checks against model classes (0.2 us each) every time
    wordless = _WORDLESS.get(type(cmd))
    if wordless is None:
        wordless = _WORDLESS[type(cmd)] = wordless_class(type(cmd))
    return "" if wordless else words_after(st, cmd)


def words_after(st: GameState, cmd: C.Cmd) -> str:
    """`in_words` without its shortcut for the classes that are never worded."""
    try:
        if isinstance(cmd, C.Plan) and len(st.force_of_seat(cmd.seat)) > 1:
            named = [c for c in cmd.cards if c]
            fid = cmd.force if cmd.force in st.forces else next(
                (f.id for f in st.force_of_seat(cmd.seat) if named and named[0] in (*f.hand, *f.placed)), None)
            return f" — for {vehicle_words.deck_name(st, fid)}" if fid else ""
        if vehicle_words.is_vehicle_command(st, cmd):
            return f" — {vehicle_words.describe(st, cmd)}"
        words = battlefield_words.describe(st, cmd)  # issue 9: the battlefield's commands
        if words is not None:
            return f" — {words}"
    except (KeyError, AttributeError):  # words are a courtesy: never fail a done command on them
        pass
    return ""


def wordless_class(cls: type) -> bool:
    """Whether `in_words` says nothing after every command of this class: it is no placement,
    no vehicle or crew command (nor a sight, shoot or draw, which may be one) and no battlefield
    command, the only classes it words."""
    return not issubclass(cls, (C.Plan, *C.VEHICLE_COMMANDS, C.SightCmd, C.ShootCmd, C.DrawCmd,
                                *battlefield_words.BATTLEFIELD_COMMANDS))


_WORDLESS: dict[type, bool] = {}  # command class -> wordless_class(it), found once per class


def decision(st: GameState, seat: int) -> str | None:
    """What `seat` is asked now: an awaited kind, or "place" while he may still change the
    cards he placed (until the last player has placed)."""
    kinds = [a.kind for a in awaiting(st) if a.seat == seat]
    if kinds:
        return kinds[0]
    if st.step == "place" and st.pending is None and any(f.seat == seat for f in st.forces.values()):
        return "place"
    return None


def placing(st: GameState, seat: int, awaited: list[Await] | None = None) -> str:
    """The deck a seat is asked to place cards for: the first of his decks (squad, then
    vehicles) still unplaced, else his first (he may change a placement until all have placed).
    `awaited`: `awaiting(st)`, if the caller has it."""
    awaited = awaiting(st) if awaited is None else awaited
    waiting = [a.force for a in awaited if a.seat == seat and a.kind == "place" and a.force]
    return waiting[0] if waiting else st.force_of_seat(seat)[0].id


def tag(text: str) -> str:
    """Eight hex digits standing for a decision id or an answer (a custom id has 100 characters)."""
    return hashlib.blake2s(text.encode(), digest_size=4).hexdigest()


def stamp(decision: str, command: str, decision_tag: str | None = None) -> str:
    """An offered answer's stamp: the tag of its decision (`decision_tag` if the caller has it
    already), then the tag of the answer to it."""
    return (decision_tag or tag(decision)) + tag(f"{decision}\n{command}")


def stamp_decision(stamp_: str) -> str | None:
    """The decision tag a stamp carries; None for a stamp of another form (a button sent before
    stamps named their decision)."""
    ok = len(stamp_) == 16 and all(c in "0123456789abcdef" for c in stamp_)
    return stamp_[:8] if ok else None

# The react / preempt windows and a preempt's follow-up: asked only of a player holding a live
# card (the engine opens a window only then). A preempt can name many subsets of the enemy's
# men: the buttons show at most WINDOW_CHOICES of them (and always Skip); `/act preempt` says
# any other.
WINDOWS = ("react", "preempt", "then")
WINDOW_CHOICES = 8


def choices(st: GameState, decision: Await, limit: int = MAX_CHOICES) -> tuple[Choice, ...]:
    """The short list of answers to one decision (empty if none fits); a front end offers the
    first MAX_CHOICES and finds a pick again by its stamp. An `act` decision's answers (done,
    pass) are named by its key alone: made once per key (the last FINISHES_REMEMBERED), for a
    decision asked again (a prompt used up comes back, a press, `/game prompts`)."""
    if decision.kind != "act":
        return answers(st, decision.key, commands_for(st, decision, limit), limit)
    held = (decision.key, decision.seat, limit)
    out = _finishes.get(held)
    if out is None:
        # a new key's answers are the seat's finishing lines (labels and commands: the same for
        # every act decision of that seat, made once) stamped for this key
        words = _finish_words.get((decision.seat, limit))
        if words is None:
            words = _finish_words[(decision.seat, limit)] = tuple(
                (c.label, c.command) for c in answers(st, "", commands_for(st, decision, limit), limit))
        head = tag(decision.key)
        out = _finishes[held] = tuple(make_choice(label_, text, stamp(decision.key, text, head))
                                      for label_, text in words)
        if len(_finishes) > FINISHES_REMEMBERED:
            del _finishes[next(iter(_finishes))]  # the oldest
    return out


FINISHES_REMEMBERED = 1024
_finishes: dict[tuple[str, int, int], tuple[Choice, ...]] = {}
_finish_words: dict[tuple[int, int], tuple[tuple[str, str], ...]] = {}  # (seat, limit) -> (label, command)s


def commands_for(st: GameState, decision: Await, limit: int = MAX_CHOICES) -> list[C.Cmd]:
    """The commands a decision's answers are made of, before those that read the same are dropped."""
    seat, kind = decision.seat, decision.kind
    if kind == "place":
        # the search's plans are distinct and come first, so it need find no more than are shown;
        # drafts (not validated again): a pressed answer is parsed from its line (`GameService.choose`)
        return plan_drafts(st, decision.force, limit=limit)
    if kind == "act":
        # actions go by /act; the buttons only finish (the engine refuses a finish too early)
        return [C.Done(seat=seat), C.Pass(seat=seat)]
    if kind in WINDOWS:
        legal = legal_commands(st, seat)
        plays = [c for c in legal if not isinstance(c, C.Skip)]
        return [*plays[:WINDOW_CHOICES], C.Skip(seat=seat)]
    return legal_commands(st, seat)


def answers(st: GameState, key: str, cmds: list[C.Cmd], limit: int = MAX_CHOICES) -> tuple[Choice, ...]:
    """The offered answers to the decision `key`, one per distinct command line, at most `limit`."""
    out, seen = [], set()
    head = tag(key)  # every answer's stamp starts with it
    words: dict = {}  # the placements' card and deck words, made once for the list
    for cmd in cmds:
        text = str(cmd)
        if text in seen:
            continue
        seen.add(text)
        out.append(make_choice(_trim(label(st, cmd, words)), text, stamp(key, text, head)))  # Choice(...)
        if len(out) == limit:
            break
    return tuple(out)


def card_line(c: CardView, st: GameState | None = None) -> str:
    owner = vehicle_words.vehicle(st, c.owner) if st is not None and c.owner in st.vehicles else c.owner_name
    return _line(c.id, c.title, c.actions, owner)


def hand_card_line(st: GameState, cid: str, lines: dict | None = None) -> str:
    """`card_line(card_view(st, cid), st)` without building the card's whole view (its team
    bubble, narrator, hit table): a placement prompt lists every card in hand, at every prompt,
    and a desk every card of the seat's. A card's words are the setup's (id, title, actions, its
    owner) but for its owner's: a soldier's name and title, which only his rank changes, or a
    vehicle's type and plate; so each line is made once per setup, card and owner's rank or
    vehicle type. `lines`: that memo of the setup's, if the caller has it (a desk lists a dozen)."""
    c = st.card(cid)
    owner = c.owner
    vehicle = st.vehicles.get(owner)
    if vehicle is not None:
        key = (cid, None, vehicle.vehicle)
    elif (man := st.soldiers.get(owner)) is not None:
        key = (cid, man.rank)
    else:  # a team card, or an owner no longer in the game: the view's own words
        return card_line(card_view(st, cid), st)
    if lines is None:
        lines = memo(st.setup, _HAND_CARD_LINES)
    line = lines.get(key)
    if line is None:
        words = vehicle_words.vehicle(st, owner) if vehicle is not None else st.name(owner)
        line = lines[key] = _line(c.id, c.title, [a.value for a in c.actions], words)
    return line


_HAND_CARD_LINES = "prompts.hand_card_line"  # its per-setup memo


def _line(cid: str, title: str | None, actions: list[str], owner: str) -> str:
    acts = "/".join(a.upper() for a in actions)
    return f"`{cid}` {title} ({acts}, {owner})" if title else f"`{cid}` ({acts}, {owner})"


def hand_text(mine: Mine, st: GameState | None = None) -> str:
    """A player's private desk: hand and placed cards (each deck apart when he has a squad and
    vehicles), held cards, fight cards, orders, VPs. `st` names the vehicle decks."""
    line = lambda c: card_line(c, st)
    slots = lambda placed: [line(c) if c else None for c in placed]
    decks = [("squad" if f.kind == "squad" else
              vehicle_words.deck_name(st, f.id) if st is not None else f"vehicle {f.plate}",
              f.id, [line(c) for c in f.hand], slots(f.placed))
             for f in mine.forces] if len(mine.forces) > 1 else []
    o = mine.order
    alive = [(serial, vp) for serial, vp in sorted(mine.soldier_vp.items())  # the dead are worth nothing more
             if st is None or serial not in st.soldiers or st.soldiers[serial].status != "dead"]
    return _desk_text(
        decks, [line(c) for c in mine.hand], slots(mine.placed),
        [(serial, [line(c) for c in cards]) for serial, cards in sorted(mine.held.items())],
        [line(c) for c in mine.fight_cards], (bool(o.get("done")), o["title"], o["text"], o["vp"]) if o else None,
        alive,
        # the vehicle book's battlefield (issue 9): his artillery, barrages, radio, ordnance, mines
        battlefield_words.private_lines(mine, battlefield_words.ordnance_names(st) if st is not None else None,
                                        who=(lambda s: vehicle_words.who(st, s)) if st is not None else None),
        mine.deck_top)


def private_desk(st: GameState, seat: int) -> str:
    """`hand_text(private_view(st, seat), st)`, read off the seat's own forces, soldiers and
    order instead of building his whole `Mine` (a `CardView` per card, his hidden men's views):
    the service sends it whenever cards arrive in his hand. The same secrets as `private_view`
    (his forces' cards, his soldiers' held cards and worth, his order, the battlefield part from
    `engine.view.private_battlefield`), the same words (`_desk_text`)."""
    forces = [f for f in st.forces.values() if f.seat == seat]
    words: dict[str, str] = {}
    kept = memo(st.setup, _HAND_CARD_LINES)  # found once for the desk's dozen cards

    def line(cid: str) -> str:  # each card's line made once (a hand card shows in hand and deck)
        text = words.get(cid)
        if text is None:
            text = words[cid] = hand_card_line(st, cid, kept)
        return text

    def slots(placed: list[str | None]) -> list[str | None]:
        return [line(c) if c else None for c in placed]

    decks = [("squad" if f.kind == "squad" else vehicle_words.deck_name(st, f.id), f.id, [line(c) for c in f.hand],
              slots(f.placed)) for f in forces] if len(forces) > 1 else []
    ids = {f.id for f in forces}
    mine = [s for s in st.soldiers.values() if s.force in ids]
    vp_of = st.vp_of
    o = st.seats[seat].order
    od = st.setup.orders[o] if o else None
    return _desk_text(
        decks, [line(c) for f in forces for c in f.hand], slots(forces[0].placed) if forces else [],
        [(s.serial, [line(c) for c in s.held]) for s in sorted([s for s in mine if s.held], key=_SERIAL)],
        [line(c) for f in forces for c in f.fight_pool],
        (st.seats[seat].order_done, od.title, od.text, od.vp) if od is not None else None,
        sorted([(s.serial, vp_of(s)) for s in mine if s.status != "dead"]),
        battlefield_words.private_lines(SimpleNamespace(**private_battlefield(st, seat)),
                                        battlefield_words.ordnance_names(st), who=lambda s: vehicle_words.who(st, s)),
        sum(len(f.deck) for f in forces))


_SERIAL = attrgetter("serial")


def _desk_text(decks: list[tuple[str, str, list[str], list[str | None]]], hand: list[str], placed: list[str | None],
               held: list[tuple[int, list[str]]], fight: list[str], order: tuple[bool, str, str, int] | None,
               worth: list[tuple[int, int]], battlefield: list[str], deck_top: int) -> str:
    """A desk's words, from its lines: `decks` (head, deck id, hand, placed slots) when he has
    several, else his `hand` and `placed` slots (None: an empty slot); held cards by dog tag,
    fight cards, his order (done, title, text, VP), his living soldiers' worth, the battlefield's
    lines, the cards left in his deck."""
    if decks:
        lines = []
        for head, fid, cards, slots in decks:
            lines.append(f"**Your hand, {head}** (`{fid}`): " + (", ".join(cards) or "empty"))
            if any(c is not None for c in slots):
                lines.append(f"**Placed, {head}:** " + " · ".join(
                    f"P{i + 1} " + ("—" if c is None else c) for i, c in enumerate(slots)))
    else:
        lines = ["**Your hand:** " + (", ".join(hand) or "empty")]
        if any(c is not None for c in placed):
            lines.append("**Placed:** " + " · ".join(
                f"P{i + 1} " + ("—" if c is None else c) for i, c in enumerate(placed)))
    for serial, cards in held:
        lines.append(f"**Held under {serial}:** " + ", ".join(cards))
    if fight:
        lines.append("**Fight cards:** " + ", ".join(fight))
    if order is not None:
        done, title, text, vp = order
        lines.append(f"**Orders ({'done' if done else 'secret'}):** {title} — {text} ({vp} VP)")
    if worth:
        lines.append("**Your soldiers are worth:** " + ", ".join(f"{serial}: {vp} VP" for serial, vp in worth))
    lines += battlefield
    lines.append(f"Cards left in your deck: {deck_top}.")
    return "\n".join(lines)


def cards_arrived(before: GameState | None, after: GameState, *, was: dict[int, set[str]] | None = None,
                  now: dict[int, set[str]] | None = None) -> set[int]:
    """The seats into whose hand, held cards or fight cards cards came (a draw, a fight, a
    placement taken back): they get their whole desk again. Other changes to their secrets
    (placing, holding, paying) are told by the engine's private events. `was`, `now`:
    `cards_by_seat` of `before` and `after`, if the caller has them."""
    if before is None:
        return set(range(len(after.seats)))
    if now is was and was is not None:  # `cards_by_seat` handed `was` back: the very same cards
        return set()
    was = cards_by_seat(before) if was is None else was
    now = cards_by_seat(after) if now is None else now
    return {seat for seat, cards in now.items() if not cards <= was.get(seat, set())}


class SeatCards(dict):
    """`cards_by_seat`'s answer, seat -> his cards (a dict like any other), with what the next
    command's answer may reuse: `seat_of` (force id -> seat) and `held` (seat -> each card his
    soldiers hold -> by how many of them), read only."""

    __slots__ = ("held", "seat_of")


def cards_by_seat(st: GameState, before: GameState | None = None, was: SeatCards | None = None) -> SeatCards:
    """Each seat's cards in hand, held and in the fight pool, in one pass over the soldiers.
    `before`, `was`: a state `st` was made from and `cards_by_seat(before)`. A state shares with
    the one it was copied from every man a command did not change, and a shared man is read only
    (`GameState.clone`): so when `st` has the same serials in the same order, under the same
    forces' seats, only the men who are not the very objects of `before` (found in C) are read,
    and the held cards counted from `was`'s instead of reading every man again. When no force's
    seat, hand or fight pool and no man's held cards (or his force, if he holds any) differ from
    `before`'s (most commands: a move, a look, a card played from the pool changes none), the
    answer is `was` itself (`_same_cards`), which is never changed."""
    if was is not None and before is not None and _same_cards(st, before):
        return was
    seat_of = {}
    out = SeatCards()
    for f in st.forces.values():  # one pass: each force's seat read once
        seat = seat_of[f.id] = f.seat
        cards = out.get(seat)
        if cards is None:
            out[seat] = {*f.hand, *f.fight_pool}
        else:
            cards.update(f.hand, f.fight_pool)
    men = st.soldiers
    old = before.soldiers if before is not None else None
    # the serials compared as objects first (a copy's dict holds the very key objects of the
    # dict it was copied from), which reads none of them; by value only if that fails
    if was is not None and old is not None and was.seat_of == seat_of and len(men) == len(old) \
            and (all(map(is_, men, old)) or all(map(eq, men, old))):
        changed = list(compress(men, map(is_not, men.values(), old.values())))  # serials, in C
        if not changed:
            held = was.held
        else:
            held = {seat: dict(counts) for seat, counts in was.held.items()}  # `was` stays as it is
            for serial in changed:
                _count(held, seat_of, old[serial], -1)
                _count(held, seat_of, men[serial], 1)
            held = {seat: counts for seat, counts in held.items() if counts}
    else:
        held = {}
        for s in men.values():
            if s.held:
                _count(held, seat_of, s, 1)
    for seat, counts in held.items():
        out[seat].update(counts)
    out.seat_of, out.held = seat_of, held
    return out


def _same_cards(st: GameState, before: GameState) -> bool:
    """Whether `cards_by_seat(st)` is `cards_by_seat(before)`: the same forces (by id, in order)
    under the same seats with the same hands and fight pools, and the same men (by serial, in
    order), each man who is not the very object of `before` holding the same cards (under the
    same force, if he holds any). A force or man shared with `before` is read-only
    (`GameState.clone`), so only those that are not (found in C) are read."""
    forces, old_forces = st.forces, before.forces
    if len(forces) != len(old_forces) or not (all(map(is_, forces, old_forces)) or all(map(eq, forces, old_forces))):
        return False
    for f in compress(forces, map(is_not, forces.values(), old_forces.values())):
        a, b = forces[f], old_forces[f]
        if a.id != b.id or a.seat != b.seat or a.hand != b.hand or a.fight_pool != b.fight_pool:
            return False
    men, old = st.soldiers, before.soldiers
    if len(men) != len(old) or not (all(map(is_, men, old)) or all(map(eq, men, old))):
        return False
    for serial in compress(men, map(is_not, men.values(), old.values())):
        a, b = men[serial], old[serial]
        if a.held != b.held or (a.held and a.force != b.force):
            return False
    return True


def _count(held: dict[int, dict[str, int]], seat_of: dict[str, int], s, sign: int) -> None:
    """Count a man's held cards in (`sign` 1) or out (-1) of his seat's."""
    if not s.held or s.force not in seat_of:
        return
    counts = held.setdefault(seat_of[s.force], {})
    for card in s.held:
        n = counts.get(card, 0) + sign
        if n:
            counts[card] = n
        else:
            del counts[card]


def prompt_text(st: GameState, seat: int, kind: str, detail: str, awaited: list[Await] | None = None) -> str:
    """The private words asking a seat for a decision. `awaited`: `awaiting(st)`, if the caller
    has it."""
    head = f"**{st.setup.scenario.name}, turn {st.turn}** — you are awaited to {detail}."
    if kind == "place":
        forces = st.force_of_seat(seat)
        phases = _phases(st)
        if len(forces) > 1:
            fid = placing(st, seat, awaited)
            deck = st.forces[fid]
            name = vehicle_words.deck_name(st, fid)
            kept = memo(st.setup, _HAND_CARD_LINES)  # found once for the hand's cards
            hand = ", ".join([hand_card_line(st, c, kept) for c in deck.hand])
            return (f"{head}\nNow for **{name}** (deck `{fid}`); each of your decks places its own "
                    f"three cards.\nPhases: {phases}.\nYour hand, {'squad' if deck.kind == 'squad' else name}: "
                    f"{hand or 'empty'}.\n"
                    f"Pick a placement below, or use `/plan deck:{deck.plate or 'squad'}` to choose card by "
                    "card (you may change it until everyone has placed).")
        kept = memo(st.setup, _HAND_CARD_LINES)  # found once for the hand's cards
        hand = ", ".join([hand_card_line(st, c, kept) for f in forces for c in f.hand])
        officer = ("\nYour officer may add extra cards: `/plan extra:2=CARD` puts CARD beside phase 2's card "
                   "(one a phase, each matching an action of its phase card; several as `1=CARD 3=CARD`)."
                   if "extra" in detail else "")
        return (f"{head}\nPhases: {phases}.\nYour hand: {hand}.\n"
                "Pick a placement below, or use `/plan` to choose card by card "
                f"(you may change it until everyone has placed).{officer}")
    if kind == "act":
        force = st.forces[st.active.force] if st.active is not None and st.active.force in st.forces else None
        if force is not None and force.kind == "vehicle" and force.plate in st.vehicles:
            return (f"{head}\nThe card is for the **{vehicle_words.vehicle(st, force.plate)}**: use "
                    f"`/vehicle {VEHICLE_ACTIONS}` with its plate or a crewman, `/act sight|shoot|draw` "
                    "likewise" + ("; `/field laymines` lays mines from its load" if st.vehicles[force.plate].mine_load
                                  else "")
                    + "; `/act done` finishes the part in use, `/act pass` the card.")
        vehicles = " `/vehicle ...` for vehicles, crews and getting on;" if st.vehicles else ""
        # issue 9: artillery, close combat against vehicles, smoke, hand-offs go by /field
        vehicles += (" `/field assail|climb|call|adjust|barrage|popsmoke|handoff|recover|laymines|clearmines` "
                     "for the battlefield;" if st.vehicles or _battlefield(st, seat) else "")
        return (f"{head}\nUse `/act move|face|sight|cover|rally|hold|draw|shoot|toss|charge` "
                f"with your soldiers;{vehicles} `/act done` finishes the part in use, `/act pass` the card.")
    if kind in WINDOWS:
        return f"{head}\n" + window_text(st, seat, kind)
    return f"{head}\nChoose below, or answer with `/act {kind}`."


def _phases(st: GameState) -> str:
    """A placement prompt's phases ("P1 MOVE/SHOOT; ..."): the setup's story cards' words, made
    once per setup and run of phase cards."""
    kept = memo(st.setup, "prompts.phases")
    key = tuple(st.phase_cards)
    text = kept.get(key)
    if text is None:
        text = kept[key] = "; ".join(f"P{i + 1} {st.setup.story[c].top.value.upper()}/"
                                     f"{st.setup.story[c].bottom.value.upper()}"
                                     for i, c in enumerate(key))
    return text


def _battlefield(st: GameState, seat: int) -> bool:
    """Whether the seat has artillery to call or calls under way (then his prompt names /field)."""
    return artillery.has_any(st, seat)


def window_text(st: GameState, seat: int, kind: str) -> str:
    """The private lines of a react or preempt window or a preempt's follow-up: the live cards
    the player may play (his own hand, told only to him) and how to answer."""
    from engine.advanced import preempt, react
    forces = [f.id for f in st.force_of_seat(seat)]
    skip = ("`/act skip` lets it go by (the default when time runs out); "
            "`/game always-pass on` stops these questions.")
    if kind == "react":
        live = [c for f in forces for c in react.playable(st, f)]
        cards = ", ".join(_card(st, c) for c in live)
        return (f"Your live react cards: {cards}.\nPlay one with `/act react` (naming the card) or a button; {skip}")
    if kind == "preempt":
        live = [c for f in forces for c in preempt.playable(st, f)]
        cards = ", ".join(_card(st, c) for c in live)
        return (f"Your live preempt cards: {cards}.\nPlay one with `/act preempt` (your card, the enemy card "
                f"revealed for this phase, the dog tags of the enemy men who must act first) or a button; {skip}")
    return ("Pick which of your soldiers follows the preempt up, and against whom: "
            "`/act then` (your soldier, then the enemy man) or a button; `/act skip` lets it go.")
