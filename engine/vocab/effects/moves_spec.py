"""The rule records of the move effect (``effect: move``), kept apart from its implementation
in ``moves``: the implementation is compiled by mypyc, which takes no pydantic records."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Literal

from ....rules.model import ActionSpec, GameSpec, Problem, Relation
from ....rules.spec import MAX_PILES, Ge, Le, MaxLen, MinLen, PileRefs, Record, config, record

Offset = Annotated[int, Ge(-MAX_PILES), Le(MAX_PILES)]


@record
class CapacitySpec(Record):
    """How many cards may move at once, counted by the free places a move could use.

    (empty cells + 1) x 2 ^ (empty spaces): with one free cell and two empty tableau piles,
    (1 + 1) x 2 x 2 = 8 cards. An empty pile that is the move's target does not count. With
    'segments', the count is of the run's segments, not its cards.
    """

    cells: PileRefs | None = None
    """Piles whose empty places each hold one card on the way (free cells)."""
    spaces: PileRefs | None = None
    """Piles whose emptiness doubles what can move (empty tableau piles)."""
    segments: Relation | None = None
    """Count the run moved in segments instead of cards: stretches of cards that each follow
    the one below by this relation (build: down, suit: same: one-suit runs), so that a run of
    mixed suits moves when its one-suit parts could each be moved in turn."""


@record
class MoveSpec(ActionSpec):
    """The player moves cards from one pile onto another that accepts them.

    What moves is the top card, a built run (cards that follow each other by the run rule),
    any group of face-up cards from the top, or the whole pile; the target must accept the
    lowest card moved. Written 'SOURCE TARGET' ('t3 f1'), with a count for several cards
    ('t3 t5 4'); without a count, the longest run that may go there moves.
    """

    __pydantic_config__ = config(source="from", target="to")
    on_top = True
    sources = ("source",)
    destinations = ("target",)
    effect: Literal["move"]
    source: PileRefs
    """Piles cards may be taken from."""
    target: PileRefs
    """Piles cards may be put on."""
    cards: Literal["top", "run", "group", "pile"] = "top"
    """What moves: the top card; a run built by the run rule; any face-up group; the whole
    pile."""
    run: Relation | None = None
    """With cards: run, how each card of a run follows the one below it; absent: by the
    source pile's own build and suit rule. With cards: pile, a pile moves only when all its
    cards make one run by this rule; absent: any pile of face-up cards moves."""
    limit: CapacitySpec | None = None
    """How many cards may move at once (by the free cells and empty piles); absent: any."""
    reach: Annotated[tuple[Offset, ...], MinLen(1), MaxLen(8)] | None = None
    """The target must lie so many places from the source, counting only the piles of the
    source's group that hold cards (-1: the next to the left, -3: three to the left)."""
    compare: Literal["lowest", "top"] = "lowest"
    """Which moved card the target's rule is checked against: the lowest, which comes to lie
    on the target's top card; or the top one, so that piles go together by their top cards
    (Accordion's piles, where only the top card counts)."""
    end: Literal["top", "bottom"] = "top"
    """Which end of the source pile the card is taken from: the top, or the bottom (the
    first card laid, for piles open at both ends); from the bottom, one card at a time and
    never from a pile of one card (that card is its top card)."""
    safe: Literal["never", "always", "builders_home"] = "never"
    """When a move onto a foundation can never hurt, so that the engine may play it by
    itself: never; always; or builders_home: once every card that could be built on the moved
    card elsewhere is already on a foundation."""

    def ordered_fields(self) -> tuple[str, ...]:
        return ("source", "target") if self.reach is not None else ()

    def problems(self, game: GameSpec) -> Iterator[Problem]:
        if self.end == "bottom" and self.cards != "top":
            yield ("end",), "a card is taken from a pile's bottom one at a time: use 'cards: top'"
