"""docs/writing-a-game.md is true.

The tutorial is replayed: its YAML blocks are written to a file step by step, its diff blocks
are applied, and every `$ solitaire ...` command it shows is run in-process; the output it
shows must be what the command prints (a `...` line stands for lines left out). The last YAML
block, the whole file, must validate strictly and play.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from conftest import ROOT, run_cli
from yaml_solitaire.engine import load_game
from yaml_solitaire.engine.ui.cli import build_parser

DOC = ROOT / "docs" / "writing-a-game.md"
FILE = "six_piles.yaml"
SCHEMA_LINE = "# yaml-language-server: $schema=../rules/schema.json"
WHOLE_FILE = "The whole file"
GOING_FURTHER = 10
SKIPPED = "..."
# Printed only at a terminal; a piped session shows neither it nor the '> ' prompts.
TERMINAL_ONLY = "Type 'help' for the commands, 'rules' for the rules."


@dataclass(frozen=True)
class Block:
    section: str
    lang: str
    text: str

    @property
    def step(self) -> int | None:
        m = re.match(r"(\d+)\. ", self.section)
        return int(m.group(1)) if m else None


def doc_blocks() -> list[Block]:
    """Every fenced block of the tutorial, with the '## ' section it is in."""
    blocks: list[Block] = []
    section = ""
    lines = iter(DOC.read_text(encoding="utf-8").splitlines())
    for line in lines:
        if line.startswith("```"):
            body = []
            for inner in lines:
                if inner.startswith("```"):
                    break
                body.append(inner)
            blocks.append(Block(section, line[3:].strip(), "\n".join(body) + "\n"))
        elif line.startswith("## "):
            section = line[3:].strip()
    return blocks


def yaml_blocks() -> list[Block]:
    return [b for b in doc_blocks() if b.lang == "yaml"]


def whole_file() -> Block:
    last = yaml_blocks()[-1]
    assert last.section == WHOLE_FILE, "the last yaml block must be the whole file"
    return last


def step_blocks() -> list[Block]:
    return [b for b in yaml_blocks() if b.step is not None and b.step < GOING_FURTHER]


def diff_pairs(block: Block) -> list[tuple[str, str]]:
    """The (old line, new line) pairs of a diff block: each '-' line followed by its '+' line."""
    lines = block.text.splitlines()
    assert len(lines) % 2 == 0, block.text
    pairs = list(zip(lines[::2], lines[1::2], strict=True))
    for old, new in pairs:
        assert old.startswith("-") and new.startswith("+"), (old, new)
    return [(old[1:], new[1:]) for old, new in pairs]


def apply_diff(text: str, block: Block) -> str:
    lines = text.splitlines(keepends=True)
    for old, new in diff_pairs(block):
        found = [i for i, line in enumerate(lines) if line.rstrip("\n") == old]
        assert len(found) == 1, f"the diff line {old!r} must match exactly one line"
        lines[found[0]] = new + "\n"
    return "".join(lines)


@dataclass
class Shown:
    """One '$ solitaire ...' command of a console block and what the tutorial shows after it."""

    argv: list[str]
    lines: list[str]  # output lines; '> ' lines are the commands typed in a game

    @property
    def typed(self) -> list[str]:
        return [line[2:] for line in self.lines if line.startswith("> ")]


def shown_commands(block: Block) -> list[Shown]:
    out: list[Shown] = []
    for line in block.text.splitlines():
        if line.startswith("$ "):
            words = shlex.split(line[2:])
            assert words[0] == "solitaire", line
            out.append(Shown(words[1:], []))
        else:
            assert out, f"output before any command in:\n{block.text}"
            out[-1].lines.append(line.rstrip())
    return out


def assert_shows(expected: list[str], actual: list[str], what: str) -> None:
    """Exact lines, or, when the tutorial leaves lines out ('...'), the same lines in order."""
    actual = [line.rstrip() for line in actual]
    while actual and not actual[-1]:
        actual.pop()
    if SKIPPED not in expected:
        assert expected == actual, what
        return
    wanted = [line for line in expected if line != SKIPPED]
    rest = iter(actual)
    missing = [line for line in wanted if not any(line == a for a in rest)]
    assert not missing, f"{what}: not printed (in this order): {missing}\nprinted:\n" + "\n".join(
        actual
    )


def check_shown(shown: Shown) -> None:
    what = "$ solitaire " + " ".join(shown.argv)
    if shown.argv[0] != "play" or not shown.typed:
        result = run_cli(*shown.argv)
        assert_shows(shown.lines, (result.out + result.err).splitlines(), what)
        if shown.argv[0] == "validate":
            ok = bool(shown.lines) and shown.lines[-1].endswith(": ok")
            assert (result.code == 0) == ok, f"{what}: exit {result.code}"
        return
    # A game session: what follows each typed command is compared with what that command adds.
    segments: list[list[str]] = [[]]
    for line in shown.lines:
        if line.startswith("> "):
            segments.append([])
        elif line != TERMINAL_ONLY:
            segments[-1].append(line)
    typed = shown.typed
    before: list[str] = []
    for k, expected in enumerate(segments):
        stdin = "".join(command + "\n" for command in typed[:k])
        result = run_cli(*shown.argv, stdin=stdin)
        assert result.code == 0 and not result.err, result.err
        printed = result.out.splitlines()
        assert printed[: len(before)] == before
        label = f"{what}, after '{typed[k - 1]}'" if k else what
        assert_shows(expected, printed[len(before) :], label)
        before = printed


def is_part(part: Any, whole: Any, where: str = "") -> list[str]:
    """Where ``part`` differs from ``whole``; a mapping may show only some of its keys."""
    if isinstance(part, dict):
        if not isinstance(whole, dict):
            return [f"{where or 'top'}: not a mapping in the whole file"]
        problems: list[str] = []
        for key, value in part.items():
            if key not in whole:
                problems.append(f"{where}.{key}: not in the whole file")
            else:
                problems += is_part(value, whole[key], f"{where}.{key}")
        return problems
    if isinstance(part, list):
        if not isinstance(whole, list) or len(part) != len(whole):
            return [f"{where}: {part!r} != {whole!r}"]
        return [
            p
            for i, (a, b) in enumerate(zip(part, whole, strict=True))
            for p in is_part(a, b, f"{where}[{i}]")
        ]
    return [] if part == whole else [f"{where}: {part!r} != {whole!r}"]


# --- the tests -------------------------------------------------------------------------------


def test_the_whole_file_validates_strictly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = whole_file().text
    assert text.splitlines()[0] == SCHEMA_LINE
    assert (ROOT / "games" / "../rules/schema.json").resolve().is_file()
    monkeypatch.chdir(tmp_path)
    (tmp_path / FILE).write_text(text, encoding="utf-8")
    result = run_cli("validate", "--strict", FILE)
    assert result.code == 0, result.err + result.out
    assert result.out == f"{FILE}: ok\n"
    spec = yaml.safe_load(text)
    assert (spec["id"], spec["name"]) == ("six-piles", "Six Piles")


def test_the_whole_file_plays(tmp_path: Path) -> None:
    path = tmp_path / FILE
    path.write_text(whole_file().text, encoding="utf-8")
    commands = ["d", "d", "d", "d", "w f1", "t6 t1", "undo", "draw"]
    records = run_cli(
        "play", str(path), "--seed", "2", "--json", stdin="\n".join(commands)
    ).json_lines()
    assert len(records) == 1 + len(commands)
    first = records[0]
    assert (first["game"], first["seed"], first["command"], first["ok"]) == (
        "six-piles",
        2,
        None,
        True,
    )
    assert first["phase"] == "playing" and first["result"] is None
    piles = first["piles"]
    assert [len(piles[f"t{i}"]) for i in range(1, 7)] == [4] * 6
    assert len(piles["s"]) == 28 and piles["w"] == [] and first["face_down"] == {"s": 28}
    assert all(piles[f"f{i}"] == [] for i in range(1, 5))
    # Step 4 of the tutorial: t1's cards bottom to top, and the stock's top card drawn first.
    assert piles["t1"] == ["3D", "KS", "JH", "8D"] and piles["s"][-1] == "3S"
    doc = DOC.read_text(encoding="utf-8")
    assert "`3D KS JH 8D`" in doc and "(3S)" in doc
    for record in records:
        assert sum(len(cards) for cards in record["piles"].values()) == 52
    by_command = dict(zip(commands, records[1:], strict=False))  # the last of equal commands
    drawn = records[4]
    assert (
        drawn["ok"]
        and drawn["piles"]["w"] == ["3S", "2D", "QC", "AC"]
        and len(drawn["piles"]["s"]) == 24
    )
    home = by_command["w f1"]
    assert home["ok"] and home["piles"]["f1"] == ["AC"] and home["foundation_cards"] == 1
    assert home["cards_placed"] == 1 and home["piles"]["w"][-1] == "QC"
    refused = by_command["t6 t1"]
    assert not refused["ok"] and "KC" in refused["error"] and refused["piles"] == home["piles"]
    undone = by_command["undo"]
    assert undone["ok"] and undone["piles"] == drawn["piles"]
    again = by_command["draw"]
    assert again["ok"] and again["piles"]["w"][-1] == "AS" and again["phase"] == "playing"


def test_every_step_block_is_part_of_the_whole_file() -> None:
    whole = whole_file().text
    whole_data = yaml.safe_load(whole)
    steps = step_blocks()
    assert {b.step for b in steps} >= set(range(1, 8)), "steps 1 to 7 each add YAML"
    for block in steps:
        data = yaml.safe_load(block.text)
        if data is None:  # comments only, such as the schema line
            lines = [line for line in block.text.splitlines() if line.strip()]
            assert all(line in whole.splitlines() for line in lines), block.text
            continue
        assert isinstance(data, dict), block.text
        assert is_part(data, whole_data) == [], f"step {block.step}"


def test_the_deliberate_mistake_gives_the_messages_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocks = doc_blocks()
    start = next(i for i, b in enumerate(blocks) if b.lang == "diff")
    mistake, console = blocks[start], blocks[start + 1]
    assert mistake.step == 8 and console.lang == "console"
    final = whole_file().text
    broken = apply_diff(final, mistake)
    monkeypatch.chdir(tmp_path)
    (tmp_path / FILE).write_text(broken, encoding="utf-8")
    (shown,) = shown_commands(console)
    assert shown.argv == ["validate", FILE]
    result = run_cli(*shown.argv)
    assert result.code == 1 and result.out == ""
    printed = result.err.splitlines()
    pattern = re.compile(rf"^{re.escape(FILE)}:(\d+):(\d+): (.*)$")
    assert [pattern.sub(r"\3", line) for line in printed] == [
        pattern.sub(r"\3", line) for line in shown.lines
    ]
    assert printed == shown.lines
    # Each line:col shown points at a changed line of the final file, where the change starts.
    changed = {old: new for old, new in diff_pairs(mistake)}
    final_lines = final.splitlines()
    for line in shown.lines:
        m = pattern.match(line)
        assert m, line
        row, col = int(m.group(1)), int(m.group(2))
        old = final_lines[row - 1]
        assert old in changed, f"line {row} of the whole file is not changed by the mistake"
        new = changed[old]
        start_of_change = next(i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b)
        word_start = max(new.rfind(c, 0, start_of_change) for c in " [{,") + 1
        assert col - 1 == word_start, (line, new)


def test_every_command_output_shown_is_real(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Replay the tutorial: add each step's YAML, apply each diff, run each command shown."""
    monkeypatch.chdir(tmp_path)
    path = tmp_path / FILE
    text = ""
    ran = 0
    for block in doc_blocks():
        if block.section == WHOLE_FILE:
            break
        if block.lang == "yaml" and block.step is not None and block.step < GOING_FURTHER:
            text += ("\n" if text else "") + block.text
        elif block.lang == "diff":
            text = apply_diff(text, block)
        elif block.lang == "console":
            path.write_text(text, encoding="utf-8")
            for shown in shown_commands(block):
                check_shown(shown)
                ran += 1
    assert ran >= 6
    assert text == whole_file().text, "the steps, in order, must add up to the whole file"


def test_every_solitaire_command_line_is_a_real_command() -> None:
    parser = build_parser()
    (subparsers,) = [a for a in parser._actions if a.dest == "command"]
    commands = set(subparsers.choices)
    doc = DOC.read_text(encoding="utf-8")
    lines = [line[2:] for line in doc.splitlines() if line.startswith("$ solitaire")]
    assert len(lines) >= 6
    for line in lines:
        argv = shlex.split(line)[1:]
        assert argv[0] in commands, line
        try:
            parser.parse_args(argv)
        except SystemExit:
            pytest.fail(f"not a valid command line: {line}")
    for inline in re.findall(r"`solitaire ([a-z]+)", doc):
        assert inline in commands, inline


def test_the_variants_in_going_further_validate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / FILE).write_text(whole_file().text, encoding="utf-8")
    variants = [b for b in yaml_blocks() if b.step == GOING_FURTHER]
    assert len(variants) >= 1
    for block in variants:
        data = yaml.safe_load(block.text)
        assert "extends" in data, block.text
        name = data["id"].replace("-", "_") + ".yaml"
        (tmp_path / name).write_text(block.text, encoding="utf-8")
        result = run_cli("validate", "--strict", name)
        assert result.code == 0, result.err + result.out
        if data["extends"] == FILE:
            # Mappings merge key by key: the variant keeps the parent's build and suit.
            accepts = load_game(name).spec.piles["tableau"].accepts
            assert accepts is not None
            assert (accepts.build, accepts.suit, accepts.empty) == ("down", "alternate", "any")
