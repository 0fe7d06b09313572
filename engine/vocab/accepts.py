"""What a pile accepts: the build and suit rules of the vocabulary, compiled into tables.

``compile_accepts`` turns a pile group's ``accepts`` into each pile's ``AcceptRule``
(``engine/core/accept_rules.py`` says how the tables are read); ``pile_rules`` does it for
every pile of a layout, through the cache of rule files.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final, NamedTuple

from ...rules import cache
from ...rules.model import Accepts, Follows, GameSpec, Grid, RankOf, Relation
from ...rules.notation import SUIT_NAMES, parse_card
from ..core import accept_rules
from ..core.accept_rules import (
    ALL_FACES,
    NO_RULE,
    NOTHING,
    AcceptRule,
    Beside,
    Follow,
    Table,
)
from ..core.cards import RANK, face_of
from ..core.layout import Layout
from .roles import ROLES

ALL_RANKS: Final = frozenset(range(1, 14))
_RED = (1, 2)  # D, H


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


def _pick(value: int | tuple[int, ...] | None, index: int) -> int | None:
    """A parameter for the ``index``-th pile of its group (a list gives one per pile)."""
    if isinstance(value, tuple):
        return value[index]
    return value


def _kind_at(value: int | str | tuple[int | str, ...], index: int) -> int | str:
    """The rank, card or suit an empty pile takes: the ``index``-th of a list."""
    return value[index] if isinstance(value, tuple) else value


def _faces_of_kind(kind: int | str) -> frozenset[int]:
    """The faces of a rank (an int), of a card ('AC') or of a suit ('C')."""
    if isinstance(kind, int):
        return frozenset(f for f in ALL_FACES if f % 13 + 1 == kind)
    if kind in SUIT_NAMES:
        suit = SUIT_NAMES.index(kind)
        return frozenset(f for f in ALL_FACES if f // 13 == suit)
    return frozenset({face_of(*parse_card(kind))})


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
    stop_offset = 0
    if isinstance(spec.complete_at, RankOf):
        complete = None
        stop_offset = spec.complete_at.offset
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
    # The piles whose first card sets the rank an empty pile takes (group_rank, rank_of).
    base_group: tuple[int, ...] = ()
    base_offset = 0
    if spec.empty == "group_rank":
        base_group = group
    elif isinstance(spec.empty, RankOf):
        base_offset = spec.empty.offset
        base_group = resolve((spec.empty.rank_of,)) if resolve is not None else ()
    like_group = bool(base_group)
    if spec.empty == "any" or isinstance(spec.empty, RankOf) or spec.empty == "group_rank":
        on_empty = allowed(ALL_FACES)  # (narrowed by the base's rank in ``wanted_at``)
    elif spec.empty == "none":
        on_empty = NOTHING
    else:
        on_empty = allowed(_faces_of_kind(_kind_at(spec.empty, index)))
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
    rank_in, rank_in_name = -1, ""
    if spec.rank_in is not None and resolve is not None:
        looked_at = spec.rank_in.piles[index] if index < len(spec.rank_in.piles) else None
        if looked_at is not None:
            rank_in, rank_in_name = resolve((looked_at,))[0], looked_at
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
        and rank_in < 0
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
        base_group,
        beside,
        stop_group,
        follows,
        like_group or beside is not None or bool(stop_group) or follows is not None or rank_in >= 0,
        base_offset,
        stop_offset,
        rank_in,
        rank_in_name,
        spec.rank_in is None or spec.rank_in.empty == "first",
    )


def pile_rules(spec: GameSpec, layout: Layout) -> tuple[AcceptRule, ...]:
    """Every pile's compiled accept rule, in pile order.

    Compiling the tables takes longer than the rest of a game's start, so they are kept in
    the cache of rule files, keyed by the pile groups, the code of the vocabulary and of the
    tables, and the build (a compiled class and its pure-Python twin are different classes).
    """
    code = Path(__file__)
    tables = Path(accept_rules.__file__)
    name = cache.key((code.parent, tables.parent), code.name, tables.name, repr(spec.piles))
    kept = cache.load("accepts", name, lambda cls: cls in (AcceptRule, Beside, Follow))
    if (
        isinstance(kept, tuple)
        and len(kept) == len(layout.names)
        and all(isinstance(rule, AcceptRule) for rule in kept)
    ):
        found: tuple[AcceptRule, ...] = kept
        return found
    rules: list[AcceptRule] = []
    for group_name, group in spec.piles.items():
        piles = layout.groups[group_name]
        grid = group.arrangement.grid if isinstance(group.arrangement, Grid) else 0
        for i in range(len(piles)):
            rules.append(
                compile_accepts(
                    group.accepts,
                    i,
                    capacity=ROLES[group.role].capacity,
                    group=piles,
                    resolve=layout.resolve,
                    columns=grid,
                )
            )
    cache.store("accepts", name, tuple(rules))
    return tuple(rules)
