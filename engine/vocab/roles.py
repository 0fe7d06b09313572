"""Pile roles: what a group of piles is for. The role decides how piles are drawn and counted,
a cell's limit of one card, and that a foundation takes one card per move."""

from __future__ import annotations

from typing import Final

from ...rules.frozen import frozen_dataclass


@frozen_dataclass
class Role:
    """What a pile role is: its description and the most cards a pile of it holds."""

    describe: str
    capacity: int = 0  # the most cards a pile of this role holds (0: no limit of its own)
    # True when a move puts one card at a time on such a pile, never a run or a group: a
    # foundation is built card by card, so cards moved together would break its order.
    one_at_a_time: bool = False


ROLES: Final[dict[str, Role]] = {
    "foundation": Role(
        "Where cards are built to win, one card per move; drawn with the card it needs next.",
        one_at_a_time=True,
    ),
    "tableau": Role("The main piles the player builds on; drawn with every card."),
    "cell": Role("A free cell: holds one card at most (unless its max_cards says more).", 1),
    "reserve": Role("Cards held aside for play; drawn with every card."),
    "stock": Role("Cards not yet in play, face down; drawn as a count."),
    "waste": Role("Where cards from the stock are turned; drawn with its top card."),
}
