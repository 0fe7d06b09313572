"""The runtime: cards, piles, positions, actions, the phase machine, deals and play.

Typical use, OpenSpiel style::

    from engine import load_game
    game = load_game("my_game.yaml")   # a game id, alias or rule-file path
    state = game.deal_seed(7)
    while not game.is_terminal(state):
        state = game.apply(state, game.legal_actions(state)[0])
"""

from .effects import Action, Step
from .game import Game, IllegalAction, State, UnknownGame, load_game
from .session import Session

__all__ = [
    "Action",
    "Game",
    "IllegalAction",
    "Session",
    "State",
    "Step",
    "UnknownGame",
    "load_game",
]
