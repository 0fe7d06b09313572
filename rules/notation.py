"""Card notation shared by rule files and the engine.

A card is written rank then suit: ``A 2 .. 10 J Q K`` and ``C D H S`` (``10H``, ``QS``).
Input is forgiving (``T`` for ten, lower case, suit symbols); output is always canonical.
"""

from __future__ import annotations

RANK_NAMES: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_NAMES: tuple[str, ...] = ("C", "D", "H", "S")
SUIT_SYMBOLS: tuple[str, ...] = ("\u2663", "\u2666", "\u2665", "\u2660")

_RANK_INPUT: dict[str, int] = {name: i + 1 for i, name in enumerate(RANK_NAMES)}
_RANK_INPUT.update({"T": 10, "1": 1})
_SUIT_INPUT: dict[str, int] = {name: i for i, name in enumerate(SUIT_NAMES)}
_SUIT_INPUT.update({sym: i for i, sym in enumerate(SUIT_SYMBOLS)})
# Symbols as some terminals and keyboards produce them (white variants, emoji selector).
_SUIT_INPUT.update({"\u2667": 0, "\u2662": 1, "\u2661": 2, "\u2664": 3})


class NotationError(ValueError):
    """A card or rank name that cannot be read."""


def parse_rank(text: str | int) -> int:
    """Rank number 1..13 from ``A``, ``10``, ``T``, ``q`` or an int 1..13."""
    if isinstance(text, bool):
        raise NotationError(f"not a rank: {text!r}")
    if isinstance(text, int):
        if 1 <= text <= 13:
            return text
        raise NotationError(f"rank {text} is out of range 1..13")
    rank = _RANK_INPUT.get(text.strip().upper())
    if rank is None:
        raise NotationError(f"not a rank: {text!r} (expected one of {' '.join(RANK_NAMES)})")
    return rank


def parse_card(text: str) -> tuple[int, int]:
    """``(rank 1..13, suit 0..3)`` from a card name such as ``10H``, ``th``, ``Q♠``."""
    raw = text.strip().replace("\ufe0f", "")
    if len(raw) < 2:
        raise NotationError(f"not a card: {text!r} (expected rank then suit, e.g. 10H or QS)")
    suit = _SUIT_INPUT.get(raw[-1].upper())
    rank = _RANK_INPUT.get(raw[:-1].upper())
    if suit is None or rank is None:
        raise NotationError(f"not a card: {text!r} (expected rank then suit, e.g. 10H or QS)")
    return rank, suit


def card_name(rank: int, suit: int) -> str:
    return RANK_NAMES[rank - 1] + SUIT_NAMES[suit]


def rank_name(rank: int) -> str:
    return RANK_NAMES[rank - 1]
