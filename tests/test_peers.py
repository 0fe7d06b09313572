"""benchmarks/peers.py: the project's solver beside fc-solve on Microsoft's FreeCell deals."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import run_benchmark


def peers(*args: str, path: str | None = None) -> subprocess.CompletedProcess[str]:
    return run_benchmark("peers.py", *args, path=path)


@pytest.mark.skipif(shutil.which("fc-solve") is None, reason="fc-solve is not installed")
def test_both_solvers_decide_the_same_deals() -> None:
    done = peers("--deals", "1-2,3", "--budget", "10")
    assert done.returncode == 0, done.stdout + done.stderr
    rows = {line.split()[0]: line.split() for line in done.stdout.splitlines() if line.strip()}
    assert rows["fc-solve"][1:5] == ["3", "3", "0", "0"]  # decided, won, lost, unknown
    assert rows["project"][1:5] == ["3", "3", "0", "0"]
    assert "ratio: fc-solve decides" in done.stdout
    assert "no contradiction (3 deals decided by both)" in done.stdout


def test_without_fc_solve_it_says_how_to_install_it() -> None:
    done = peers("--deals", "1", path=str(Path(sys.executable).parent))
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "fc-solve is not installed: apt-get install freecell-solver-bin (Debian, Ubuntu)"
    )
    assert done.stdout == ""


def test_a_loss_against_a_win_is_a_contradiction(tmp_path: Path) -> None:
    # A peer that claims every deal is lost, against the project's win of deal 1.
    fake = tmp_path / "fc-solve"
    fake.write_text('#!/bin/sh\ncat >/dev/null\necho "I could not solve this game."\n')
    fake.chmod(0o755)
    done = peers("--deals", "1", "--fc-solve", str(fake))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "ms:1: fc-solve says lost, the project says won" in done.stdout


@pytest.mark.parametrize("deals", ["5-3", "0", "x", "1-2,y"])
def test_a_bad_list_of_deals_is_a_usage_error(deals: str) -> None:
    done = peers("--deals", deals)
    assert done.returncode == 2 and "--deals" in done.stderr
