"""Content is read with libyaml's loader when PyYAML has it: it must read every content file
exactly as the pure-Python loader does, and a broken file is still refused by name.

The content's own loader (`content._plain_loader()`, libyaml's with a quicker resolver and
construction for plain data) must give what libyaml's safe loader gives, value for value and
type for type, and fail where it fails with the same error: on every content file and on
generated documents full of YAML's corner cases (implicit types, tags, anchors, merge keys,
broken text)."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import content
from engine.core.errors import ContentError

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(p for top in ("assets", "campaigns", "tests/fixtures") for p in (ROOT / top).rglob("*.yaml"))
PLAIN = content._plain_loader()
SAFE = content.SAFE_LOADER


def test_content_is_read_with_libyaml_when_pyyaml_has_it():
    assert content.SAFE_LOADER is (yaml.CSafeLoader if yaml.__with_libyaml__ else yaml.SafeLoader)
    assert issubclass(PLAIN, content.SAFE_LOADER)


@pytest.mark.skipif(not yaml.__with_libyaml__, reason="PyYAML built without libyaml")
def test_both_loaders_read_every_content_file_alike():
    assert len(FILES) > 30
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        assert yaml.load(text, Loader=yaml.CSafeLoader) == yaml.load(text, Loader=yaml.SafeLoader), path


def outcome(text: str, loader: type) -> tuple[str, str]:
    """What a loader makes of `text`: the value's repr (which tells True from 1 and 1.0, and keeps
    the order of keys), or the error's type and wording."""
    try:
        return "value", repr(yaml.load(text, Loader=loader))
    except Exception as exc:  # noqa: BLE001 - the very error is what is compared
        return type(exc).__name__, str(exc)


def test_the_content_loader_reads_every_content_file_as_the_safe_loader():
    assert len(FILES) > 30
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        assert yaml.load(text, Loader=PLAIN) == yaml.load(text, Loader=SAFE), path
        assert outcome(text, PLAIN) == outcome(text, SAFE), path


def test_the_content_is_read_with_the_content_loader(tmp_path, monkeypatch):
    used = []
    real = yaml.load
    monkeypatch.setattr(yaml, "load", lambda text, Loader: used.append(Loader) or real(text, Loader=Loader))
    (tmp_path / "a.yaml").write_text("orders: [{id: a, vp: 3}]\n", encoding="utf-8")
    assert content._read_yaml(tmp_path / "a.yaml") == {"orders": [{"id": "a", "vp": 3}]}
    assert used == [PLAIN]


# scalars whose implicit type YAML 1.1 decides by their text, and tags that say it outright
SCALARS = ["yes", "No", "ON", "off", "true", "False", "y", "n", "~", "null", "Null", "NULL", "", "''", '""',
           "0", "-0", "+0", "7", "-12", "+5", "010", "0o7", "0x1F", "-0x1f", "0b101", "1_000", "0_7", "1:30",
           "-1:30:05", "190:20:30", "3.5", "-.5", "1.", "1e3", "1.5e+3", "6.8523015e+5", "1_0.5", ".inf",
           "-.Inf", "+.INF", ".nan", ".NaN", "1:20.5", "2001-12-14", "2001-12-14t21:59:43.10-05:00",
           "2001-12-14 21:59:43.10 -5", "=", "<<", "Pvt.", "2 move, 1 sight", "Miss/Hit/Hit+/Hit", "L2A",
           "109-C1", "'quoted: yes'", '"esc\\tape \\u00e9"', "é", "!!str 5", "!!int '7'", "!!float 1",
           "!!bool yes", "!!null ''", "!!str yes", "!!int 0x10", "!!float .5", "!!binary aGVsbG8=",
           "!!timestamp 2002-12-14", "!!bool maybe", "!!int x", "!custom 3", "!!python/name:os.system"]
WORDS = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=8)


def scalar() -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(SCALARS), WORDS.map(lambda w: f'"{w}"' if w.strip() != w or not w else w))


def flow(depth: int) -> st.SearchStrategy[str]:
    if depth == 0:
        return scalar()
    inner = flow(depth - 1)
    return st.one_of(
        scalar(),
        st.lists(inner, max_size=4).map(lambda xs: "[" + ", ".join(xs) + "]"),
        st.lists(st.tuples(scalar(), inner), max_size=4).map(
            lambda kv: "{" + ", ".join(f"{k}: {v}" for k, v in kv) + "}"),
        st.tuples(st.sampled_from(["!!set", "!!omap", "!!pairs", "!!seq", "!!map", "!!str"]), inner).map(" ".join),
    )


def block(depth: int, indent: int = 0) -> st.SearchStrategy[str]:
    pad = " " * indent
    if depth == 0:
        return flow(1).map(lambda v: f"{pad}{v}\n")
    inner = block(depth - 1, indent + 2)
    seq = st.lists(st.one_of(flow(1).map(lambda v: f"{pad}- {v}\n"),
                             inner.map(lambda v: f"{pad}-\n{v}")), min_size=1, max_size=4).map("".join)
    entry = st.tuples(scalar(), st.one_of(flow(2).map(lambda v: f" {v}\n"), inner.map(lambda v: "\n" + v)))
    mapping = st.lists(entry, min_size=1, max_size=4).map(lambda kv: "".join(f"{pad}{k}:{v}" for k, v in kv))
    return st.one_of(seq, mapping)


ANCHORED = [  # aliases, merge keys, '=' keys and collections as keys, which the plain path hands back
    "a: &x [1, 2]\nb: *x\n", "base: &b {x: 1, y: 2}\nmore: {<<: *b, y: 3}\n", "- &s yes\n- *s\n",
    "m: {<<: [{a: 1}, {b: 2}], c: 3}\n", "{=: 5, x: 1}\n", "? [1, 2]\n: x\n", "? {a: 1}\n: x\n", "&r [*r]\n",
    "&m {a: *m}\n", "a: *nowhere\n", "a: b: c\n", "[1, 2\n", "{a: 1, a: 2}\n", "- a\nb: c\n", "--- 1\n--- 2\n",
    "%YAML 1.1\n--- !!str 3\n", "\t- tab\n", "a: !!python/object:os.system {}\n", "- @x\n",
]


@given(st.one_of(block(3), flow(3).map(lambda v: v + "\n"), st.sampled_from(ANCHORED),
                 st.tuples(st.sampled_from(ANCHORED), block(2)).map("".join)))
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_the_content_loader_reads_any_document_as_the_safe_loader(text):
    assert outcome(text, PLAIN) == outcome(text, SAFE)


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | WORDS,
                    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(
                        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | WORDS,
                        kids, max_size=4), max_leaves=20),
       st.sampled_from([None, True, False]))
@settings(max_examples=200, deadline=None)
def test_the_content_loader_reads_dumped_data_as_the_safe_loader(data, flow_style):
    text = yaml.safe_dump(data, default_flow_style=flow_style, allow_unicode=True, sort_keys=False)
    assert outcome(text, PLAIN) == outcome(text, SAFE)


@given(st.one_of(st.sampled_from(SCALARS), WORDS), st.tuples(st.booleans(), st.booleans()))
@settings(max_examples=300, deadline=None)
def test_a_scalars_tag_kept_per_text_is_the_resolvers_answer(text, implicit):
    """The first answer for a text is kept (the memo) and every later one must still be PyYAML's."""
    ours, theirs = PLAIN(""), SAFE("")
    try:
        for _ in range(2):
            assert ours.resolve(yaml.ScalarNode, text, implicit) == theirs.resolve(yaml.ScalarNode, text, implicit)
        for kind in (yaml.SequenceNode, yaml.MappingNode):
            assert ours.resolve(kind, None, implicit[0]) == theirs.resolve(kind, None, implicit[0])
    finally:
        ours.dispose()
        theirs.dispose()


def test_an_alias_is_the_same_object_and_a_deep_nesting_is_read_as_pyyaml_reads_it():
    shared = yaml.load("a: &x [1, 2]\nb: *x\n", Loader=PLAIN)
    assert shared == {"a": [1, 2], "b": [1, 2]} and shared["a"] is shared["b"]
    loop = yaml.load("&r [*r]\n", Loader=PLAIN)
    assert loop[0] is loop
    # up to and beyond Python's recursion limit (the plain walk recurses, PyYAML's constructor does
    # not: a walk too deep is built again by it) and libyaml's nesting limit (1,000)
    for depth in (*range(100, 1000, 100), 990, 3000):
        text = "[" * depth + "1" + "]" * depth
        assert outcome(text, PLAIN) == outcome(text, SAFE), depth


def test_a_broken_file_is_refused_naming_it(tmp_path):
    bad = tmp_path / "orders.yaml"
    bad.write_text("orders:\n  - id: a\n   title: [unclosed\n", encoding="utf-8")
    with pytest.raises(ContentError, match=r"orders\.yaml: not valid YAML"):
        content._read_yaml(bad)
