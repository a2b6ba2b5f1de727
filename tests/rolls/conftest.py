"""Shared helpers for the roll tests: run a check through the registry or the console."""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from bot.cli import main


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., tuple[int, str, str]]:
    """Run `fieldpost roll ...` in-process; returns (exit status, stdout, stderr)."""

    def run(*argv: str) -> tuple[int, str, str]:
        try:
            code = main(["roll", *argv])
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        out, err = capsys.readouterr()
        return code, out, err

    return run


@pytest.fixture
def cli_json(cli: Callable[..., tuple[int, str, str]]) -> Callable[..., dict[str, Any]]:
    """Run a check with --json and return the parsed object (asserting success)."""

    def run(*argv: str) -> dict[str, Any]:
        code, out, err = cli(*argv, "--json")
        assert code == 0, err or out
        assert out.count("\n") == 1
        return json.loads(out)

    return run
