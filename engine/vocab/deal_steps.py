"""Deal steps: how the shuffled cards are laid out. One entry per ``step:`` name.

A step either lays cards by their place in the deck order (``lay``: the same piles for every
deal, so the deal is compiled once into index lookups), or picks cards by what they are
(``take``: the pile groups' base cards), which is done for each deal.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar, Generic, Literal, TypeVar

from ...rules.model import DealStepSpec, Face, GameSpec, Problem
from ...rules.notation import parse_card
from ...rules.spec import Count, PileName, PileRefs, record
from ..core.cards import DOWN, FACE, face_of
from ..core.layout import Layout
from .registry import Registry

S = TypeVar("S", bound=DealStepSpec)


def _count(game: GameSpec, refs: tuple[str, ...]) -> int:
    return sum(len(game.piles[r].names) if r in game.piles else 1 for r in refs)


class DealStep(Generic[S]):
    """The implementation of one deal step of a game."""

    # True: the step picks cards by what they are (``take``); False: by position (``lay``).
    takes_cards: ClassVar[bool] = False

    def __init__(self, spec: S, layout: Layout) -> None:
        self.spec = spec
        self.layout = layout
        self.flag = DOWN if getattr(spec, "face", "up") == "down" else 0

    def lay(self, left: int) -> list[tuple[int, int]]:
        """(position among the ``left`` cards, pile) for each card, in the order laid."""
        raise NotImplementedError

    def take(self, order: list[int], piles: list[tuple[int, ...]]) -> None:
        """Take this step's cards out of ``order`` and put them on ``piles``."""
        raise NotImplementedError


DEAL_STEPS: Registry[DealStepSpec, type[DealStep[Any]]] = Registry("deal step")


@record
class BasesSpec(DealStepSpec):
    """Take each pile's base card out of the deck order (its first occurrence) onto the pile.

    Base cards are taken out before any other step deals, wherever this step is listed.
    """

    places_bases = True
    step: Literal["bases"]
    face: Face = "up"

    def cards_dealt(self, game: GameSpec, left: int) -> int:
        return sum(len(g.bases or ()) for g in game.piles.values())

    def problems(self, game: GameSpec, bases_placed: bool) -> Iterator[Problem]:
        if bases_placed:
            yield (), "a second 'bases' step has nothing to do"
        elif not any(g.bases for g in game.piles.values()):
            yield (), "no pile group has 'bases' to deal"


@DEAL_STEPS.entry(BasesSpec)
class Bases(DealStep[BasesSpec]):
    takes_cards = True

    def __init__(self, spec: BasesSpec, layout: Layout) -> None:
        super().__init__(spec, layout)
        self.wanted = tuple(
            (pile, face_of(*parse_card(card))) for pile, card in layout.bases.items()
        )

    def take(self, order: list[int], piles: list[tuple[int, ...]]) -> None:
        for pile, face in self.wanted:
            for k, card in enumerate(order):
                if FACE[card] == face:
                    piles[pile] += (order.pop(k) | self.flag,)
                    break


@record
class RoundRobinSpec(DealStepSpec):
    """Deal one card to each pile in turn, in the order listed, for a number of passes."""

    step: Literal["round_robin"]
    piles: PileRefs
    """The piles, in dealing order."""
    passes: Count | None = None
    """How many passes; absent: until the cards run out."""
    face: Face = "down"

    def cards_dealt(self, game: GameSpec, left: int) -> int:
        if self.passes is None:
            return left
        return min(left, self.passes * _count(game, self.piles))


@DEAL_STEPS.entry(RoundRobinSpec)
class RoundRobin(DealStep[RoundRobinSpec]):
    def lay(self, left: int) -> list[tuple[int, int]]:
        piles = self.layout.resolve(self.spec.piles)
        count = left if self.spec.passes is None else min(left, self.spec.passes * len(piles))
        return [(k, piles[k % len(piles)]) for k in range(count)]


@record
class RestSpec(DealStepSpec):
    """All remaining cards go to one pile; the next card in deck order ends on top."""

    step: Literal["rest"]
    pile: PileName
    """The pile that receives the remaining cards."""
    face: Face = "down"

    def cards_dealt(self, game: GameSpec, left: int) -> int:
        return left


@DEAL_STEPS.entry(RestSpec)
class Rest(DealStep[RestSpec]):
    def lay(self, left: int) -> list[tuple[int, int]]:
        pile = self.layout.one(self.spec.pile)
        return [(k, pile) for k in reversed(range(left))]
