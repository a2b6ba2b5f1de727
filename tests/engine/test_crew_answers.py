"""The engine's shortcuts for checks asked many times a command (docs/architecture.md, Performance):
the plain names of actions, sub-actions and crew roles are their enum members, and they have one
home; a vehicle's crew positions are worked out once and equal the panel's; the yes/no questions
about who would act for a vehicle (crewman, can_load, drives, the turret's man) answer exactly as
the commands' own rule (actor, loader, driver), which names a man or refuses."""
from __future__ import annotations

import ast
from functools import partial
from pathlib import Path

import pytest

from engine.core import content, vehicle_content
from engine.core.content import Action, Do
from engine.core.crew import actor, crewman
from engine.core.errors import RuleError
from engine.core.vehicle_content import Role
from engine.vehicles import legal as vehicle_legal
from engine.vehicles import move as VM
from engine.vehicles import shoot as VS
from tests.engine.autoplay_kit import autoplayed

ENGINE = Path(__file__).resolve().parents[2] / "engine"


@pytest.mark.parametrize(("module", "enum", "prefix"), [(content, Do, "DO_"), (content, Action, "ACTION_"),
                                                         (vehicle_content, Role, "ROLE_")])
def test_each_member_has_its_plain_name_and_no_other(module, enum, prefix):
    names = {n for n, v in vars(module).items() if n.startswith(prefix) and isinstance(v, enum)}
    assert names == {prefix + m.name for m in enum}
    for m in enum:
        assert getattr(module, prefix + m.name) is m


def _aliases(tree: ast.Module) -> list[str]:
    """Module-level names bound straight to a member read through Do, Action or Role."""
    def member(node) -> bool:
        return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
            and node.value.id in ("Do", "Action", "Role")

    found = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], (ast.Name, ast.Tuple)):
            values = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
            if any(member(v) for v in values):
                found.append(ast.unparse(node.targets[0]))
    return found


def test_the_plain_names_live_beside_their_enums_only():
    """A module needing them imports them (from engine.core.content / vehicle_content) rather
    than keeping its own copy."""
    homes = {ENGINE / "core" / "content.py", ENGINE / "core" / "vehicle_content.py"}
    elsewhere = {str(p.relative_to(ENGINE)): found for p in ENGINE.rglob("*.py") if p not in homes
                 for found in [_aliases(ast.parse(p.read_text(encoding="utf-8")))] if found}
    assert elsewhere == {}
    assert _aliases(ast.parse((ENGINE / "core" / "content.py").read_text(encoding="utf-8")))


def test_crew_positions_are_the_panels_crew_places_worked_out_once(cat, shipped):
    seen = 0
    for catalog in (cat, shipped):
        for vdef in catalog.vehicles.values():
            got = vdef.crew_positions
            assert isinstance(got, tuple)
            assert got == tuple(loc for loc in vdef.locations if loc.kind == "crew")
            assert vdef.crew_positions is got
            fresh = type(vdef).model_validate(vdef.model_dump())  # a copy never asked before
            assert fresh.crew_positions == got and fresh == vdef
            seen += 1
    assert seen > 3


def _named(fn) -> int | None:
    try:
        return fn()
    except RuleError:
        return None


VEHICLE_GAMES = [("fixtures", "mined-motor", 3), ("shipped", "tardieu-bombardment", 3),
                 ("shipped", "tardieu-bombardment", 11), ("shipped", "mill-road-gun", 3)]


@pytest.mark.parametrize(("content_of", "scenario", "seed"), VEHICLE_GAMES)
def test_the_yes_no_answers_agree_with_the_rule_that_words_a_refusal(request, content_of, scenario, seed):
    """On every state of autoplayed vehicle games, for every plate and every man (aboard, on
    foot, or the plate itself) and every role and weapon: crewman names the man actor names and
    None exactly where actor refuses; can_load, drives and the turret's man agree with loader,
    driver and move.turret's actor."""
    catalog = request.getfixturevalue("cat" if content_of == "fixtures" else "shipped")
    asked = {True: 0, False: 0}
    for st in list(autoplayed(catalog, scenario, seed, 120))[::3]:
        for plate in st.vehicles:
            vdef = st.vehicle_def(plate)
            weapons = [None, "main", *(m.id for m in vdef.mgs)]
            who_all = [plate, *sorted(st.soldiers)[:12],
                       *sorted(s.serial for s in st.soldiers.values() if s.status == "aboard")]
            for who in who_all:
                for role in [None, *Role]:
                    for weapon in weapons:
                        if who == plate and role is None and weapon is None:
                            continue  # the plate needs a post named (no command asks without one)
                        want = _named(partial(actor, st, plate, who, role=role, weapon=weapon, what="x"))
                        assert crewman(st, plate, who, role=role, weapon=weapon) == want, (plate, who, role, weapon)
                        asked[want is not None] += 1
                if vdef.main_gun is not None:
                    assert VS.can_load(st, plate, who) == (_named(partial(VS.loader, st, plate, who)) is not None)
                    role, weapon = VM.turret_post(vdef)
                    assert vehicle_legal._turret_man(st, plate, who) == \
                        _named(partial(actor, st, plate, who, role=role, weapon=weapon, what="x"))
                assert VM.drives(st, plate, who) == (_named(partial(VM.driver, st, plate, who, "x")) is not None)
    assert asked[True] > 20 and asked[False] > 20, asked


def test_a_refusal_keeps_its_words(shipped):
    """actor's refusals still name who and why (the words live with the rule's one reading)."""
    st = next(s for s in autoplayed(shipped, "tardieu-bombardment", 3, 40) if s.vehicles)
    plate = min(st.vehicles)
    name = st.vehicle_def(plate).name
    on_foot = next(s.serial for s in st.soldiers.values() if s.status != "aboard")
    with pytest.raises(RuleError) as refused:
        actor(st, plate, on_foot, role=Role.DRIVER, what="drive")
    assert str(refused.value) == f"{st.name(on_foot)} is not at a crew position of the {name}."
    with pytest.raises(RuleError) as refused:
        actor(st, plate, plate, weapon="no-such-gun", what="fire")
    assert str(refused.value) == f"nobody is at the {name}'s no-such-gun position to fire."


def test_a_dog_tags_sub_actions_are_its_actions_read_afresh(cat, shipped):
    """tag_subactions (worked out once per card's actions) answers as reading the card each time:
    every sub-action of the card's actions (a multi-action card) or of the action in use, less
    what a license plate never does when the owner is a vehicle."""
    from engine.core.action_cards import NOT_FOR_VEHICLES, tag_subactions
    from engine.core.content import subactions
    from engine.core.state import ActiveCard

    class St:  # the two things tag_subactions reads of a state
        def __init__(self, card, vehicles):
            self.card, self.vehicles = (lambda cid: card), vehicles

    asked = 0
    for catalog in (cat, shipped):
        for cid, card in catalog.cards.items():
            for action in Action:
                for vehicles in ({}, {card.owner: None}):
                    active = ActiveCard(card=cid, force="f", phase=1, action=action, sources=[])
                    acts = card.actions if card.multi else [action]
                    want = {d for a in acts for d in subactions(a)}
                    want = want - NOT_FOR_VEHICLES if vehicles else want
                    got = tag_subactions(St(card, vehicles), active)
                    assert got == want and isinstance(got, frozenset)
                    asked += 1
    assert asked > 100
