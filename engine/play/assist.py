"""Help for the player: moves the engine may play by itself, and the move a pile name stands for.

- ``safe_moves(game)``: the test of a *safe* move to a foundation: one the rule file declares
  safe (a move action's ``safe:``), or, for any game, a move of a card that no pile other than
  a foundation could ever accept by the game's accept rules (``nowhere_else``). Such a move
  takes no choice away from the player (``Session.play_automatic`` takes any such test). It
  never comes from a foundation: each one puts a card home for good, so they end.
- ``finishing_moves(game, state)``: when moves to the foundations alone win the game from here,
  those moves (the rest of the game is forced); otherwise None.
- ``moves_from(game, state, pile)`` and ``preferred(game, state, pile)``: the legal actions that
  take a pile's top card, and the one a pile name alone stands for (see ``PREFERENCE``).
"""

from __future__ import annotations

from collections.abc import Callable

from ..core.cards import DOWN, FACE
from ..core.state import Action, IllegalAction, State
from ..game.game import Game
from .session import Safe

# The order in which a pile name alone chooses among the moves of its top card.
PREFERENCE = "a foundation first, then a pile with cards, then an empty pile"


def _moves_to_foundations(game: Game) -> Callable[[Action], bool]:
    """Moves onto a foundation from a pile that is not one: each puts one more card home, so
    the engine can play such moves by itself only so often (never between foundations)."""
    foundations = frozenset(game.foundations)
    return lambda action: (
        action.dst in foundations and action.src >= 0 and action.src not in foundations
    )


def nowhere_else(game: Game) -> Safe:
    """A move to a foundation of a card that no non-foundation pile could ever accept, and
    that leaves a place on the foundations for every other card the target pile took.

    The second part keeps choices with the player where a foundation takes several cards at
    once and the one played decides what comes next (a pile built up or down, any suit).
    """
    layout = game.layout
    foundations = frozenset(game.foundations)
    elsewhere: set[int] = set()
    for pile, rule in enumerate(layout.accepts):
        if pile in foundations:
            continue
        elsewhere |= rule.on_empty | rule.blind
        for faces in rule.on_top:
            elsewhere |= faces
    homeless = frozenset(range(52)) - elsewhere
    to_foundation = _moves_to_foundations(game)

    def safe(state: State, action: Action) -> bool:
        if not to_foundation(action):
            return False
        pile = state.piles[action.src]
        if not pile or pile[-1] & DOWN or FACE[pile[-1]] not in homeless:
            return False
        return _places_kept(state, action.src, action.dst)

    def _places_kept(state: State, src: int, dst: int) -> bool:
        piles = state.piles
        rule = layout.accepts[dst]
        before = rule.wanted_at(piles, dst) if rule.reads_others else rule.wanted(piles[dst])
        others = before - {FACE[piles[src][-1]]}
        if not others:
            return True
        after = list(piles)
        after[dst] = piles[dst] + piles[src][-1:]
        after[src] = piles[src][:-1]
        kept: set[int] = set()
        for f in foundations:
            kept |= layout.accepts[f].wanted_at(after, f)
        return others <= kept

    return safe


def safe_moves(game: Game) -> Safe:
    """Moves the rule file declares safe, and moves of cards that can go nowhere else."""
    anyway = nowhere_else(game)
    to_foundation = _moves_to_foundations(game)
    declared = {
        name: effect.is_safe
        for name, effect in game.effects.items()
        if getattr(effect.spec, "safe", "never") != "never"
    }
    if not declared:
        return anyway

    def safe(state: State, action: Action) -> bool:
        test = declared.get(action.name)
        if test is not None and to_foundation(action) and test(state, action):
            return True
        return anyway(state, action)

    return safe


def finishing_moves(game: Game, state: State) -> list[Action] | None:
    """Moves to the foundations that win the game from ``state``, if such moves alone do.

    Tried greedily (the first legal move to a foundation each time), which is enough to know
    that the finish is forced: when it wins, no choice of the player could matter any more.
    """
    if game.is_terminal(state) or not game.foundations:
        return None
    to_foundation = _moves_to_foundations(game)
    moves: list[Action] = []
    limit = len(game.cards) + 1
    while not game.is_terminal(state) and len(moves) <= limit:
        action = next((a for a in game.legal_actions(state) if to_foundation(a)), None)
        if action is None:
            return None
        try:
            state = game.apply(state, action)
        except IllegalAction:  # pragma: no cover - legal_actions lists legal ones only
            return None
        moves.append(action)
    return moves if game.outcome(state) == "won" else None


def moves_from(game: Game, state: State, pile: int) -> list[Action]:
    """The legal actions that take the top card of ``pile`` (or pick it)."""
    return [a for a in game.legal_actions(state) if a.src == pile]


def preferred(game: Game, state: State, pile: int) -> tuple[Action, str] | None:
    """The action a pile name alone stands for, and why it was chosen; None when it has none."""
    actions = moves_from(game, state, pile)
    if not actions:
        return None
    if len(actions) == 1:
        return actions[0], "the only legal move"
    foundations = frozenset(game.foundations)

    def rank(action: Action) -> tuple[int, int]:
        if action.dst in foundations:
            return 0, action.dst
        if action.dst >= 0 and state.piles[action.dst]:
            return 1, action.dst
        return 2, action.dst

    best = min(actions, key=rank)
    reasons = ("a foundation comes first", "a pile with cards comes first", "the first empty pile")
    return best, f"{reasons[rank(best)[0]]}; also legal: " + ", ".join(
        game.action_text(a, state) for a in actions if a != best
    )
