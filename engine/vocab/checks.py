"""The bodies of the common tests of a position, as closures of the compiled build.

``conditions`` compiles a rule file's ``test:`` entries into ``State -> bool`` callables; the
flow asks them after every action, the solver at every position it reaches. The tests most
games use build their callables here, a module mypyc compiles (``conditions`` holds rule
records, which it does not take), so that asking them runs no interpreted code.
"""

from __future__ import annotations

from collections.abc import Callable

from ..core.cards import DOWN, RANK
from ..core.state import Action, State

Condition = Callable[[State], bool]


def any_cards(piles: tuple[int, ...]) -> Condition:
    """True when some of ``piles`` holds a card."""

    def check(state: State) -> bool:
        held = state.piles
        return any(held[p] for p in piles)

    return check


def any_face_down(piles: tuple[int, ...]) -> Condition:
    """True when some of ``piles`` holds a face-down card."""

    def check(state: State) -> bool:
        held = state.piles
        for p in piles:
            for card in held[p]:
                if card & DOWN:
                    return True
        return False

    return check


def any_shorter(piles: tuple[int, ...], size: int) -> Condition:
    """True when some of ``piles`` holds fewer than ``size`` cards."""

    def check(state: State) -> bool:
        held = state.piles
        return any(len(held[p]) < size for p in piles)

    return check


def cards_between(piles: tuple[int, ...], low: int, high: int) -> Condition:
    """True when ``piles`` together hold from ``low`` to ``high`` cards."""

    def check(state: State) -> bool:
        held = state.piles
        total = 0
        for p in piles:
            total += len(held[p])
        return low <= total <= high

    return check


def piles_between(piles: tuple[int, ...], low: int, high: int) -> Condition:
    """True when from ``low`` to ``high`` of ``piles`` hold cards."""

    def check(state: State) -> bool:
        held = state.piles
        total = 0
        for p in piles:
            if held[p]:
                total += 1
        return low <= total <= high

    return check


def rank_between(piles: tuple[int, ...], rank: int, low: int, high: int) -> Condition:
    """True when ``piles`` together hold from ``low`` to ``high`` cards of ``rank``."""

    def check(state: State) -> bool:
        held = state.piles
        total = 0
        for p in piles:
            for card in held[p]:
                if RANK[card] == rank:
                    total += 1
        return low <= total <= high

    return check


def no_action(legal: Callable[[State], tuple[Action, ...]]) -> Condition:
    """True when ``legal`` lists no action."""

    def check(state: State) -> bool:
        return not legal(state)

    return check
