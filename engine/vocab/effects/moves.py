"""Moving cards from pile to pile: one card, a built run, any face-up group, or a whole pile."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

from ...core.accept_rules import Table
from ...core.cards import DOWN, EVERY_FACE, FACE, FACE_BIT, face_bits
from ...core.layout import Layout
from ...core.state import Action, State, Step, Trace, new_state, same_piles
from ..accepts import relation_table
from ..roles import ROLES
from . import EFFECTS, Effect
from .moves_spec import CapacitySpec, MoveSpec

__all__ = ["CapacitySpec", "Move", "MoveSpec"]  # the records live in moves_spec (not compiled)

# No pile's tuple (no card is negative): what ``_run_faces`` has asked about before anything.
_NO_PILE: tuple[int, ...] = (-1,)


class Move(Effect[MoveSpec]):
    takes_piles = 2
    takes_number = True

    def __init__(self, name: str, spec: MoveSpec, layout: Layout) -> None:
        super().__init__(name, spec, layout)
        self.sources = layout.resolve(spec.source)
        self.targets = layout.resolve(spec.target)
        self._source_set = frozenset(self.sources)
        self._target_set = frozenset(self.targets)
        self.mode = spec.cards
        rules = [(t, layout.accepts[t]) for t in self.targets]
        self._rules = rules
        # What each pile takes now, as bits (shared with the other effects: ``TakenBits``).
        self._taken = layout.taken
        self._covered = {s: layout.covered_by[s] for s in self.sources if layout.covered_by[s]}
        links: dict[int, Table] = {}
        if self.mode == "run":
            own = relation_table((spec.run,), False, 0) if spec.run is not None else None
            links = {s: own or layout.accepts[s].relation for s in self.sources}
        elif self.mode == "pile" and spec.run is not None:
            own = relation_table((spec.run,), False, 0)
            links = dict.fromkeys(self.sources, own)
        self._links = links
        limit = spec.limit
        self._cells = layout.resolve(limit.cells or ()) if limit else ()
        self._spaces = layout.resolve(limit.spaces or ()) if limit else ()
        self._space_set = frozenset(self._spaces)
        self._limited = limit is not None
        # With 'segments', what the capacity counts: the parts of a run whose cards follow
        # each other by this relation (None: cards).
        self._segment_link: Table | None = (
            relation_table((limit.segments,), False, 0)
            if limit is not None and limit.segments is not None
            else None
        )
        self._reach = spec.reach
        self._reach_steps: tuple[int, ...] = tuple(dict.fromkeys(spec.reach or ()))
        # True when cards are taken from the bottom of the source (the first card laid).
        self._from_bottom = spec.end == "bottom"
        self._plain_top = (
            self.mode == "top" and not self._covered and self._reach is None
            and not self._from_bottom
        )  # fmt: skip
        self._by_rank = tuple(dict.fromkeys(self.sources))
        self._source_rank = {src: k for k, src in enumerate(self._by_rank)}
        orders_of: dict[int, list[int]] = {}
        for order, target in enumerate(self.targets):
            orders_of.setdefault(target, []).append(order)
        self._orders_of = orders_of  # each target's orders (a pile named twice has two)
        self._every_order = list(range(len(self.targets)))
        # Piles that take one card per move (foundations): a run or group never goes there.
        self.one_at_a_time = frozenset(
            t for t in self.targets if ROLES[layout.role[t]].one_at_a_time
        )
        self._foundations = frozenset(layout.with_role("foundation"))
        self._foundation_order = tuple(layout.with_role("foundation"))
        # The foundations last asked about, and each face's cards on them (``_home_counts``).
        self._home_piles = tuple([_NO_PILE for _ in self._foundation_order])
        self._home = [0] * 52
        self._faces_of: list[dict[tuple[int, ...], tuple[tuple[int, ...], int]]] = [
            {} for _ in layout.names
        ]
        # Each source's last pile asked about, and its faces (``_run_faces``).
        self._last_piles: list[tuple[int, ...]] = [_NO_PILE for _ in layout.names]
        self._last_runs: list[tuple[tuple[int, ...], int]] = [((), 0) for _ in layout.names]
        counted = Counter(FACE[c] for c in layout.cards)
        self._copies = [counted[face] for face in range(52)]  # each face's copies in the game
        # Each action is made once and handed out again (search lists millions of them): by
        # (count * sources + source's rank) * targets + target's order, so that the table
        # grows with this action's pairs of piles, not with the square of the game's piles.
        self._pairs = len(self._by_rank) * len(self.targets)
        self._counts = len(layout.cards) + 1  # more than any move takes
        self._made: list[Action | None] = []
        self._safe = spec.safe
        self._builders: list[frozenset[int]] = []
        if spec.safe == "builders_home":
            others = [r for i, r in enumerate(layout.accepts) if i not in self._foundations]
            self._builders = [
                frozenset().union(*(r.relation[face] for r in others)) if others else frozenset()
                for face in range(52)
            ]

    def faces_read(self) -> list[Table] | None:
        tables = list(self._links.values())
        if self._segment_link is not None:
            tables.append(self._segment_link)
        return tables

    # --- what may move ------------------------------------------------------------------

    def _movable(self, pile: tuple[int, ...], src: int) -> int:
        """How many cards from the top of ``pile`` may move together."""
        if self.mode == "top":
            return 1
        link = self._links.get(src)
        if self.mode == "pile":
            if any(c & DOWN for c in pile):
                return 0
            if link is not None and any(
                FACE[upper] not in link[FACE[lower]] for lower, upper in pairwise(pile)
            ):
                return 0  # the pile is not one run: it may not move at all
            return len(pile)
        count = 0
        for k in range(len(pile) - 1, -1, -1):
            card = pile[k]
            if card & DOWN:
                break
            if count and link is not None and FACE[pile[k + 1]] not in link[FACE[card]]:
                break
            count += 1
        return count

    def unit_link(self, src: int) -> Table | None:
        """How each card of a group that moves together from ``src`` follows the one below
        it (the faces that may lie on each face), or None when the group is any face-up cards
        (moves of more than the top card)."""
        return self._links.get(src)

    def _units(self, pile: tuple[int, ...], count: int) -> int:
        """What the capacity counts in the top ``count`` cards of ``pile``: the cards, or with
        'segments' the stretches whose cards follow each other by its relation."""
        link = self._segment_link
        if link is None:
            return count
        parts = 1
        for k in range(len(pile) - count, len(pile) - 1):
            if FACE[pile[k + 1]] not in link[FACE[pile[k]]]:
                parts += 1
        return parts

    def _capacity(self, piles: tuple[tuple[int, ...], ...], dst: int) -> int:
        if not self._limited:
            return 1 << 30
        cells = sum(1 for c in self._cells if not piles[c])
        spaces = sum(1 for s in self._spaces if not piles[s] and s != dst)
        return (cells + 1) << spaces

    @property
    def _by_top(self) -> bool:
        return self.spec.compare == "top"

    # Each pile's place among the piles of its group that hold cards, for the last position
    # asked about (generate asks about every pair of piles of one position).
    _places_of: tuple[tuple[int, ...], ...] | None = None
    _places: dict[int, tuple[str, int]] = {}  # noqa: RUF012 - replaced, never changed
    _filled: dict[str, list[int]] = {}  # noqa: RUF012 - each group's piles that hold cards

    def _place(self, piles: tuple[tuple[int, ...], ...]) -> None:
        """Work out each pile's place among the piles of its group that hold cards."""
        if piles is not self._places_of:
            layout = self.layout
            places: dict[int, tuple[str, int]] = {}
            filled_of: dict[str, list[int]] = {}
            for name in {layout.group_of[p] for p in self.sources}:
                filled = filled_of[name] = [p for p in layout.groups[name] if piles[p]]
                places.update((p, (name, k)) for k, p in enumerate(filled))
            self._places_of, self._places, self._filled = piles, places, filled_of

    def _reachable(self, piles: tuple[tuple[int, ...], ...], src: int, dst: int) -> bool:
        if self._reach is None:
            return True
        self._place(piles)
        here, there = self._places.get(src), self._places.get(dst)
        if here is None or there is None or here[0] != there[0]:
            return False
        return there[1] - here[1] in self._reach

    def _reached(self, piles: tuple[tuple[int, ...], ...], src: int) -> list[int]:
        """The piles ``src`` reaches (``_reachable``), found from its place: a few piles,
        where testing every target would cost the square of the piles a position."""
        self._place(piles)
        here = self._places.get(src)
        if here is None:
            return []
        filled = self._filled[here[0]]
        out: list[int] = []
        for step in self._reach_steps:
            k = here[1] + step
            if 0 <= k < len(filled):
                out.append(filled[k])
        return out

    def _blocked(self, piles: tuple[tuple[int, ...], ...], src: int) -> bool:
        covers = self._covered.get(src)
        return covers is not None and any(piles[c] for c in covers)

    # --- generating, checking, applying -------------------------------------------------

    def _wanted_bits(self, piles: tuple[tuple[int, ...], ...], order: int, shown: int) -> int:
        """The faces among ``shown`` (bits) that target ``order`` takes (``TakenBits``)."""
        return self._taken.taken(piles, self.targets[order]) & shown

    def wanted_by_target(self, piles: tuple[tuple[int, ...], ...]) -> list[tuple[int, int]]:
        """Each target that takes some card now, in the rule file's order, with the faces it
        takes (as bits): where the move takes a top card alone (``plain_top``), the moves of
        a face-up top card from a source that is no target are exactly these targets'."""
        out: list[tuple[int, int]] = []
        targets = self.targets
        for order in range(len(self._rules)):
            taken = self._wanted_bits(piles, order, EVERY_FACE)
            if taken:
                out.append((targets[order], taken))
        return out

    @property
    def plain_top(self) -> bool:
        """Whether the move takes a source's top card alone, to any target that takes it
        (no reach, no covering piles, not from the bottom)."""
        return self._plain_top

    def _top_moves(self, piles: tuple[tuple[int, ...], ...]) -> list[Action]:
        """The moves of one card: the faces on top of the sources, then the targets that take
        one of them (most targets take none, and are passed over with one set operation)."""
        # The faces on top of the sources, as bits, and each source with its face.
        shown = 0
        top_faces: list[int] = []
        top_sources: list[int] = []
        for src in self.sources:
            pile = piles[src]
            if pile and not pile[-1] & DOWN:
                face = FACE[pile[-1]]
                shown |= FACE_BIT[face]
                top_faces.append(face)
                top_sources.append(src)
        if not shown:
            return []
        rank = self._source_rank
        # Each move as one int, (source's rank, target's order), sorted as such: ints compare
        # faster than tuples, and the rank and order give the piles back.
        places = len(self._rules)
        targets = self.targets
        found: list[int] = []
        taken = self._taken
        for order in range(places):
            wanted = taken.taken(piles, targets[order]) & shown
            if not wanted:
                continue
            dst = targets[order]
            for k in range(len(top_faces)):
                if wanted & FACE_BIT[top_faces[k]]:
                    src = top_sources[k]
                    if src != dst:
                        found.append(rank[src] * places + order)
        found.sort()
        by_rank, made = self._by_rank, self._made
        out: list[Action] = []
        for move in found:  # the move's number is its key in ``_made`` (no count)
            action = made[move] if move < len(made) else None
            if action is None:
                action = self._action(move, by_rank[move // places], targets[move % places], 0)
            out.append(action)
        return out

    def _action(self, key: int, src: int, dst: int, count: int) -> Action:
        """The action that moves ``count`` cards (0: the top card) from ``src`` to ``dst``,
        kept under ``key`` (see ``_made``)."""
        made = self._made
        if key >= len(made):
            made.extend([None] * (key + 1 - len(made)))
        action = made[key]
        if action is None:
            action = made[key] = Action(self.name, src, dst, count)
        return action

    def _run_faces(self, pile: tuple[int, ...], src: int) -> tuple[tuple[int, ...], int]:
        """The faces that decide each count's move from ``pile``, for 1, 2 .. as many cards
        as may move together: the lowest card moved (or, compared by the top, the top card);
        and those faces as bits.

        Worked out once per pile: a pile's tuple is shared by every position that holds it
        (and the last one asked about is found by identity, most piles being the same tuple
        in the next position asked about)."""
        if pile is self._last_piles[src]:
            return self._last_runs[src]
        known = self._faces_of[src]
        run = known.get(pile)
        if run is None:
            faces: tuple[int, ...]
            if self._from_bottom:
                faces = (FACE[pile[0]],) if len(pile) > 1 and not pile[0] & DOWN else ()
            else:
                most = self._movable(pile, src)
                if self._by_top:
                    faces = (FACE[pile[-1]],) * most
                else:
                    faces = tuple(FACE[c] for c in pile[-1 : -most - 1 : -1])
            run = (faces, face_bits(faces))
            if len(known) > 50_000:
                known.clear()
            known[pile] = run
        self._last_piles[src] = pile
        self._last_runs[src] = run
        return run

    def generate(self, state: State) -> list[Action]:
        piles = state.piles
        if self._plain_top:
            return self._top_moves(piles)
        # The sources whose cards may move, with the faces that decide each count's move, and
        # all those faces as bits: a target that takes none of them is passed over at once.
        covered = self._covered
        moving: list[int] = []
        runs: list[tuple[tuple[int, ...], int]] = []
        shown = 0
        for src in self.sources:
            pile = piles[src]
            if not pile or (covered and self._blocked(piles, src)):
                continue
            run = self._run_faces(pile, src)
            if run[1]:
                moving.append(src)
                runs.append(run)
                shown |= run[1]
        if not shown:
            return []
        # What each target takes of those faces, by its order in the rule file (the order
        # gives the target back). With a reach, a source's targets are the few piles it
        # reaches: what each of those takes is worked out as it is met (-1: not yet).
        reach = self._reach is not None
        places = len(self._rules)
        if reach:
            wanted = [-1] * places
        else:
            wanted = self._taken.taken_by(piles, self.targets, shown)
            if not any(wanted):
                return []
        out: list[Action] = []
        # The free cells and empty piles are counted once for every move of the position.
        limited, space_set = self._limited, self._space_set
        free = sum(1 for c in self._cells if not piles[c]) + 1 if limited else 0
        spaces = sum(1 for s in self._spaces if not piles[s]) if limited else 0
        single, rules, orders_of = self.one_at_a_time, self._rules, self._orders_of
        counted = self.mode != "top"
        whole = self.mode == "pile"
        targets = self.targets
        # Each move found as one int, (target's order, count), sorted as such (see _top_moves).
        counts = self._counts
        made, pairs, rank = self._made, self._pairs, self._source_rank
        every_order = self._every_order
        for at in range(len(moving)):
            src = moving[at]
            pile = piles[src]
            faces, mask = runs[at]
            most = len(faces)
            fewest = most if whole else 1
            found: list[int] = []
            orders = every_order
            if reach:
                orders = [o for dst in self._reached(piles, src) for o in orders_of.get(dst, ())]
            for order in orders:
                takes = wanted[order]
                if takes < 0:
                    takes = wanted[order] = self._wanted_bits(piles, order, shown)
                if not takes & mask:
                    continue
                for k in range(fewest, most + 1):
                    if takes & FACE_BIT[faces[k - 1]]:
                        found.append(order * counts + k)
            if not found:
                continue
            if reach and len(found) > 1:
                found.sort()
            first_key = rank[src] * places  # of this source's moves with no count
            for move in found:
                order = move // counts
                k = move - order * counts
                dst = targets[order]
                if dst == src:
                    continue
                if k > 1:
                    if limited:  # an empty target is not a space to move through
                        cap = free << (spaces - (dst in space_set and not piles[dst]))
                        if self._units(pile, k) > cap:
                            continue
                    if dst in single:
                        continue
                room = rules[order][1].max_cards
                if room and room - len(piles[dst]) < k:
                    continue
                n = k if counted else 0
                key = n * pairs + first_key + order
                action = made[key] if key < len(made) else None
                out.append(action if action is not None else self._action(key, src, dst, n))
        return out

    def refusal(self, state: State, action: Action) -> str | None:
        piles = state.piles
        names = self.layout.names
        src, dst = action.src, action.dst
        if src not in self._source_set:
            return f"cards cannot be moved from {names[src]}"
        if dst not in self._target_set:
            return f"cards cannot be moved to {names[dst]}"
        if src == dst:
            return "cards cannot be moved onto their own pile"
        pile = piles[src]
        if not pile:
            return f"{names[src]} is empty"
        if self._from_bottom:
            return self._bottom_refusal(piles, action)
        if self._blocked(piles, src):
            covers = " and ".join(names[c] for c in self._covered[src])
            return f"{names[src]} is covered: {covers} must be cleared first"
        if not self._reachable(piles, src, dst):
            steps = ", ".join(str(abs(r)) for r in self._reach or ())
            return f"{names[dst]} is not {steps} place(s) from {names[src]} among the piles left"
        if self.mode == "pile" and not self._movable(pile, src) and not any(c & DOWN for c in pile):
            return f"{names[src]} moves only when its cards make one run, and they do not"
        count = action.n or (len(pile) if self.mode == "pile" else 1)
        if self.mode == "top" and count != 1:
            return f"only the top card of {names[src]} can be moved"
        if count > len(pile):
            return f"{names[src]} has only {len(pile)} card{'s' if len(pile) != 1 else ''}"
        if self.mode == "pile" and count != len(pile):
            return f"{names[src]} moves as a whole ({len(pile)} cards)"
        if pile[-1] & DOWN:
            return f"{names[src]}'s top card is face down"
        most = self._movable(pile, src)
        if count > most:
            if any(c & DOWN for c in pile[-count:]):
                shown = f"{most} face-up card{'s' if most != 1 else ''}"
                return f"only face-up cards can be moved: {names[src]} has {shown} on top"
            return f"those {count} cards of {names[src]} are not a run: {most} can move together"
        if count > 1 and dst in self.one_at_a_time:
            return f"{names[dst]} takes one card at a time"
        capacity = self._capacity(piles, dst)
        if self._units(pile, count) > capacity:
            if self._segment_link is not None:
                return (
                    f"those {count} cards are {self._units(pile, count)} runs: only {capacity} "
                    f"run{'s' if capacity != 1 else ''} can move at once (doubled for each "
                    "empty pile)"
                )
            return (
                f"only {capacity} card{'s' if capacity != 1 else ''} can move at once "
                "(one more for each free cell, doubled for each empty pile)"
            )
        rule = self.layout.accepts[dst]
        if not action.n and self.mode == "run" and not self._by_top:
            # No count given: say so when a longer run would go there but may not move at once.
            wanted = rule.wanted_at(piles, dst) if rule.reads_others else rule.wanted(piles[dst])
            fits = [k for k in range(2, most + 1) if FACE[pile[-k]] in wanted]
            if fits and self._units(pile, fits[0]) > capacity:
                return (
                    f"the run of {fits[0]} cards that goes on {names[dst]} is too long: only "
                    f"{capacity} can move at once (one more for each free cell, doubled for "
                    "each empty pile)"
                )
        card = pile[-1 if self._by_top else -count]
        return rule.refusal(names[dst], piles, dst, card, count)

    def _bottom_refusal(self, piles: tuple[tuple[int, ...], ...], action: Action) -> str | None:
        """Why a card may not be taken from the bottom of the source (None when it may)."""
        names = self.layout.names
        src, dst = action.src, action.dst
        pile = piles[src]
        if action.n > 1:
            return f"only the bottom card of {names[src]} can be taken from there"
        if len(pile) < 2:
            return f"{names[src]} has one card: it is its top card, taken from the top"
        if pile[0] & DOWN:
            return f"{names[src]}'s bottom card is face down"
        return self.layout.accepts[dst].refusal(names[dst], piles, dst, pile[0], 1)

    def allows(self, state: State, action: Action) -> bool:
        if not self._plain_top:
            return self.refusal(state, action) is None
        # One card from the top: the checks of ``refusal`` that can fail, without its words
        # (this runs for every action a game applies).
        src, dst = action.src, action.dst
        if src not in self._source_set or dst not in self._target_set or src == dst:
            return False
        piles = state.piles
        pile = piles[src]
        if action.n > 1 or not pile or pile[-1] & DOWN:
            return False
        rule = self.layout.accepts[dst]
        wanted = rule.wanted_at(piles, dst) if rule.reads_others else rule.wanted(piles[dst])
        return FACE[pile[-1]] in wanted

    def covers(self, action: Action) -> bool:
        return action.src in self._source_set and action.dst in self._target_set

    def takes_from(self, pile: int) -> bool:
        return pile in self._source_set

    def apply(self, state: State, action: Action, trace: Trace | None) -> State:
        piles = state.piles
        src, dst = action.src, action.dst
        count = action.n or 1
        pile = piles[src]
        out = list(piles)
        if self._from_bottom:
            moved = pile[:1]
            out[src] = pile[1:]
        else:
            moved = pile[-count:]
            out[src] = pile[:-count]
        if trace is not None:
            trace.extend(Step(card, src, dst) for card in moved)
        out[dst] = piles[dst] + moved
        return new_state(tuple(out), state.phase, state.counts)

    def cards_moved(self, action: Action) -> int:
        return 0 if self._from_bottom else action.n or 1

    # --- moves that can never hurt ------------------------------------------------------

    def may_be_safe(self) -> bool:
        return self._safe != "never"

    def is_safe(self, state: State, action: Action) -> bool:
        """Whether this legal move may be played without asking (it cannot hurt)."""
        safe = self._safe
        if safe == "never" or action.dst not in self._foundations:
            return False
        if safe == "always":
            return True
        pile = state.piles[action.src]
        card = pile[0] if self._from_bottom else pile[-(action.n or 1)]
        needed = self._builders[FACE[card]]
        if not needed:
            return True
        home = self._home_counts(state.piles)
        copies = self._copies
        return all(home[face] >= copies[face] for face in needed)

    def _home_counts(self, piles: tuple[tuple[int, ...], ...]) -> list[int]:
        """How many cards of each face the foundations hold: kept for the last foundations
        asked about (every move home of a position, and of the positions the stock's draws
        lead to, is asked about the same foundations)."""
        held = tuple([piles[f] for f in self._foundation_order])
        if same_piles(held, self._home_piles):
            return self._home
        home = [0] * 52
        for pile in held:
            for c in pile:
                home[FACE[c]] += 1
        self._home_piles, self._home = held, home
        return home


# Registered after the class, not by a decorator: mypyc compiles a decorated class as a
# Python class, whose every attribute read is a dictionary lookup.
EFFECTS.entry(MoveSpec)(Move)
