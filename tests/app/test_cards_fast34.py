"""`cards_by_seat(after, before, was)` takes the forces' seats and hands from `was` when no force's
seat, hand or fight pool changed, and is `was` itself when no held card changed either: along
real games, the same answer as a fresh read, both shortcuts taken, and `cards_arrived` of an
answer that is `was` itself is nobody, as the long comparison says. Men changed but holding what
they held, under the same force, are counted as they were (the held counts are `was`'s)."""
from __future__ import annotations

import pytest

from bot.app.prompts import cards_arrived, cards_by_seat
from tests.engine.autoplay_kit import autoplayed


@pytest.mark.parametrize("scenario", ["tardieu-bombardment", "hedgerow-dawn", "croix-verte-ridge", "night-orchard"])
def test_cards_by_seat_chained_through_unchanged_hands_is_the_fresh_read(shipped, scenario):
    itself = alike = rebuilt = moved = 0
    for seed in (1, 4):
        prev = was = None
        for st in autoplayed(shipped, scenario, seed, 90):
            fresh = cards_by_seat(st)
            chained = cards_by_seat(st, prev, was)
            assert chained == fresh and list(chained) == list(fresh)
            assert chained.held == fresh.held and chained.seat_of == fresh.seat_of
            assert chained.hands == fresh.hands and list(chained.hands) == list(fresh.hands)
            if prev is not None:
                forces_same = [(f.id, f.seat, f.hand, f.fight_pool) for f in st.forces.values()] == \
                              [(f.id, f.seat, f.hand, f.fight_pool) for f in prev.forces.values()]
                assert (chained.hands is was.hands) == forces_same
                if chained is was:
                    itself += 1
                    assert forces_same and fresh == cards_by_seat(prev)
                    assert cards_arrived(prev, st, was=was, now=chained) == set()
                    # men changed (moved, marked) but holding what they held are counted as before
                    moved += any(a is not b for a, b in zip(st.soldiers.values(), prev.soldiers.values()))
                elif forces_same:
                    alike += 1
                else:
                    rebuilt += 1
                # the seats whose cards arrived: the same with the shortcut's answers as without
                assert cards_arrived(prev, st, was=was, now=chained) == cards_arrived(prev, st)
            prev, was = st, chained
    assert itself > 20 and rebuilt > 20 and moved > 10


def test_a_hand_changed_in_a_copy_is_read_again(shipped):
    """A card put into one hand of a copy (no rule's doing): the forces are not alike, the answer
    is read afresh and names the card for that seat."""
    states = list(autoplayed(shipped, "hedgerow-dawn", 2, 12))
    st = states[-1]
    was = cards_by_seat(st)
    copy = st.clone()
    force = next(iter(copy.forces.values()))
    card = next(c for f in copy.forces.values() if f.seat != force.seat for c in f.hand)
    force.hand.append(card)
    again = cards_by_seat(copy, st, was)
    assert again is not was and again == cards_by_seat(copy)
    assert card in again[force.seat]
    assert cards_arrived(st, copy, was=was, now=again) == {force.seat}
    pool = copy.clone()
    next(iter(pool.forces.values())).fight_pool.append(card)
    assert cards_by_seat(pool, copy, again) == cards_by_seat(pool)
