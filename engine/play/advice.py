"""Advice for the player: a hint that knows whether the game can still be won.

``Adviser.advise`` asks the solver, within a fixed number of positions (about a second), for
a winning line from the position: its first action is then the hint. Without one in time, the
hint is the heuristic's (``hints``); when the solver proves the position lost, the advice says
so. ``no_win`` is the cheaper check made after each action: a short search that proves the
position lost, or a position where every action only brings back one already seen.
"""

from __future__ import annotations

import os
import time
from collections.abc import Container
from dataclasses import dataclass
from typing import Literal

from ..core.state import Action, State
from ..game.game import Game
from .hints import After, choose
from .solver import Budget, Solver
from .wording import score_text

Kind = Literal["winning", "heuristic", "none"]


@dataclass(frozen=True)
class Advice:
    action: Action | None
    kind: Kind  # winning: the first action of a line that wins; heuristic: the best guess
    winnable: bool | None  # True: a win was found; False: none is possible; None: not known
    note: str = ""  # a sentence for the player when no win is possible


def _lost_note(game: Game, state: State) -> str:
    return f"no win is possible: {score_text(game, state)}"


# The hint's search is bounded by positions, so that it gives the same answer on every machine
# that is fast enough, and by seconds, so that a hint never keeps the player waiting: within
# the positions on this machine, the seconds being the bound only on a slow or loaded one.
HINT_NODES = 8000
HINT_SECONDS = 0.5  # the search's
HINT_TOTAL = 0.85  # the search's and the heuristic's look-ahead together (in proportion)


def hint_seconds() -> float | None:
    """The hint's time bound: ``HINT_SECONDS``, or ``SOLITAIRE_HINT_SECONDS`` from the
    environment (a number, or ``none`` for positions only: the same hints on every machine,
    however loaded, as the tests want)."""
    text = os.environ.get("SOLITAIRE_HINT_SECONDS", "").strip().lower()
    if text == "none":
        return None
    try:
        value = float(text) if text else HINT_SECONDS
    except ValueError:
        return HINT_SECONDS
    return value if 0 < value <= 60 else HINT_SECONDS


_UNDO_ONLY = "only moves that undo earlier ones remain: undo, or start another deal"


class Adviser:
    """Hints for one game in play. It keeps the winning line it last found: while the player
    follows it, the next hint is the line's next action, so hints never wander between lines.
    A hint never leads back to a position already played (``seen``): following hints from any
    deal never goes in circles. ``after`` gives the position the player sees after an action
    (with the engine's own moves); by default the action's own result."""

    def __init__(
        self,
        game: Game,
        nodes: int = HINT_NODES,
        seconds: float | None = HINT_SECONDS,
        after: After | None = None,
        looks: int | None = None,
    ) -> None:
        self.game = game
        self.nodes = nodes
        self.seconds = seconds
        self.looks = looks  # the heuristic's look-ahead, in positions (None: seconds only)
        self.after: After = after or game.apply
        self.solver: Solver | None = None  # made at the first hint: a game start stays quick
        self.plan: dict[int, Action] = {}  # the line's positions, by key, and what to play there
        self.lost: set[State] = set()  # positions proved lost, by a hint's search or the check

    def advise(self, state: State, seen: Container[State] = ()) -> Advice:
        """The next action of a winning line if one is known or found in time, else a guess;
        never an action that leads back to a position in ``seen``."""
        game = self.game

        def fresh(action: Action) -> bool:
            return self.after(state, action) not in seen

        planned = self.plan.get(game.keys.hash(state))
        if planned is not None and planned in game.legal_actions(state) and fresh(planned):
            return Advice(planned, "winning", True)
        began = time.perf_counter()
        result = "lost" if state in self.lost else None
        if result is None:
            self.solver = self.solver or Solver(game)
            found = self.solver.solve(state, Budget(nodes=self.nodes, seconds=self.seconds))
            result = found.result
            if result == "won":
                self.plan = {
                    game.keys.hash(before): action
                    for before, action in found.line
                    if not game.autoplays(before)
                }
                moves = found.player_actions(game)
                if moves and fresh(moves[0]):
                    return Advice(moves[0], "winning", True)
            elif result == "lost":
                self.lost.add(state)
        # The whole hint's time in proportion to the search's: a budget cut short (a slow or
        # loaded machine) cuts the look-ahead short too.
        total = None if self.seconds is None else self.seconds * HINT_TOTAL / HINT_SECONDS
        deadline = None if total is None else began + total
        action = choose(
            game, state, seen, after=self.after, builds=True, deadline=deadline, looks=self.looks
        ).action
        if result == "lost":
            return Advice(action, "heuristic" if action else "none", False, _lost_note(game, state))
        if action is None and game.legal_actions(state):
            return Advice(None, "none", None, _UNDO_ONLY)
        return Advice(action, "heuristic" if action else "none", None)

    def no_win(self, state: State, seen: Container[State], nodes: int = 300) -> str | None:
        """As ``no_win``, agreeing with the hints: a position a hint's search proved lost is
        lost for the board too, and one the check proves lost is lost for the hints."""
        if state in self.lost and not self.game.is_terminal(state):
            return _lost_note(self.game, state) + "; undo, or start another deal"
        warning = no_win(self.game, state, seen, nodes, self.after)
        if warning is not None and warning != _UNDO_ONLY:
            self.lost.add(state)
        return warning


def no_win(
    game: Game,
    state: State,
    seen: Container[State],
    nodes: int = 300,
    after: After | None = None,
) -> str | None:
    """Why the game can no longer be won, when a short search proves it; else None."""
    if game.is_terminal(state):
        return None
    actions = game.legal_actions(state)

    def goes_back(action: Action) -> bool:  # the engine's own moves worked out only if needed
        if game.apply(state, action) in seen:
            return True
        return after is not None and after(state, action) in seen

    if actions and all(goes_back(a) for a in actions):
        return _UNDO_ONLY
    if Solver(game).solve(state, Budget(nodes=nodes), shorten=False).result == "lost":
        return _lost_note(game, state) + "; undo, or start another deal"
    return None
