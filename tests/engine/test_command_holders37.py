"""`commands.as_read` compares a command read last with what it held then: every field value by
identity, and the items of the fields that may hold a list or a dict (`commands._holders`, read
from the models' annotations). Held here to pydantic's own view of each model (its JSON schema:
an array or an object), so a field that may hold a list or dict is never left out of the items
compared."""
from __future__ import annotations

from typing import get_args

from engine.core import commands as C


def _containers(schema: dict, defs: dict) -> bool:
    if "$ref" in schema:
        return _containers(defs[schema["$ref"].rsplit("/", 1)[-1]], defs)
    if schema.get("type") in ("array", "object"):
        return schema.get("type") == "object" or "prefixItems" not in schema  # a tuple is an array of fixed items
    return any(_containers(s, defs) for s in schema.get("anyOf", ()))


def test_the_fields_compared_item_by_item_are_those_pydantic_validates_as_lists_or_dicts():
    models = get_args(get_args(C.Command)[0])
    assert len(models) > 50
    for cls in models:
        schema = cls.model_json_schema()
        defs = schema.get("$defs", {})
        expected = tuple(name for name, prop in schema["properties"].items() if _containers(prop, defs))
        assert C._holders(cls) == expected, cls.__name__


def test_a_list_changed_in_place_after_reading_is_seen():
    cmd = C.parse_command("plan 101-C1 - 104-C2 +2=108-P1:move", seat=0)
    assert C.as_read(cmd)
    cmd.cards.append("X")
    assert not C.as_read(cmd)
    cmd = C.parse_command("plan 101-C1 - 104-C2 +2=108-P1:move", seat=0)
    cmd.declare["108-P1"] = "fire"
    assert not C.as_read(cmd)
    cmd = C.parse_command("move 101 12A:cover", seat=0)
    assert C.as_read(cmd)
    object.__setattr__(cmd, "tile", "12B")
    assert not C.as_read(cmd)
