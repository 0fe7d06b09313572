"""The piles of a game: names, groups, roles, what each accepts, and how they lie.

This is the narrow view the vocabulary's entries are built against: an effect or a test sees
the layout of the piles, never the whole game. It sits below the vocabulary: the accept rules
it carries are compiled by a function it is given (``engine/vocab/accepts.py``'s ``pile_rules``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ...rules.model import Covering, GameSpec, Grid
from .accept_rules import AcceptRule, TakenBits
from .cards import FACE, canonical_deck
from .state import Piles

# Compiles every pile's accept rule for a layout (the vocabulary's ``pile_rules``).
AcceptCompiler = Callable[[GameSpec, "Layout"], tuple[AcceptRule, ...]]


class Layout:
    """Pile names, groups and roles, the accept rule of each pile, and the game's cards."""

    def __init__(self, spec: GameSpec, compile_accepts: AcceptCompiler) -> None:
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
        self.cards: tuple[int, ...] = tuple(canonical_deck(spec.decks, spec.remove, spec.suits))
        self.bases: dict[int, str | int] = {
            self.index[name]: card
            for group in spec.piles.values()
            for name, card in zip(group.names, group.bases or (), strict=False)
        }
        # covered_by[p]: piles that must be empty before p's cards can be taken (a pyramid, a
        # covering);
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
            elif isinstance(group.arrangement, Covering):
                for pile, covers in zip(piles, group.arrangement.covered_by, strict=True):
                    self.covered_by[pile] = tuple(self.index[name] for name in covers)
        # What each pile accepts, compiled by the vocabulary, which sees the layout built so far.
        self.accepts: tuple[AcceptRule, ...] = compile_accepts(spec, self)
        # What each pile takes in the position last asked about (shared by the effects).
        self.taken = TakenBits(self.accepts)

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

    def rows(self, piles: tuple[int, ...], group: str | None) -> list[tuple[int, ...]]:
        """``piles`` cut into the rows of ``group`` where it lies in a grid, else one row."""
        columns = self.columns.get(group, 0) if group is not None else 0
        if not columns:
            return [piles]
        return [piles[k : k + columns] for k in range(0, len(piles), columns)]

    def in_place(self, piles: Piles, row: tuple[int, ...]) -> int:
        """How many places from the start of ``row`` hold one card that their rule accepts
        there (each with its neighbours as they lie)."""
        accepts = self.accepts
        work = list(piles)
        for k, p in enumerate(row):
            pile = piles[p]
            if len(pile) != 1:
                return k
            work[p] = ()
            wanted = accepts[p].wanted_at(work, p)
            work[p] = pile
            if FACE[pile[0]] not in wanted:
                return k
        return len(row)
