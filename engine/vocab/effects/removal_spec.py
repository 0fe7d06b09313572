"""The rule records of the removal effects (``remove_runs``, ``pair``, ``close_gaps``), kept
apart from their implementations in ``removal``: those are compiled by mypyc, which takes no
pydantic records."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, ClassVar, Literal

from ....rules.model import ActionSpec, Face, GameSpec, Problem, Relation
from ....rules.spec import Count, Ge, Le, MaxLen, PileName, PileRefs, Rank, config, record


@record
class RemoveRunsSpec(ActionSpec):
    """Take a finished run off the top of a pile onto an empty pile of another group.

    A run is ``length`` face-up cards whose lowest (bottom) card has the rank ``starts_at``
    and where each card follows the one below it by the run rule: a King-to-Ace run of one suit,
    say, goes to an empty foundation. Written 'NAME PILE' ('collect t3').
    """

    __pydantic_config__ = config(source="from", target="to")
    disjoint = (("source", "target"),)
    progresses: ClassVar[bool] = True
    sources = ("source",)
    destinations = ("target",)
    effect: Literal["remove_runs"]
    source: PileRefs
    """Piles a run may be taken from."""
    target: PileRefs
    """Piles a run may go to: the first empty one takes it."""
    length: Count = 13
    """How many cards a finished run has."""
    starts_at: Rank = 13
    """The rank of the run's bottom card (K for a King-to-Ace run)."""
    run: Relation = Relation(build="down", suit="same")
    """How each card of the run follows the one below it."""


@record
class PairSpec(ActionSpec):
    """Remove two top cards that go together, or one that goes alone, onto a pile.

    Two cards go together when their ranks add up to ``sum`` (A 1, J 11, Q 12, K 13) or, with
    ``same_rank``, when they have the same rank; with ``adjacent`` their piles must touch in
    the group's grid. A pile that is covered (by piles of the row below) cannot give its card.
    Written 'PILE PILE' ('t5 w') or, for a card that goes alone, 'NAME PILE' ('pair t7').
    """

    __pydantic_config__ = config(source="from", target="to")
    disjoint = (("source", "target"),)
    progresses: ClassVar[bool] = True
    sources = ("source",)
    destinations = ("target",)
    effect: Literal["pair"]
    source: PileRefs
    """Piles whose top cards may be removed."""
    target: PileName
    """The pile removed cards go to."""
    sum: Annotated[int, Ge(2), Le(26)] | None = None
    """Two cards go together when their ranks add up to this."""
    same_rank: bool = False
    """Two cards go together when they have the same rank."""
    alone: Annotated[tuple[Rank, ...], MaxLen(13)] = ()
    """Ranks whose cards go on their own (Kings, where pairs add up to 13)."""
    adjacent: bool = False
    """The two piles must touch (their group is arranged as a grid)."""

    def problems(self, game: GameSpec) -> Iterator[Problem]:
        if (self.sum is None) == (not self.same_rank):
            yield ("sum",), "give either 'sum' or 'same_rank: true': how two cards go together"


@record
class CloseGapsSpec(ActionSpec):
    """Close up a group's gaps, then fill the empty piles at its end from another pile.

    The piles that hold cards slide towards the first piles, keeping their order (Monte
    Carlo's layout closing up); then each empty pile, in order, gets one card from 'from'.
    """

    __pydantic_config__ = config(source="from")
    disjoint = (("source", "piles"),)
    sources = ("piles", "source")
    destinations = ("piles",)
    ordered = ("piles",)
    effect: Literal["close_gaps"]
    piles: PileRefs
    """The piles that close up, in order."""
    source: PileName | None = None
    """The pile that fills the empty piles afterwards; absent: none are filled."""
    face: Face = "up"
