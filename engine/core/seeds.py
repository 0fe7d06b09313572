"""Deal numbers: ``N`` (the canonical order shuffled by ``random.Random(N)``) or ``ms:N``
(Microsoft FreeCell's deal N, for games that deal their 52 cards as FreeCell does).

Microsoft's deals come from its C library's generator, seeded with N: the deck starts as
AC AD AH AS 2C ... KS, and each card dealt is taken from a place the generator picks among the
cards left, the last card filling that place. The cards are dealt row by row onto eight
columns, so the n-th card dealt goes to column n mod 8, as a round robin over eight piles deals.
"""

from __future__ import annotations

from .cards import face_of

Seed = int | str
MAX_SEED = 2**63
MS_PREFIX = "ms:"
MS_LAST = 2**31 - 1  # Microsoft's numbers are those its generator takes: 1 .. 2**31 - 1


def parse_seed(text: str) -> Seed:
    """A deal number from its text ('7' or 'ms:11982'); ValueError with the reason."""
    raw = text.strip()
    if raw.lower().startswith(MS_PREFIX):
        digits = raw[len(MS_PREFIX) :]
        if not digits.isdigit() or not 1 <= int(digits) <= MS_LAST:
            raise ValueError(f"a Microsoft deal is ms:1 to ms:{MS_LAST}")
        return f"{MS_PREFIX}{int(digits)}"
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(f"not a deal number: {raw[:40]!r} (a whole number, or ms:N)") from None
    if not 0 <= value < MAX_SEED:
        raise ValueError("a seed is a whole number from 0 to 2**63 - 1, or ms:N")
    return value


def is_seed(value: object) -> bool:
    """Whether ``value`` (from a record, say) is a deal number in one of its two forms."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return 0 <= value < MAX_SEED
    if isinstance(value, str):
        try:
            return parse_seed(value) == value
        except ValueError:
            return False
    return False


def seed_after(seed: Seed, count: int) -> Seed:
    """The deal number ``count`` places after ``seed``, in the same form."""
    if isinstance(seed, str):
        return f"{MS_PREFIX}{min(MS_LAST, int(seed[len(MS_PREFIX) :]) + count)}"
    return seed + count


def ms_number(seed: Seed) -> int | None:
    """Microsoft's deal number of an ``ms:N`` seed (None for a plain seed)."""
    return int(seed[len(MS_PREFIX) :]) if isinstance(seed, str) else None


def ms_faces(number: int) -> list[int]:
    """The 52 faces (``suit * 13 + rank - 1``) of Microsoft's deal ``number``, in dealing order."""
    deck = [face_of(index // 4 + 1, index % 4) for index in range(52)]  # AC AD AH AS 2C ...
    state = number
    out: list[int] = []
    for left in range(52, 0, -1):
        state = (state * 214013 + 2531011) & 0x7FFFFFFF
        place = (state >> 16) % left
        out.append(deck[place])
        deck[place] = deck[left - 1]
    return out
