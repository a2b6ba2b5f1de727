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
from collections import OrderedDict
from collections.abc import Iterable
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
    return {n for n, s in st.soldiers.items()  # is_hidden, written out: asked at every command
            if s.status == "board" and not s.spotted and s.captor is None and s.side != side}


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


# Kept a setup, the oldest dropped first: the service gives every game of a scenario the one setup
# (StateCodec.shared), so these hold what a few hundred live games ask at once: about 2.5 MB and 2 MB
WORDS_KEPT = 512  # sets of hidden men's Words (a game's set changes as men are spotted or lost)
SPANS_KEPT = 4096  # texts' matches (lines and data come back: "Turn 2 begins.", {'turn': 2})


class _Lexicon:
    """Every word a hidden man of this setup may be named by, worked out once per setup: each
    soldier's words under each of his ranks (his name with that rank's title, his bare name, his
    cards' ids), his cards, and, over all of them, the word lengths by first letter and the
    places inside a matched word where one could stand alone (`Words._inner_of`, kept as found).
    A set of hidden men's Words is then a union of a few sets (`words_of`), nothing compiled or
    counted again, whichever men are hidden; the last few sets' Words are kept (`kept`)."""

    __slots__ = ("card_ids", "cards", "every", "inner", "kept", "lengths", "named", "spans")

    def __init__(self, setup) -> None:
        owned = _cards_of(setup)
        self.named: dict[tuple[int, Any], frozenset[str]] = {}
        self.cards: dict[int, frozenset[str]] = {}
        every: set[str] = set()
        names: set[str] = set()
        for n, d in setup.soldiers.items():
            cards = self.cards[n] = frozenset(owned.get(n, ()))
            for p in d.ranks:
                name = f"{p.title} {d.name}"
                self.named[n, p.rank] = cards | {name, d.name}
                names.add(name)
            names.add(d.name)
            every |= cards
        card_ids = frozenset(every)
        # every card id, when no name is spelled as one: a hidden man's word that is a card id
        # is then one of his cards, so Words need not gather the men's own (`words_of`)
        self.card_ids = None if names & card_ids else card_ids
        self.lengths = _lengths(every | names)
        self.every = _every_word(setup)
        self.inner: dict[str, tuple[int, ...]] = {}
        self.kept: OrderedDict[frozenset[int], tuple[tuple[tuple[int, Any], ...], Words]] = OrderedDict()
        self.spans: OrderedDict[str, list[tuple[int, str]]] = OrderedDict()  # _Reading.spans, by text


def _lexicon(setup) -> _Lexicon:
    """The setup's lexicon, from its memo; the last one asked is held at hand as well, since
    every game of a scenario has the one setup and a screening asks for it first thing (the
    setup itself is held with it, so the identity test cannot meet another setup at its id)."""
    last = _LAST_LEXICON[0]
    if last is not None and last[0] is setup:
        return last[1]
    memo = _memo(setup)
    got = memo.get("lexicon")
    if got is None:
        got = memo["lexicon"] = _Lexicon(setup)
    _LAST_LEXICON[0] = (setup, got)
    return got


_LAST_LEXICON: list[tuple[Any, _Lexicon] | None] = [None]  # (setup, its lexicon), the last asked


def _lengths(words: Iterable[str]) -> dict[str, list[int]]:
    """By first letter, the lengths of the words it starts, longest first."""
    lengths: dict[str, set[int]] = {}
    for w in words:
        lengths.setdefault(w[0], set()).add(len(w))
    return {ch: sorted(ns, reverse=True) for ch, ns in lengths.items()}


def words_of(st, men: set[int], lexicon: _Lexicon | None = None) -> Words:
    """The Words for these hidden men: their names (with their rank's title and without) and
    their cards' ids, put together from the setup's lexicon (`_Lexicon`; the caller's, if it has
    it) and kept there while the same men hold the same ranks."""
    lex = _lexicon(st.setup) if lexicon is None else lexicon
    soldiers = st.soldiers
    key = frozenset(men)
    hit = lex.kept.get(key)
    if hit is not None:
        for n, rank in hit[0]:
            if soldiers[n].rank != rank:
                break
        else:
            return hit[1]
    named, cards = lex.named, lex.cards
    words: set[str] = set()
    ranks = []
    for n in key:
        rank = soldiers[n].rank
        got = named.get((n, rank))
        if got is None:  # a rank his card does not have: named as the state names him (which refuses)
            got = cards[n] | {st.name(n), st.setup.soldiers[n].name}
        words |= got
        ranks.append((n, rank))
    theirs = lex.card_ids
    if theirs is None:
        theirs = frozenset().union(*(cards[n] for n in key))
    made = Words(words, theirs, lex.every, lex)
    if len(lex.kept) >= WORDS_KEPT:
        lex.kept.popitem(last=False)
    lex.kept[key] = (tuple(ranks), made)
    return made


_NOT_YET = object()


class Words:
    """Finds and blanks the hidden men's names and card ids in a sentence: a name or card id
    standing as a word of its own (no letter, digit, underscore or hyphen touching it), the
    longest where two start at one place. Found through the setup's one compiled pattern of
    every soldier's words (`_every_word`), so a new set of hidden men compiles nothing."""

    def __init__(self, words: Iterable[str], cards: Iterable[str], every: re.Pattern | None,
                 lexicon: _Lexicon | None = None) -> None:
        """`words`: the hidden men's words, `cards` those of them that are card ids (or more card
        ids, none of them another of their words); `every`: a pattern matching every one of
        them where it stands alone (and any other words). `lexicon`: the setup's, whose words
        hold these (`words_of`): its lengths by first letter and its inner places serve any of
        its sets of words, since `_word_at` keeps only the hidden men's words among the places
        and lengths it tries."""
        self.words = words if type(words) is set else set(words)
        self.cards = cards
        if lexicon is None:
            self.lengths = _lengths(self.words)  # by first letter, the lengths of the words it starts
            self._inner: dict[str, tuple[int, ...]] = {}  # by matched word (the setup's few): _inner_of
        else:
            self.lengths, self._inner = lexicon.lengths, lexicon.inner
        self.every = every if self.words else None
        self._heads: dict[str, str | None] = {}  # by matched word: _word_at at its start

    def _found(self, text: str, matches: list[re.Match] | None = None,
               found: set[str] | None = None) -> list[tuple[int, str]]:
        """(where, word) for each of the hidden men's words in the text, left to right, none
        overlapping. `matches`: the setup's pattern's matches in the text when the caller has
        them; `found`: a set the words found are added to (`screen` compares readers by them)."""
        if matches is None:
            matches = self.every.finditer(text)
        return self._found_in(text, [(m.start(), m.group()) for m in matches], found)

    def _found_in(self, text: str, spans: list[tuple[int, str]],
                  found: set[str] | None = None) -> list[tuple[int, str]]:
        """`_found` given where the setup's pattern matches in the text, (start, matched word)
        each (`_spans`). A word of theirs starts where some soldier's word does, so at the
        start of a match or inside one: only those places are looked at, and inside a match
        only where a word could stand alone (`_inner`, worked out once a matched word).

        At a match's start the pattern took the longest word of anyone's standing alone there,
        so none of theirs standing there is longer: theirs is the longest of its beginnings
        that is one of their words standing alone in it (`_word_at(g, 0)`), whatever text the
        matched word stands in, kept by matched word (`_heads`)."""
        out: list[tuple[int, str]] = []
        resume = 0
        heads, inner = self._heads, self._inner
        for start, g in spans:
            if start >= resume:
                word = heads.get(g, _NOT_YET)
                if word is _NOT_YET:
                    word = heads[g] = self._word_at(g, 0)
                if word is not None:
                    out.append((start, word))
                    resume = start + len(word)
                    if len(word) == len(g):
                        continue
            offsets = inner.get(g)
            if offsets is None:
                offsets = inner[g] = self._inner_of(g)
            for k in offsets:
                at = start + k
                if at >= resume:
                    word = self._word_at(text, at)
                    if word is not None:
                        out.append((at, word))
                        resume = at + len(word)
        if found is not None and out:
            found.update([word for _, word in out])
        return out

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
        return self.every is not None and bool(self._found(text, matches))

    def scrub(self, text: str, matches: list[re.Match] | None = None, found: set[str] | None = None) -> str:
        """The text with the hidden men's words blanked; the very same text object when it
        names none of them (so `scrub(t) is t` says `not mentions(t)`). `found`: as _found's."""
        if self.every is None:
            return text
        return self._blanked(text, self._found(text, matches, found))

    def _blanked(self, text: str, finds: list[tuple[int, str]]) -> str:
        """The text with these found words blanked (the very same text when there are none)."""
        if not finds:
            return text
        out, last, cards = [], 0, self.cards
        for at, word in finds:
            out += [text[last:at], HIDDEN_CARD if word in cards else HIDDEN_NAME]
            last = at + len(word)
        return "".join(out) + text[last:]


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


_PLAIN = frozenset((int, float, bool, type(None)))  # values with no string in them


def _strings_clean(value, scrub):
    """The value with every string in it scrubbed, lists, tuples and dicts rebuilt."""
    if type(value) is dict:  # an event's data: most values are numbers, read here at once
        return {k: scrub(x) if type(x) is str else x if type(x) in _PLAIN else _strings_clean(x, scrub)
                for k, x in value.items()}
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
    if not events or not active(st):
        return events
    secret = hidden(st)
    if not secret:
        return events
    lex = _lexicon(st.setup)
    public_words = words_of(st, secret, lex)
    read = _Reading(lex.every, lex.spans)
    readers: list[_Reader] | None = None  # made at the first line the public reads otherwise
    out: list[Event] = []
    for e in events:
        if e.to is not None:
            out.append(e)
            continue
        named = _soldiers_in(e.data)  # the event's men, the same for every reader
        found: set[str] = set()
        public = _as_seen(st, e, secret, public_words, named, read, found)
        out.append(public)
        if public is e:
            continue
        if readers is None:
            readers = _readers(st, secret, lex)
        about = named & secret
        for reader in readers:
            if _reads_as_public(about, reader.secret, reader.words(st), found):
                continue
            theirs = _as_seen(st, e, reader.secret, reader.words(st), named, read)
            if theirs.text == public.text and theirs.data == public.data:
                continue
            out.extend([told(theirs, seat) for seat in reader.seats])
    return out


class _Reader:
    """A side that may read more than the public in one screening: the men hidden from it
    (some of its own men are hidden from the public), its seats, and its Words once asked."""

    __slots__ = ("_lexicon", "_words", "seats", "secret")

    def __init__(self, secret: set[int], seats: list[int], lexicon: _Lexicon) -> None:
        self.secret, self.seats, self._lexicon, self._words = secret, seats, lexicon, None

    def words(self, st) -> Words:
        if self._words is None:
            self._words = words_of(st, self.secret, self._lexicon)
        return self._words


def _readers(st, secret: set[int], lexicon: _Lexicon) -> list[_Reader]:
    """The sides, in order, from whom fewer men are hidden than from the public (those with
    none of their own men hidden read the public line)."""
    soldiers = st.soldiers
    side_of = [(n, soldiers[n].side) for n in secret]
    out = []
    for side in sorted({seat.side for seat in st.seats}):
        theirs = {n for n, s in side_of if s != side}
        if len(theirs) != len(secret):
            out.append(_Reader(theirs, [seat.index for seat in st.seats if seat.side == side], lexicon))
    return out


class _Reading:
    """One screening's texts read once: where the setup's pattern of soldiers' words matches in
    each, as (start, matched word) (the same whoever reads it; Words._found_in looks for a
    reader's hidden men's words only there), and each event's data as text (`repr`, made once
    for every reader). The matches are the setup's, whoever is hidden, so they are kept with
    the setup's lexicon for the next screenings too (the last SPANS_KEPT texts, the oldest dropped first); the data's
    texts are dropped with the screening."""

    __slots__ = ("_reprs", "_spans", "every")

    def __init__(self, every: re.Pattern, kept: OrderedDict[str, list[tuple[int, str]]] | None = None) -> None:
        self.every = every
        self._spans: OrderedDict[str, list[tuple[int, str]]] = OrderedDict() if kept is None else kept
        self._reprs: dict[int, tuple[Event, str]] = {}

    def spans(self, text: str) -> list[tuple[int, str]]:
        kept = self._spans
        got = kept.get(text)
        if got is None:
            if len(kept) >= SPANS_KEPT:
                kept.popitem(last=False)
            got = kept[text] = [(m.start(), m.group()) for m in self.every.finditer(text)]
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
    about = (_soldiers_in(e.data) if named is None else named) & secret
    if about:
        about = sorted(about)
        return said(e.kind, cover_sentence(st, e.kind, about),
                    {"hidden": len(about), "sides": sorted({st.soldiers[n].side for n in about}),
                     "tiles": sorted({tile_of(st, n) for n in about})})
    if words.every is None:  # nobody hidden from this reader: he reads it as it is
        return e
    if read is None or words.every is not read.every:
        read = _Reading(words.every)
    spans = read.spans
    text = words._blanked(e.text, words._found_in(e.text, spans(e.text), found))  # the very same text when it names none of them
    if text is e.text:
        data_text = read.data_text(e)
        if not words._found_in(data_text, spans(data_text), found):
            return e

    def scrub(t: str) -> str:
        return words._blanked(t, words._found_in(t, spans(t), found))
    data = {k: v for k, v in e.data.items() if k not in SOLDIER_KEYS or not (_soldiers_in({k: v}) & secret)}
    return said(e.kind, text, _strings_clean(data, scrub))


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
    if not active(st):
        return text
    lex = _lexicon(st.setup)
    spans = _Reading(lex.every, lex.spans).spans(text)  # where any soldier's word stands
    if not spans:  # most lines: nobody named, so nobody hidden named, whoever is hidden
        return text
    secret = hidden(st)
    if not secret:
        return text
    words = words_of(st, secret, lex)
    return words._blanked(text, words._found_in(text, spans))
