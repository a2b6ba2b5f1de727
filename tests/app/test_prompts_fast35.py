"""The prompts' shortcuts give the straightforward answers: a placement's label built from slot
words kept for the list is the label of each card's words joined afresh, along real games'
placement prompts (squads, vehicle decks, officers' extra cards)."""
from __future__ import annotations

import pytest

from bot.app.prompts import _card, commands_for, label
from engine import awaiting
from engine.core import commands as C
from tests.engine.autoplay_kit import autoplayed


def _plain_plan_label(st, cmd: C.Plan) -> str:
    """The label as it was written first: every card's words looked up afresh."""
    cards = " | ".join(f"P{i + 1} {_card(st, c)}" for i, c in enumerate(cmd.cards))
    if cmd.extra:
        cards += " | " + " ".join(f"+P{ph} {_card(st, c)}" for ph, c in sorted(cmd.extra.items()))
    if cmd.force is not None and cmd.force in st.forces:
        from bot.app import vehicle_words
        return f"{vehicle_words.deck_name(st, cmd.force)}: {cards}"
    return cards


@pytest.mark.parametrize("scenario", ["tardieu-bombardment", "hedgerow-dawn", "croix-verte-ridge", "chapel-gun"])
def test_a_placements_label_is_its_cards_words_joined(shipped, scenario):
    plans = 0
    for seed in (2, 5):
        for st in autoplayed(shipped, scenario, seed, 60):
            for a in awaiting(st):
                if a.kind != "place":
                    continue
                words: dict = {}  # shared along the list, as `answers` does
                for cmd in commands_for(st, a, 400):
                    assert label(st, cmd, words) == _plain_plan_label(st, cmd) == label(st, cmd)
                    plans += 1
    assert plans > 100


def test_extra_cards_and_empty_phases_read_the_same(shipped):
    st = next(st for st in autoplayed(shipped, "hedgerow-dawn", 3, 5)
              if any(a.kind == "place" for a in awaiting(st)))
    f = next(f for f in st.forces.values() if len(f.hand) >= 3)
    a, b, c = f.hand[:3]
    for cmd in (C.Plan(seat=f.seat, cards=[a, None, b]), C.Plan(seat=f.seat, cards=[a, b, None], extra={3: c, 1: b}),
                C.Plan(seat=f.seat, cards=[None, None, None], force=f.id)):
        words: dict = {}
        assert label(st, cmd, words) == _plain_plan_label(st, cmd)
        assert label(st, cmd, words) == _plain_plan_label(st, cmd)  # again, from the kept words
