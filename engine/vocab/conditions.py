"""Tests of a position: what a rule file's ``test:`` names do. One entry per name.

Each entry is a spec class and, below it, a function registered under it that compiles the
spec into a plain ``State -> bool`` callable for the flow table. The common tests take their
callables from ``checks``, which the compiled build compiles (this module holds rule records,
which mypyc does not take); any other callable serves as well, only slower.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Annotated, Any, Literal

from ...rules.model import ConditionSpec, GameSpec, Grid, Problem, Relation
from ...rules.spec import MAX_CARDS, Count, Ge, Le, PileRef, PileRefs, Rank, record

# RANK is for new entries, as in the worked example of docs/vocabulary.md.
from ..core.cards import DOWN, FACE, RANK  # noqa: F401
from ..core.layout import Layout
from ..core.state import Action, State
from . import checks
from .accepts import relation_table
from .registry import Registry

Condition = checks.Condition
LegalActions = Callable[[State], tuple[Action, ...]]
Compile = Callable[[Any, Layout, LegalActions], Condition]

TESTS: Registry[ConditionSpec, Compile] = Registry("test")


@record
class NotEmptySpec(ConditionSpec):
    """True when some listed pile holds a card."""

    test: Literal["not_empty"]
    piles: PileRefs
    """The piles looked at."""

    def relations_read(self) -> tuple[Relation, ...] | None:
        return ()  # cards counted, not read


@TESTS.entry(NotEmptySpec)
def not_empty(spec: NotEmptySpec, layout: Layout, legal: LegalActions) -> Condition:
    return checks.any_cards(layout.resolve(spec.piles))


@record
class FaceDownSpec(ConditionSpec):
    """True when some listed pile (all piles when absent) holds a face-down card."""

    test: Literal["face_down"]
    piles: PileRefs | None = None
    """The piles looked at; absent: all."""

    def relations_read(self) -> tuple[Relation, ...] | None:
        return ()  # whether cards lie face down


@TESTS.entry(FaceDownSpec)
def face_down(spec: FaceDownSpec, layout: Layout, legal: LegalActions) -> Condition:
    idx = layout.resolve(spec.piles) if spec.piles else tuple(range(len(layout)))
    return checks.any_face_down(idx)


@record
class ShortPileSpec(ConditionSpec):
    """True when some listed pile holds fewer cards than ``size``."""

    test: Literal["short_pile"]
    piles: PileRefs
    """The piles looked at."""
    size: Count
    """A pile below this size is short."""

    def relations_read(self) -> tuple[Relation, ...] | None:
        return ()  # cards counted, not read


@TESTS.entry(ShortPileSpec)
def short_pile(spec: ShortPileSpec, layout: Layout, legal: LegalActions) -> Condition:
    return checks.any_shorter(layout.resolve(spec.piles), spec.size)


@record
class HoldsAllCardsSpec(ConditionSpec):
    """True when the listed piles together hold every card of the game."""

    test: Literal["holds_all_cards"]
    piles: PileRefs
    """The piles looked at."""

    def relations_read(self) -> tuple[Relation, ...] | None:
        return ()  # cards counted, not read


@TESTS.entry(HoldsAllCardsSpec)
def holds_all_cards(spec: HoldsAllCardsSpec, layout: Layout, legal: LegalActions) -> Condition:
    total = len(layout.cards)
    return checks.cards_between(layout.resolve(spec.piles), total, total)


@record
class NoLegalActionSpec(ConditionSpec):
    """True when the player has no legal action in the current phase."""

    reads_legal_actions = True
    test: Literal["no_legal_action"]

    def relations_read(self) -> tuple[Relation, ...] | None:
        return ()  # the legal actions, which read cards by the rules


@TESTS.entry(NoLegalActionSpec)
def no_legal_action(spec: NoLegalActionSpec, layout: Layout, legal: LegalActions) -> Condition:
    return checks.no_action(legal)


Amount = Annotated[int, Ge(0), Le(MAX_CARDS)]


@record
class CountSpec(ConditionSpec):
    """True when a count over the listed piles lies within bounds.

    What is counted: their cards (of one rank only, with ``rank``), or how many of the piles
    hold cards (``of: piles``).
    """

    test: Literal["count"]
    piles: PileRefs
    """The piles looked at."""
    of: Literal["cards", "piles"] = "cards"
    """Count cards, or the piles that hold cards."""
    rank: Rank | None = None
    """Count only cards of this rank."""
    at_least: Amount | None = None
    """True only when the count is at least this."""
    at_most: Amount | None = None
    """True only when the count is at most this."""

    def problems(self, game: GameSpec) -> Iterator[Problem]:
        if self.at_least is None and self.at_most is None:
            yield ("at_least",), "give 'at_least', 'at_most' or both"
        if self.of == "piles" and self.rank is not None:
            yield ("rank",), "'rank' counts cards; it does not go with 'of: piles'"

    def relations_read(self) -> tuple[Relation, ...] | None:
        return ()  # cards counted, by rank at most


@TESTS.entry(CountSpec)
def count(spec: CountSpec, layout: Layout, legal: LegalActions) -> Condition:
    idx = layout.resolve(spec.piles)
    low = spec.at_least if spec.at_least is not None else 0
    high = spec.at_most if spec.at_most is not None else MAX_CARDS
    if spec.of == "piles":
        return checks.piles_between(idx, low, high)
    if spec.rank is None:
        return checks.cards_between(idx, low, high)
    return checks.rank_between(idx, spec.rank, low, high)


@record
class RowsBuiltSpec(ConditionSpec):
    """True when every row of a group laid out in a grid begins, at its first pile, with
    ``length`` face-up cards that each follow the card on their left by the relation."""

    test: Literal["rows_built"]
    piles: PileRef
    """The group looked at; its piles must lie in a grid ('arrangement: {grid: N}')."""
    length: Count
    """How many cards each row must begin with."""
    relation: Relation
    """How each card follows the one on its left (build: up, suit: same: the next rank of
    its suit)."""

    def problems(self, game: GameSpec) -> Iterator[Problem]:
        group = game.piles.get(self.piles)
        if group is None:
            if any(self.piles in g.names for g in game.piles.values()):
                yield (
                    ("piles",),
                    (
                        f"'{self.piles}' is one pile; 'rows_built' looks at a group whose piles "
                        "lie in a grid"
                    ),
                )
            return
        if not isinstance(group.arrangement, Grid):
            yield ("piles",), f"'{self.piles}' does not lie in a grid ('arrangement: {{grid: N}}')"
        elif self.length > group.arrangement.grid:
            columns = group.arrangement.grid
            yield ("length",), f"a row of '{self.piles}' has only {columns} piles"

    def relations_read(self) -> tuple[Relation, ...] | None:
        return (self.relation,)


@TESTS.entry(RowsBuiltSpec)
def rows_built(spec: RowsBuiltSpec, layout: Layout, legal: LegalActions) -> Condition:
    piles, columns = layout.groups[spec.piles], layout.columns[spec.piles]
    rows = [piles[start : start + spec.length] for start in range(0, len(piles), columns)]
    link = relation_table((spec.relation,), False, 0)

    def built(state: State) -> bool:
        for row in rows:
            if len(row) < spec.length:
                return False
            below = -1
            for pile in row:
                cards = state.piles[pile]
                if not cards or cards[-1] & DOWN:
                    return False
                face = FACE[cards[-1]]
                if below >= 0 and face not in link[below]:
                    return False
                below = face
        return True

    return built
