"""The rule records of the dealing effects (``deal``, ``deal_row``, ``redeal``, ``fill_gaps``),
kept apart from their implementations in ``dealing``: those are compiled by mypyc, which takes
no pydantic records."""

from __future__ import annotations

from typing import Literal

from ....rules.model import ActionSpec, Face
from ....rules.spec import Count, PileName, PileRefs, config, record


@record
class DealSpec(ActionSpec):
    """Move cards from the top of one pile onto another (for example stock to waste).

    Cards are turned over one by one, so with a count of three the third card dealt ends on
    top, as when three cards are turned from a stock.
    """

    __pydantic_config__ = config(source="from", target="to")
    disjoint = (("source", "target"),)
    on_top = True
    sources = ("source",)
    destinations = ("target",)
    effect: Literal["deal"]
    source: PileName
    """The pile cards are taken from."""
    target: PileName
    """The pile cards are put on."""
    count: Count = 1
    """How many cards at most."""
    face: Face = "up"


@record
class DealRowSpec(ActionSpec):
    """Deal one card from a pile onto each listed pile in turn, while cards last; a pile that
    holds all it may ('max_cards') is passed over."""

    __pydantic_config__ = config(source="from", target="to")
    disjoint = (("source", "target"),)
    on_top = True
    sources = ("source",)
    destinations = ("target",)
    ordered = ("target",)
    effect: Literal["deal_row"]
    source: PileName
    """The pile cards are dealt from."""
    target: PileRefs
    """The piles that get one card each, in order."""
    face: Face = "up"


@record
class RedealSpec(ActionSpec):
    """Turn a pile over to make another again: the waste back into the stock, when the stock
    is empty. The waste's first card becomes the stock's top card, face down."""

    __pydantic_config__ = config(source="from", target="to")
    disjoint = (("source", "target"),)
    sources = ("source",)
    destinations = ("target",)
    effect: Literal["redeal"]
    source: PileName
    """The pile turned over (the waste)."""
    target: PileName
    """The pile it becomes again; it must be empty (the stock)."""
    limit: Count | None = None
    """How many times in a game; absent: without limit."""


@record
class FillGapsSpec(ActionSpec):
    """Deal from a pile, one card per short pile in the order listed, until none is short."""

    __pydantic_config__ = config(source="from")
    disjoint = (("source", "piles"),)
    on_top = True
    sources = ("source",)
    destinations = ("piles",)
    ordered = ("piles",)
    fills = "piles"
    effect: Literal["fill_gaps"]
    piles: PileRefs
    """The piles to fill, in filling order."""
    size: Count
    """A pile is short below this size."""
    source: PileName
    """The pile the cards are dealt from."""
    face: Face = "up"

    def ordered_fields(self) -> tuple[str, ...]:
        # Filled one card deep, a short pile is an empty one: whichever empty pile takes
        # which card, the piles end the same but for their order.
        return () if self.size == 1 else self.ordered
