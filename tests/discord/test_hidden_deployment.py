"""Hidden deployment on Discord: the channel's board is drawn from the public view (markers
only), a player's /board from his own view (his hidden men in it), and /soldier about a man
hidden from the caller answers without saying where he is."""
from __future__ import annotations

from tests.discord.conftest import CHANNEL, command


class Renders:
    def __init__(self) -> None:
        self.calls = []

    async def render(self, v, kind, **kw):
        self.calls.append((kind, v))
        return b"\x89PNG\r\n\x1a\n" + b"0" * 64


async def test_the_channel_sees_markers_and_each_player_his_own_men(world, tree, adapter):
    renders = adapter.courier.renders = Renders()
    ann = world.add_user(11, "Ann")
    bo = world.add_user(22, "Bo")
    await command(tree, "game new").callback(world.interaction(ann), scenario="hidden-yard", side="US")
    await command(tree, "game join").callback(world.interaction(bo), side="DE")
    await command(tree, "game start").callback(world.interaction(ann))
    kind, public = renders.calls[-1]
    assert kind == "board" and public.mine is None and public.soldiers == []
    assert {m.side for m in public.hidden} == {"US", "DE"}
    assert world.channels[CHANNEL].send.await_args_list[-1].kwargs["files"][0].filename == "board.png"
    await command(tree, "board").callback(world.interaction(bo))
    kind, mine = renders.calls[-1]
    assert kind == "board_private" and [s.side for s in mine.mine.own_hidden] == ["DE"] * 3
    it = world.interaction(bo)
    await command(tree, "soldier").callback(it, soldier="1")  # Ann's man, hidden from Bo
    sent = " ".join(str(c) for c in it.followup.send.await_args_list + it.response.send_message.await_args_list)
    assert "not where you can see him" in sent and "Avery" not in sent
