"""Position keys for search: positions that play alike get one key.

Two positions play alike when they differ only in which copy of a card lies where (two decks
have two 7Hs), or in the order of piles the rules treat alike: piles of one group with the
same accept rule that nothing names on its own or in an order that matters (a group of free
cells; not a tableau that is filled in a given order), or in the order of the cards of a pile
that only takes cards below its top card (a foundation, Golf's waste). The key of a position
puts such piles in a canonical order and keeps of such a pile its ends and its size.
Search stores a 64-bit hash of the key, not the key: two positions that do not play alike get
the same hash with a chance of about one in 2**64 for each pair, so a search that holds n
positions and looks up m meets a false match with a chance of about n * m / 2**64 (one in some
two million for a search that holds a million positions and looks up ten million).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from operator import itemgetter
from typing import cast

from ...rules.model import GameSpec
from ...rules.spec import pile_fields
from .cards import DOWN, FACE
from .layout import Layout
from .state import State

# A card as the key sees it: its face and whether it lies face down, not which copy it is.
_NORMAL: tuple[int, ...] = tuple((card & DOWN) | FACE[card] for card in range(2 * DOWN))


def _references(spec: GameSpec) -> Iterator[tuple[str, bool]]:
    """Every pile or group name the rules use in play, and whether its order there matters."""
    entries: list[object] = [*spec.actions.values(), *spec.conditions.values(), spec.score]
    entries += [g.accepts.beside for g in spec.piles.values() if g.accepts and g.accepts.beside]
    for entry in entries:
        if entry is None:
            continue
        ordered_fields = getattr(entry, "ordered_fields", lambda: ())()
        cls: type = type(entry)
        for name in pile_fields(cls):
            value = getattr(entry, name)
            refs = (value,) if isinstance(value, str) else value or ()
            for ref in refs:
                yield ref, name in ordered_fields


def interchangeable_groups(spec: GameSpec, layout: Layout) -> list[tuple[int, ...]]:
    """The pile groups whose piles the rules treat alike, so their order does not matter."""
    named_alone: set[str] = set()
    ordered: set[str] = set()
    for ref, in_order in _references(spec):
        if ref in spec.piles:
            if in_order:
                ordered.add(ref)
        else:
            named_alone.add(ref)
    out: list[tuple[int, ...]] = []
    for name, group in spec.piles.items():
        piles = layout.groups[name]
        if len(piles) < 2 or group.arrangement is not None or name in ordered:
            continue
        if any(pile in named_alone for pile in group.names):
            continue
        rules = {layout.accepts[p] for p in piles}
        if len(rules) != 1 or next(iter(rules)).group:
            continue
        out.append(piles)
    return out


def _getter(indices: tuple[int, ...]) -> Callable[[list[int]], tuple[int, ...]]:
    """A C-level getter of these places of a list, always giving a tuple."""
    if len(indices) == 1:
        only = indices[0]
        return lambda values: (values[only],)
    if not indices:
        return lambda values: ()
    return cast(Callable[[list[int]], tuple[int, ...]], itemgetter(*indices))


# Tests that read a pile's cards beyond its first card, its top card and its size.
_READ_WHOLE = frozenset({"face_down", "rows_built"})


def sinks(spec: GameSpec, layout: Layout) -> tuple[int, ...]:
    """Piles that only ever take cards, whose order below the top card matters to no rule.

    No action takes cards from such a pile (a foundation, a discard pile, Golf's waste), and
    the accept rules read only a pile's first card, its top card and its size. So two
    positions whose sink holds the same cards in another order below the same top card play
    alike: the key keeps the first card, the top card and the size (the rest of the pile's
    cards are the cards that are nowhere else).
    """
    taken: set[int] = set()
    for action in spec.actions.values():
        taken |= set(layout.resolve(action.takes_from()))
    for condition in spec.conditions.values():
        if getattr(condition, "test", None) in _READ_WHOLE:
            refs = getattr(condition, "piles", None) or ()
            refs = (refs,) if isinstance(refs, str) else refs
            taken |= set(layout.resolve(refs)) if refs else set(range(len(layout)))
    return tuple(p for p in range(len(layout)) if p not in taken)


class PositionKeys:
    """Keys and key hashes of one game's positions."""

    def __init__(self, spec: GameSpec, layout: Layout) -> None:
        self.groups = interchangeable_groups(spec, layout)
        grouped = {p for g in self.groups for p in g}
        self.rest = tuple(p for p in range(len(layout)) if p not in grouped)
        self.normalise = len({FACE[c] for c in layout.cards}) != len(layout.cards)
        self.sinks = sinks(spec, layout)
        self.trivial = not self.groups and not self.normalise and not self.sinks
        self._pile_hashes: dict[tuple[int, ...], int] = {}
        self._sink_hashes: dict[tuple[int, ...], int] = {}
        self._rest = _getter(self.rest)
        self._group_getters = [_getter(g) for g in self.groups]

    def key(self, state: State) -> Hashable:
        """A key equal for positions that play alike (and only for those)."""
        if self.trivial:
            return state
        piles = state.piles
        if self.normalise:
            normal = _NORMAL
            piles = tuple(tuple(map(normal.__getitem__, p)) for p in piles)
        if self.sinks:
            shown = list(piles)
            for i in self.sinks:
                pile = shown[i]
                shown[i] = (pile[0], pile[-1], len(pile)) if pile else ()
            piles = tuple(shown)
        parts: tuple[object, ...] = tuple(piles[i] for i in self.rest)
        if self.groups:
            parts += tuple(tuple(sorted(piles[i] for i in g)) for g in self.groups)
        return (state.phase, state.counts, parts)

    def hash(self, state: State) -> int:
        """A 64-bit hash of the key, built from a hash of each pile.

        A pile that did not change since an earlier position is the same tuple, so its hash
        (copies of a card made alike; of a sink, its ends and size) is looked up, not worked
        out again.
        """
        if self.trivial:
            return hash(state)
        known = self._pile_hashes
        if len(known) > 1_000_000:
            known.clear()
            self._sink_hashes.clear()
        piles = state.piles
        looked_up = list(map(known.get, piles))
        if None in looked_up:
            normal = _NORMAL
            for i, value in enumerate(looked_up):
                if value is None:
                    pile = piles[i]
                    looked_up[i] = known[pile] = hash(tuple(map(normal.__getitem__, pile)))
        hashes = cast(list[int], looked_up)
        if self.sinks:
            sunk = self._sink_hashes
            for i in self.sinks:
                pile = piles[i]
                if len(pile) > 1:
                    value = sunk.get(pile)
                    if value is None:
                        ends = (_NORMAL[pile[0]], _NORMAL[pile[-1]], len(pile))
                        value = sunk[pile] = hash(ends)
                    hashes[i] = value
        parts: tuple[object, ...] = self._rest(hashes)
        if self.groups:
            parts += tuple(tuple(sorted(g(hashes))) for g in self._group_getters)
        return hash((state.phase, state.counts, parts))


__all__ = ["PositionKeys", "interchangeable_groups", "sinks"]
