"""Redealing the tableau during play: gather piles' cards and deal them again.

Which cards are gathered (every card, or those not yet in place), in what order, whether they
are shuffled, and how they are dealt again (in packets, or one into each gap) are the rule
file's. A shuffle draws from a generator seeded by the cards gathered and the number of the
redeal: the position decides it, so a deal and its actions always lead to the same positions
(replays, saved games, the solver's tables), and positions that play alike shuffle alike.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from typing import Literal

from ....rules.model import ActionSpec, GameSpec, Problem
from ....rules.spec import Count, PileRefs, record
from ...core.cards import FACE, MASK
from ...core.layout import Layout
from ...core.state import Action, Piles, State, Step, Trace, new_state
from . import EFFECTS, Effect


@record
class RegatherSpec(ActionSpec):
    """Gather cards of the listed piles and deal them again onto those piles.

    With 'gather: all' every card is picked up, pile by pile in the order listed (each from
    its bottom card up; 'pick_up: reversed': the last pile first, each from its top card
    down), and dealt again in packets of 'packet' cards: the first packet onto the first
    pile, bottom card first, the next onto the second pile, and round again if piles run out.
    With 'gather: out_of_place' the piles lie in a grid whose rows are built from their first
    place ('follows'): each row keeps the cards its rule accepts where they lie, from the
    row's first place on, and every later place is picked up, row by row; 'into: gaps' then
    deals one card into each place picked up, leaving the first such place of each row empty.
    """

    sources = ("piles",)
    destinations = ("piles",)
    ordered = ("piles",)
    effect: Literal["regather"]
    piles: PileRefs
    """The piles gathered and dealt again, in order."""
    gather: Literal["all", "out_of_place"] = "all"
    """Which cards: all of them, or those not in place (rows of a grid built from their start)."""
    pick_up: Literal["in_order", "reversed"] = "in_order"
    """The order the cards are picked up in: the piles as listed, each bottom card first; or
    reversed: the last pile's top card first."""
    shuffle: bool = False
    """Shuffle the cards gathered before dealing them again."""
    packet: Count | None = None
    """Deal again in packets of this many cards, one packet a pile (with into: piles)."""
    into: Literal["piles", "gaps"] = "piles"
    """Deal onto the piles in packets, or one card into each place gathered, leaving the first
    of each row empty (a gap)."""
    limit: Count | None = None
    """How many times in a game; absent: without limit (then a redeal that would change
    nothing is refused)."""

    def problems(self, game: GameSpec) -> Iterator[Problem]:
        gridded = game.grid_group(self.piles) is not None
        if self.into == "piles" and self.packet is None:
            yield ("packet",), "give 'packet': how many cards each pile is dealt again"
        if self.into == "gaps" and self.packet is not None:
            yield ("packet",), "'into: gaps' deals one card a place: leave 'packet' out"
        if (self.gather == "out_of_place" or self.into == "gaps") and not gridded:
            yield (
                ("piles",),
                "'out_of_place' and 'into: gaps' read rows: name one pile group that lies in a "
                "grid ('arrangement: {grid: N}')",
            )


@EFFECTS.entry(RegatherSpec)
class Regather(Effect[RegatherSpec]):
    keeps_count = True

    def __init__(self, name: str, spec: RegatherSpec, layout: Layout) -> None:
        super().__init__(name, spec, layout)
        self.piles = layout.resolve(spec.piles)
        self._action = Action(name)
        # The rows of a grid group, for 'out_of_place' and 'into: gaps' (else one row).
        group = spec.piles[0] if len(spec.piles) == 1 else None
        self.rows = layout.rows(self.piles, group)

    # --- what is gathered, and where it goes ---------------------------------------------

    def _gathered(self, piles: Piles) -> tuple[list[int], list[list[int]]]:
        """The cards picked up, in order, and the places they leave, row by row."""
        if self.spec.gather == "all":
            order = self.piles if self.spec.pick_up == "in_order" else self.piles[::-1]
            cards: list[int] = []
            for p in order:
                pile = piles[p]
                cards += pile if self.spec.pick_up == "in_order" else pile[::-1]
            return [c & MASK for c in cards], [list(self.piles)]
        cards, places = [], []
        for row in self.rows:
            left = list(row[self.layout.in_place(piles, row) :])
            places.append(left)
            for p in left:
                cards += piles[p]
        if self.spec.pick_up == "reversed":
            cards.reverse()
        return [c & MASK for c in cards], places

    def _redealt(self, state: State) -> tuple[Piles, list[int]]:
        """The piles after the redeal, and the cards gathered."""
        piles = state.piles
        cards, places = self._gathered(piles)
        dealt = list(cards)
        if self.spec.shuffle:
            count = state.counts[self.counter] if self.spec.limit is not None else 0
            digest = hashlib.blake2b(
                bytes(FACE[c] for c in cards) + count.to_bytes(2, "big"), digest_size=8
            ).digest()
            random.Random(int.from_bytes(digest, "big")).shuffle(dealt)
        work = list(piles)
        for row in places:
            for p in row:
                work[p] = ()
        if self.spec.into == "gaps":
            # One card a place, the first place of each row left empty; any cards beyond
            # the places go round them again (none do where every place holds one card).
            targets = [p for row in places for p in row[1:]] + [row[0] for row in places if row]
            for k, card in enumerate(dealt):
                p = targets[k % len(targets)]
                work[p] = (*work[p], card)
        else:
            size = self.spec.packet or 1
            for k in range(0, len(dealt), size):
                p = self.piles[(k // size) % len(self.piles)]
                work[p] = (*work[p], *dealt[k : k + size])
        return tuple(work), cards

    # --- the effect -----------------------------------------------------------------------

    def _left(self, state: State) -> bool:
        return self.spec.limit is None or state.counts[self.counter] < self.spec.limit

    def _why_not(self, state: State) -> str | None:
        if not self._left(state):
            return f"no redeal is left ({self.spec.limit} in a game)"
        after, cards = self._redealt(state)
        if not cards:
            return "there are no cards to gather"
        if self.spec.limit is None and after == state.piles:
            return "a redeal now would change nothing"
        return None

    def generate(self, state: State) -> list[Action]:
        return [self._action] if self._why_not(state) is None else []

    def refusal(self, state: State, action: Action) -> str | None:
        return self._why_not(state)

    def apply(self, state: State, action: Action, trace: Trace | None) -> State:
        after, _ = self._redealt(state)
        if trace is not None:
            before = state.piles
            came_from = {c & MASK: p for p in self.piles for c in before[p]}
            for p in self.piles:
                if after[p] != before[p]:
                    trace.extend(Step(c, came_from[c], p) for c in after[p])
        counts = state.counts
        if self.spec.limit is not None:
            changed = list(counts)
            changed[self.counter] += 1
            counts = tuple(changed)
        return new_state(after, state.phase, counts)
