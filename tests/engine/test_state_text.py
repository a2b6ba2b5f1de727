"""`GameState.json_without_setup` writes again the text of the state a copy was cloned from for
what the copy left "written alike" (`_model_same`: equal, and every dict in the same key order):
the seats, each force and vehicle, and the run of fields a command seldom changes. Whatever a
copy changes, its text stays pydantic's own dump; and a copy nobody changed is written alike
everywhere, so the texts are in fact reused."""
from __future__ import annotations

import operator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs
from pydantic import ValidationError

from engine.core.content import Action
from engine.core.state import (
    _STEADY,
    ForceState,
    GameState,
    Minefield,
    SmokeMarker,
    SoldierState,
    TrailMark,
    VehicleState,
    VpEntry,
    _flat_writer,
    _model_same,
)
from tests.engine.autoplay_kit import autoplayed

SCENARIOS = ["tardieu-bombardment", "hedgerow-dawn", "night-orchard"]
_steady_same = _model_same(GameState, _STEADY)


def _pydantic(st: GameState) -> str:
    return st.model_dump_json(exclude={"setup"})


def _written(st: GameState, name: str) -> str:
    return st.model_dump_json(include={name})


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(scenario=hs.sampled_from(SCENARIOS), seed=hs.integers(0, 2**31), commands=hs.integers(2, 60))
def test_written_alike_is_said_only_of_what_is_written_alike(shipped, scenario, seed, commands):
    """Along a game, each state against the one before it: a force, vehicle or the steady run
    said to be written alike is written alike; and a fresh copy is written alike throughout."""
    before = None
    for st in autoplayed(shipped, scenario, seed, commands):
        copy = st.clone()
        for cls, name in ((ForceState, "forces"), (VehicleState, "vehicles")):
            same = _model_same(cls)
            for key, item in getattr(st, name).items():
                assert same(item, getattr(copy, name)[key])
                old = getattr(before, name, {}).get(key) if before is not None else None
                if old is not None and same(old, item):
                    assert old.model_dump_json() == item.model_dump_json()
        assert _steady_same(copy.__dict__, st.__dict__)
        if before is not None and _steady_same(st.__dict__, before.__dict__):
            assert all(_written(st, n) == _written(before, n) for n in _STEADY)
        before = st


def _reordered(d: dict) -> dict:
    """The same dict with its first key moved to the end: equal, written otherwise."""
    first = next(iter(d))
    return {**{k: v for k, v in d.items() if k != first}, first: d[first]}


def _a_written_state(shipped) -> GameState:
    *_, st = autoplayed(shipped, "tardieu-bombardment", 3, 30)
    st = st.clone()
    st.json_without_setup()
    return st


def test_a_dict_in_another_order_is_written_in_that_order(shipped):
    """`==` does not see a dict's order and JSON keeps it: a copy whose dict holds the same
    items in another order is not written alike, and is written as it is."""
    st = _a_written_state(shipped)
    work = st.clone()
    force = work.changing_force(next(iter(work.forces)))
    force.declared = {"c1": Action("move"), "c2": Action("shoot")}
    work.sighted = {"1A": [0], "2A": [0, 601]}
    work.json_without_setup()
    again = work.clone()
    again.changing_force(force.id).declared = _reordered(force.declared)
    again.sighted = _reordered(work.sighted)
    assert again.forces[force.id] == force and again.sighted == work.sighted
    assert not _model_same(ForceState)(force, again.forces[force.id])
    assert not _steady_same(again.__dict__, work.__dict__)
    assert again.json_without_setup() == _pydantic(again)
    assert '"c2":"shoot","c1":"move"' in again.json_without_setup()
    assert '"2A":[0,601],"1A":[0]' in again.json_without_setup()


def _change(st: GameState, which: int) -> None:
    """One of the changes a rule may make to a copy, picked by number (a force and a vehicle
    made the copy's own and left as they were among them)."""
    fid = next(iter(st.forces))
    force = st.forces[fid]
    plate = next(iter(st.vehicles), None)
    vehicle = st.vehicles.get(plate)
    first, *_, last = st.soldiers
    changes = [
        lambda: setattr(st.changing(first), "kills", st.soldiers[first].kills + 1),
        lambda: st.changing(last).equipment.append("X-2"),
        lambda: setattr(st.changing(last), "side", st.soldiers[first].side),
        lambda: setattr(st, "soldiers", _reordered(st.soldiers)),
        lambda: st.soldiers.pop(first),
        lambda: vehicle is not None and setattr(st.changing_vehicle(plate), "mine_load", [*vehicle.mine_load, ["at", "gp"]]),
        lambda: vehicle is not None and setattr(st.changing_vehicle(plate), "status", "exited"),
        lambda: vehicle is not None and st.changing_vehicle(plate),
        lambda: setattr(st, "rng", st.rng + 1),
        lambda: setattr(st.seats[0], "order_done", not st.seats[0].order_done),
        lambda: st.changing_force(fid).hand.append("X-1"),
        lambda: setattr(st.changing_force(fid), "declared", {**force.declared, "X-1": Action("move")}),
        lambda: st.changing_force(fid),
        lambda: vehicle is not None and setattr(st.changing_vehicle(plate), "crew",
                                                _reordered(vehicle.crew) if vehicle.crew else {"driver": 1}),
        lambda: vehicle is not None and st.changing_vehicle(plate).damage.setdefault("engine", []).append("fire"),
        lambda: st.mines.append("9Z"),
        lambda: st.minefields.append(Minefield(tile="9Z", side=force.side, tokens=["at"])),
        lambda: st.minefields and setattr(st.minefields[0], "revealed", not st.minefields[0].revealed),
        lambda: st.sighted.setdefault("9Z", []).append(0),
        lambda: st.smoke.append(SmokeMarker(tile="9Z", turn=st.turn)),
        lambda: st.smoke and setattr(st.smoke[0], "clears_after", 3),
        lambda: setattr(st.weather, "look", st.weather.look - 1),
        lambda: setattr(st.lasting_weather, "shoot", st.lasting_weather.shoot + 1),
        lambda: st.vp.append(VpEntry(side=force.side, amount=2, reason="test")),
        lambda: st.vp and st.vp.pop(),
        lambda: st.artillery.looks.update({force.id: 1}),
        lambda: st.trail.append(TrailMark(kind="blast", path=[(1, 1)])),
        lambda: setattr(st, "seq", st.seq + 1),
    ]
    changes[which % len(changes)]()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(changes=hs.lists(hs.integers(0, 100), max_size=4), seed=hs.integers(0, 3), commands=hs.integers(5, 80))
def test_a_changed_copy_is_written_as_pydantic_writes_it(shipped, changes, seed, commands):
    *_, st = autoplayed(shipped, "tardieu-bombardment", seed, commands)
    st = st.clone()
    st.json_without_setup()
    work = st.clone()
    before = _pydantic(st)
    for which in changes:
        _change(work, which)
    assert work.json_without_setup() == _pydantic(work)
    assert st.json_without_setup() == before  # the original as it was


def test_vp_awards_and_trail_marks_are_shared_and_refuse_a_change(shipped):
    """They are made once and never changed: frozen, so a copy shares them, and a rule that
    tried to change one would fail at once."""
    *_, st = autoplayed(shipped, "hedgerow-dawn", 1, 200)
    st = st.clone()
    st.vp.append(VpEntry(side="US", amount=1, reason="test"))
    st.last_trail.append(TrailMark(kind="move", serial=1, path=[(0, 0), (0, 1)]))
    copy = st.clone()
    assert copy.vp is not st.vp and all(a is b for a, b in zip(copy.vp, st.vp, strict=True))
    assert all(a is b for a, b in zip(copy.last_trail, st.last_trail, strict=True))
    with pytest.raises(ValidationError):
        copy.vp[-1].amount = 5
    with pytest.raises(ValidationError):
        copy.last_trail[-1].target = 3


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(scenario=hs.sampled_from(SCENARIOS), seed=hs.integers(0, 2**31), commands=hs.integers(2, 120))
def test_the_flat_writers_write_as_the_models_serializer_does(shipped, scenario, seed, commands):
    """A force, vehicle or soldier written by `_flat_writer` (str enums read as str) is written
    as its own serializer writes it, at every state of a game; a vehicle with minefields in its
    load too (its trailing `mine_load` is left out only when empty)."""
    for st in autoplayed(shipped, scenario, seed, commands):
        for cls, models in ((ForceState, st.forces), (VehicleState, st.vehicles), (SoldierState, st.soldiers)):
            for m in models.values():
                assert _flat_writer(cls)(m) == m.model_dump_json()
        for v in st.vehicles.values():
            loaded = v.model_copy(update={"mine_load": [["at", "gp"], ["fake"]]})
            assert _flat_writer(VehicleState)(loaded) == loaded.model_dump_json()
            assert '"mine_load":[["at","gp"],["fake"]]}' in _flat_writer(VehicleState)(loaded)


def test_a_soldier_not_changed_keeps_his_entry_of_the_state_copied_from(shipped):
    """The soldiers' text of a copy that changed one man: every other man's entry is the very
    text the original was written with; his own is written again, as pydantic writes it."""
    st = _a_written_state(shipped)
    work = st.clone()
    serial = list(work.soldiers)[1]
    work.changing(serial).kills += 1
    assert work.json_without_setup() == _pydantic(work)
    before, after = st._texts["soldiers"], work._texts["soldiers"]
    assert [a is b for a, b in zip(before, after, strict=True)] == [s != serial for s in work.soldiers]
    assert f'"kills":{work.soldiers[serial].kills}' in after[1]


def test_an_unchanged_copy_takes_the_kept_texts_and_a_head_opens_the_text(shipped):
    """A copy nobody changed takes the original's soldiers' entries (the very list), each
    force's and vehicle's entry; one force changed: its entry is written again, the others and
    the vehicles' still taken. The text
    opens with the head it is given (the store's document head) and is otherwise the same."""
    st = _a_written_state(shipped)
    same = st.clone()
    plain = same.json_without_setup()
    assert plain == _pydantic(same)
    for name in ("soldiers", "steady"):
        assert same._texts[name] is st._texts[name]
    for name in ("forces", "vehicles"):
        assert [*same._texts[name]] == [*st._texts[name]]
        assert all(map(operator.is_, same._texts[name].values(), st._texts[name].values()))
    work = same.clone()
    work.changing_force(next(iter(work.forces))).hand.append("X-1")
    head = '{"setup_ref":"abc",'
    text = work.json_without_setup(head)
    assert text == head + _pydantic(work)[1:]
    changed = next(iter(work.forces))
    assert [f for f, t in work._texts["forces"].items() if t is not same._texts["forces"][f]] == [changed]
    assert all(map(operator.is_, work._texts["vehicles"].values(), same._texts["vehicles"].values()))
