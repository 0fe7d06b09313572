"""Cards as small ints, cheap to copy, compare and hash.

A card is ``copy * 52 + suit * 13 + rank - 1`` (copy: which deck it came from). A face-down card
carries the ``DOWN`` bit. Lookup tables give rank, suit and face (``suit * 13 + rank - 1``) of any
card, face up or down, without arithmetic on the hot paths.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

from rules.notation import NotationError, card_name, parse_card

DOWN = 1 << 10
MASK = DOWN - 1
MAX_DECKS = MASK // 52

RANK: tuple[int, ...] = tuple((c & MASK) % 13 + 1 for c in range(2 * DOWN))
SUIT: tuple[int, ...] = tuple((c & MASK) % 52 // 13 for c in range(2 * DOWN))
FACE: tuple[int, ...] = tuple((c & MASK) % 52 for c in range(2 * DOWN))
NAME: tuple[str, ...] = tuple(card_name(RANK[c], SUIT[c]) for c in range(DOWN))


class DeckError(ValueError):
    """A deck order that is not exactly the game's cards."""


def face_down_count(piles: Iterable[Sequence[int]]) -> int:
    """How many cards of these piles lie face down."""
    return sum(1 for pile in piles for card in pile if card & DOWN)


def face_of(rank: int, suit: int) -> int:
    return suit * 13 + rank - 1


def card_text(card: int) -> str:
    return NAME[card & MASK]


def canonical_deck(decks: int, remove: Iterable[str] = ()) -> list[int]:
    """For each deck, suits C D H S, each A..K; minus the removed cards (earliest copy first)."""
    cards = list(range(52 * decks))
    for name in remove:
        face = face_of(*parse_card(name))
        for card in cards:
            if FACE[card] == face:
                cards.remove(card)
                break
    return cards


def shuffled(cards: Sequence[int], seed: int) -> list[int]:
    """The deal order of a seed: ``random.Random(seed).shuffle`` of the canonical order."""
    order = list(cards)
    random.Random(seed).shuffle(order)
    return order


def read_deck_text(text: str) -> list[str]:
    """Card names from ``--deck``: separated by spaces or commas, or ``@path`` to a file."""
    text = text.strip()
    if text.startswith("@"):
        path = Path(text[1:])
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise DeckError(f"cannot read deck file {path}: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise DeckError(f"deck file {path} is not text") from None
    return [t for t in text.replace(",", " ").split() if t]


def parse_deck(names: Sequence[str], cards: Sequence[int]) -> list[int]:
    """The deal order named by ``names``; it must be exactly the multiset of ``cards``."""
    faces: list[int] = []
    bad: list[str] = []
    for name in names:
        try:
            faces.append(face_of(*parse_card(name)))
        except NotationError:
            bad.append(name)
    if bad:
        shown = ", ".join(repr(b) for b in bad[:5]) + (" ..." if len(bad) > 5 else "")
        raise DeckError(f"not a card: {shown} (cards are written like 10H, QS, 7c, T♦)")
    free: dict[int, list[int]] = {}
    for card in sorted(cards, reverse=True):
        free.setdefault(FACE[card], []).append(card)
    want = Counter(FACE[c] for c in cards)
    have = Counter(faces)
    missing = want - have
    extra = have - want
    if missing or extra:
        parts = [f"the deck has {len(names)} cards, the game needs {len(cards)}"]
        if missing:
            parts.append("missing " + _listing(missing))
        if extra:
            parts.append("too many " + _listing(extra))
        raise DeckError("; ".join(parts))
    return [free[face].pop() for face in faces]


def _listing(faces: Counter[int]) -> str:
    items = [NAME[f] + (f" x{n}" if n > 1 else "") for f, n in sorted(faces.items())]
    return " ".join(items[:12]) + (" ..." if len(items) > 12 else "")
