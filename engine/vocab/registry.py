"""One registry per kind of vocabulary entry, keyed by the entry's spec class."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Registry(Generic[K, V]):
    """The implementations of one kind of entry (effects, tests, deal steps), by spec class.

    ``@REGISTRY.entry(SpecClass)`` on an implementation adds it. The rule reference lists the
    entries by module name, then in the order each module registers them (whichever modules
    were imported first).

    A registry whose entries live in modules of their own (``modules``) imports them on
    demand: looking up a spec class imports the module that implements it (the spec's own
    module, or ``name`` for a spec kept in ``name_spec``), and listing the entries imports
    them all. A game's start so imports only the entries its rule file uses.
    """

    def __init__(self, kind: str, modules: Callable[[], list[str]] | None = None) -> None:
        self.kind = kind
        self._entries: dict[type[K], tuple[str, int, V]] = {}
        self._modules = modules
        self._complete = modules is None

    def entry(self, spec: type[K]) -> Callable[[V], V]:
        def add(implementation: V) -> V:
            if spec in self._entries:
                raise ValueError(f"{self.kind}: {spec.__name__} is registered twice")
            module = getattr(implementation, "__module__", None) or spec.__module__
            self._entries[spec] = (module, len(self._entries), implementation)
            return implementation

        return add

    def _load(self, spec: object) -> None:
        """Import the module that implements ``spec``, when it is not registered yet (all of
        them, when that module does not register it)."""
        if self._complete or spec in self._entries or not isinstance(spec, type):
            return
        home = spec.__module__.removesuffix("_spec")
        if home != spec.__module__ and home not in sys.modules:
            importlib.import_module(home)
        if spec not in self._entries:
            self._load_all()

    def _load_all(self) -> None:
        if not self._complete and self._modules is not None:
            for module in self._modules():
                importlib.import_module(module)
            self._complete = True

    def __getitem__(self, spec: type[K]) -> V:
        self._load(spec)
        return self._entries[spec][2]

    def __contains__(self, spec: object) -> bool:
        self._load(spec)
        return spec in self._entries

    def __iter__(self) -> Iterator[type[K]]:
        return iter(self.specs())

    def _ordered(self) -> list[tuple[type[K], V]]:
        self._load_all()
        ordered = sorted(self._entries.items(), key=lambda item: item[1][:2])
        return [(spec, implementation) for spec, (_, _, implementation) in ordered]

    def specs(self) -> tuple[type[K], ...]:
        return tuple(spec for spec, _ in self._ordered())

    def items(self) -> list[tuple[type[K], V]]:
        return self._ordered()
