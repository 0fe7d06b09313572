"""Sound pruning for the solver, derived from a game's rules: positions that can never be won.

It reads only the compiled rules (accept tables, the effects of the vocabulary); it applies
to the games whose rules it understands and answers None for the others, so the search then
simply does without it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..core.cards import FACE
from ..core.state import State, same_piles
from ..game.game import Game
from ..vocab.effects.moves import Move


def dead_card_test(game: Game) -> Callable[[State], bool] | None:
    """A test for positions that can never be won because some card can never go home.

    It applies to games won with every card on the foundations, whose foundations never give
    a card back. It works out, optimistically, which cards could ever leave the piles they
    lie in: a card in a pile whose cards leave only one by one from the top (by moves that
    ask the target's rule) can leave once every card above it could leave, and then only if
    some foundation could ever take it (its foundation could grow up to it with cards that
    can be reached) or some other card could ever lie on top of a pile that takes it. The
    answer grows until nothing changes (a least fixed point, so cards that wait on each other
    in a circle never leave). Every real line of play only ever does what this reckoning
    allows (it forgets the order of events, which copy of a card serves where, how many cards
    a pile holds beyond its minimum, and treats the cards of other piles, such as the stock,
    as free to go anywhere), so when some card can never leave, no line wins. None when the
    game has no such pile.
    """
    layout = game.layout
    foundations = tuple(game.foundations)
    found_set = frozenset(foundations)
    if not foundations or not _won_by_foundations(game):
        return None
    effects = list(game.effects.values())
    takers = {p: [e for e in effects if p in layout.resolve(e.spec.takes_from())] for p in
              range(len(layout))}  # fmt: skip
    if any(takers[f] for f in foundations):
        return None  # a card at home may come back: home is not for good
    lifo = tuple(
        p
        for p in range(len(layout))
        if p not in found_set
        and takers[p]
        and all(isinstance(e, Move) and e.mode == "top" for e in takers[p])
    )
    if not lifo:
        return None
    lifo_set = frozenset(lifo)
    loose = tuple(p for p in range(len(layout)) if p not in found_set and p not in lifo_set)
    # Foundations that take cards otherwise than one by one by their rule (a whole run, a
    # chain): what they show next is not read from the rule, so any card may go there.
    wild = frozenset(
        f
        for e in effects
        for f in layout.resolve(e.spec.gives_to())
        if f in found_set and not (isinstance(e, Move) and e.mode == "top")
    )
    targets = sorted(
        {t for e in effects if isinstance(e, Move) for t in e.targets if t not in found_set}
    )
    rule_of = {t: layout.accepts[t] for t in targets}
    # What a card may take on top once it has moved: by the rule of any pile it may go to.
    on_moved: list[frozenset[int]] = [
        frozenset().union(*(rule_of[t].on_top[face] for t in targets)) for face in range(52)
    ]
    blind = frozenset().union(*(rule_of[t].blind for t in targets))
    # Piles of other kinds are not followed card by card: any of them may be empty some time.
    blind |= frozenset().union(*(rule_of[t].on_empty for t in targets if t not in lifo_set))
    empty_takes = {t: rule_of[t].on_empty for t in targets if rule_of[t].on_empty}
    found_rules = [layout.accepts[f] for f in foundations]
    # Faces as bits of an int: a set operation is one machine step.
    found_next = [tuple(_bits(rule.on_top[face]) for face in range(52)) for rule in found_rules]
    found_empty = [_bits(rule.on_empty) for rule in found_rules]
    wild_at = [f in wild for f in foundations]
    none = tuple(0 for _ in range(52))
    own_takes = {t: tuple(_bits(rule_of[t].on_top[face]) for face in range(52)) for t in targets}
    moved_takes = tuple(_bits(faces) for faces in on_moved)
    # A card cannot lie on itself: where a card of a face takes that face, it is not counted.
    own_loop = {t: _bits(f for f in range(52) if f in rule_of[t].on_top[f]) for t in targets}
    plan = tuple(
        (
            p,
            own_takes.get(p, none),
            rule_of[p].min_cards if p in rule_of else 1 << 30,
            own_loop.get(p, 0),
            _bits(empty_takes.get(p, frozenset())),
        )
        for p in lifo
    )
    test = _DeadCards(
        foundations, wild_at, found_next, found_empty, loose, plan, moved_takes, _bits(blind)
    )
    return test.dead


Plan = tuple[int, tuple[int, ...], int, int, int]


class _DeadCards:
    """The reckoning of ``dead_card_test`` for one game (see there)."""

    def __init__(
        self,
        foundations: tuple[int, ...],
        wild_at: list[bool],
        found_next: list[tuple[int, ...]],
        found_empty: list[int],
        loose: tuple[int, ...],
        plan: tuple[Plan, ...],
        moved_takes: tuple[int, ...],
        blind_bits: int,
    ) -> None:
        self.foundations = foundations
        self.wild_at = wild_at
        self.found_next = found_next
        self.found_empty = found_empty
        self.loose = loose
        # The plan, field by field: read in the innermost loop, where a tuple unpacked at
        # every pass cost more than the work.
        self.plan_p = tuple(entry[0] for entry in plan)
        self.plan_takes = tuple(entry[1] for entry in plan)
        self.plan_least = tuple(entry[2] for entry in plan)
        self.plan_loops = tuple(entry[3] for entry in plan)
        self.plan_empty = tuple(entry[4] for entry in plan)
        self.moved_takes = moved_takes
        self.blind_bits = blind_bits
        # What the piles of other kinds (a stock) give: the faces they hold and how many cards
        # each face could be put on. They change seldom, so it is worked out once for each.
        self.loose_known: dict[tuple[tuple[int, ...], ...], tuple[int, int, int]] = {}
        self.loose_last: tuple[tuple[tuple[int, ...], ...], tuple[int, int, int]] | None = None
        # The foundations grown with those faces alone, by the faces and the foundations' tops.
        self.grown_known: dict[
            tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...], int, int]
        ] = {}

    def _grow(self, nxt: list[int], passed: list[int], free: int) -> tuple[int, int]:
        """Grow each foundation's reach with the free faces: the faces some foundation could
        take at some time, and those among them that no free face has brought there yet (a
        face outside them changes nothing: the next growth waits for one of them)."""
        found_next = self.found_next
        homeable = want = 0
        for i in range(len(nxt)):
            reach = nxt[i]
            done = passed[i]
            step = reach & free & ~done
            if step:
                table = found_next[i]
                while step:
                    done |= step
                    while step:
                        low = step & -step
                        reach |= table[low.bit_length() - 1]
                        step ^= low
                    step = reach & free & ~done
                passed[i] = done
                nxt[i] = reach
            homeable |= reach
            want |= reach & ~done
        return homeable, want

    def _loose(self, piles: tuple[tuple[int, ...], ...]) -> tuple[int, int, int]:
        """What the piles of other kinds give: their faces, and the faces that at least one
        and at least two of their cards could be put on (as bits)."""
        held = tuple([piles[p] for p in self.loose])
        last = self.loose_last
        if last is not None and same_piles(last[0], held):  # as often in a row: no hashing
            return last[1]
        known = self.loose_known
        found = known.get(held)
        if found is None:
            if len(known) > 50_000:
                known.clear()
            face_of = FACE
            moved_takes = self.moved_takes
            free = once = twice = 0
            for pile in held:
                for card in pile:
                    face = face_of[card]
                    free |= 1 << face
                    gives = moved_takes[face]
                    twice |= once & gives
                    once |= gives
            found = known[held] = (free, once, twice)
        self.loose_last = (held, found)
        return found

    def dead(self, state: State) -> bool:
        piles = state.piles
        face_of = FACE
        foundations = self.foundations
        found_next = self.found_next
        moved_takes = self.moved_takes
        count = len(foundations)
        # free: faces of which some card could be on top of its pile at some time; once,
        # twice: the faces that at least one, at least two cards could be put on (a card is
        # not counted as a place for itself: where it may lie on a card of its own face in
        # its pile, it needs two)
        free, once, twice = self._loose(piles)
        # nxt[i]: the faces foundation i could take at some time, as far as is known; passed[i]:
        # those that a free card could bring there, so that the foundation grows past them.
        # The foundations grown with the free cards of the other piles alone: the same for
        # every position with the same foundations' tops and those cards (often the case).
        parts = [free]  # then each foundation's top face, -1 when empty
        for i in range(count):
            pile = piles[foundations[i]]
            parts.append(face_of[pile[-1]] if pile else -1)
        start = tuple(parts)
        grown_known = self.grown_known
        first = grown_known.get(start)
        if first is None:
            nxt = [0] * count
            for i in range(count):
                top = parts[i + 1]
                if self.wild_at[i]:
                    nxt[i] = (1 << 52) - 1
                else:
                    nxt[i] = found_next[i][top] if top >= 0 else self.found_empty[i]
            passed = [0] * count
            homeable, want = self._grow(nxt, passed, free)
            if len(grown_known) > 50_000:
                grown_known.clear()
            grown_known[start] = (tuple(nxt), tuple(passed), homeable, want)
        else:
            nxt = list(first[0])
            passed = list(first[1])
            homeable = first[2]
            want = first[3]
        anywhere = self.blind_bits  # faces some empty pile could take
        plan_p, plan_takes, plan_least = self.plan_p, self.plan_takes, self.plan_least
        plan_loops, plan_empty = self.plan_loops, self.plan_empty
        # the piles not yet emptied, and for each how many cards from the top could leave
        active = list(range(len(plan_p)))
        gone = [0] * len(plan_p)
        seen = [0] * len(plan_p)
        waiting: list[int] = []  # face * 2 + own of cards that could only go home
        changed = True
        while changed:
            changed = False
            if free & want:
                homeable, want = self._grow(nxt, passed, free)
            left: list[int] = []
            for j in active:
                pile = piles[plan_p[j]]
                size = len(pile)
                k = gone[j]
                least = plan_least[j]
                while k < size:
                    i = size - 1 - k
                    face = face_of[pile[i]]
                    bit = 1 << face
                    mine = i + 1 >= least
                    if seen[j] == k:
                        seen[j] = k + 1
                        free |= bit
                        changed = True
                        if mine:
                            gives = plan_takes[j][face]
                            twice |= once & gives
                            once |= gives
                    own = mine and plan_loops[j] & bit != 0
                    if (anywhere | (twice if own else once)) & bit:
                        gives = moved_takes[face]
                        twice |= once & gives
                        once |= gives
                    elif homeable & bit:
                        waiting.append(face * 2 + (1 if own else 0))
                    else:
                        break
                    k += 1
                    changed = True
                gone[j] = k
                if k < size:
                    left.append(j)
                elif plan_empty[j] & ~anywhere:
                    anywhere |= plan_empty[j]
                    changed = True
            if not left:
                return False  # every card of these piles could leave: no proof
            active = left
            if waiting:
                still: list[int] = []
                for item in waiting:
                    face = item >> 1
                    if (anywhere | (twice if item & 1 else once)) >> face & 1:
                        gives = moved_takes[face]
                        twice |= once & gives
                        once |= gives
                        changed = True
                    else:
                        still.append(item)
                waiting = still
        return True


def _won_by_foundations(game: Game) -> bool:
    """Whether every way to win asks that the foundations hold every card."""
    spec = game.spec
    total = len(game.cards)
    foundation_names = {game.layout.names[f] for f in game.foundations}
    groups = {n for n, g in spec.piles.items() if g.role == "foundation"}
    wins = [t for t in game.flow.transitions if game.outcomes.get(t.dest) == "won"]
    if not wins:
        return False
    for t in wins:
        ok = False
        for name, _ in t.conditions:
            condition = spec.conditions[name]
            piles = getattr(condition, "piles", None)
            if getattr(condition, "test", None) == "holds_all_cards" and piles:
                ok |= set(piles) <= groups | foundation_names
            least = getattr(condition, "at_least", None)
            if getattr(condition, "test", None) == "count" and piles and least == total:
                ok |= set(piles) <= groups | foundation_names
        if not ok:
            return False
    return True


def _bits(faces: Iterable[int]) -> int:
    """A set of faces as the bits of an int."""
    out = 0
    for face in faces:
        out |= 1 << face
    return out
