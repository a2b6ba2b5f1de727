"""/field end to end on the artillery test farmyard (tests/fixtures: artillery-yard, where the US
preset buys medium mortars and plans a rocket barrage on L9A for turn 2): Ann's desk lists her
ordnance and her secret barrage, Bo's never does, and nothing of them reaches the channel before
the barrage falls; a barrage planned with /field is told to Ann alone."""
from __future__ import annotations

import pytest

from tests.app.battlefield_views import SECRET_WORDS
from tests.discord.conftest import command, dms, said

SECRET = ("Rocket", "rocket", "L9A at the start", "barrage", "Barrage")


@pytest.fixture
def people(world):
    return world.add_user(11, "Ann"), world.add_user(22, "Bo")


@pytest.fixture
async def guns(world, tree, people):
    ann, bo = people
    await command(tree, "game new").callback(world.interaction(ann), scenario="artillery-yard", side="US")
    await command(tree, "game join").callback(world.interaction(bo), side="DE")
    await command(tree, "game start").callback(world.interaction(ann))
    return ann, bo


async def run(world, tree, who, path: str, **options) -> str:
    it = world.interaction(who, options=options)
    await command(tree, path).callback(it, **options)
    return said(it)


async def test_her_ordnance_and_barrage_are_hers_alone(world, tree, guns):
    ann, bo = guns
    desk = await run(world, tree, ann, "hand")
    assert "**Artillery to call:**" in desk and "**Your planned barrages (secret):**" in desk
    assert "L9A at the start of turn 2" in desk
    theirs = await run(world, tree, bo, "hand")
    assert "Artillery to call" not in theirs and "barrages" not in theirs
    status = await run(world, tree, bo, "game status")
    assert not any(w in status for w in SECRET)
    for post in world.public():
        assert not any(w in (post or "") for w in SECRET), post
    for d in dms(bo):
        assert not any(w in d for w in SECRET), d


async def test_a_barrage_planned_with_field_is_told_to_its_player_only(world, tree, adapter, guns):
    ann, bo = guns
    kinds = await command(tree, "field call")._params["kind"].autocomplete(world.interaction(ann, options={}), "")
    assert [c.value for c in kinds] == ["medium-mortars"], "her ordnance left, before radio contact"
    theirs = await command(tree, "field call")._params["kind"].autocomplete(world.interaction(bo, options={}), "")
    assert theirs == []
    told = await run(world, tree, ann, "field barrage", kind="rockets", turn=3, tile="L9A")
    assert told and "Traceback" not in told  # done, or the engine's reason (the preset's rockets are planned)
    if told.startswith("Done:"):
        assert "(secret)" in told
    assert not any("turn 3" in (p or "") for p in world.public())
    assert not any("turn 3" in d for d in dms(bo))
    assert SECRET_WORDS  # the shared list of secret words stays in use


async def lane_of(world, tree, adapter, store, cat, people, kind: str):
    """Game #1 set to the artillery tests' lane (tests/engine/test_artillery.py): Avery (1) with a
    radio and a mission of `kind`, Dorn (4) spotted in 24A; both have placed, Avery's LOOK card
    has made radio contact."""
    from tests.app.battlefield_views import artillery_lane
    ann, bo = people
    await command(tree, "game new").callback(world.interaction(ann), scenario="range", side="US")
    await command(tree, "game join").callback(world.interaction(bo), side="DE")
    await command(tree, "game start").callback(world.interaction(ann))
    st = artillery_lane(cat, call=False, kind=kind)
    service = adapter.service
    g = await store.load_game(1)
    await service._keep_setup(st)
    await store.commit(1, g.version, service._codec.dumps(st), [])
    service._forget(1)
    return ann, bo


@pytest.fixture
async def lane(world, tree, adapter, store, cat, people):
    return await lane_of(world, tree, adapter, store, cat, people, "medium-mortars")


@pytest.fixture
async def light_lane(world, tree, adapter, store, cat, people):
    return await lane_of(world, tree, adapter, store, cat, people, "light-artillery")


async def test_a_smoke_call_is_hers_until_the_smoke_comes_down_for_all(world, tree, light_lane):
    ann, bo = light_lane
    before = len(world.public())
    told = await run(world, tree, ann, "field call", actor="1", kind="light-artillery", tile="24A", smoke=True)
    assert told.startswith("Done: `call 1 light-artillery 24A smoke`") and "firing smoke" in told
    desk = await run(world, tree, ann, "hand")
    assert "**Your artillery calls:** A: Light artillery firing smoke on 24A, 2 rows to On Target" in desk
    status = await run(world, tree, bo, "game status")
    for text in [*world.public()[before:], status, *dms(bo)]:
        assert "smoke" not in (text or "").lower(), text
    await run(world, tree, ann, "field adjust", actor="1", letter="A", via="tag")
    await run(world, tree, ann, "field adjust", actor="1", letter="A", via="team")
    assert any("3x smoke over 24A" in (p or "") for p in world.public()[before:]), "the reveal is shown to all"


async def test_a_fake_call_stays_hers_until_the_marker_turns_over_for_all(world, tree, lane):
    ann, bo = lane
    before = len(world.public())
    told = await run(world, tree, ann, "field call", actor="1", kind="medium-mortars", tile="24A", fake=True)
    assert told.startswith("Done: `call 1 medium-mortars 24A fake`") and "(a fake)" in told
    desk = await run(world, tree, ann, "hand")
    assert "**Your artillery calls:** A: Medium mortars on 24A, Fake, called by Pvt. Avery (1)" in desk
    assert "**Radio contact this turn:** Pvt. Avery (1): 1 LOOK phase so far" in desk
    letters = await command(tree, "field adjust")._params["letter"].autocomplete(
        world.interaction(ann, options={"actor": "1"}), "")
    assert [c.value for c in letters] == ["A"]
    assert await command(tree, "field adjust")._params["letter"].autocomplete(
        world.interaction(bo, options={}), "") == []
    status = await run(world, tree, bo, "game status")
    assert "**Artillery markers (face down):** 24A (US)" in status
    for text in [*world.public()[before:], status, *dms(bo)]:
        assert "fake" not in (text or "").lower() and "Fake" not in (text or ""), text
    await run(world, tree, ann, "field adjust", actor="1", letter="A", via="tag")
    await run(world, tree, ann, "field adjust", actor="1", letter="A", via="team")
    assert any("FAKE" in (p or "") for p in world.public()[before:]), "the reveal is shown to all"
