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
import os
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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under xdist, the modules marked `slow` go to the front of the workers' shares, dealt in turn.
    `--dist worksteal` (pyproject) hands worker i the i-th contiguous share of the collection and
    lets an idle worker take tests from the *end* of another's queue: a long autoplay queued late
    would be taken last and end the run alone (measured: the battlefield suite started at 1,322 s
    of 1,322), and all of them at one worker's front would make a chain longer than the rest."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if workers < 2:
        return
    slow: dict[str, list[pytest.Item]] = {}
    rest: list[pytest.Item] = []
    for item in items:
        if item.get_closest_marker("slow"):
            slow.setdefault(item.nodeid.split("::")[0], []).append(item)  # a module stays together
        else:
            rest.append(item)
    fronts: list[list[pytest.Item]] = [[] for _ in range(workers)]
    for k, module in enumerate(slow.values()):
        fronts[k % workers] += module
    ordered: list[pytest.Item] = []
    for i, front in enumerate(fronts):
        share = (len(items) - len(ordered)) // (workers - i)  # what worksteal sends worker i
        fill = max(0, share - len(front))
        ordered += front + rest[:fill]
        rest = rest[fill:]
    items[:] = ordered + rest


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
