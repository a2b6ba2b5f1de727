"""Content is read with libyaml's loader when PyYAML has it: it must read every content file
exactly as the pure-Python loader does, and a broken file is still refused by name."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from engine.core import content
from engine.core.errors import ContentError

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(p for top in ("assets", "campaigns", "tests/fixtures") for p in (ROOT / top).rglob("*.yaml"))


def test_content_is_read_with_libyaml_when_pyyaml_has_it():
    assert content.SAFE_LOADER is (yaml.CSafeLoader if yaml.__with_libyaml__ else yaml.SafeLoader)


@pytest.mark.skipif(not yaml.__with_libyaml__, reason="PyYAML built without libyaml")
def test_both_loaders_read_every_content_file_alike():
    assert len(FILES) > 30
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        assert yaml.load(text, Loader=yaml.CSafeLoader) == yaml.load(text, Loader=yaml.SafeLoader), path


def test_a_broken_file_is_refused_naming_it(tmp_path):
    bad = tmp_path / "orders.yaml"
    bad.write_text("orders:\n  - id: a\n   title: [unclosed\n", encoding="utf-8")
    with pytest.raises(ContentError, match=r"orders\.yaml: not valid YAML"):
        content._read_yaml(bad)
