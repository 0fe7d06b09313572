"""Position keys for search: positions that play alike get one key.

Two positions play alike when they differ only in which copy of a card lies where (two decks
have two 7Hs), in which card of a class of faces no rule tells apart lies where (the suits of
a game whose rules read ranks only: ``face_classes``), or in the order of piles the rules
treat alike: piles of one group with the same accept rule that nothing names on its own or
in an order that matters (a group of free cells; not a tableau that is filled in a given
order), or in the order of the cards of a pile
that only takes cards below its top card (a foundation, Golf's waste). The key of a position
puts such piles in a canonical order and keeps of such a pile its ends and its size.
Search stores a 61-bit hash of the key, not the key. It is a sum of one term for each pile
(its place, or its group for piles the rules treat alike, with a hash of its cards as the key
sees them) and one for the phase: a sum does not depend on the order of a group's piles, and a
move changes only the terms of the piles it touches, so the hash of a position reached by a move
is worked out from its parent's with those terms alone. Two positions that do not play alike
get the same hash with a chance of about one in 2**61 for each pair, so a search that holds n
positions and looks up m meets a false match with a chance of about n * m / 2**61 (one in some
200,000 for a search that holds a million positions and looks up ten million).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence

from ...rules.model import GameSpec
from ...rules.spec import pile_references, yaml_key
from .accept_rules import Table
from .cards import DOWN, FACE, SHOWN, face_bits
from .layout import Layout
from .mixing import mix as _mix
from .state import State

_MASK = (1 << 61) - 1  # a hash fits a machine word (compiled code keeps such ints unboxed)
# A card as the key sees it: as the board shows it, its face and whether it lies face down,
# not which copy it is (and, where the rules read no suit, ``PositionKeys.faces_alike``, the
# smallest face of its rank that plays alike).
_NORMAL: tuple[int, ...] = SHOWN
_NO_PILE: tuple[int, ...] = (-1,)  # no position's pile: what a cache holds before its first use
# A turned stock's entry (``PositionKeys._turned_entry``): its term, its term at the start of
# a turn, and the place the key keeps (-1: none).
Turned = tuple[int, int, int]
_NO_TURN: tuple[tuple[int, ...], tuple[int, ...], Turned] = (_NO_PILE, _NO_PILE, (0, 0, -1))


def _references(spec: GameSpec) -> Iterator[tuple[str, bool]]:
    """Every pile or group name the rules use in play, and whether its order there matters:
    wherever the rule file names it (an action, a test, the score, another pile's rule: a
    pile's neighbours, the pile whose ranks it reads, those that cover it, the cells a move
    counts), but for the deal, which is over before play begins, and the display, which
    changes nothing in play."""
    ordered_keys: dict[str, frozenset[str]] = {}
    for name, action in spec.actions.items():
        cls: type = type(action)
        ordered_keys[name] = frozenset(yaml_key(cls, f) for f in action.ordered_fields())
    for path, ref in pile_references(spec):
        where = path[0]
        if where in ("deal", "display"):
            continue
        in_order = False
        if where == "actions" and len(path) > 2 and isinstance(path[1], str):
            in_order = path[2] in ordered_keys.get(path[1], frozenset())
        yield ref, in_order


def _taken_from(spec: GameSpec, layout: Layout) -> set[int]:
    """The piles some action may take cards from."""
    taken: set[int] = set()
    for action in spec.actions.values():
        taken |= set(layout.resolve(action.takes_from()))
    return taken


def first_card_fixed(spec: GameSpec, layout: Layout, filled: frozenset[int]) -> frozenset[int]:
    """The piles that hold the same first card from the deal on: dealt cards (``filled``: the
    piles every deal fills), never taken from nor put beneath."""
    changed = _taken_from(spec, layout)
    for action in spec.actions.values():
        changed |= set(layout.resolve(action.puts_beneath()))
    return filled - changed


def interchangeable_groups(
    spec: GameSpec, layout: Layout, filled: frozenset[int] = frozenset()
) -> list[tuple[int, ...]]:
    """The pile groups whose piles the rules treat alike, so their order does not matter.

    A group whose first card sets a rank (``empty: group_rank``, ``rank_of``) is read in its
    order, from the first of its piles that holds cards, unless that is always its first pile,
    and always with the same first card (``first_card_fixed``). Then that pile keeps its
    place, and the group's other piles are alike (Canfield's foundations, the first dealt its
    base card)."""
    never_empty = first_card_fixed(spec, layout, filled)
    named_alone: set[str] = set()
    ordered: set[str] = set()
    for ref, in_order in _references(spec):
        if ref in spec.piles:
            if in_order:
                ordered.add(ref)
        else:
            named_alone.add(ref)
    # A group whose first card sets a rank (rank_of) is read in its order: the first of its
    # piles that holds cards.
    for base in _rank_bases(spec):
        if base not in spec.piles:
            named_alone.add(base)
        elif layout.groups[base][0] not in never_empty:
            ordered.add(base)
    out: list[tuple[int, ...]] = []
    for name, group in spec.piles.items():
        piles = layout.groups[name]
        if len(piles) < 2 or group.arrangement is not None or name in ordered:
            continue
        if any(pile in named_alone for pile in group.names):
            continue
        rules = {layout.accepts[p] for p in piles}
        if len(rules) != 1:
            continue
        base_group = next(iter(rules)).group
        if base_group and base_group[0] not in never_empty:
            continue
        # The first pile of a group whose first card sets a rank keeps its place.
        reads_first = {layout.groups[b][0] for b in _rank_bases(spec) if b == name}
        if base_group:
            reads_first.add(base_group[0])
        alike = tuple(p for p in piles if p not in reads_first)
        if len(alike) >= 2:
            out.append(alike)
    return out


def _rank_bases(spec: GameSpec) -> Iterator[str]:
    """The groups and piles whose first card sets a rank another rule reads (``rank_of``)."""
    for group in spec.piles.values():
        for rank_of in (getattr(group.accepts, "empty", None),
                        getattr(group.accepts, "complete_at", None)):  # fmt: skip
            base = getattr(rank_of, "rank_of", None)
            if isinstance(base, str):
                yield base


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
    taken = _taken_from(spec, layout)
    for condition in spec.conditions.values():
        if getattr(condition, "test", None) in _READ_WHOLE:
            refs = getattr(condition, "piles", None) or ()
            refs = (refs,) if isinstance(refs, str) else refs
            taken |= set(layout.resolve(refs)) if refs else set(range(len(layout)))
    # A pile whose every card another pile's rule reads (rank_in) keeps its order.
    taken |= {rule.rank_in for rule in layout.accepts if rule.rank_in >= 0}
    return tuple(p for p in range(len(layout)) if p not in taken)


def face_classes(tables: Sequence[Table], sets: Sequence[frozenset[int]]) -> tuple[int, ...]:
    """For each face, the smallest face that no rule tells apart from it: faces of one rank
    that every set of faces read (``sets``, and the values of ``tables``) holds both or
    neither of, and that every table maps to the same set (a table that takes a card of its
    own kind, such as 'the same face', tells the faces apart). Cards whose faces play alike
    may change places in any position: what is legal, and where it leads, stays the same.
    Golf's waste reads ranks only: the four faces of each rank are one class."""
    # Each class as the bits of its faces (FACE_BIT: compiled code shifts a literal 1 as a
    # C int), first by rank.
    classes = [face_bits(suit * 13 + rank for suit in range(4)) for rank in range(13)]
    whole = face_bits(range(52))
    # The tables and sets read, each once (most rules share them).
    distinct_tables = list({id(table): table for table in tables}.values())
    read = list(sets)
    for table in distinct_tables:
        read.extend(table)
    looked: set[int] = set()
    seen: set[int] = set()
    for faces in read:
        if len(classes) == 52:  # every face apart already
            break
        if id(faces) in looked:
            continue
        looked.add(id(faces))
        bits = face_bits(faces)
        if bits in seen or bits == whole or not bits:
            continue
        seen.add(bits)
        split: list[int] = []
        for c in classes:
            inside = c & bits
            if inside and inside != c:
                split.append(inside)
                split.append(c & ~bits)
            else:
                split.append(c)
        classes = split
    members = [[face for face in range(52) if c >> face & 1] for c in classes]
    for table in distinct_tables:
        if len(members) == 52:
            break
        parted: list[list[int]] = []
        for faces_of in members:
            first = table[faces_of[0]]
            if all(table[face] is first or table[face] == first for face in faces_of):
                parted.append(faces_of)
                continue
            by_value: dict[frozenset[int], list[int]] = {}
            for face in faces_of:
                by_value.setdefault(table[face], []).append(face)
            parted.extend(by_value.values())
        members = parted
    least = list(range(52))
    for faces_of in members:
        for face in faces_of:
            least[face] = faces_of[0]
    return tuple(least)


class PositionKeys:
    """Keys and key hashes of one game's positions."""

    def __init__(
        self, spec: GameSpec, layout: Layout, filled: frozenset[int] = frozenset()
    ) -> None:
        self.groups = interchangeable_groups(spec, layout, filled)
        # The piles that always hold the same first card (read by the solver's dominances too).
        self.first_fixed = first_card_fixed(spec, layout, filled)
        grouped = {p for g in self.groups for p in g}
        self.rest = tuple(p for p in range(len(layout)) if p not in grouped)
        # Some faces come twice (copies of a card): the key reads faces, not cards.
        self.normalise = len({FACE[c] for c in layout.cards}) != len(layout.cards)
        # A card as the key sees it (``faces_alike`` may merge faces the rules do not tell
        # apart), and whether that is not the card itself.
        self._normal: tuple[int, ...] = _NORMAL
        self._merges = self.normalise
        self.alike: tuple[int, ...] = tuple(range(52))
        self.sinks = sinks(spec, layout)
        self.trivial = not self.groups and not self.normalise and not self.sinks
        # What each pile's term is salted with: its place, or, for the piles of a group the
        # rules treat alike, the group's (so that their order does not count).
        salt = list(range(len(layout)))
        for g, piles in enumerate(self.groups):
            for p in piles:
                salt[p] = len(layout) + g
        self._salt = tuple(salt)
        sink_set = set(self.sinks)
        # The terms already worked out, by salt and sink or not (each pile's table: its index,
        # odd for a sink).
        self._term_table = [2 * salt[p] + (p in sink_set) for p in range(len(layout))]
        self._terms: list[dict[tuple[int, ...], int]] = [
            {} for _ in range(2 * max(salt, default=0) + 2)
        ]
        self._phase_terms: dict[tuple[str, tuple[int, ...]], int] = {}
        # The counts the rules read (``counts_read``): all, unless told otherwise.
        self._drop_counts = False
        self._counts_kept: tuple[int, ...] = ()
        # The last phase asked about, and its term (most positions of a search share one).
        self._last_phase: tuple[str, tuple[int, ...], int] = ("", (), 0)
        # For each place, the last pile whose term ``child_hash`` took away, and that term:
        # the children of one position take away the terms of the same piles.
        self._parent_piles: list[tuple[int, ...] | None] = [None] * len(layout)
        self._parent_terms: list[int] = [0] * len(layout)
        # A stock turned onto a waste without end (``turned_stock``): its place, the waste's,
        # the cards a draw turns, and the last pair of piles asked about with their term.
        self._stock = self._waste = -1
        self._per_draw = 1
        self._turned_last: tuple[tuple[int, ...], tuple[int, ...], Turned] = _NO_TURN
        self._turned_before = self._turned_last
        self._turned_known: dict[tuple[tuple[int, ...], tuple[int, ...]], Turned] = {}

    def counts_read(self, read: Sequence[bool]) -> None:
        """Which of a position's counts (``State.counts``) the rules ever read: those they
        never read (redeals made, where their number is not limited) are left out of the
        key, so that positions that differ only there are one."""
        if all(read):
            return
        self._drop_counts = True
        self._counts_kept = tuple(i for i, r in enumerate(read) if r)
        self.trivial = False

    def keeps_count(self, index: int) -> bool:
        """Whether the key holds the count ``index`` of ``State.counts`` (``counts_read``)."""
        return not self._drop_counts or index in self._counts_kept

    def faces_alike(self, least: Sequence[int]) -> None:
        """Faces that no rule tells apart (for each face, the smallest face alike to it:
        ``face_classes``): the key sees each card as that face, face down or not, so that
        positions that differ only in which card of a class lies where are one."""
        if all(least[face] == face for face in range(52)):
            return
        self.alike = tuple(least)
        self._normal = tuple((c & DOWN) | least[FACE[c]] for c in range(2 * DOWN))
        self._merges = True
        self.trivial = False
        self.forget()

    def turned_stock(self, stock: int, waste: int, per_draw: int) -> None:
        """Key positions as a search that turns the stock without end may: where draws of
        ``per_draw`` cards from ``stock`` onto ``waste`` and turning the waste back over are
        always open to the player and change nothing else, the cards of both piles keep one
        order (the stock's, then the waste's from its top down), and from any place in it
        that lies a whole number of draws from the start (or at the end) every other such
        place is reached by draws and turns alone. Positions that differ only in which of
        those places the stock has come to reach the same positions, so they get one key:
        the cards in that order, face up or down alike, without the place. Elsewhere the place
        (the waste's size) is part of the key. For the solver only: a key that stands for
        several positions would not tell a player's positions apart."""
        self._stock, self._waste, self._per_draw = stock, waste, max(1, per_draw)
        self.trivial = False
        self.forget()

    def _turned(self, stock: tuple[int, ...], waste: tuple[int, ...]) -> tuple[Hashable, int]:
        """What the key keeps of a turned stock and its waste (see ``turned_stock``): their
        cards in one order, and the place (-1: none)."""
        normal = self._normal
        cards = tuple([normal[c] & ~DOWN for c in stock + waste[::-1]])
        size = len(waste)
        return (cards, -1 if not stock or size % self._per_draw == 0 else size)

    def _turned_term(self, stock: tuple[int, ...], waste: tuple[int, ...]) -> int:
        """The turned stock's and its waste's term in the hash, for both piles at once."""
        return self._turned_entry(stock, waste)[0]

    def _turned_entry(self, stock: tuple[int, ...], waste: tuple[int, ...]) -> Turned:
        """The turned stock's and its waste's term in the hash, the term they would have at
        the start of a turn (the same cards, the place left out), and the place kept in the
        key (-1: none, every such place being alike)."""
        # (the last two pairs kept: a search asks about a parent's and each child's in turn)
        last = self._turned_last
        if stock is last[0] and waste is last[1]:
            return last[2]
        before = self._turned_before
        self._turned_before = last
        if stock is before[0] and waste is before[1]:
            self._turned_last = before
            return before[2]
        # (by value after that: building the key of 20-odd cards costs more than looking
        # the pair up, and positions met again by other lines have equal piles)
        known = self._turned_known
        pair = (stock, waste)
        entry = known.get(pair)
        if entry is None:
            if len(known) > 200_000:
                known.clear()
            cards, place = self._turned(stock, waste)
            start = _mix(hash((cards, -1)), -2)
            term = start if place < 0 else _mix(hash((cards, place)), -2)
            entry = known[pair] = (term, start, place)
        self._turned_last = (stock, waste, entry)
        return entry

    def turned_place(self, state: State, key: int) -> tuple[int, int]:
        """For a stock turned without end (``turned_stock``): the key ``state`` (whose key is
        ``key``) would have with its stock at the start of a turn, and the place its key
        keeps (the waste's size; -1 where it keeps none). From a place, draws lead to every
        place a whole number of draws further on, and after the last one and a turn, to
        every place the start leads to."""
        piles = state.piles
        term, start, place = self._turned_entry(piles[self._stock], piles[self._waste])
        return (key - term + start) & _MASK, place

    def _counts(self, counts: tuple[int, ...]) -> tuple[int, ...]:
        if not self._drop_counts:
            return counts
        return tuple(counts[i] for i in self._counts_kept)

    def key(self, state: State) -> Hashable:
        """A key equal for positions that play alike (and only for those)."""
        if self.trivial:
            return state
        piles = state.piles
        if self._merges:
            normal = self._normal
            piles = tuple(tuple(map(normal.__getitem__, p)) for p in piles)
        if self.sinks:
            shown = list(piles)
            for i in self.sinks:
                pile = shown[i]
                shown[i] = (pile[0], pile[-1], len(pile)) if pile else ()
            piles = tuple(shown)
        parts: tuple[object, ...] = tuple(piles[i] for i in self.rest)
        stock, waste = self._stock, self._waste
        if stock >= 0:
            turned = self._turned(state.piles[stock], state.piles[waste])
            parts = (*(piles[i] for i in self.rest if i != stock and i != waste), turned)
        if self.groups:
            parts += tuple(tuple(sorted(piles[i] for i in g)) for g in self.groups)
        return (state.phase, self._counts(state.counts), parts)

    def forget(self) -> None:
        """Drop the terms worked out so far: they hold on to the piles they were made for, and
        a process that searches deal after deal would keep every deal's piles (its memory
        growing with the number of deals) where the piles of one search are all that help."""
        for known in self._terms:
            known.clear()
        self._parent_piles = [None] * len(self._parent_piles)
        self._turned_last = self._turned_before = _NO_TURN
        self._turned_known.clear()

    def _term(self, index: int, pile: tuple[int, ...]) -> int:
        """The term of pile ``index`` in the hash: a mix of its salt with a hash of its cards as
        the key sees them (copies alike; a sink's ends and size). Worked out once per pile
        tuple and salt: a pile that did not change is the same tuple in every position."""
        if index == self._stock or index == self._waste:
            return 0  # both in one term (``_turned_term``)
        table = self._term_table[index]
        known = self._terms[table]
        term = known.get(pile)
        if term is None:
            if len(known) > 1_000_000:
                known.clear()
            normal = self._normal
            if table & 1 and len(pile) > 1:  # a sink: its ends and size
                cards = hash((normal[pile[0]], normal[pile[-1]], len(pile)))
            else:
                cards = hash(tuple(map(normal.__getitem__, pile)))
            term = known[pile] = _mix(cards, self._salt[index])
        return term

    def _phase_term(self, state: State) -> int:
        phase, counts = state.phase, state.counts
        last = self._last_phase
        if phase is last[0] and counts is last[1]:
            return last[2]
        at = (phase, self._counts(counts))
        term = self._phase_terms.get(at)
        if term is None:
            term = self._phase_terms[at] = _mix(hash(at), -1)
        self._last_phase = (phase, counts, term)
        return term

    def piles_sum(self, state: State) -> int:
        """The piles' part of the hash of ``state`` (see ``hash``)."""
        total = 0
        piles = state.piles
        for i in range(len(piles)):
            total += self._term(i, piles[i])
        if self._stock >= 0:
            total += self._turned_term(piles[self._stock], piles[self._waste])
        return total & _MASK

    def hash(self, state: State) -> int:
        """A 61-bit hash of the key: the piles' terms and the phase's, summed."""
        return (self.piles_sum(state) + self._phase_term(state)) & _MASK

    def child_hash(self, parent: State, parent_sum: int, state: State) -> tuple[int, int]:
        """The hash of ``state`` and its piles' part, from a position ``parent`` whose piles'
        part is ``parent_sum``: only the terms of the piles that are not the same tuple in
        both are worked out (equal to ``hash(state)``, ``piles_sum(state)``)."""
        before = parent.piles
        piles = state.piles
        total = parent_sum
        for i in range(len(piles)):
            pile = piles[i]
            old = before[i]
            if pile is not old:
                if old is self._parent_piles[i]:
                    gone = self._parent_terms[i]
                else:
                    gone = self._term(i, old)
                    self._parent_piles[i] = old
                    self._parent_terms[i] = gone
                total += self._term(i, pile) - gone
        stock, waste = self._stock, self._waste
        if stock >= 0 and (piles[stock] is not before[stock] or piles[waste] is not before[waste]):
            gone = self._turned_term(before[stock], before[waste])
            total += self._turned_term(piles[stock], piles[waste]) - gone
        total &= _MASK
        return (total + self._phase_term(state)) & _MASK, total


__all__ = ["PositionKeys", "face_classes", "interchangeable_groups", "sinks"]
