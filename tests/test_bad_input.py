"""Bad input of any kind: one clear line on stderr, exit 1 (2 for usage), never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import CANONICAL, GAMES, ROOT, run_cli


def one_line(err: str) -> str:
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["play", "clok"], "unknown game 'clok' (did you mean 'clock'?)"),
        (["play", "./nowhere.yaml"], "no such rule file: ./nowhere.yaml"),
        (["play", "clock", "--deck", "AC 2C ZZ"], "not a card: 'ZZ'"),
        (["play", "clock", "--deck", " ".join(CANONICAL[:-1])], "missing KS"),
        (["play", "clock", "--deck", " ".join([*CANONICAL, "AC"])], "too many AC"),
        (
            ["play", "clock", "--deck", " ".join([*CANONICAL[:-1], "AC"])],
            "missing KS; too many AC",
        ),
        (["play", "clock", "--deck", "@/no/such/deck.txt"], "deck file /no/such/deck.txt: no such"),
        (["stats", "nope", "--deals", "3"], "unknown game 'nope'"),
    ],
)
def test_invalid_input_exits_1_with_one_line(args: list[str], expected: str) -> None:
    result = run_cli(*args)
    assert result.code == 1
    assert expected in one_line(result.err)
    assert result.out == ""


@pytest.mark.parametrize(
    "args",
    [
        ["play"],
        ["play", "clock", "--seed", "x"],
        ["play", "clock", "--seed", "-3"],
        ["play", "clock", "--seed", "1", "--deck", "AC"],
        ["stats", "clock"],
        ["stats", "clock", "--deals", "0"],
        ["frobnicate"],
    ],
)
def test_usage_errors_exit_2_with_one_line(args: list[str]) -> None:
    result = run_cli(*args)
    assert result.code == 2
    assert one_line(result.err).startswith("solitaire")


def test_invalid_rule_file_lists_its_problems_and_exits_1(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    text = (GAMES / "clock.yaml").read_text(encoding="utf-8").replace("passes: 4", "passes: four")
    bad.write_text(text, encoding="utf-8")
    result = run_cli("play", str(bad))
    assert result.code == 1
    line = one_line(result.err)
    assert line.startswith(f"{bad}:") and "deal[0].passes" in line


def test_yaml_syntax_error_in_a_played_file(tmp_path: Path) -> None:
    bad = tmp_path / "broken.yaml"
    bad.write_text("id: x\npiles: [a, b\n", encoding="utf-8")
    result = run_cli("play", str(bad))
    assert result.code == 1
    assert "YAML syntax error" in one_line(result.err)


def test_the_installed_command_never_shows_a_traceback(tmp_path: Path) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_bytes(b"\xff\xfe\x00")
    proc = subprocess.run(
        [sys.executable, "-m", "yaml_solitaire.engine", "play", "clock", "--deck", f"@{deck}"],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )  # fmt: skip
    assert proc.returncode == 1
    assert "is not text" in one_line(proc.stderr)


def test_a_count_that_is_not_a_number_is_named_as_such() -> None:
    script = "t3 t4 x\nt3 t4\nmove t3\n"
    records = run_cli("play", "klondike", "--seed", "1", "--no-auto", "--json", stdin=script)
    errors = [r.get("error") for r in records.json_lines()[1:]]
    assert errors[0] == "a count is a number, not 'x'"
    assert errors[2] == "'move' needs 2 pile names, e.g. 'f1 f2'"
