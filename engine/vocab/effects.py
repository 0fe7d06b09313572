"""Effects: what a player's action does to the piles. One entry per ``effect:`` name.

Each entry is a spec class (the keys a rule file gives it, with their descriptions) and, right
below it, its implementation, registered under the spec class. An implementation generates the
legal actions of a position, says why an action is refused, and applies an action, returning
new piles (positions are immutable, so undo is a stack).
"""

from __future__ import annotations

from typing import Any, ClassVar, Generic, Literal, TypeVar

from ...rules.model import ActionSpec, Face
from ...rules.spec import Count, PileName, PileRefs, config, record
from ..core.cards import DOWN, FACE, MASK
from ..core.layout import Layout
from ..core.state import Action, Piles, Step, Trace
from .registry import Registry

S = TypeVar("S", bound=ActionSpec)


class Effect(Generic[S]):
    """The implementation of one action of a game (an effect with its parameters)."""

    # How many pile names the action is written with ('t3 f3': 2; 'pick h5': 1; 'draw': 0).
    takes_piles: ClassVar[int] = 0

    def __init__(self, name: str, spec: S, layout: Layout) -> None:
        self.name = name
        self.spec = spec
        self.layout = layout
        self.help = spec.help

    def generate(self, piles: Piles) -> list[Action]:
        raise NotImplementedError

    def refusal(self, piles: Piles, action: Action) -> str | None:
        """Why ``action`` is not allowed on these piles, in one line; None when it is."""
        raise NotImplementedError

    def allows(self, piles: Piles, action: Action) -> bool:
        """Whether ``action`` is allowed on these piles (the text of a refusal is not made)."""
        return self.refusal(piles, action) is None

    def apply(self, piles: Piles, action: Action, trace: Trace | None) -> Piles:
        """The piles after a legal ``action``."""
        raise NotImplementedError

    def well_formed(self, action: Action) -> bool:
        """Whether ``action`` has the shape this effect's actions have (piles that exist)."""
        count = len(self.layout)
        if self.takes_piles == 0:
            return action.src == -1 and action.dst == -1 and action.n == 0
        if self.takes_piles == 1:
            return 0 <= action.src < count and action.dst == -1 and action.n == 0
        return 0 <= action.src < count and 0 <= action.dst < count and action.n == 0


EFFECTS: Registry[ActionSpec, type[Effect[Any]]] = Registry("effect")


def _set(piles: Piles, i: int, pile: tuple[int, ...], j: int, other: tuple[int, ...]) -> Piles:
    out = list(piles)
    out[i] = pile
    out[j] = other
    return tuple(out)


# --- move_top ------------------------------------------------------------------------------


@record
class MoveTopSpec(ActionSpec):
    """The player moves the top card of one pile onto another that accepts it."""

    __pydantic_config__ = config(source="from", target="to")
    effect: Literal["move_top"]
    source: PileRefs
    """Piles whose top card may be moved."""
    target: PileRefs
    """Piles the card may be moved onto."""


@EFFECTS.entry(MoveTopSpec)
class MoveTop(Effect[MoveTopSpec]):
    takes_piles = 2

    def __init__(self, name: str, spec: MoveTopSpec, layout: Layout) -> None:
        super().__init__(name, spec, layout)
        self.sources = layout.resolve(spec.source)
        self.targets = layout.resolve(spec.target)
        self._source_set = frozenset(self.sources)
        self._target_set = frozenset(self.targets)
        self._rules = [(t, layout.accepts[t]) for t in self.targets]

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
        names = self.layout.names
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
        return self.layout.accepts[dst].refusal(names[dst], piles[dst], pile[-1])

    def apply(self, piles: Piles, action: Action, trace: Trace | None) -> Piles:
        src, dst = action.src, action.dst
        card = piles[src][-1]
        if trace is not None:
            trace.append(Step(card, src, dst))
        return _set(piles, src, piles[src][:-1], dst, piles[dst] + (card,))


# --- chain ---------------------------------------------------------------------------------


@record
class ChainSpec(ActionSpec):
    """Turn the top face-down card of a pile, place it on its home pile, and go on from there.

    The home of a card is the first of the ``to`` piles that accepts it where it is placed
    (on top, or beneath the bottom card). The chain stops when the pile it must turn from has
    no face-down card on top; a card with no home is turned face up where it is.
    """

    __pydantic_config__ = config(target="to")
    progresses: ClassVar[bool] = True
    effect: Literal["chain"]
    start: PileName
    """The pile the first card is turned from."""
    target: PileRefs
    """The piles cards are placed on."""
    place: Literal["bottom", "top"] = "bottom"
    """Where a placed card goes: under the pile's cards, or on top."""


@EFFECTS.entry(ChainSpec)
class Chain(Effect[ChainSpec]):
    def __init__(self, name: str, spec: ChainSpec, layout: Layout) -> None:
        super().__init__(name, spec, layout)
        self.start = layout.one(spec.start)
        self.targets = layout.resolve(spec.target)
        self.bottom = spec.place == "bottom"
        rules = [(t, layout.accepts[t]) for t in self.targets]
        self._rules = rules
        self._action = Action(name)
        # With rules that ignore the piles' cards, each card has one home for the whole game:
        # a table indexed by the card as stored (face down), so the loop does one lookup.
        self.home_of_card: tuple[int, ...] | None = None
        if self.bottom and all(rule.static for _, rule in rules):
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
        return f"{self.layout.names[self.start]} has no face-down card to turn"

    def _home(self, work: list[list[int]], card: int) -> int:
        face = FACE[card]
        for target, rule in self._rules:
            pile = tuple(work[target])
            wanted = rule.wanted_below(pile) if self.bottom else rule.wanted(pile)
            if face in wanted:
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
                work[dst].append(card)  # face up on top: the chain stops at this pile
            if trace is not None:
                trace.append(Step(card, current, dst))
            current = dst
        return tuple(map(tuple, work))


# --- fill_gaps -----------------------------------------------------------------------------


@record
class FillGapsSpec(ActionSpec):
    """Deal from a pile, one card per short pile in the order listed, until none is short."""

    __pydantic_config__ = config(source="from")
    disjoint = (("source", "piles"),)
    effect: Literal["fill_gaps"]
    piles: PileRefs
    """The piles to fill, in filling order."""
    size: Count
    """A pile is short below this size."""
    source: PileName
    """The pile the cards are dealt from."""
    face: Face = "up"


@EFFECTS.entry(FillGapsSpec)
class FillGaps(Effect[FillGapsSpec]):
    def __init__(self, name: str, spec: FillGapsSpec, layout: Layout) -> None:
        super().__init__(name, spec, layout)
        self.piles = layout.resolve(spec.piles)
        self.size = spec.size
        self.source = layout.one(spec.source)
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
            return f"{self.layout.names[self.source]} is empty: nothing to fill with"
        return None

    def apply(self, piles: Piles, action: Action, trace: Trace | None) -> Piles:
        work = list(piles)
        stock = list(work[self.source])
        size, flag = self.size, self.flag
        # Each round gives one card to every short pile; the round count is bounded by size.
        for _ in range(size):
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


# --- deal ----------------------------------------------------------------------------------


@record
class DealSpec(ActionSpec):
    """Move cards from the top of one pile onto another (for example stock to waste)."""

    __pydantic_config__ = config(source="from", target="to")
    disjoint = (("source", "target"),)
    effect: Literal["deal"]
    source: PileName
    """The pile cards are taken from."""
    target: PileName
    """The pile cards are put on."""
    count: Count = 1
    """How many cards at most."""
    face: Face = "up"


@EFFECTS.entry(DealSpec)
class Deal(Effect[DealSpec]):
    def __init__(self, name: str, spec: DealSpec, layout: Layout) -> None:
        super().__init__(name, spec, layout)
        self.source = layout.one(spec.source)
        self.target = layout.one(spec.target)
        self.count = spec.count
        self.flag = DOWN if spec.face == "down" else 0
        self._action = Action(name)

    def generate(self, piles: Piles) -> list[Action]:
        return [self._action] if piles[self.source] else []

    def refusal(self, piles: Piles, action: Action) -> str | None:
        if piles[self.source]:
            return None
        return f"{self.layout.names[self.source]} is empty"

    def apply(self, piles: Piles, action: Action, trace: Trace | None) -> Piles:
        src = piles[self.source]
        n = min(self.count, len(src))
        moved = tuple((c & MASK) | self.flag for c in reversed(src[len(src) - n :]))
        if trace is not None:
            trace.extend(Step(c & MASK, self.source, self.target) for c in moved)
        return _set(
            piles, self.source, src[: len(src) - n], self.target, piles[self.target] + moved
        )


# --- exchange ------------------------------------------------------------------------------


@record
class ExchangeSpec(ActionSpec):
    """The player picks a pile; its top face-down card changes places with a card of another.

    The picked card goes face down onto the top of the ``with`` pile (so a chain starting there
    turns it next); the card taken from the ``with`` pile goes face down where the picked card
    was.
    """

    __pydantic_config__ = config(partner="with")
    disjoint = (("pick", "partner"),)
    effect: Literal["exchange"]
    pick: PileRefs
    """Piles the player may pick; the pile needs a face-down top."""
    partner: PileName
    """The pile the picked card goes to."""
    take: Literal["bottom", "top"] = "bottom"
    """Which card of the 'with' pile goes back in the picked card's place."""


@EFFECTS.entry(ExchangeSpec)
class Exchange(Effect[ExchangeSpec]):
    takes_piles = 1

    def __init__(self, name: str, spec: ExchangeSpec, layout: Layout) -> None:
        super().__init__(name, spec, layout)
        self.pick = layout.resolve(spec.pick)
        self._pick_set = frozenset(self.pick)
        self.partner = layout.one(spec.partner)
        self.from_bottom = spec.take == "bottom"

    def generate(self, piles: Piles) -> list[Action]:
        if not piles[self.partner]:
            return []
        return [Action(self.name, p) for p in self.pick if piles[p] and piles[p][-1] & DOWN]

    def refusal(self, piles: Piles, action: Action) -> str | None:
        names = self.layout.names
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
