"""Broken content for the tests that check a ContentError names the file, the entry and the
field: a copy of the shipped tree, one file of it changed, and the error its load raises."""
from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from engine.core.content import SAFE_LOADER, load_catalog
from engine.core.errors import ContentError
from tests.yaml_round_trip import SAFE_DUMPER

REPO = Path(__file__).resolve().parents[2]


def content_copy(tmp_path: Path) -> Path:
    root = tmp_path / "content"
    for part in ("assets", "campaigns"):
        shutil.copytree(REPO / part, root / part)
    return root


def corrupt(root: Path, rel: str, change: Callable[[dict], object]) -> Path:
    path = root / rel
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=SAFE_LOADER)
    change(data)
    path.write_text(yaml.dump(data, Dumper=SAFE_DUMPER, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def failure(root: Path) -> str:
    with pytest.raises(ContentError) as info:
        load_catalog(root)
    return str(info.value)
