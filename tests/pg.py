"""A throwaway PostgreSQL for the tests: `initdb` in a temporary directory, the server started
with `pg_ctl` listening only on a Unix socket in that directory (no TCP port, so no port to
collide with), one database per test copied from a migrated template, and the whole cluster
stopped and removed at the end.

Copying the template (CREATE DATABASE … TEMPLATE) costs 50 ms on an idle machine and up to
0.7 s on a busy one; emptying a used database costs about 10 ms. So a test's database is
handed back after the test, emptied (every row deleted, the id sequences restarted, other
connections cut) and handed to the next test, but only if its schema is still exactly the
template's; one whose schema a test changed is dropped. A test that needs a database of its own
to change (migrations) asks `create_database(migrated=False)`.

The server refuses to run as root, and CI runs as root: then `initdb` and `pg_ctl` run as an
unprivileged user through `runuser` (the `postgres` user the Debian package makes, else
`nobody`), in a directory given to that user; the tests connect over the socket as the
cluster's superuser `fieldpost` (trust authentication, only this machine's socket).
Each process (each pytest-xdist worker) starts its own cluster, so workers share nothing.

A test run killed outright (SIGKILL, a CI timeout) never stops its clusters: `pg_ctl` left the
servers running on their own. So each cluster's directory names the process that made it (a
file `owner`), and a new cluster first stops and removes every other whose owner is gone
(`sweep_orphans`). A directory without that file (being made just now, or by older code) is
left alone.
"""
from __future__ import annotations

import itertools
import os
import pwd
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

SKIP_REASON = "no PostgreSQL server binaries (initdb, pg_ctl) found; .ci/run installs them"
SUPERUSER = "fieldpost"
TEMPLATE = "fieldpost_template"
_DEBIAN_BINARIES = Path("/usr/lib/postgresql")
_UNPRIVILEGED = ("postgres", "nobody")
# Throwaway data: no fsync, and no TCP listener at all.
_SERVER_OPTIONS = (
    "-c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    " -c max_connections=200 -c shared_buffers=32MB"
)


def server_binaries() -> Path | None:
    """The directory holding initdb, pg_ctl and postgres: from PATH, else the newest of
    /usr/lib/postgresql/*/bin (Debian's place, which is not on PATH); None if there is none."""
    candidates = []
    if (initdb := shutil.which("initdb")) is not None:
        candidates.append(Path(initdb).resolve().parent)
    versions = sorted(_DEBIAN_BINARIES.glob("*/bin"),
                      key=lambda p: [int(n) for n in re.findall(r"\d+", p.parent.name)], reverse=True)
    candidates.extend(versions)
    for directory in candidates:
        if all((directory / name).is_file() for name in ("initdb", "pg_ctl", "postgres")):
            return directory
    return None


def _run_as() -> str | None:
    """The unprivileged user to run the server as when we are root; None when we are not."""
    if os.geteuid() != 0:
        return None
    for name in _UNPRIVILEGED:
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        return name
    raise RuntimeError("running as root, and there is no 'postgres' or 'nobody' user to run PostgreSQL as")


PREFIX = "fieldpost-pg-"
OWNER = "owner"  # in a cluster's directory: the id of the process that made it


def _temp_parent() -> str | None:
    # A short path: a Unix socket's path must stay under about 100 bytes.
    return "/tmp" if os.path.isdir("/tmp") else None


def alive(pid: int) -> bool:
    """Whether process `pid` runs: it exists and is not a zombie waiting to be reaped (a killed
    test run whose parent has not reaped it yet is gone; so is a stopped server, whose parent is
    the machine's first process)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        pass
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:  # no /proc: take its word that it exists
        return True
    return stat.rpartition(")")[2].split()[0] != "Z"


def _server_alive(data: Path) -> bool:
    """Whether the server whose process id its data directory's lock file names still runs (a
    crashed one leaves the file behind)."""
    try:
        pid = int((data / "postmaster.pid").read_text().split("\n", 1)[0])
    except (OSError, ValueError):
        return False
    return alive(pid)


def sweep_orphans(bindir: Path, parent: Path | None = None) -> list[Path]:
    """Stop the server of, and remove, every cluster directory under `parent` (the temporary
    directory) whose owner process is gone; the ones removed. A server that will not stop is
    left to the next sweep, and another process sweeping the same orphan at the same moment is
    harmless."""
    parent = Path(parent or _temp_parent() or tempfile.gettempdir())
    user = _run_as()
    removed = []
    for root in parent.glob(f"{PREFIX}*"):
        try:
            owner = int((root / OWNER).read_text())
        except (OSError, ValueError):  # no owner yet, or not ours to judge
            continue
        if owner == os.getpid() or alive(owner):
            continue
        data = root / "data"
        if (data / "postmaster.pid").exists():
            prefix = [] if user is None else ["runuser", "-u", user, "--"]
            try:
                stopped = subprocess.run([*prefix, str(bindir / "pg_ctl"), "stop", "-s", "-D", str(data), "-m",
                                          "immediate"], check=False, capture_output=True, timeout=60,
                                         cwd=parent).returncode == 0
            except (OSError, subprocess.SubprocessError):
                stopped = False
            if not stopped and _server_alive(data):
                continue  # it would not stop: its directory stays for the next sweep
        shutil.rmtree(root, ignore_errors=True)
        removed.append(root)
    return removed


class Cluster:
    """One running PostgreSQL server in its own directory; `dsn(name)` reaches database `name`.
    Made, it first sweeps away the clusters that killed test runs left running (`sweep_orphans`)."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.user = _run_as()
        sweep_orphans(bindir)
        self.root = Path(tempfile.mkdtemp(prefix=PREFIX, dir=_temp_parent()))
        (self.root / OWNER).write_text(str(os.getpid()))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self._names = itertools.count(1)
        self._free: list[str] = []  # emptied databases, ready for the next test
        self._fingerprint: str | None = None  # the template's schema
        if self.user is not None:
            os.chown(self.root, pwd.getpwnam(self.user).pw_uid, -1)

    def _command(self, *argv: str | Path) -> None:
        prefix = [] if self.user is None else ["runuser", "-u", self.user, "--"]
        done = subprocess.run([*prefix, *map(str, argv)], check=False, cwd=self.root, capture_output=True, text=True,
                              timeout=120, env={**os.environ, "LC_ALL": "C", "LANG": "C"})
        if done.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise RuntimeError(f"{argv[0]} failed ({done.returncode}): {done.stderr.strip()}\n{log}")

    def start(self) -> Cluster:
        self._command(self.bindir / "initdb", "-D", self.data, "-U", SUPERUSER, "--auth=trust",
                      "-E", "UTF8", "--no-locale", "--no-sync", "--no-instructions")
        self._command(self.bindir / "pg_ctl", "start", "-w", "-s", "-D", self.data, "-l", self.log,
                      "-o", f"{_SERVER_OPTIONS} -c unix_socket_directories='{self.root}'")
        return self

    def stop(self) -> None:
        """Stop the server at once (the data is thrown away) and remove its directory."""
        try:
            if (self.data / "postmaster.pid").exists():
                self._command(self.bindir / "pg_ctl", "stop", "-s", "-D", self.data, "-m", "immediate")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def dsn(self, database: str) -> str:
        return f"postgresql://{SUPERUSER}@/{database}?host={self.root}"

    def new_name(self) -> str:
        return f"test_{os.getpid()}_{next(self._names)}"

    async def create_database(self, *, migrated: bool = True) -> str:
        """A new database, a copy of the migrated template (or empty: template0); its name."""
        import asyncpg

        name = self.new_name()
        conn = await asyncpg.connect(self.dsn("postgres"))
        try:
            await conn.execute(f'CREATE DATABASE "{name}" TEMPLATE {TEMPLATE if migrated else "template0"}')
        finally:
            await conn.close()
        return name

    async def drop_database(self, name: str) -> None:
        import asyncpg

        conn = await asyncpg.connect(self.dsn("postgres"))
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await conn.close()

    async def take_database(self) -> str:
        """A migrated, empty database for one test: an emptied one if any, else a new copy."""
        return self._free.pop() if self._free else await self.create_database()

    async def give_back(self, name: str) -> None:
        """Empty the database and keep it for the next test, or drop it if its schema changed."""
        import asyncpg

        conn = await asyncpg.connect(self.dsn(name))
        try:
            await conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                               " WHERE datname = current_database() AND pid <> pg_backend_pid()")
            if await _fingerprint(conn) != self._fingerprint:
                reusable = False
            else:
                await conn.execute(await _emptying(conn))
                reusable = True
        finally:
            await conn.close()
        if reusable:
            self._free.append(name)
        else:
            await self.drop_database(name)

    async def make_template(self) -> None:
        """The template every test's database copies: migrated once, so a test pays only a copy."""
        import asyncpg

        from bot.store.postgres import PostgresStore

        conn = await asyncpg.connect(self.dsn("postgres"))
        try:
            await conn.execute(f"CREATE DATABASE {TEMPLATE} TEMPLATE template0")
        finally:
            await conn.close()
        async with PostgresStore(self.dsn(TEMPLATE)):
            pass
        conn = await asyncpg.connect(self.dsn(TEMPLATE))
        try:
            self._fingerprint = await _fingerprint(conn)
        finally:
            await conn.close()


async def _fingerprint(conn) -> str:
    """The schema of a database in one string: its relations, columns, triggers and version."""
    return await conn.fetchval(
        "SELECT concat_ws('|',"
        " (SELECT string_agg(c.relname || ':' || c.relkind::text, ',' ORDER BY c.relname) FROM pg_class c"
        "  WHERE c.relnamespace = 'public'::regnamespace),"
        " (SELECT string_agg(attrelid::regclass || '.' || attname || ':' || atttypid::regtype, ','"
        "         ORDER BY attrelid::regclass::text, attnum) FROM pg_attribute a"
        "  JOIN pg_class c ON c.oid = a.attrelid AND c.relnamespace = 'public'::regnamespace"
        "  AND c.relkind = 'r' WHERE attnum > 0 AND NOT attisdropped),"
        " (SELECT string_agg(tgname || ':' || tgenabled::text, ',' ORDER BY tgname) FROM pg_trigger"
        "  WHERE NOT tgisinternal),"
        " (SELECT version::text FROM schema_version))")


async def _emptying(conn) -> str:
    """The statements that delete every row (triggers off, so the logs' guards let go) and
    restart the id sequences, leaving the schema version alone."""
    tables = await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
                              " AND tablename <> 'schema_version'")
    sequences = await conn.fetch("SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'")
    return ("SET session_replication_role = replica;"
            + "".join(f'DELETE FROM "{t}";' for (t,) in tables)
            + "".join(f'ALTER SEQUENCE "{q}" RESTART;' for (q,) in sequences)
            + "RESET session_replication_role;")
