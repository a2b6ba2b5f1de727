"""A card put in play (engine/turn/cards.py start) makes its parts and the card in play without
their models' validators (`_part`, `_in_play`) where the validators could only take the values as
they are. Held here to the validators: the same fields in the same order, the same fields set,
the same JSON, fresh lists; any other value still goes to the validator, taken or refused as
before; and whole autoplayed games carried out with the validators instead leave the same states
and events at every command."""
from __future__ import annotations

import enum

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.apply import apply
from engine.core.content import Action
from engine.core.state import ActiveCard, Source
from engine.turn import cards
from tests.engine.autoplay_kit import autoplayed
from tests.engine.model_kit import made


@pytest.mark.parametrize("kind", ["tag", "team", "note"])
def test_a_part_is_the_validators_part(kind):
    assert made(lambda: cards._part(kind)) == made(lambda: cards._source({"kind": kind}))
    a, b = cards._part(kind), cards._part(kind)
    assert a == b and all(a.__dict__[f] is not b.__dict__[f] for f in ("used", "rallied", "drawn"))
    assert a.__pydantic_fields_set__ is not b.__pydantic_fields_set__


class Name(str):
    pass


class Other(str, enum.Enum):
    MOVE = "move"


texts = st.one_of(st.text(max_size=8), st.builds(Name, st.text(max_size=4)), st.integers(), st.none())
phases = st.one_of(st.integers(-2, 5), st.booleans(), st.just("2"), st.floats(allow_nan=False))
actions = st.one_of(st.sampled_from(list(Action)), st.sampled_from([a.value for a in Action]), st.just(Other.MOVE),
                    st.just("fly"), st.none())


@given(force=texts, card=texts, phase=phases, action=actions,
       kinds=st.lists(st.sampled_from(["tag", "team", "note"]), max_size=3))
def test_a_card_in_play_is_the_validators_card(force, card, phase, action, kinds):
    fast = made(lambda: cards._in_play(force, card, phase, action, [cards._part(k) for k in kinds]))
    plain = made(lambda: cards._card_in_play({"force": force, "card": card, "phase": phase, "action": action,
                                              "sources": [cards._source({"kind": k}) for k in kinds]}))
    assert fast == plain


def _plain_part(kind: str) -> Source:
    return cards._source({"kind": kind})


def _plain_in_play(force, card, phase, action, sources) -> ActiveCard:
    return cards._card_in_play({"force": force, "card": card, "phase": phase, "action": action, "sources": sources})


@pytest.mark.parametrize("scenario", ["hedgerow-dawn", "tardieu-bombardment"])
def test_games_with_the_validators_leave_the_same_states(shipped, scenario, monkeypatch):
    started = 0

    def both(st, cmd):
        nonlocal started
        with monkeypatch.context() as m:
            m.setattr(cards, "_part", _plain_part)
            m.setattr(cards, "_in_play", _plain_in_play)
            plain, plain_events = apply(st, cmd)
        fast, events = apply(st, cmd)
        assert fast.json_without_setup() == plain.json_without_setup()
        assert events == plain_events
        if fast.active is not None and (st.active is None or st.active.card != fast.active.card):
            started += 1
            assert made(lambda: fast.active) == made(lambda: plain.active)
            assert [made(lambda s=s: s) for s in fast.active.sources] == \
                [made(lambda s=s: s) for s in plain.active.sources]
        return fast, events

    for seed in (3, 11):
        for _ in autoplayed(shipped, scenario, seed, 120, play=both):
            pass
    assert started > 10, started
