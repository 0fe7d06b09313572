"""The engine's effects: what a player's action does to the piles.

Each effect named in a rule file (``effect: move_top`` ...) is one class here. An effect
generates its legal actions for a position, explains why an action is refused, and applies an
action to the piles, returning new piles (positions are immutable, so undo is a stack).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from rules import model as m

from .cards import DOWN, FACE, MASK

if TYPE_CHECKING:
    from .game import Game

Piles = tuple[tuple[int, ...], ...]


class Action(NamedTuple):
    """A player's action: its name and, for moves, the source and target pile indices."""

    name: str
    src: int = -1
    dst: int = -1


class Step(NamedTuple):
    """One card moved by an effect, for traces: card, from pile, to pile."""

    card: int
    src: int
    dst: int


Trace = list[Step]


class Effect:
    takes_piles: int = 0  # how many pile names the action is written with

    def __init__(self, game: Game, name: str, spec: m.ActionBase) -> None:
        self.game = game
        self.name = name
        self.help = spec.help

    def generate(self, piles: Piles) -> list[Action]:
        raise NotImplementedError

    def refusal(self, piles: Piles, action: Action) -> str | None:
        raise NotImplementedError

    def apply(self, piles: Piles, action: Action, trace: Trace | None) -> Piles:
        raise NotImplementedError


def _set(piles: Piles, i: int, pile: tuple[int, ...], j: int, other: tuple[int, ...]) -> Piles:
    out = list(piles)
    out[i] = pile
    out[j] = other
    return tuple(out)


class MoveTop(Effect):
    takes_piles = 2

    def __init__(self, game: Game, name: str, spec: m.MoveTop) -> None:
        super().__init__(game, name, spec)
        self.sources = game.resolve(spec.source)
        self.targets = game.resolve(spec.target)
        self._source_set = frozenset(self.sources)
        self._target_set = frozenset(self.targets)
        self._rules = [(t, game.accept_rules[t]) for t in self.targets]

    def generate(self, piles: Piles) -> list[Action]:
        wants = []
        for dst, rule in self._rules:
            wanted = rule.wanted(piles[dst])
            if wanted:
                wants.append((dst, wanted))
        if not wants:
            return []
        name = self.name
        out = []
        for src in self.sources:
            pile = piles[src]
            if not pile:
                continue
            card = pile[-1]
            if card & DOWN:
                continue
            face = FACE[card]
            for dst, wanted in wants:
                if face in wanted and dst != src:
                    out.append(Action(name, src, dst))
        return out

    def refusal(self, piles: Piles, action: Action) -> str | None:
        names = self.game.pile_names
        src, dst = action.src, action.dst
        if src not in self._source_set:
            return f"cards cannot be moved from {names[src]}"
        if dst not in self._target_set:
            return f"cards cannot be moved to {names[dst]}"
        if src == dst:
            return "a card cannot be moved onto its own pile"
        pile = piles[src]
        if not pile:
            return f"{names[src]} is empty"
        if pile[-1] & DOWN:
            return f"{names[src]}'s top card is face down"
        return self.game.accept_rules[dst].refusal(names[dst], piles[dst], pile[-1])

    def apply(self, piles: Piles, action: Action, trace: Trace | None) -> Piles:
        src, dst = action.src, action.dst
        card = piles[src][-1]
        if trace is not None:
            trace.append(Step(card, src, dst))
        return _set(piles, src, piles[src][:-1], dst, piles[dst] + (card,))


class Chain(Effect):
    def __init__(self, game: Game, name: str, spec: m.Chain) -> None:
        super().__init__(game, name, spec)
        self.start = game.resolve([spec.start])[0]
        self.targets = game.resolve(spec.target)
        self.bottom = spec.place == "bottom"
        rules = [(t, game.accept_rules[t]) for t in self.targets]
        self._rules = rules
        self._action = Action(name)
        # With rules that ignore the piles' cards, each card has one home for the whole game:
        # a table indexed by the card as stored (face down), so the loop does one lookup.
        self.home_of_card: tuple[int, ...] | None = None
        if all(rule.static for _, rule in rules):
            by_face = [next((t for t, r in rules if face in r.on_empty), -1) for face in range(52)]
            # A face-up card has no home here (-1): turning stops at it, so one test serves both.
            self.home_of_card = tuple(
                by_face[FACE[card]] if card & DOWN else -1 for card in range(2 * DOWN)
            )

    def generate(self, piles: Piles) -> list[Action]:
        pile = piles[self.start]
        return [self._action] if pile and pile[-1] & DOWN else []

    def refusal(self, piles: Piles, action: Action) -> str | None:
        pile = piles[self.start]
        if pile and pile[-1] & DOWN:
            return None
        return f"{self.game.pile_names[self.start]} has no face-down card to turn"

    def _home(self, work: list[list[int]], card: int) -> int:
        for target, rule in self._rules:
            if FACE[card] in rule.wanted(tuple(work[target])):
                return target
        return -1

    def apply(self, piles: Piles, action: Action, trace: Trace | None) -> Piles:
        home = self.home_of_card
        if home is None:
            return self._apply_dynamic(piles, trace)
        # Fixed homes: placed cards are collected aside and joined once at the end.
        work = list(map(list, piles))
        placed: list[list[int]] = [[] for _ in piles]
        current = self.start
        pile = work[current]
        while pile:
            card = pile.pop()
            dst = home[card]
            if dst < 0:  # a face-up card stops the chain; a homeless one stays, turned up
                pile.append(card & MASK)
                break
            card ^= DOWN
            placed[dst].append(card)
            if trace is not None:
                trace.append(Step(card, current, dst))
                current = dst
            pile = work[dst]
        for i, new in enumerate(placed):
            if new:
                work[i] = new[::-1] + work[i] if self.bottom else work[i] + new
        return tuple(map(tuple, work))

    def _apply_dynamic(self, piles: Piles, trace: Trace | None) -> Piles:
        work = [list(p) for p in piles]
        current = self.start
        while True:
            pile = work[current]
            if not pile or not pile[-1] & DOWN:
                break
            card = pile.pop() & MASK
            dst = self._home(work, card)
            if dst < 0:
                pile.append(card)
                break
            if self.bottom:
                work[dst].insert(0, card)
            else:
                work[dst].append(card)
            if trace is not None:
                trace.append(Step(card, current, dst))
            current = dst
        return tuple(map(tuple, work))


class FillGaps(Effect):
    def __init__(self, game: Game, name: str, spec: m.FillGaps) -> None:
        super().__init__(game, name, spec)
        self.piles = game.resolve(spec.piles)
        self.size = spec.size
        self.source = game.resolve([spec.source])[0]
        self.flag = DOWN if spec.face == "down" else 0
        self._action = Action(name)

    def _short(self, piles: Piles) -> bool:
        size = self.size
        return any(len(piles[p]) < size for p in self.piles)

    def generate(self, piles: Piles) -> list[Action]:
        return [self._action] if piles[self.source] and self._short(piles) else []

    def refusal(self, piles: Piles, action: Action) -> str | None:
        if not self._short(piles):
            return "there is no gap to fill"
        if not piles[self.source]:
            return f"{self.game.pile_names[self.source]} is empty: nothing to fill with"
        return None

    def apply(self, piles: Piles, action: Action, trace: Trace | None) -> Piles:
        work = list(piles)
        stock = list(work[self.source])
        size, flag = self.size, self.flag
        while stock:
            dealt = False
            for p in self.piles:
                if len(work[p]) < size and stock:
                    card = stock.pop()
                    work[p] = work[p] + ((card & MASK) | flag,)
                    dealt = True
                    if trace is not None:
                        trace.append(Step(card & MASK, self.source, p))
            if not dealt:
                break
        work[self.source] = tuple(stock)
        return tuple(work)


class Deal(Effect):
    def __init__(self, game: Game, name: str, spec: m.Deal) -> None:
        super().__init__(game, name, spec)
        self.source = game.resolve([spec.source])[0]
        self.target = game.resolve([spec.target])[0]
        self.count = spec.count
        self.flag = DOWN if spec.face == "down" else 0
        self._action = Action(name)

    def generate(self, piles: Piles) -> list[Action]:
        return [self._action] if piles[self.source] else []

    def refusal(self, piles: Piles, action: Action) -> str | None:
        if piles[self.source]:
            return None
        return f"{self.game.pile_names[self.source]} is empty"

    def apply(self, piles: Piles, action: Action, trace: Trace | None) -> Piles:
        src = piles[self.source]
        n = min(self.count, len(src))
        moved = tuple((c & MASK) | self.flag for c in reversed(src[len(src) - n :]))
        if trace is not None:
            trace.extend(Step(c & MASK, self.source, self.target) for c in moved)
        return _set(
            piles, self.source, src[: len(src) - n], self.target, piles[self.target] + moved
        )


class Exchange(Effect):
    takes_piles = 1

    def __init__(self, game: Game, name: str, spec: m.Exchange) -> None:
        super().__init__(game, name, spec)
        self.pick = game.resolve(spec.pick)
        self._pick_set = frozenset(self.pick)
        self.partner = game.resolve([spec.partner])[0]
        self.from_bottom = spec.take == "bottom"

    def generate(self, piles: Piles) -> list[Action]:
        if not piles[self.partner]:
            return []
        return [Action(self.name, p) for p in self.pick if piles[p] and piles[p][-1] & DOWN]

    def refusal(self, piles: Piles, action: Action) -> str | None:
        names = self.game.pile_names
        if action.src not in self._pick_set:
            allowed = ", ".join(names[p] for p in self.pick)
            return f"{names[action.src]} cannot be picked (pick one of {allowed})"
        pile = piles[action.src]
        if not pile or not pile[-1] & DOWN:
            return f"{names[action.src]} has no face-down card on top"
        if not piles[self.partner]:
            return f"{names[self.partner]} is empty: nothing to exchange with"
        return None

    def apply(self, piles: Piles, action: Action, trace: Trace | None) -> Piles:
        picked_pile, partner = piles[action.src], piles[self.partner]
        picked = picked_pile[-1]
        given = partner[0] if self.from_bottom else partner[-1]
        rest = partner[1:] if self.from_bottom else partner[:-1]
        if trace is not None:
            trace.append(Step(picked & MASK, action.src, self.partner))
            trace.append(Step(given & MASK, self.partner, action.src))
        return _set(
            piles,
            action.src,
            (*picked_pile[:-1], (given & MASK) | DOWN),
            self.partner,
            (*rest, picked),
        )


EFFECTS: dict[str, Callable[..., Effect]] = {
    "exchange": Exchange,
    "move_top": MoveTop,
    "chain": Chain,
    "fill_gaps": FillGaps,
    "deal": Deal,
}
