"""More shortcuts of the work after every command (issue 17), each against its long way: the
deadlines of decisions still awaited handed back as the rows they were, whatever the time; each
seat's cards from the state before when the serials are the very key objects or only equal ones;
the already-done test taking a field shared by both states as equal without comparing it."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as S

from bot.app.deadlines import OPEN, _planned, _still, plan
from bot.store import Awaited, Deadline
from engine import Await
from tests.engine.autoplay_kit import autoplayed

T0 = datetime(2026, 1, 1, 12, tzinfo=UTC)
KEYS = ["place:T1:US-1", "place:T1:DE-2", "act:T1:P1:S0:US-1:0:move:0", "react:T1:P1:4", "pay:T1:P2:9"]


@S.composite
def decisions(draw):
    picked = draw(S.lists(S.tuples(S.integers(0, 2), S.sampled_from(KEYS)), max_size=4))
    return [Await(seat=seat, kind=key.split(":", 1)[0], key=key) for seat, key in picked]


@settings(max_examples=400, deadline=None)
@given(before=decisions(), how=S.sampled_from(["same", "same", "fewer", "more", "reversed", "other"]),
       other=decisions(), users=S.dictionaries(S.integers(0, 2), S.sampled_from([OPEN, 11, 12]), min_size=1),
       users_after=S.sampled_from(["same", "changed"]), hours=S.sampled_from([0.05, 2.0, 24.0]),
       later=S.integers(0, 40 * 3600), away=S.dictionaries(S.sampled_from([11, 12]), S.integers(-3600, 3 * 86400)),
       stretch=S.booleans(), paused=S.sampled_from([None, None, "before", "after"]),
       rows_as=S.sampled_from(["plan", "plan", "store", "edited"]))
def test_deadlines_of_decisions_still_awaited_are_the_rows_the_long_way_makes(
        before, how, other, users, users_after, hours, later, away, stretch, paused, rows_as):
    """`plan` hands the rows before back at once when `_still` says the long way would: always the
    rows `_planned` makes, for decisions the same as before or not, players away (then and now, or
    back), an open seat, a seat changing hands, stopped clocks, rows read back from the store or
    edited (another time left), at any time later."""
    now = T0 + timedelta(seconds=later)
    gone = {user: T0 + timedelta(seconds=s) for user, s in away.items()}
    paused_at = {"before": T0, "after": now, None: None}[paused]
    rows = plan(before, users, [], now=T0, hours=hours, away=gone, stretch=stretch, paused_at=paused_at)
    if rows_as == "store":
        rows = [Deadline(7, r.key, r.user_id, r.due, False, r.left) for r in rows]
    elif rows_as == "edited" and rows:
        rows[-1] = Awaited(rows[-1].key, rows[-1].user_id, rows[-1].due, timedelta(minutes=3))
    after = {"same": list(before), "fewer": before[1:], "more": [*before, *other], "reversed": before[::-1],
             "other": other}[how]
    users2 = users if users_after == "same" else {seat: 12 if user == 11 else 11 for seat, user in users.items()}
    for when in (now, T0):
        args = {"now": when, "hours": hours, "away": gone, "stretch": stretch, "paused_at": paused_at}
        quick, slow = plan(after, users2, rows, **args), _planned(after, users2, rows, **args)
        assert quick == slow
        kept = lambda out: [any(x is r for r in rows) for x in out]
        assert kept(quick) == kept(slow)  # a row before handed back as itself where the long way does
        assert type(quick) is list and quick is not rows


def test_the_rows_of_the_same_decisions_are_taken_at_once_and_not_otherwise():
    """The shortcut is taken for the decisions the rows were made for, and not for another
    order, an open seat, a player away or a row with time left."""
    a, b = (Await(seat=s, kind="place", key=k) for s, k in ((0, KEYS[0]), (1, KEYS[1])))
    users = {0: 11, 1: 12}
    rows = plan([a, b], users, [], now=T0, hours=24)
    assert _still([a, b], users, rows, {})
    assert plan([a, b], users, rows, now=T0 + timedelta(hours=30), hours=24) == rows
    assert not _still([b, a], users, rows, {})
    assert not _still([a, b], {0: 11, 1: OPEN}, rows, {})
    assert not _still([a, b], users, rows, {12: T0 + timedelta(hours=1)})
    assert not _still([a, b], users, [*rows[:3], Awaited(rows[3].key, 12, rows[3].due, timedelta(1))], {})
    assert not _still([a, a], {0: 11}, plan([a], {0: 11}, [], now=T0, hours=24) * 2, {})


def test_each_seats_cards_read_with_serials_only_equal_are_the_cards_read_afresh(shipped):
    """`cards_by_seat(after, before, was)` when the serials are equal numbers but not the very
    key objects of the state before (a state parsed afresh beside its copy): the answer read
    afresh, as when they are the same objects."""
    from bot.app.prompts import cards_by_seat

    states = list(autoplayed(shipped, "tardieu-bombardment", 5, 40))
    for before, after in pairwise(states):
        was = cards_by_seat(before)
        same_keys = cards_by_seat(after, before, was)
        other_keys = after.model_copy(update={"soldiers": {int(str(k)): v for k, v in after.soldiers.items()}})
        assert any(k is not j for k, j in zip(other_keys.soldiers, before.soldiers, strict=True)) or not after.soldiers
        fresh = cards_by_seat(after)
        assert same_keys == fresh and same_keys.held == fresh.held
        again = cards_by_seat(other_keys, before, was)
        assert again == fresh and again.held == fresh.held


def test_the_already_done_test_takes_a_shared_field_as_equal_as_pydantic_does(shipped):
    """Every field of real states equals itself, so taking a field both states share as equal
    (the tuple comparison's identity step) answers as comparing it: `same_game` of a state and
    its copy with every field shared is True, and with one field another but equal object too."""
    from bot.app.service import (
        _DEEP_FIELDS,
        _SAME_GAME_ORDER,
        _SAME_GAME_PLAIN,
        same_game,
    )

    assert (*_SAME_GAME_PLAIN, *_DEEP_FIELDS) == _SAME_GAME_ORDER  # the plain fields lazily, then the deep ones

    for st in list(autoplayed(shipped, "hedgerow-dawn", 2, 30))[::5]:
        for name in _SAME_GAME_ORDER:
            value = st.__dict__[name]
            assert value == value  # noqa: PLR0124 (every field equals itself: what the identity step assumes)
        twin = st.model_copy()
        assert same_game(st, twin) and same_game(twin, st)
        for name in ("forces", "setup", "active", "weather"):
            deep = st.model_copy(update={name: st.model_copy(deep=True).__dict__[name]})
            assert same_game(st, deep) is (deep == st)


def test_an_act_decisions_answers_from_the_seats_finishing_words_are_the_ones_made_afresh(shipped):
    """A new `act` key's answers are the seat's finishing lines, made once per seat, stamped for
    the key: the same as made from its commands there and then, for every act decision of two
    games, the words made once and then read for later keys."""
    from bot.app import prompts
    from engine import awaiting

    prompts._finishes.clear()
    prompts._finish_words.clear()
    keys = 0
    for scenario in ("tardieu-bombardment", "hedgerow-dawn"):
        for st in autoplayed(shipped, scenario, 6, 120):
            for a in awaiting(st):
                if a.kind != "act":
                    continue
                for limit in (prompts.MAX_CHOICES, 400, 1):
                    fresh = prompts.answers(st, a.key, prompts.commands_for(st, a, limit), limit)
                    assert prompts.choices(st, a, limit=limit) == fresh
                    assert len({c.stamp for c in fresh}) == len(fresh)
                keys += 1
    assert keys > 20 and len(prompts._finish_words) <= 2 * 3  # two seats, three limits: the words made once each


def test_a_command_envelope_names_who_gave_it_as_json_does():
    """The envelope's `by`, read from the words made beforehand or written for any other word,
    is `json.dumps`'s text, and the envelope is JSON of those fields."""
    import json

    from bot.app.eventlog import command_envelope
    from engine.core.commands import Done

    cmd = Done(seat=1)
    for by in ("player", "deadline", "organiser", "seat", "someone \"else\"", "é"):
        for undoable in (True, False):
            text = command_envelope(cmd, seat=1, user=7, by=by, undoable=undoable)
            assert f'"by":{json.dumps(by)},' in text
            assert json.loads(text) == {"type": "command", "seat": 1, "user": 7, "by": by, "undoable": undoable,
                                        "cmd": json.loads(cmd.model_dump_json())}


def test_a_seats_decision_record_equals_itself_so_the_very_record_held_is_unchanged():
    """`_next` takes a record that is the very one the store holds as unchanged without comparing
    it: a SeatDecision's equality is the dataclass's, of its fields, every one of which equals
    itself (numbers, texts, a time or None)."""
    from dataclasses import fields

    from bot.store import SeatDecision

    assert SeatDecision.__dataclass_params__.eq
    d = SeatDecision(1, asked="act:T1:P1:S0:US-1:0:move:0", asked_version=3, answered="place:T1:US-1",
                     command="pass", sent_at=T0)
    assert d == d and not (d != d)  # noqa: PLR0124, SIM202 (reflexive, both ways: what the identity step assumes)
    assert all(getattr(d, f.name) == getattr(d, f.name) for f in fields(SeatDecision))
    assert {type(getattr(d, f.name)) for f in fields(SeatDecision)} <= {int, str, datetime, type(None)}
