"""Battlefield secrets on Discord (issue 9): a player's artillery letters, faces, barrage plan and
mine kinds reach him alone (his /hand, his DMs); the channel and `/game status` show markers and
tokens face down only. The engine's views are given the secrets by hand (tests/app/battlefield_views)."""
from __future__ import annotations

import pytest

import bot.app.prompts as prompts_mod
import bot.app.service as service_mod
from tests.app.battlefield_views import leaks, public_fields, secret_mine
from tests.discord.conftest import dms
from tests.discord.test_vehicles import duel, people, place_all, run  # noqa: F401 (fixtures)


@pytest.fixture
def secrets(monkeypatch):
    """Ann (seat 0) has calls, a barrage, ordnance and minefields; the public view their faces down."""
    real_view, real_battlefield = service_mod.view, prompts_mod.private_battlefield

    def public_view(st, viewer=None):
        v = real_view(st, viewer)
        update = public_fields(tile_a="43A", tile_b="44A", plate=902)
        if v.mine is not None and v.mine.seat == 0:
            update["mine"] = secret_mine(0, v.mine, "43A", "44A")
        return v.model_copy(update=update)

    def battlefield(st, seat):  # the desk's battlefield part (its hand and orders are the state's)
        fields = real_battlefield(st, seat)
        if seat != 0:
            return fields
        secret = secret_mine(0, None, "43A", "44A")
        return {**fields, **{k: getattr(secret, k) for k in ("artillery", "barrages", "minefields", "radio",
                                                               "ordnance")}}

    monkeypatch.setattr(service_mod, "view", public_view)
    monkeypatch.setattr(prompts_mod, "private_battlefield", battlefield)


async def test_only_the_owner_reads_his_letters_plans_and_mine_kinds(world, tree, duel, secrets):
    ann, bo = duel
    mine = await run(world, tree, ann, "hand")
    assert "QQ: howitzer zeta on 43A, 2 rows to On Target" in mine and "ZV: howitzer zeta on 44A, Fake" in mine
    assert "rockets omega on 44A at the start of turn 7" in mine and "43A booby trap" in mine
    theirs = await run(world, tree, bo, "hand")
    assert leaks(theirs) == []
    status = await run(world, tree, bo, "game status")
    assert "**Artillery markers (face down):** 43A (DE), 43A (US)" in status
    assert "**Mine tokens (face down):** 43A: 2 US tokens" in status
    assert "Close combats:** 902 turret" in status
    assert leaks(status) == []
    await place_all(world, tree, ann, bo)  # cards dealt and revealed: news by DM and in the channel
    for post in world.public():
        assert leaks(post or "") == [], post
    for d in dms(bo):
        assert leaks(d) == [], d
