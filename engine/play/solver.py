"""A solver for every rule file: depth-first search over the engine's own legal actions.

The search is "thoughtful": it knows where every card lies, face-down ones and the stock's
order included. It keeps a table of the positions it has reached (by key: positions that play
alike count once), so a position is explored once; it tries the most promising actions first
(cards home, cards turned face up); it plays a move the rule file declares safe without trying
the others; and it prunes positions where some card can never reach the foundations. Its
answer is ``won`` with the winning actions, ``lost`` when every reachable position was
explored (the deal cannot be won), or ``unknown`` when the budget ran out first.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Literal

from ..core.cards import DOWN, FACE
from ..core.game import Game
from ..core.state import Action, State

Verdict = Literal["won", "lost", "unknown"]


@dataclass
class Solution:
    result: Verdict
    # The winning line: each action with the position it is played in.
    line: list[tuple[State, Action]] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    reason: str = ""  # for 'unknown': which budget ran out

    @property
    def actions(self) -> list[Action]:
        return [action for _, action in self.line]

    def player_actions(self, game: Game) -> list[Action]:
        """The actions a player types: not those of phases the engine plays by itself."""
        return [action for state, action in self.line if not game.autoplays(state)]


@dataclass
class Budget:
    """How much search one answer may take: positions (nodes) and seconds; None: no limit."""

    nodes: int | None = None
    seconds: float | None = None


class _Frame:
    """One position on the search path, with the actions still to try from it."""

    __slots__ = ("action", "children", "state")

    def __init__(
        self, state: State, action: Action | None, children: Iterator[tuple[State, Action]]
    ):
        self.state = state
        self.action = action
        self.children = children


class Solver:
    """Search for one game; ``solve`` answers for a position."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.foundations = game.foundations
        self.foundation_set = frozenset(game.foundations)
        self.dead = _dead_card_test(game)

    def _rank(self, state: State, action: Action, order: int) -> tuple[int, ...]:
        """How promising an action looks, smallest first: a card home, a card uncovered that
        lies face down, a move before a draw or deal, a target with cards before an empty
        one, then the rule file's order."""
        piles = state.piles
        src, dst = action.src, action.dst
        home = 1 if dst in self.foundation_set else 0
        uncovers = 0
        if src >= 0 and dst >= 0:
            pile = piles[src]
            taken = action.n or 1
            uncovers = 1 if len(pile) > taken and pile[-taken - 1] & DOWN else 0
        into_empty = 1 if dst >= 0 and not piles[dst] else 0
        moves = 1 if src >= 0 else 0
        return (-home, -uncovers, -moves, into_empty, order)

    def _children(
        self, state: State, actions: tuple[Action, ...]
    ) -> Iterator[tuple[State, Action]]:
        """The positions after each action, most promising first; a safe move alone."""
        game = self.game
        effects = game.effects
        chosen: list[Action] | None = None
        for action in actions:
            if effects[action.name].is_safe(state, action):
                chosen = [action]
                break
        if chosen is None:
            ranked = sorted(range(len(actions)), key=lambda k: self._rank(state, actions[k], k))
            chosen = [actions[k] for k in ranked]
        for action in chosen:
            yield game.successor(state, action), action

    def solve(self, start: State, budget: Budget | None = None) -> Solution:
        game = self.game
        budget = budget or Budget()
        began = time.perf_counter()
        deadline = began + budget.seconds if budget.seconds is not None else None
        max_nodes = budget.nodes
        keys = game.keys
        state, actions = game.expand(start)
        nodes = 1
        if game.outcome(state) == "won":
            return Solution("won", [], nodes, time.perf_counter() - began)
        seen = {keys.hash(state)}
        stack = [_Frame(state, None, self._children(state, actions))]
        dead = self.dead
        while stack:
            frame = stack[-1]
            step = next(frame.children, None)
            if step is None:
                stack.pop()
                continue
            after, action = step
            key = keys.hash(after)
            if key in seen:
                continue
            seen.add(key)
            nodes += 1
            if max_nodes is not None and nodes > max_nodes:
                return self._unknown(nodes, began, "the node budget ran out")
            if deadline is not None and not nodes & 255 and time.perf_counter() > deadline:
                return self._unknown(nodes, began, "the time budget ran out")
            after, actions = game.expand(after)
            outcome = game.outcome(after)
            if outcome == "won":
                line = [
                    (before.state, now.action)
                    for before, now in pairwise(stack)
                    if now.action is not None
                ]
                line.append((stack[-1].state, action))
                return Solution("won", line, nodes, time.perf_counter() - began)
            if outcome is not None or not actions or (dead is not None and dead(after)):
                continue
            stack.append(_Frame(after, action, self._children(after, actions)))
        return Solution("lost", [], nodes, time.perf_counter() - began)

    @staticmethod
    def _unknown(nodes: int, began: float, reason: str) -> Solution:
        return Solution("unknown", [], nodes, time.perf_counter() - began, reason)


def _dead_card_test(game: Game) -> Callable[[State], bool] | None:
    """A test for positions that can never be won because a card can never go home.

    It applies to games won with every card on the foundations, and looks for a card that no
    pile but a foundation can ever take, lying above every copy of the cards it must follow
    on a foundation, in a pile whose cards leave only one by one by moves that ask where they
    may go: that card can never leave its pile, so the cards under it can never go home.
    None when no card or pile qualifies.
    """
    layout = game.layout
    foundations = set(game.foundations)
    if not foundations or not _won_by_foundations(game):
        return None
    if any(layout.covered_by[p] for p in range(len(layout))):
        return None
    others = [r for p, r in enumerate(layout.accepts) if p not in foundations]
    if any(r.reads_others for r in layout.accepts):
        return None
    anywhere: set[int] = set()
    for rule in others:
        anywhere |= rule.on_empty | rule.blind
        for faces in rule.on_top:
            anywhere |= faces
    found_rules = [layout.accepts[f] for f in foundations]
    starts: set[int] = set()
    for rule in found_rules:
        starts |= rule.on_empty
    # Only for cards no other pile takes and that no foundation takes when empty.
    follows: dict[int, frozenset[int]] = {}
    for face in range(52):
        if face in anywhere or face in starts:
            continue
        before = frozenset(p for p in range(52) for r in found_rules if face in r.on_top[p])
        if before:
            follows[face] = before
    if not follows:
        return None
    copies: dict[int, int] = {}
    for card in game.cards:
        copies[FACE[card]] = copies.get(FACE[card], 0) + 1
    # Piles whose cards leave only by moves of the top card (which ask the target's rule).
    lifo = []
    for p in range(len(layout)):
        if p in foundations:
            continue
        takers = [e for e in game.effects.values() if p in layout.resolve(e.spec.takes_from())]
        if takers and all(getattr(e, "mode", None) == "top" for e in takers):
            lifo.append(p)
    if not lifo:
        return None

    def dead(state: State) -> bool:
        piles = state.piles
        for p in lifo:
            pile = piles[p]
            if len(pile) < 2:
                continue
            below: dict[int, int] = {}
            for card in pile:
                face = FACE[card]
                need = follows.get(face)
                if need is not None and all(below.get(f, 0) >= copies[f] for f in need):
                    return True
                below[face] = below.get(face, 0) + 1
        return False

    return dead


def _won_by_foundations(game: Game) -> bool:
    """Whether every way to win asks that the foundations hold every card."""
    spec = game.spec
    total = len(game.cards)
    foundation_names = {game.layout.names[f] for f in game.foundations}
    groups = {n for n, g in spec.piles.items() if g.role == "foundation"}
    wins = [t for t in game.flow.transitions if game.outcomes.get(t.dest) == "won"]
    if not wins:
        return False
    for t in wins:
        ok = False
        for name, _ in t.conditions:
            condition = spec.conditions[name]
            piles = getattr(condition, "piles", None)
            if getattr(condition, "test", None) == "holds_all_cards" and piles:
                ok |= set(piles) <= groups | foundation_names
            least = getattr(condition, "at_least", None)
            if getattr(condition, "test", None) == "count" and piles and least == total:
                ok |= set(piles) <= groups | foundation_names
        if not ok:
            return False
    return True


def solve(game: Game, state: State, budget: Budget | None = None) -> Solution:
    """Search for a win from ``state``: won (with the actions), lost, or unknown."""
    return Solver(game).solve(state, budget)
