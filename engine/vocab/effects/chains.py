"""Chains of cards that find their own homes, and exchanges of hidden cards."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import ClassVar, Literal

from ....rules.model import ActionSpec, GameSpec, Problem
from ....rules.spec import ConditionName, PileName, PileRef, PileRefs, config, record
from ...core.accept_rules import Table
from ...core.cards import DOWN, FACE, MASK
from ...core.layout import Layout
from ...core.state import Action, State, Step, Trace, new_state
from ..conditions import Condition
from . import EFFECTS, Effect, replace


@record
class ChainSpec(ActionSpec):
    """Take the top card of a pile, place it on its home pile, and go on from there.

    The home of a card is the first of the ``to`` piles that accepts it where it is placed
    (on top, or beneath the bottom card). The chain goes on from the home pile itself, or from
    the matching pile of ``then``; it stops when that pile has no card it may take (a face-down
    card, unless ``through: any``), when a card has no home (it is turned face up where it
    lies), or when the ``stop_when`` condition holds.
    """

    __pydantic_config__ = config(target="to")
    progresses: ClassVar[bool] = True
    sources = ("start", "then")
    destinations = ("target",)
    ordered = ("target", "then")
    effect: Literal["chain"]
    start: PileRef | PileRefs
    """The pile the first card is taken from; a list: the player picks one ('turn h5')."""
    target: PileRefs
    """The piles cards are placed on."""
    then: PileRefs | None = None
    """For each 'to' pile in order, the pile the chain goes on from after placing a card
    there; absent: the 'to' pile itself."""
    place: Literal["bottom", "top"] = "bottom"
    """Where a placed card goes: under the pile's cards, or on top."""
    through: Literal["face_down", "any"] = "face_down"
    """Which cards the chain takes: only face-down ones (a face-up top stops it), or any."""
    stop_when: ConditionName | None = None
    """A condition of the game: the chain stops as soon as it holds."""

    def puts_beneath(self) -> tuple[str, ...]:
        return self.gives_to() if self.place == "bottom" else ()

    def problems(self, game: GameSpec) -> Iterator[Problem]:
        from ....rules.checks.meaning import resolve

        if self.then is not None and len(resolve(game, self.then)) != len(
            resolve(game, self.target)
        ):
            yield ("then",), "give one 'then' pile for each 'to' pile, in the same order"
        if self.through == "any" and self.then is None:
            yield ("through",), "a chain through any card needs 'then' piles apart from 'to'"


@EFFECTS.entry(ChainSpec)
class Chain(Effect[ChainSpec]):
    def __init__(self, name: str, spec: ChainSpec, layout: Layout) -> None:
        super().__init__(name, spec, layout)
        starts = (spec.start,) if isinstance(spec.start, str) else spec.start
        self.starts = layout.resolve(starts)
        self.takes_piles = 1 if len(self.starts) > 1 else 0  # type: ignore[misc]
        self.targets = layout.resolve(spec.target)
        self.then = (
            dict(zip(self.targets, layout.resolve(spec.then), strict=True)) if spec.then else {}
        )
        self.bottom = spec.place == "bottom"
        self.any_face = spec.through == "any"
        rules = [(t, layout.accepts[t]) for t in self.targets]
        self._rules = rules
        self._stop: Condition | None = None
        # With rules that ignore the piles' cards, each card has one home for the whole game:
        # a table indexed by the card as stored (face down), so the loop does one lookup.
        self.home_of_card: tuple[int, ...] | None = None
        simple = self.bottom and not self.then and not self.any_face and spec.stop_when is None
        if simple and all(rule.static for _, rule in rules):
            by_face = [next((t for t, r in rules if face in r.on_empty), -1) for face in range(52)]
            # A face-up card has no home here (-1): turning stops at it, so one test serves both.
            self.home_of_card = tuple(
                by_face[FACE[card]] if card & DOWN else -1 for card in range(2 * DOWN)
            )

    def bind(self, conditions: Mapping[str, Condition]) -> None:
        if self.spec.stop_when is not None:
            self._stop = conditions[self.spec.stop_when]

    def _takes(self, pile: tuple[int, ...] | list[int]) -> bool:
        return bool(pile) and (self.any_face or bool(pile[-1] & DOWN))

    def _can_start(self, piles: tuple[tuple[int, ...], ...], start: int) -> bool:
        """A chain may start where it takes a card: a face-down one (turning it up is
        progress), or a face-up one that has a home to go to."""
        pile = piles[start]
        if not self._takes(pile):
            return False
        if pile[-1] & DOWN:
            return True
        return self._home(piles, pile[-1]) >= 0

    def faces_read(self) -> list[Table] | None:
        return []  # cards are read by their places and by the piles' rules alone

    def generate(self, state: State) -> list[Action]:
        piles = state.piles
        if self.takes_piles:
            return [Action(self.name, s) for s in self.starts if self._can_start(piles, s)]
        start = self.starts[0]
        return [Action(self.name)] if self._can_start(piles, start) else []

    def refusal(self, state: State, action: Action) -> str | None:
        names = self.layout.names
        start = action.src if self.takes_piles else self.starts[0]
        if start not in self.starts:
            return f"a chain cannot start from {names[start]}"
        if self._can_start(state.piles, start):
            return None
        if self._takes(state.piles[start]):
            return f"{names[start]}'s top card has no home to go to"
        what = "card" if self.any_face else "face-down card"
        return f"{names[start]} has no {what} to take"

    def _home(self, work: Sequence[Sequence[int]], card: int) -> int:
        face = FACE[card]
        for target, rule in self._rules:
            pile = work[target]
            wanted = rule.wanted_below(pile) if self.bottom else rule.wanted(pile)
            if face in wanted:
                return target
        return -1

    def apply(self, state: State, action: Action, trace: Trace | None) -> State:
        start = action.src if self.takes_piles else self.starts[0]
        home = self.home_of_card
        if home is None:
            return new_state(self._run(state, start, trace), state.phase, state.counts)
        # Fixed homes: placed cards are collected aside and joined once at the end.
        piles = state.piles
        work = list(map(list, piles))
        placed: list[list[int]] = [[] for _ in piles]
        current = start
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
                work[i] = new[::-1] + work[i]
        return new_state(tuple(map(tuple, work)), state.phase, state.counts)

    def _run(self, state: State, start: int, trace: Trace | None) -> tuple[tuple[int, ...], ...]:
        work = [list(p) for p in state.piles]
        current = start
        # Each card is taken at most once a chain, so the loop ends whatever the rules say.
        for _ in range(len(self.layout.cards) + 1):
            pile = work[current]
            if not self._takes(pile):
                break
            card = pile.pop() & MASK
            dst = self._home(work, card)
            if dst < 0:
                pile.append(card)
                break
            if self.bottom:
                work[dst].insert(0, card)
            else:
                work[dst].append(card)  # face up on top: without 'then', the chain stops here
            if trace is not None:
                trace.append(Step(card, current, dst))
            current = self.then.get(dst, dst)
            if self._stop is not None and self._stop(
                new_state(tuple(map(tuple, work)), state.phase, state.counts)
            ):
                break
        return tuple(map(tuple, work))


# --- exchange ------------------------------------------------------------------------------


@record
class ExchangeSpec(ActionSpec):
    """The player picks a face-down card; it changes places with a card of another pile.

    The picked card goes face down onto the top of the ``with`` pile (so a chain starting there
    takes it next); the card taken from the ``with`` pile goes face down where the picked card
    was. With ``position: any`` the player names any face-down card of the pile by its place
    from the top ('pick h5 3': the third card from the top); otherwise the pile's top card.
    """

    __pydantic_config__ = config(partner="with")
    disjoint = (("pick", "partner"),)
    sources = ("pick", "partner")
    destinations = ("pick", "partner")
    effect: Literal["exchange"]
    pick: PileRefs
    """Piles the player may pick from."""
    partner: PileName
    """The pile the picked card goes to."""
    take: Literal["bottom", "top"] = "bottom"
    """Which card of the 'with' pile goes back in the picked card's place."""
    position: Literal["top", "any"] = "top"
    """Which face-down card may be picked: the pile's top card, or any face-down card."""


@EFFECTS.entry(ExchangeSpec)
class Exchange(Effect[ExchangeSpec]):
    takes_piles = 1

    def __init__(self, name: str, spec: ExchangeSpec, layout: Layout) -> None:
        super().__init__(name, spec, layout)
        self.pick = layout.resolve(spec.pick)
        self._pick_set = frozenset(self.pick)
        self.partner = layout.one(spec.partner)
        self.from_bottom = spec.take == "bottom"
        self.anywhere = spec.position == "any"
        self.takes_number = self.anywhere  # type: ignore[misc]

    def faces_read(self) -> list[Table] | None:
        return []  # cards are read by their places and by the piles' rules alone

    def generate(self, state: State) -> list[Action]:
        piles = state.piles
        if not piles[self.partner]:
            return []
        if not self.anywhere:
            return [Action(self.name, p) for p in self.pick if piles[p] and piles[p][-1] & DOWN]
        return [
            Action(self.name, p, -1, depth)
            for p in self.pick
            for depth, card in enumerate(reversed(piles[p]), 1)
            if card & DOWN
        ]

    def refusal(self, state: State, action: Action) -> str | None:
        piles = state.piles
        names = self.layout.names
        if action.src not in self._pick_set:
            allowed = ", ".join(names[p] for p in self.pick)
            return f"{names[action.src]} cannot be picked (pick one of {allowed})"
        pile = piles[action.src]
        depth = action.n or 1
        if not self.anywhere and depth != 1:
            return f"only the top card of {names[action.src]} can be picked"
        if depth > len(pile):
            return f"{names[action.src]} has only {len(pile)} card{'s' if len(pile) != 1 else ''}"
        if not pile[-depth] & DOWN:
            where = "on top" if depth == 1 else f"at place {depth} from the top"
            return f"{names[action.src]} has no face-down card {where}"
        if not piles[self.partner]:
            return f"{names[self.partner]} is empty: nothing to exchange with"
        return None

    def apply(self, state: State, action: Action, trace: Trace | None) -> State:
        piles = state.piles
        depth = action.n or 1
        picked_pile, partner = piles[action.src], piles[self.partner]
        at = len(picked_pile) - depth
        picked = picked_pile[at]
        given = partner[0] if self.from_bottom else partner[-1]
        rest = partner[1:] if self.from_bottom else partner[:-1]
        if trace is not None:
            trace.append(Step(picked & MASK, action.src, self.partner))
            trace.append(Step(given & MASK, self.partner, action.src))
        changed = (*picked_pile[:at], (given & MASK) | DOWN, *picked_pile[at + 1 :])
        new = replace(piles, (action.src, changed), (self.partner, (*rest, picked)))
        return new_state(new, state.phase, state.counts)
