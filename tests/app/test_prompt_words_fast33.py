"""A prompt's and a desk's words kept per setup are the words made afresh: a hand card's line
(its id, title and actions are the setup's card; the owner's name is read every time) and a
placement prompt's phases (the setup's story cards), at every state of real games, compared with
the plain formulas they replaced (kept below), asked twice so the second answer is the kept one."""
from __future__ import annotations

import pytest

from bot.app import prompts
from engine import awaiting
from engine.view import card_view
from tests.engine.autoplay_kit import autoplayed


def plain_hand_card_line(st, cid: str) -> str:
    c = st.card(cid)
    if c.owner in st.vehicles:
        owner = prompts.vehicle_words.vehicle(st, c.owner)
    elif c.owner in st.soldiers:
        owner = st.name(c.owner)
    else:
        return prompts.card_line(card_view(st, cid), st)
    return prompts._line(c.id, c.title, [a.value for a in c.actions], owner)


def plain_phases(st) -> str:
    return "; ".join(f"P{i + 1} {st.setup.story[c].top.value.upper()}/{st.setup.story[c].bottom.value.upper()}"
                     for i, c in enumerate(st.phase_cards))


@pytest.mark.parametrize("scenario", ["tardieu-bombardment", "hedgerow-dawn", "croix-verte-ridge"])
def test_kept_card_lines_and_phases_are_the_words_made_afresh(shipped, scenario):
    lines = phases = 0
    for st in autoplayed(shipped, scenario, 7, 60):
        for _ in range(2):
            for cid in st.setup.cards:
                assert prompts.hand_card_line(st, cid) == plain_hand_card_line(st, cid)
                lines += 1
            assert prompts._phases(st) == plain_phases(st)
            phases += 1
        for a in awaiting(st):
            if a.kind == "place":
                text = prompts.prompt_text(st, a.seat, a.kind, a.detail)
                assert f"Phases: {plain_phases(st)}." in text
    assert lines > 1000 and phases > 50
