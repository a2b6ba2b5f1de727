"""The option lists' yes/no paths against the rules that word their refusals: each `*_fault`
refuses exactly what its `*_problem` refuses (and `sight_any` says yes exactly when `sight_must`
names someone), over the states of autoplayed games of vehicle and infantry scenarios; and the
answers a question remembers (vehicles/legal.py Targets.hull_free, Targets.first) equal the
rules asked afresh."""
from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from engine.advanced.equipment_use import smoke_problem, use_options, weapon_problem
from engine.infantry.blast import aim_fault, aim_problem
from engine.infantry.contact import Known
from engine.infantry.equipment import carried
from engine.infantry.look import sight_any, sight_must
from engine.vehicles import legal as VLg
from engine.vehicles import move as VM
from engine.vehicles import shoot as VS
from engine.vehicles import smoke as VSm
from tests.engine.autoplay_kit import autoplayed, shipped_catalog

VEHICLES = ["tardieu-bombardment", "vautrin-crossroads", "mill-road-gun", "chapel-gun", "crossroads-roadblock"]
INFANTRY = ["hedgerow-dawn", "night-orchard", "croix-verte-ridge"]


def _states(scenarios: list[str], seeds: range, commands: int, stride: int):
    for scenario in scenarios:
        for seed in seeds:
            for i, st in enumerate(autoplayed(shipped_catalog(), scenario, seed, commands)):
                if i % stride == 0:
                    yield st


def _infantry_faults(st, seen: Counter) -> None:
    """aim_fault against aim_problem for every man on the board at every other; sight_any against
    sight_must for every man on the board."""
    men = [s.serial for s in st.soldiers.values() if s.free]
    for m in men:
        assert sight_any(st, m) == bool(sight_must(st, m)), m
        seen[f"sight {sight_any(st, m)}"] += 1
        for t in men:
            words = aim_problem(st, m, t)
            fault = aim_fault(st, m, t)
            assert (fault is None) == (words is None), (m, t, fault, words)
            assert words is None or words.strip(), (m, t, fault)
            seen["aim ok" if fault is None else f"aim {fault[0]}"] += 1


def _equipment(st, seen: Counter) -> None:
    """use_options (what stops a man using an item asked once an item) lists exactly the targets
    and cells weapon_problem and smoke_problem, each asked whole, allow."""
    for s in st.soldiers.values():
        if not s.free or not s.equipment:
            continue
        m = s.serial
        want = []
        for item in dict.fromkeys(carried(st, m)):
            eq = st.setup.equipment.get(item)
            if eq is not None and eq.kind == "weapon":
                targets = sorted([e.serial for e in st.soldiers.values() if e.free and e.side != s.side]
                                 + [p for p, v in st.vehicles.items() if v.status == "board" and v.side != s.side])
                want += [(item, t, None) for t in targets if weapon_problem(st, m, item, t) is None]
            elif eq is not None and eq.kind == "smoke":
                cells = [st.board.tile_centre(tid) for tid in st.board.origin]
                want += [(item, None, tuple(c)) for c in cells if smoke_problem(st, m, item, c) is None]
        got = [(c.item, c.target, None if c.at is None else tuple(c.at)) for c in use_options(st, m, 0, "team")]
        assert got == want, m
        seen[f"use {bool(got)}"] += 1


def _vehicle_faults(st, seen: Counter) -> None:
    """small_arms_target_fault, pop_fault and hull_fault against the problems that word them, for
    every plate and every man on foot or aboard at every target; and a question's remembered
    answers (Targets) against the rules asked afresh."""
    targets = VLg.Targets(st)
    known = Known(st)
    # the men the option lists ask (on foot, or aboard a vehicle on the board), and what they aim
    # at (_enemy_targets), friends, and men shut inside vehicles on the board
    men = [s.serial for s in st.soldiers.values()
           if s.free or (s.status == "aboard" and st.vehicles[s.vehicle].status == "board")]
    aims = men + [p for p, v in st.vehicles.items() if v.status == "board"]
    for m in men:
        if VS.small_arms_shooter_problem(st, m) is not None:  # the target's rule asks a man able to fire
            continue
        for t in aims:
            words = VS.small_arms_target_problem(st, m, t)
            fault = VS.small_arms_target_fault(st, m, t)
            assert (fault is None) == (words is None), (m, t, fault, words)
            seen["small arms ok" if fault is None else f"small arms {fault}"] += 1
        side = st.soldiers[m].side
        first = targets.first(("small arms", m), lambda m=m, side=side: VLg._small_arms(
            st, m, targets.enemies(side), targets.known))
        alone = [t for t in VLg._enemy_targets(st, side)
                 if VS.small_arms_problem(st, m, t) is None][:1]
        assert list(first) == alone, m
        assert list(VLg._small_arms(st, m, VLg._enemy_targets(st, side), known)) == \
            [t for t in VLg._enemy_targets(st, side) if VS.small_arms_problem(st, m, t) is None], m
    for p, v in st.vehicles.items():
        crew = [s.serial for s in st.soldiers.values() if s.vehicle == p]
        if v.status == "board":  # the plate's targets to acquire, found once for its crew
            for who in [p, *crew, p]:
                listed = list(VLg._acquire_options(st, p, who, 0, "team"))
                checked = next(VLg._acquire_options(st, p, who, 0, "team", targets), None)
                assert (checked is not None) == bool(listed), (p, who)
                seen[f"acquire {bool(listed)}"] += 1
        for who in [p, *crew]:
            words = VSm.pop_problem(st, who)
            fault = VSm.pop_fault(st, who)
            assert (fault is None) == (words is None), (who, fault, words)
            seen["pop ok" if fault is None else f"pop {fault}"] += 1
        words = VM._hull_problem(st, p)
        fault = VM.hull_fault(st, p)
        assert (fault is None) == (words is None), (p, fault, words)
        assert targets.hull_free(p) == (words is None) == targets.hull_free(p), p
        seen["hull ok" if fault is None else f"hull {fault}"] += 1


def test_the_infantry_yes_no_paths_refuse_what_the_rules_word():
    seen: Counter = Counter()
    for st in _states(INFANTRY, range(2), 120, 3):
        _infantry_faults(st, seen)
        _equipment(st, seen)
    # the tests are met both ways, and the refusals the option lists meet most (arc, range, unspotted)
    for key in ("aim ok", "aim enemy", "aim unspotted", "aim arc", "aim range", "sight True", "sight False",
                "use True", "use False"):
        assert seen[key] > 0, (key, seen)


def test_the_vehicle_yes_no_paths_refuse_what_the_rules_word():
    seen: Counter = Counter()
    for st in _states(VEHICLES, range(1), 150, 6):
        _vehicle_faults(st, seen)
        _infantry_faults(st, seen)
        _equipment(st, seen)
    for key in ("small arms ok", "small arms enemy", "small arms unspotted vehicle", "small arms arc",
                "small arms shut", "pop ok", "pop popper", "hull ok", "acquire True", "acquire False"):
        assert seen[key] > 0, (key, seen)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenario=hs.sampled_from(VEHICLES + INFANTRY), seed=hs.integers(2, 10_000))
def test_the_yes_no_paths_at_drawn_games(scenario, seed):
    seen: Counter = Counter()
    for st in _states([scenario], range(seed, seed + 1), 120, 7):
        _infantry_faults(st, seen)
        _equipment(st, seen)
        if st.vehicles:
            _vehicle_faults(st, seen)
    assert sum(seen.values()) > 0


@pytest.mark.parametrize("fault", ["pins", "immobilised", "drive"])
def test_each_hull_fault_has_its_words(fault):
    """The hull's refusals keep their words (the rule's keys, each worded by _hull_problem)."""
    cat = shipped_catalog()
    st = next(s for s in autoplayed(cat, "tardieu-bombardment", 1, 60) if any(
        v.status == "board" for v in s.vehicles.values()))
    plate = next(p for p, v in st.vehicles.items() if v.status == "board")
    st = st.clone()
    v = st.changing_vehicle(plate)
    vdef = st.vehicle_def(plate)
    drive = next(loc.id for loc in vdef.locations if loc.drive)
    if fault == "pins":
        v.pins = 2
    else:
        v.damage[drive] = ["critical" if fault == "immobilised" else "wreck"]
    assert VM.hull_fault(st, plate) == fault
    words = VM._hull_problem(st, plate)
    assert {"pins": "bogged down under 2 Pin markers", "immobilised": "is immobilised",
            "drive": "drive is wrecked"}[fault] in words
    assert VLg.Targets(st).hull_free(plate) is False


@settings(max_examples=60, deadline=None)
@given(dos=hs.frozensets(hs.sampled_from(sorted({do for table in (VLg._PLATE, VLg._POST, VLg._CREW, VLg._ANY,
                                                                  VLg._FOOT) for _, dos, _ in table for do in dos},
                                                 key=str))),
       post=hs.booleans(), crew=hs.booleans())
def test_the_remembered_offering_is_the_tables_filtered_afresh(dos, post, crew):
    """_offering (remembered by the tables' identity, _Table) answers what filtering the tables'
    parts by the sub-actions gives, in the tables' order, for every set asked twice."""
    for tables in (VLg._ABOARD[post, crew], (VLg._PLATE,), (VLg._FOOT,), (VLg._WAITING,)):
        want = tuple((cost, part) for table in tables for cost, offers, part in table if set(offers) & dos)
        assert VLg._offering(tables, dos) == want
        assert VLg._offering(tuple(tables), frozenset(dos)) == want
    assert VLg._ABOARD[post, crew] == (VLg._POST,) * post + (VLg._CREW,) * crew + (VLg._ANY,)
