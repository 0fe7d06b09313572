"""Turning cards face up, once nothing covers them."""

from __future__ import annotations

from ...core.accept_rules import Table
from ...core.cards import DOWN, MASK
from ...core.layout import Layout
from ...core.state import Action, State, Step, Trace, new_state
from . import EFFECTS, Effect
from .turning_spec import TurnUpSpec

# The records live in turning_spec (mypyc takes no pydantic records).
__all__ = ["TurnUp", "TurnUpSpec"]


class TurnUp(Effect[TurnUpSpec]):
    keeps_sizes = True

    def __init__(self, name: str, spec: TurnUpSpec, layout: Layout) -> None:
        super().__init__(name, spec, layout)
        self.piles = layout.resolve(spec.piles)
        self._action = Action(name)
        # The piles that cover each listed pile (a pyramid, a covering): a covered card stays
        # face down until they are empty.
        self._covers = [layout.covered_by[p] for p in self.piles]

    def _hidden_tops(self, state: State) -> list[int]:
        piles = state.piles
        out: list[int] = []
        for k, p in enumerate(self.piles):
            pile = piles[p]
            if pile and pile[-1] & DOWN:
                covers = self._covers[k]
                if not covers or not any(piles[c] for c in covers):
                    out.append(p)
        return out

    def faces_read(self) -> list[Table] | None:
        return []  # cards are read by their places and by the piles' rules alone

    def generate(self, state: State) -> list[Action]:
        return [self._action] if self._hidden_tops(state) else []

    def refusal(self, state: State, action: Action) -> str | None:
        return None if self._hidden_tops(state) else "no pile has a face-down card on top"

    def apply(self, state: State, action: Action, trace: Trace | None) -> State:
        work = list(state.piles)
        for p in self._hidden_tops(state):
            card = work[p][-1] & MASK
            work[p] = (*work[p][:-1], card)
            if trace is not None:
                trace.append(Step(card, p, p))
        return new_state(tuple(work), state.phase, state.counts)


# Registered after the classes, not by a decorator: mypyc compiles a decorated class as a
# Python class, whose every attribute read is a dictionary lookup.
EFFECTS.entry(TurnUpSpec)(TurnUp)
