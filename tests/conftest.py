"""Shared helpers: run the CLI in-process with given stdin, and deck builders."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

# The tests keep their own cache of validated rule files (and their own player data), so that
# they neither read nor change the user's.
_HOME = tempfile.mkdtemp(prefix="solitaire-tests-")
os.environ["XDG_CACHE_HOME"] = os.path.join(_HOME, "cache")
os.environ["XDG_DATA_HOME"] = os.path.join(_HOME, "data")
# Hints bounded by positions only: the same answers however loaded the machine is.
os.environ["SOLITAIRE_HINT_SECONDS"] = "none"
# Output off a terminal is drawn for COLUMNS columns (80 when unset): pin it.
os.environ["COLUMNS"] = "80"

from yaml_solitaire.engine.ui.cli import main  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
CANONICAL = [r + s for s in "CDHS" for r in RANKS]


@dataclass
class Result:
    code: int
    out: str
    err: str

    def json_lines(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.out.splitlines() if line.strip()]


def run_cli(*args: str, stdin: str = "") -> Result:
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as exc:  # argparse usage errors
                code = int(exc.code or 0)
    finally:
        sys.stdin = old_stdin
    return Result(code, out.getvalue(), err.getvalue())


def run_benchmark(
    name: str, *args: str, path: str | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``benchmarks/NAME`` as a program (with ``PATH`` set to ``path``, when given)."""
    env = dict(os.environ)
    if path is not None:
        env["PATH"] = path
    return subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / name), *args],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip


@pytest.fixture(autouse=True)
def _own_player_data(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, tmp_path_factory: Any
) -> None:
    """Each test plays with a data folder of its own: no save, lock or history row of one test
    is seen by another, whatever order (or worker) runs them. A module whose tests share a
    server started for the module (``SHARED_PLAYER_DATA = True``) shares its folder too."""
    if not getattr(request.module, "SHARED_PLAYER_DATA", False):
        monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))


@pytest.fixture
def cli() -> Any:
    return run_cli
