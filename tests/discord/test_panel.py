"""`/panel plate:<int>`: a vehicle's panel as an ephemeral picture, a plain reason for a plate
that is not in the game, and the panels posted with the board after a phase."""
from __future__ import annotations

import pytest

from bot.app import GameService, ImageRequest, Replies
from bot.app.campaign import CampaignService
from bot.discord.adapter import Adapter
from bot.discord.courier import Courier
from bot.render.service import RenderService
from engine import new_game
from engine.turn.setup import SeatSpec
from tests.discord.conftest import CHANNEL, command, said, wired


@pytest.fixture
def renders():
    svc = RenderService()
    yield svc
    svc.close()


@pytest.fixture
def armoured(shared_tree, store, shipped, world, renders):
    """The bot over the shipped catalogue (vehicle scenarios), drawing real pictures."""
    service = GameService(store, shipped, seed=lambda: 7)
    adapter = Adapter(service, Courier(world.client, service, renders=renders))
    world.client.adapter = adapter
    with wired(adapter, CampaignService(store, shipped)):
        yield shared_tree


async def open_vautrin(world, tree):
    ann, bo = world.add_user(11, "Ann"), world.add_user(22, "Bo")
    await command(tree, "game new").callback(world.interaction(ann), scenario="vautrin-crossroads", side="US")
    await command(tree, "game join").callback(world.interaction(bo), side="DE")
    await command(tree, "game start").callback(world.interaction(ann))
    return ann, bo


def files_sent(it) -> list:
    return [f for c in it.followup.send.await_args_list for f in c.kwargs.get("files", [])]


async def test_panel_answers_with_the_vehicles_picture_only_to_the_caller(world, armoured):
    await open_vautrin(world, armoured)
    eve = world.add_user(99, "Eve")  # not seated: the panels are public
    it = world.interaction(eve)
    await command(armoured, "panel").callback(it, plate=701)
    assert said(it).startswith("**PzKw IV Ausf. H** (701, DE)")
    (picture,) = files_sent(it)
    assert picture.filename == "panel-701.png"
    assert picture.fp.read(8) == b"\x89PNG\r\n\x1a\n"


async def test_an_unknown_plate_gets_a_plain_reason_and_no_traceback(world, armoured):
    ann, _ = await open_vautrin(world, armoured)
    it = world.interaction(ann)
    await command(armoured, "panel").callback(it, plate=999)
    told = said(it)
    assert "No vehicle or gun has plate 999" in told and "701 (PzKw IV Ausf. H)" in told
    assert "Traceback" not in told and files_sent(it) == []


async def test_panel_in_a_game_without_vehicles_says_so(world, tree):
    ann, bo = world.add_user(11, "Ann"), world.add_user(22, "Bo")
    await command(tree, "game new").callback(world.interaction(ann), scenario="yard", side="US")
    await command(tree, "game join").callback(world.interaction(bo), side="DE")
    await command(tree, "game start").callback(world.interaction(ann))
    it = world.interaction(ann)
    await command(tree, "panel").callback(it, plate=601)
    assert "has no vehicles or guns" in said(it)


async def test_the_panels_go_out_with_the_board_after_a_phase(world, shipped, renders, store):
    st = new_game(shipped, "vautrin-crossroads", [SeatSpec(name="Ann", side="US"), SeatSpec(name="Bo", side="DE")],
                  seed=1)[0]
    service = GameService(store, shipped)
    courier = Courier(world.client, service, renders=renders)
    r = Replies(game_id=1, channel_id=CHANNEL, public=["Phase 2 ends."],
                images=[ImageRequest("board", st), ImageRequest("panel", st, plate=701),
                        ImageRequest("panel", st, plate=602)])
    await courier.post_public(r)
    (post,) = world.channels[CHANNEL].send.await_args_list
    assert [f.filename for f in post.kwargs["files"]] == ["board.png", "panel-701.png", "panel-602.png"]

