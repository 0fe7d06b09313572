"""Cards as small ints, cheap to copy, compare and hash.

A card is ``copy * 52 + suit * 13 + rank - 1`` (copy: which deck it came from). A face-down card
carries the ``DOWN`` bit. Lookup tables give rank, suit and face (``suit * 13 + rank - 1``) of any
card, face up or down, without arithmetic on the hot paths.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Final

from ...rules.errors import printable
from ...rules.files import Unreadable, read_limited
from ...rules.notation import SUIT_NAMES, NotationError, card_name, parse_card

# Final: the compiled build reads these as constants, not from the module's namespace.
DOWN: Final = 1 << 10
MASK: Final = DOWN - 1
MAX_DECKS: Final = MASK // 52

RANK: Final[tuple[int, ...]] = tuple((c & MASK) % 13 + 1 for c in range(2 * DOWN))
SUIT: Final[tuple[int, ...]] = tuple((c & MASK) % 52 // 13 for c in range(2 * DOWN))
FACE: Final[tuple[int, ...]] = tuple((c & MASK) % 52 for c in range(2 * DOWN))
# A card as the board shows it: its face, and whether it lies face down (not which copy it is).
SHOWN: Final[tuple[int, ...]] = tuple((c & DOWN) | FACE[c] for c in range(2 * DOWN))
NAME: tuple[str, ...] = tuple(card_name(RANK[c], SUIT[c]) for c in range(DOWN))
# Each face's bit, for sets of faces kept as the bits of an int (a table: compiled code would
# shift a literal 1 as a C int of 32 bits).
FACE_BIT: Final[tuple[int, ...]] = tuple(1 << face for face in range(52))
EVERY_FACE: Final = (1 << 52) - 1  # every face, as bits


def face_bits(faces: Iterable[int]) -> int:
    """A set of faces as the bits of an int."""
    out = 0
    for face in faces:
        out |= FACE_BIT[face]
    return out


def table_bits(table: Sequence[Iterable[int]]) -> tuple[int, ...]:
    """A table of sets of faces (what a rule takes on each face) as bits, set by set."""
    return tuple([face_bits(faces) for faces in table])


class DeckError(ValueError):
    """A deck order that is not exactly the game's cards."""


def face_down_count(piles: Iterable[Sequence[int]]) -> int:
    """How many cards of these piles lie face down."""
    return sum(1 for pile in piles for card in pile if card & DOWN)


def face_down_change(
    before: tuple[tuple[int, ...], ...], after: tuple[tuple[int, ...], ...]
) -> int:
    """How many more cards lie face down in ``after`` than in ``before`` (the same number of
    piles): only the piles that are not the very same tuples are counted, since a position
    shares with the one it came from the piles a move left alone."""
    change = 0
    for k in range(len(after)):
        old, new = before[k], after[k]
        if old is not new:
            for card in new:
                if card & DOWN:
                    change += 1
            for card in old:
                if card & DOWN:
                    change -= 1
    return change


def face_of(rank: int, suit: int) -> int:
    return suit * 13 + rank - 1


def card_text(card: int) -> str:
    return NAME[card & MASK]


def canonical_deck(
    decks: int, remove: Iterable[str] = (), suits: Iterable[str] = ("C", "D", "H", "S")
) -> list[int]:
    """For each deck, its suits (C D H S), each A..K; minus the removed cards (earliest copy)."""
    order = [SUIT_NAMES.index(s) for s in suits]
    cards = [
        copy * 52 + suit * 13 + r for copy in range(decks) for suit in order for r in range(13)
    ]
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


MAX_DECK_BYTES = 64_000  # eight decks written out with commas and spaces take about 2,000


def read_deck_text(text: str) -> list[str]:
    """Card names from ``--deck``: separated by spaces or commas, or ``@path`` to a file.

    A deck file must be a regular file of at most a few kilobytes; anything else (a device, a
    pipe, a huge file) is refused before it is read.
    """
    text = text.strip()
    if text.startswith("@"):
        text = _read_deck_file(text[1:])
    return [t for t in text.lstrip("\ufeff").replace(",", " ").split() if t]


def _read_deck_file(name: str) -> str:
    try:
        raw = read_limited(name, MAX_DECK_BYTES)
    except Unreadable as exc:
        raise DeckError(f"deck file {printable(name)}: {exc}") from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise DeckError(f"deck file {printable(name)} is not text") from None


def parse_deck(names: Sequence[str], cards: Sequence[int]) -> list[int]:
    """The deal order named by ``names``; it must be exactly the multiset of ``cards``."""
    faces: list[int] = []
    bad: list[str] = []
    for name in names[: len(cards) + 1]:  # past one card too many, the rest cannot matter
        try:
            faces.append(face_of(*parse_card(name)))
        except NotationError:
            bad.append(name)
    if bad:
        shown = ", ".join(f"'{printable(b, 12)}'" for b in bad[:5]) + (
            " ..." if len(bad) > 5 else ""
        )
        raise DeckError(f"not a card: {shown} (cards are written like 10H, QS, 7c, T♦)")
    free: dict[int, list[int]] = {}
    for card in sorted(cards, reverse=True):
        free.setdefault(FACE[card], []).append(card)
    want = Counter(FACE[c] for c in cards)
    have = Counter(faces)
    missing = want - have
    extra = have - want
    if missing or extra:
        count = f"{len(names)}" if len(names) <= len(cards) else "more than " + str(len(cards))
        parts = [f"the deck has {count} cards, the game needs {len(cards)}"]
        if missing:
            parts.append("missing " + _listing(missing))
        if extra:
            parts.append("too many " + _listing(extra))
        raise DeckError("; ".join(parts))
    return [free[face].pop() for face in faces]


def _listing(faces: Counter[int]) -> str:
    items = [NAME[f] + (f" x{n}" if n > 1 else "") for f, n in sorted(faces.items())]
    return " ".join(items[:12]) + (" ..." if len(items) > 12 else "")
