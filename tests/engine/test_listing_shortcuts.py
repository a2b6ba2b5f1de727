"""The option listing's shortcuts (engine/legal.py, engine/vehicles/legal.py,
engine/battlefield/artillery.py): where it asks a cheaper function than the rule itself, both
answer alike over autoplayed games."""
from __future__ import annotations

import pytest

from engine.battlefield import artillery as A
from engine.core import commands as C
from engine.core.crew import position_of
from engine.core.ratings import current
from engine.infantry.contact import Known, escorting, in_contact
from engine.infantry.look import sight_must, sight_options
from engine.turn.officer import officer_of
from engine.vehicles.look import crew_sight_must, crew_sight_options
from tests.engine.autoplay_kit import autoplayed
from tests.engine.test_artillery import PLANS, relay_lane, run, until

INFANTRY = [("fixtures", "advanced-skirmish", 2), ("shipped", "hedgerow-dawn", 3), ("shipped", "tardieu-bombardment", 4)]
GAMES = [("fixtures", "mined-motor", 3), ("shipped", "tardieu-bombardment", 4), ("shipped", "mill-road-gun", 5)]
COMMANDS = 250


def _autoplayed(catalog, scenario: str, seed: int):
    """Each state of an autoplayed game, up to COMMANDS commands."""
    return autoplayed(catalog, scenario, seed, COMMANDS)


@pytest.mark.parametrize(("content", "scenario", "seed"), INFANTRY)
def test_a_soldiers_sight_targets_are_those_of_his_whole_sight_table(request, content, scenario, seed):
    """sight_must (distance first, range and a vehicle's line of sight only for the nearest)
    lists the same targets as sight_options, with the same tie-break on the targets' cover."""
    catalog = request.getfixturevalue("cat" if content == "fixtures" else "shipped")
    some = 0
    for st in _autoplayed(catalog, scenario, seed):
        for m in [s.serial for s in st.soldiers.values() if s.free]:
            must, _ = sight_options(st, m)
            assert sight_must(st, m) == must, m
            some += bool(must)
    assert some > 20


def _crewmen(st) -> list[int]:
    return [s.serial for s in st.soldiers.values() if s.status == "aboard"
            and st.vehicles[s.vehicle].status == "board" and position_of(st, s.serial) is not None]


@pytest.mark.parametrize(("content", "scenario", "seed"), GAMES)
def test_a_crewmans_sight_targets_are_those_of_his_whole_sight_table(request, content, scenario, seed):
    """crew_sight_must (range first, line of sight only for the nearest in range) lists the same
    targets as crew_sight_options, which works out the line of sight to every enemy."""
    catalog = request.getfixturevalue("cat" if content == "fixtures" else "shipped")
    some = 0
    for st in _autoplayed(catalog, scenario, seed):
        for m in _crewmen(st):
            must, _ = crew_sight_options(st, m)
            assert crew_sight_must(st, m) == must, m
            some += bool(must)
    assert some > 5


def _calls_by_the_rule(st, seat: int, limit: int = 12) -> list:
    """call_options' list worked out the long way: every caller, kind and variant made as a call
    and judged by the call rule itself (call_problem) on every tile, every relay searched."""
    if st.phase < 1:
        return []
    art = st.artillery
    kinds = sorted(set(art.ordnance.get(seat, [])))
    kinds += [f"{A.GUN}{p}" for p, v in sorted(st.vehicles.items())
              if st.forces[v.controller].seat == seat and A.gun_problem(st, seat, p) is None]
    if not kinds and not art.bought.get(seat):
        return []
    callers = sorted({A.caller_of(st, s.serial) for s in st.soldiers.values()
                      if s.in_play and A._seat_of(st, s.serial) == seat and s.status in ("board", "aboard")})
    out = []
    for caller in callers:
        for kind in kinds + sorted(set(art.bought.get(seat, [])) - set(kinds)):
            relay = next((r for r in callers if A.relay_problem(st, seat, caller, r, kind) is None), None) \
                if A._relayed_kind(st, kind) else None
            for fake, smoke in [(True, False)] if kind not in kinds else [(False, False), (True, False), (False, True)]:
                tile = next((t for t in st.board.origin if A.call_problem(st, C.CallCmd.model_construct(
                    seat=seat, serial=caller, kind=kind, tile=t, fake=fake, smoke=smoke, relay=relay)) is None), None)
                if tile is not None:
                    out.append(str(C.CallCmd.model_construct(seat=seat, serial=caller, kind=kind, tile=tile, fake=fake,
                                                             smoke=smoke, relay=relay)))
                if len(out) >= limit:
                    return out[:limit]
    return out


@pytest.mark.parametrize("seed", [7])
def test_the_artillery_calls_listed_are_those_the_call_rule_accepts(shipped, seed):
    """call_options (radio contact asked by the call's parts, no relay searched where the caller's
    own set reaches the guns) lists, in order, the calls the rule's own check accepts."""
    some = 0
    for st in _autoplayed(shipped, "tardieu-bombardment", seed):
        for seat in range(len(st.seats)):
            listed = [str(c) for c in A.call_options(st, seat)]
            assert listed == _calls_by_the_rule(st, seat), (st.seq, seat)
            some += bool(listed)
    assert some > 20


def test_a_call_is_listed_relayed_only_where_the_callers_own_set_does_not_reach(position):
    """Avery's walkie-talkie reaches the medium mortars, not the heavy ones; Brooks's radio reaches
    both: after two LOOK phases the heavy mortars are listed through Brooks, the medium ones
    without a relay, as the rule judges every call (tests/engine/test_artillery.py's relay lane)."""
    st = relay_lane(position)
    st, _ = run(st, PLANS)
    st, _ = run(st, ["@Ann pass"])
    st = until(st, "US-1", 2)
    listed = [str(c) for c in A.call_options(st, 0)]
    assert listed == _calls_by_the_rule(st, 0)
    assert "call 1 heavy-mortars 24A relay 2" in listed
    assert any(c.startswith("call 1 medium-mortars") and "relay" not in c for c in listed)


@pytest.mark.parametrize(("content", "scenario", "seed"), INFANTRY)
def test_what_a_question_remembers_of_each_man_is_what_the_rules_say(request, content, scenario, seed):
    """contact.Known (made once per anything_to_do question) answers in_contact and escorting
    for every man as the rules do, asked twice over: remembering changes no answer."""
    catalog = request.getfixturevalue("cat" if content == "fixtures" else "shipped")
    contacts = 0
    for st in _autoplayed(catalog, scenario, seed):
        known = Known(st)
        for _ in range(2):
            for s in st.soldiers.values():
                assert known.contact(s.serial) == in_contact(st, s.serial), s.serial
                prisoners = sorted(p.serial for p in st.soldiers.values() if p.captor == s.serial and p.status == "board")
                assert escorting(st, s.serial) == prisoners, s.serial
                assert known.escorting(s.serial) == bool(prisoners), s.serial
                contacts += bool(in_contact(st, s.serial))
    assert contacts > 0  # (tardieu-bombardment's men take prisoners, too)


def _officer_by_the_roster(st, force_id: str) -> int | None:
    """officer_of's rule read over every soldier: the lowest dog tag of the force's men in play
    on the board or aboard whose current Command is above 0."""
    able = [s.serial for s in st.soldiers.values()
            if s.force == force_id and s.controller == force_id and s.captor is None
            and s.status in ("board", "aboard") and st.stats(s.serial).command > 0
            and current(st, s.serial, "command") > 0]
    return min(able, default=None)


_OUT = [{"pinned": True}, {"wounded": True}, {"pinned": True, "wounded": True}, {"status": "dead"},
        {"status": "exited"}, {"captor": 1}]  # what may put an officer out of command, one at a time


@pytest.mark.parametrize("seed", [1, 2])
def test_the_officer_found_among_the_setups_officers_is_the_one_the_whole_roster_gives(cat, seed):
    """officer_of looks only at the men with a Command value on some card (once per setup); over
    autoplayed games with officers, and with each officer found pinned, wounded, dead, gone or
    captured in turn, it names the man the whole roster names (another officer, or none)."""
    found = none = 0
    for st in autoplayed(cat, "advanced-skirmish", seed, COMMANDS):
        for fid in st.forces:
            officer = officer_of(st, fid)
            assert officer == _officer_by_the_roster(st, fid), fid
            if officer is None:
                continue
            found += 1
            for change in _OUT:
                out = st.clone()
                out.changing(officer).__dict__.update(change)
                assert officer_of(out, fid) == _officer_by_the_roster(out, fid), (fid, change)
                none += officer_of(out, fid) is None
    assert found > 50 and none > 50


def _destinations_by_every_reached_cell(st, m: int, costs, parents, tile: str) -> dict:
    """destination_cells' rule (R28) over every reached cell, filtered to `tile`."""
    from engine.infantry.move import _touching, end_facing
    me, board = st.soldiers[m], st.board
    others = [o for o in st.soldiers.values() if o.serial != m and o.on_board and o.at is not None]
    best: dict = {}
    for c, cost in costs.items():
        if board.tile_at(c) != tile or c == me.at or any(o.at == c for o in others):
            continue
        if _touching(me, [o for o in others if max(abs(o.at[0] - c[0]), abs(o.at[1] - c[1])) == 1], c,
                     end_facing(st, m, c, parents)):
            continue
        cx, cy = board.tile_centre(tile)
        for key, rank in (((tile, False), ((c[0] - cx) ** 2 + (c[1] - cy) ** 2, cost, c[1], c[0])),
                          ((tile, True), (cost, c[1], c[0]) if board.in_cover(c) else None)):
            if rank is not None and (key not in best or rank < best[key][0]):
                best[key] = (rank, c)
    return {k: v[1] for k, v in best.items()}


@pytest.mark.parametrize(("content", "scenario", "seed"), INFANTRY)
def test_a_tile_destination_read_from_the_tiles_own_cells_is_the_one_every_reached_cell_gives(
        request, content, scenario, seed):
    """A move to a tile (choose_cell) looks only at the tile's cells, nearest the centre first:
    the cell it picks is the one the rule picks among every cell he reaches, as is the one the
    listing's destination_cells picks for the tile alone; and some_destination finds one exactly
    when the whole listing does."""
    from engine.core.errors import RuleError
    from engine.infantry.move import (
        Dest,
        choose_cell,
        destination_cells,
        reachable,
        some_destination,
    )
    catalog = request.getfixturevalue("cat" if content == "fixtures" else "shipped")
    some = 0
    for st in _autoplayed(catalog, scenario, seed):
        for m in [s.serial for s in st.soldiers.values() if s.free or s.status == "waiting"]:
            costs, parents, _ = reachable(st, m)
            every = destination_cells(st, m, costs, parents)
            assert (some_destination(st, m, costs, parents) is None) == (not every)
            for tile in {st.board.tile_at(c) for c in costs}:
                want = _destinations_by_every_reached_cell(st, m, costs, parents, tile)
                assert destination_cells(st, m, costs, parents, only=tile) == want, (m, tile)
                assert {k: v for k, v in every.items() if k[0] == tile} == want, (m, tile)
                for cover in (False, True):
                    try:
                        got = choose_cell(st, m, Dest(tile=tile, cover=cover), costs, parents)
                    except RuleError:
                        got = None
                    assert got == want.get((tile, cover)), (m, tile, cover)
                some += bool(want)
    assert some > 100


PART_GAMES = [("fixtures", "teams-woods", 4), ("fixtures", "mined-motor", 3), ("fixtures", "advanced-skirmish", 2),
              ("shipped", "hedgerow-dawn", 3), ("shipped", "tardieu-bombardment", 4), ("shipped", "mill-road-gun", 5)]


@pytest.mark.parametrize(("content", "scenario", "seed"), PART_GAMES)
def test_what_a_part_takes_from_each_man_is_what_its_rule_accepts(request, content, scenario, seed):
    """sources.acceptor (a part's own facts read once; a 'soldier' entry's share, the same for
    every man, read once) gives every man and plate exactly the sub-actions the part's rule
    (_accepts) would take from him, on every part of every card in play."""
    from engine.advanced.sources import _accepts, acceptor
    from engine.core.content import Do
    catalog = request.getfixturevalue("cat" if content == "fixtures" else "shipped")
    some = 0
    for st in _autoplayed(catalog, scenario, seed):
        a = st.active
        if a is None:
            continue
        for src in a.sources:
            of = acceptor(st, a, src)
            for m in [*st.soldiers, *st.vehicles]:
                want = frozenset(d for d in Do if _accepts(st, a, src, m, d) is None)
                assert of(m) == want, (src.kind, m)
                some += bool(want)
    assert some > 50
