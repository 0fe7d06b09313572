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

import itertools
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Literal

from ..core.cards import DOWN, FACE
from ..core.game import Game
from ..core.state import Action, State
from .pruning import dead_card_test

Verdict = Literal["won", "lost", "unknown"]
RESTART_NODES = 2000  # the base of the restart schedule, in positions
SHORTEN_MOST = 5000  # longer winning lines are given as found


def _luby(i: int) -> int:
    """The i-th term (from 1) of the Luby sequence: 1, 1, 2, 1, 1, 2, 4, 1, 1, 2 ..."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while i != (1 << k) - 1:
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)


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
        self.dead = dead_card_test(game)
        accepts = game.layout.accepts
        # Places that hold one card at most (free cells): worth emptying, costly to fill.
        self.single = frozenset(p for p, rule in enumerate(accepts) if rule.max_cards == 1)
        self.home_rules = [(f, accepts[f]) for f in game.foundations]

    def _home_next(self, state: State) -> frozenset[int]:
        """The faces some foundation takes next."""
        piles = state.piles
        faces: frozenset[int] = frozenset()
        for f, rule in self.home_rules:
            faces |= rule.wanted_at(piles, f) if rule.reads_others else rule.wanted(piles[f])
        return faces

    def _rank(
        self, state: State, action: Action, home_next: frozenset[int], buried: frozenset[int]
    ) -> tuple[int, ...]:
        """How promising an action looks, smallest first: a card home; a card uncovered that
        lies face down or that a foundation takes next; a move before a draw or deal; a card
        taken out of a place that holds one card (a free cell); a move off a pile that hides a
        card a foundation takes next, not onto one; a target with cards before an empty one,
        and an empty pile before a place that holds one card."""
        piles = state.piles
        src, dst = action.src, action.dst
        if src < 0 or dst < 0:
            return (0, 0, 0)
        home = 1 if dst in self.foundation_set else 0
        pile = piles[src]
        taken = action.n or 1
        uncovers = 0
        if len(pile) > taken:
            below = pile[-taken - 1]
            uncovers = 2 if below & DOWN else 1 if FACE[below] in home_next else 0
        single = self.single
        into_empty = 0 if piles[dst] else 2 if dst in single else 1
        return (
            -home, -uncovers, -1, -(src in single), dst in buried, -(src in buried),
            into_empty, -taken,
        )  # fmt: skip

    def _children(
        self, state: State, actions: tuple[Action, ...], shuffle: random.Random | None
    ) -> Iterator[tuple[State, Action]]:
        """The positions after each action, most promising first; a safe move alone.

        Actions that look equally promising come in the rule file's order, or, when
        ``shuffle`` is given, in an order it draws.
        """
        game = self.game
        effects = game.effects
        chosen: list[Action] | None = None
        for action in actions:
            if effects[action.name].is_safe(state, action):
                chosen = [action]
                break
        if chosen is None:
            draw = shuffle.random if shuffle is not None else None
            home_next = self._home_next(state)
            buried = frozenset(
                p
                for p, pile in enumerate(state.piles)
                if p not in self.foundation_set and any(FACE[c] in home_next for c in pile[:-1])
            )
            keyed = [
                (self._rank(state, a, home_next, buried), draw() if draw is not None else k, k)
                for k, a in enumerate(actions)
            ]
            keyed.sort()
            chosen = [actions[k] for _, _, k in keyed]
        for action in chosen:
            yield game.successor(state, action), action

    def solve(self, start: State, budget: Budget | None = None) -> Solution:
        """Search from ``start`` within ``budget``: won, lost or unknown.

        The search is run again and again with budgets that grow in the Luby sequence (1, 1,
        2, 1, 1, 2, 4 ... times a base); the first run tries equally promising actions in the
        rule file's order, the later ones in orders drawn at random (seeded, so answers
        repeat). Searches of such games often find a win at once or wander for long: restarts
        cut the long wanderings short, and the growing runs still explore everything when a
        deal cannot be won.
        """
        budget = budget or Budget()
        began = time.perf_counter()
        deadline = began + budget.seconds if budget.seconds is not None else None
        nodes = 0
        for run in itertools.count():
            allowance = _luby(run + 1) * RESTART_NODES
            if budget.nodes is not None:
                allowance = min(allowance, budget.nodes - nodes)
            shuffle = random.Random(run) if run else None
            result, line, used = self._search(start, allowance, deadline, shuffle)
            nodes += used
            if result != "unknown":
                if result == "won":
                    line = self.shorten(line)
                return Solution(result, line, nodes, time.perf_counter() - began)
            if budget.nodes is not None and nodes >= budget.nodes:
                return self._unknown(nodes, began, "the node budget ran out")
            if deadline is not None and time.perf_counter() > deadline:
                return self._unknown(nodes, began, "the time budget ran out")
        raise AssertionError("unreachable")  # pragma: no cover

    def _search(
        self,
        start: State,
        allowance: int,
        deadline: float | None,
        shuffle: random.Random | None,
    ) -> tuple[Verdict, list[tuple[State, Action]], int]:
        """One depth-first search of at most ``allowance`` positions (or until ``deadline``)."""
        game = self.game
        keys = game.keys
        state, actions = game.expand(start)
        nodes = 1
        if game.outcome(state) == "won":
            return "won", [], nodes
        seen = {keys.hash(state)}
        stack = [_Frame(state, None, self._children(state, actions, shuffle))]
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
            if nodes > allowance:
                return "unknown", [], nodes - 1
            if deadline is not None and not nodes & 255 and time.perf_counter() > deadline:
                return "unknown", [], nodes
            after, actions = game.expand(after)
            outcome = game.outcome(after)
            if outcome == "won":
                line = [
                    (before.state, now.action)
                    for before, now in pairwise(stack)
                    if now.action is not None
                ]
                line.append((stack[-1].state, action))
                return "won", line, nodes
            if outcome is not None or not actions or (dead is not None and dead(after)):
                continue
            stack.append(_Frame(after, action, self._children(after, actions, shuffle)))
        return "lost", [], nodes

    def shorten(self, line: list[tuple[State, Action]]) -> list[tuple[State, Action]]:
        """The winning line without its detours: where one action leads from a position of
        the line to a later one, the actions between are left out. A depth-first line often
        wanders (a card moved there and back while the stock turns); a hint should not."""
        if not line or len(line) > SHORTEN_MOST:
            return line
        game = self.game
        last_state, last_action = line[-1]
        states = [state for state, _ in line]
        states.append(game.expand(game.successor(last_state, last_action))[0])
        place = {state: k for k, state in enumerate(states)}
        out: list[tuple[State, Action]] = []
        k = 0
        while k < len(line):
            state, action = line[k]
            reach = k + 1
            if not game.autoplays(state):
                for other in game.legal_actions(state):
                    later = place.get(game.expand(game.successor(state, other))[0], -1)
                    if later > reach:
                        reach, action = later, other
            out.append((state, action))
            k = reach
        return out

    @staticmethod
    def _unknown(nodes: int, began: float, reason: str) -> Solution:
        return Solution("unknown", [], nodes, time.perf_counter() - began, reason)


def solve(game: Game, state: State, budget: Budget | None = None) -> Solution:
    """Search for a win from ``state``: won (with the actions), lost, or unknown."""
    return Solver(game).solve(state, budget)
