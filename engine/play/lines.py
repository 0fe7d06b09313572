"""A solved line as the player types it into ``solitaire play``, automatic moves off or on.

The solver's line holds every action from the deal to the win, each with the position it is
played in. With automatic moves off (``play --no-auto``) the player types each action the engine
does not play by itself (phases that play themselves), its text written for its position so that
it means that action and no other there. With automatic moves on, the engine also plays safe
moves to the foundations and a forced finish after every command: ``with_auto`` replays the line
that way and leaves out what the engine played by itself. Where the engine's own moves lead off
the line (it played a move the solver made later, or one the solver did not make), the rest of
the line is searched again from the position reached.
"""

from __future__ import annotations

from ..core.state import Action, State
from ..game.game import Game
from .progress import Deal, Progress
from .solver import Budget, Solution, Solver

# How many times a line may be searched again when automatic moves lead off it.
RESEARCH_MOST = 50


def typed(game: Game, line: list[tuple[State, Action]]) -> list[str]:
    """The texts a player types with automatic moves off, one per action of the player."""
    return [game.action_text(a, before) for before, a in line if not game.autoplays(before)]


def with_auto(
    game: Game, order: list[int], found: Solution, budget: Budget | None = None
) -> list[str] | None:
    """The texts a player types with automatic moves on to play the solved deal ``order`` to
    its win; None when the engine's own moves led off the line and no new line was found
    within ``budget``."""
    progress = Progress(game, Deal(None, order), auto=True)
    session = progress.session
    line = found.line
    place = {state: k for k, (state, _) in enumerate(line)}
    texts: list[str] = []
    searches = 0
    done = -1  # the line's last action played: the replay never goes back along it
    while not session.is_over():
        position = session.position
        k = place.get(position, -1)
        if k <= done:  # off the line: a new one from here
            searches += 1
            if searches > RESEARCH_MOST:
                return None
            again = Solver(game).solve(position, budget)
            if again.result != "won" or not again.line:
                return None
            line = again.line
            place = {state: k for k, (state, _) in enumerate(line)}
            done = -1
            continue
        action = line[k][1]
        texts.append(game.action_text(action, position))
        session.push(action)
        progress.settle()
        done = k
    return texts if game.outcome(session.position) == "won" else None
