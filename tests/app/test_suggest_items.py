"""`/act toss item:` suggests the equipment the soldier may use now, from the legal `use` lines."""
from bot.app import suggest
from engine.core import commands as C
from engine.turn.setup import SeatSpec, new_game


def test_items_are_those_of_the_legal_use_commands_for_that_soldier(cat):
    st, _ = new_game(cat, "equipment-range", [SeatSpec(name="Ann", side="US"), SeatSpec(name="Bo", side="DE")], 1)
    cmds = [C.UseCmd(seat=0, serial=40, item="smoke-grenade", at=(3, 4)),
            C.UseCmd(seat=0, serial=40, item="smoke-grenade", at=(5, 4)),
            C.UseCmd(seat=0, serial=41, item="rifle-grenade", target=7),
            C.Pass(seat=0)]
    assert [v for _, v in suggest.items(st, cmds, "40")] == ["smoke-grenade"]
    assert [v for _, v in suggest.items(st, cmds, None)] == ["smoke-grenade", "rifle-grenade"]
    label = suggest.items(st, cmds, "41")[0][0]
    assert label.startswith("rifle-grenade — ") and st.setup.equipment["rifle-grenade"].name in label
    assert suggest.items(st, [C.Pass(seat=0)], "40") == []
