"""Identity checks read the dog tag on the card drawn; team cards never count."""
import pytest

from engine.core.identity import identity_check, identity_draws, identity_hit_check
from engine.core.log import Ctx
from engine.turn.setup import SeatSpec
from engine.turn.setup import new_game as setup_game


@pytest.fixture
def game(cat):
    def make():
        seats = [SeatSpec(name="Ann", side="US"), SeatSpec(name="Bo", side="DE")]
        return setup_game(cat, "yard", seats, 1)[0]
    return make


def _force(st):
    return next(f.id for f in st.forces.values() if f.deck)


def test_an_identity_check_succeeds_only_on_the_soldiers_own_card(game):
    st = game()
    fid = _force(st)
    f = st.forces[fid]
    own = f.deck[0]
    serial = st.card(own).owner
    ctx = Ctx(st)
    assert identity_check(ctx, fid, serial) is True
    other = next(c for c in f.deck if st.card(c).owner != serial)
    f.deck.remove(other)
    f.deck.insert(0, other)
    assert identity_check(ctx, fid, serial) is False
    assert f.discard[-2:] == [own, other]


def test_identity_draws_name_the_owners_in_order(game):
    st = game()
    fid = _force(st)
    f = st.forces[fid]
    expected = [st.card(c).owner for c in f.deck[:3]]
    assert identity_draws(Ctx(st), fid, 3) == expected


def test_an_identity_hit_check_draws_until_his_card_comes_up(game):
    st = game()
    fid = _force(st)
    f = st.forces[fid]
    serial = st.card(f.deck[4]).owner
    first = next(i for i, c in enumerate(f.deck) if st.card(c).owner == serial)
    target = f.deck[first]
    assert identity_hit_check(Ctx(st), fid, serial) == target
    assert len(f.discard) == first + 1


def test_an_identity_hit_check_on_a_man_with_no_cards_in_the_deck_ends(game):
    st = game()
    fid = _force(st)
    assert identity_hit_check(Ctx(st), fid, 99999) is None
