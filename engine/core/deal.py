"""The deal, compiled once per game.

Steps that take cards by what they are (base cards) run for each deal; every other card's pile
depends only on its position among the cards left after them, so each pile's cards are gathered
by index, in C (``operator.itemgetter``), from the order or its face-down copy.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any, cast

from .cards import DOWN
from .state import Piles

Gather = Callable[[Sequence[int]], tuple[int, ...]]


def _gather(indices: Sequence[int]) -> Gather:
    if len(indices) == 1:
        only = indices[0]
        return lambda cards: (cards[only],)
    return cast(Gather, itemgetter(*indices))


class DealPlan:
    def __init__(self, steps: Sequence[Any], pile_count: int, card_count: int) -> None:
        self.pile_count = pile_count
        self.takers = [s for s in steps if s.kind == "take"]
        self.rearrangers = [s for s in steps if s.kind == "rearrange"]
        taken = sum(len(s.wanted) for s in self.takers) if self.takers else 0
        segments: dict[int, list[tuple[bool, list[int]]]] = {}
        dealt = 0  # positions among the cards left after the takers
        for step in steps:
            if step.kind != "lay":
                continue
            down = bool(step.flag)
            laid = step.lay(card_count - taken - dealt)
            for offset, pile in laid:
                runs = segments.setdefault(pile, [])
                if not runs or runs[-1][0] != down:
                    runs.append((down, []))
                runs[-1][1].append(dealt + offset)
            dealt += len(laid)
        # The piles every deal leaves holding cards: laid at least one, and no later step
        # may take every card off them (``keeps_piles_filled``; a new step is assumed to).
        self.filled = frozenset(
            pile
            for pile in segments
            if all(getattr(s, "keeps_piles_filled", False) for s in self.rearrangers)
        )
        self.gathers = tuple(
            (pile, tuple((down, _gather(idx)) for down, idx in runs))
            for pile, runs in segments.items()
        )
        self.any_down = any(down for _, runs in self.gathers for down, _ in runs)

    def deal(self, order: Sequence[int]) -> Piles:
        """Every pile's cards for a deal order (the first card listed is dealt first)."""
        piles: list[tuple[int, ...]] = [()] * self.pile_count
        cards = order
        if self.takers:
            cards = list(order)
            for step in self.takers:
                step.take(cards, piles)
        hidden = list(map(DOWN.__or__, cards)) if self.any_down else cards
        for pile, runs in self.gathers:
            for down, gather in runs:
                piles[pile] += gather(hidden if down else cards)
        for step in self.rearrangers:
            step.rearrange(piles)
        return tuple(piles)
