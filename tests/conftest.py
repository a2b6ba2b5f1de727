"""Fixtures every test folder may use: the database a test's store lives in, SQLite or PostgreSQL,
and the shipped catalogue, loaded once a session.

A test (or module) marked `both_stores` runs once per store, `[sqlite]` and `[postgres]`; a test
that asks for `store_url` otherwise gets an SQLite file. `postgres_dsn` is a fresh database on a
throwaway PostgreSQL cluster (tests/pg.py), started once per test process; without server
binaries the PostgreSQL runs are skipped, saying so.
"""
from __future__ import annotations

import asyncio
import importlib.util
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from engine import Catalog, load_catalog
from tests.pg import SKIP_REASON, Cluster, server_binaries

STORE_KINDS = ("sqlite", pytest.param("postgres", marks=pytest.mark.postgres))


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if ("store_kind" in metafunc.fixturenames and metafunc.definition.get_closest_marker("both_stores")
            and not metafunc.definition.get_closest_marker("sqlite_only")):
        metafunc.parametrize("store_kind", STORE_KINDS, indirect=True)


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Cluster]:
    bindir = server_binaries()
    if bindir is None:
        pytest.skip(SKIP_REASON)
    if importlib.util.find_spec("asyncpg") is None:
        pytest.skip("asyncpg is not installed: pip install -e '.[test]'")
    cluster = Cluster(bindir)
    try:
        cluster.start()
        asyncio.run(cluster.make_template())
    except BaseException:
        cluster.stop()
        raise
    yield cluster
    cluster.stop()


@pytest.fixture
async def postgres_dsn(postgres_cluster: Cluster) -> AsyncIterator[str]:
    """A migrated, empty database for this test (tests/pg.py: recycled between tests)."""
    name = await postgres_cluster.take_database()
    yield postgres_cluster.dsn(name)
    await postgres_cluster.give_back(name)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "fieldpost.db"


@pytest.fixture
def store_kind(request: pytest.FixtureRequest) -> str:
    return getattr(request, "param", "sqlite")


@pytest.fixture
def store_url(store_kind: str, db_path: Path, request: pytest.FixtureRequest) -> str:
    """What FIELDPOST_DB would say for this test's database: the SQLite file, or a PostgreSQL DSN."""
    if store_kind == "postgres":
        return request.getfixturevalue("postgres_dsn")
    return str(db_path)


@pytest.fixture(scope="session")
def shipped() -> Catalog:
    """The shipped catalogue (assets/, campaigns/), loaded once a session: it takes seconds."""
    return load_catalog()
