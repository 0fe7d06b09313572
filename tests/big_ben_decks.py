"""Building Big Ben deal orders for tests: say what matters, the rest is filled in."""

from __future__ import annotations

from collections import Counter

from conftest import CANONICAL

# Base cards of f1..f12, as the rules define them.
BASES = ["6C", "7H", "8S", "9D", "10C", "JH", "QS", "KD", "2C", "3H", "4S", "5D"]
# The round-robin order of the deal (and of filling).
CLOCKWISE = ["t12", *(f"t{i}" for i in range(1, 12))]


def deck(
    tableau: dict[str, list[str]] | None = None,
    stock: list[str] | None = None,
    stock_last: list[str] | None = None,
) -> list[str]:
    """A 104-card deal order.

    ``tableau`` gives piles bottom to top (up to 3 cards; missing ones are filled in below);
    ``stock`` the first cards drawn from the stock, ``stock_last`` the last ones.
    """
    tableau = tableau or {}
    left = Counter(CANONICAL * 2)
    order = list(BASES)
    left.subtract(BASES)
    wanted = [c for cards in tableau.values() for c in cards] + (stock or []) + (stock_last or [])
    left.subtract(wanted)
    assert min(left.values()) >= 0, f"more than two copies asked for: {-left}"
    filler = [c for c in CANONICAL * 2 if left[c] > 0 and not left.subtract([c])]
    piles = {p: list(tableau.get(p, [])) for p in CLOCKWISE}
    for pile in piles.values():
        while len(pile) < 3:
            pile.insert(0, filler.pop(0))
    for k in range(3):
        order += [piles[p][k] for p in CLOCKWISE]
    order += stock or []
    order += filler
    order += stock_last or []
    assert len(order) == 104 and Counter(order) == Counter(CANONICAL * 2)
    return order
