"""The engine's shape (docs/architecture.md): no import circle between any two of its files,
imports inside functions counted; the import-linter contracts of pyproject.toml (packages import
downward only, rolls and campaign beside, the engine pure); and a rulebook with a rule for every
command and every slot filled."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from engine import apply  # noqa: F401  (the face's first name: every rule registers itself)
from engine.core import commands as C
from engine.core import rulebook

ROOT = Path(__file__).resolve().parents[2]


def module_name(root: Path, path: Path) -> str:
    name = ".".join(path.relative_to(root).with_suffix("").parts)
    return name.removesuffix(".__init__")


def import_graph(root: Path, package: str) -> dict[str, set[str]]:
    """Module -> modules of the package it imports, every import statement counted (inside
    functions too). An import of a module's own ancestor package is left out: a package's
    __init__ showing its children is its face, not a circle."""
    files = {module_name(root, p): p for p in (root / package).rglob("*.py")}
    edges: dict[str, set[str]] = {m: set() for m in files}
    for mod, path in files.items():
        here = mod.split(".") if path.name == "__init__.py" else mod.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = here[: len(here) - (node.level - 1)]
                    base = ".".join(parts + ([base] if base else []))
                targets = [base] + [f"{base}.{a.name}" for a in node.names]
            else:
                continue
            for t in targets:
                while t and t not in files:
                    t = t.rpartition(".")[0]
                if t and t != mod and not mod.startswith(t + "."):
                    edges[mod].add(t)
    return edges


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_no_file_of_the_engine_sits_in_an_import_circle():
    found = circles(import_graph(ROOT, "engine"))
    assert found == [], "import circles in engine/: " + "; ".join(" -> ".join(c) for c in found)


def test_the_circle_finder_sees_a_circle_hidden_in_a_function(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "low").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from pkg.low import a\n")
    (pkg / "low" / "__init__.py").write_text("")
    (pkg / "low" / "a.py").write_text("from pkg import low\n\n\ndef f():\n    from pkg.low.b import g\n    return g\n")
    (pkg / "low" / "b.py").write_text("from pkg.low.a import f\n\n\ndef g():\n    return f\n")
    edges = import_graph(tmp_path, "pkg")
    assert "pkg.low" not in edges["pkg.low.a"]  # its own package: the face, not a circle
    assert circles(edges) == [["pkg.low.a", "pkg.low.b"]]


def test_the_import_contracts_hold():
    """import-linter's contracts in pyproject.toml (grimp counts imports inside functions too)."""
    code = "from importlinter.cli import lint_imports_command; lint_imports_command(['--no-cache'])"
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300,
                         check=False)
    assert run.returncode == 0, run.stdout + run.stderr


def test_every_command_apply_takes_has_a_rule():
    answers = {C.Plan, C.ReactCmd, C.PreemptCmd, C.Then, C.Unhold, C.Reslot, C.SeatName, *C.BATTLEFIELD_FREE, C.Declare,
               C.HitPlus, C.Pay, C.Decline, C.Capture, C.KillCmd, C.Stay, C.FightCmd, C.Done, C.Pass,
               *C.ACTION_COMMANDS, (C.Skip, "react"), (C.Skip, "preempt")}
    assert answers <= set(rulebook.COMMANDS)
    assert set(C.ACTION_COMMANDS) <= set(rulebook.ACTIONS)


@pytest.mark.parametrize("name", sorted(n for n, v in vars(rulebook).items() if isinstance(v, rulebook.Slot)))
def test_every_slot_is_filled_once_the_engine_is_imported(name):
    """The first name read from the engine's face (done above) brings every rule package in; a
    slot filled refuses a second filling."""
    with pytest.raises(RuntimeError, match="filled twice"):
        getattr(rulebook, name).fill(print)


def test_an_empty_slot_refuses_a_call_naming_who_fills_it_and_a_filled_one_calls_through():
    slot = rulebook.Slot("probe", "tests: this test fills it")
    with pytest.raises(RuntimeError, match="the slot probe is empty: tests: this test fills it"):
        slot(1, key=2)
    assert slot.fill(lambda *a, **k: (a, k)) is not None
    assert slot(1, key=2) == ((1,), {"key": 2})
    with pytest.raises(RuntimeError, match="filled twice"):
        slot.fill(print)


def test_the_lazy_face_hands_out_the_functions_whatever_was_imported_first():
    """`engine.apply` and `engine.view` are submodules and the face's functions: a fresh process
    that reaches the rules through a module first still gets the functions from the face."""
    code = ("import types, engine.script, engine.view\n"
            "from engine import apply, view, load_catalog\n"
            "import engine\n"
            "print(all(callable(f) and not isinstance(f, types.ModuleType)"
            " for f in (apply, view, engine.apply, engine.view, load_catalog)))")
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert run.stdout.split() == ["True"]
