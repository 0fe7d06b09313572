"""The compiled build: which build runs, that its compiled modules are the ones loaded, and that
pure Python gives the same results.

CI installs the compiled build (``.ci/run`` checks ``solitaire --version``); where the pure
build runs (no C compiler, ``YAML_SOLITAIRE_PURE``, an edited source), the tests that need the
compiled modules are skipped and say why.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest

from conftest import run_cli
from yaml_solitaire.engine import build

RUNNING = build.build_kind()
needs_compiled = pytest.mark.skipif(
    RUNNING != build.COMPILED, reason=f"the compiled build is not running: {RUNNING}"
)


def _cli(*args: str, pure: bool) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop(build.PURE_VARIABLE, None)
    if pure:
        env[build.PURE_VARIABLE] = "1"
    command = [sys.executable, "-m", "yaml_solitaire.engine", *args]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)


def test_version_says_which_build_runs() -> None:
    result = run_cli("--version")
    assert result.code == 0
    name, kind = result.out.splitlines()
    assert name.startswith("solitaire ")
    assert kind == f"build: {RUNNING}"
    assert kind.startswith(("build: compiled (mypyc)", "build: pure Python"))


@needs_compiled
def test_the_compiled_modules_are_the_ones_loaded() -> None:
    for name in build.HOT:
        module = importlib.import_module(f"yaml_solitaire.engine.{name}")
        assert module.__spec__ is not None
        assert isinstance(module.__spec__.loader, importlib.machinery.ExtensionFileLoader), name
        functions = [
            value
            for value in vars(module).values()
            if callable(value) and getattr(value, "__module__", None) == module.__name__
        ]
        assert functions, name
        # mypyc's functions and classes are built-in objects, not Python functions.
        assert not any(isinstance(f, types.FunctionType) for f in functions), name


@needs_compiled
def test_the_pure_build_is_asked_for_by_the_environment() -> None:
    lines = _cli("--version", pure=True).stdout.splitlines()
    assert lines[1] == f"build: pure Python ({build.PURE_VARIABLE} is set)"
    assert _cli("--version", pure=False).stdout.splitlines()[1] == "build: compiled (mypyc)"


@needs_compiled
@pytest.mark.parametrize(
    "command",
    [
        ("solve", "freecell", "--seed", "ms:3", "--budget-nodes", "3000", "--json"),
        ("solve", "big-ben", "--seed", "2", "--budget-nodes", "3000", "--json"),
        # won in some 4,000 positions: a search pruned otherwise takes another number
        ("solve", "big-ben", "--seed", "1", "--budget-nodes", "8000", "--json"),
        ("solve", "klondike", "--seed", "5", "--budget-nodes", "3000", "--json"),
        ("stats", "canfield", "--deals", "20", "--json"),
    ],
    ids=lambda command: " ".join(command[1:4]),
)
def test_pure_python_and_compiled_give_the_same_results(command: tuple[str, ...]) -> None:
    def answers(pure: bool) -> list[dict[str, object]]:
        done = _cli(*command, pure=pure)
        assert done.returncode == 0, done.stderr
        lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
        for line in lines:
            for timing in ("seconds", "elapsed", "time"):
                line.pop(timing, None)
        return lines

    assert answers(pure=True) == answers(pure=False)


@needs_compiled
def test_a_source_changed_since_it_was_compiled_runs_as_pure_python(tmp_path: Path) -> None:
    # A copy of the installed package, compiled modules included, with one hot source edited
    # (as in an editable install being worked on): its sources run, never a stale compile.
    package = Path(build.__file__).resolve().parent.parent
    copy = tmp_path / "yaml_solitaire"
    ignore = shutil.ignore_patterns(".*", "build", "tests", "benchmarks", "docs", "__pycache__")
    shutil.copytree(package, copy, ignore=ignore)

    def version() -> str:
        env = {**os.environ, "PYTHONPATH": str(tmp_path)}
        env.pop(build.PURE_VARIABLE, None)
        command = [sys.executable, "-c", "from yaml_solitaire.engine.ui.cli import main; main()"]
        done = subprocess.run(
            [*command, "--version"], env=env, capture_output=True, text=True, timeout=60
        )
        return done.stdout.splitlines()[1]

    assert version() == "build: compiled (mypyc)"
    solver = build.source_path("play.solver", copy / "engine")
    solver.write_text(solver.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    assert version() == (
        "build: pure Python (play.solver changed since it was compiled: reinstall to compile again)"
    )
