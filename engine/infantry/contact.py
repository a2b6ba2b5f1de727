"""Combat contact (core manual, Combat Contact; ruling 12): enemies on neighbouring cells with at
least one of them having the other in his shooting arc. Contact spots both, forbids every
action but a MOVE to turn, and ends in a fight at the end of the phase. Beside it the other
tie between men on the board that bars a man's weapons: escorting prisoners (core manual,
Prisoners)."""
from __future__ import annotations

from engine.core.board import NEIGHBOURS, adjacent, in_arc, in_rear


def enemies_of(st, serial: int) -> list[int]:
    """Free enemy soldiers on the board (prisoners are nobody's target)."""
    side = st.soldiers[serial].side  # (the field compared first: half the roster is his own side)
    return [s.serial for s in st.soldiers.values() if s.side != side and s.free]


def touching(a, b) -> bool:
    """Two soldier states in base contact with an arc on at least one of them."""
    if a.at is None or b.at is None or not adjacent(a.at, b.at):
        return False
    return in_arc(a.facing, a.at, b.at) or in_arc(b.facing, b.at, a.at)


def in_contact(st, serial: int) -> list[int]:
    me = st.soldiers[serial]
    if not me.free:
        return []
    side, (x, y) = me.side, me.at
    # the cheap tests first: the other side (half the roster), a neighbouring cell, then free and arcs
    return [o.serial for o in st.soldiers.values()
            if o.side != side and (at := o.at) is not None and -1 <= at[0] - x <= 1 and -1 <= at[1] - y <= 1
            and o.free and touching(me, o)]


def escorts(st) -> dict[int, list[int]]:
    """Every man escorting prisoners on the board, with his prisoners: he may move them along,
    but neither shoot, toss nor sight."""
    out: dict[int, list[int]] = {}
    for p in st.soldiers.values():
        if p.captor is not None and p.status == "board":
            out.setdefault(p.captor, []).append(p.serial)
    return out


def escorting(st, serial: int) -> list[int]:
    """The prisoners this man escorts, by dog tag."""
    return sorted(escorts(st).get(serial, ()))


class Known:
    """in_contact's and escorting's answers for one state that does not change while they are
    remembered: made for one question (engine/legal.py anything_to_do) and dropped with it, so
    a man asked about by several rule checks, or through several parts of a card, has the
    soldiers scanned once. The rules stay in their functions; this only remembers what they said."""

    __slots__ = ("_contact", "_escorts", "st")

    def __init__(self, st) -> None:
        self.st = st
        self._contact: dict[int, list[int]] = {}
        self._escorts: dict[int, list[int]] | None = None

    def contact(self, serial: int) -> list[int]:
        got = self._contact.get(serial)
        if got is None:
            got = self._contact[serial] = in_contact(self.st, serial)
        return got

    def escorting(self, serial: int) -> bool:
        if self._escorts is None:
            self._escorts = escorts(self.st)
        return serial in self._escorts


def struck_in_rear(st, serial: int) -> bool:
    """Attacked in the rear: an enemy in contact stands in his rear wedge and not in his arc."""
    me = st.soldiers[serial]
    for o in in_contact(st, serial):
        at = st.soldiers[o].at
        if in_rear(me.facing, me.at, at) and not in_arc(me.facing, me.at, at):
            return True
    return False


def fight_groups(st) -> list[list[int]]:
    """Connected groups of soldiers in contact, biggest first, ties by lowest serial.

    Asked at every phase end, and most phase ends find nobody in contact: each man of every side
    but the largest looks at the cells around him for a man of another side (a pair always has
    one of them), and only men with a foe in contact get a set of links (groups_of skips the
    others). tests/engine/test_close_combat.py holds it to every pair asked."""
    men_at: dict[tuple[int, int], list] = {}
    count: dict[str, int] = {}
    for s in st.soldiers.values():
        if s.free and s.at is not None:
            men_at.setdefault(s.at, []).append(s)
            count[s.side] = count.get(s.side, 0) + 1
    if len(count) < 2:
        return []
    largest = max(count, key=count.__getitem__)
    links: dict[int, set[int]] = {}
    get = men_at.get
    for (x, y), here in men_at.items():
        for a in here:
            side = a.side
            if side == largest:
                continue
            for dx, dy in NEIGHBOURS:
                for b in get((x + dx, y + dy), ()):
                    if b.side != side and touching(a, b):
                        links.setdefault(a.serial, set()).add(b.serial)
                        links.setdefault(b.serial, set()).add(a.serial)
    return groups_of(links) if links else []


def groups_of(links: dict[int, set[int]]) -> list[list[int]]:
    """The connected groups of men linked by contact (`links`: each man's foes in contact with
    him), biggest first, ties by lowest serial."""
    seen: set[int] = set()
    groups = []
    for start in sorted(links):
        if start in seen or not links[start]:
            continue
        comp, todo = [], [start]
        seen.add(start)
        while todo:
            x = todo.pop()
            comp.append(x)
            for y in links[x]:
                if y not in seen:
                    seen.add(y)
                    todo.append(y)
        groups.append(sorted(comp))
    groups.sort(key=lambda g: (-len(g), g[0]))
    return groups
