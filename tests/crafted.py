"""Helpers for the tests of the shipped games: crafted deal orders and reference lines.

``crafted(game, piles, stock)`` works out, from the game's own deal, which place in the deal
order ends where, so a test says 't3 ends with 8S 7H' or 'the stock turns AC first' and gets a
whole deal order back (every other card in canonical order, first copies first).
``lines(name)`` reads the commands of a reference deal kept in ``tests/data``.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from yaml_solitaire.engine import Game
from yaml_solitaire.engine.core.cards import MASK, card_text


def crafted(
    game: Game, piles: dict[str, list[str]] | None = None, stock: list[str] | None = None
) -> list[str]:
    """A deal order for ``game`` (a game without base cards).

    ``piles`` gives the top cards of piles, bottom to top (the last one listed is the top
    card); ``stock`` the first cards the stock gives, in the order it gives them.
    """
    count = len(game.cards)
    place = {card: k for k, card in enumerate(game.cards)}
    dealt = game.deal(list(game.cards))  # card k of the canonical order at place k
    order: list[str | None] = [None] * count
    index = game.layout.index
    for name, cards in (piles or {}).items():
        pile = dealt.piles[index[name]]
        assert len(cards) <= len(pile), f"{name} is dealt {len(pile)} cards"
        for card, slot in zip(cards, pile[len(pile) - len(cards) :], strict=True):
            order[place[slot & MASK]] = card
    if stock:
        pile = dealt.piles[index["s"]]
        for card, slot in zip(stock, reversed(pile), strict=False):
            order[place[slot & MASK]] = card
    names = [card_text(c) for c in game.cards]
    left = Counter(names)
    left.subtract(c for c in order if c is not None)
    assert min(left.values()) >= 0, f"more copies asked for than the game has: {-left}"
    filler = []
    for name in names:
        if left[name] > 0:
            left[name] -= 1
            filler.append(name)
    filled = iter(filler)
    out = [c if c is not None else next(filled) for c in order]
    assert Counter(out) == Counter(names)
    return out


DATA = Path(__file__).resolve().parent / "data"


def lines(name: str) -> list[str]:
    """The commands of ``tests/data/NAME``, one a line, blank lines left out."""
    text = (DATA / name).read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip()]
