"""The shortcuts of the replies made after every command give the answers of the long way: a
placement prompt's plans made as drafts are `plan_options`' plans; the deadlines kept as the
rows they were are the rows made afresh; the expiry rows read once find what a scan of all the
rows finds; a seat's decision record made field by field is `dataclasses.replace`'s."""
from __future__ import annotations

from dataclasses import fields, replace
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as S

from bot.app.deadlines import OPEN, DeadlineKey, expiries, expiry_in, expiry_of, plan
from bot.store import Awaited, Deadline, SeatDecision
from engine import Await, awaiting
from engine.legal import plan_drafts, plan_options
from tests.engine.autoplay_kit import autoplayed


@pytest.mark.parametrize("scenario", ["tardieu-bombardment", "hedgerow-dawn", "croix-verte-ridge", "mill-at-tardieu"])
def test_a_prompts_plan_drafts_are_the_plans_of_plan_options(shipped, scenario):
    """At every state of real games (squads and vehicle decks, officers' extra cards, placements
    being changed), for every deck and both a prompt's and a press's limit: the same plans, in
    the same order, with the same lines and fields, as the validated `plan_options`."""
    plans = extra = 0
    for seed in (3, 8):
        for st in autoplayed(shipped, scenario, seed, 60):
            for force in st.forces:
                for limit in (25, 400):
                    drafts, validated = plan_drafts(st, force, limit), plan_options(st, force, limit)
                    assert drafts == validated
                    assert [(str(p), p.model_dump()) for p in drafts] == [(str(p), p.model_dump()) for p in validated]
                    plans += len(drafts)
                    extra += sum(bool(p.extra) for p in drafts)
    assert plans > 100
    if scenario == "croix-verte-ridge":
        assert extra  # an officer's extra cards were among them


T0 = datetime(2026, 1, 1, 12, tzinfo=UTC)
KEYS = ["place:T1:US-1", "place:T1:DE-2", "act:T1:P1:S0:US-1:0:move:0", "react:T1:P1:4", "pay:T1:P2:9"]


@S.composite
def decisions(draw):
    picked = draw(S.lists(S.tuples(S.integers(0, 2), S.sampled_from(KEYS)), max_size=5))
    return [Await(seat=seat, kind=key.split(":", 1)[0], key=key) for seat, key in picked]


@settings(max_examples=300, deadline=None)
@given(before=decisions(), after=decisions(), users=S.dictionaries(S.integers(0, 2), S.sampled_from([OPEN, 11, 12])),
       hours=S.sampled_from([0.05, 2.0, 24.0]), later=S.integers(0, 40 * 3600),
       away=S.dictionaries(S.sampled_from([11, 12]), S.integers(-3600, 3 * 86400)),
       back=S.dictionaries(S.sampled_from([11, 12]), S.integers(-3600, 3 * 86400)), stretch=S.booleans(),
       paused=S.sampled_from([None, "before", "after"]), legacy=S.booleans())
def test_deadlines_kept_as_their_rows_are_the_rows_made_afresh(before, after, users, hours, later, away, back,
                                                               stretch, paused, legacy):
    """`plan` hands back a row of before itself when the row after is that very row: the
    deadlines after a change are the same, whether the rows before are the plan's own (kept) or
    the same rows read back from the store (never kept), with players going away or coming
    back, an open seat, stopped clocks, legacy keys."""
    now = T0 + timedelta(seconds=later)
    gone = {user: T0 + timedelta(seconds=s) for user, s in away.items()}
    gone_after = {user: T0 + timedelta(seconds=s) for user, s in back.items()}  # someone left, or came back
    paused_at = {"before": T0, "after": now, None: None}[paused]
    rows = plan(before, users, [], now=T0, hours=hours, away=gone, stretch=stretch, paused_at=paused_at)
    if legacy:  # a database from before decision ids names the kind instead
        rows += [Awaited(f"{stage}:place:{seat}", user, T0 + timedelta(hours=1))
                 for seat, user in users.items() for stage in ("remind", "expire")]
    stored = [Deadline(7, r.key, r.user_id, r.due, False, r.left) for r in rows]
    kept = plan(after, users, rows, now=now, hours=hours, away=gone_after, stretch=stretch, paused_at=paused_at)
    fresh = plan(after, users, stored, now=now, hours=hours, away=gone_after, stretch=stretch, paused_at=paused_at)
    assert kept == fresh
    assert all(type(r) is Awaited for r in kept)


def test_a_decision_still_awaited_keeps_its_very_rows():
    """The shortcut is taken: the rows of a decision still awaited are the rows before, and a new
    decision's rows are new."""
    part, other = (Await(seat=0, kind="place", key=k) for k in KEYS[:2])
    rows = plan([part], {0: 11}, [], now=T0, hours=24)
    again = plan([part, other], {0: 11}, rows, now=T0 + timedelta(hours=1), hours=24)
    assert again[0] is rows[0] and again[1] is rows[1]
    assert again[2:] == plan([other], {0: 11}, [], now=T0 + timedelta(hours=1), hours=24)


@settings(max_examples=300, deadline=None)
@given(awaited=decisions(), other=decisions(), users=S.dictionaries(S.integers(0, 2), S.sampled_from([11, 12])),
       junk=S.lists(S.sampled_from(["nonsense", "expire:x:y", "expire:place:0", "remind:act:1", "expire:act:2"])))
def test_the_expiry_rows_read_once_find_the_row_a_scan_finds(awaited, other, users, junk):
    """`expiry_in(expiries(rows), a)` is the first row whose key is an expiry naming `a`, over
    rows of decision ids, legacy keys and texts that are no deadline key."""
    rows = plan(awaited, users, [], now=T0, hours=24) + plan(other, users, [], now=T0, hours=3)
    rows += [Awaited(k, 11, T0) for k in junk]
    read = expiries(rows)
    for a in [*awaited, *other]:
        first = next((d for d in rows if (k := DeadlineKey.parse(d.key)) is not None and k.stage == "expire"
                      and k.names(a)), None)
        assert expiry_in(read, a) is first
        assert expiry_of(rows, a) is first


def test_a_seats_decision_record_made_field_by_field_is_replaces(shipped):
    """`GameService._next` makes a seat's new decision record naming every field (instead of
    `dataclasses.replace`, a third of its time): those are all of SeatDecision's fields, so
    none is dropped; and the record is the one `replace` makes."""
    assert [f.name for f in fields(SeatDecision)] == ["seat", "asked", "asked_version", "answered", "command",
                                                      "sent_at"]
    was = SeatDecision(1, "place:T1:US-1", 4, "act:x", "done", T0)
    made = SeatDecision(was.seat, asked="fight:T1:P1:3", asked_version=9, answered=was.answered,
                        command=was.command, sent_at=was.sent_at)
    assert made == replace(was, asked="fight:T1:P1:3", asked_version=9)
    assert awaiting  # the engine's awaited decisions are what the records name


@pytest.mark.parametrize("scenario", ["tardieu-bombardment", "hedgerow-dawn", "croix-verte-ridge", "night-orchard"])
def test_each_seats_cards_from_the_state_before_are_the_cards_read_afresh(shipped, scenario):
    """`cards_by_seat(after, before, was)` counts the held cards from `was`, reading only the men
    who are not the very soldiers of `before`: along real games (each answer made from the one
    before, as the service chains them), the same cards per seat, and the same held counts, as a
    fresh read; both shortcuts are taken (no man changed: `was`'s counts themselves; some did)."""
    from bot.app.prompts import cards_by_seat

    whole = partly = 0
    for seed in (2, 5):
        prev = was = None
        for st in autoplayed(shipped, scenario, seed, 80):
            fresh = cards_by_seat(st)
            chained = cards_by_seat(st, prev, was)
            assert chained == fresh and dict(chained) == dict(fresh)
            assert chained.held == fresh.held and chained.seat_of == fresh.seat_of
            if prev is not None and list(st.soldiers) == list(prev.soldiers):
                same = all(a is b for a, b in zip(st.soldiers.values(), prev.soldiers.values(), strict=True))
                if same:  # (since stop 38 also when the men who changed hold what they held: test_service_fast38.py)
                    assert chained.held is was.held
                whole += same
                partly += not same
            prev, was = st, chained
    assert whole > 5 and partly > 5
    # a man given a held card in a copy, another's taken away: counted in and out
    copy = prev.clone()
    ours = [s.serial for s in copy.soldiers.values() if s.force in was.seat_of]
    card = next(c for f in copy.forces.values() for c in f.hand)
    copy.changing(ours[0]).held.append(card)
    copy.changing(ours[1]).held.append(card)  # twice held (no rule does it): counted twice, out once
    again = cards_by_seat(copy, prev, was)
    assert again == cards_by_seat(copy) and again.held == cards_by_seat(copy).held
    assert card in again[was.seat_of[copy.soldiers[ours[0]].force]]
    later = copy.clone()
    later.changing(ours[0]).held.remove(card)
    assert cards_by_seat(later, copy, again) == cards_by_seat(later)
    assert cards_by_seat(later, copy, again).held == cards_by_seat(later).held
    assert card in cards_by_seat(later, copy, again)[was.seat_of[copy.soldiers[ours[1]].force]]
    for serial in ours[:2]:
        later.changing(serial).held.clear()
    assert cards_by_seat(later, copy, again).held == cards_by_seat(later).held
    assert cards_by_seat(later, copy, again) == cards_by_seat(later)


def test_ordnance_names_made_once_per_equipment_are_the_names_made_afresh(shipped):
    """`battlefield_words.ordnance_names` made once per setup's equipment: the same names as a
    fresh read for every scenario, the one dict again for another state of the same game, and
    a state without a setup has none."""
    from bot.app.battlefield_words import ordnance_names

    for scenario in sorted(shipped.scenarios):
        states = list(autoplayed(shipped, scenario, 1, 3))
        first = ordnance_names(states[0])
        assert first == {k: e.name for k, e in states[0].setup.equipment.items()}
        assert ordnance_names(states[-1]) is first
    assert ordnance_names(object()) == {}


ROWS = [Awaited(f"{stage}:{seat}:{key}", user, T0 + timedelta(hours=h), left)
        for stage in ("remind", "expire") for seat, key in enumerate(KEYS[:3]) for user in (11, 12)
        for h, left in ((1, None), (2, timedelta(minutes=5)))]


@settings(max_examples=300, deadline=None)
@given(before=S.lists(S.sampled_from(ROWS), max_size=8), how=S.sampled_from(["same", "copies", "other", "shuffled"]),
       other=S.lists(S.sampled_from(ROWS), max_size=8), seed=S.randoms())
def test_deadlines_unchanged_by_their_very_rows_answers_as_the_sets(before, how, other, seed):
    """`unchanged` answers at once for the very rows of before in their order; every answer is
    the one its comparison of (key, user, due, time left) sets gives."""
    from bot.app.deadlines import unchanged

    after = {"same": list(before), "copies": [replace(r) for r in before], "other": other,
             "shuffled": seed.sample(before, len(before))}[how]
    sets = ({(d.key, d.user_id, d.due, d.left) for d in before}
            == {(a.key, a.user_id, a.due, a.left) for a in after})
    assert unchanged(before, after) == sets
    assert unchanged(iter(before), iter(after)) == sets
    stored = [Deadline(7, r.key, r.user_id, r.due, False, r.left) for r in before]
    assert unchanged(stored, after) == sets


def test_a_game_moved_on_by_a_commit_made_field_by_field_is_replaces():
    """`service.moved_on` names every field of StoredGame (a test of the list, so none is
    dropped) and makes the game `dataclasses.replace` makes."""
    from bot.app.service import moved_on
    from bot.store import GameStatus, Seat, StoredGame

    assert [f.name for f in fields(StoredGame)] == ["id", "guild_id", "channel_id", "thread_id", "scenario_id",
                                                    "status", "organiser_id", "version", "created_at",
                                                    "updated_at", "paused_at", "state", "seats"]
    for paused in (None, T0):
        game = StoredGame(4, 5, 6, None, "yard", GameStatus.ACTIVE, 11, 9, T0, T0 + timedelta(hours=1),
                          paused_at=paused, state='{"x":1}', seats=(Seat(0, "US", 11, "Ann"),))
        for status in (GameStatus.ACTIVE, GameStatus.FINISHED):
            assert moved_on(game, 10, status) == replace(game, version=10, state="", status=status)


@pytest.mark.parametrize("scenario", ["tardieu-bombardment", "hedgerow-dawn", "night-orchard", "chapel-gun"])
def test_the_logged_texts_are_model_dump_jsons(shipped, scenario):
    """The event log's envelopes call each model's serializer directly: the very text of
    `model_dump_json()` for every command and event of real games."""
    from bot.app.eventlog import command_envelope, engine_events
    from engine import apply
    from engine.agent import RandomAgent

    agent, n = RandomAgent(4), 0
    for st in autoplayed(shipped, scenario, 4, 60):
        cmd = agent.choose(st, agent.seat_to_act(st))
        _, events = apply(st, cmd)
        assert engine_events(events) == ['{"type":"engine",' + e.model_dump_json()[1:] for e in events]
        assert command_envelope(cmd, seat=cmd.seat, user=9, by="player", undoable=True).endswith(
            ',"cmd":' + cmd.model_dump_json() + "}")
        n += len(events)
    assert n > 50
