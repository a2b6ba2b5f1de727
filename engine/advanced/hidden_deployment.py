"""Hidden deployment (an optional scenario rule, ScenarioDef.hidden_deployment).

A soldier on foot on the board who is not Spotted shows to the other side only as a hidden
marker in his tile: no cell, no dog tag, no name, no ratings. His own side sees him as usual.
Once Spotted he shows like anyone else, and he vanishes into a marker again if he loses it.

The engine always knows where everyone stands; this module only says who is hidden from whom
and how a public sentence about him reads. engine/view.py strips the view with it, and every
apply screens its events with `screen` (Ctx.close in engine/core/log.py calls it through the rulebook), so the event log itself
never holds a public sentence that names a hidden soldier."""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import Any

from engine.core import per_setup, rulebook
from engine.core.log import Event, said, told

# event data keys that name a soldier by his dog tag
SOLDIER_KEYS = ("serial", "target", "prisoner", "victim", "victims", "members", "by", "escort", "shooter")
_SOLDIER_KEYS = frozenset(SOLDIER_KEYS)
HIDDEN_NAME = "a hidden soldier"
HIDDEN_CARD = "a hidden soldier's card"

VERBS = {
    "move": "moves", "charge": "charges", "exit": "moves", "face": "turns", "swap": "moves",
    "cover": "takes cover", "cover_fail": "tries to take cover", "hold": "holds a card",
    "unhold": "takes back a held card", "rally": "rallies", "draw": "looks around",
    "sight_fail": "looks around", "release": "moves", "released": "is back with his side",
}


def active(st) -> bool:
    return bool(st.setup.scenario.hidden_deployment)


def is_hidden(st, serial: int) -> bool:
    """Hidden from the other side now: on foot on the board, not Spotted, nobody's prisoner.
    (Men aboard a vehicle ride on its open panel and are never hidden.)"""
    if not active(st) or serial not in st.soldiers:
        return False
    s = st.soldiers[serial]
    return s.status == "board" and not s.spotted and s.captor is None


def hidden(st, side: str | None = None) -> set[int]:
    """Dog tags hidden from `side` (None: from the public, so every hidden soldier)."""
    if not active(st):
        return set()
    return {n for n, s in st.soldiers.items() if s.side != side and is_hidden(st, n)}


def markers(st, men: set[int]) -> list[tuple[str, str, int]]:
    """(tile, side, how many) for the hidden men, sorted by tile then side."""
    count: dict[tuple[str, str], int] = {}
    for n in men:
        s = st.soldiers[n]
        key = (st.board.tile_at(s.at), s.side)
        count[key] = count.get(key, 0) + 1
    return [(t, side, k) for (t, side), k in sorted(count.items())]


def tile_of(st, serial: int) -> str:
    return st.board.tile_at(st.soldiers[serial].at)


# ------------------------------------------------------------------------------ words


WORDS_KEPT = 32  # hidden sets remembered a game; a game meets few, so past that all start anew


def _memo(setup) -> dict[str, Any]:
    """What this module works out once per game setup (engine/core/per_setup.py)."""
    return per_setup.memo(setup, "hidden_deployment")


def _cards_of(setup) -> dict[int, list[str]]:
    """Each owner's card ids, worked out once per game setup."""
    memo = _memo(setup)
    if "cards" not in memo:
        index: dict[int, list[str]] = {}
        for cid, c in setup.cards.items():
            index.setdefault(c.owner, []).append(cid)
        memo["cards"] = index
    return memo["cards"]


def words_of(st, men: set[int]) -> Words:
    """The Words for these hidden men, built once per game for each set of men and ranks (a
    name carries the rank's title)."""
    words: dict[tuple, Words] = _memo(st.setup).setdefault("words", {})
    key = tuple(sorted((n, st.soldiers[n].rank) for n in men))
    hit = words.get(key)
    if hit is None:
        if len(words) >= WORDS_KEPT:
            words.clear()
        hit = words[key] = _words_for(st, men)
    return hit


def _words_for(st, men: set[int]) -> Words:
    """The men's names (with and without their title) and their cards' ids."""
    owned = _cards_of(st.setup)
    cards = {cid for n in men for cid in owned.get(n, ())}
    names = {name for n in men for name in (st.name(n), st.setup.soldiers[n].name)}
    return Words(names | cards, cards, _every_word(st.setup))


class Words:
    """Finds and blanks the hidden men's names and card ids in a sentence: a name or card id
    standing as a word of its own (no letter, digit, underscore or hyphen touching it), the
    longest where two start at one place. Found through the setup's one compiled pattern of
    every soldier's words (`_every_word`), so a new set of hidden men compiles nothing."""

    def __init__(self, words: Iterable[str], cards: set[str], every: re.Pattern | None) -> None:
        """`words`: the hidden men's words, `cards` those of them that are card ids; `every`: a
        pattern matching every one of them where it stands alone (and any other words)."""
        self.words = set(words)
        self.cards = cards
        lengths: dict[str, set[int]] = {}  # by first letter, the lengths of the words it starts
        for w in self.words:
            lengths.setdefault(w[0], set()).add(len(w))
        self.lengths = {ch: sorted(ns, reverse=True) for ch, ns in lengths.items()}
        self.every = every if self.words else None
        self._inner: dict[str, tuple[int, ...]] = {}  # by matched word (the setup's few): _inner_of

    def _found(self, text: str, matches: list[re.Match] | None = None,
               found: set[str] | None = None) -> Iterator[tuple[int, str]]:
        """(where, word) for each of the hidden men's words in the text, left to right, none
        overlapping. A word of theirs starts where some soldier's word does, so at the start of
        a match of the setup's pattern or inside one: only those places are looked at, and
        inside a match only where a word could stand alone (`_inner`, worked out once a matched
        word). `matches`: that pattern's matches in the text when the caller has them (`screen`
        reads one text for several readers: the matches are the setup's, whoever is hidden).
        `found`: a set the words found are added to (`screen` compares readers by them)."""
        resume = 0
        words, inner = self.words, self._inner
        for m in self.every.finditer(text) if matches is None else matches:
            start = m.start()
            if start >= resume:
                g = m.group()
                if g in words:  # the longest word of anyone's standing alone here, so the longest of theirs
                    if found is not None:
                        found.add(g)
                    yield start, g
                    resume = m.end()
                    continue
                word = self._word_at(text, start)
                if word is not None:
                    if found is not None:
                        found.add(word)
                    yield start, word
                    resume = start + len(word)
            else:
                g = m.group()
            offsets = inner.get(g)
            if offsets is None:
                offsets = inner[g] = self._inner_of(g)
            for k in offsets:
                at = start + k
                if at >= resume:
                    word = self._word_at(text, at)
                    if word is not None:
                        if found is not None:
                            found.add(word)
                        yield at, word
                        resume = at + len(word)

    def _inner_of(self, g: str) -> tuple[int, ...]:
        """The places inside a matched word `g` (not its start) where one of the hidden men's
        words could stand alone: after a character that does not join a word, at one of their
        words' first letters. Everywhere else `_word_at` says None whatever text `g` stands in."""
        starts = self.lengths
        return tuple(k for k in range(1, len(g)) if g[k] in starts and not _joins(g[k - 1]))

    def _word_at(self, text: str, at: int) -> str | None:
        """The longest of the hidden men's words standing alone at `at`, or None."""
        lengths = self.lengths.get(text[at])
        if lengths is None or (at > 0 and _joins(text[at - 1])):
            return None
        for n in lengths:
            end = at + n
            if end <= len(text) and text[at:end] in self.words and (end == len(text) or not _joins(text[end])):
                return text[at:end]
        return None

    def mentions(self, text: str, matches: list[re.Match] | None = None) -> bool:
        return self.every is not None and next(self._found(text, matches), None) is not None

    def scrub(self, text: str, matches: list[re.Match] | None = None, found: set[str] | None = None) -> str:
        """The text with the hidden men's words blanked; the very same text object when it
        names none of them (so `scrub(t) is t` says `not mentions(t)`). `found`: as _found's."""
        if self.every is None:
            return text
        out, last = [], 0
        for at, word in self._found(text, matches, found):
            out += [text[last:at], HIDDEN_CARD if word in self.cards else HIDDEN_NAME]
            last = at + len(word)
        return "".join(out) + text[last:] if out else text


def _joins(ch: str) -> bool:
    """A character that makes a word longer (a regular expression's `[\\w-]`)."""
    return ch.isalnum() or ch in "_-"


def _every_word(setup) -> re.Pattern:
    """One pattern for every word a hidden man may be named by in this setup (his name under
    each rank's title, his bare name, his cards' ids), compiled once per setup."""
    memo = _memo(setup)
    if "every" not in memo:
        words: set[str] = set()
        owned = _cards_of(setup)
        for n, d in setup.soldiers.items():
            words.add(d.name)
            words.update(f"{p.title} {d.name}" for p in d.ranks)
            words.update(owned.get(n, ()))
        memo["every"] = pattern_of(tuple(sorted(words)))
    return memo["every"]


@lru_cache(maxsize=16)
def pattern_of(words: tuple[str, ...]) -> re.Pattern:
    """The words as one pattern, spelled as a tree of their common beginnings so that matching
    tries a few letters at a place, not every word (games of one scenario share it): each
    standing alone, `(?<![\\w-])(?:tree)(?![\\w-])`. The look behind is written after each
    first letter instead (`_first_letters`), which is the same test but lets the expression
    engine skip to a first letter of some word before trying anything: half the time a text."""
    return re.compile(_first_letters(_tree(words)) + r"(?![\w-])")


def _tree(words: Iterable[str]) -> dict[str, dict]:
    tree: dict[str, dict] = {}
    for w in words:
        node = tree
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = {}
    return tree


def _first_letters(tree: dict[str, dict]) -> str:
    """The tree as a pattern whose every branch starts with its first letter, then the test
    that no `[\\w-]` stands before that letter (a look behind two characters wide: it cannot
    fail at the text's start, as `(?<![\\w-])` cannot). An empty word (none is) keeps the
    look behind in front."""
    if "" in tree or not tree:
        return r"(?<![\w-])(?:" + _spelled(tree) + ")"
    return "(?:" + "|".join(re.escape(ch) + r"(?<![\w-][\s\S])" + _spelled(child)
                            for ch, child in sorted(tree.items())) + ")"


def _spelled(node: dict[str, dict]) -> str:
    """A tree of word beginnings as a pattern; "" marks a word ending at that node."""
    branches = [re.escape(ch) + _spelled(child) for ch, child in sorted(node.items()) if ch]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    return f"(?:{body})?" if "" in node else body


def _soldiers_in(data: dict[str, Any]) -> set[int]:
    out: set[int] = set()
    for k in _SOLDIER_KEYS.intersection(data) if len(data) < len(SOLDIER_KEYS) else SOLDIER_KEYS:
        v = data.get(k)
        if type(v) is int:  # the common case, what the checks below take an int for
            out.add(v)
        elif isinstance(v, bool):
            continue
        elif isinstance(v, int):
            out.add(v)
        elif isinstance(v, (list, tuple)):
            out |= {x for x in v if isinstance(x, int) and not isinstance(x, bool)}
    return out


def _strings_clean(value, scrub):
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, list):
        return [_strings_clean(x, scrub) for x in value]
    if isinstance(value, tuple):
        return tuple(_strings_clean(x, scrub) for x in value)
    if isinstance(value, dict):
        return {k: _strings_clean(x, scrub) for k, x in value.items()}
    return value


def cover_sentence(st, kind: str, men: list[int]) -> str:
    """The public sentence for an event about hidden men: side, what, tile, nothing more."""
    if len(men) == 1:
        s = st.soldiers[men[0]]
        return f"A hidden {s.side} soldier in {tile_of(st, men[0])} {VERBS.get(kind, 'acts')}."
    by_tile: dict[tuple[str, str], int] = {}
    for n in men:
        key = (st.soldiers[n].side, tile_of(st, n))
        by_tile[key] = by_tile.get(key, 0) + 1
    return "Hidden soldiers are caught up in it: " + ", ".join(
        f"{k} {side} in {tile}" for (side, tile), k in sorted(by_tile.items())) + "."


@rulebook.screen_events.fill
def screen(st, events: list[Event]) -> list[Event]:
    """The events as the table may read them, judged on the state after the command: a public
    event about a hidden man (his dog tag in its data) becomes one line saying only his side
    and tile; a public event that merely names him or his card (a reveal, a phase listing)
    keeps its line with those words put as "a hidden soldier('s card)". Each seat whose side
    may read more of it (his own men in it) gets that fuller line privately as well."""
    if not active(st) or not events:
        return events
    secret = hidden(st)
    if not secret:
        return events
    sides = sorted({seat.side for seat in st.seats})
    hidden_from = {side: {n for n in secret if st.soldiers[n].side != side} for side in sides}  # once, not per event
    words: dict[str | None, Words] = {}

    def words_for(side: str | None) -> Words:  # built only when a line needs them
        if side not in words:
            words[side] = words_of(st, secret if side is None else hidden_from[side])
        return words[side]
    out: list[Event] = []
    read = _Reading(_every_word(st.setup))
    for e in events:
        if e.to is not None:
            out.append(e)
            continue
        named = _soldiers_in(e.data)  # the event's men, the same for every reader
        found: set[str] = set()
        public = _as_seen(st, e, secret, words_for(None), named, read, found)
        out.append(public)
        if public is e:
            continue
        about = named & secret
        for side in sides:
            if hidden_from[side] == secret:  # none of his own men hidden: he reads the public line
                continue
            if _reads_as_public(about, hidden_from[side], words_for(side), found):
                continue
            theirs = _as_seen(st, e, hidden_from[side], words_for(side), named, read)
            if theirs.text == public.text and theirs.data == public.data:
                continue
            out.extend(told(theirs, seat.index) for seat in st.seats if seat.side == side)
    return out


class _Reading:
    """One screening's texts read once: where the setup's pattern of soldiers' words matches in
    each (the same whoever reads it; Words._found looks for a reader's hidden men's words only
    there), and each event's data as text (`repr`, made once for every reader). Dropped with
    the screening."""

    __slots__ = ("_matches", "_reprs", "every")

    def __init__(self, every: re.Pattern) -> None:
        self.every = every
        self._matches: dict[str, list[re.Match]] = {}
        self._reprs: dict[int, tuple[Event, str]] = {}

    def matches(self, text: str) -> list[re.Match]:
        got = self._matches.get(text)
        if got is None:
            got = self._matches[text] = list(self.every.finditer(text))
        return got

    def data_text(self, e: Event) -> str:
        got = self._reprs.get(id(e))
        if got is None or got[0] is not e:
            got = self._reprs[id(e)] = (e, repr(e.data))
        return got[1]


def _as_seen(st, e: Event, secret: set[int], words: Words, named: set[int] | None = None,
             read: _Reading | None = None, found: set[str] | None = None) -> Event:
    """Event `e` as read by someone from whom the men in `secret` are hidden. `named`: the
    men its data names (_soldiers_in), `read`: the screening's texts read once, when the
    caller has them. `found`: a set given for the public reading, to which the hidden words
    that made its line are added: those found in the text, in the data's strings, and, when
    the text names none, every one in the data's text (for `screen`'s _reads_as_public)."""
    about = sorted((_soldiers_in(e.data) if named is None else named) & secret)
    if about:
        return said(e.kind, cover_sentence(st, e.kind, about),
                    {"hidden": len(about), "sides": sorted({st.soldiers[n].side for n in about}),
                     "tiles": sorted({tile_of(st, n) for n in about})})
    if read is None or words.every is not read.every:
        read = _Reading(words.every) if words.every is not None else None

    def scrub(text: str) -> str:
        return words.scrub(text, read.matches(text) if read is not None else None, found)
    text = scrub(e.text)  # the very same text when it names none of them (Words.scrub)
    if text is e.text:
        data_text = read.data_text(e) if read is not None else repr(e.data)
        matches = read.matches(data_text) if read is not None else None
        if found is None:
            if not words.mentions(data_text, matches):
                return e
        elif words.every is None or not _all_found(words._found(data_text, matches, found)):
            return e
    data = {k: v for k, v in e.data.items() if k not in SOLDIER_KEYS or not (_soldiers_in({k: v}) & secret)}
    return said(e.kind, text, _strings_clean(data, scrub))


def _all_found(finds: Iterator[tuple[int, str]]) -> bool:
    """Whether there is any, reading them all (so that each adds its word to `found`)."""
    return sum(1 for _ in finds) > 0


def _reads_as_public(about: set[int], theirs: set[int], theirs_words: Words, found: set[str]) -> bool:
    """Whether a side from whom the men in `theirs` are hidden (`theirs_words` their words)
    reads an event as the public does, judged without reading it again: `about` the hidden
    men its data names, `found` as the public reading left it (_as_seen).

    The public line covers the event (its data names hidden men): the side's covers the same
    men when all of them are hidden from it too. Else the public line blanked words: a word
    found where every word of a larger set was looked for, and the longest there, is found
    where only the side's words are looked for and is the longest of them, and a place where
    no word of the larger set stands alone has none of the side's either; so when each word
    the public reading found is one of the side's, the side finds the very same words in
    every text read, and takes the same turns."""
    return about <= theirs if about else found <= theirs_words.words


def public_text(st, text: str) -> str:
    """A sentence for everyone (a waiting line, a caption) with every hidden man's name and
    card id put as "a hidden soldier('s card)"."""
    secret = hidden(st)
    return words_of(st, secret).scrub(text) if secret else text
