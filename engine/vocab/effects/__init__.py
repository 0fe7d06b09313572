"""Effects: what an action does to the piles. One entry per ``effect:`` name.

Each entry is a spec class (the keys a rule file gives it, with their descriptions) and, right
below it, its implementation, registered under the spec class in ``EFFECTS`` (a spec kept apart
from a compiled implementation ``name`` lives in ``name_spec``). The entries live in the modules
of this package by family (moves, chains, dealing, removal). A module is imported when a game
uses one of its entries, and every module here when the entries are listed (validation, the
reference), so a new module needs no other change. An implementation generates the legal
actions of a position, says why an action is refused, and applies an action, returning a new
position (positions are immutable, so undo is a stack).
"""

from __future__ import annotations

from typing import Any

from ....rules.model import ActionSpec
from ..registry import Registry
from .base import Effect, replace

__all__ = ["EFFECTS", "Effect", "entry_modules", "replace"]


def entry_modules() -> list[str]:
    """The modules of this package, each defining entries (the base class's module and
    mypyc's shared libraries aside)."""
    import pkgutil  # only when the entries are listed

    names = (m.name for m in pkgutil.iter_modules(__path__))
    return [
        f"{__name__}.{name}"
        for name in sorted(names)
        if name != "base" and not name.endswith("__mypyc")
    ]


# Filled as a game's actions need their entries, or all at once when the entries are listed.
EFFECTS: Registry[ActionSpec, type[Effect[Any]]] = Registry("effect", entry_modules)
