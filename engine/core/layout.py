"""The piles of a game: names, groups, roles and what each accepts.

This is the narrow view the vocabulary's entries are built against: an effect or a test sees
the layout of the piles, never the whole game.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...rules.model import GameSpec
from ..vocab.accepts import AcceptRule, compile_accepts
from .cards import canonical_deck


class Layout:
    """Pile names, groups and roles, the accept rule of each pile, and the game's cards."""

    def __init__(self, spec: GameSpec) -> None:
        names: list[str] = []
        group_of: list[str] = []
        role: list[str] = []
        rules: list[AcceptRule] = []
        self.groups: dict[str, tuple[int, ...]] = {}
        for group_name, group in spec.piles.items():
            start = len(names)
            for i, name in enumerate(group.names):
                names.append(name)
                group_of.append(group_name)
                role.append(group.role)
                rules.append(compile_accepts(group.accepts, i))
            self.groups[group_name] = tuple(range(start, len(names)))
        self.names: tuple[str, ...] = tuple(names)
        self.index: dict[str, int] = {name: i for i, name in enumerate(names)}
        self.group_of: tuple[str, ...] = tuple(group_of)
        self.role: tuple[str, ...] = tuple(role)
        self.accepts: tuple[AcceptRule, ...] = tuple(rules)
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
