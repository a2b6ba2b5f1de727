from __future__ import annotations

import pytest

from bot.store import GameStore
from tests.store.sample import GUILD

pytestmark = pytest.mark.both_stores


async def test_settings_round_trip_as_json_per_scope(store: GameStore) -> None:
    guild = f"guild:{GUILD}"
    assert await store.get_setting(guild, "deadline_hours") is None
    assert await store.get_setting(guild, "deadline_hours", 48) == 48

    await store.set_setting(guild, "deadline_hours", 24)
    await store.set_setting(guild, "roles", {"organiser": [1, 2], "big": 2**62})
    await store.set_setting("game:7", "deadline_hours", 12)

    assert await store.get_setting(guild, "deadline_hours", 48) == 24
    assert await store.settings(guild) == {
        "deadline_hours": 24, "roles": {"organiser": [1, 2], "big": 2**62}
    }
    assert await store.settings("game:7") == {"deadline_hours": 12}
    assert await store.settings("user:1") == {}


async def test_a_setting_is_overwritten_or_deleted(store: GameStore) -> None:
    await store.set_setting("user:1", "dm", True)
    await store.set_setting("user:1", "dm", False)
    assert await store.get_setting("user:1", "dm") is False
    await store.set_setting("user:1", "note", None)
    assert await store.settings("user:1") == {"dm": False, "note": None}
    await store.delete_setting("user:1", "dm")
    await store.delete_setting("user:1", "never-set")
    assert await store.settings("user:1") == {"note": None}
