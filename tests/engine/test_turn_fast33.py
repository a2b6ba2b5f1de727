"""The play sequence's shortcuts (issue 17, branch i33-turn) held to the straightforward way they
replace, over autoplayed states of infantry, vehicle and advanced scenarios:

- the turn's draw sums every force's men in one pass, each man's printed draw value kept with the
  setup (`ratings.draws_by_controller`): equal to each force's `current(st, serial, "draw")` sum,
  also with men pinned, wounded and at another rank than the game gave them (hypothesis);
- the words for a card that ends by itself (`sequence._why_nothing_left`) read the men only as far
  as needed: the same words as the first version, kept here;
- the shortfall step is skipped when every force has a card on every phase: there `shortfall`
  says and changes nothing."""
from __future__ import annotations

import functools
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from engine.core.content import Action
from engine.core.log import Ctx
from engine.core.ratings import current, draws_by_controller
from engine.turn import placement
from engine.turn.sequence import _why_nothing_left
from tests.engine.autoplay_kit import autoplayed, shipped_catalog

SCENARIOS = ("hedgerow-dawn", "tardieu-bombardment", "vautrin-crossroads", "croix-verte-ridge")  # the last: officers


@functools.cache
def _states() -> tuple:
    cat = shipped_catalog()
    return tuple(st for scenario in SCENARIOS for seed in (1, 2) for st in autoplayed(cat, scenario, seed, 150))


def draws_the_long_way(st) -> dict[str, int]:
    """Step 1's draw as first written: for each force, the men it controls in play, each rated afresh."""
    out = {}
    for fid in st.forces:
        men = [s for s in st.soldiers.values() if s.controller == fid and s.in_play]
        if men:
            out[fid] = sum(current(st, s.serial, "draw") for s in men)
    return out


def test_the_draws_are_each_forces_sum_of_current_draw_values():
    pinned = 0
    for st in _states():
        assert draws_by_controller(st) == draws_the_long_way(st)
        pinned += any(s.pinned and s.in_play for s in st.soldiers.values())
    assert pinned > 20  # halving was read often enough to be checked


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hs.data())
def test_the_draws_follow_pins_wounds_and_ranks_changed_in_the_state(data):
    states = _states()
    st = states[data.draw(hs.integers(0, len(states) - 1))].clone()
    serials = sorted(st.soldiers)
    for serial in data.draw(hs.lists(hs.sampled_from(serials), max_size=8, unique=True)):
        s = st.changing(serial)
        s.pinned = data.draw(hs.booleans())
        s.wounded = data.draw(hs.booleans())
        s.rank = data.draw(hs.sampled_from([p.rank for p in st.setup.soldiers[serial].ranks]))
    assert draws_by_controller(st) == draws_the_long_way(st)


def why_the_long_way(st) -> str:
    """`_why_nothing_left` as first written (before issue 17's i33-turn): every man of the force listed first."""
    a = st.active
    if all(s.state == "closed" for s in a.sources):
        return "every part of it has been used"
    used = any(s.state != "ready" for s in a.sources)
    name = st.seats[st.forces[a.force].seat].name
    act = a.action.value.upper()
    ours = [s for s in st.soldiers.values() if s.controller == a.force or (s.status == "waiting" and s.force == a.force)]
    present = any(s.status in ("board", "aboard") for s in ours) or any(
        v.controller == a.force and v.status == "board" for v in st.vehicles.values())
    if not present and not used:
        if any(s.status == "waiting" for s in ours) and a.action != Action.MOVE:
            return f"none of {name}'s men is on the board yet, and only a MOVE brings them on"
        return f"none of {name}'s men or vehicles is on the board"
    if a.action == Action.SHOOT and not (ours and any(
            s.spotted and s.on_board and s.side != ours[0].side for s in st.soldiers.values())):
        return "no enemy is spotted, and only a spotted enemy may be shot at"
    owner = st.soldiers.get(st.card(a.card).owner)
    tag_left = any(s.kind == "tag" and s.state != "closed" for s in a.sources)
    off = owner is not None and tag_left and owner.status not in ("board", "aboard")
    said = f"its dog tag's man, {st.name(owner.serial)}, is not on the board; " if off else ""
    return said + f"nobody {'else ' if off else ''}{'left ' if used else ''}to act for it can {act} from where he stands"


def test_the_words_for_a_card_ending_by_itself_are_the_first_versions():
    said = Counter()
    for st in _states():
        if st.active is None:
            continue
        want = why_the_long_way(st)
        assert _why_nothing_left(st) == want
        said[want.split(",")[0].split(" ")[0]] += 1
    # every branch that reads the men was taken (a card with every part used is never waited on):
    # nobody on the board (yet), no spotted enemy, nobody able, the dog tag's man off the board
    assert {"none", "no", "nobody", "its"} <= set(said), said


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hs.data())
def test_the_words_match_for_any_action_and_parts_left_of_the_card_in_play(data):
    """Each branch the men are read for (a vehicle on the board or not, SHOOT or not, parts used or
    not) on any card in play of the autoplayed states, its action and its parts' states drawn."""
    states = [st for st in _states() if st.active is not None]
    st = states[data.draw(hs.integers(0, len(states) - 1))].clone()
    st.active.action = data.draw(hs.sampled_from(list(Action)))
    for part in st.active.sources:
        part.state = data.draw(hs.sampled_from(["ready", "open", "closed"]))
    assert _why_nothing_left(st) == why_the_long_way(st)


def test_shortfall_has_nothing_to_do_for_a_force_with_a_card_on_every_phase():
    asked = 0
    for st in _states():
        if st.step != "place":
            continue
        for fid, f in st.forces.items():
            if None in f.placed:
                continue
            copy = st.clone()
            ctx = Ctx(copy)
            placement.shortfall(ctx, fid)
            assert ctx.events == [] and copy.json_without_setup() == st.json_without_setup()
            asked += 1
    assert asked > 10


def next_card_the_long_way(st, fid: str, phase: int, action, done) -> str | None:
    """The next card part's pick for one force as first written: its cards on the phase, each one's action."""
    for c in placement.phase_cards_of(st, fid, phase):
        if c not in done and placement.card_action(st, fid, phase, c) == action:
            return c
    return None


def test_a_forces_next_card_for_an_action_is_its_first_card_on_the_phase_used_so():
    found = extras = 0
    for st in _states():
        if not 1 <= st.phase <= 3:
            continue
        p = st.setup.story[st.phase_cards[st.phase - 1]]
        for fid in st.forces:
            placed = placement.phase_cards_of(st, fid, st.phase)
            extras += len(placed) > 1
            for action in {p.top, p.bottom, *Action}:
                for done in (st.done_cards, [], placed[:1], placed):
                    want = next_card_the_long_way(st, fid, st.phase, action, done)
                    assert placement.next_card(st, fid, st.phase, action, done) == want
                    found += want is not None
    assert found > 100 and extras > 10  # officers' extra cards among them
