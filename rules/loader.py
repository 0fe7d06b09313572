"""Reading a rule file into a GameSpec, with every problem reported at its line and column.

``load_rules`` keeps each validated file in the cache (``rules.cache``), keyed by the bytes of
the file and of every file it extends: a game that was played once starts without YAML parsing
or validation the next time.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from . import cache
from .errors import Diagnostic, RuleError
from .files import display_path, file_problem, read_bytes
from .model import GameSpec
from .spec import Record
from .vocabulary import LazyVocabulary, Vocabulary, vocabulary_of


def _display(path: Path, given: str | Path) -> str:
    return display_path(path) if path.is_absolute() else str(given)


def check_rules(path: str | Path, vocabulary: Vocabulary | LazyVocabulary) -> list[Diagnostic]:
    """Every problem of a rule file, errors and warnings, in file order."""
    p = Path(path)
    shown = _display(p, path)
    from .checks import analyse  # YAML and validation: only when a file is checked

    _, items, _ = analyse(p, shown, vocabulary_of(vocabulary))
    return sorted(items, key=lambda d: (d.file != shown, d.file, d.line, d.column))


def _digest(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def _still_current(files: tuple[tuple[str, str], ...]) -> bool:
    for name, digest in files:
        path = Path(name)
        if file_problem(path) is not None:
            return False
        try:
            if _digest(read_bytes(path, name)) != digest:
                return False
        except RuleError:
            return False
    return True


def _a_record(cls: type) -> bool:
    return issubclass(cls, Record)


def load_rules(path: str | Path, vocabulary: Vocabulary | LazyVocabulary) -> GameSpec:
    """The GameSpec of a rule file; RuleError (with every error) when it has errors.

    A cached file needs only the folders of the vocabulary's code (a lazy vocabulary is made
    only when the file is validated).
    """
    p = Path(path)
    shown = _display(p, path)
    raw = read_bytes(p, shown)
    where = str(p.absolute())
    name = cache.key(vocabulary.code_folders, raw, where)
    entry = cache.load("rules", name, _a_record)
    if isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[0], GameSpec):
        cached: GameSpec = entry[0]
        if _still_current(entry[1]):
            return cached
    from .checks import analyse

    spec, items, source = analyse(p, shown, vocabulary_of(vocabulary))
    errors = [d for d in items if d.severity == "error"]
    if errors or spec is None or source is None:
        raise RuleError(sorted(errors, key=lambda d: (d.file, d.line, d.column)))
    parents = tuple((str(f.absolute()), _digest(b)) for f, b in source.files[1:])
    cache.store("rules", name, (spec, parents))
    return spec
