"""Hostile input and interrupted runs (issue 11): one clear line, bounded memory, prompt exits.

Each reproduction of the issue is a test here. Cases that need a real process (closed or full
streams, signals, devices, FIFOs, file-size and memory limits) run the installed command with
a time limit and an address-space limit well under what the issue allows; the rest run
in-process through ``run_cli``.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from conftest import GAMES, ROOT, Result, run_cli
from yaml_solitaire.engine import load_game

MEMORY = 500_000_000  # address space of each process: "well under 500 MB"
COMMAND = [sys.executable, "-m", "yaml_solitaire.engine"]


@dataclass
class Run:
    code: int
    out: str
    err: str
    seconds: float


def limits(extra: Callable[[], None] | None = None) -> Callable[[], None]:
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
        if extra is not None:
            extra()

    return apply


def solitaire(
    *args: str,
    stdin: str | bytes | None = None,
    timeout: float = 20,
    shell: str | None = None,
    cwd: Path = ROOT,
    extra: Callable[[], None] | None = None,
    prefix: Sequence[str] = (),
    stdout: Any = subprocess.PIPE,
) -> Run:
    """The installed command in its own process, under a time and a memory limit.

    ``shell`` wraps it in a shell command where ``"$@"`` is the command line (for '>&-').
    """
    argv = [*prefix, *COMMAND, *args]
    if shell is not None:
        argv = ["sh", "-c", shell, "sh", *argv]
    data = stdin.encode() if isinstance(stdin, str) else stdin
    began = time.monotonic()
    proc = subprocess.run(
        argv,
        input=data,
        stdin=None if data is not None else subprocess.DEVNULL,
        stdout=stdout,
        stderr=subprocess.PIPE,
        timeout=timeout,
        cwd=cwd,
        preexec_fn=limits(extra),
        check=False,
    )
    out = proc.stdout.decode("utf-8", "replace") if proc.stdout is not None else ""
    return Run(proc.returncode, out, proc.stderr.decode("utf-8", "replace"),
               time.monotonic() - began)  # fmt: skip


def one_line(err: str) -> str:
    """The one line a failure prints on stderr (never a traceback)."""
    assert "Traceback" not in err, err
    lines = err.splitlines()
    assert len(lines) == 1, err
    return lines[0]


def check_invalid(result: Result | Run, *words: str) -> str:
    assert result.code == 1, (result.code, result.err)
    line = one_line(result.err)
    for word in words:
        assert word in line, line
    return line


# --- 2. characters a rule file may not hold -----------------------------------------------

CONTROLS = {"NUL": "\x00", "BEL": "\x07", "ESC": "\x1b", "DEL": "\x7f", "U+FFFE": "\ufffe"}


@pytest.mark.parametrize("name", CONTROLS)
@pytest.mark.parametrize("where", ["comment", "value", "key"])
def test_a_control_character_anywhere_is_one_line(tmp_path: Path, name: str, where: str) -> None:
    char = CONTROLS[name]
    line2 = {
        "comment": f"# a comment {char} here",
        "value": f"name: Clock{char}",
        "key": f"na{char}me: Clock",
    }[where]
    path = tmp_path / "game.yaml"
    path.write_text(f"id: x\n{line2}\nflow: {{}}\n", encoding="utf-8")
    column = line2.index(char) + 1
    code = f"U+{ord(char):04X}" if ord(char) > 0xFF else f"0x{ord(char):02X}"
    for command in ("validate", "play"):
        line = check_invalid(run_cli(command, str(path)), f"the character {code} is not allowed")
        assert line.startswith(f"{path}:2:{column}: ")
        assert char not in line


@pytest.mark.parametrize("escape", ["\\e[2J", "\\x07", "\\0", "\\x7f", "\\ud800", "\\x9b"])
def test_a_control_character_written_as_an_escape_is_refused_too(
    tmp_path: Path, escape: str
) -> None:
    text = (GAMES / "clock.yaml").read_text(encoding="utf-8")
    name = next(line for line in text.splitlines() if line.startswith("name:"))
    path = tmp_path / "game.yaml"
    path.write_text(text.replace(name, f'name: "Clock{escape}"'), encoding="utf-8")
    for command in ("validate", "play", "graph"):
        result = run_cli(command, str(path))
        line = check_invalid(result, "(written as an escape) is not allowed")
        assert ": name: the character" in line
        assert "\x1b" not in result.err and "\x07" not in result.err


# --- 11. messages -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["stats", "clock", "--deals", "-5"], "argument --deals: must be at least 1, not -5"),
        (["stats", "clock", "--deals", "5", "--jobs", "-1"], "--jobs: must be at least 1, not -1"),
        (["stats", "clock", "--deals=-5"], "argument --deals: must be at least 1, not -5"),
    ],
)
def test_negative_counts_say_what_is_wrong(args: list[str], expected: str) -> None:
    result = run_cli(*args)
    assert result.code == 2
    line = one_line(result.err)
    assert expected in line and "seed" not in line


def test_a_pile_name_alone_is_explained() -> None:
    # In play a pile name alone is a one-word move: without one, it says why, naming the pile.
    result = run_cli("play", "big-ben", "--seed", "3", "--json", stdin="t1\nT1\n")
    for record in result.json_lines()[1:]:
        assert record["ok"] is False
        assert record["error"].startswith("t1: ") and "did you mean" not in record["error"]
    # Read as an action, it is a pile, not a command.
    game = load_game("big-ben")
    with pytest.raises(ValueError, match="'t1' is a pile, not a command: a move is"):
        game.parse_action("t1")


def test_escape_sequences_are_never_echoed_raw(tmp_path: Path) -> None:
    evil = "\x1b[31mred\x07"
    result = run_cli("play", "big-ben", "--seed", "3", stdin=f"{evil}\nt1 {evil}\n{evil} t1\n")
    assert result.code == 0
    assert "\x1b" not in result.out and "\x07" not in result.out
    assert result.out.count("\\x1b[31mred\\x07") == 3
    for args in (["list", evil], ["play", evil], ["play", f"{evil}.yaml"],
                 ["validate", str(tmp_path / f"{evil}.yaml")],
                 ["new", "x", "-o", str(tmp_path / evil / "x.yaml")]):  # fmt: skip
        result = run_cli(*args)
        assert result.code in (1, 2)
        assert "\x1b" not in one_line(result.err) and "\\x1b[31mred" in result.err


def test_a_name_cannot_break_the_mermaid_front_matter(tmp_path: Path) -> None:
    text = (GAMES / "clock.yaml").read_text(encoding="utf-8")
    name = next(line for line in text.splitlines() if line.startswith("name:"))
    path = tmp_path / "evil.yaml"
    path.write_text(text.replace(name, 'name: "Evil\\n---\\nx: [y"'), encoding="utf-8")
    result = run_cli("graph", str(path))
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    assert lines[:4] == ["---", 'title: "Evil --- x: [y"', "---", "stateDiagram-v2"]
    assert lines.count("---") == 2
    dot = run_cli("graph", str(path), "--format", "dot").out
    assert dot.splitlines()[0] == 'digraph "Evil --- x: [y" {'
