"""What the courier sends where: pictures from the right view, messages within Discord's
sizes, private news never in the channel, threads archived when a game ends."""
from __future__ import annotations

import pytest

from bot.app import ImageRequest, Private, Replies
from bot.discord.text import chunks
from engine import SeatSpec, load_catalog, new_game, view
from tests.discord.conftest import CHANNEL, FIXTURE, command, said


class Renders:
    def __init__(self) -> None:
        self.calls = []

    async def render(self, v, kind, **kw):
        self.calls.append((kind, v.mine is not None, kw))
        return b"\x89PNG\r\n\x1a\n" + b"0" * 64


@pytest.fixture
def renders(adapter):
    adapter.courier.renders = Renders()
    return adapter.courier.renders


def test_chunks_keep_every_message_within_2000_characters():
    text = "\n".join(f"line {n} " + "x" * (n * 37 % 300) for n in range(200)) + "\n" + "y" * 4500
    parts = chunks(text)
    assert all(len(p) <= 2000 for p in parts) and len(parts) > 5
    assert "".join(p.replace("\n", "") for p in parts) == text.replace("\n", "")


async def test_the_public_board_is_drawn_from_the_public_view(world, tree, adapter, renders):
    ann = world.add_user(11, "Ann")
    bo = world.add_user(22, "Bo")
    await command(tree, "game new").callback(world.interaction(ann), scenario="yard", side="US")
    await command(tree, "game join").callback(world.interaction(bo), side="DE")
    await command(tree, "game start").callback(world.interaction(ann))
    assert renders.calls == [("board", False, {})]
    post = world.channels[CHANNEL].send.await_args_list[-1]
    assert post.kwargs["files"][0].filename == "board.png"
    it = world.interaction(ann)
    await command(tree, "board").callback(it)
    assert renders.calls[-1] == ("board_private", True, {})
    assert it.followup.send.await_args.kwargs["ephemeral"] is True
    it = world.interaction(bo)
    await command(tree, "soldier").callback(it, soldier="4")
    assert renders.calls[-1] == ("soldier", True, {"serial": 4})  # his own man: his view
    await command(tree, "soldier").callback(world.interaction(bo), soldier="1")
    assert renders.calls[-1] == ("soldier", False, {"serial": 1})  # Ann's man: the public view


async def test_no_renderer_means_text_only(world, adapter):
    st, _ = new_game(load_catalog(FIXTURE), "yard", [SeatSpec(name="A", side="US"), SeatSpec(name="B", side="DE")], 1)
    adapter.courier.renders = None
    r = Replies(game_id=1, channel_id=CHANNEL, public=["x"], images=[ImageRequest("board", st)])
    await adapter.courier.deliver(r)
    assert "files" not in world.channels[CHANNEL].send.await_args.kwargs


async def test_a_renderer_that_raises_costs_only_the_picture(world, adapter):
    class Broken:
        async def render(self, *a, **kw):
            raise RuntimeError("boom")

    st, _ = new_game(load_catalog(FIXTURE), "yard", [SeatSpec(name="A", side="US"), SeatSpec(name="B", side="DE")], 1)
    adapter.courier.renders = Broken()
    await adapter.courier.deliver(Replies(game_id=1, channel_id=CHANNEL, public=["x"],
                                          images=[ImageRequest("board", view(st))]))
    assert world.channels[CHANNEL].send.await_args.args[0] == "x"


async def test_long_news_is_split_and_private_news_stays_private(world, adapter):
    ann = world.add_user(11, "Ann")
    r = Replies(game_id=None, channel_id=CHANNEL, public=["public " + "p" * 150] * 40,
                private=[Private(11, 0, "secret " + "s" * 3000)])
    await adapter.courier.deliver(r)
    public = [c.args[0] for c in world.channels[CHANNEL].send.await_args_list]
    assert len(public) > 1 and all(len(p) <= 2000 for p in public)
    assert not any("secret" in p for p in public)
    private = [c.args[0] for c in ann.send.await_args_list]
    assert len(private) == 2 and all(len(p) <= 2000 for p in private)


async def test_a_finished_games_private_threads_are_archived(world, adapter, store):
    ann = world.add_user(11, "Ann")
    g = await store.create_game(guild_id=1, channel_id=CHANNEL, scenario_id="yard", organiser_id=11, state="{}")
    home = world.channels[CHANNEL]
    t = await home.create_thread(name="x")
    await store.set_private_channel(g.id, ann.id, t.id)
    await adapter.courier.deliver(Replies(game_id=g.id, channel_id=CHANNEL, public=["over"], ended=True))
    t.edit.assert_awaited_once_with(archived=True, locked=True)


async def test_a_public_message_cannot_ping_everyone(world, adapter):
    await adapter.courier.deliver(Replies(channel_id=CHANNEL, public=["@everyone look"]))
    mentions = world.channels[CHANNEL].send.await_args.kwargs["allowed_mentions"]
    assert mentions.everyone is False and mentions.roles is False


async def test_an_unreachable_channel_is_skipped(world, adapter):
    await adapter.courier.deliver(Replies(channel_id=123456, public=["lost"]))  # no exception


async def test_the_log_is_for_the_caller(world, tree, adapter):
    ann = world.add_user(11, "Ann")
    bo = world.add_user(22, "Bo")
    await command(tree, "game new").callback(world.interaction(ann), scenario="yard", side="US")
    await command(tree, "game join").callback(world.interaction(bo), side="DE")
    await command(tree, "game start").callback(world.interaction(ann))
    it = world.interaction(bo)
    await command(tree, "log").callback(it)
    assert "Since you last looked" in said(it) and "nothing new" in said(it), "his prompt at the start was a look"
    cy = world.add_user(33, "Cy")
    it = world.interaction(cy)
    await command(tree, "log").callback(it)
    assert "Since the start" in said(it) and "Turn 1 begins." in said(it)


def test_a_code_block_cut_between_messages_is_closed_and_opened_again():
    rows = [f"row {i:03d}  " + "x" * 60 for i in range(80)]
    text = "Before\n```\n" + "\n".join(rows) + "\n```\nAfter"
    parts = chunks(text)
    assert len(parts) > 2 and all(len(p) <= 2000 and p.count("```") == 2 for p in parts)
    kept = [line for p in parts for line in p.split("\n") if line != "```"]
    assert kept == ["Before", *rows, "After"]
