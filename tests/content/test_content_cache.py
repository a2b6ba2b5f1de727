"""The shipped content's parsed YAML is kept between runs (engine/core/content_cache.py): a
warm load gives the catalogue a fresh one gives, a changed file is read again, and a cache
that is damaged, foreign or cannot be written is passed over without a word."""
from __future__ import annotations

import hashlib
import marshal
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

from engine.core import content, content_cache
from engine.core.content_cache import ParsedTree, cache_dir

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def shipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the content standing in for the shipped one, its cache in a folder of the test's
    own; each `load()` below is then what a new process does."""
    root = tmp_path / "content"
    for part in ("assets", "campaigns"):
        shutil.copytree(REPO / part, root / part, ignore=shutil.ignore_patterns("fonts", "help"))
    monkeypatch.setattr(content, "shipped_root", lambda: root)
    monkeypatch.delenv("FIELDPOST_HOME", raising=False)
    monkeypatch.setenv("FIELDPOST_CACHE", str(tmp_path / "cache"))
    return root


def new_process(read):
    """What `read()` gives in a new process (the per-process copies forgotten before and after)."""
    content._shipped.cache_clear()
    content._shipped_tree.cache_clear()
    try:
        return read()
    finally:
        content._shipped.cache_clear()
        content._shipped_tree.cache_clear()


def load() -> content.Catalog:
    return new_process(content.load_catalog)


def cache_file() -> Path:
    (found,) = cache_dir().glob("content-*.marshal")
    return found


def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files PyYAML is asked to parse from now on."""
    seen: list[str] = []
    real = yaml.load

    def counting(text, Loader):
        seen.append(text[:40])
        return real(text, Loader=Loader)

    monkeypatch.setattr(yaml, "load", counting)
    return seen


def test_a_warm_load_parses_nothing_and_equals_a_fresh_load(shipped, monkeypatch):
    cold = load()
    assert cache_file().stat().st_size > 0
    seen = parses(monkeypatch)
    warm = load()
    assert seen == []
    assert warm == cold == content._load(shipped)  # the last: no cache at all


def test_scenario_ids_come_from_the_cache_too(shipped, monkeypatch):
    load()
    seen = parses(monkeypatch)
    ids = new_process(content.scenario_ids)
    assert seen == []
    assert ids == sorted(content._load(shipped).scenarios)


def test_a_changed_file_is_read_again_and_only_it(shipped, monkeypatch):
    load()
    us = shipped / "assets" / "soldiers" / "us.yaml"
    text = us.read_text(encoding="utf-8")
    first = load().soldiers[101].name
    us.write_text(text.replace(f"name: {first}", "name: Zebulon", 1), encoding="utf-8")
    seen = parses(monkeypatch)
    assert load().soldiers[101].name == "Zebulon"
    assert len(seen) == 1
    assert load().soldiers[101].name == "Zebulon"  # and the cache now holds the new bytes
    assert len(seen) == 1


def test_a_removed_file_leaves_the_cache(shipped):
    load()
    extra = shipped / "campaigns" / "scenarios" / "hedgerow-dawn.yaml"
    copy = extra.with_name("another-dawn.yaml")
    copy.write_text(extra.read_text(encoding="utf-8").replace("id: hedgerow-dawn", "id: another-dawn", 1),
                    encoding="utf-8")
    assert "another-dawn" in load().scenarios
    copy.unlink()
    assert "another-dawn" not in load().scenarios
    tree = ParsedTree(shipped)
    assert "campaigns/scenarios/another-dawn.yaml" not in tree.entries
    assert "campaigns/scenarios/hedgerow-dawn.yaml" in tree.entries


@pytest.mark.parametrize("damage", [
    lambda blob: b"",
    lambda blob: blob[: len(blob) // 2],  # torn
    lambda blob: blob[:-10] + bytes(10),  # bytes changed: the digest no longer matches
    lambda blob: blob.replace(b"cpython", b"pypy-xx", 1),  # another Python's
    lambda blob: b"\x00\xff" * 500,
], ids=["empty", "torn", "flipped", "foreign", "noise"])
def test_a_damaged_or_foreign_cache_is_passed_over_and_rewritten(shipped, damage):
    fresh = load()
    path = cache_file()
    good = path.read_bytes()
    path.write_bytes(damage(good))
    assert load() == fresh
    assert ParsedTree(shipped).entries  # written again, whole


def test_damaged_data_under_a_good_digest_is_passed_over(shipped):
    """Even a cache whose digest matches but whose entries are not what this code writes."""
    fresh = load()
    tree = ParsedTree(shipped)
    for payload in (marshal.dumps([1, 2]), marshal.dumps({"assets/orders.yaml": "x"}),
                    marshal.dumps({"assets/orders.yaml": (b"digest", b"\x00not marshal")})):
        cache_file().write_bytes(content_cache.MAGIC + tree.key + b"\n" + hashlib.sha256(payload).digest() + payload)
        assert load() == fresh


def test_an_unwritable_cache_changes_nothing(shipped, tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("FIELDPOST_CACHE", str(blocker / "cache"))  # mkdir fails, even for root
    fresh = content._load(shipped)
    assert load() == fresh
    assert load() == fresh
    assert not list(tmp_path.glob("**/*.part"))


def test_no_home_to_cache_in_changes_nothing(shipped, monkeypatch):
    monkeypatch.delenv("FIELDPOST_CACHE")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)

    def no_home() -> Path:
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.setattr(Path, "home", no_home)
    assert cache_dir() is None
    assert load() == content._load(shipped)


def test_a_custom_root_is_not_cached(tmp_path, monkeypatch):
    root = tmp_path / "home"
    for part in ("assets", "campaigns"):
        shutil.copytree(REPO / part, root / part, ignore=shutil.ignore_patterns("fonts", "help"))
    monkeypatch.setenv("FIELDPOST_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("FIELDPOST_HOME", str(root))
    assert content.load_catalog().scenarios
    assert content.scenario_ids()
    assert not (tmp_path / "cache").exists()


def test_the_cache_folder_follows_xdg_and_fieldpost_cache(monkeypatch, tmp_path):
    monkeypatch.delenv("FIELDPOST_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "fieldpost"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/path")  # the XDG spec says: ignore it
    assert cache_dir() == Path.home() / ".cache" / "fieldpost"
    monkeypatch.setenv("FIELDPOST_CACHE", str(tmp_path / "own"))
    assert cache_dir() == tmp_path / "own"


def test_what_marshal_cannot_hold_is_parsed_each_time_and_copies_are_fresh(tmp_path, monkeypatch):
    monkeypatch.setenv("FIELDPOST_CACHE", str(tmp_path / "cache"))
    (tmp_path / "dated.yaml").write_text("day: 1944-06-06\n", encoding="utf-8")
    (tmp_path / "plain.yaml").write_text("orders: [{id: a}]\n", encoding="utf-8")
    tree = ParsedTree(tmp_path)
    dated = content._read_yaml(tmp_path / "dated.yaml", tree)
    assert str(dated["day"]) == "1944-06-06"
    tree.save()
    again = ParsedTree(tmp_path)
    assert again.entries == {}  # nothing was kept, so nothing was written
    content._read_yaml(tmp_path / "plain.yaml", again)
    again.save()
    warm = ParsedTree(tmp_path)
    assert set(warm.entries) == {"plain.yaml"}
    one = content._read_yaml(tmp_path / "plain.yaml", warm)
    one["orders"].append("changed by a loader")
    assert content._read_yaml(tmp_path / "plain.yaml", warm) == {"orders": [{"id": "a"}]}
    assert content._read_yaml(tmp_path / "dated.yaml", warm) == dated


def test_another_pyyaml_is_another_cache(shipped, monkeypatch, tmp_path):
    """The key tells the PyYAML installed without importing it (a warm start imports none): its
    `__init__.py` (its version) and its files (libyaml's extension or not)."""
    fake = tmp_path / "site" / "yaml"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("__version__ = '6.0.4'\n", encoding="utf-8")
    monkeypatch.setattr(content_cache.importlib.util, "find_spec",
                        lambda name: SimpleNamespace(origin=str(fake / "__init__.py")))
    keys = [ParsedTree(shipped).key]
    (fake / "__pycache__").mkdir()  # its first import compiles it: still the same PyYAML
    assert ParsedTree(shipped).key == keys[0]
    (fake / "__init__.py").write_text("__version__ = '6.0.5'\n", encoding="utf-8")
    keys.append(ParsedTree(shipped).key)
    (fake / "_yaml.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    keys.append(ParsedTree(shipped).key)
    assert len(set(keys)) == 3
    fresh = load()
    seen = parses(monkeypatch)
    (fake / "_yaml.cpython-311-x86_64-linux-gnu.so").unlink()
    assert load() == fresh
    assert len(seen) > 30  # every file parsed again under the other PyYAML
