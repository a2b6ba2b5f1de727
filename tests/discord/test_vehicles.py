"""/vehicle and /plan deck: on mocked interactions around the tank duel (a squad and a tank a
side, tests/fixtures/positions/tank-duel.yaml): each command is the script line of its verb,
options are suggested from the legal commands with the crewman and his vehicle named, each
deck's hand comes by DM, crew actions name the man and his tank in the reply, and a refused or
mistyped command gets an ephemeral reason, never a traceback."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from engine.position import load_position
from engine.script import parse_line
from tests.discord.conftest import CHANNEL, command, dms, said

DUEL = Path(__file__).resolve().parents[1] / "fixtures" / "positions" / "tank-duel.yaml"


@pytest.fixture
def people(world):
    return world.add_user(11, "Ann"), world.add_user(22, "Bo")


@pytest.fixture
async def duel(world, tree, adapter, store, cat, people):
    """Game #1 on the motor map, set to the tank duel at card placement."""
    ann, bo = people
    await command(tree, "game new").callback(world.interaction(ann), scenario="motor", side="US")
    await command(tree, "game join").callback(world.interaction(bo), side="DE")
    await command(tree, "game start").callback(world.interaction(ann))
    service = adapter.service
    st, _ = load_position(cat, yaml.safe_load(DUEL.read_text(encoding="utf-8")))
    g = await store.load_game(1)
    await service._keep_setup(st)
    await store.commit(1, g.version, service._codec.dumps(st), [])
    service._forget(1)
    return ann, bo


async def run(world, tree, who, path: str, **options) -> str:
    it = world.interaction(who, options=options)
    await command(tree, path).callback(it, **options)
    return said(it)


async def place_all(world, tree, ann, bo) -> None:
    await run(world, tree, ann, "plan", phase1="1-C1", phase2="1-C3", phase3="1-C2", deck="squad")
    await run(world, tree, ann, "plan", phase1="901-V1", phase2="60-C3", phase3="901-V2", deck="901")
    await run(world, tree, bo, "plan", phase1="4-C1", phase2="4-C3", phase3="4-C2")
    await run(world, tree, bo, "plan", phase1="902-V5", phase2="902-V3", phase3="902-V1", deck="902")


async def test_plan_places_for_the_deck_named_and_the_hand_lists_each_deck(world, tree, duel):
    ann, _ = duel
    told = await run(world, tree, ann, "plan", phase1="901-V1", phase2="60-C3", phase3="901-V2", deck="901")
    assert told.startswith("Done: `plan for US-1-901 901-V1 60-C3 901-V2` — for Test Sherman 901.")
    assert any("You placed: phase 1: 901-V1, phase 2: 60-C3, phase 3: 901-V2." in d for d in dms(ann))
    assert world.public()[-1].startswith("Ann places 3 cards face down.")
    assert not any("901-V1" in p for p in world.public())
    desk = await run(world, tree, ann, "hand")
    assert "**Your hand, squad** (`US-1`):" in desk and "**Your hand, Test Sherman 901** (`US-1-901`): empty" in desk
    assert "**Placed, Test Sherman 901:** P1 `901-V1` Track wreck (MOVE, Test Sherman 901)" in desk
    told = await run(world, tree, ann, "plan", phase1="1-C1", phase2="1-C3", phase3="1-C2", deck="tiger")
    assert "not one of your decks: US-1, US-1-901" in told


async def test_plan_suggests_the_decks_and_the_cards_of_the_deck_chosen(world, tree, duel):
    ann, _ = duel
    plan = command(tree, "plan")
    decks = await plan._params["deck"].autocomplete(world.interaction(ann, options={}), "")
    assert [(c.name, c.value) for c in decks] == [("squad — 3 cards in hand, to place", "squad"),
                                                  ("Test Sherman 901 — 3 cards in hand, to place", "901")]
    cards = await plan._params["phase1"].autocomplete(world.interaction(ann, options={"deck": "901"}), "")
    assert [c.value for c in cards] == ["901-V1"]


@pytest.mark.parametrize("path, options, script", [
    ("vehicle move", {"actor": "901", "to": "43A", "road": True, "via": "tag"}, "tag vmove 901 43A road"),
    ("vehicle move", {"actor": "901", "to": "41A back"}, "vmove 901 41A back"),
    ("vehicle turn", {"actor": "63", "direction": "se"}, "vturn 63 se"),
    ("vehicle turret", {"actor": "901", "direction": "n"}, "turret 901 n"),
    ("vehicle moveplus", {"actor": "901"}, "moveplus 901"),
    ("vehicle moveplus", {"actor": "901", "double": True, "via": "team"}, "team moveplusplus 901"),
    ("vehicle unpin", {"actor": "901", "via": "note"}, "note unpin 901"),
    ("vehicle fire", {"actor": "61", "weapon": "coax", "target": "902"}, "fire 61 coax 902"),
    ("vehicle load", {"actor": "62", "ammo": "HE"}, "load 62 HE"),
    ("vehicle load", {"actor": "901"}, "load 901"),
    ("vehicle acquire", {"actor": "901", "target": "4"}, "acquire 901 4"),
    ("vehicle unbutton", {"crewman": "Abbott"}, "unbutton 60"),
    ("vehicle button", {"crewman": "60", "via": "team"}, "team button 60"),
    ("vehicle hulldown", {"actor": "901"}, "hulldown 901"),
    ("vehicle cover", {"actor": "901"}, "vcover 901"),
    ("vehicle mount", {"soldier": "1", "plate": "901", "post": "loader"}, "mount 1 901 loader"),
    ("vehicle dismount", {"soldier": "64"}, "dismount 64"),
    ("vehicle shift", {"crewman": "64", "post": "radio"}, "shift 64 radio"),
    ("vehicle repair", {"crewman": "63", "location": "engine"}, "repair 63 engine"),
    ("vehicle extinguish", {"crewman": "62", "location": "ready_ammo"}, "extinguish 62 ready_ammo"),
])
async def test_a_vehicle_command_is_the_script_line_of_its_verb(world, tree, adapter, duel, path, options, script):
    given = []
    real = adapter.service.command

    async def spy(caller, where, text, **kw):
        given.append(text)
        return await real(caller, where, text, **kw)

    adapter.service.command = spy
    await command(tree, path).callback(world.interaction(duel[0]), **options)
    state = await adapter.service.load_state(1)
    assert parse_line(state, given[0], 0) == parse_line(state, script, 0)


async def test_drive_unbutton_and_fire_name_the_crewman_and_his_tank(world, tree, adapter, duel):
    ann, bo = duel
    await place_all(world, tree, ann, bo)
    told = await run(world, tree, ann, "vehicle move", actor="901", to="43A road", via="tag")
    assert told.startswith("Done: `tag vmove 901 43A road` — Test Sherman 901: drive to 43A along the road [tag].")
    assert any("Pvt. Dunn drives the Test Sherman 901: it moves 42A -> 43A along the road" in p for p in world.public())
    for who in (bo, ann, bo):
        await run(world, tree, who, "act pass")
    told = await run(world, tree, ann, "vehicle unbutton", crewman="Abbott", via="tag")
    assert told.startswith("Done: `tag unbutton 60` — Pvt. Abbott (60, Test Sherman 901): open his hatch [tag].")
    assert any("Pvt. Abbott opens his hatch on the Test Sherman 901." in p for p in world.public())
    await run(world, tree, bo, "act sight", soldier="902", via="tag")
    for who in (ann, bo, ann):  # phase 3: the Sherman could pop smoke (a SHOOT); it holds it
        await run(world, tree, who, "act pass")
    told = await run(world, tree, bo, "vehicle fire", actor="902", weapon="main", target="901", via="tag")
    assert "Test Panzer 902: fire the 7.5 cm KwK 40 at Test Sherman 901 [tag]" in told
    assert any("fires the Test Panzer 902's 7.5 cm KwK 40" in p for p in world.public())
    await run(world, tree, ann, "act shoot", soldier="1", target="902", via="tag")
    for who in (ann, bo):  # the turn ends; the next one deals each deck its cards, by DM
        await run(world, tree, who, "act pass")
    dealt = [d for d in dms(ann) if "**Your hand, Test Sherman 901** (`US-1-901`)" in d]
    assert dealt and "**Your hand, squad** (`US-1`)" in dealt[-1]
    assert not any("Test Panzer 902** (`DE-2-902`)" in d for d in dms(ann))
    st = await adapter.service.load_state(1)
    hands = {c for f in st.forces.values() for c in f.hand}
    assert hands
    for post in world.public():  # a card's id goes public only when it is revealed
        for line in post.splitlines():
            assert not [c for c in hands if c in line], line


async def test_vehicle_options_suggest_what_the_engine_would_take(world, tree, duel):
    ann, bo = duel
    await place_all(world, tree, ann, bo)
    move = command(tree, "vehicle move")
    actors = await move._params["actor"].autocomplete(world.interaction(ann, options={}), "")
    assert [(c.name, c.value) for c in actors] == [("Test Sherman 901", "901")]
    tiles = await move._params["to"].autocomplete(world.interaction(ann, options={"actor": "901"}), "")
    assert ("43A along the road (Test Sherman 901)", "43A road") in [(c.name, c.value) for c in tiles]
    assert 0 < len(tiles) <= 25 and all(len(c.name) <= 100 for c in tiles)
    shift = command(tree, "vehicle shift")
    crew = await shift._params["crewman"].autocomplete(world.interaction(ann, options={}), "abb")
    assert [(c.name, c.value) for c in crew] == [("Pvt. Abbott (60, Test Sherman 901)", "60")]
    fire = command(tree, "vehicle fire")
    weapons = await fire._params["weapon"].autocomplete(world.interaction(bo, options={"actor": "902"}), "")
    assert {c.value for c in weapons} == {"main", "bow", "coax"}
    loads = await command(tree, "vehicle load")._params["ammo"].autocomplete(
        world.interaction(ann, options={"actor": "901"}), "")
    assert loads == []  # nothing to load now: no suggestion rather than a wrong one


async def test_a_refused_or_mistyped_vehicle_command_is_told_only_to_its_giver(world, tree, duel):
    ann, bo = duel
    await place_all(world, tree, ann, bo)
    before = len(world.public())
    told = await run(world, tree, bo, "vehicle fire", actor="902", weapon="main", target="901")
    assert "waiting for Ann" in told and "Traceback" not in told
    told = await run(world, tree, ann, "vehicle turn", actor="Zeppelin", direction="n")
    assert "no soldier called 'Zeppelin'" in told
    told = await run(world, tree, ann, "vehicle fire", actor="901", weapon="flamethrower", target="902")
    assert told and "Traceback" not in told and not told.startswith("Done")
    assert len(world.public()) == before  # nothing changed, nothing posted
    assert world.channels[CHANNEL].send.await_count == before
