"""Fixtures for every test directory (a directory's own conftest may override them)."""
from __future__ import annotations

import pytest

from engine import Catalog, load_catalog


@pytest.fixture(scope="session")
def shipped() -> Catalog:
    """The shipped catalogue (assets/, campaigns/), loaded once a session: it takes seconds."""
    return load_catalog()
