"""Which build runs: the hot modules compiled by mypyc, or pure Python.

Installing the package compiles the modules in ``HOT`` with mypyc when a C compiler is there
(``setup.py``); each then exists twice, as ``name.py`` and as an extension module beside it,
and Python imports the extension. Both builds give the same results; the compiled one is faster.

Pure Python runs instead, with no reinstall, when ``YAML_SOLITAIRE_PURE`` is set (to anything
but ``0`` or an empty string), or when a module's source has changed since it was compiled
(an editable install being worked on): ``_compiled.json``, written by the build, holds each
compiled module's source hash. Then a finder placed first on ``sys.meta_path`` loads the
sources of all the hot modules, so that compiled and pure code never mix.

This module uses the standard library only: ``setup.py`` reads ``HOT`` from it.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

# The modules compiled by mypyc, relative to the package yaml_solitaire.engine.
HOT: tuple[str, ...] = (
    "core.cards",
    "core.accept_rules",
    "core.state",
    "core.keys",
    "core.layout",
    "core.deal",
    "core.seeds",
    "core.notation",
    "game.flow",
    "game.game",
    "vocab.accepts",
    "vocab.checks",
    "vocab.effects.base",
    "vocab.effects.moves",
    "vocab.effects.dealing",
    "vocab.effects.turning",
    "vocab.effects.removal",
    "play.hints",
    "play.dominance",
    "play.pruning",
    "play.solver",
    "play.stock",
)
PURE_VARIABLE = "YAML_SOLITAIRE_PURE"
RECORD = "_compiled.json"  # beside this file: {"sources": {module: sha256 of its source}}

COMPILED = "compiled (mypyc)"
PURE = "pure Python"

_HERE = Path(__file__).resolve().parent
_PACKAGE = __name__.rpartition(".")[0]  # yaml_solitaire.engine
_reason = ""  # why pure Python runs although compiled modules are installed


def source_path(module: str, root: Path = _HERE) -> Path:
    """The source file of a hot module (``core.cards`` -> ``root/core/cards.py``)."""
    return root.joinpath(*module.split(".")).with_suffix(".py")


def source_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _compiled_files(module: str) -> list[Path]:
    source = source_path(module)
    stem = source.with_suffix("")
    return [
        found
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
        if (found := stem.with_name(stem.name + suffix)).exists()
    ]


def _pure_wanted() -> str:
    """Why the sources should be loaded: '' when the compiled modules may run."""
    if os.environ.get(PURE_VARIABLE, "") not in ("", "0"):
        return f"{PURE_VARIABLE} is set"
    if not any(_compiled_files(module) for module in HOT):
        return ""  # nothing compiled: the sources load anyway
    try:
        record = json.loads((_HERE / RECORD).read_text(encoding="utf-8"))["sources"]
    except (OSError, ValueError, KeyError, TypeError):
        return f"{RECORD} is missing: reinstall to compile again"
    for module in HOT:
        try:
            same = record.get(module) == source_hash(source_path(module))
        except (OSError, AttributeError):
            same = False
        if not same:
            return f"{module} changed since it was compiled: reinstall to compile again"
    return ""


class _SourceFirst:
    """A meta path finder that loads the hot modules from their ``.py`` files."""

    def __init__(self, names: dict[str, Path]) -> None:
        self.names = names

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        source = self.names.get(fullname)
        if source is None:
            return None
        return importlib.util.spec_from_file_location(fullname, source)


def choose() -> None:
    """Decide, before any hot module is imported, whether the compiled modules may load."""
    global _reason
    _reason = _pure_wanted()
    if _reason and not any(isinstance(f, _SourceFirst) for f in sys.meta_path):
        names = {f"{_PACKAGE}.{module}": source_path(module) for module in HOT}
        sys.meta_path.insert(0, _SourceFirst(names))


def is_compiled(module: ModuleType) -> bool:
    """Whether a module was loaded from an extension module (compiled) rather than source."""
    origin = getattr(module, "__file__", None) or ""
    return origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def hot_modules() -> list[ModuleType]:
    """The hot modules, imported (the vocabulary first, as the engine's users import it)."""
    importlib.import_module(f"{_PACKAGE}.vocab")
    return [importlib.import_module(f"{_PACKAGE}.{module}") for module in HOT]


def build_kind() -> str:
    """'compiled (mypyc)' when every hot module runs compiled, else 'pure Python' (with the
    reason when compiled modules are installed but not used)."""
    loaded = [is_compiled(module) for module in hot_modules()]
    if all(loaded):
        return COMPILED
    if any(loaded):  # cannot happen through this module's finder; said plainly if it does
        return f"{PURE} and {COMPILED} mixed: reinstall"
    return f"{PURE} ({_reason})" if _reason else PURE
