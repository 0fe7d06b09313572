"""The base of every effect's implementation, and a helper the implementations share.

It is compiled with the hot modules (``engine/build.py``), so that the effects compiled there
(``moves``) are native classes, whose attributes are read without a dictionary lookup; the
effects of the modules left as Python subclass it all the same.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import ClassVar, Generic, TypeVar

from mypy_extensions import mypyc_attr

from ....rules.model import ActionSpec
from ...core.accept_rules import Table
from ...core.layout import Layout
from ...core.state import Action, Piles, State, Trace

S = TypeVar("S", bound=ActionSpec)


@mypyc_attr(allow_interpreted_subclasses=True)
class Effect(Generic[S]):
    """The implementation of one action of a game (an effect with its parameters)."""

    # How the action is written: with up to this many pile names ('t3 f3': 2, 'pick h5': 1,
    # 'draw': 0), at least ``min_piles`` of them, and whether a number may follow ('t3 t5 4').
    takes_piles: ClassVar[int] = 0
    min_piles: ClassVar[int | None] = None  # None: exactly takes_piles
    takes_number: ClassVar[bool] = False
    # True when the effect keeps a count in the position (State.counts), e.g. redeals made.
    keeps_count: ClassVar[bool] = False
    # True when the effect never changes how many cards a pile holds (it turns cards over).
    keeps_sizes: ClassVar[bool] = False

    def __init__(self, name: str, spec: S, layout: Layout) -> None:
        self.name = name
        self.spec = spec
        self.layout = layout
        self.help = spec.help
        self.automatic = spec.automatic
        self.counter = -1  # the index in State.counts, given by the game when keeps_count

    def reads_count(self) -> bool:
        """Whether the count it keeps (``keeps_count``) is ever read: positions that differ
        only in a count no rule reads play alike."""
        return self.keeps_count

    def faces_read(self) -> list[Table] | None:
        """The tables of faces by which this effect reads cards, besides the piles' accept
        rules and the cards' ranks (the relation its runs follow); None when it reads cards in
        some other way, so that every face keeps its own place in the position keys (faces
        that every rule reads alike may share it: ``keys.face_classes``)."""
        return None

    def bind(self, conditions: Mapping[str, Callable[[State], bool]]) -> None:
        """Called once the game's conditions are compiled, for effects that use one."""

    def generate(self, state: State) -> list[Action]:
        raise NotImplementedError

    def refusal(self, state: State, action: Action) -> str | None:
        """Why ``action`` is not allowed in this position, in one line; None when it is."""
        raise NotImplementedError

    def allows(self, state: State, action: Action) -> bool:
        """Whether ``action`` is allowed (the text of a refusal is not made)."""
        return self.refusal(state, action) is None

    def apply(self, state: State, action: Action, trace: Trace | None) -> State:
        """The position after a legal ``action`` (the phase is the flow's business)."""
        raise NotImplementedError

    def cards_moved(self, action: Action) -> int:
        """How many cards ``action`` takes from the top of its source to the top of its target
        when that is all it does to the piles; 0 when it does anything else."""
        return 0

    def is_safe(self, state: State, action: Action) -> bool:
        """Whether this legal action can never hurt, so the engine may play it unasked."""
        return False

    def may_be_safe(self) -> bool:
        """Whether ``is_safe`` can ever be true (search asks only those effects)."""
        return type(self).is_safe is not Effect.is_safe

    def covers(self, action: Action) -> bool:
        """Whether this effect takes from and puts on the piles ``action`` names, whether or not
        the position allows it now (a reading of 'SOURCE TARGET' to explain a refusal with)."""
        return True

    def takes_from(self, pile: int) -> bool:
        """Whether this effect ever takes cards from ``pile`` (to explain a refusal with when
        no action both takes from and puts on the piles named)."""
        return True

    def well_formed(self, action: Action) -> bool:
        """Whether ``action`` has the shape this effect's actions have (piles that exist)."""
        count = len(self.layout)
        fewest = self.takes_piles if self.min_piles is None else self.min_piles
        given = [p for p in (action.src, action.dst) if p != -1]
        if not fewest <= len(given) <= self.takes_piles or (action.src == -1 and given):
            return False
        if not all(0 <= p < count for p in given):
            return False
        return action.n >= 0 if self.takes_number else action.n == 0


def replace(piles: Piles, *changes: tuple[int, tuple[int, ...]]) -> Piles:
    """``piles`` with some piles replaced: ``(index, new pile)`` pairs."""
    out = list(piles)
    for index, pile in changes:
        out[index] = pile
    return tuple(out)
