"""Vehicles through the use-cases: a seat with a squad and a tank places for each deck, drives,
opens a hatch and fires; the prompts, suggestions and confirmations name the crewman and his
vehicle; each deck's hand travels privately and no vehicle hand shows in public. Then whole
games of the shipped vehicle scenarios played by scripted players, with no exception and no
leak."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from bot.app import GameService, Refused, Where
from bot.store import GameStatus
from engine.position import load_position
from tests.app.players import play_randomly
from tests.app.table import ANN, BO, HERE, open_table
from tests.app.test_secrets import Watch, found, secrets_of

DUEL = Path(__file__).resolve().parents[1] / "fixtures" / "positions" / "tank-duel.yaml"
US_HANDS = {"US-1": ["1-C1", "1-C2", "1-C3"], "US-1-901": ["901-V1", "901-V2", "60-C3"]}
DE_HANDS = {"DE-2": ["4-C1", "4-C2", "4-C3"], "DE-2-902": ["902-V5", "902-V1", "902-V3"]}


async def duel_table(service: GameService, store, cat) -> int:
    """The tank duel (tests/fixtures/positions/tank-duel.yaml) set on a table of Ann (US, a
    squad and the Test Sherman 901) and Bo (DE, a squad and the Test Panzer 902), at placement."""
    gid = (await open_table(service, scenario="motor")).game_id
    st, _ = load_position(cat, yaml.safe_load(DUEL.read_text(encoding="utf-8")))
    g = await store.load_game(gid)
    await service._keep_setup(st)  # set the table by hand
    await store.commit(gid, g.version, service._codec.dumps(st), [])
    service._forget(gid)
    return gid


async def placed(service: GameService) -> list:
    """Both players place for both their decks; every Replies, in order."""
    return [await service.plan(ANN, HERE, ["1-C1", "1-C3", "1-C2"], deck="squad"),
            await service.plan(ANN, HERE, ["901-V1", "60-C3", "901-V2"], deck="901"),
            await service.command(BO, HERE, "plan 4-C1 4-C3 4-C2"),
            await service.command(BO, HERE, "plan for panzer 902-V5 902-V3 902-V1")]


async def test_each_deck_is_asked_for_its_own_placement_and_named(service, store, cat):
    await duel_table(service, store, cat)
    (ask,) = (await service.prompts_for(ANN, HERE)).prompts
    assert "Now for **your squad** (deck `US-1`)" in ask.text and "1-C1" in ask.text and "901-V1" not in ask.text
    assert all(c.label.startswith("your squad: P1") for c in ask.choices)
    r = await service.plan(ANN, HERE, ["1-C1", "1-C3", "1-C2"], deck="squad")
    assert r.public == ["Ann places 3 cards face down."]
    assert r.ephemeral[0].startswith("Done: `plan for US-1 1-C1 1-C3 1-C2` — for your squad.")
    (ask,) = r.prompts  # the same decision kind, but now for her tank: asked afresh
    assert ask.user_id == ANN.user_id and ask.kind == "place"
    assert "Now for **Test Sherman 901** (deck `US-1-901`)" in ask.text and "/plan deck:901" in ask.text
    assert "`901-V1` Track wreck (MOVE, Test Sherman 901)" in ask.text and "1-C1" not in ask.text
    assert ask.choices and all(c.label.startswith("Test Sherman 901: P1") for c in ask.choices)
    r = await service.plan(ANN, HERE, ["901-V1", "60-C3", "901-V2"], deck="901")
    assert r.ephemeral[0].startswith("Done: `plan for US-1-901 901-V1 60-C3 901-V2` — for Test Sherman 901.")
    assert [p.text for p in r.private] == ["You placed: phase 1: 901-V1, phase 2: 60-C3, phase 3: 901-V2."]
    assert not any(found(c, r.public_text()) for c in US_HANDS["US-1-901"])


async def test_a_deck_that_is_not_yours_is_refused_with_the_decks_you_have(service, store, cat):
    await duel_table(service, store, cat)
    with pytest.raises(Refused, match="not one of your decks: US-1, US-1-901"):
        await service.plan(ANN, HERE, ["1-C1", "1-C3", "1-C2"], deck="902")


async def test_the_hand_lists_each_deck_apart_and_only_to_its_player(service, store, cat):
    await duel_table(service, store, cat)
    (desk,) = (await service.hand(ANN, HERE)).ephemeral
    squad, tank = (line for line in desk.splitlines() if line.startswith("**Your hand"))
    assert squad.startswith("**Your hand, squad** (`US-1`):") and all(c in squad for c in US_HANDS["US-1"])
    assert tank.startswith("**Your hand, Test Sherman 901** (`US-1-901`):")
    assert all(c in tank for c in US_HANDS["US-1-901"]) and "(MOVE, Test Sherman 901)" in tank
    assert not any(c in desk for cards in DE_HANDS.values() for c in cards)


async def test_a_tank_drives_a_crewman_unbuttons_and_a_tank_fires(service, store, cat):
    gid = await duel_table(service, store, cat)
    replies = await placed(service)
    r = await service.command(ANN, HERE, "tag vmove 901 43A road")
    replies.append(r)
    assert "Pvt. Dunn drives the Test Sherman 901: it moves 42A -> 43A along the road (1 square), facing E." in r.public
    assert r.ephemeral[0].startswith(
        "Done: `tag vmove 901 43A road` — Test Sherman 901: drive to 43A along the road [tag].")
    for line in ("pass", "pass"):
        replies.append(await service.command(BO if len(replies) % 2 else ANN, HERE, line))
    replies.append(await service.command(BO, HERE, "pass"))
    r = await service.command(ANN, HERE, "tag unbutton 60")
    replies.append(r)
    assert "Pvt. Abbott opens his hatch on the Test Sherman 901." in r.public
    assert r.ephemeral[0].startswith(
        "Done: `tag unbutton 60` — Pvt. Abbott (60, Test Sherman 901): open his hatch [tag].")
    replies.append(await service.command(BO, HERE, "tag sight 902"))
    replies.append(await service.command(ANN, HERE, "pass"))
    r = await service.command(BO, HERE, "pass")
    replies.append(r)
    assert any("Phase 3" in line for line in r.public)
    replies.append(await service.command(ANN, HERE, "pass"))  # the Sherman could pop smoke (a SHOOT); it holds it
    fires = await service.suggest(BO, HERE, "soldier", verb="fire")
    assert ("Test Panzer 902", "902") in fires
    weapons = await service.suggest(BO, HERE, "weapon", soldier="902")
    assert ("main — the 7.5 cm KwK 40", "main") in weapons
    targets = await service.suggest(BO, HERE, "target", verb="fire", soldier="902")
    assert ("Test Sherman 901", "901") in targets
    assert ("Pvt. Abbott (60, Test Sherman 901)", "60") in targets  # his open hatch exposes him
    r = await service.command(BO, HERE, "tag fire 902 main 901")
    replies.append(r)
    assert any(line.startswith("Schtz. Brandt fires the Test Panzer 902's 7.5 cm KwK 40") for line in r.public)
    assert r.ephemeral[0].startswith(
        "Done: `tag fire 902 main 901` — Test Panzer 902: fire the 7.5 cm KwK 40 at Test Sherman 901 [tag].")
    st = await service.load_state(gid)
    assert st.vehicles[901].tile == "43A" and "commander" in st.vehicles[901].unbuttoned
    assert st.vehicles[901].damage  # the KwK found something in the turret
    public = "\n".join(x.public_text() for x in replies)
    for cards in (US_HANDS, DE_HANDS):  # placed face down: only the reveal may name them
        for deck in cards.values():
            for c in deck:
                assert found(c, public) == (f"reveals {c}" in public), c


async def test_vehicle_suggestions_name_the_crewman_and_his_vehicle(service, store, cat):
    await duel_table(service, store, cat)
    assert await service.suggest(ANN, HERE, "deck") == [
        ("squad — 3 cards in hand, to place", "squad"), ("Test Sherman 901 — 3 cards in hand, to place", "901")]
    cards = await service.suggest(ANN, HERE, "card", phase=0, deck="901")
    assert [v for _, v in cards] == ["901-V1"]
    assert cards[0][0] == "901-V1 Track wreck (MOVE, Test Sherman 901)"
    await placed(service)
    drives = await service.suggest(ANN, HERE, "drive", soldier="901")
    assert ("43A along the road (Test Sherman 901)", "43A road") in drives
    assert ("41A in reverse (Test Sherman 901)", "41A back") in drives
    assert await service.suggest(ANN, HERE, "soldier", verb="vmove") == [("Test Sherman 901", "901")]
    # nothing legal for the verb now: his vehicles and the men aboard, to type a command
    crew = await service.suggest(ANN, HERE, "soldier", verb="shift")
    assert ("Pvt. Abbott (60, Test Sherman 901)", "60") in crew and ("Test Sherman 901", "901") not in crew
    posts = await service.suggest(ANN, HERE, "post", verb="mount", plate="901")
    assert posts == []  # every crew post is taken


async def test_the_act_prompt_of_a_vehicle_card_points_to_the_vehicle_commands(service, store, cat):
    await duel_table(service, store, cat)
    replies = await placed(service)
    (ask,) = [p for p in replies[-1].prompts if p.user_id == ANN.user_id]
    assert ask.kind == "act" and "The card is for the **Test Sherman 901**" in ask.text
    assert "`/vehicle move|turn|turret|fire|load" in ask.text


# ------------------------------------------------------------------ whole games, shipped content




@pytest.mark.parametrize("scenario, seed", [("chapel-gun", 4), ("vautrin-crossroads", 2), ("mill-road-gun", 3)])
async def test_a_whole_vehicle_game_through_the_use_cases_raises_nothing_and_leaks_nothing(
        store, shipped, clock, scenario, seed):
    service = GameService(store, shipped, clock=clock, seed=lambda: seed)
    start = await open_table(service, scenario=scenario)
    seats = {0: ANN, 1: BO}
    watch = Watch(service, start.game_id, seats)
    await watch(start)
    where = Where(channel_id=HERE.channel_id, game_id=start.game_id)
    kinds: set[str] = set()

    async def seen(r):
        await watch(r)
        for line in r.ephemeral:
            if line.startswith("Done: `"):
                words = line.split("`")[1].split()
                kinds.add(words[1] if words[0] in ("tag", "team", "note") else words[0])

    n = await play_randomly(service, seats, where, random.Random(seed), limit=4000, seen=seen, undo=0.1)
    assert (await store.load_game(start.game_id)).status == GameStatus.FINISHED
    assert n >= 50 and watch.leaks == []
    assert kinds & {"vmove", "vturn", "fire", "unbutton", "turret", "load", "dismount", "moveplus"}
    st = await service.load_state(start.game_id)
    assert all(s for s in secrets_of(st).values())
