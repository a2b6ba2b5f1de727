"""What the engine says to a newcomer (issue 19): plurals from one helper, a reason for every
"nothing more can be done", a move into cover said and shown, and a fire that strikes nobody
says nothing."""
from __future__ import annotations

from engine import awaiting
from engine.core.wording import plural
from engine.view import view


def test_plural_counts_words_as_a_reader_expects():
    assert plural(1, "grenade") == "1 grenade" and plural(2, "grenade") == "2 grenades"
    assert plural(0, "Pin marker") == "0 Pin markers" and plural(1, "open place") == "1 open place"
    assert plural(3, "man", "men") == "3 men" and plural(1, "man", "men") == "1 man"


def yard(position, **kw):
    base = {"scenario": "yard", "phase_cards": ["S07", "S08", "S09"],
            "hands": {0: ["1-C1", "1-P1", "1-C4"], 1: ["4-C1", "4-P1", "4-C4"]}}
    base.update(kw)
    return position(**base)


def ann_to_move(st, play):
    """Both plan; Bo, if he leads, passes his MOVE card, so Ann's 1-C1 (MOVE) is in play."""
    st, _ = play(st, "@Ann\nplan 1-C1 1-C4 1-P1\n@Bo\nplan 4-C1 4-C4 4-P1")
    if awaiting(st)[0].seat == 1:
        st, _ = play(st, "pass", seat=1)
    return st


def said(events, kind: str) -> list[str]:
    return [e.text for e in events if e.kind == kind]


def test_a_card_that_ends_by_itself_says_why(position, play):
    # Avery has not come on: phase 1 (MOVE) passes him by, and his HIDE card of phase 2 cannot be used
    st = yard(position, soldiers=[{"serial": 1, "seat": 0}, {"serial": 4, "seat": 1, "at": [27, 2]}])
    st, _ = play(st, "@Ann\nplan 1-C1 1-C4 1-P1\n@Bo\nplan 4-C1 4-C4 4-P1\npass")
    st, ev = play(st, "@Ann\npass")
    assert "Nothing more can be done with 1-C4: none of Ann's men is on the board yet, and only a MOVE " \
           "brings them on." in said(ev, "nothing_left")
    assert all(": " in line and line.endswith(".") for line in said(ev, "nothing_left"))


def test_a_move_into_cover_is_said_and_shown(position, play):
    st = yard(position, soldiers=[{"serial": 1, "seat": 0, "at": [2, 2], "facing": "e"},
                                  {"serial": 4, "seat": 1, "at": [27, 2], "facing": "w"}])
    assert st.board.in_cover((7, 2)) and not st.board.in_cover((4, 2))
    st = ann_to_move(st, play)
    before = next(s for s in view(st).soldiers if s.serial == 1)
    st, ev = play(st, "@Ann\ntag move 1 7,2")
    assert any("moves into cover at 32A (7,2)" in line for line in said(ev, "move")), said(ev, "move")
    after = next(s for s in view(st).soldiers if s.serial == 1)
    assert not before.in_cover and after.in_cover


def test_a_move_into_the_open_says_to(position, play):
    st = yard(position, soldiers=[{"serial": 1, "seat": 0, "at": [2, 2], "facing": "e"},
                                  {"serial": 4, "seat": 1, "at": [27, 2], "facing": "w"}])
    st = ann_to_move(st, play)
    st, ev = play(st, "@Ann\ntag move 1 4,2")
    assert any(" moves to " in line and "into cover" not in line for line in said(ev, "move"))
    assert not next(s for s in view(st).soldiers if s.serial == 1).in_cover


def test_a_fire_that_strikes_nobody_says_nothing(position, play):
    st = yard(position, soldiers=[{"serial": 1, "seat": 0, "at": [2, 2], "facing": "e"},
                                  {"serial": 4, "seat": 1, "at": [15, 8], "facing": "w"}],
              fires=["L9A"])
    assert not any(st.board.tile_at(s.at) == "L9A" for s in st.soldiers.values() if s.at is not None)
    st, ev = play(st, "@Ann\nplan 1-C1 1-C4 1-P1\n@Bo\nplan 4-C1 4-C4 4-P1")
    assert st.fires == ["L9A"] and [e for e in ev if e.kind == "phase"]
    assert said(ev, "blast") == [] and not [m for m in st.trail if m.kind == "blast"]
