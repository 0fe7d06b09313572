"""benchmarks/solvitaire.py: the project's solver beside Solvitaire's, same deals, CPU budgets.

Solvitaire is not installed here: stand-ins for it give a fixed answer, or spin until the CPU
limit stops them, so that how the script budgets, counts and judges the answers is checked.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import run_benchmark


def bench(*args: str, path: str | None = None) -> subprocess.CompletedProcess[str]:
    return run_benchmark("solvitaire.py", *args, path=path)


def stand_in(folder: Path, body: str) -> str:
    program = folder / "solvitaire"
    program.write_text(f"#!/bin/sh\n{body}\n")
    program.chmod(0o755)
    return str(program)


def answering(folder: Path, answer: str) -> str:
    return stand_in(folder, f'echo "Solution Type: {answer}"\necho "States Searched: 7"')


def rows(out: str) -> dict[str, list[str]]:
    """The summary's lines by solver: decided, won, lost, unknown, CPU s, decided/CPU-s."""
    found: dict[str, list[str]] = {}
    for line in out.splitlines():
        words = line.split()
        for name in ("Solvitaire", "project"):
            if name in words and len(words) >= 7 and words[words.index(name) + 1].isdigit():
                found[name] = words[words.index(name) + 1 :]
    return found


def test_without_solvitaire_it_says_how_to_build_it() -> None:
    done = bench("fan:2", path=str(Path(sys.executable).parent))
    assert done.returncode == 2
    assert "build it from its source" in done.stderr and done.stdout == ""


def test_the_projects_side_runs_alone_without_solvitaire() -> None:
    # Two builds of the project set beside each other need no Solvitaire: the same per-deal
    # lines and totals, the project's alone.
    done = bench(
        "fan:12001-12002", "--budget", "2", "--project-only", path=str(Path(sys.executable).parent)
    )
    assert done.returncode == 0, done.stdout + done.stderr
    found = rows(done.stdout)
    assert "Solvitaire" not in found
    assert found["project"][:4] == ["2", "1", "1", "0"]  # decided, won, lost, unknown
    assert "rate / the project's" not in done.stdout
    line = next(x for x in done.stdout.splitlines() if x.startswith("fan:12002 "))
    assert line.split()[1] == "-" and line.split()[4] == "lost"


def test_both_decide_and_the_rates_are_set_side_by_side(tmp_path: Path) -> None:
    # Fan's deal 2 is proved lost by the project at once; the stand-in proves it lost too.
    done = bench("fan:2", "--budget", "2", "--solvitaire", answering(tmp_path, "unsolvable"))
    assert done.returncode == 0, done.stdout + done.stderr
    found = rows(done.stdout)
    assert found["Solvitaire"][:4] == ["1", "0", "1", "0"]  # decided, won, lost, unknown
    assert found["project"][:4] == ["1", "0", "1", "0"]
    assert "Solvitaire's rate / the project's:" in done.stdout
    assert "verdicts: no contradiction" in done.stdout
    line = next(x for x in done.stdout.splitlines() if x.startswith("fan:2 "))
    assert line.split()[1:4] == ["lost", line.split()[2], "7"]  # Solvitaire's states searched


def test_a_win_against_a_proved_loss_is_a_contradiction(tmp_path: Path) -> None:
    done = bench("fan:2", "--budget", "2", "--solvitaire", answering(tmp_path, "solved"))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "fan:2: Solvitaire says won, the project lost" in done.stdout
    assert "CONTRADICTIONS (1)" in done.stdout


def test_simple_simons_unread_key_is_a_known_difference(tmp_path: Path) -> None:
    # Asked of Solvitaire's preset simple-simon, whose 'only complete pile moves' its parser
    # never reads: its win beside our proof of loss is a known difference, with the reason.
    done = bench(
        "fan:2@simple-simon", "--budget", "2", "--solvitaire", answering(tmp_path, "solved")
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "fan:2@simple-simon: Solvitaire says won, the project lost (known difference:" in (
        done.stdout
    )
    assert "1 known differences" in done.stdout


def test_the_cpu_limit_stops_solvitaire_and_leaves_the_deal_unknown(tmp_path: Path) -> None:
    # A stand-in that never answers is stopped by the CPU limit of the budget (1 s): unknown,
    # not a crash, and its CPU seconds are counted.
    done = bench(
        "fan:2", "--budget", "1", "--solvitaire", stand_in(tmp_path, "while :; do :; done")
    )
    assert done.returncode == 0, done.stdout + done.stderr
    found = rows(done.stdout)
    assert found["Solvitaire"][:4] == ["0", "0", "0", "1"]
    assert float(found["Solvitaire"][4]) > 0.5
    assert "gave no verdict" not in done.stdout


def test_a_crash_is_no_verdict_and_fails_the_check(tmp_path: Path) -> None:
    done = bench("fan:2", "--budget", "2", "--solvitaire", stand_in(tmp_path, "kill -SEGV $$"))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "gave no verdict" in done.stdout and "fan:2" in done.stdout
