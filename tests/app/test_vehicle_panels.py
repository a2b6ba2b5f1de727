"""Vehicle panels through the use-cases: after each phase the public pictures carry the panel
of every vehicle that acted or was hit in it, once; `/panel` shows any vehicle's panel to
anyone, and an unknown plate is a plain refusal."""
from __future__ import annotations

import pytest

from bot.app import GameService, ImageRequest, Refused, Where
from engine import new_game
from engine.turn.setup import SeatSpec
from tests.app.table import ANN, BO, EVE, HERE, open_table




@pytest.fixture
def armour(store, shipped, clock) -> GameService:
    """The service over the shipped catalogue, whose scenarios bring vehicles and guns."""
    return GameService(store, shipped, clock=clock, seed=lambda: 7)


async def play(service: GameService, where: Where, commands: int):
    """Each awaited player plans his first legal placement or carries out his first legal
    action (passing only when nothing else is left); yields (Replies, state after)."""
    seats = {0: ANN, 1: BO}
    for _ in range(commands):
        waiting = await service.waiting(ANN, where)
        if not waiting:
            return
        caller = seats[waiting[0].seat]
        options = await service.options(caller, where)
        line = next((o for o in options if o not in ("pass", "done")), options[0])
        r = await service.command(caller, where, line)
        yield r, await service.load_state(r.game_id)


async def test_each_phase_posts_the_panels_of_the_vehicles_in_it_once(armour):
    gid = (await open_table(armour, scenario="vautrin-crossroads")).game_id
    where = Where(channel_id=HERE.channel_id, game_id=gid)
    finished = None  # the (turn, phase) whose panels were last posted
    posted = []
    async for r, st in play(armour, where, 90):
        panels = [i for i in r.images if i.kind == "panel"]
        boards = [i for i in r.images if i.kind == "board"]
        if not boards:
            assert not panels  # panels only come beside a board
            continue
        if st.last_trail_phase != finished:  # a phase has just ended
            finished = st.last_trail_phase
            assert [i.plate for i in panels] == st.last_panels
            posted.extend(panels)
        else:  # the board again at card placement: the phase's panels are not repeated
            assert panels == []
    assert len(posted) >= 3 and {i.plate for i in posted} >= {601, 701}
    for i in posted:
        assert i.public and i.view.mine is None
        assert i.view.vehicles and any(v.plate == i.plate for v in i.view.vehicles)
        assert i.caption.startswith(f"Game #{gid} — ") and f"({i.plate}) after turn" in i.caption


async def test_panel_shows_any_vehicle_to_anyone_as_the_public_picture(armour):
    await open_table(armour, scenario="vautrin-crossroads")
    for caller in (ANN, BO, EVE):  # seated on either side, or watching
        r = await armour.panel(caller, HERE, 701)
        (image,) = r.ephemeral_images
        assert (image.kind, image.plate, image.seat) == ("panel", 701, None)
        assert image.view.mine is None
        assert r.ephemeral[0].startswith("**PzKw IV Ausf. H** (701, DE) — on 11B facing S, turret S")
        assert "Ready: AP 6, HE 5, HEAT 2" in r.ephemeral[0] and "in breach: AP" in r.ephemeral[0]


async def test_an_unknown_plate_is_refused_with_the_plates_there_are(armour):
    await open_table(armour, scenario="vautrin-crossroads")
    with pytest.raises(Refused) as refused:
        await armour.panel(ANN, HERE, 999)
    assert str(refused.value) == ("No vehicle or gun has plate 999 in game #1. Plates: 601 (M4A1 Sherman (75 mm)), "
                                  "602 (M8 Greyhound armoured car), 701 (PzKw IV Ausf. H), "
                                  "702 (Sd.Kfz. 250/1 half-track).")


async def test_a_game_without_vehicles_says_so(service):
    await open_table(service)  # the farmyard: infantry only
    with pytest.raises(Refused, match="This game has no vehicles or guns"):
        await service.panel(ANN, HERE, 601)


async def test_plates_are_suggested_for_panel(armour):
    await open_table(armour, scenario="vautrin-crossroads")
    pairs = await armour.suggest(EVE, HERE, "plate", "70")
    assert [value for _, value in pairs][:2] == ["701", "702"]
    assert pairs[0][0].startswith("701 PzKw IV Ausf. H (DE, board)")


def test_a_panel_request_is_public_by_construction(shipped):
    st = new_game(shipped, "vautrin-crossroads", [SeatSpec(name="Ann", side="US"), SeatSpec(name="Bo", side="DE")],
                  seed=1)[0]
    with pytest.raises(ValueError, match="public"):
        ImageRequest("panel", st, plate=701, seat=0)
    assert ImageRequest("panel", st, plate=701).view.mine is None
