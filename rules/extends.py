"""A rule file with the files it ``extends``: merged data, and where each value came from."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import catalog
from .errors import Diagnostic, RuleError, Severity, dotted, suggest
from .files import MAX_EXTENDS, display_path, file_problem, resolved
from .source import Document, Position, read_document
from .source import Path as KeyPath


@dataclass
class Source:
    """Merged data of a file and its ``extends`` chain, with where each value came from."""

    data: Any
    layers: list[tuple[str, Document]] = field(default_factory=list)  # child first
    problems: list[Diagnostic] = field(default_factory=list)  # found while reading the YAML
    files: list[tuple[Path, bytes]] = field(default_factory=list)  # each file read, child first

    def layer_of(self, path: KeyPath) -> int:
        """Which file (0: this one, 1: its parent ...) writes ``path``; len(layers) if none."""
        for index, (_, doc) in enumerate(self.layers):
            if tuple(path) in doc.values:
                return index
        return len(self.layers)

    def where(self, path: KeyPath, *, key: bool = False) -> tuple[str, Position]:
        for name, doc in self.layers:
            table = doc.keys if key else doc.values
            if tuple(path) in table or (key and tuple(path) in doc.values):
                return name, doc.where(path, key=key)
        # Not in any file as such (a default or a parent key): point at the nearest ancestor.
        name, doc = self.layers[0]
        return name, doc.where(path, key=key)


class Report:
    """The problems found in one source, each placed at its file, line and column."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self.items: list[Diagnostic] = []

    def add(
        self,
        path: KeyPath,
        message: str,
        *,
        key: bool = False,
        severity: Severity = "error",
        shown: KeyPath | None = None,
        about: Iterable[str] = (),
    ) -> None:
        name, pos = self.source.where(path, key=key)
        self.items.append(
            Diagnostic(
                name,
                pos.line,
                pos.column,
                dotted(shown if shown is not None else path),
                message,
                severity,
                frozenset(about),
            )
        )

    def warn(self, path: KeyPath, message: str, *, key: bool = False) -> None:
        self.add(path, message, key=key, severity="warning")


def _merge(base: Any, over: Any) -> Any:
    if isinstance(base, dict) and isinstance(over, dict):
        merged = dict(base)
        for key, value in over.items():
            if value is None:
                merged.pop(key, None)
            elif key in merged:
                merged[key] = _merge(merged[key], value)
            else:
                merged[key] = value
        return merged
    return over


def read_source(path: Path, display: str, chain: tuple[Path, ...] = ()) -> Source:
    """A rule file merged over the files it extends; RuleError when one cannot be read."""
    doc, raw = read_document(path, display)
    # Duplicate keys and unreadable scalars are reported with everything else found later.
    problems = [Diagnostic(display, p.line, p.column, dotted(k), m) for p, k, m in doc.problems]
    source = Source(doc.data, [(display, doc)], problems, [(path, raw)])
    if doc.data is None:
        raise RuleError(
            [Diagnostic(display, 1, 1, "", "the file is empty: a rule file is a mapping")]
        )
    if not isinstance(doc.data, dict):
        raise RuleError([Diagnostic(display, 1, 1, "", "a rule file must be a mapping of keys")])
    parent_ref = doc.data.get("extends")
    if parent_ref is None:
        return source
    report = Report(source)
    if not isinstance(parent_ref, str):
        report.add(("extends",), "expected a game id or a path to a rule file")
        raise RuleError(report.items)
    if len(chain) >= MAX_EXTENDS:
        report.add(("extends",), f"the 'extends' chain is longer than {MAX_EXTENDS} files")
        raise RuleError(report.items)
    parent = _resolve_parent(parent_ref, path)
    if isinstance(parent, str):  # a path to a file that cannot be read
        report.add(("extends",), f"rule file '{parent_ref}': {parent}")
        raise RuleError(report.items)
    if parent is None:
        hint = suggest(parent_ref, catalog.game_names())
        report.add(("extends",), f"no game or rule file '{parent_ref}'{hint}")
        raise RuleError(report.items)
    here = resolved(path)
    if resolved(parent) in chain or resolved(parent) == here:
        cycle = " -> ".join(p.name for p in (*chain, here, resolved(parent)))
        report.add(("extends",), f"extends forms a cycle: {cycle}")
        raise RuleError(report.items)
    upper = read_source(parent, display_path(parent), (*chain, here))
    own = dict(doc.data)
    return Source(
        _merge(upper.data, own),
        [(display, doc), *upper.layers],
        problems + upper.problems,
        [(path, raw), *upper.files],
    )


def _resolve_parent(ref: str, child: Path) -> Path | str | None:
    """The parent's rule file; None when there is none, why not when it cannot be read."""
    if catalog.looks_like_path(ref):
        candidate = (child.parent / ref) if not Path(ref).is_absolute() else Path(ref)
        problem = file_problem(candidate)
        return candidate if problem is None else None if problem == "no such file" else problem
    return catalog.find_game(ref)
