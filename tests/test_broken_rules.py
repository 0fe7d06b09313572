"""A corpus of broken rule files, one kind of mistake each: every problem is found where it is.

Each ``tests/broken/*.yaml`` starts with comment lines naming what the validator must report::

    # expect: 14:11 piles.tableau.role | expected one of: foundation, tableau
    # expect-warning: 49:3 actions.peek | is used by no transition
    # expect: cycle/cycle_partner.yaml:4:10 extends | forms a cycle
    # xfail: why the validator does not do this yet

``LINE:COL KEY | TEXT``: a diagnostic at that line and column, with that dotted key (empty for
a problem of the whole file), whose message contains TEXT. A position may name another file,
relative to ``tests/broken``, for a problem found in a file this one extends. Files in
subfolders (``cycle/``) are helpers, not cases. A file with ``# xfail:`` shows a known
validator problem: its expectations are what the validator should report, and fail for now.
"""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from yaml_solitaire.engine import check_game as check_rules
from yaml_solitaire.engine.ui.cli import main
from yaml_solitaire.rules import Diagnostic

ROOT = Path(__file__).resolve().parent.parent
BROKEN = ROOT / "tests" / "broken"
FILES = sorted(BROKEN.glob("*.yaml"))

EXPECT = re.compile(
    r"#\s*expect(?P<warning>-warning)?:\s*"
    r"(?:(?P<file>[^\s:|]+\.ya?ml):)?(?P<line>\d+):(?P<column>\d+)\s+"
    r"(?P<key>[^\s|]*)\s*\|\s?(?P<text>.*)"
)
XFAIL = re.compile(r"#\s*xfail:\s*(?P<reason>.*)")
OUTPUT_LINE = re.compile(r".+:\d+:\d+: .+|.+: ok(?: \(\d+ warnings?\))?")

# Run as real processes one by one (the rest run in-process, and all at once in one process).
SUBPROCESS_CASES = (
    "yaml_tab_indent",
    "not_utf8",
    "empty_file",
    "extends_missing",
    "unknown_effect",
    "remove_twice",
    "warning_unused_action",
)


@dataclass(frozen=True)
class Expected:
    path: Path  # the file the diagnostic is in
    line: int
    column: int
    key: str
    text: str
    severity: str

    def found_in(self, diagnostics: list[Diagnostic]) -> bool:
        return any(
            (ROOT / d.file).resolve() == self.path.resolve()
            and (d.line, d.column, d.key, d.severity)
            == (self.line, self.column, self.key, self.severity)
            and self.text in d.message
            for d in diagnostics
        )

    def printed_in(self, output: str) -> bool:
        label = "warning: " if self.severity == "warning" else ""
        key = f"{self.key}: " if self.key else ""
        prefix = f"{display(self.path)}:{self.line}:{self.column}: {label}{key}"
        return any(
            line.startswith(prefix) and self.text in line[len(prefix) :]
            for line in output.splitlines()
        )

    def __str__(self) -> str:
        where = f"{display(self.path)}:{self.line}:{self.column}"
        return f"{self.severity} at {where} {self.key!r} containing {self.text!r}"


@dataclass(frozen=True)
class Case:
    path: Path
    expected: tuple[Expected, ...]
    xfail: str | None = None
    malformed: tuple[str, ...] = field(default=())

    @property
    def rel(self) -> str:
        return display(self.path)

    @property
    def has_errors(self) -> bool:
        return any(e.severity == "error" for e in self.expected)


def display(path: Path) -> str:
    """A path as the validator prints it when run from the project root."""
    return str(path.resolve().relative_to(ROOT))


def read_case(path: Path) -> Case:
    expected: list[Expected] = []
    malformed: list[str] = []
    xfail = None
    # The header is ASCII; the rest may be anything (one case is not UTF-8 on purpose).
    for raw in path.read_bytes().decode("utf-8", errors="replace").splitlines():
        line = raw.strip()
        if not line.startswith("#"):
            break
        if match := XFAIL.fullmatch(line):
            xfail = match["reason"]
        elif match := EXPECT.fullmatch(line):
            expected.append(
                Expected(
                    path=BROKEN / match["file"] if match["file"] else path,
                    line=int(match["line"]),
                    column=int(match["column"]),
                    key=match["key"],
                    text=match["text"].strip(),
                    severity="warning" if match["warning"] else "error",
                )
            )
        elif re.match(r"#\s*(expect|xfail)", line):
            malformed.append(line)
    return Case(path, tuple(expected), xfail, tuple(malformed))


CASES = [read_case(path) for path in FILES]


def params(cases: list[Case]) -> list[Any]:
    """One pytest param per case; a case with '# xfail:' fails only by an AssertionError."""
    return [
        pytest.param(
            case,
            id=case.path.stem,
            marks=[pytest.mark.xfail(reason=case.xfail, raises=AssertionError, strict=False)]
            if case.xfail
            else [],
        )
        for case in cases
    ]


def listing(diagnostics: list[Diagnostic]) -> str:
    return "\n".join(f"  {d}" for d in diagnostics) or "  (none)"


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    # File names in diagnostics are shown relative to the working directory.
    monkeypatch.chdir(ROOT)
    yield


def run_main(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def run_process(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "yaml_solitaire.engine", "validate", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


# --- the corpus itself ---------------------------------------------------------------------


def test_corpus_is_large_and_every_case_states_its_expectation() -> None:
    assert len(CASES) >= 30
    for case in CASES:
        assert case.expected, f"{case.rel}: no '# expect:' line"
        assert not case.malformed, f"{case.rel}: cannot read {case.malformed}"
    # The helper of the cycle case is not a case of its own.
    assert all(path.parent == BROKEN for path in FILES)
    assert (BROKEN / "cycle" / "cycle_partner.yaml").is_file()


# --- in-process: rules.check_rules and engine.cli.main -------------------------------------


@pytest.mark.parametrize("case", params(CASES))
def test_check_rules_reports_the_mistake_where_it_is(case: Case) -> None:
    diagnostics = check_rules(case.rel)
    for expected in case.expected:
        assert expected.found_in(diagnostics), (
            f"{case.rel}: expected {expected}; got:\n{listing(diagnostics)}"
        )
    errors = [d for d in diagnostics if d.severity == "error"]
    assert bool(errors) == case.has_errors, listing(diagnostics)


@pytest.mark.parametrize("case", params(CASES))
def test_validate_prints_each_problem_as_file_line_col_key_message(case: Case) -> None:
    _code, out, err = run_main("validate", case.rel)
    for expected in case.expected:
        assert expected.printed_in(out + err), f"expected {expected}; printed:\n{out}{err}"


@pytest.mark.parametrize("case", CASES, ids=[c.path.stem for c in CASES])
def test_validate_exit_status_and_output_shape(case: Case) -> None:
    # Not marked xfail: whatever a message says, the command must fail cleanly.
    code, out, err = run_main("validate", case.rel)
    assert "Traceback" not in out + err
    lines = [line for line in (out + err).splitlines() if line.strip()]
    assert lines, "validate printed nothing"
    for line in lines:
        assert OUTPUT_LINE.fullmatch(line), f"not a diagnostic line: {line!r}"
    if case.has_errors:
        assert code == 1, out + err
        assert err.strip(), "errors must go to stderr"
    else:
        assert code == 0, out + err
        assert f"{case.rel}: ok" in out
        code, out, err = run_main("validate", "--strict", case.rel)
        assert code == 1, out + err


# --- as a real process ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def all_at_once() -> subprocess.CompletedProcess[str]:
    return run_process(*(case.rel for case in CASES))


def test_validate_process_over_the_whole_corpus(
    all_at_once: subprocess.CompletedProcess[str],
) -> None:
    result = all_at_once
    output = result.stdout + result.stderr
    assert result.returncode == 1
    assert "Traceback" not in output
    for case in CASES:
        shown = {display(e.path) for e in case.expected}
        assert any(f"{name}:" in output for name in shown), f"nothing printed for {case.rel}"
        if case.xfail:
            continue  # checked, and expected to fail, by the in-process tests
        for expected in case.expected:
            assert expected.printed_in(output), f"expected {expected}"


SUBPROCESS = [c for c in CASES if c.path.stem in SUBPROCESS_CASES]


def test_subprocess_cases_exist() -> None:
    assert sorted(c.path.stem for c in SUBPROCESS) == sorted(SUBPROCESS_CASES)


@pytest.mark.parametrize("case", params(SUBPROCESS))
def test_validate_process_one_file(case: Case) -> None:
    result = run_process(case.rel)
    output = result.stdout + result.stderr
    assert "Traceback" not in output
    assert result.returncode == (1 if case.has_errors else 0), output
    for expected in case.expected:
        assert expected.printed_in(output), f"expected {expected}; printed:\n{output}"
    if not case.has_errors:
        strict = run_process("--strict", case.rel)
        assert strict.returncode == 1, strict.stdout + strict.stderr
        assert "Traceback" not in strict.stdout + strict.stderr
