"""An installed Fieldpost carries its content: the wheel is built from exactly the files the
Dockerfile copies into the image, installed into a fresh virtual environment outside the
repository, and there, with no FIELDPOST_HOME, `fieldpost render` draws in the bundled font,
a scripted game plays, and the console's help shows the shipped quick reference.

The build needs setuptools from PyPI (or pip's cache); the dependencies are the ones this test
run already has, reached through a path file, so nothing else is downloaded."""
from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli_probe import PROBE, loaded

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow


def _run(cmd, cwd: Path | None, stdin: str | None, env: dict[str, str] | None) -> subprocess.CompletedProcess:
    whole = {k: v for k, v in os.environ.items() if k not in ("FIELDPOST_HOME", "PYTHONPATH")} | (env or {})
    done = subprocess.run([str(c) for c in cmd], cwd=cwd, input=stdin, capture_output=True, text=True, env=whole,
                          timeout=600, check=False)
    assert done.returncode == 0, f"{cmd}: {done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    assert "Traceback" not in done.stderr, done.stderr
    return done


def run(*cmd, cwd: Path | None = None, stdin: str | None = None, env: dict[str, str] | None = None) -> str:
    return _run(cmd, cwd, stdin, env).stdout


def run_stderr(*cmd, cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    return _run(cmd, cwd, None, env).stderr


def image_sources() -> list[str]:
    """What the Dockerfile copies from the build context."""
    sources: list[str] = []
    for line in (ROOT / "Dockerfile").read_text().splitlines():
        if line.startswith("COPY "):
            sources += line.split()[1:-1]
    return sources


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Iterator[tuple[Path, Path]]:
    """(the fresh venv's bin directory, a working directory outside the repository)."""
    tmp = tmp_path_factory.mktemp("wheel")
    context = tmp / "context"
    for rel in image_sources():
        src, dst = ROOT / rel, context / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, dst, symlinks=True, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(src, dst)
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", tmp / "dist", context)
    wheel = next((tmp / "dist").glob("fieldpost-*.whl"))
    venv = tmp / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", venv)
    python = venv / "bin" / "python"
    run(sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index", "-q", wheel)
    site = Path(run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").strip())
    deps = [p for p in sys.path if p.endswith("site-packages") and Path(p).is_dir()]
    (site / "test-dependencies.pth").write_text("\n".join(deps) + "\n")  # after the wheel's own packages
    work = tmp / "work"
    work.mkdir()
    yield venv / "bin", work
    shutil.rmtree(tmp)  # its thousand files go while the other worker runs, not at the session's end


def test_the_installed_package_draws_in_its_bundled_font(installed):
    bin_, work = installed
    where = run(bin_ / "python", "-c", "import bot, engine.core.content as c; from bot.render.style import font; "
                "print(bot.__file__); print(c.default_root()); print(font(12).path)", cwd=work).splitlines()
    site = str(bin_.parent)
    assert all(line.startswith(site) for line in where), where  # the wheel's copy, not the repository
    assert where[2].endswith("DejaVuSansCondensed.ttf")
    out = run(bin_ / "fieldpost", "render", "--scenario", "hedgerow-dawn", "--out", "gallery", "--games", "1", cwd=work)
    assert "start" in out and (work / "gallery" / "start.png").stat().st_size > 10_000


def test_a_scripted_game_plays_from_the_shipped_content(installed):
    bin_, work = installed
    script = bin_.parent / "lib"
    found = next(script.glob("python3*/site-packages/engine/shipped/docs/learn/first-game.txt"))
    out = run(bin_ / "fieldpost", "play", "--scenario", "hedgerow-dawn", "--seed", "10", "--players",
              "Ann:US,Bo:DE", "--script", found, cwd=work)
    assert "Schtz. Mertens is wounded" in out


def test_the_console_help_is_the_shipped_quick_reference(installed):
    bin_, work = installed
    out = run(bin_ / "fieldpost", "play", "--seed", "3", cwd=work, stdin="\nhelp\nquit\n\n")
    assert "FIELDPOST QUICK REFERENCE" in out and "THE TEXT BOARD" in out


def image_warm_up() -> tuple[str, list[str]]:
    """The image's FIELDPOST_CACHE and the command its build runs to fill that cache, as the
    Dockerfile says them (the ENV and the RUN after the switch to the bot's user)."""
    lines = (ROOT / "Dockerfile").read_text().splitlines()
    user = next(i for i, line in enumerate(lines) if line.startswith("USER "))
    cache = next(line.split("=", 1)[1] for line in lines[user:] if line.startswith("ENV FIELDPOST_CACHE="))
    warm = next(line for line in lines[user:] if line.startswith("RUN python "))
    return cache, shlex.split(warm.removeprefix("RUN "))


def test_the_image_is_built_with_the_content_cache_warm(installed, tmp_path):
    """A container starts without parsing the content's YAML: the build's warm-up, run as the
    bot's user, leaves the cache where the image's FIELDPOST_CACHE points, and a later start with
    that cache reads no YAML (PyYAML is not even imported)."""
    bin_, work = installed
    cache, warm = image_warm_up()
    assert cache.startswith("/home/fieldpost/")  # the bot's user's home, which useradd made his
    assert warm[0] == "python"
    here = tmp_path / "cache"
    env = {"FIELDPOST_CACHE": str(here)}
    run(bin_ / warm[0], *warm[1:], cwd=work, env=env)
    assert [p.name for p in here.iterdir()] and all(p.suffix == ".marshal" for p in here.iterdir())
    script = tmp_path / "one.txt"
    script.write_text("plan 115-P2 110-C3 109-C1\n", encoding="utf-8")
    imported = loaded(run_stderr(bin_ / "python", "-c", PROBE, "play", "--scenario", "hedgerow-dawn", "--seed", "7",
                                 "--script", script, cwd=work, env=env))
    assert "engine.apply" in imported and "yaml" not in imported
