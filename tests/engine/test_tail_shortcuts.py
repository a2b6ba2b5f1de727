"""The apply tail's shortcuts (issue 17) held to the straightforward answers they stand for:
hidden deployment's reading of a text (the setup's pattern with its look behind after the first
letter, Words looking only where a word may stand alone inside a match, a side judged to read
the public line by the words that line's reading found), log's `told` and the vehicles' yes/no
rules beside the ones that raise."""
from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as S

from engine.core.crew import position_of
from engine.core.errors import RuleError
from engine.core.vehicle_content import Role
from engine.vehicles.damage import position_ok
from engine.vehicles.move import climb_to
from tests.engine.autoplay_kit import vehicle_states

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


# ------------------------------------------------------------------ the vehicles' yes/no rules

def _old_climb_needed(st, serial: int, plate: int, climb: int) -> None:
    d = st.setup.soldiers[serial]
    if d.crew is not None and d.crew.vehicle == st.vehicles[plate].vehicle:
        return
    have = st.stats(serial).climb
    if have < climb:
        raise RuleError(f"{st.name(serial)} has Climb {have}; getting on the {st.name(plate)} there needs "
                        f"Climb {climb}.")


def _old_mount_plan(st, serial: int, plate: int, post: str | None) -> str:
    """mount_plan as it was written (before _boarding): every refusal a RuleError made and raised."""
    s = st.soldiers[serial]
    v = st.vehicles.get(plate)
    if v is None:
        raise RuleError(f"there is no vehicle {plate} in this game.")
    vdef = st.vehicle_def(plate)
    name = st.name(plate)
    if not s.free:
        raise RuleError(f"{st.name(serial)} is not on the board on foot.")
    if v.status != "board" or v.tile is None:
        raise RuleError(f"the {name} is not on the board.")
    if v.side != s.side:
        raise RuleError(f"the {name} is the enemy's.")
    if st.board.tile_at(s.at) != v.tile:
        raise RuleError(f"{st.name(serial)} must be in {v.tile}, the {name}'s tile, to get on.")
    if v.moved or v.move_plus:
        raise RuleError(f"the {name} is moving (it moved this phase or holds Move+ markers): nobody gets on.")
    crewman = s.dismounted and s.vehicle == plate
    positions = {loc.id: loc for loc in vdef.crew_positions}
    if post is None:
        if crewman:
            empty = [p for p in positions if p not in v.crew and position_ok(st, plate, p)]
            if not empty:
                raise RuleError(f"every crew position of the {name} is taken.")
            post = next((p for p in empty if st.setup.soldiers[serial].crew
                         and positions[p].role == st.setup.soldiers[serial].crew.role), empty[0])
        else:
            post = "cabin" if vdef.passengers else "deck"
    if post in positions:
        if not crewman:
            raise RuleError(f"only the {name}'s own crew take its crew positions; {st.name(serial)} rides as a "
                            f"passenger (cabin) or on the deck or turret.")
        if post in v.crew:
            raise RuleError(f"{positions[post].name} is taken by {st.name(v.crew[post])}.")
        if not position_ok(st, plate, post):
            raise RuleError(f"the {positions[post].name} is on fire.")
        _old_climb_needed(st, serial, plate, climb_to("turret" if positions[post].compartment == "turret" else "hull"))
    elif post == "cabin":
        if not vdef.passengers:
            raise RuleError(f"the {name} has no cabin; ride on the deck or turret.")
        if len(v.passengers) >= vdef.passengers:
            raise RuleError(f"the {name}'s cabin is full ({vdef.passengers}).")
        _old_climb_needed(st, serial, plate, climb_to("hull"))
    elif post in ("deck", "turret"):
        if post == "turret" and not vdef.has_turret:
            raise RuleError(f"the {name} has no turret.")
        if len(v.riders) >= vdef.rider_limit:
            raise RuleError(f"the {name} carries no more tank riders (at most {vdef.rider_limit}).")
        _old_climb_needed(st, serial, plate, climb_to("turret" if post == "turret" else "hull"))
    else:
        raise RuleError(f"{post!r} is not a place on the {name}: a crew position ("
                        + ", ".join(positions) + "), cabin, deck or turret.")
    return post


def _old_hatch_man(st, plate: int, who: int, opening: bool) -> tuple[int, str]:
    """_hatch_man as it was written (before _hatch)."""
    vdef = st.vehicle_def(plate)
    v = st.vehicles[plate]
    if who != plate:
        loc = position_of(st, who)
        if loc is None or st.soldiers[who].vehicle != plate:
            raise RuleError(f"{st.name(who)} is not at a crew position of the {vdef.name}.")
        if not loc.hatch:
            raise RuleError(f"the {loc.name} has no hatch.")
        return who, loc.id
    order = sorted(vdef.crew_positions, key=lambda p: p.role != Role.COMMANDER)
    for loc in order:
        if loc.hatch and loc.id in v.crew and ((loc.id not in v.unbuttoned) == opening):
            return v.crew[loc.id], loc.id
    raise RuleError(f"the {vdef.name} has no crewed hatch to " + ("open." if opening else "close."))


def _outcome(fn, *args):
    try:
        return "ok", fn(*args)
    except RuleError as e:
        return "refused", str(e)


def test_getting_on_and_the_hatches_say_yes_or_no_by_the_rule_that_words_the_refusal():
    """mount_post / hatch_man (no words made) against mount_plan / _hatch_man, and those against
    the functions as they were written before the rule was shared: in every state of vehicle
    games, for every man on foot and every vehicle, every place to get on, every hatch."""
    from engine.vehicles import look, move
    asked = {"ok": 0, "refused": 0}
    for st in vehicle_states(2, 120):
        plates = list(st.vehicles)
        for plate in plates:
            crew = list(st.vehicles[plate].crew.values())
            places = [None, "cabin", "deck", "turret", "roof"] + [p.id for p in st.vehicle_def(plate).crew_positions]
            for serial, s in st.soldiers.items():
                if s.status != "board" or s.at is None:
                    continue
                for post in places:
                    was = _outcome(_old_mount_plan, st, serial, plate, post)
                    assert _outcome(move.mount_plan, st, serial, plate, post) == was
                    assert move.mount_post(st, serial, plate, post) == (was[1] if was[0] == "ok" else None)
                    asked[was[0]] += 1
            for who in [plate, *crew, *[n for n in st.soldiers if n not in crew][:2]]:
                for opening in (True, False):
                    was = _outcome(_old_hatch_man, st, plate, who, opening)
                    assert _outcome(look._hatch_man, st, plate, who, opening) == was
                    assert look.hatch_man(st, plate, who, opening) == (was[1] if was[0] == "ok" else None)
                    asked[was[0]] += 1
    assert asked["ok"] > 100 and asked["refused"] > 1000, asked
