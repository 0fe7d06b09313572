"""Pile roles: what a group of piles is for. The role decides how piles are drawn and counted,
and a cell's limit of one card."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class Role:
    describe: str
    capacity: int = 0  # the most cards a pile of this role holds (0: no limit of its own)


ROLES: Final[dict[str, Role]] = {
    "foundation": Role("Where cards are built to win; drawn with the card it needs next."),
    "tableau": Role("The main piles the player builds on; drawn with every card."),
    "cell": Role("A free cell: holds one card at most (unless its max_cards says more).", 1),
    "reserve": Role("Cards held aside for play; drawn with every card."),
    "stock": Role("Cards not yet in play, face down; drawn as a count."),
    "waste": Role("Where cards from the stock are turned; drawn with its top card."),
}
