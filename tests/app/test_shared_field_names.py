"""A parsed state's soldiers, forces and vehicles share their class's one set of field names
(`GameState.share_field_names`, engine/core/state.py): pydantic gives every model a set of the
fields it was given, and those sets were half the memory of a parsed game that the bot keeps
(docs/app.md, Memory). Sharing must change nothing a rule or the store can see."""
from __future__ import annotations

import copy
import pickle

import pytest

from bot.app.documents import StateCodec
from engine.core.state import AllFields, SoldierState
from tests.engine.autoplay_kit import autoplayed, played_alike


def parsed(cat, scenario: str, seed: int, commands: int):
    *_, st = autoplayed(cat, scenario, seed, commands)
    codec = StateCodec()
    _, rest = codec.split(codec.dumps(st))
    return st, codec.join(st.setup, rest)


@pytest.mark.parametrize("scenario", ["hedgerow-dawn", "tardieu-bombardment"])
def test_a_parsed_game_shares_one_set_of_names_per_class_and_is_the_same_game(shipped, scenario):
    st, back = parsed(shipped, scenario, 3, 25)
    models = [*back.soldiers.values(), *back.forces.values(), *back.vehicles.values()]
    assert {type(m) for m in models} >= {SoldierState}
    for m in models:
        names = m.__pydantic_fields_set__
        if names == set(type(m).model_fields):
            assert type(names) is AllFields
            assert all(o.__pydantic_fields_set__ is names for o in models
                       if type(o) is type(m) and o.__pydantic_fields_set__ == names)
        else:  # a field the dump leaves out when empty (a vehicle's mine load): his own set, as pydantic gave it
            assert type(names) is set
    assert all(type(s.__pydantic_fields_set__) is AllFields for s in back.soldiers.values())
    assert back == st
    assert back.model_dump_json() == st.model_dump_json()


def test_a_game_plays_on_from_a_parsed_state_exactly_as_from_the_original(shipped):
    st, back = parsed(shipped, "tardieu-bombardment", 5, 20)
    played_alike(st, back, 11, 15)


def test_the_shared_set_takes_no_name_out_and_no_new_name_in(shipped):
    _, back = parsed(shipped, "hedgerow-dawn", 1, 10)
    names = next(iter(back.soldiers.values())).__pydantic_fields_set__
    before = set(names)
    for change in (lambda: names.discard("kills"), lambda: names.remove("kills"), names.clear, names.pop,
                   lambda: names.add("nonsense"), lambda: names.update(["nonsense"]),
                   lambda: names.difference_update(["kills"]), lambda: names.__isub__({"kills"})):
        with pytest.raises(TypeError, match="cannot change"):
            change()
    names.add("kills")  # what pydantic does on an assignment: a name it holds changes nothing
    names.update(["kills", "pinned"])
    assert names == before


def test_a_soldier_changed_or_copied_gets_what_pydantic_would_give_him(shipped):
    _, back = parsed(shipped, "hedgerow-dawn", 2, 10)
    serial = next(iter(back.soldiers))
    work = back.clone()
    mine = work.changing(serial)
    mine.kills += 1  # an assignment goes through the shared set untouched
    assert mine.kills == back.soldiers[serial].kills + 1
    assert mine.__pydantic_fields_set__ == set(SoldierState.model_fields)
    for other in (mine.model_copy(update={"kills": 9}), copy.deepcopy(mine), pickle.loads(pickle.dumps(mine))):
        assert type(other.__pydantic_fields_set__) is set  # its own, free to change
        assert other.__pydantic_fields_set__ == set(SoldierState.model_fields)


def test_a_soldier_given_only_some_fields_keeps_a_set_of_his_own(shipped):
    _, back = parsed(shipped, "hedgerow-dawn", 4, 10)
    serial, old = next(iter(back.soldiers.items()))
    back.soldiers[serial] = SoldierState(serial=old.serial, side=old.side, force=old.force,
                                         controller=old.controller, rank=old.rank)
    back.share_field_names()
    mine = back.soldiers[serial]
    assert type(mine.__pydantic_fields_set__) is set
    assert mine.__pydantic_fields_set__ == {"serial", "side", "force", "controller", "rank"}
    mine.kills = 2
    assert "kills" in mine.__pydantic_fields_set__
    assert "kills" in next(s for s in back.soldiers.values() if s is not mine).__pydantic_fields_set__
