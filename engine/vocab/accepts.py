"""What a pile accepts: the build and suit rules of the vocabulary, compiled into tables.

For each pile, ``on_top[face]`` is the set of faces (``suit * 13 + rank - 1``) it accepts on a
top card of that face, and ``on_empty`` what it accepts when empty; a move check is then two
lookups, whatever the rule says. ``relation[face]`` is what builds on a card by the build and
suit rules alone (runs are read with it), and ``under[face]`` its inverse, used when a card is
placed beneath a pile's bottom card: the pile must then read by its rule from bottom to top.

A few rules look at other piles as well (``empty: group_rank``, ``beside``): those piles'
rules say so (``reads_others``) and are asked with the whole position (``wanted_at``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from ...rules.model import Accepts, Follows, RankOf, Relation
from ...rules.notation import parse_card, rank_name
from ..core.cards import DOWN, FACE, RANK, card_text, face_of

ALL_FACES: Final = frozenset(range(52))
NOTHING: Final[frozenset[int]] = frozenset()
ALL_RANKS: Final = frozenset(range(1, 14))
_RED = (1, 2)  # D, H
Table = tuple[frozenset[int], ...]


class Steps(NamedTuple):
    """What a build rule is read with: how far a step goes, wrapping, and the ace's place."""

    step: int = 1
    wrap: bool = False
    aces_high: bool = False


@dataclass(frozen=True, slots=True)
class BuildRule:
    """How the rank of a card put on a pile relates to the rank of its top card."""

    describe: str
    ranks: Callable[[int, Steps], frozenset[int]]  # (top rank, how) -> ranks allowed


@dataclass(frozen=True, slots=True)
class SuitRule:
    """How the suit of a card put on a pile relates to the suit of its top card."""

    describe: str
    suits: Callable[[int], frozenset[int]]  # top suit -> suits allowed


def _by(rank: int, by: int, how: Steps) -> frozenset[int]:
    nxt = rank + by
    if 1 <= nxt <= 13:
        return frozenset({nxt})
    return frozenset({(nxt - 1) % 13 + 1}) if how.wrap else NOTHING


def _value(rank: int, how: Steps) -> int:
    return 14 if rank == 1 and how.aces_high else rank


def _beyond(rank: int, how: Steps, higher: bool) -> frozenset[int]:
    mine = _value(rank, how)
    return frozenset(r for r in ALL_RANKS if (_value(r, how) > mine) == higher and r != rank)


BUILDS: Final[dict[str, BuildRule]] = {
    "up": BuildRule(
        "one step higher (the step is 'step', 1 unless given; with wrap: A after K)",
        lambda r, h: _by(r, h.step, h),
    ),
    "down": BuildRule(
        "one step lower (the step is 'step', 1 unless given; with wrap: K after A)",
        lambda r, h: _by(r, -h.step, h),
    ),
    "up_or_down": BuildRule(
        "one step higher or lower", lambda r, h: _by(r, h.step, h) | _by(r, -h.step, h)
    ),
    "same": BuildRule("the same rank", lambda r, h: frozenset({r})),
    "higher": BuildRule("any higher rank", lambda r, h: _beyond(r, h, True)),
    "lower": BuildRule("any lower rank", lambda r, h: _beyond(r, h, False)),
    "any": BuildRule("any rank", lambda r, h: ALL_RANKS),
    "none": BuildRule("nothing may be built on a card", lambda r, h: NOTHING),
}

SUITS: Final[dict[str, SuitRule]] = {
    "any": SuitRule("any suit", lambda s: frozenset(range(4))),
    "same": SuitRule("the same suit", lambda s: frozenset({s})),
    "different": SuitRule("any other suit", lambda s: frozenset(range(4)) - {s}),
    "alternate": SuitRule(
        "the other colour (red on black, black on red)",
        lambda s: frozenset(x for x in range(4) if (x in _RED) != (s in _RED)),
    ),
    "same_colour": SuitRule(
        "the same colour (red on red, black on black)",
        lambda s: frozenset(x for x in range(4) if (x in _RED) == (s in _RED)),
    ),
}


def relation_table(relations: Sequence[Relation], aces_high: bool, index: int) -> Table:
    """For each face, the faces that build on it by any of these relations."""
    out: list[frozenset[int]] = []
    for face in range(52):
        faces: set[int] = set()
        for rel in relations:
            how = Steps(_pick(rel.step, index) or 1, rel.wrap, aces_high)
            ranks = BUILDS[rel.build].ranks(RANK[face], how)
            faces.update(s * 13 + r - 1 for s in SUITS[rel.suit].suits(face // 13) for r in ranks)
        out.append(frozenset(faces))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Beside:
    """A card is accepted only while another listed pile shows a card related to it."""

    piles: tuple[int, ...]
    # showing[face]: the faces a card may be accepted for while ``face`` shows on a listed pile
    showing: Table
    wording: str  # the relation in words, for refusals


@dataclass(frozen=True, slots=True)
class Follow:
    """A card is accepted only when it follows the top card of one neighbouring pile."""

    neighbour: int  # the pile next to this one on the rule's side; -1 at the grid's edge
    # showing[face]: the faces accepted while the neighbour shows ``face``
    showing: Table
    edge: frozenset[int]  # what the pile accepts when it has no neighbour on that side


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
            for other in self.group:
                if piles[other]:
                    rank = RANK[piles[other][0]]
                    faces = frozenset(f for f in faces if f % 13 + 1 == rank)
                    break
        if self.stop_group and faces and piles[index]:
            stop = _first_rank(piles, self.stop_group)
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
        if RANK[top] in (self.complete_rank, _first_rank(piles, self.stop_group)):
            return f"{name} is complete ({card_text(top)}): it accepts nothing more"
        if face in self.on_top[FACE[top]] and self.beside is not None:
            return self._beside_refusal(name, card)
        if not self.on_top[FACE[top]]:
            return f"nothing can be built on {name}"
        takes = describe_faces(self.on_top[FACE[top]])
        return f"{card_text(card)} does not go on {card_text(top)} ({name} takes {takes})"

    def _beside_refusal(self, name: str, card: int) -> str:
        wording = self.beside.wording if self.beside is not None else ""
        return f"{card_text(card)} goes on {name} only while another pile shows a card of {wording}"


def _first_rank(piles: Sequence[Sequence[int]], group: tuple[int, ...]) -> int | None:
    """The rank of the bottom card of the first of ``group``'s piles that holds cards."""
    for other in group:
        if piles[other]:
            return RANK[piles[other][0]]
    return None


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
    """A parameter for the ``index``-th pile of its group (a list gives one per pile)."""
    if isinstance(value, tuple):
        return value[index]
    return value


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


def _follow(spec: Follows, index: int, group: tuple[int, ...], columns: int) -> Follow:
    """The neighbour of the ``index``-th pile of a grid of ``columns``, and what it accepts."""
    row, col = divmod(index, columns)
    step, at_edge, line = {
        "left": (-1, col == 0, row),
        "right": (1, col == columns - 1 or index + 1 >= len(group), row),
        "above": (-columns, row == 0, col),
        "below": (columns, index + columns >= len(group), col),
    }[spec.side]
    edge = spec.edge[line] if isinstance(spec.edge, tuple) else spec.edge
    if edge is None:
        edge_faces = NOTHING
    elif isinstance(edge, int):
        edge_faces = frozenset(f for f in ALL_FACES if f % 13 + 1 == edge)
    else:
        edge_faces = frozenset({face_of(*parse_card(edge))})
    return Follow(
        -1 if at_edge else group[index + step],
        relation_table((spec.relation,), False, index),
        edge_faces,
    )


def compile_accepts(
    spec: Accepts | None,
    index: int,
    *,
    capacity: int = 0,
    group: tuple[int, ...] = (),
    resolve: Callable[[tuple[str, ...]], tuple[int, ...]] | None = None,
    columns: int = 0,
) -> AcceptRule:
    """The rule of the ``index``-th pile of a group whose piles accept ``spec``.

    ``capacity`` is the role's limit on cards (a cell holds one), ``group`` the piles of the
    pile's group, ``resolve`` turns pile names into indices (for ``beside``), and ``columns``
    is the width of the group's grid, if it lies in one (for ``follows``).
    """
    if spec is None:
        return NO_RULE
    fixed = _pick(spec.rank, index)
    stop_group: tuple[int, ...] = ()
    if isinstance(spec.complete_at, RankOf):
        complete = None
        if resolve is not None:
            stop_group = resolve((spec.complete_at.rank_of,))
    else:
        complete = _pick(spec.complete_at, index)

    def allowed(faces: frozenset[int]) -> frozenset[int]:
        if fixed is None:
            return faces
        return frozenset(f for f in faces if f % 13 + 1 == fixed)

    relations = spec.any_of or (Relation(build=spec.build, suit=spec.suit, step=spec.step,
                                         wrap=spec.wrap),)  # fmt: skip
    relation = relation_table(relations, spec.aces_high, index)
    on_top = tuple(
        NOTHING if complete is not None and RANK[top] == complete else allowed(relation[top])
        for top in range(52)
    )
    # A card placed beneath ``bottom`` must be one that ``bottom`` builds on.
    under = tuple(
        allowed(frozenset(x for x in range(52) if face in relation[x])) for face in range(52)
    )
    like_group = spec.empty == "group_rank"
    if spec.empty in ("any", "group_rank"):
        on_empty = allowed(ALL_FACES)
    elif spec.empty == "none":
        on_empty = NOTHING
    else:
        empty_rank = _pick(spec.empty, index) if not isinstance(spec.empty, str) else None
        on_empty = allowed(frozenset(f for f in ALL_FACES if f % 13 + 1 == empty_rank))
    independent = all(t == on_top[0] for t in on_top) and complete is None
    blind = on_top[0] if independent else NOTHING
    beside = None
    if spec.beside is not None and resolve is not None:
        shown = relation_table((spec.beside.relation,), spec.aces_high, index)
        # The listed pile shows card T; a card C may be accepted when T is related to C.
        rel = spec.beside.relation
        beside = Beside(
            resolve(spec.beside.piles),
            tuple(frozenset(c for c in range(52) if t in shown[c]) for t in range(52)),
            f"{BUILDS[rel.build].describe}, {SUITS[rel.suit].describe}"
            + (" (an Ace ranks above a King)" if spec.aces_high else ""),
        )
    follows = None
    if spec.follows is not None and columns:
        follows = _follow(spec.follows, index, group, columns)
    max_cards = spec.max_cards if spec.max_cards is not None else capacity
    static = (
        spec.min_cards == 0
        and not max_cards
        and independent
        and on_top[0] == on_empty
        and not like_group
        and beside is None
        and not stop_group
        and follows is None
    )
    return AcceptRule(
        on_top,
        relation,
        under,
        on_empty,
        blind,
        spec.min_cards,
        max_cards,
        complete,
        spec.build,
        static,
        group if like_group else (),
        beside,
        stop_group,
        follows,
        like_group or beside is not None or bool(stop_group) or follows is not None,
    )
