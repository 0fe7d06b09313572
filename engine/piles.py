"""What a pile accepts, compiled into lookup tables.

For each pile, ``on_top[face]`` is the set of faces (``suit * 13 + rank - 1``) it accepts on a
top card of that face, and ``on_empty`` what it accepts when empty. A move check is then two
lookups, whatever the rule says.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.model import Accepts
from rules.notation import parse_rank, rank_name

from .cards import DOWN, FACE, RANK, SUIT, card_text

ALL_FACES: frozenset[int] = frozenset(range(52))
NOTHING: frozenset[int] = frozenset()
_RED = (1, 2)  # D, H


def _rank(ref: str | int | None, hour: int) -> int | None:
    if ref is None:
        return None
    if ref == "hour":
        return hour
    return parse_rank(ref)


@dataclass(frozen=True, slots=True)
class AcceptRule:
    on_top: tuple[frozenset[int], ...]
    on_empty: frozenset[int]
    min_cards: int
    complete_rank: int | None
    describe: str
    # True when the rule ignores the pile's cards: then a card's home never changes.
    static: bool

    def wanted(self, pile: tuple[int, ...]) -> frozenset[int]:
        if len(pile) < self.min_cards:
            return NOTHING
        if not pile:
            return self.on_empty
        top = pile[-1]
        if top & DOWN:
            return NOTHING
        return self.on_top[FACE[top]]

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
                else f"accepts only {self._faces(self.on_empty)}"
            )
        top = pile[-1]
        if top & DOWN:
            return f"{name}'s top card is face down"
        if self.complete_rank is not None and RANK[top] == self.complete_rank:
            return f"{name} is complete ({card_text(top)}): it accepts nothing more"
        wanted = self.on_top[FACE[top]]
        if FACE[card] in wanted:
            return None
        if not wanted:
            return f"nothing can be built on {name}"
        takes = self._faces(wanted)
        return f"{card_text(card)} does not go on {card_text(top)} ({name} takes {takes})"

    @staticmethod
    def _faces(faces: frozenset[int]) -> str:
        if faces == ALL_FACES:
            return "any card"
        ranks = {f % 13 + 1 for f in faces}
        suits = {f // 13 for f in faces}
        if len(faces) == 4 * len(ranks) and len(suits) == 4:
            return "any " + " or ".join(rank_name(r) for r in sorted(ranks))
        names = [card_text(f) for f in sorted(faces)]
        return " or ".join(names[:6]) + (" ..." if len(names) > 6 else "")


def compile_accepts(spec: Accepts | None, hour: int) -> AcceptRule:
    if spec is None:
        return AcceptRule(tuple(NOTHING for _ in range(52)), NOTHING, 0, None, "nothing", True)
    fixed = _rank(spec.rank, hour)
    complete = _rank(spec.complete_at, hour)

    def allowed(faces: frozenset[int]) -> frozenset[int]:
        if fixed is None:
            return faces
        return frozenset(f for f in faces if f % 13 + 1 == fixed)

    on_top = []
    for top in range(52):
        rank, suit = RANK[top], SUIT[top]
        if complete is not None and rank == complete:
            on_top.append(NOTHING)
            continue
        if spec.build == "none":
            ranks: set[int] = set()
        elif spec.build == "any":
            ranks = set(range(1, 14))
        elif spec.build == "same":
            ranks = {rank}
        else:
            step = 1 if spec.build == "up" else -1
            nxt = rank + step
            if 1 <= nxt <= 13:
                ranks = {nxt}
            elif spec.wrap:
                ranks = {1 if nxt == 14 else 13}
            else:
                ranks = set()
        if spec.suit == "same":
            suits = {suit}
        elif spec.suit == "different":
            suits = {0, 1, 2, 3} - {suit}
        elif spec.suit == "alternate":
            red = suit in _RED
            suits = {s for s in range(4) if (s in _RED) != red}
        else:
            suits = {0, 1, 2, 3}
        on_top.append(allowed(frozenset(s * 13 + r - 1 for s in suits for r in ranks)))
    if spec.empty == "any":
        on_empty = allowed(ALL_FACES)
    elif spec.empty == "none":
        on_empty = NOTHING
    else:
        empty_rank = _rank(spec.empty, hour)
        on_empty = allowed(frozenset(f for f in ALL_FACES if f % 13 + 1 == empty_rank))
    static = spec.min_cards == 0 and complete is None and all(t == on_empty for t in on_top)
    return AcceptRule(tuple(on_top), on_empty, spec.min_cards, complete, spec.build, static)
