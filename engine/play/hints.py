"""Choosing a useful action: a short look-ahead over the same API a solver uses."""

from __future__ import annotations

from collections.abc import Container

from ..core.cards import face_down_count
from ..core.game import Game
from ..core.state import Action, IllegalAction, State


def _value(game: Game, state: State) -> int:
    outcome = game.outcome(state)
    if outcome == "won":
        return 1_000_000
    return game.score(state) * 100 + game.foundation_cards(state)


def suggest(game: Game, state: State, seen: Container[State] = ()) -> Action | None:
    """A legal action that makes the most progress within two moves, avoiding known positions.

    An action that leads to a position not played before comes first; then the most progress
    within two moves (looking past an action only when it turned no card face up), then the
    most progress now, then a move before a draw or fill. Ties go to the rule file's order.
    """
    actions = game.legal_actions(state)
    if len(actions) <= 1:
        return actions[0] if actions else None
    best: tuple[int, int, int, int] | None = None
    choice: Action | None = None
    hidden_now = face_down_count(state.piles)
    for action in actions:
        try:
            after = game.apply(state, action)
        except IllegalAction:  # pragma: no cover - legal_actions only lists legal ones
            continue
        fresh = 0 if after in seen else 1
        now = _value(game, after)
        ahead = now
        # Look further only where the action turned no card face up: a hint must not be
        # chosen by what the player cannot see (the next stock card, a face-down pile).
        hidden = face_down_count(after.piles)
        if fresh and not game.is_terminal(after) and hidden >= hidden_now:
            for follow in game.legal_actions(after):
                nxt = game.apply(after, follow)
                if nxt not in seen and nxt != state and face_down_count(nxt.piles) >= hidden:
                    ahead = max(ahead, _value(game, nxt))
        is_move = 1 if action.src >= 0 else 0
        key = (fresh, max(now, ahead), now, is_move)
        if best is None or key > best:
            best, choice = key, action
    return choice
