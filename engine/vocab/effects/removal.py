"""Taking cards out of play: finished runs, pairs that go together, and closing up the gaps."""

from __future__ import annotations

from itertools import pairwise

from ...core.accept_rules import Table
from ...core.cards import DOWN, FACE, MASK, RANK
from ...core.layout import Layout
from ...core.state import Action, State, Step, Trace, new_state
from ..accepts import relation_table
from . import EFFECTS, Effect, replace
from .removal_spec import CloseGapsSpec, PairSpec, RemoveRunsSpec

# The records live in removal_spec (mypyc takes no pydantic records).
__all__ = ["CloseGaps", "CloseGapsSpec", "Pair", "PairSpec", "RemoveRuns", "RemoveRunsSpec"]


class RemoveRuns(Effect[RemoveRunsSpec]):
    takes_piles = 1

    def __init__(self, name: str, spec: RemoveRunsSpec, layout: Layout) -> None:
        super().__init__(name, spec, layout)
        self.sources = layout.resolve(spec.source)
        self._source_set = frozenset(self.sources)
        self.targets = layout.resolve(spec.target)
        self.link = relation_table((spec.run,), False, 0)
        self._length = spec.length
        self._starts_at = spec.starts_at

    def _finished(self, pile: tuple[int, ...]) -> bool:
        length = self._length
        if len(pile) < length:
            return False
        if RANK[pile[-length]] != self._starts_at:
            return False
        run = pile[-length:]
        if any(c & DOWN for c in run):
            return False
        return all(FACE[upper] in self.link[FACE[lower]] for lower, upper in pairwise(run))

    def _room(self, state: State) -> int:
        return next((t for t in self.targets if not state.piles[t]), -1)

    def faces_read(self) -> list[Table] | None:
        return [self.link]  # the run rule (its bottom card is read by rank)

    def generate(self, state: State) -> list[Action]:
        # Asked after every action (it is automatic): the piles are read first, the room
        # asked for only when a run is finished.
        piles = state.piles
        found = [s for s in self.sources if self._finished(piles[s])]
        if not found or self._room(state) < 0:
            return []
        return [Action(self.name, s) for s in found]

    def refusal(self, state: State, action: Action) -> str | None:
        names = self.layout.names
        if action.src not in self._source_set:
            return f"no run can be taken from {names[action.src]}"
        if not self._finished(state.piles[action.src]):
            return f"{names[action.src]} has no finished run of {self._length} cards on top"
        if self._room(state) < 0:
            return "there is no empty pile to take the run"
        return None

    def apply(self, state: State, action: Action, trace: Trace | None) -> State:
        piles = state.piles
        dst = self._room(state)
        pile = piles[action.src]
        run = pile[-self._length :]
        if trace is not None:
            trace.extend(Step(c, action.src, dst) for c in reversed(run))
        new = replace(piles, (action.src, pile[: -self._length]), (dst, run[::-1]))
        return new_state(new, state.phase, state.counts)


class Pair(Effect[PairSpec]):
    takes_piles = 2
    min_piles = 1

    def __init__(self, name: str, spec: PairSpec, layout: Layout) -> None:
        super().__init__(name, spec, layout)
        self.sources = layout.resolve(spec.source)
        self._source_set = frozenset(self.sources)
        self.target = layout.one(spec.target)
        self.alone = frozenset(spec.alone)
        self.covered = layout.covered_by
        self.neighbours = layout.neighbours

    def _free(self, piles: tuple[tuple[int, ...], ...], pile: int) -> bool:
        cards = piles[pile]
        if not cards or cards[-1] & DOWN:
            return False
        return not any(piles[c] for c in self.covered[pile])

    def _match(self, a: int, b: int) -> bool:
        if self.spec.same_rank:
            return RANK[a] == RANK[b]
        return RANK[a] + RANK[b] == self.spec.sum

    def faces_read(self) -> list[Table] | None:
        return []  # cards are read by rank alone

    def generate(self, state: State) -> list[Action]:
        piles = state.piles
        free = [p for p in self.sources if self._free(piles, p)]
        out = [Action(self.name, p) for p in free if RANK[piles[p][-1]] in self.alone]
        for i, a in enumerate(free):
            for b in free[i + 1 :]:
                if self.spec.adjacent and b not in self.neighbours[a]:
                    continue
                if self._match(piles[a][-1], piles[b][-1]):
                    out.append(Action(self.name, a, b))
        return out

    def refusal(self, state: State, action: Action) -> str | None:
        names = self.layout.names
        piles = state.piles
        chosen = [p for p in (action.src, action.dst) if p != -1]
        for p in chosen:
            if p not in self._source_set:
                return f"cards cannot be removed from {names[p]}"
            if not piles[p]:
                return f"{names[p]} is empty"
            if not self._free(piles, p):
                covers = " and ".join(names[c] for c in self.covered[p] if piles[c])
                return f"{names[p]}'s card is not free: {covers or 'it is face down'}"
        if len(chosen) == 1:
            card = piles[action.src][-1]
            if RANK[card] in self.alone:
                return None
            return f"{names[action.src]}'s card does not go alone; name the pile it pairs with"
        a, b = chosen
        if a == b:
            return "a card cannot pair with itself"
        if self.spec.adjacent and b not in self.neighbours[a]:
            return f"{names[a]} and {names[b]} do not touch"
        if not self._match(piles[a][-1], piles[b][-1]):
            rule = "have the same rank" if self.spec.same_rank else f"add up to {self.spec.sum}"
            return f"the cards of {names[a]} and {names[b]} do not {rule}"
        return None

    def apply(self, state: State, action: Action, trace: Trace | None) -> State:
        work = list(state.piles)
        for p in (action.src, action.dst):
            if p == -1:
                continue
            card = work[p][-1]
            work[p] = work[p][:-1]
            work[self.target] = work[self.target] + (card & MASK,)
            if trace is not None:
                trace.append(Step(card & MASK, p, self.target))
        return new_state(tuple(work), state.phase, state.counts)


class CloseGaps(Effect[CloseGapsSpec]):
    def __init__(self, name: str, spec: CloseGapsSpec, layout: Layout) -> None:
        super().__init__(name, spec, layout)
        self.piles = layout.resolve(spec.piles)
        self.source = layout.one(spec.source) if spec.source else -1
        self.flag = DOWN if spec.face == "down" else 0
        self._action = Action(name)

    def _gapped(self, state: State) -> bool:
        piles = state.piles
        seen_gap = False
        for p in self.piles:
            if not piles[p]:
                seen_gap = True
            elif seen_gap:
                return True
        return seen_gap and self.source >= 0 and bool(piles[self.source])

    def faces_read(self) -> list[Table] | None:
        return []  # cards are read by their places and by the piles' rules alone

    def generate(self, state: State) -> list[Action]:
        return [self._action] if self._gapped(state) else []

    def refusal(self, state: State, action: Action) -> str | None:
        return None if self._gapped(state) else "there is no gap to close or fill"

    def apply(self, state: State, action: Action, trace: Trace | None) -> State:
        work = list(state.piles)
        filled = [p for p in self.piles if work[p]]
        contents = [work[p] for p in filled]
        for p in self.piles:
            work[p] = ()
        for p, origin, cards in zip(self.piles, filled, contents, strict=False):
            work[p] = cards
            if trace is not None and origin != p:
                trace.extend(Step(c & MASK, origin, p) for c in cards)
        if self.source >= 0:
            stock = work[self.source]
            for p in self.piles:
                if not work[p] and stock:
                    card = stock[-1] & MASK
                    stock = stock[:-1]
                    work[p] = (card | self.flag,)
                    if trace is not None:
                        trace.append(Step(card, self.source, p))
            work[self.source] = stock
        return new_state(tuple(work), state.phase, state.counts)


# Registered after the classes, not by a decorator: mypyc compiles a decorated class as a
# Python class, whose every attribute read is a dictionary lookup.
EFFECTS.entry(RemoveRunsSpec)(RemoveRuns)
EFFECTS.entry(PairSpec)(Pair)
EFFECTS.entry(CloseGapsSpec)(CloseGaps)
