"""The runtime: cards, piles, positions, actions, the phase machine, deals and play.

Typical use, OpenSpiel style::

    from yaml_solitaire.engine import load_game
    game = load_game("my_game.yaml")   # a game id, alias or rule-file path
    state = game.deal_seed(7)
    while not game.is_terminal(state):
        state = game.apply(state, game.legal_actions(state)[0])

The names below are imported when first used, so that the command line starts fast.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from . import build as _build

_build.choose()  # compiled or pure Python, before any compiled module can be imported

if TYPE_CHECKING:  # pragma: no cover
    from .core.state import Action, GameStalled, IllegalAction, State, Step
    from .game.game import Game
    from .game.load import UnknownGame, check_game, load_game, read_game_rules
    from .play.session import Session

_WHERE = {
    "Game": ".game.game",
    "UnknownGame": ".game.load",
    "load_game": ".game.load",
    "check_game": ".game.load",
    "read_game_rules": ".game.load",
    "Action": ".core.state",
    "IllegalAction": ".core.state",
    "State": ".core.state",
    "Step": ".core.state",
    "GameStalled": ".core.state",
    "Session": ".play.session",
}

__all__ = [
    "Action",
    "Game",
    "GameStalled",
    "IllegalAction",
    "Session",
    "State",
    "Step",
    "UnknownGame",
    "check_game",
    "load_game",
    "read_game_rules",
]


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_WHERE[name], __name__), name)
    globals()[name] = value
    return value
