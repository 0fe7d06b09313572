"""Choosing a useful action: a short look-ahead over the same API a solver uses."""

from __future__ import annotations

import time
from collections.abc import Callable, Container, Hashable, Iterable
from functools import lru_cache
from itertools import pairwise
from typing import NamedTuple

from ..core.cards import DOWN, FACE, MASK, SHOWN, face_down_change
from ..core.state import Action, State
from ..game.game import AUTO, Game

# The position a player sees after an action (the engine's own moves played after it).
After = Callable[[State, Action], State]


class Played:
    """The positions of one game played so far, as the player sees them: every pile's cards
    by face and face up or down, and the phase. Two positions that differ only in which copy
    of a card lies where (two decks have two 7Hs) look the same on the board: a hint that
    goes from one to the other goes in circles, so both count as played. What the rules count
    (how often the stock was turned over) is not on the board and does not count.

    It is the ``seen`` that hints and the check of ``advice`` take: ``state in played``."""

    __slots__ = ("_copies", "_game", "_shown")

    def __init__(self, game: Game, states: Iterable[State] = ()) -> None:
        self._game = game
        self._copies = game.keys.normalise  # some faces come twice: compare faces, not cards
        self._shown: set[Hashable] = set()
        self.update(states)

    def shown(self, state: State) -> Hashable:
        """What the board shows of ``state``."""
        if not self._copies:
            return (state.piles, state.phase)
        return (tuple([tuple(map(SHOWN.__getitem__, pile)) for pile in state.piles]), state.phase)

    def add(self, state: State) -> None:
        self._shown.add(self.shown(state))

    def update(self, states: Iterable[State]) -> None:
        for state in states:
            self.add(state)

    def __contains__(self, state: object) -> bool:
        return isinstance(state, State) and self.shown(state) in self._shown

    def __len__(self) -> int:
        return len(self._shown)

    def copy(self) -> Played:
        """A copy that later moves do not change (for a search on another thread)."""
        other = Played(self._game)  # compiled, the class is made only by its constructor
        other._shown = set(self._shown)
        return other


@lru_cache(maxsize=64)
def rewarded_piles(game: Game) -> tuple[int, ...]:
    """The piles where the rules reward runs of one suit: the sources of an action that takes
    only such runs (a run that moves as a unit, a run that leaves for a foundation)."""
    piles: list[int] = []
    for spec in game.spec.actions.values():
        run = getattr(spec, "run", None)
        source = getattr(spec, "source", None)
        same = getattr(run, "suit", None) == "same" and getattr(run, "build", None) == "down"
        if same and source:
            piles += [p for p in game.layout.resolve(source) if p not in piles]
    return tuple(piles)


def _pile_pairs(pile: tuple[int, ...]) -> int:
    count = 0
    for below, above in pairwise(pile):
        if below & DOWN or above & DOWN:
            continue
        low, high = FACE[above & MASK], FACE[below & MASK]
        if low // 13 == high // 13 and high % 13 == low % 13 + 1:
            count += 1
    return count


def _same_suit_pairs(
    state: State, piles: tuple[int, ...], known: dict[tuple[int, ...], int] | None = None
) -> int:
    """Face-up cards lying on the card one rank higher of their own suit, on ``piles``;
    ``known`` keeps each pile's count (a look-ahead meets the same piles again and again:
    a move changes two of them)."""
    if known is None:
        return sum(_pile_pairs(state.piles[p]) for p in piles)
    count = 0
    for p in piles:
        pile = state.piles[p]
        pairs = known.get(pile)
        if pairs is None:
            pairs = known[pile] = _pile_pairs(pile)
        count += pairs
    return count


def _value(
    game: Game,
    state: State,
    rewarded: tuple[int, ...] = (),
    known: dict[tuple[int, ...], int] | None = None,
) -> int:
    outcome = game.outcome(state)
    if outcome == "won":
        return 1_000_000_000
    value = game.score(state) * 100 + game.foundation_cards(state)
    return value * 1000 + _same_suit_pairs(state, rewarded, known) if rewarded else value


@lru_cache(maxsize=64)
def _settled(game: Game) -> frozenset[str]:
    """The phases whose position is worth what it will be worth once settled: those whose
    deferred 'auto' transitions (``Game.expand``) cannot end in a win (``_value`` tells a
    won position from the others, and no other outcome from a position of play)."""
    flow = game.flow
    won = {phase for phase, outcome in flow.outcomes.items() if outcome == "won"}
    # The phases from which 'auto' transitions can lead to a win, grown to a fixed point.
    winning = set(won)
    grew = True
    while grew:
        grew = False
        for t in flow.transitions:
            if t.trigger == AUTO and t.dest in winning and t.source not in winning:
                winning.add(t.source)
                grew = True
    return frozenset(
        phase
        for phase in game.states
        if not flow.deferred[phase]
        or (phase not in won and not any(t.dest in winning for t in flow.deferred[phase]))
    )


class Choice(NamedTuple):
    """An action chosen by the look-ahead (None: every action leads back to a played position),
    and the positions it examined to choose: each legal action's result, then the positions
    one action further that the look-ahead played."""

    action: Action | None
    examined: int


def choose(
    game: Game,
    state: State,
    seen: Container[State] = (),
    after: After | None = None,
    builds: bool = False,
    deadline: float | None = None,
    looks: int | None = None,
) -> Choice:
    """A legal action that makes the most progress within two moves, never one that leads
    back to a position in ``seen`` (None when there is no such action), and the positions
    examined to choose it.

    ``after`` gives the position the player then sees (by default the action's own result);
    with ``builds``, runs of one suit count where the rules reward them (a tie-breaker below
    cards home). The most progress within two moves (looking past an action only when it
    turned no card face up) comes first, then the most progress now, then a move before a
    draw or fill. Ties go to the rule file's order. With a ``deadline`` (``time.perf_counter``)
    the look-ahead stops there, the most promising actions looked at first; with ``looks``,
    it plays at most that many positions past the first action (the same hints on every
    machine, however slow): it stops before an action whose followers would pass the cap.
    """
    actions = game.legal_actions(state)
    reached = after or game.apply
    rewarded = rewarded_piles(game) if builds else ()
    if len(actions) == 1:
        only = actions[0] if reached(state, actions[0]) not in seen else None
        return Choice(only, 1)
    known: dict[tuple[int, ...], int] = {}  # runs of one suit, by pile
    # Rule order, action, the position after it, its value, and its legal actions. The
    # positions come from the search's own steps (``successor``, then ``expand``, which lists
    # the legal actions the look-ahead needs anyway): ``apply``'s positions, without its
    # checks of an action that ``legal_actions`` has just listed.
    candidates: list[tuple[int, Action, State, int, tuple[Action, ...]]] = []
    for order, action in enumerate(actions):
        after_state, follows = game.expand(game.successor(state, action))
        if after_state not in seen:
            value = _value(game, after_state, rewarded, known)
            candidates.append((order, action, after_state, value, follows))
    settled, deferred = _settled(game), game.flow.deferred
    ahead: dict[int, int] = {}
    played = 0
    for order, _, after_state, now, follows in sorted(candidates, key=lambda c: (-c[3], c[0])):
        if deadline is not None and time.perf_counter() > deadline:
            break
        best_ahead = now
        # Look further only where the action turned no card face up: a hint must not be
        # chosen by what the player cannot see (the next stock card, a face-down pile).
        turned = face_down_change(state.piles, after_state.piles) < 0
        if not game.is_terminal(after_state) and not turned:
            if looks is not None and played + len(follows) > looks:
                break
            for follow in follows:
                # The position one action further, without the 'auto' transitions that ask
                # which actions are legal (a loss when none is) where they cannot make it a
                # win: its value is the same, and listing its actions is most of its cost.
                nxt = game.successor(after_state, follow)
                played += 1
                if face_down_change(after_state.piles, nxt.piles) < 0:
                    continue
                final = nxt.phase not in settled
                if final:
                    nxt = game.expand(nxt)[0]
                value = _value(game, nxt, rewarded, known)
                if value > best_ahead:
                    # Whether it is the position now or one played is asked last: they are
                    # the dearest tests, and needed only for a position that raises the best.
                    if not final and deferred[nxt.phase]:
                        nxt = game.expand(nxt)[0]
                    if nxt != state and nxt not in seen:
                        best_ahead = value
        ahead[order] = best_ahead
    ranked = sorted(
        candidates,
        key=lambda c: (-max(c[3], ahead.get(c[0], c[3])), -c[3], -(c[1].src >= 0), c[0]),
    )
    examined = len(actions) + played
    for _, action, _, _, _ in ranked:
        if after is None or reached(state, action) not in seen:
            return Choice(action, examined)
    return Choice(None, examined)
