"""A Registered Fire order's guns come in on the turn it names if an operator with a radio, or a
field telephone (equipment of kind radio), is alive and free; without one, nothing falls."""
import pytest

from engine.core.log import Ctx
from engine.infantry import orders


def _game(position, item):
    players = [{"name": "Ann", "side": "US", "order": "T-FIRE"}, {"name": "Bo", "side": "DE"}]
    kit = {"equipment": [item]} if item else {}
    st = position(scenario="hazards-farm", players=players,
                  soldiers=[{"serial": 1, "seat": 0, "at": [3, 2], "facing": "e", **kit},
                            {"serial": 4, "seat": 1, "at": [27, 2], "facing": "w"}])
    st.turn = 2
    return st


@pytest.mark.parametrize("item", ["radio", "field-telephone"])
def test_the_guns_fall_on_the_named_turn_when_an_operator_can_call_them(position, item):
    st = _game(position, item)
    ctx = Ctx(st)
    orders.turn_start(ctx)
    assert st.seats[0].order_done
    assert any("Registered artillery" in e.text for e in ctx.events)


def test_without_a_radio_or_telephone_the_guns_stay_silent(position):
    st = _game(position, None)
    ctx = Ctx(st)
    orders.turn_start(ctx)
    assert not st.seats[0].order_done
    assert not any("Registered artillery" in e.text for e in ctx.events)
