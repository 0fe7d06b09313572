"""One registry per kind of vocabulary entry, keyed by the entry's spec class."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Registry(Generic[K, V]):
    """The implementations of one kind of entry (effects, tests, deal steps), by spec class.

    ``@REGISTRY.entry(SpecClass)`` on an implementation adds it; the order of registration is
    the order of the rule reference.
    """

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._entries: dict[type[K], V] = {}

    def entry(self, spec: type[K]) -> Callable[[V], V]:
        def add(implementation: V) -> V:
            if spec in self._entries:
                raise ValueError(f"{self.kind}: {spec.__name__} is registered twice")
            self._entries[spec] = implementation
            return implementation

        return add

    def __getitem__(self, spec: type[K]) -> V:
        return self._entries[spec]

    def __contains__(self, spec: object) -> bool:
        return spec in self._entries

    def __iter__(self) -> Iterator[type[K]]:
        return iter(self._entries)

    def specs(self) -> tuple[type[K], ...]:
        return tuple(self._entries)

    def items(self) -> list[tuple[type[K], V]]:
        return list(self._entries.items())
