"""Branch i38-app38's shortcuts after a command give the answers of the long way: each seat's
cards handed back as they were when no card moved, and the records made with their slots
written directly (`replies.slot_maker`)."""
from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as S

from bot.app import prompts
from bot.app.replies import (
    Choice,
    Private,
    Prompt,
    Waiting,
    make_choice,
    make_prompt,
    make_waiting,
    slot_maker,
)
from bot.app.service import (
    _Answer,
    _make_answer,
    _make_decision,
    _make_game,
    _make_mark,
)
from bot.store import Awaited, GameStatus, Seat, SeatDecision, SeenMark, StoredGame
from tests.engine.autoplay_kit import autoplayed

T0 = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize("scenario", ["hedgerow-dawn", "tardieu-bombardment", "croix-verte-ridge", "night-orchard"])
def test_the_cards_handed_back_unchanged_are_the_cards_read_afresh(shipped, scenario):
    """Along real games, each answer made from the one before as the service chains them:
    `cards_by_seat` hands back the answer before itself exactly when a fresh read gives the same
    cards, held counts and seats of forces (and not otherwise), and every answer is the fresh
    read's; `cards_arrived` then names nobody, as it does comparing the two fresh reads. Both
    ways are taken, and the shortcut also where some man changed (he moved, holding the same)."""
    kept = made = moved = 0
    for seed in (1, 4):
        prev = was = None
        for st in autoplayed(shipped, scenario, seed, 80):
            fresh = prompts.cards_by_seat(st)
            chained = prompts.cards_by_seat(st, prev, was)
            assert chained == fresh and dict(chained) == dict(fresh)
            assert chained.held == fresh.held and chained.seat_of == fresh.seat_of
            if prev is not None:
                before = prompts.cards_by_seat(prev)
                same = (dict(fresh) == dict(before) and fresh.held == before.held
                        and fresh.seat_of == before.seat_of)
                assert (chained is was) == (same and prompts._same_cards(st, prev))
                assert prompts._same_cards(st, prev) <= same  # never `was` for other cards
                arrived = prompts.cards_arrived(prev, st, was=was, now=chained)
                assert arrived == prompts.cards_arrived(prev, st, was=before, now=fresh)
                if chained is was:
                    kept += 1
                    assert arrived == set()
                    moved += any(a is not b for a, b in zip(st.soldiers.values(), prev.soldiers.values()))
                else:
                    made += 1
            prev, was = st, chained
    assert kept > 10 and made > 5 and moved > 3


def test_a_man_given_or_losing_a_held_card_or_a_force_another_card_is_no_unchanged_answer(shipped):
    """The shortcut's conditions, each broken alone in a copy: a card held, a card in hand, a
    card in the fight pool, a man who holds cards moved to another force; each time a new
    answer, the fresh read's."""
    states = list(autoplayed(shipped, "hedgerow-dawn", 3, 12))
    st = states[-1]
    was = prompts.cards_by_seat(st)
    assert prompts.cards_by_seat(st.clone(), st, was) is was  # a copy changes nothing
    card = next(c for f in st.forces.values() for c in f.hand)
    fid = next(iter(st.forces))
    serial = next(s.serial for s in st.soldiers.values() if s.force == fid)

    def hold(c):
        c.changing(serial).held.append(card)

    def hand(c):
        c.changing_force(fid).hand.append("999-X9")

    def pool(c):
        c.changing_force(fid).fight_pool.append(card)

    for change in (hold, hand, pool):
        copy = st.clone()
        change(copy)
        again = prompts.cards_by_seat(copy, st, was)
        assert again is not was
        assert again == prompts.cards_by_seat(copy) and again.held == prompts.cards_by_seat(copy).held
    # a man holding a card handed to the other side's force: his card counts for the other seat
    held = st.clone()
    hold(held)
    was_held = prompts.cards_by_seat(held)
    other = next(f for f in held.forces if held.forces[f].seat != held.forces[fid].seat)
    moved = held.clone()
    moved.changing(serial).force = other
    again = prompts.cards_by_seat(moved, held, was_held)
    assert again is not was_held and again == prompts.cards_by_seat(moved)


ANY = S.one_of(S.none(), S.integers(-5, 10**12), S.text(max_size=8),
               S.datetimes(timezones=S.just(UTC)), S.timedeltas(), S.tuples(S.integers()))


@settings(max_examples=200, deadline=None)
@given(values=S.lists(ANY, min_size=13, max_size=13))
def test_a_slot_maker_makes_the_objects_the_class_makes(values):
    """Every class the service makes through `slot_maker`: the fields in the order its maker
    takes them (a test of the lists), and for any values the very object the class makes of
    them by name: equal, the same type, hash, repr and fields; still frozen."""
    makers = [(Choice, make_choice, ["label", "command", "stamp"]),
              (Prompt, make_prompt, ["game_id", "version", "seat", "user_id", "kind", "text", "choices", "due",
                                     "decision"]),
              (Waiting, make_waiting, ["user_id", "seat", "name", "detail", "due", "left"]),
              (StoredGame, _make_game, ["id", "guild_id", "channel_id", "thread_id", "scenario_id", "status",
                                        "organiser_id", "version", "created_at", "updated_at", "paused_at",
                                        "state", "seats"]),
              (SeatDecision, _make_decision, ["seat", "asked", "asked_version", "answered", "command", "sent_at"]),
              (SeenMark, _make_mark, ["user_id", "seq", "at"]),
              (Awaited, slot_maker(Awaited), ["key", "user_id", "due", "left"]),
              (_Answer, _make_answer, ["seat", "decision", "command", "sent_at"])]
    for cls, make, names in makers:
        assert [f.name for f in dataclasses.fields(cls)] == names, cls
        args = values[:len(names)]
        ours, theirs = make(*args), cls(**dict(zip(names, args)))
        assert type(ours) is cls and ours == theirs and repr(ours) == repr(theirs)
        assert dataclasses.astuple(ours) == dataclasses.astuple(theirs) == tuple(args)
        try:
            assert hash(ours) == hash(theirs)
        except TypeError:  # an unhashable value (none drawn here), for both alike
            pytest.raises(TypeError, hash, theirs)
        with pytest.raises(dataclasses.FrozenInstanceError):
            ours.__setattr__(names[0], 1)


def test_a_class_the_slots_cannot_be_written_of_is_made_by_its_own_init():
    """`slot_maker` of a class with a __post_init__, without slots, or not frozen: the class's
    own making (its __post_init__ runs), the same fields positionally."""
    runs = []

    @dataclasses.dataclass(frozen=True, slots=True)
    class Checked:
        a: int
        b: str = "x"

        def __post_init__(self):
            runs.append(self.a)

    @dataclasses.dataclass(frozen=True)
    class Plain:
        a: int
        b: str = "x"

    @dataclasses.dataclass(slots=True)
    class Loose:
        a: int
        b: str = "x"

    for cls in (Checked, Plain, Loose):
        made = slot_maker(cls)(3, "y")
        assert made == cls(3, "y") and type(made) is cls
    assert runs == [3, 3]
    assert slot_maker(Private)(1, 0, "t", ()) == Private(1, 0, "t")
    game = _make_game(4, 5, 6, None, "yard", GameStatus.ACTIVE, 11, 9, T0, T0 + timedelta(hours=1), None, "",
                      (Seat(0, "US", 11, "Ann"),))
    assert game == StoredGame(4, 5, 6, None, "yard", GameStatus.ACTIVE, 11, 9, T0, T0 + timedelta(hours=1),
                              state="", seats=(Seat(0, "US", 11, "Ann"),))


async def test_the_seat_players_kept_from_a_command_before_are_the_games_seats_read_afresh(store, cat, clock):
    """A cached game keeps `users()` with the seats tuple it was read from; a command after
    reads it back only while the game's seats are that very tuple, and it is then the map read
    afresh from them: along games played round robin (seats taken and left between commands),
    and for seats equal but not the same tuple."""
    from bot.app import GameService, Where
    from bot.app.service import _Loaded
    from tests.app.table import open_table
    from tests.app.test_memory import play_round_robin

    service = GameService(store, cat, clock=clock, seed=lambda: 7)
    games = [(await open_table(service, where=Where(channel_id=950 + n))).game_id for n in range(3)]
    reused = 0
    for round_ in range(6):
        await play_round_robin(service, games, 1, seed=round_)
        for gid in games:
            entry = service._cache[gid]
            loaded = service._parsed_hit(gid)
            afresh = {s.seat_index: s.user_id for s in loaded.game.seats}
            assert loaded.users() == afresh
            if entry.users is not None and entry.users[0] is entry.game.seats:
                assert loaded.users() is entry.users[1]
                reused += 1
    assert reused >= 6
    seats = loaded.game.seats
    other = dataclasses.replace(loaded.game, seats=tuple(dataclasses.replace(s, user_id=s.user_id + 1) for s in seats))
    stale = _Loaded(other, known_users=(seats, {s.seat_index: s.user_id for s in seats}))
    assert stale.users() == {s.seat_index: s.user_id + 1 for s in seats}
    copy = _Loaded(dataclasses.replace(loaded.game, seats=tuple(seats)), known_users=((*seats,), {0: -1}))
    assert copy.users() == afresh  # an equal tuple that is not the one read: read afresh
