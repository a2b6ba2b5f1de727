"""Hidden deployment: an unspotted man shows to the other side only as a marker in his tile,
in the view and in every public event line; his own side sees him exactly."""
from __future__ import annotations

import json
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as S

from engine import view
from engine.advanced.hidden_deployment import HIDDEN_NAME, SOLDIER_KEYS
from engine.turn.setup import SeatSpec

HANDS = {0: ["1-C1", "1-P1", "1-C4"], 1: ["4-C1", "4-P1", "4-C4"]}
PLANS = "@Ann\nplan 1-C1 1-C4 1-P1\n@Bo\nplan 4-C1 4-C4 4-P1\n"


def night(position, soldiers, scenario="hidden-yard"):
    return position(scenario=scenario, soldiers=soldiers, hands=HANDS, phase_cards=["S07", "S08", "S09"])


def avery_and_dorn(position, **kw):
    # Avery (1, US) in 33A, Dorn (4, DE) in the farmhouse; nobody spotted
    return night(position, [{"serial": 1, "seat": 0, "at": [10, 0], "facing": "e"},
                            {"serial": 4, "seat": 1, "at": [27, 7], "facing": "w"}], **kw)


def names_of(st, serial):
    return {st.setup.soldiers[serial].name, st.name(serial)}


def public_lines(events):
    return [e for e in events if e.to is None]


def test_an_unspotted_enemy_is_a_marker_in_his_tile_and_his_own_side_sees_him_exactly(position):
    st = avery_and_dorn(position)
    public = view(st)
    assert public.soldiers == []
    assert [(m.tile, m.side, m.count) for m in public.hidden] == [("33A", "US", 1), ("L9A", "DE", 1)]
    ann = view(st, 0)
    assert ann.soldiers == [] and [s.serial for s in ann.mine.own_hidden] == [1]
    assert ann.mine.own_hidden[0].at == (10, 0) and ann.mine.own_hidden[0].facing == "e"
    bo = view(st, 1)
    assert [s.serial for s in bo.mine.own_hidden] == [4]
    dumped = bo.model_dump_json()
    assert not any(n in dumped for n in names_of(st, 1)), "Bo's view never names Avery"


def test_a_spotted_man_shows_normally_and_vanishes_again_when_he_loses_spotted(position):
    st = avery_and_dorn(position)
    st.changing(1).spotted = True
    public = view(st)
    assert [(s.serial, s.at) for s in public.soldiers] == [(1, (10, 0))]
    assert [(m.tile, m.side) for m in public.hidden] == [("L9A", "DE")]
    assert view(st, 0).mine.own_hidden == []
    st.changing(1).spotted = False
    assert view(st).soldiers == [] and len(view(st).hidden) == 2


def test_several_hidden_men_in_one_tile_show_as_one_marker_with_their_count(position):
    st = night(position, [{"serial": 1, "seat": 0, "at": [1, 1]}, {"serial": 2, "seat": 0, "at": [3, 3]},
                          {"serial": 4, "seat": 1, "at": [27, 7]}])
    assert [(m.tile, m.side, m.count) for m in view(st).hidden] == [("31A", "US", 2), ("L9A", "DE", 1)]


def test_without_the_rule_every_man_on_the_board_shows(position):
    st = avery_and_dorn(position, scenario="yard")
    assert [s.serial for s in view(st).soldiers] == [1, 4] and view(st).hidden == []


def test_a_hidden_mans_move_is_told_publicly_only_as_his_side_and_tile(position, play):
    st = avery_and_dorn(position)
    st, _ = play(st, PLANS)
    st, ev = play(st, "@Ann\ntag move 1 15,0 face e")
    assert st.soldiers[1].at == (15, 0) and not st.soldiers[1].spotted
    moves = [e for e in ev if e.kind == "move"]
    public = [e for e in moves if e.to is None]
    assert [e.text for e in public] == ["A hidden US soldier in 34A moves."]
    assert public[0].data == {"hidden": 1, "sides": ["US"], "tiles": ["34A"]}
    mine = [e for e in moves if e.to == 0]
    assert len(mine) == 1 and "Avery" in mine[0].text and "(15,0)" in mine[0].text
    assert not [e for e in moves if e.to == 1], "Bo gets no private copy"
    # the card he acted on is blanked in public lines, and in the public view
    for e in public_lines(ev):
        assert "1-C1" not in e.text and "Avery" not in e.text and "(15,0)" not in e.text
    assert "1-C1" not in view(st).model_dump_json()
    assert view(st).active is None or view(st).active.card.owner_name == HIDDEN_NAME


def test_the_reveal_blanks_a_hidden_mans_card_but_keeps_what_it_does(position, play):
    st = avery_and_dorn(position)
    st, ev = play(st, PLANS)
    reveals = [e for e in public_lines(ev) if e.kind == "reveal"]
    assert reveals and all("1-C" not in e.text and "4-C" not in e.text for e in reveals)
    assert any("a hidden soldier's card" in e.text for e in reveals)
    assert any(e.kind == "reveal" and e.to == 0 and "1-C1" in e.text for e in ev), "Ann reads her own line"
    slot = next(f for f in view(st).forces if f.id == "US-1").slots[0]
    assert slot.card.id == "hidden" and slot.card.owner == 0 and slot.card.actions


def test_once_spotted_his_lines_name_him_again(position, play):
    st = avery_and_dorn(position)
    st.changing(1).spotted = True
    st, _ = play(st, PLANS)
    st, ev = play(st, "@Ann\ntag move 1 15,0 face e")
    if st.soldiers[1].spotted:
        assert any(e.kind == "move" and e.to is None and "Avery" in e.text for e in ev)


# ----------------------------------------------------------------------------- the leak property

US_CELLS = [(x, y) for x in range(0, 20) for y in range(0, 10)]
DE_CELLS = [(x, y) for x in range(20, 30) for y in range(0, 10)]


def leaks(st, events, seat_side: str | None) -> list[str]:
    """Everything naming or placing a man hidden from `seat_side` (None: the public) in the
    view that side gets and in the public event lines."""
    out = []
    secret = [n for n, s in st.soldiers.items()
              if s.side != seat_side and s.status == "board" and not s.spotted and s.captor is None]
    seat = next((x.index for x in st.seats if x.side == seat_side), None)
    v = view(st, seat)
    text = v.model_dump_json()
    for n in secret:
        s = st.soldiers[n]
        cards = [c for c, d in st.setup.cards.items() if d.owner == n]
        shown = [x for x in v.soldiers if x.serial == n or x.at == s.at]
        if v.mine is not None:
            shown += [x for x in v.mine.own_hidden if x.serial == n]
        if shown:
            out.append(f"{n} shown as a soldier")
        for word in names_of(st, n) | set(cards):  # `in` first: re compiles each word's search anew
            if word in text and re.search(r"(?<![\w-])" + re.escape(word) + r"(?![\w-])", text):
                out.append(f"{word} in the view")
        if any(m.serial == n or m.target == n for m in [*v.trail, *v.last_trail]):
            out.append(f"{n} in the trail")
        for e in events:
            if e.to is not None and e.to != seat:
                continue
            if e.to is None:
                if any(e.data.get(k) == n or (isinstance(e.data.get(k), list) and n in e.data[k])
                       for k in SOLDIER_KEYS):
                    out.append(f"{n} in {e.kind} data")
            else:
                continue  # his seat's own private lines may say anything about his own men
            line = e.text + json.dumps(e.data)
            for word in names_of(st, n) | set(cards) | {f"({s.at[0]},{s.at[1]})"}:
                if word in line and re.search(r"(?<![\w-])" + re.escape(word) + r"(?![\w-])", line):
                    out.append(f"{word} in a public {e.kind} line")
    return out


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(S.randoms(use_true_random=False), S.sampled_from([(15, 0), (6, 6), (12, 8), (18, 3)]))
def test_no_view_event_or_line_gives_away_an_unspotted_man(position, play, rnd, dest):
    us = [c for c in US_CELLS if c != dest]
    cells_us = rnd.sample(us, 3)
    cells_de = rnd.sample(DE_CELLS, 3)
    soldiers = [{"serial": n, "seat": 0, "at": list(c), "facing": "e"} for n, c in zip((1, 2, 3), cells_us)] + \
               [{"serial": n, "seat": 1, "at": list(c), "facing": "w"} for n, c in zip((4, 5, 6), cells_de)]
    try:
        st = night(position, soldiers)
    except Exception:  # an impassable cell: not a position
        return
    assert not leaks(st, [], None) and not leaks(st, [], "US") and not leaks(st, [], "DE")
    st, ev = play(st, PLANS)
    assert not leaks(st, ev, None) and not leaks(st, ev, "US") and not leaks(st, ev, "DE")
    try:
        st, ev2 = play(st, f"@Ann\ntag move 1 {dest[0]},{dest[1]}")
    except Exception:  # out of reach this time
        return
    for side in (None, "US", "DE"):
        assert not leaks(st, ev2, side), leaks(st, ev2, side)


def test_a_random_night_game_never_names_a_hidden_man_in_public(cat):
    from engine import apply, new_game
    from engine.agent import RandomAgent
    for seed in (1, 2, 3):
        st, ev = new_game(cat, "hidden-yard", [SeatSpec(name="Ann", side="US"), SeatSpec(name="Bo", side="DE")],
                          seed)
        agent = RandomAgent(seed)
        for _ in range(60):
            if st.step == "over":
                break
            st, ev = apply(st, agent.choose(st, agent.seat_to_act(st)))
            for side in (None, "US", "DE"):
                assert not leaks(st, ev, side), leaks(st, ev, side)


def test_a_line_naming_hidden_men_of_both_sides_reads_differently_for_each(position):
    from engine.advanced.hidden_deployment import screen
    from engine.core.log import Event
    st = avery_and_dorn(position)  # both hidden
    line = Event(kind="cover_fail", text="Pvt. Avery tries to take cover but Schtz. Dorn is too close.",
                 data={"serial": 1, "value": 2})
    out = screen(st, [line])
    public = [e for e in out if e.to is None]
    assert [e.text for e in public] == ["A hidden US soldier in 33A tries to take cover."]
    ann = [e.text for e in out if e.to == 0]
    assert ann == ["Pvt. Avery tries to take cover but a hidden soldier is too close."], "Ann knows Avery, not Dorn"
    assert not [e for e in out if e.to == 1], "Bo reads only the public line: Avery is hidden from him"


def test_a_public_line_about_visible_men_only_is_left_alone(position):
    from engine.advanced.hidden_deployment import screen
    from engine.core.log import Event
    st = avery_and_dorn(position)
    line = Event(kind="weather", text="LOOK -1 on every line of sight this turn.", data={"n": 1})
    assert screen(st, [line]) == [line]


def test_the_words_worked_out_once_follow_a_promotion_and_stay_with_their_own_game(position):
    from engine.advanced.hidden_deployment import public_text
    from engine.core.content import Rank
    st = position(scenario="hidden-yard", soldiers=[{"serial": 3, "seat": 0, "at": [10, 0]},
                                                    {"serial": 4, "seat": 1, "at": [27, 7]}])
    assert public_text(st, "Pvt. Cole waits.") == f"{HIDDEN_NAME} waits."  # Cole's words now kept
    st.changing(3).rank = Rank.JUNIOR_NCO
    assert public_text(st, "Cpl. Cole waits.") == f"{HIDDEN_NAME} waits.", "his new title is blanked too"
    renamed = {**st.setup.soldiers, 3: st.setup.soldiers[3].model_copy(update={"name": "Zeller"})}
    other = st.model_copy(update={"setup": st.setup.model_copy(update={"soldiers": renamed})})
    assert public_text(other, "Zeller waits.") == f"{HIDDEN_NAME} waits."
    assert public_text(st, "Zeller waits.") == "Zeller waits.", "another game's man is nobody here"
    assert public_text(other, "Cole waits.") == "Cole waits."



def _alone(words, cards):
    """The hidden words' blanking as one regular expression of only those words, longest
    first, each standing alone: what Words must do without compiling one."""
    from engine.advanced.hidden_deployment import HIDDEN_CARD
    pattern = re.compile(r"(?<![\w-])(" + "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
                         + r")(?![\w-])")
    return pattern, lambda text: pattern.sub(lambda m: HIDDEN_CARD if m.group(1) in cards else HIDDEN_NAME, text)


WORDLIKE = S.text(alphabet="ab -.", min_size=1, max_size=5)


@settings(max_examples=300, deadline=None)
@given(S.data())
def test_the_hidden_words_are_found_through_one_pattern_of_every_word_as_alone(data):
    """Words finds the hidden men's words through one pattern of every soldier's words (compiled
    once a setup), never one for each set of hidden men: it must blank exactly what a pattern
    of the hidden words alone would. Words of a tiny alphabet overlap, nest and touch a lot."""
    from engine.advanced.hidden_deployment import Words, pattern_of
    every = data.draw(S.lists(WORDLIKE, min_size=1, max_size=8, unique=True), label="every word")
    hidden = data.draw(S.lists(S.sampled_from(every), min_size=1, unique=True), label="hidden words")
    cards = set(data.draw(S.lists(S.sampled_from(hidden), unique=True), label="card ids"))
    text = "".join(data.draw(S.lists(S.one_of(S.sampled_from(every), S.sampled_from(["a", "b", " ", "-", ".", "_", "é"])),
                                     max_size=10), label="text"))
    words = Words(hidden, cards, pattern_of(tuple(sorted(every))))
    pattern, blanked = _alone(hidden, cards)
    assert words.scrub(text) == blanked(text)
    assert words.mentions(text) == (pattern.search(text) is not None)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(S.data())
def test_a_games_hidden_men_are_blanked_as_a_pattern_of_their_words_alone_would(position, data):
    from engine.advanced.hidden_deployment import words_of
    st = avery_and_dorn(position)
    men = data.draw(S.sets(S.sampled_from(sorted(st.soldiers)), min_size=1), label="hidden men")
    words = words_of(st, men)
    mine = sorted(words.words)
    others = sorted({st.setup.soldiers[n].name for n in st.setup.soldiers} | {st.name(n) for n in st.soldiers})
    text = " ".join(data.draw(S.lists(S.one_of(S.sampled_from(mine), S.sampled_from(others),
                                               S.sampled_from(["moves to", "-", "x", "'s", "."])), max_size=8)))
    pattern, blanked = _alone(words.words, words.cards)
    assert words.scrub(text) == blanked(text)
    assert words.mentions(text) == (pattern.search(text) is not None)


def test_a_hidden_word_running_on_past_another_word_is_blanked_once():
    # "a b" is some visible man's word; the hidden "b a" starts inside it and runs past its end,
    # over the start of another match of the setup's pattern ("a"), which must not count again
    from engine.advanced.hidden_deployment import Words, pattern_of
    words = Words(["b a", "a"], set(), pattern_of(("a", "a b", "b a")))
    _, blanked = _alone(["b a", "a"], set())
    assert words.scrub("a b a") == blanked("a b a") == f"{HIDDEN_NAME} {HIDDEN_NAME}"


@settings(max_examples=300, deadline=None)
@given(S.data())
def test_words_given_the_setup_patterns_matches_read_once_find_what_they_find_alone(data):
    """`screen` reads a text once for every reader (the setup's pattern's matches, handed to
    Words): the blanking and the finding must be what Words works out reading it itself, and a
    text naming none of the hidden words comes back as the very same object."""
    from engine.advanced.hidden_deployment import Words, pattern_of
    every = data.draw(S.lists(WORDLIKE, min_size=1, max_size=8, unique=True), label="every word")
    hidden = data.draw(S.lists(S.sampled_from(every), min_size=1, unique=True), label="hidden words")
    cards = set(data.draw(S.lists(S.sampled_from(hidden), unique=True), label="card ids"))
    text = "".join(data.draw(S.lists(S.one_of(S.sampled_from(every), S.sampled_from(["a", "b", " ", "-", ".", "_", "é"])),
                                     max_size=10), label="text"))
    pattern = pattern_of(tuple(sorted(every)))
    words = Words(hidden, cards, pattern)
    matches = list(pattern.finditer(text))
    assert words.scrub(text, matches) == words.scrub(text)
    assert words.mentions(text, matches) == words.mentions(text)
    assert (words.scrub(text, matches) is text) == (not words.mentions(text))


def _screened_reading_each_text_per_reader(st, events):
    """`screen` as it was before it read each text once for all its readers: every reader's
    Words reads the text and the data's repr itself (the answer the one reading must give)."""
    from engine.advanced.hidden_deployment import (
        Event,
        _soldiers_in,
        _strings_clean,
        active,
        cover_sentence,
        hidden,
        tile_of,
        words_of,
    )

    def as_seen(e, secret, words):
        about = sorted(_soldiers_in(e.data) & secret)
        if about:
            return Event(kind=e.kind, text=cover_sentence(st, e.kind, about),
                         data={"hidden": len(about), "sides": sorted({st.soldiers[n].side for n in about}),
                               "tiles": sorted({tile_of(st, n) for n in about})})
        if not (words.mentions(e.text) or words.mentions(repr(e.data))):
            return e
        data = {k: v for k, v in e.data.items() if k not in SOLDIER_KEYS or not (_soldiers_in({k: v}) & secret)}
        return Event(kind=e.kind, text=words.scrub(e.text), data=_strings_clean(data, words.scrub))

    if not active(st) or not events:
        return events
    secret = hidden(st)
    if not secret:
        return events
    out = []
    for e in events:
        if e.to is not None:
            out.append(e)
            continue
        public = as_seen(e, secret, words_of(st, secret))
        out.append(public)
        if public is e:
            continue
        for side in sorted({seat.side for seat in st.seats}):
            theirs_hidden = {n for n in secret if st.soldiers[n].side != side}
            theirs = as_seen(e, theirs_hidden, words_of(st, theirs_hidden))
            if theirs.text == public.text and theirs.data == public.data:
                continue
            out.extend(theirs.model_copy(update={"to": seat.index}) for seat in st.seats if seat.side == side)
    return out


def test_the_screened_events_of_whole_games_are_those_of_each_reader_reading_alone(monkeypatch):
    """Every apply's events of night-orchard games (hidden deployment, shipped), screened as
    `screen` does (each text read once for every reader) and as each reader reading alone."""
    from engine.core import rulebook
    from tests.engine.autoplay_kit import autoplayed, shipped_catalog
    screen = rulebook.screen_events
    compared = []

    def both(st, events):
        got = screen(st, events)
        assert got == _screened_reading_each_text_per_reader(st, events)
        compared.append(len(got) != len(events) or any(a is not b for a, b in zip(got, events)))
        return got
    monkeypatch.setattr(rulebook, "screen_events", both)
    for seed in range(3):
        for _ in autoplayed(shipped_catalog(), "night-orchard", seed, 200):
            pass
    assert sum(compared) > 50  # screening changed lines in many applies: the comparison was put to work
