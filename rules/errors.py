"""Problems found in a rule file, each pointing at a line and column."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import field
from typing import Literal

from .frozen import frozen_dataclass

Severity = Literal["error", "warning"]


@frozen_dataclass
class Diagnostic:
    """One problem of a rule file: where it is, the key it is under, and what it is."""

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
        """One line for a terminal: control characters in any part are shown escaped."""
        where = f"{printable(self.file, None)}:{self.line}:{self.column}"
        label = "" if self.severity == "error" else "warning: "
        key = f"{printable(self.key, None)}: " if self.key else ""
        return f"{where}: {label}{key}{printable(self.message, None)}"

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
    """`` (did you mean 'x'?)`` for the closest choice other than ``word`` itself, or nothing."""
    others = [c for c in choices if c != word]
    import difflib  # only when a suggestion is made

    close = difflib.get_close_matches(word[:100], others, n=1, cutoff=0.6)
    return f" (did you mean '{printable(close[0])}'?)" if close else ""


def printable(text: str, limit: int | None = 60) -> str:
    """``text`` safe to echo on a terminal as one line: control and other unprintable
    characters (escape sequences, line breaks, bidi overrides) written as Python escapes, and
    text longer than ``limit`` characters cut (None: never cut)."""
    cut = text if limit is None else text[: limit + 1]
    if cut.isprintable():
        shown = cut
    else:
        shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in cut)
    return shown if limit is None or len(text) <= limit else shown[:limit] + "..."
