"""What a pile accepts, compiled into tables: the rule each pile of a layout carries.

For each pile, ``on_top[face]`` is the set of faces (``suit * 13 + rank - 1``) it accepts on a
top card of that face, and ``on_empty`` what it accepts when empty; a move check is then two
lookups, whatever the rule says. ``relation[face]`` is what builds on a card by the build and
suit rules alone (runs are read with it), and ``under[face]`` its inverse, used when a card is
placed beneath a pile's bottom card: the pile must then read by its rule from bottom to top.

A few rules look at other piles as well (``empty: group_rank``, ``beside``): those piles'
rules say so (``reads_others``) and are asked with the whole position (``wanted_at``).

The vocabulary's build and suit rules make these tables (``engine/vocab/accepts.py``); the
layout, the effects and the solver only read them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ...rules.notation import SUIT_NAMES, rank_name
from .cards import DOWN, FACE, RANK, card_text, face_bits, table_bits

ALL_FACES: Final = frozenset(range(52))
NOTHING: Final[frozenset[int]] = frozenset()
# The faces of each rank (1 to 13; 0 holds none).
FACES_OF_RANK: Final = tuple(frozenset(f for f in range(52) if f % 13 + 1 == r) for r in range(14))
Table = tuple[frozenset[int], ...]


@dataclass(frozen=True, slots=True)
class Beside:
    """A card is accepted only while another listed pile shows a card related to it."""

    piles: tuple[int, ...]
    # showing[face]: the faces a card may be accepted for while ``face`` shows on a listed pile
    showing: Table
    wording: str  # the relation in words, for refusals

    def __reduce__(self) -> tuple[type[Beside], tuple[object, ...]]:
        return (Beside, (self.piles, self.showing, self.wording))


@dataclass(frozen=True, slots=True)
class Follow:
    """A card is accepted only when it follows the top card of one neighbouring pile."""

    neighbour: int  # the pile next to this one on the rule's side; -1 at the grid's edge
    # showing[face]: the faces accepted while the neighbour shows ``face``
    showing: Table
    edge: frozenset[int]  # what the pile accepts when it has no neighbour on that side

    def __reduce__(self) -> tuple[type[Follow], tuple[object, ...]]:
        return (Follow, (self.neighbour, self.showing, self.edge))


@dataclass(frozen=True, slots=True)
class AcceptRule:
    on_top: Table
    relation: Table
    under: Table
    on_empty: frozenset[int]
    # What the pile accepts next to a card it cannot see (face down): everything its rank
    # limit allows when the rule does not depend on the neighbouring card, else nothing.
    blind: frozenset[int]
    min_cards: int
    max_cards: int  # 0: no limit
    complete_rank: int | None
    build: str
    # True when the rule ignores the pile's cards: then a card's home never changes.
    static: bool
    # Piles of the group whose first card sets the rank an empty pile takes (empty: group_rank).
    group: tuple[int, ...] = ()
    beside: Beside | None = None
    # Piles whose first card sets the rank that completes this pile (complete_at: rank_of).
    stop_group: tuple[int, ...] = ()
    follows: Follow | None = None
    # True when the rule looks at other piles too (then ask ``wanted_at``).
    reads_others: bool = False
    # Ranks counted from the first card of ``group`` (an empty pile's rank) and of
    # ``stop_group`` (the completing rank), round the thirteen ranks: -1 is one below.
    group_offset: int = 0
    stop_offset: int = 0
    # A pile that must hold a card of the rank accepted (rank_in; -1: none), its name for
    # refusals, and whether an empty pile takes only the rank of that pile's first card.
    rank_in: int = -1
    rank_in_name: str = ""
    rank_in_first: bool = True

    # Pickled by their fields, through the constructor: the compiled (mypyc) classes cannot be
    # restored attribute by attribute, being frozen (the tables are kept in the cache).
    def __reduce__(self) -> tuple[type[AcceptRule], tuple[object, ...]]:
        return (
            AcceptRule,
            (
                self.on_top,
                self.relation,
                self.under,
                self.on_empty,
                self.blind,
                self.min_cards,
                self.max_cards,
                self.complete_rank,
                self.build,
                self.static,
                self.group,
                self.beside,
                self.stop_group,
                self.follows,
                self.reads_others,
                self.group_offset,
                self.stop_offset,
                self.rank_in,
                self.rank_in_name,
                self.rank_in_first,
            ),
        )

    def faces_read(self) -> tuple[list[Table], list[frozenset[int]]]:
        """The tables and sets of faces this rule reads cards by (besides their ranks): what
        it takes on each face and when empty, the relations of its runs, the neighbours'
        cards it looks at. Faces that every one of them treats alike play alike
        (``keys.face_classes``)."""
        tables = [self.on_top, self.relation, self.under]
        sets = [self.on_empty, self.blind]
        if self.beside is not None:
            tables.append(self.beside.showing)
        if self.follows is not None:
            tables.append(self.follows.showing)
            sets.append(self.follows.edge)
        return tables, sets

    def piles_read(self) -> frozenset[int]:
        """The other piles ``wanted_at`` reads (none unless ``reads_others``)."""
        read = set(self.group) | set(self.stop_group)
        if self.follows is not None and self.follows.neighbour >= 0:
            read.add(self.follows.neighbour)
        if self.rank_in >= 0:
            read.add(self.rank_in)
        if self.beside is not None:
            read.update(self.beside.piles)
        return frozenset(read)

    def wanted(self, pile: Sequence[int]) -> frozenset[int]:
        """The faces that may be put on top of ``pile`` (by this pile's cards alone)."""
        count = len(pile)
        if count < self.min_cards or (self.max_cards and count >= self.max_cards):
            return NOTHING
        if not count:
            return self.on_empty
        top = pile[-1]
        if top & DOWN:
            return self.blind
        return self.on_top[FACE[top]]

    def wanted_at(self, piles: Sequence[Sequence[int]], index: int) -> frozenset[int]:
        """The faces that may be put on pile ``index``, the other piles taken into account."""
        faces = self.wanted(piles[index])
        if self.group and not piles[index]:
            rank = first_rank(piles, self.group, self.group_offset)
            if rank is not None:
                faces = faces & FACES_OF_RANK[rank]
        if self.stop_group and faces and piles[index]:
            stop = first_rank(piles, self.stop_group, self.stop_offset)
            top = piles[index][-1]
            if stop is not None and not top & DOWN and RANK[top] == stop:
                return NOTHING
        if self.follows is not None and faces:
            follow = self.follows
            if follow.neighbour < 0:
                faces = faces & follow.edge
            else:
                pile = piles[follow.neighbour]
                shows = pile and not pile[-1] & DOWN
                faces = faces & follow.showing[FACE[pile[-1]]] if shows else NOTHING
        if self.rank_in >= 0 and faces:
            held = piles[self.rank_in]
            if not piles[index] and self.rank_in_first:
                ranks = {RANK[held[0]]} if held else set()
            else:
                ranks = {RANK[card] for card in held}
            faces = frozenset(f for f in faces if f % 13 + 1 in ranks)
        if self.beside is not None and faces:
            shown: set[int] = set()
            for other in self.beside.piles:
                pile = piles[other]
                if pile and not pile[-1] & DOWN:
                    shown |= self.beside.showing[FACE[pile[-1]]]
            faces = faces & shown
        return faces

    def wanted_below(self, pile: Sequence[int]) -> frozenset[int]:
        """The faces that may be put beneath ``pile``'s bottom card."""
        if len(pile) < self.min_cards or (self.max_cards and len(pile) >= self.max_cards):
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

    def refusal(
        self, name: str, piles: Sequence[Sequence[int]], index: int, card: int, count: int = 1
    ) -> str | None:
        """Why ``card`` (with ``count - 1`` cards on it) may not go on pile ``index``."""
        pile = piles[index]
        if len(pile) < self.min_cards:
            return (
                f"{name} has {len(pile)} card{'s' if len(pile) != 1 else ''}: nothing can be "
                f"built on a pile with fewer than {self.min_cards}"
            )
        if self.max_cards and len(pile) + count > self.max_cards:
            size = f"{self.max_cards} card{'s' if self.max_cards != 1 else ''}"
            return f"{name} holds at most {size}"
        face = FACE[card]
        wanted = self.wanted_at(piles, index) if self.reads_others else self.wanted(pile)
        if face in wanted:
            return None
        if not pile:
            if face in self.on_empty and self.beside is not None:
                return self._beside_refusal(name, card)
            empty = self.wanted_at(piles, index) if self.reads_others else self.on_empty
            takes = describe_faces(empty)
            if takes.startswith("any ") and takes != "any card":  # 'any K': every suit of a rank
                takes = "cards of rank " + takes[4:]
            return f"{name} is empty and " + (
                "accepts nothing" if not empty else f"accepts only {takes}"
            )
        top = pile[-1]
        if top & DOWN:
            return f"{name}'s top card is face down"
        if RANK[top] in (self.complete_rank, first_rank(piles, self.stop_group, self.stop_offset)):
            return f"{name} is complete ({card_text(top)}): it accepts nothing more"
        if face in self.on_top[FACE[top]] and self.beside is not None:
            return self._beside_refusal(name, card)
        if face in self.on_top[FACE[top]] and self.rank_in >= 0:
            return (
                f"{card_text(card)} goes on {name} only while {self.rank_in_name} holds a card "
                "of its rank"
            )
        if not self.on_top[FACE[top]]:
            return f"nothing can be built on {name}"
        takes = describe_faces(self.on_top[FACE[top]])
        return f"{card_text(card)} does not go on {card_text(top)} ({name} takes {takes})"

    def _beside_refusal(self, name: str, card: int) -> str:
        wording = self.beside.wording if self.beside is not None else ""
        return f"{card_text(card)} goes on {name} only while another pile shows a card of {wording}"


def first_rank(
    piles: Sequence[Sequence[int]], group: tuple[int, ...], offset: int = 0
) -> int | None:
    """The rank of the bottom card of the first of ``group``'s piles that holds cards, or the
    rank ``offset`` ranks from it (round the thirteen ranks)."""
    for other in group:
        if piles[other]:
            return (RANK[piles[other][0]] - 1 + offset) % 13 + 1
    return None


# The faces of each rank (1 to 13), as bits.
RANK_BITS: Final[tuple[int, ...]] = tuple([face_bits(faces) for faces in FACES_OF_RANK])
# No position's piles: what ``TakenBits`` has worked out before it is first asked.
_NO_PILES: Final[tuple[tuple[int, ...], ...]] = ((-1,),)


class TakenBits:
    """What each pile of a layout takes now (``AcceptRule.wanted_at``), as bits of faces,
    worked out once for the last position asked about: the effects that list moves, the
    stock's reach and the solver's order ask it of one position in turn (a position's piles
    are one tuple, so the position is known by identity). Rules that read other piles only
    for the rank a group's first card sets (an empty pile's rank, the rank that completes a
    pile) are worked out on bits too; the few others by ``wanted_at``."""

    def __init__(self, rules: Sequence[AcceptRule]) -> None:
        self.rules = tuple(rules)
        self._on_top = [table_bits(r.on_top) for r in rules]
        self._on_empty = [face_bits(r.on_empty) for r in rules]
        self._blind = [face_bits(r.blind) for r in rules]
        self._by_bits = [
            not r.reads_others or (r.beside is None and r.follows is None and r.rank_in < 0)
            for r in rules
        ]
        self._of = _NO_PILES
        self._known: list[int] = []

    def taken(self, piles: tuple[tuple[int, ...], ...], index: int) -> int:
        """The faces pile ``index`` takes in the position of ``piles``, as bits."""
        if piles is self._of:
            known = self._known
            bits = known[index]
            if bits >= 0:
                return bits
        else:
            self._of = piles
            self._known = known = [-1] * len(self.rules)
        bits = known[index] = self._work_out(piles, index)
        return bits

    def taken_by(
        self, piles: tuple[tuple[int, ...], ...], indices: tuple[int, ...], shown: int
    ) -> list[int]:
        """``taken`` of each of ``indices`` in turn, among the faces ``shown`` (one call for
        an effect's every target)."""
        if piles is not self._of:
            self._of = piles
            self._known = [-1] * len(self.rules)
        known = self._known
        out: list[int] = []
        for index in indices:
            bits = known[index]
            if bits < 0:
                bits = known[index] = self._work_out(piles, index)
            out.append(bits & shown)
        return out

    def _work_out(self, piles: tuple[tuple[int, ...], ...], index: int) -> int:
        rule = self.rules[index]
        if not self._by_bits[index]:
            return face_bits(rule.wanted_at(piles, index))
        pile = piles[index]
        count = len(pile)
        if count < rule.min_cards or (rule.max_cards and count >= rule.max_cards):
            return 0
        if not count:
            wanted = self._on_empty[index]
            if wanted and rule.group:
                base = _first_rank(piles, rule.group, rule.group_offset)
                if base > 0:
                    wanted &= RANK_BITS[base]
            return wanted
        top = pile[-1]
        if top & DOWN:
            return self._blind[index]
        wanted = self._on_top[index][FACE[top]]
        if (
            wanted
            and rule.stop_group
            and RANK[top] == _first_rank(piles, rule.stop_group, rule.stop_offset)
        ):
            return 0
        return wanted


def _first_rank(piles: tuple[tuple[int, ...], ...], group: tuple[int, ...], offset: int) -> int:
    """``first_rank`` on a position's piles as tuples (read natively when compiled), with 0
    for none."""
    for other in group:
        pile = piles[other]
        if pile:
            return (RANK[pile[0]] - 1 + offset) % 13 + 1
    return 0


def describe_faces(faces: frozenset[int]) -> str:
    if faces == ALL_FACES:
        return "any card"
    ranks = {f % 13 + 1 for f in faces}
    suits = {f // 13 for f in faces}
    if len(faces) == 4 * len(ranks) and len(suits) == 4:
        return "any " + " or ".join(rank_name(r) for r in sorted(ranks))
    if len(faces) == 13 and len(suits) == 1:
        return "cards of suit " + SUIT_NAMES[next(iter(suits))]
    names = [card_text(f) for f in sorted(faces)]
    return " or ".join(names[:6]) + (" ..." if len(names) > 6 else "")


NO_RULE: Final = AcceptRule(
    tuple(NOTHING for _ in range(52)),
    tuple(NOTHING for _ in range(52)),
    tuple(NOTHING for _ in range(52)),
    NOTHING,
    NOTHING,
    0,
    0,
    None,
    "none",
    True,
)
