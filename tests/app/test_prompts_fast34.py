"""The prompts' shortcuts give the straightforward answers: a hand card's line made once per setup,
card and owner's rank (or vehicle type) is the line of the card's whole view, along real games
(men promoted, wounded, dead; vehicle cards)."""
from __future__ import annotations

import pytest

from bot.app.prompts import card_line, hand_card_line
from engine.view import card_view
from tests.engine.autoplay_kit import autoplayed


@pytest.mark.parametrize("scenario", ["tardieu-bombardment", "hedgerow-dawn", "croix-verte-ridge", "chapel-gun"])
def test_a_hand_cards_line_kept_per_owners_rank_is_its_views_line(shipped, scenario):
    seen = 0
    for seed in (1, 6):
        for st in autoplayed(shipped, scenario, seed, 70):
            cards = {c for f in st.forces.values() for c in (*f.hand, *f.fight_pool, *(p for p in f.placed if p))}
            cards |= {c for s in st.soldiers.values() for c in s.held}
            for cid in sorted(cards):
                assert hand_card_line(st, cid) == card_line(card_view(st, cid), st)
                seen += 1
    assert seen > 200


def test_a_promoted_mans_cards_read_his_new_title(shipped):
    """The line is kept per rank: a man whose rank changes (no rule's doing here) reads anew."""
    st = next(iter(autoplayed(shipped, "hedgerow-dawn", 3, 1)))
    cid, owner = next((c, st.card(c).owner) for f in st.forces.values() for c in f.hand
                      if st.card(c).owner in st.soldiers)
    before = hand_card_line(st, cid)
    ranks = [r for r in type(st.soldiers[owner].rank) if r != st.soldiers[owner].rank]
    other = st.clone()
    other.changing(owner).rank = ranks[0]
    assert hand_card_line(other, cid) == card_line(card_view(other, cid), other) != before
    assert hand_card_line(st, cid) == before == card_line(card_view(st, cid), st)
