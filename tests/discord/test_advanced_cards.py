"""The advanced cards on mocked interactions: `/plan extra:` places an officer's extra card,
`/act react` plays a react card when the game asks, `/game always-pass` is the engine's
setting, and the react card never shows in the channel before it is played."""
from __future__ import annotations

import pytest

from engine.position import load_position
from tests.app.test_advanced_cards import OFFICER, PLAYERS, REACT
from tests.discord.conftest import command, dms, said


@pytest.fixture
def people(world):
    return world.add_user(11, "Ann"), world.add_user(22, "Bo")


async def set_position(world, tree, adapter, store, cat, people, give: dict[int, list[str]], position) -> None:
    """Game #1 on the range, set to `position` at card placement (specialists' cards added)."""
    ann, bo = people
    await command(tree, "game new").callback(world.interaction(ann), scenario="range", side="US")
    await command(tree, "game join").callback(world.interaction(bo), side="DE")
    await command(tree, "game start").callback(world.interaction(ann))
    service = adapter.service
    st, _ = load_position(cat, {"scenario": "range", "players": PLAYERS, "seed": 1, **position})
    for seat, cards in give.items():
        next(f for f in st.forces.values() if f.seat == seat).hand.extend(cards)
    g = await store.load_game(1)
    await service._keep_setup(st)
    await store.commit(1, g.version, service._codec.dumps(st), [])
    service._forget(1)


async def run(world, tree, who, path: str, **options) -> str:
    it = world.interaction(who, options=options)
    await command(tree, path).callback(it, **options)
    return said(it)


async def test_plan_extra_places_an_officers_extra_card(world, tree, adapter, store, cat, people):
    ann, bo = people
    await set_position(world, tree, adapter, store, cat, people, {}, OFFICER)
    told = await run(world, tree, ann, "plan", phase1="1-C2", phase2="1-C3", phase3="1-C4", extra="1=20-C2")
    assert told.startswith("Done: `plan 1-C2 1-C3 1-C4 +1=20-C2`")
    assert "1 extra" in world.public()[-1] and not any("20-C2" in p for p in world.public())
    await run(world, tree, bo, "plan", phase1="4-C1", phase2="4-C4", phase3="4-P1")
    assert any("20-C2" in p for p in world.public())  # revealed with Avery's card


async def test_act_react_answers_the_window_and_always_pass_is_a_game_command(world, tree, adapter, store, cat,
                                                                              people):
    ann, bo = people
    await set_position(world, tree, adapter, store, cat, people, {0: ["21-X1"], 1: ["22-X2"]}, REACT)
    told = await run(world, tree, bo, "game always-pass", setting="on")
    assert "alwayspass on" in told
    assert (await adapter.service.load_state(1)).seats[1].always_pass
    await run(world, tree, ann, "plan", phase1="1-C3", phase2="1-C4", phase3="1-C1")
    await run(world, tree, bo, "plan", phase1="23-C1", phase2="23-C4", phase3="23-P1")
    for _ in range(20):  # everybody takes the default until Lind's MOVE card is in play
        st = await adapter.service.load_state(1)
        if st.active is not None and st.active.card == "23-C1":
            break
        from engine import awaiting
        from engine.legal import default_command
        w = awaiting(st)[0]
        await adapter.service.command(adapter.caller(world.interaction((ann, bo)[w.seat])),
                                      adapter.where(world.interaction((ann, bo)[w.seat]), None),
                                      str(default_command(st, w.seat)))
    await run(world, tree, bo, "act move", soldier="23", to="26A", via="team")
    assert any("/act react" in d and "21-X1" in d for d in dms(ann))
    assert not any("21-X1" in p for p in world.public())
    told = await run(world, tree, ann, "act react", card="21-X1")
    assert told.startswith("Done: `react 21-X1`")
    assert any("plays a react card: 21-X1" in p for p in world.public())
