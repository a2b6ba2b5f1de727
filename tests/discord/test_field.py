"""/field (issue 9) on mocked interactions around the tank duel: each command is the script line
of its BATTLEFIELD_GRAMMAR verb and goes by the same use-case as /act; a refused or mistyped
command gets an ephemeral reason, never a traceback; artillery kinds and letters are suggested
from the caller's own secrets only."""
from __future__ import annotations

import pytest

from engine.core.views import ArtilleryCallView, Mine
from engine.script import parse_line
from tests.discord.conftest import command, said
from tests.discord.test_vehicles import duel, people, run  # noqa: F401 (fixtures)


@pytest.mark.parametrize("path, options, script", [
    ("field assail", {"soldier": "1", "plate": "902", "part": "turret"}, "assail 1 902 turret"),
    ("field assail", {"soldier": "1", "plate": "902", "part": "hull", "grenade": True}, "assail 1 902 hull grenade"),
    ("field call", {"actor": "1", "kind": "mortar-81", "tile": "43a"}, "call 1 mortar-81 43A"),
    ("field call", {"actor": "1", "kind": "mortar-81", "tile": "43A", "fake": True}, "call 1 mortar-81 43A fake"),
    ("field adjust", {"actor": "1", "letter": "b", "via": "tag"}, "tag adjust 1 B"),
    ("field adjust", {"actor": "1", "letter": "b", "order": "60,1", "via": "team"}, "team adjust 1 B order 60 1"),
    ("field barrage", {"kind": "rockets", "turn": 3, "tile": "L5A"}, "barrage rockets 3 L5A"),
    ("field popsmoke", {"actor": "901", "via": "team"}, "team popsmoke 901"),
    ("field handoff", {"soldier": "1", "item": "radio", "to": "60"}, "handoff 1 radio 60"),
    ("field recover", {"soldier": "1", "item": "bazooka", "via": "note"}, "note recover 1 bazooka"),
    ("field recover", {"soldier": "1", "plate": "902"}, "recover 1 902"),
    ("field climb", {"soldier": "1", "plate": "902"}, "climb 1 902"),
    ("field climb", {"soldier": "1", "plate": "902", "turret": True, "via": "tag"}, "tag climb 1 902 turret"),
    ("field laymines", {"actor": "901", "tile": "43a", "tokens": "at+gp", "via": "team"}, "team laymines 901 43A at+gp"),
    ("field clearmines", {"soldier": "1", "tile": "42a"}, "clearmines 1 42A"),
])
async def test_a_field_command_is_the_script_line_of_its_verb(world, tree, adapter, duel, path, options, script):
    given = []
    real = adapter.service.command

    async def spy(caller, where, text, **kw):
        given.append(text)
        return await real(caller, where, text, **kw)

    adapter.service.command = spy
    it = world.interaction(duel[0], options=options)
    await command(tree, path).callback(it, **options)
    state = await adapter.service.load_state(1)
    assert parse_line(state, given[0], 0) == parse_line(state, script, 0)
    assert said(it)  # whatever the engine says, the caller is told something, privately


async def test_a_mistyped_field_command_is_told_why_privately(world, tree, duel):
    ann, _ = duel
    told = await run(world, tree, ann, "field assail", soldier="1", plate="tiger", part="hull")
    assert "the vehicle's plate must be a dog tag number, not 'tiger'" in told
    told = await run(world, tree, ann, "field recover", soldier="1")
    assert "either the item to search for or the plate" in told
    told = await run(world, tree, ann, "field adjust", actor="Nobody", letter="A")
    assert told and "Traceback" not in told
    assert not any("tiger" in (p or "") for p in world.public())


async def test_an_engine_refusal_or_fault_never_shows_a_traceback(world, tree, adapter, duel):
    ann, _ = duel
    told = await run(world, tree, ann, "field barrage", kind="rockets", turn=2, tile="43A")
    assert told and "Traceback" not in told and "File \"" not in told
    st = await adapter.service.load_state(1)
    assert "went wrong on our side" in told or "Done:" in told or st is not None  # a refusal, a done line, or the apology


async def test_kinds_and_letters_are_suggested_from_his_own_mine(world, tree, adapter, duel, monkeypatch):
    """Nothing legal yet: the caller's ordnance and calls (his own Mine) fill the menus; the other
    player gets his own, never Ann's."""
    ann, bo = duel
    import bot.app.suggest as suggest_mod
    real = suggest_mod.private_view

    def fake(st, seat):
        m = real(st, seat)
        if seat == 0:
            return m.model_copy(update={
                "ordnance": ["mortar-81", "mortar-81", "howitzer-105"],
                "artillery": [ArtilleryCallView(letter="Q", kind="mortar-81", tile="43A", rows_left=2, fake=False,
                                                caller=1),
                              ArtilleryCallView(letter="Z", kind="mortar-81", tile="41A", rows_left=3, fake=True)]})
        return m

    monkeypatch.setattr(suggest_mod, "private_view", fake)
    kinds = await command(tree, "field call")._params["kind"].autocomplete(world.interaction(ann, options={}), "")
    assert [c.value for c in kinds] == ["mortar-81", "howitzer-105"]
    letters = await command(tree, "field adjust")._params["letter"].autocomplete(
        world.interaction(ann, options={}), "")
    assert [c.value for c in letters] == ["Q", "Z"]
    assert "43A" in letters[0].name and "2 rows to On Target" in letters[0].name and "Fake" in letters[1].name
    theirs = await command(tree, "field adjust")._params["letter"].autocomplete(
        world.interaction(bo, options={}), "")
    assert theirs == []
    assert isinstance(real(await adapter.service.load_state(1), 0), Mine)


async def test_the_order_of_draws_suggests_the_men_he_sees_in_a_tile_one_sight_from_on_target(
        world, tree, adapter, duel, monkeypatch):
    """/field adjust order: the men on foot in the tile of one of his calls one Sight from On
    Target, one by one and all together; nothing for a call further off, nothing for Bo."""
    ann, bo = duel
    import bot.app.suggest as suggest_mod
    real = suggest_mod.private_view
    st = await adapter.service.load_state(1)
    men = [s for s in st.soldiers.values() if s.status == "board" and s.at is not None]
    tile = st.board.tile_at(men[0].at)
    here = sorted(s.serial for s in men if st.board.tile_at(s.at) == tile)

    def with_call(rows: int):
        def fake(st, seat):
            m = real(st, seat)
            if seat == 0:
                return m.model_copy(update={"artillery": [ArtilleryCallView(
                    letter="Q", kind="mortar-81", tile=tile, rows_left=rows, fake=False, caller=1)]})
            return m
        return fake

    order = command(tree, "field adjust")._params["order"].autocomplete
    monkeypatch.setattr(suggest_mod, "private_view", with_call(1))
    got = [c.value for c in await order(world.interaction(ann, options={}), "")]
    assert got[:len(here)] == [str(s) for s in here]
    assert (got[len(here):] == [",".join(map(str, here))]) if len(here) > 1 else got == [str(here[0])]
    assert await order(world.interaction(bo, options={}), "") == []
    monkeypatch.setattr(suggest_mod, "private_view", with_call(2))
    assert await order(world.interaction(ann, options={}), "") == []
