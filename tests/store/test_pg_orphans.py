"""The tests' throwaway PostgreSQL clusters (tests/pg.py) do not pile up: a test run killed
outright leaves its server running, and the next cluster made stops it and removes its
directory, while every cluster whose owner still runs, or whose owner is not yet written,
is left alone."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.pg import OWNER, PREFIX, alive, server_binaries, sweep_orphans

ROOT = Path(__file__).resolve().parents[2]


def _dead_pid() -> int:
    """The id of a process that has ended (and been reaped)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def _cluster_dir(parent: Path, name: str, owner: int | None) -> Path:
    root = parent / f"{PREFIX}{name}"
    (root / "data").mkdir(parents=True)
    if owner is not None:
        (root / OWNER).write_text(str(owner))
    return root


def test_a_directory_whose_owner_is_gone_is_removed_and_the_others_are_left(tmp_path):
    gone = _cluster_dir(tmp_path, "gone", _dead_pid())
    mine = _cluster_dir(tmp_path, "mine", os.getpid())
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        running = _cluster_dir(tmp_path, "running", sleeper.pid)
        unowned = _cluster_dir(tmp_path, "unowned", None)  # being made right now, or by older code
        garbled = _cluster_dir(tmp_path, "garbled", None)
        (garbled / OWNER).write_text("not a pid")
        other = tmp_path / "someone-elses"
        other.mkdir()
        (other / OWNER).write_text(str(_dead_pid()))
        crashed = _cluster_dir(tmp_path, "crashed", _dead_pid())  # its server's lock file outlived it
        (crashed / "data" / "postmaster.pid").write_text(f"{_dead_pid()}\n{crashed / 'data'}\n")
        stuck = _cluster_dir(tmp_path, "stuck", _dead_pid())  # its server runs and would not stop
        (stuck / "data" / "postmaster.pid").write_text(f"{sleeper.pid}\n{stuck / 'data'}\n")
        ended = subprocess.Popen([sys.executable, "-c", "pass"])  # ended, not yet reaped: a zombie
        deadline = time.monotonic() + 30
        while alive(ended.pid) and time.monotonic() < deadline:
            time.sleep(0.02)
        unreaped = _cluster_dir(tmp_path, "unreaped", ended.pid)
        removed = sweep_orphans(Path("/nonexistent/bin"), tmp_path)  # no pg_ctl: no server stops
        ended.wait()
        assert sorted(removed) == sorted([gone, crashed, unreaped])
        assert not any(p.exists() for p in (gone, crashed, unreaped))
        assert all(p.is_dir() for p in (mine, running, unowned, garbled, other, stuck))
    finally:
        sleeper.kill()
        sleeper.wait()


def _postmaster(root: Path) -> int:
    return int((root / "data" / "postmaster.pid").read_text().splitlines()[0])


@pytest.mark.postgres
def test_the_server_of_a_killed_test_run_is_stopped_and_its_directory_removed_by_the_next_cluster():
    bindir = server_binaries()
    if bindir is None:
        pytest.skip("no PostgreSQL server binaries")
    code = ("import sys, time\nfrom pathlib import Path\nsys.path.insert(0, sys.argv[2])\n"
            "from tests.pg import Cluster\nc = Cluster(Path(sys.argv[1])).start()\n"
            "print(c.root, flush=True)\ntime.sleep(300)\n")
    child = subprocess.Popen([sys.executable, "-c", code, str(bindir), str(ROOT)], stdout=subprocess.PIPE, text=True)
    try:
        root = Path(child.stdout.readline().strip())
        server = _postmaster(root)
        assert alive(server)
    finally:
        child.send_signal(signal.SIGKILL)  # no teardown runs: the server is left behind
        child.wait()
        child.stdout.close()
    assert root.is_dir() and alive(server)
    removed = sweep_orphans(bindir)
    assert root in removed and not root.exists()
    # stopped by the sweep (`pg_ctl stop` waits for it), not by the server's own discovery, some
    # 15 s later, that its directory is gone
    deadline = time.monotonic() + 5
    while alive(server) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(server)
