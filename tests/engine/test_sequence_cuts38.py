"""The shortcuts of stop 38 (issue 17) in the "anything to do?" question and in `awaiting`,
against the plain answers they stand for, over states autoplayed on the shipped scenarios:

- `awaiting` makes each decision without pydantic's validator (`legal._await`): the very model
  `Await(...)` validates from the same fields (fields, fields set, no extra or private values,
  its JSON and its words); a card's key counts its finished parts in a loop, as the sum did;
- a question without vehicles makes no `Targets` (`legal._Foes`): the man's combat contact and
  escort come from the question's own `Known`, and the check still agrees with the listing for
  every open part;
- a part that has used men lists the rest of the force's men as the plain filter does."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as hs

from engine.core.views import Await
from engine.infantry.contact import escorting, in_contact
from engine.legal import (
    _await,
    _Foes,
    _men,
    _parts,
    action_options,
    answerable,
    anything_to_do,
    awaiting,
    decision_key,
)
from tests.engine.autoplay_kit import autoplayed, shipped_catalog

SHIPPED = ["hedgerow-dawn", "tardieu-bombardment", "night-orchard", "vautrin-crossroads", "chapel-gun"]


def _same_model(made: Await, validated: Await) -> None:
    assert made == validated
    assert type(made) is type(validated)
    assert list(made.__dict__) == list(validated.__dict__)  # the fields in their order: the same dump
    assert made.model_fields_set == validated.model_fields_set
    assert made.__pydantic_extra__ == validated.__pydantic_extra__
    assert made.__pydantic_private__ == validated.__pydantic_private__
    assert made.model_dump_json() == validated.model_dump_json()
    assert repr(made) == repr(validated)


def _validated(a: Await) -> Await:
    return Await(seat=a.seat, kind=a.kind, force=a.force, detail=a.detail, key=a.key)


def _plain_act_key(st, force: str) -> str:
    """decision_key's "act" key as first written (the finished parts summed)."""
    a = st.active
    finished = sum(s.state == "closed" for s in a.sources)
    card = a.card if a.react else len(st.done_cards)
    return f"act:T{st.turn}:P{st.phase}:S{st.slot}:{a.force}:{card}:{a.action}:{finished}"


def test_awaiting_makes_the_models_the_validator_makes():
    kinds: set[str] = set()
    for scenario in SHIPPED:
        for seed in (1, 2):
            for st in autoplayed(shipped_catalog(), scenario, seed, 200):
                for a in awaiting(st):
                    _same_model(a, _validated(a))
                    if a.kind == "act":
                        assert a.key == decision_key(st, "act", a.force) == _plain_act_key(st, a.force)
                    assert type(a.seat) is int and type(a.kind) is str and type(a.detail) is str
                    assert a.force is None or type(a.force) is str
                    kinds.add(a.kind)
                for seat in range(len(st.seats)):
                    for a in answerable(st, seat):
                        _same_model(a, _validated(a))
    assert {"place", "act"} <= kinds, kinds


@settings(max_examples=60, deadline=None)
@given(seat=hs.integers(0, 7), kind=hs.text(max_size=12), force=hs.none() | hs.text(max_size=12),
       detail=hs.text(max_size=40), key=hs.text(max_size=40))
def test_a_made_await_is_the_validated_one(seat, kind, force, detail, key):
    made = _await(seat, kind, force, detail, key)
    _same_model(made, Await(seat=seat, kind=kind, force=force, detail=detail, key=key))
    made.key = "changed"  # its own fields set: changing one model changes no other
    assert _await(seat, kind, force, detail, key).key == key


def _lists(st, force: str, only_source: str | None = None) -> bool:
    return next(iter(action_options(st, force, only_source)), None) is not None


def test_without_vehicles_the_question_knows_what_the_rules_say_and_agrees_with_the_listing():
    asked = 0
    for scenario in ("hedgerow-dawn", "night-orchard", "mill-at-tardieu"):
        for seed in range(1, 4):
            for st in autoplayed(shipped_catalog(), scenario, seed, 160):
                a = st.active
                if a is None or st.pending is not None:
                    continue
                assert not st.vehicles, scenario
                foes = _Foes(st, bool(st.vehicles))
                assert foes.targets is None
                for s in st.soldiers.values():
                    assert foes.known.contact(s.serial) == in_contact(st, s.serial)
                    assert foes.known.escorting(s.serial) == bool(escorting(st, s.serial))
                asked += 1
                assert anything_to_do(st, a.force) == _lists(st, a.force), (scenario, seed, st.turn, a.card)
                for kind in {s.kind for s in a.sources if s.state != "closed"}:
                    assert anything_to_do(st, a.force, kind) == _lists(st, a.force, kind), (scenario, a.card, kind)
    assert asked > 50, asked


def test_with_vehicles_the_question_shares_one_known_with_its_targets():
    st = next(st for st in autoplayed(shipped_catalog(), "tardieu-bombardment", 1, 40) if st.vehicles)
    foes = _Foes(st, True)
    assert foes.targets is not None and foes.known is foes.targets.known


def test_a_part_with_used_men_lists_the_force_men_the_plain_filter_lists():
    parts = 0
    for scenario in SHIPPED:
        for seed in (1, 2):
            for st in autoplayed(shipped_catalog(), scenario, seed, 200):
                a = st.active
                if a is None:
                    continue
                vehicular = bool(st.vehicles)
                force_men = _men(st, a.force, vehicular)
                for kind, src, men in _parts(st, a, a.force, None, vehicular):
                    if kind in ("tag", "note"):
                        continue
                    plain = [m for m in force_men if m not in src.used or m in st.vehicles]
                    assert men == plain, (scenario, seed, a.card, kind)
                    parts += bool(src.used)
    assert parts > 20, parts
