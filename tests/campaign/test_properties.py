"""Invariants under random campaigns (hypothesis): never more than three medals or one badge
per rank; a killed soldier never fights again; a result applied twice is refused; a dog tag is
on one roster at most; and a revert through the store restores the campaign exactly."""
from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as S

from bot.app.campaign import CampaignService
from bot.app.errors import Refused
from bot.store import SqliteStore
from engine.campaign import (
    AWARDS,
    LIMIT,
    CampaignError,
    Status,
    apply_result,
    award,
    choose_branch,
    enlist,
    mark,
    promote,
    seat_specs,
)
from tests.campaign.conftest import ANN, BO, DATE, HERE, OLGA, outcome, shipped, started

FATES = ("fit", "fit", "fit", "wounded", "killed", "captured")
RULES = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def men(st):
    return [e for p in st.players for e in p.roster]


def draw_result(data, st):
    fit = [e.serial for e in men(st) if e.status == Status.FIT]
    fought = data.draw(S.lists(S.sampled_from(fit), unique=True, max_size=12)) if fit else []
    fates = {s: data.draw(S.sampled_from(FATES)) for s in fought}
    kills = {s: data.draw(S.integers(0, 3)) for s in fought}
    captures = {s: data.draw(S.integers(0, 1)) for s in fought}
    deeds = {s: data.draw(S.fixed_dictionaries({}, optional={
        "hits": S.integers(0, 5), "charges": S.integers(0, 2), "rallied_under_fire": S.integers(0, 1),
        "orders": S.integers(0, 1)})) for s in fought}
    winner = data.draw(S.sampled_from(["US", "DE", None]))
    return outcome(st, fates, winner=winner, kills=kills, captures=captures, deeds=deeds, serials=fought)


def check_invariants(st, killed: set[int]) -> None:
    cat, cdef = shipped()
    seen = set()
    for e in men(st):
        assert e.serial not in seen, "a dog tag on two rosters"
        seen.add(e.serial)
        for rank in {h.rank for h in e.honours}:
            assert len(e.honours_at("medal", rank)) <= LIMIT["medal"]
            assert len(e.honours_at("badge", rank)) <= LIMIT["badge"]
        if e.serial in killed:
            assert e.status == Status.KILLED, f"{e.name} came back from the dead"
    for depot in st.depot.values():
        assert not set(depot) & seen
    if st.status == "running" and st.step is not None:
        try:
            specs = seat_specs(st, cdef, cat)
        except CampaignError:
            return  # somebody has nobody fit: the campaign says so rather than fielding the dead
        for _, spec in specs:
            for fe in spec.force:
                assert st.entry(fe.serial).status == Status.FIT


@RULES
@given(S.data())
def test_random_campaigns_keep_the_limits_and_the_dead_stay_dead(data):
    cat, cdef = shipped()
    st = started(cat, cdef)
    killed: set[int] = set()
    applied = []
    for _ in range(data.draw(S.integers(1, 10))):
        op = data.draw(S.sampled_from(["result", "result", "award", "award", "promote", "enlist", "mark",
                                       "again", "ghost"]))
        everyone = men(st)
        try:
            if op == "result" and st.step is not None:
                r = draw_result(data, st)
                before_fit = {e.serial for e in everyone if e.status == Status.FIT}
                st, _ = apply_result(st, cdef, cat, r, DATE)
                assert {o.serial for o in r.soldiers} <= before_fit
                applied.append(r)
                if st.choice is not None:
                    st, _ = choose_branch(st, cdef, OLGA.user_id, data.draw(S.sampled_from(st.choice.options)),
                                          organiser=True)
            elif op == "award":
                e = st.entry(data.draw(S.sampled_from([e.serial for e in everyone])))
                st = st.model_copy(deep=True)
                award(st.entry(e.serial), data.draw(S.sampled_from([a.id for a in AWARDS])), date=DATE,
                      citation="drawn")
            elif op == "promote":
                st = st.model_copy(deep=True)
                promote(st.entry(data.draw(S.sampled_from([e.serial for e in everyone]))), cat, date=DATE, why="x")
            elif op == "enlist":
                st, _ = enlist(st, cat, data.draw(S.sampled_from([ANN.user_id, BO.user_id])), None, DATE,
                               organiser=data.draw(S.booleans()))
            elif op == "mark":
                st, _ = mark(st, data.draw(S.sampled_from([e.serial for e in everyone])),
                             data.draw(S.sampled_from([s.value for s in Status])), "drawn", DATE)
            elif op == "again" and applied:
                try:
                    apply_result(st, cdef, cat, applied[-1], DATE)
                except CampaignError as exc:
                    assert "applied already" in str(exc) or "over" in str(exc)
                else:
                    raise AssertionError("a result was applied twice")
            elif op == "ghost" and killed and st.step is not None:
                ghost = outcome(st, serials=[data.draw(S.sampled_from(sorted(killed)))])
                try:
                    apply_result(st, cdef, cat, ghost, DATE)
                except CampaignError as exc:
                    assert "is killed" in str(exc)
                else:
                    raise AssertionError("a killed soldier fought again")
        except CampaignError:
            pass  # refused: the state is the one before
        killed |= {e.serial for e in men(st) if e.status == Status.KILLED}
        check_invariants(st, killed)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(S.data())
def test_a_revert_through_the_store_restores_the_campaign_exactly(data):
    cat, cdef = shipped()

    async def run(folder: Path) -> None:
        async with SqliteStore(folder / "c.db") as store:
            service = CampaignService(store, cat, definitions={cdef.id: cdef})
            cid = (await service.new(OLGA, HERE, cdef.id)).campaign_id
            for who, side in ((ANN, "US"), (BO, "DE")):
                await service.join(who, cid, side)
            await service.prepare(OLGA, cid)
            for _ in range(data.draw(S.integers(0, 2))):  # some history first
                await service.submit_result(OLGA, cid, draw_result(data, await service.load_state(cid)))
                await service.confirm(OLGA, cid)
                st = await service.load_state(cid)
                if st.choice is not None:
                    await service.choose(OLGA, cid, st.choice.options[0])
                if st.status == "finished":
                    return
            before = (await store.load_campaign(cid)).state
            await service.submit_result(OLGA, cid, draw_result(data, await service.load_state(cid)))
            await service.confirm(OLGA, cid)
            for _ in range(data.draw(S.integers(0, 2))):  # and changes after the confirmation
                st = await service.load_state(cid)
                target = data.draw(S.sampled_from([e.serial for e in men(st)]))
                try:
                    await service.award(OLGA, cid, target, data.draw(S.sampled_from([a.id for a in AWARDS])),
                                        "drawn")
                except Refused as exc:  # a refused award (the limits) is fine here
                    assert "at most" in str(exc)
            await service.revert(OLGA, cid)
            assert (await store.load_campaign(cid)).state == before

    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run(Path(folder)))
