"""The engine's tests of a position: what a rule file's ``test:`` names do.

Each entry compiles one condition spec into a plain ``State -> bool`` callable for the flow
table; the registry's names are exactly the model's (a test checks it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rules import model as m

from .cards import DOWN

if TYPE_CHECKING:
    from .game import Game, State

Condition = Callable[["State"], bool]


def _not_empty(game: Game, spec: m.NotEmpty) -> Condition:
    idx = game.resolve(spec.piles)
    return lambda s: any(s.piles[i] for i in idx)


def _face_down(game: Game, spec: m.FaceDown) -> Condition:
    idx = game.resolve(spec.piles) if spec.piles else tuple(range(len(game.pile_names)))
    # Face-down cards carry the DOWN bit, the highest: max() finds one in C.
    return lambda s: any(s.piles[i] and max(s.piles[i]) >= DOWN for i in idx)


def _short_pile(game: Game, spec: m.ShortPile) -> Condition:
    idx, size = game.resolve(spec.piles), spec.size
    return lambda s: any(len(s.piles[i]) < size for i in idx)


def _holds_all_cards(game: Game, spec: m.HoldsAllCards) -> Condition:
    idx, total = game.resolve(spec.piles), len(game.cards)
    return lambda s: sum(len(s.piles[i]) for i in idx) == total


def _no_legal_action(game: Game, spec: m.NoLegalAction) -> Condition:
    return lambda s: not game.legal_actions(s)


CONDITIONS: dict[str, Callable[[Game, Any], Condition]] = {
    "not_empty": _not_empty,
    "face_down": _face_down,
    "short_pile": _short_pile,
    "holds_all_cards": _holds_all_cards,
    "no_legal_action": _no_legal_action,
}
