"""The shortcuts of issue 17's worst apply p99 (branch i34-tail), each held to the straightforward
answer it replaces, over the states of autoplayed games of vehicle and infantry scenarios:

- `contact.fight_groups` (asked at every phase end): each man of every side but the largest looks
  at the cells around him, and only men with a foe in contact get links; equal to the rule asked
  of every pair of free men, also with men moved next to each other and turned (hypothesis);
- `Targets.crew_sight` (a question's crew Sight, asked once for the crewmen of a vehicle with the
  same Sight and optics): equal to `look.crew_sight_must` asked for each man aboard;
- `Targets.small_arms_aims` with `shoot.small_arms_reach_fault` (the small arms tests of the
  target alone found once a side, then each man's arc and range): the targets
  `small_arms_target_fault` allows, for every man on foot or aboard able to fire; and
  `small_arms_target_fault`, now split in the two, against it as first written (kept here)."""
from __future__ import annotations

import functools
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from engine.core.board import DIRS, in_arc
from engine.infantry.contact import fight_groups
from engine.vehicles import legal as VLg
from engine.vehicles import look as VL
from engine.vehicles import shoot as VS
from engine.vehicles.damage import exposed_protection
from tests.engine.autoplay_kit import autoplayed, shipped_catalog
from tests.engine.test_close_combat import (
    _fight_groups_pairwise as groups_pairwise,  # fight_groups' rule, every pair asked
)

VEHICLES = ("tardieu-bombardment", "vautrin-crossroads", "vautrin-pair", "mill-road-gun", "chapel-gun",
            "crossroads-roadblock")
INFANTRY = ("hedgerow-dawn", "night-orchard", "croix-verte-ridge")


@functools.cache
def _states(scenarios: tuple[str, ...], seeds: int = 2, commands: int = 160, stride: int = 4) -> tuple:
    cat = shipped_catalog()
    return tuple(st for sc in scenarios for seed in range(seeds)
                 for i, st in enumerate(autoplayed(cat, sc, seed, commands)) if i % stride == 0)


def test_the_fight_groups_are_those_of_every_pair():
    seen = Counter()
    for st in _states(VEHICLES + INFANTRY):
        got = fight_groups(st)
        assert got == groups_pairwise(st)
        seen[bool(got)] += 1
    assert seen[True] > 5 and seen[False] > 5, seen  # contact was met, and the common "nobody"


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hs.data())
def test_the_fight_groups_of_men_drawn_together(data):
    states = _states(VEHICLES + INFANTRY)
    st = states[data.draw(hs.integers(0, len(states) - 1))].clone()
    free = sorted(s.serial for s in st.soldiers.values() if s.free)
    if len(free) < 2:
        return
    anchor = st.soldiers[data.draw(hs.sampled_from(free))].at
    for serial in data.draw(hs.lists(hs.sampled_from(free), max_size=10, unique=True)):
        s = st.changing(serial)
        dx, dy = data.draw(hs.integers(-2, 2)), data.draw(hs.integers(-2, 2))
        s.at, s.facing = (anchor[0] + dx, anchor[1] + dy), data.draw(hs.sampled_from(DIRS))
    assert fight_groups(st) == groups_pairwise(st)


def test_a_crews_sight_asked_once_is_each_crewmans():
    seen = Counter()
    for st in _states(VEHICLES):
        targets = VLg.Targets(st)
        for s in st.soldiers.values():
            if s.status != "aboard" or st.vehicles[s.vehicle].status != "board":
                continue
            want = VL.crew_sight_must(st, s.serial)
            assert targets.crew_sight(s.serial, s.side) == want, s.serial
            assert want == VL.crew_sight_options(st, s.serial)[0], s.serial
            seen[bool(want)] += 1
        # asked again, each man's answer is still his own (the memo's key tells them apart)
        for s in st.soldiers.values():
            if s.status == "aboard" and st.vehicles[s.vehicle].status == "board":
                assert targets.crew_sight(s.serial, s.side) == VL.crew_sight_must(st, s.serial), s.serial
    assert seen[True] > 5 and seen[False] > 5, seen


def small_arms_target_fault_first_written(st, shooter: int, target: int) -> str | None:
    """vehicles/shoot.py small_arms_target_fault before it was split (issue 17, i33)."""
    me = st.soldiers[shooter]
    if target in st.vehicles:
        t = st.vehicles[target]
        if t.status != "board" or t.side == me.side:
            return "enemy vehicle"
        if not t.spotted:
            return "unspotted vehicle"
    else:
        t = st.soldiers.get(target)
        if t is None or t.side == me.side:
            return "enemy"
        if t.status == "aboard":
            if st.vehicles[t.vehicle].status != "board":
                return "board"
            if exposed_protection(st, target) is None:
                return "shut"
            if not st.vehicles[t.vehicle].spotted:
                return "his vehicle unspotted"
        elif not t.free:
            return "board"
        elif not t.spotted:
            return "unspotted"
    if me.status == "board":
        tile = VS._tile_of(st, target)
        if not (VS.arc_takes_in(st.board, me.facing, me.at, tile) if tile
                else in_arc(me.facing, me.at, VS.target_cell(st, target))):
            return "arc"
    _, _, _, bands = VS._small_geometry(st, shooter, target)
    if not bands:
        return "range"
    return None


def test_the_small_arms_targets_found_once_a_side_are_each_mans():
    seen = Counter()
    for st in _states(VEHICLES):
        targets = VLg.Targets(st)
        men = [s for s in st.soldiers.values()
               if s.free or (s.status == "aboard" and st.vehicles[s.vehicle].status == "board")]
        aims = [s.serial for s in men] + [p for p in st.vehicles]
        for s in men:
            m = s.serial
            for t in aims:
                fault = VS.small_arms_target_fault(st, m, t)
                assert fault == small_arms_target_fault_first_written(st, m, t), (m, t)
                seen[fault] += 1
            if VS.small_arms_shooter_problem(st, m) is not None:
                continue
            on_foot = s.free
            pool = targets.armour(s.side) if on_foot else targets.enemies(s.side)
            want = [t for t in pool if VS.small_arms_target_fault(st, m, t) is None]
            assert list(VLg._small_arms(st, m, targets.small_arms_aims(s.side, on_foot), targets.known,
                                        aimed=True)) == want, m
            assert list(VLg._small_arms(st, m, pool, targets.known)) == want, m
            seen["may fire" if want else "no target"] += 1
    for key in (None, "enemy", "enemy vehicle", "arc", "range", "may fire", "no target"):
        assert seen[key] > 0, (key, seen)
