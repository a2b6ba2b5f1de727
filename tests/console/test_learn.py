"""docs/learn.md stays true: its pictures are exactly what `fieldpost render --learn` draws
from its script, and every game message it quotes is what the game says when the script is
played with `fieldpost play --script`."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.cli import main
from bot.console.learn import script_path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "learn.md"


def flat(text: str) -> str:
    return " ".join(text.split())


def quoted_messages() -> list[str]:
    """The page's quoted game messages: code spans that read as sentences ("Pvt. … .")."""
    return [flat(m) for m in re.findall(r"`([A-Z][^`]*\.)`", PAGE.read_text(encoding="utf-8"))]


@pytest.mark.slow
def test_the_pictures_are_what_the_script_draws(tmp_path):
    assert main(["render", "--learn", str(tmp_path)]) == 0
    drawn = sorted(p.name for p in tmp_path.glob("*.png"))
    shown = sorted(set(re.findall(r"\(learn/([\w-]+\.png)\)", PAGE.read_text(encoding="utf-8"))))
    assert drawn == shown, "docs/learn.md shows other pictures than its script draws"
    stale = [name for name in drawn if (tmp_path / name).read_bytes() != (ROOT / "docs" / "learn" / name).read_bytes()]
    assert stale == [], f"run `fieldpost render --learn docs/learn/` and commit: {stale}"


def test_the_messages_it_quotes_are_what_the_game_says(capsys):
    header = next(line for line in script_path().read_text(encoding="utf-8").splitlines() if line.startswith("#! game"))
    scenario, seed, *players = header.split()[2:]
    assert main(["play", "--scenario", scenario, "--seed", seed, "--players", ",".join(players),
                 "--script", str(script_path())]) == 0
    said = flat(capsys.readouterr().out)
    quoted = quoted_messages()
    assert len(quoted) >= 2
    missing = [q for q in quoted if q not in said]
    assert missing == [], f"docs/learn.md quotes what the game no longer says: {missing}"
