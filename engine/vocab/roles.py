"""Pile roles: what a group of piles is for. The role decides how piles are drawn and counted."""

from __future__ import annotations

from typing import Final

ROLES: Final[dict[str, str]] = {
    "foundation": "Where cards are built to win; drawn with the card it needs next.",
    "tableau": "The main piles the player builds on; drawn with every card.",
    "cell": "A free cell: a place for single cards; drawn with its card.",
    "reserve": "Cards held aside for play; drawn with every card.",
    "stock": "Cards not yet in play, face down; drawn as a count.",
    "waste": "Where cards from the stock are turned; drawn with its top card.",
}
