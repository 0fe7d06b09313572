"""The piles of a game: names, groups, roles, what each accepts, and how they lie.

This is the narrow view the vocabulary's entries are built against: an effect or a test sees
the layout of the piles, never the whole game.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from ...rules import cache
from ...rules.model import GameSpec, Grid
from ..vocab import accepts
from ..vocab.accepts import AcceptRule, compile_accepts
from ..vocab.roles import ROLES
from .cards import canonical_deck


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
        self.accepts: tuple[AcceptRule, ...] = self._accept_rules(spec)
        self.cards: tuple[int, ...] = tuple(canonical_deck(spec.decks, spec.remove, spec.suits))
        self.bases: dict[int, str | int] = {
            self.index[name]: card
            for group in spec.piles.values()
            for name, card in zip(group.names, group.bases or (), strict=False)
        }
        # covered_by[p]: piles that must be empty before p's cards can be taken (a pyramid);
        # neighbours[p]: piles that touch p (a grid).
        # columns[group]: how many piles a row of a group laid out in a grid has.
        self.columns: dict[str, int] = {
            name: group.arrangement.grid
            for name, group in spec.piles.items()
            if isinstance(group.arrangement, Grid)
        }
        self.covered_by: list[tuple[int, ...]] = [() for _ in names]
        self.neighbours: list[frozenset[int]] = [frozenset() for _ in names]
        for group_name, group in spec.piles.items():
            piles = self.groups[group_name]
            if group.arrangement == "pyramid":
                self._pyramid(piles)
            elif isinstance(group.arrangement, Grid):
                self._grid(piles, group.arrangement.grid)

    def _accept_rules(self, spec: GameSpec) -> tuple[AcceptRule, ...]:
        """Every pile's compiled accept rule, in pile order.

        Compiling the tables takes longer than the rest of a game's start, so they are kept in
        the cache of rule files, keyed by the pile groups, the vocabulary's code and the build
        (compiled classes cannot read the pickles of pure-Python ones, nor these theirs).
        """
        code = Path(accepts.__file__)
        name = cache.key((code.parent,), code.name, repr(spec.piles))
        kept = cache.load("accepts", name)
        if (
            isinstance(kept, tuple)
            and len(kept) == len(self.names)
            and all(isinstance(rule, AcceptRule) for rule in kept)
        ):
            found: tuple[AcceptRule, ...] = kept
            return found
        rules: list[AcceptRule] = []
        for group_name, group in spec.piles.items():
            piles = self.groups[group_name]
            grid = group.arrangement.grid if isinstance(group.arrangement, Grid) else 0
            for i in range(len(piles)):
                rules.append(
                    compile_accepts(
                        group.accepts,
                        i,
                        capacity=ROLES[group.role].capacity,
                        group=piles,
                        resolve=self.resolve,
                        columns=grid,
                    )
                )
        cache.store("accepts", name, tuple(rules))
        return tuple(rules)

    def _pyramid(self, piles: tuple[int, ...]) -> None:
        rows: list[tuple[int, ...]] = []
        start = 0
        while start < len(piles):
            rows.append(piles[start : start + len(rows) + 1])
            start += len(rows)
        for r, row in enumerate(rows[:-1]):
            below = rows[r + 1]
            for j, pile in enumerate(row):
                self.covered_by[pile] = tuple(below[j : j + 2])

    def _grid(self, piles: tuple[int, ...], columns: int) -> None:
        for k, pile in enumerate(piles):
            row, col = divmod(k, columns)
            touching = set()
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    r, c = row + dr, col + dc
                    n = r * columns + c
                    if (dr or dc) and 0 <= c < columns and 0 <= n < len(piles) and r >= 0:
                        touching.add(piles[n])
            self.neighbours[pile] = frozenset(touching)

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
