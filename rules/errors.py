"""Problems found in a rule file, each pointing at a line and column."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

Severity = Literal["error", "warning"]


@dataclass(frozen=True, slots=True)
class Diagnostic:
    file: str
    line: int
    column: int
    key: str
    message: str
    severity: Severity = "error"
    # What the finding involves (names, or a whole-file check such as 'deal' or 'flow'), so
    # that findings caused by a part of the file left out can be recognised. Not shown.
    about: frozenset[str] = field(default=frozenset(), compare=False, repr=False)

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}:{self.column}"
        label = "" if self.severity == "error" else "warning: "
        key = f"{self.key}: " if self.key else ""
        return f"{where}: {label}{key}{self.message}"

    def as_json(self) -> dict[str, object]:
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "key": self.key,
            "severity": self.severity,
            "message": self.message,
        }


class RuleError(Exception):
    """A rule file that cannot be used; carries every problem found in it."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = diagnostics
        super().__init__("\n".join(str(d) for d in diagnostics))

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]


def dotted(path: Iterable[str | int]) -> str:
    """A key path as written in messages: ``piles.tableau.names[2]``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def suggest(word: str, choices: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest choice, or nothing."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""
