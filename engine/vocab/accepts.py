"""What a pile accepts: the build and suit rules of the vocabulary, compiled into tables.

For each pile, ``on_top[face]`` is the set of faces (``suit * 13 + rank - 1``) it accepts on a
top card of that face, and ``on_empty`` what it accepts when empty; a move check is then two
lookups, whatever the rule says. ``under[face]`` is the inverse relation, used when a card is
placed beneath a pile's bottom card: the pile must then read by its rule from bottom to top.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from ...rules.model import Accepts
from ...rules.notation import rank_name
from ..core.cards import DOWN, FACE, RANK, card_text

ALL_FACES: Final = frozenset(range(52))
NOTHING: Final[frozenset[int]] = frozenset()
_RED = (1, 2)  # D, H


@dataclass(frozen=True, slots=True)
class BuildRule:
    """How the rank of a card put on a pile relates to the rank of its top card."""

    describe: str
    ranks: Callable[[int, bool], frozenset[int]]  # (top rank, wrap) -> ranks allowed


@dataclass(frozen=True, slots=True)
class SuitRule:
    """How the suit of a card put on a pile relates to the suit of its top card."""

    describe: str
    suits: Callable[[int], frozenset[int]]  # top suit -> suits allowed


def _step(rank: int, by: int, wrap: bool) -> frozenset[int]:
    nxt = rank + by
    if 1 <= nxt <= 13:
        return frozenset({nxt})
    return frozenset({(nxt - 1) % 13 + 1}) if wrap else NOTHING


BUILDS: Final[dict[str, BuildRule]] = {
    "up": BuildRule("one rank higher (with wrap: A on K)", lambda r, w: _step(r, 1, w)),
    "down": BuildRule("one rank lower (with wrap: K on A)", lambda r, w: _step(r, -1, w)),
    "same": BuildRule("the same rank", lambda r, w: frozenset({r})),
    "any": BuildRule("any rank", lambda r, w: frozenset(range(1, 14))),
    "none": BuildRule("nothing may be built on a card", lambda r, w: NOTHING),
}

SUITS: Final[dict[str, SuitRule]] = {
    "any": SuitRule("any suit", lambda s: frozenset(range(4))),
    "same": SuitRule("the same suit", lambda s: frozenset({s})),
    "different": SuitRule("any other suit", lambda s: frozenset(range(4)) - {s}),
    "alternate": SuitRule(
        "the other colour (red on black, black on red)",
        lambda s: frozenset(x for x in range(4) if (x in _RED) != (s in _RED)),
    ),
}


@dataclass(frozen=True, slots=True)
class AcceptRule:
    on_top: tuple[frozenset[int], ...]
    under: tuple[frozenset[int], ...]
    on_empty: frozenset[int]
    # What the pile accepts next to a card it cannot see (face down): everything its rank
    # limit allows when the rule does not depend on the neighbouring card, else nothing.
    blind: frozenset[int]
    min_cards: int
    complete_rank: int | None
    build: str
    # True when the rule ignores the pile's cards: then a card's home never changes.
    static: bool

    def wanted(self, pile: tuple[int, ...]) -> frozenset[int]:
        """The faces that may be put on top of ``pile``."""
        if len(pile) < self.min_cards:
            return NOTHING
        if not pile:
            return self.on_empty
        top = pile[-1]
        if top & DOWN:
            return self.blind
        return self.on_top[FACE[top]]

    def wanted_below(self, pile: tuple[int, ...] | list[int]) -> frozenset[int]:
        """The faces that may be put beneath ``pile``'s bottom card."""
        if len(pile) < self.min_cards:
            return NOTHING
        if not pile:
            return self.on_empty
        top = pile[-1]
        if self.complete_rank is not None and not top & DOWN and RANK[top] == self.complete_rank:
            return NOTHING
        bottom = pile[0]
        if bottom & DOWN:
            return self.blind
        return self.under[FACE[bottom]]

    def refusal(self, name: str, pile: tuple[int, ...], card: int) -> str | None:
        """Why ``card`` may not go on ``pile`` (None when it may)."""
        if len(pile) < self.min_cards:
            return (
                f"{name} has {len(pile)} card{'s' if len(pile) != 1 else ''}: nothing can be "
                f"built on a pile with fewer than {self.min_cards}"
            )
        if not pile:
            if FACE[card] in self.on_empty:
                return None
            return f"{name} is empty and " + (
                "accepts nothing"
                if not self.on_empty
                else f"accepts only {describe_faces(self.on_empty)}"
            )
        top = pile[-1]
        if top & DOWN:
            return None if FACE[card] in self.blind else f"{name}'s top card is face down"
        if self.complete_rank is not None and RANK[top] == self.complete_rank:
            return f"{name} is complete ({card_text(top)}): it accepts nothing more"
        wanted = self.on_top[FACE[top]]
        if FACE[card] in wanted:
            return None
        if not wanted:
            return f"nothing can be built on {name}"
        takes = describe_faces(wanted)
        return f"{card_text(card)} does not go on {card_text(top)} ({name} takes {takes})"


def describe_faces(faces: frozenset[int]) -> str:
    if faces == ALL_FACES:
        return "any card"
    ranks = {f % 13 + 1 for f in faces}
    suits = {f // 13 for f in faces}
    if len(faces) == 4 * len(ranks) and len(suits) == 4:
        return "any " + " or ".join(rank_name(r) for r in sorted(ranks))
    names = [card_text(f) for f in sorted(faces)]
    return " or ".join(names[:6]) + (" ..." if len(names) > 6 else "")


def _pick(value: int | tuple[int, ...] | None, index: int) -> int | None:
    """A rank parameter for the ``index``-th pile of its group (a list gives one per pile)."""
    if isinstance(value, tuple):
        return value[index]
    return value


NO_RULE: Final = AcceptRule(
    tuple(NOTHING for _ in range(52)),
    tuple(NOTHING for _ in range(52)),
    NOTHING,
    NOTHING,
    0,
    None,
    "none",
    True,
)


def compile_accepts(spec: Accepts | None, index: int) -> AcceptRule:
    """The rule of the ``index``-th pile of a group whose piles accept ``spec``."""
    if spec is None:
        return NO_RULE
    fixed = _pick(spec.rank, index)
    complete = _pick(spec.complete_at, index)
    build = BUILDS[spec.build]
    suit = SUITS[spec.suit]

    def allowed(faces: frozenset[int]) -> frozenset[int]:
        if fixed is None:
            return faces
        return frozenset(f for f in faces if f % 13 + 1 == fixed)

    # relation[top]: the faces that build on ``top`` by the build and suit rules alone.
    relation = [
        frozenset(
            s * 13 + r - 1 for s in suit.suits(top // 13) for r in build.ranks(RANK[top], spec.wrap)
        )
        for top in range(52)
    ]
    on_top = [
        NOTHING if complete is not None and RANK[top] == complete else allowed(relation[top])
        for top in range(52)
    ]
    # A card placed beneath ``bottom`` must be one that ``bottom`` builds on.
    under = [allowed(frozenset(x for x in range(52) if face in relation[x])) for face in range(52)]
    if spec.empty == "any":
        on_empty = allowed(ALL_FACES)
    elif spec.empty == "none":
        on_empty = NOTHING
    else:
        empty_rank = _pick(spec.empty, index)
        on_empty = allowed(frozenset(f for f in ALL_FACES if f % 13 + 1 == empty_rank))
    independent = all(t == on_top[0] for t in on_top) and complete is None
    blind = on_top[0] if independent else NOTHING
    static = spec.min_cards == 0 and independent and on_top[0] == on_empty
    return AcceptRule(
        tuple(on_top),
        tuple(under),
        on_empty,
        blind,
        spec.min_cards,
        complete,
        spec.build,
        static,
    )
