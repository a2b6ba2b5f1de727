"""Hidden deployment's words put together from the setup's lexicon (issue 17, stop 39): a set of
hidden men's Words is a union of sets worked out once a setup, kept while the same men hold
the same ranks, and blanks exactly what Words made plainly from the men's own words would."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as S

from engine.advanced.hidden_deployment import (
    HIDDEN_CARD,
    HIDDEN_NAME,
    Words,
    _lexicon,
    words_of,
)
from engine.core.content import Rank


def yard(position):
    # Cole (3, US) and Dorn (4, DE), both unspotted in the hidden-yard scenario
    return position(scenario="hidden-yard", soldiers=[{"serial": 3, "seat": 0, "at": [10, 0]},
                                                      {"serial": 4, "seat": 1, "at": [27, 7]}])


def plain_words(st, men):
    """The hidden men's words as the module wrote them before the lexicon: each man's name as
    the state names him, his bare name and his cards' ids, and those cards."""
    cards = {cid for cid, c in st.setup.cards.items() if c.owner in men}
    names = {name for n in men for name in (st.name(n), st.setup.soldiers[n].name)}
    return names | cards, cards


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(S.data())
def test_the_lexicons_words_blank_what_the_mens_own_words_blank(position, data):
    st = yard(position)
    men = data.draw(S.sets(S.sampled_from(sorted(st.soldiers)), min_size=1), label="hidden men")
    words = words_of(st, men)
    own, cards = plain_words(st, men)
    assert words.words == own
    plain = Words(own, cards, words.every)  # its own lengths and inner places, its own cards
    everyone = sorted({w for n in st.soldiers for w in plain_words(st, {n})[0]})
    text = " ".join(data.draw(S.lists(S.one_of(S.sampled_from(everyone),
                                               S.sampled_from(["moves to", "-", "x", "'s", ".", "Pvt."])),
                                      max_size=8), label="text"))
    assert words.scrub(text) == plain.scrub(text)
    assert words.mentions(text) == plain.mentions(text)
    found, plain_found = set(), set()
    words.scrub(text, None, found)
    plain.scrub(text, None, plain_found)
    assert found == plain_found


def test_the_same_men_at_the_same_ranks_get_the_words_kept_and_a_promotion_makes_them_anew(position):
    st = yard(position)
    first = words_of(st, {3, 4})
    assert words_of(st, {4, 3}) is first, "kept for the same men, whatever order they come in"
    assert words_of(st, {3}) is not first
    st.changing(3).rank = Rank.JUNIOR_NCO
    promoted = words_of(st, {3, 4})
    assert promoted is not first
    assert "Cpl. Cole" in promoted.words and "Pvt. Cole" not in promoted.words
    assert promoted.scrub("Cpl. Cole waits.") == f"{HIDDEN_NAME} waits."


def test_a_card_id_is_blanked_as_a_card_and_a_name_as_a_name(position):
    st = yard(position)
    card = next(cid for cid, c in sorted(st.setup.cards.items()) if c.owner == 3)
    words = words_of(st, {3})
    assert _lexicon(st.setup).card_ids is not None  # no name here is spelled as a card id
    assert words.scrub(f"Pvt. Cole plays {card}.") == f"{HIDDEN_NAME} plays {HIDDEN_CARD}."


def test_a_name_spelled_as_another_mans_card_id_is_still_a_name(position):
    """The lexicon's every-card-id shortcut holds only while no name is spelled as a card id;
    a setup where one is keeps each set's own cards, so the name is blanked as a name."""
    st = yard(position)
    dorns = next(cid for cid, c in sorted(st.setup.cards.items()) if c.owner == 4)
    renamed = {**st.setup.soldiers, 3: st.setup.soldiers[3].model_copy(update={"name": dorns})}
    other = st.model_copy(update={"setup": st.setup.model_copy(update={"soldiers": renamed})})
    assert _lexicon(other.setup).card_ids is None
    assert words_of(other, {3}).scrub(f"{dorns} waits.") == f"{HIDDEN_NAME} waits."
    assert words_of(other, {4}).scrub(f"Dorn plays {dorns}.") == f"{HIDDEN_NAME} plays {HIDDEN_CARD}."


def test_the_matches_kept_with_the_lexicon_are_the_patterns_and_stay_bounded(position, monkeypatch):
    from engine.advanced import hidden_deployment as hd
    from engine.core.log import Event
    monkeypatch.setattr(hd, "SPANS_KEPT", 4)
    st = yard(position)
    lex = _lexicon(st.setup)
    lines = [Event(kind="draw", text=f"Pvt. Cole draws {k} cards.", data={"n": k}) for k in range(6)]
    first = hd.screen(st, lines)
    assert 0 < len(lex.spans) <= 4
    for text, spans in lex.spans.items():
        assert spans == [(m.start(), m.group()) for m in lex.every.finditer(text)]
    assert hd.screen(st, lines) == first, "read again through the kept matches, the same lines"
    assert first[0].text == f"{HIDDEN_NAME} draws 0 cards."


def _plain_clean(value, scrub):
    """_strings_clean as it was written: every value through the isinstance ladder."""
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, list):
        return [_plain_clean(x, scrub) for x in value]
    if isinstance(value, tuple):
        return tuple(_plain_clean(x, scrub) for x in value)
    if isinstance(value, dict):
        return {k: _plain_clean(x, scrub) for k, x in value.items()}
    return value


LEAVES = S.one_of(S.integers(), S.booleans(), S.none(), S.floats(allow_nan=False),
                  S.sampled_from(["Pvt. Cole", "x", "Cole's", ""]), S.sampled_from(list(Rank)))


@given(S.recursive(LEAVES, lambda inner: S.one_of(S.lists(inner, max_size=3),
                                                  S.tuples(inner, inner),
                                                  S.dictionaries(S.text(max_size=3), inner, max_size=3)),
                   max_leaves=12))
def test_strings_are_cleaned_wherever_they_stand_and_nothing_else_changes(value):
    from engine.advanced.hidden_deployment import _strings_clean

    def scrub(text):
        return text.replace("Cole", "X")
    data = {"value": value, "n": 1, "flag": True}
    got, want = _strings_clean(data, scrub), _plain_clean(data, scrub)
    assert got == want
    assert [type(v) for v in got.values()] == [type(v) for v in want.values()]


def test_the_lexicon_held_at_hand_is_always_the_asked_setups_own(position):
    st = yard(position)
    renamed = {**st.setup.soldiers, 3: st.setup.soldiers[3].model_copy(update={"name": "Zeller"})}
    other = st.model_copy(update={"setup": st.setup.model_copy(update={"soldiers": renamed})})
    for _ in range(2):  # asked in turn, each setup gets its own, the same object each time
        mine, theirs = _lexicon(st.setup), _lexicon(other.setup)
        assert mine is not theirs
        assert ("Pvt. Cole" in mine.named[3, Rank.PRIVATE]) and ("Zeller" in theirs.named[3, Rank.PRIVATE])
        assert _lexicon(st.setup) is mine and _lexicon(other.setup) is theirs
