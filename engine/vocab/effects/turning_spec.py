"""The rule record of ``turn_up``, kept apart from its implementation in ``turning``: that is
compiled by mypyc, which takes no pydantic records."""

from __future__ import annotations

from typing import ClassVar, Literal

from ....rules.model import ActionSpec
from ....rules.spec import PileRefs, record


@record
class TurnUpSpec(ActionSpec):
    """Turn face up the top card of every listed pile whose top card is face down, and that no
    pile covering it (its group's arrangement: a pyramid, covered_by) holds a card.

    Usually 'automatic: true', so that a card turns up as soon as it is exposed.
    """

    progresses: ClassVar[bool] = True
    sources = ()
    destinations = ()
    effect: Literal["turn_up"]
    piles: PileRefs
    """The piles whose exposed face-down card turns up."""
