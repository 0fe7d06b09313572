"""The JSON form of positions and of the player's outcomes: ``play --json`` writes these
objects, one a line, and any other front end (a web server) sends the same."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.cards import DOWN, card_text
from ..core.state import State, Step
from ..game.game import Game
from .player import Outcome


def piles_json(game: Game, state: State) -> dict[str, list[str]]:
    return {name: [card_text(c) for c in state.piles[i]] for i, name in enumerate(game.pile_names)}


def position_json(game: Game, state: State) -> dict[str, Any]:
    hidden = {
        name: n
        for i, name in enumerate(game.pile_names)
        if (n := sum(1 for c in state.piles[i] if c & DOWN))
    }
    return {
        "phase": state.phase,
        "result": game.outcome(state),
        "cards_placed": game.score(state),
        "foundation_cards": game.foundation_cards(state),
        "piles": piles_json(game, state),
        "face_down": hidden,
    }


def trace_json(steps: Sequence[Step] | None) -> dict[str, list[str]]:
    """The ``trace`` field of a JSON record: the cards moved, in order (absent without --trace)."""
    return {} if steps is None else {"trace": [card_text(s.card) for s in steps]}


def outcome_record(game: Game, outcome: Outcome) -> dict[str, Any]:
    """The JSON object of an outcome: the command, whether it was played and why not, the
    position, then the facts of its kind (each present only where it says something)."""
    record: dict[str, Any] = {"command": outcome.command, "ok": outcome.ok, "error": outcome.error}
    dealt = outcome.kind in ("deal", "restart", "new") and outcome.ok
    if dealt and outcome.command is None:
        record.update(game=outcome.game_id, seed=outcome.seed)
    record.update(position_json(game, outcome.position))
    if not outcome.ok:
        return record
    if outcome.resumed:
        record["resumed"] = outcome.resumed
    if dealt and outcome.command is not None:
        record.update(game=outcome.game_id, seed=outcome.seed)
    if outcome.chosen:
        record["played"] = outcome.played_text
    if outcome.kind == "hint":
        advice = outcome.advice
        record.update(
            hint=outcome.hint,
            hint_kind=advice.kind if advice else "none",
            winnable=advice.winnable if advice else None,
        )
    if outcome.no_win:
        record["no_win"] = outcome.no_win
    if outcome.saved_games:
        record["saved_games"] = list(outcome.saved_games)
    if outcome.kind == "auto":
        record["auto_moves"] = outcome.auto_moves
    if outcome.auto:
        record["auto"] = list(outcome.auto)
    if outcome.kind in ("undo", "redo"):
        record["actions"] = list(outcome.actions)
    if outcome.moves is not None:
        record["moves"] = list(outcome.moves)
    if outcome.rules is not None:
        record["rules"] = outcome.rules
    if outcome.help is not None:
        record["help"] = outcome.help
    if outcome.saved is not None:
        record["saved"] = outcome.saved
    record.update(trace_json(outcome.trace))
    return record
