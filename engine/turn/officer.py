"""Officers (core manual, Advanced Rules, Officers): a soldier with a Command value in his LOOK
box lets his player put one extra action card on a phase at placement, beside the ordinary card
there. At most one extra a phase (so two cards a phase at most), at most Command extras a turn,
and one officer per player per game (checked at force selection). The extra must match one of
the phase card's actions; both cards are revealed together and each is played in the slot of
its action (back to back when both are for the same action)."""
from __future__ import annotations

from engine.core import per_setup
from engine.core.errors import RuleError
from engine.core.ratings import current
from engine.turn.matching import fits


def officer_of(st, force_id: str) -> int | None:
    """The force's officer able to command now: alive, free and on the board, Command above 0
    (his current Command: the wounded side when wounded, halved while pinned). Only the men with
    a Command value on some side of some rank's card are looked at (_officers), lowest dog tag first."""
    soldiers = st.soldiers
    for serial in _officers(st.setup):
        s = soldiers.get(serial)
        if s is None or s.force != force_id or s.controller != force_id or s.captor is not None \
                or s.status not in ("board", "aboard"):
            continue
        if st.stats(serial).command > 0 and current(st, serial, "command") > 0:
            return serial
    return None


def _officers(setup) -> list[int]:
    """The soldiers of a setup with Command above 0 on any side of any of their rank cards, by
    dog tag: no other man can ever be an officer (placement asks for one at every command)."""
    memo = per_setup.memo(setup, "officers")
    got = memo.get("men")
    if got is None:
        got = memo["men"] = sorted(n for n, d in setup.soldiers.items()
                                   if any(p.healthy.command > 0 or p.wounded.command > 0 for p in d.ranks))
    return got


def command_value(st, force_id: str) -> int:
    serial = officer_of(st, force_id)
    return 0 if serial is None else current(st, serial, "command")


def check_extras(st, force_id: str, cards: list[str | None], extra: dict[int, str], free: list[str]) -> dict[int, str]:
    """Validate an officer's extra cards (phase number 1-3 -> card); `free` is the hand left after
    the ordinary cards. Returns the extras by phase."""
    if not extra:
        return {}
    serial = officer_of(st, force_id)
    if serial is None:
        raise RuleError("you have no officer on the board with a Command value: no extra cards.")
    limit = current(st, serial, "command")
    if len(extra) > limit:
        raise RuleError(f"{st.name(serial)} has Command {limit}: at most {limit} extra card"
                        f"{'s' if limit != 1 else ''} this turn, one a phase.")
    seen: set[str] = set()
    phases = [st.setup.story[c] for c in st.phase_cards]
    out: dict[int, str] = {}
    for ph, c in sorted(extra.items()):
        if ph not in (1, 2, 3):
            raise RuleError(f"there is no phase {ph}: extra cards go on phase 1, 2 or 3.")
        if cards[ph - 1] is None:
            raise RuleError(f"the extra card goes beside your ordinary card, and phase {ph} has none.")
        if c in seen or c not in free:
            raise RuleError(f"{c} is not in your hand (or is placed already); cards left: {', '.join(free) or 'none'}.")
        seen.add(c)
        if not fits(st, c, phases[ph - 1], force_id):
            p = phases[ph - 1]
            raise RuleError(f"{c} cannot be an extra card on phase {ph} ({p.top.value.upper()} and then "
                            f"{p.bottom.value.upper()}): it must match one of the phase's actions.")
        out[ph] = c
    return out


def officers_in(cat, entries) -> list[int]:
    """The officers (Command above 0 at the rank chosen) among a player's force entries."""
    return [e.serial for e in entries
            if e.serial in cat.soldiers and e.rank in {p.rank for p in cat.soldiers[e.serial].ranks}
            and cat.soldiers[e.serial].profile(e.rank).healthy.command > 0]
