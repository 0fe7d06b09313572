"""Advice for the player: a hint that knows whether the game can still be won.

``Adviser.advise`` asks the solver, within a fixed number of positions (about a second), for
a winning line from the position: its first action is then the hint. Without one in time, the
hint is the heuristic's (``hints``); when the solver proves the position lost, the advice says
so. ``no_win`` is the cheaper check made after each action: a short search that proves the
position lost, or a position where every action only brings back one already seen.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass
from typing import Literal

from ..core.game import Game
from ..core.state import Action, State
from .hints import suggest
from .solver import Budget, Solver

Kind = Literal["winning", "heuristic", "none"]


@dataclass(frozen=True)
class Advice:
    action: Action | None
    kind: Kind  # winning: the first action of a line that wins; heuristic: the best guess
    winnable: bool | None  # True: a win was found; False: none is possible; None: not known
    note: str = ""  # a sentence for the player when no win is possible


def _lost_note(game: Game, state: State) -> str:
    return f"no win is possible from here: {game.score(state)} {game.spec.score.label}"


# The hint's search is bounded by positions, not seconds, so that it gives the same answer on
# every machine: about a second's worth here.
HINT_NODES = 8000


class Adviser:
    """Hints for one game in play. It keeps the winning line it last found: while the player
    follows it, the next hint is the line's next action, so hints never wander between lines
    (a fresh search from each position could pick a line that starts by undoing the last move,
    and then the one before again, for ever)."""

    def __init__(self, game: Game, nodes: int = HINT_NODES) -> None:
        self.game = game
        self.nodes = nodes
        self.solver: Solver | None = None  # made at the first hint: a game start stays quick
        self.plan: dict[int, Action] = {}  # the line's positions, by key, and what to play there

    def advise(self, state: State, seen: Container[State] = ()) -> Advice:
        """The next action of a winning line if one is known or found in time, else a guess."""
        game = self.game
        planned = self.plan.get(game.keys.hash(state))
        if planned is not None and planned in game.legal_actions(state):
            return Advice(planned, "winning", True)
        self.solver = self.solver or Solver(game)
        found = self.solver.solve(state, Budget(nodes=self.nodes))
        if found.result == "won":
            self.plan = {
                game.keys.hash(before): action
                for before, action in found.line
                if not game.autoplays(before)
            }
            moves = found.player_actions(game)
            if moves:
                return Advice(moves[0], "winning", True)
        action = suggest(game, state, seen)
        if found.result == "lost":
            return Advice(action, "heuristic" if action else "none", False, _lost_note(game, state))
        return Advice(action, "heuristic" if action else "none", None)


def no_win(game: Game, state: State, seen: Container[State], nodes: int = 300) -> str | None:
    """Why the game can no longer be won, when a short search proves it; else None."""
    if game.is_terminal(state):
        return None
    actions = game.legal_actions(state)
    if actions and all(game.apply(state, a) in seen for a in actions):
        return "only moves that undo earlier ones remain: undo, or start another deal"
    if Solver(game).solve(state, Budget(nodes=nodes)).result == "lost":
        return _lost_note(game, state) + "; undo, or start another deal"
    return None
