"""The piles of a game: names, groups, roles and what each accepts.

This is the narrow view the vocabulary's entries are built against: an effect or a test sees
the layout of the piles, never the whole game.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from ...rules import cache
from ...rules.model import GameSpec
from ..vocab import accepts
from ..vocab.accepts import AcceptRule, compile_accepts
from .cards import canonical_deck


def accept_rules(spec: GameSpec) -> tuple[AcceptRule, ...]:
    """Every pile's compiled accept rule, in pile order.

    Compiling the tables takes longer than the rest of a game's start, so they are kept in the
    cache of rule files, keyed by the piles' accept specs and the vocabulary's code.
    """
    groups = [(group.accepts, len(group.names)) for group in spec.piles.values()]
    total = sum(n for _, n in groups)
    name = cache.key((Path(accepts.__file__).parent,), repr(groups))
    kept = cache.load("accepts", name)
    if (
        isinstance(kept, tuple)
        and len(kept) == total
        and all(isinstance(rule, AcceptRule) for rule in kept)
    ):
        found: tuple[AcceptRule, ...] = kept
        return found
    rules = tuple(compile_accepts(given, i) for given, n in groups for i in range(n))
    cache.store("accepts", name, rules)
    return rules


class Layout:
    """Pile names, groups and roles, the accept rule of each pile, and the game's cards."""

    def __init__(self, spec: GameSpec) -> None:
        names: list[str] = []
        group_of: list[str] = []
        role: list[str] = []
        self.groups: dict[str, tuple[int, ...]] = {}
        for group_name, group in spec.piles.items():
            start = len(names)
            for name in group.names:
                names.append(name)
                group_of.append(group_name)
                role.append(group.role)
            self.groups[group_name] = tuple(range(start, len(names)))
        self.names: tuple[str, ...] = tuple(names)
        self.index: dict[str, int] = {name: i for i, name in enumerate(names)}
        self.group_of: tuple[str, ...] = tuple(group_of)
        self.role: tuple[str, ...] = tuple(role)
        self.accepts: tuple[AcceptRule, ...] = accept_rules(spec)
        self.cards: tuple[int, ...] = tuple(canonical_deck(spec.decks, spec.remove))
        self.bases: dict[int, str] = {
            self.index[name]: card
            for group in spec.piles.values()
            for name, card in zip(group.names, group.bases or (), strict=False)
        }

    def __len__(self) -> int:
        return len(self.names)

    def resolve(self, refs: Iterable[str]) -> tuple[int, ...]:
        """Pile indices of pile and group names, in the order given."""
        out: list[int] = []
        for ref in refs:
            if ref in self.groups:
                out.extend(self.groups[ref])
            else:
                out.append(self.index[ref])
        return tuple(out)

    def one(self, ref: str) -> int:
        """The index of the one pile a name stands for (a pile, or a group of one)."""
        (index,) = self.resolve((ref,))
        return index

    def with_role(self, role: str) -> tuple[int, ...]:
        return tuple(i for i, r in enumerate(self.role) if r == role)
