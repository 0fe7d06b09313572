"""Positions and actions: plain immutable data, cheap to copy, compare and hash.

A position is every pile's cards, bottom to top (cards are small ints, see ``cards``), and the
phase of the game. An action names what the player does and the piles it uses.
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from mypy_extensions import mypyc_attr

Pile = tuple[int, ...]
Piles = tuple[Pile, ...]


class State(NamedTuple):
    """A position: every pile's cards from bottom to top, the phase of the game, and the
    counts some actions keep (how often the stock was turned over, for a limited redeal)."""

    piles: Piles
    phase: str
    counts: tuple[int, ...] = ()


# The NamedTuple's own constructor runs a Python-level __new__; the hot paths (an effect's
# apply, the flow's settling) build positions with the tuple's C constructor instead.
# (Final: compiled code keeps them in C statics, not looked up in the module's dict per call)
_tuple_new: Final[Any] = tuple.__new__
_STATE: Final[Any] = State


def new_state(piles: Piles, phase: str, counts: tuple[int, ...]) -> State:
    """``State(piles, phase, counts)``, built faster."""
    return _tuple_new(_STATE, (piles, phase, counts))  # type: ignore[no-any-return]


class Action(NamedTuple):
    """A player's action: its name and, where it uses them, piles and a number.

    ``src`` and ``dst`` are pile indices (-1: not used); ``n`` is a count or a position
    within a pile (0: not used). Actions from ``Game.legal_actions`` are always well formed.
    """

    name: str
    src: int = -1
    dst: int = -1
    n: int = 0  # how many cards a run move takes; for some actions a position in a pile


_ACTION: Final[Any] = Action


def new_action(name: str, src: int, dst: int, n: int) -> Action:
    """``Action(name, src, dst, n)``, built faster (see ``new_state``)."""
    return _tuple_new(_ACTION, (name, src, dst, n))  # type: ignore[no-any-return]


class Step(NamedTuple):
    """One card moved by an effect, for traces and reports: card, from pile, to pile."""

    card: int
    src: int
    dst: int


Trace = list[Step]


class IllegalAction(ValueError):
    """An action that the rules do not allow now; the message says why, in one line."""


@mypyc_attr(native_class=False)  # mypyc compiles no native subclass of RuntimeError
class GameStalled(RuntimeError):
    """The engine, playing by itself, stopped making progress (a position came back)."""


def same_piles(these: tuple[Pile, ...], those: tuple[Pile, ...]) -> bool:
    """Whether two selections of piles are the very same tuples, one by one: positions share
    the piles a move left alone, so what was worked out for one selection holds for the other
    (an identity test; no pile is compared or hashed card by card)."""
    return all(these[k] is those[k] for k in range(len(these)))
