"""Dealing during play: from the stock to the waste, into gaps, along a row, and redealing."""

from __future__ import annotations

from ...core.accept_rules import Table
from ...core.cards import DOWN, MASK
from ...core.layout import Layout
from ...core.state import Action, State, Step, Trace, new_state
from . import EFFECTS, Effect, replace
from .dealing_spec import DealRowSpec, DealSpec, FillGapsSpec, RedealSpec

# The records live in dealing_spec (mypyc takes no pydantic records).
__all__ = [
    "Deal", "DealRow", "DealRowSpec", "DealSpec",
    "FillGaps", "FillGapsSpec", "Redeal", "RedealSpec",
]  # fmt: skip


class Deal(Effect[DealSpec]):
    def __init__(self, name: str, spec: DealSpec, layout: Layout) -> None:
        super().__init__(name, spec, layout)
        self.source = layout.one(spec.source)
        self.target = layout.one(spec.target)
        self.count = spec.count
        self.flag = DOWN if spec.face == "down" else 0
        self._action = Action(name)

    def faces_read(self) -> list[Table] | None:
        return []  # cards are read by their places and by the piles' rules alone

    def generate(self, state: State) -> list[Action]:
        return [self._action] if state.piles[self.source] else []

    def refusal(self, state: State, action: Action) -> str | None:
        if state.piles[self.source]:
            return None
        return f"{self.layout.names[self.source]} is empty"

    def dealt(
        self, src: tuple[int, ...], dst: tuple[int, ...]
    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The source and the target after one deal: all it changes (``apply``)."""
        return self.dealt_cards(src, dst, min(self.count, len(src)))

    def dealt_cards(
        self, src: tuple[int, ...], dst: tuple[int, ...], n: int
    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The source and the target after deals that turn ``n`` cards in all (as many deals
        as that takes, one after the other: each turns the source's top cards over onto the
        target, so that together they turn its top ``n`` cards over). With ``n`` 0, the very
        same tuples."""
        if not n:
            return src, dst
        moved = tuple([(c & MASK) | self.flag for c in reversed(src[len(src) - n :])])
        return src[: len(src) - n], dst + moved

    def apply(self, state: State, action: Action, trace: Trace | None) -> State:
        piles = state.piles
        dst = piles[self.target]
        src, dealt = self.dealt(piles[self.source], dst)
        if trace is not None:
            trace.extend(Step(c & MASK, self.source, self.target) for c in dealt[len(dst) :])
        new = replace(piles, (self.source, src), (self.target, dealt))
        return new_state(new, state.phase, state.counts)


class DealRow(Effect[DealRowSpec]):
    def __init__(self, name: str, spec: DealRowSpec, layout: Layout) -> None:
        super().__init__(name, spec, layout)
        self.source = layout.one(spec.source)
        self.targets = layout.resolve(spec.target)
        self.flag = DOWN if spec.face == "down" else 0
        self._action = Action(name)
        # The most cards each target holds (0: no limit): a full pile is passed over.
        self._room = [layout.accepts[t].max_cards for t in self.targets]
        self._bounded = any(self._room)

    def _has_room(self, state: State) -> bool:
        if not self._bounded:
            return True
        piles = state.piles
        return any(not room or len(piles[t]) < room
                   for t, room in zip(self.targets, self._room, strict=True))  # fmt: skip

    def faces_read(self) -> list[Table] | None:
        return []  # cards are read by their places and by the piles' rules alone

    def generate(self, state: State) -> list[Action]:
        return [self._action] if state.piles[self.source] and self._has_room(state) else []

    def refusal(self, state: State, action: Action) -> str | None:
        if not state.piles[self.source]:
            return f"{self.layout.names[self.source]} is empty"
        if not self._has_room(state):
            return "every pile dealt to is full"
        return None

    def apply(self, state: State, action: Action, trace: Trace | None) -> State:
        work = list(state.piles)
        stock = work[self.source]
        rooms = self._room
        for k, target in enumerate(self.targets):
            if not stock:
                break
            if rooms[k] and len(work[target]) >= rooms[k]:
                continue
            card = stock[-1] & MASK
            stock = stock[:-1]
            work[target] = work[target] + (card | self.flag,)
            if trace is not None:
                trace.append(Step(card, self.source, target))
        work[self.source] = stock
        return new_state(tuple(work), state.phase, state.counts)


class Redeal(Effect[RedealSpec]):
    keeps_count = True

    def __init__(self, name: str, spec: RedealSpec, layout: Layout) -> None:
        super().__init__(name, spec, layout)
        self.source = layout.one(spec.source)
        self.target = layout.one(spec.target)
        self.limit = spec.limit
        self._action = Action(name)

    def reads_count(self) -> bool:
        return self.limit is not None

    def left(self, counts: tuple[int, ...]) -> bool:
        """Whether a redeal is left with these counts."""
        return self.limit is None or counts[self.counter] < self.limit

    def ready(self, src: tuple[int, ...], dst: tuple[int, ...], counts: tuple[int, ...]) -> bool:
        """Whether a redeal may be made with these piles and counts (``generate``)."""
        return bool(src) and not dst and self.left(counts)

    @staticmethod
    def turned(src: tuple[int, ...]) -> tuple[int, ...]:
        """The source turned over, face down: the target after a redeal (``apply``)."""
        return tuple((c & MASK) | DOWN for c in reversed(src))

    def counted(self, counts: tuple[int, ...]) -> tuple[int, ...]:
        """The counts after a redeal (``apply``)."""
        out = list(counts)
        out[self.counter] += 1
        return tuple(out)

    def faces_read(self) -> list[Table] | None:
        return []  # cards are read by their places and by the piles' rules alone

    def generate(self, state: State) -> list[Action]:
        piles = state.piles
        if self.ready(piles[self.source], piles[self.target], state.counts):
            return [self._action]
        return []

    def refusal(self, state: State, action: Action) -> str | None:
        names = self.layout.names
        piles = state.piles
        if not self.left(state.counts):
            return f"no redeal is left ({self.limit} in a game)"
        if piles[self.target]:
            return f"{names[self.target]} still has cards"
        if not piles[self.source]:
            return f"{names[self.source]} is empty: nothing to redeal"
        return None

    def apply(self, state: State, action: Action, trace: Trace | None) -> State:
        piles = state.piles
        turned = self.turned(piles[self.source])
        if trace is not None:
            trace.extend(Step(c & MASK, self.source, self.target) for c in turned)
        new = replace(piles, (self.source, ()), (self.target, turned))
        return new_state(new, state.phase, self.counted(state.counts))


class FillGaps(Effect[FillGapsSpec]):
    def __init__(self, name: str, spec: FillGapsSpec, layout: Layout) -> None:
        super().__init__(name, spec, layout)
        self.piles = layout.resolve(spec.piles)
        self.size = spec.size
        self.source = layout.one(spec.source)
        self.flag = DOWN if spec.face == "down" else 0
        self._action = Action(name)

    def _short(self, state: State) -> bool:
        size = self.size
        return any(len(state.piles[p]) < size for p in self.piles)

    def faces_read(self) -> list[Table] | None:
        return []  # cards are read by their places and by the piles' rules alone

    def generate(self, state: State) -> list[Action]:
        return [self._action] if state.piles[self.source] and self._short(state) else []

    def refusal(self, state: State, action: Action) -> str | None:
        if not self._short(state):
            return "there is no gap to fill"
        if not state.piles[self.source]:
            return f"{self.layout.names[self.source]} is empty: nothing to fill with"
        return None

    def apply(self, state: State, action: Action, trace: Trace | None) -> State:
        work = list(state.piles)
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
        return new_state(tuple(work), state.phase, state.counts)


# Registered after the classes, not by a decorator: mypyc compiles a decorated class as a
# Python class, whose every attribute read is a dictionary lookup.
EFFECTS.entry(DealSpec)(Deal)
EFFECTS.entry(DealRowSpec)(DealRow)
EFFECTS.entry(RedealSpec)(Redeal)
EFFECTS.entry(FillGapsSpec)(FillGaps)
