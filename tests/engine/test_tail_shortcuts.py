"""The apply tail's shortcuts (issue 17) held to the straightforward answers they stand for:
hidden deployment's reading of a text (the setup's pattern with its look behind after the first
letter, Words looking only where a word may stand alone inside a match, a side judged to read
the public line by the words that line's reading found), log's `told` and the vehicles' yes/no
rules beside the ones that raise."""
from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as S

WORDLIKE = S.text(alphabet="ab -.\n", min_size=1, max_size=5)
FILLER = ["a", "b", " ", "-", ".", "_", "é", "\n", "'"]


def _plain_pattern(words):
    """pattern_of as it was written: the look behind in front of the tree of words."""
    from engine.advanced.hidden_deployment import _spelled, _tree
    return re.compile(r"(?<![\w-])(?:" + _spelled(_tree(words)) + r")(?![\w-])")


def _walk_found(words, text, matches):
    """Words._found as it was written: every place inside every match looked at in turn."""
    resume = 0
    for m in matches:
        at, end = max(m.start(), resume), m.end()
        while at < end:
            word = words._word_at(text, at) if text[at] in words.lengths else None
            if word is None:
                at += 1
            else:
                yield at, word
                at = resume = at + len(word)


def _texts(data, every):
    return "".join(data.draw(S.lists(S.one_of(S.sampled_from(every), S.sampled_from(FILLER)), max_size=12),
                             label="text"))


@settings(max_examples=400, deadline=None)
@given(S.data())
def test_the_setup_pattern_with_its_look_behind_after_the_first_letter_matches_as_the_plain_one(data):
    from engine.advanced.hidden_deployment import pattern_of
    every = tuple(sorted(data.draw(S.lists(WORDLIKE, min_size=1, max_size=8, unique=True), label="every word")))
    text = _texts(data, every)
    fast, plain = pattern_of(every), _plain_pattern(every)
    assert [(m.span(), m.group()) for m in fast.finditer(text)] == [(m.span(), m.group()) for m in plain.finditer(text)]


@settings(max_examples=400, deadline=None)
@given(S.data())
def test_words_looking_only_where_a_word_may_stand_alone_find_what_walking_every_place_finds(data):
    from engine.advanced.hidden_deployment import Words, pattern_of
    every = data.draw(S.lists(WORDLIKE, min_size=1, max_size=8, unique=True), label="every word")
    hidden = data.draw(S.lists(S.sampled_from(every), min_size=1, unique=True), label="hidden words")
    text = _texts(data, every)
    pattern = pattern_of(tuple(sorted(every)))
    words = Words(hidden, set(), pattern)
    matches = list(pattern.finditer(text))
    found: set[str] = set()
    got = list(words._found(text, matches, found))
    assert got == list(_walk_found(words, text, matches))
    assert found == {w for _, w in got}
    assert list(words._found(text, matches)) == got, "once its places inside a match are kept, the same"


@settings(max_examples=400, deadline=None)
@given(S.data())
def test_a_reader_whose_words_hold_every_word_the_larger_reading_found_blanks_the_same(data):
    """The ground of screen's _reads_as_public: the words a reading of a larger set of hidden
    words found, all among a smaller set's, make the smaller set's reading the same."""
    from engine.advanced.hidden_deployment import Words, pattern_of
    every = data.draw(S.lists(WORDLIKE, min_size=1, max_size=8, unique=True), label="every word")
    larger = data.draw(S.lists(S.sampled_from(every), min_size=1, unique=True), label="hidden from the public")
    smaller = data.draw(S.lists(S.sampled_from(larger), min_size=1, unique=True), label="hidden from a side")
    text = _texts(data, every)
    pattern = pattern_of(tuple(sorted(every)))
    found: set[str] = set()
    public = Words(larger, set(), pattern).scrub(text, None, found)
    side = Words(smaller, set(), pattern)
    if found <= side.words:
        assert side.scrub(text) == public
        assert side.mentions(text) == bool(found)


def test_screening_tells_each_side_what_it_would_read_without_the_shortcut(monkeypatch):
    """Whole night-orchard games: each apply's events screened with a side judged to read the
    public line by the words found (_reads_as_public), and with every side read in full."""
    from engine.advanced import hidden_deployment as hd
    from engine.core import rulebook
    from tests.engine.autoplay_kit import autoplayed, shipped_catalog
    screen, judged = rulebook.screen_events, []

    def both(st, events):
        got = screen(st, events)
        with monkeypatch.context() as m:
            m.setattr(hd, "_reads_as_public", lambda *a: False)
            assert got == hd.screen(st, events)
        return got

    real = hd._reads_as_public

    def counted(*a):
        judged.append(real(*a))
        return judged[-1]
    monkeypatch.setattr(hd, "_reads_as_public", counted)
    monkeypatch.setattr(rulebook, "screen_events", both)
    for seed in range(3):
        for _ in autoplayed(shipped_catalog(), "night-orchard", seed, 200):
            pass
    assert sum(judged) > 50 and not all(judged)  # the shortcut was taken often, and refused too


def test_an_event_told_to_one_seat_is_the_copy_pydantic_makes():
    from engine.core.log import Ctx, Event, told

    class St:
        rng = 7

    ctx = Ctx(St())
    ctx.say("move", "Pvt. Ann moves.", serial=3, to_cell=[1, 2])
    ctx.tell(1, "draw", "You draw.", cards=["1-C1"])
    for e in [*ctx.events, Event(kind="cover", text="x", data={"a": 1})]:
        for seat in (0, 2):
            mine, theirs = told(e, seat), e.model_copy(update={"to": seat})
            assert mine == theirs and mine.__dict__ == theirs.__dict__
            assert list(mine.__dict__) == list(theirs.__dict__)
            assert mine.model_fields_set == theirs.model_fields_set
            assert mine.model_dump_json(exclude_unset=True) == theirs.model_dump_json(exclude_unset=True)
            assert mine.data is e.data and theirs.data is e.data
