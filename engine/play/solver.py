"""A solver for every rule file: depth-first search over the engine's own legal actions.

The search is "thoughtful": it knows where every card lies, face-down ones and the stock's
order included. It tries the most promising actions first (cards home, cards turned face up);
it plays a move the rule file declares safe without trying the others; it tries one of several
moves that lead to positions that play alike (a card to any of several empty free cells); and
it prunes positions where some card can never reach the foundations. Beside its depth-first
searches, a best-first search goes for the positions that look closest to a win.

What a search proves stays proved. Positions are grouped as they are explored into strongly
connected components (Tarjan's algorithm: positions that can reach each other); once a
component has been explored to the end without a win, every position in it is recorded as lost
in a table that lives as long as the answer is worked on. A deal is ``lost`` when its first
position is in that table, ``won`` with the winning actions, or ``unknown`` when a budget ran
out first (CPU seconds, positions, or the table's bound).
"""

from __future__ import annotations

import gc
import heapq
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Literal

from ..core.cards import DOWN, FACE, face_bits, table_bits
from ..core.state import Action, State, new_action, new_state
from ..game.game import Game
from .dominance import LeftOut, left_out_test, with_dominance
from .pruning import dead_position_test
from .stock import StockReach, stock_reach

Verdict = Literal["won", "lost", "unknown"]
RESTART_NODES = 2000  # the base of the restart schedule, in positions
SHORTEN_MOST = 5000  # longer winning lines are given as found
# The table of positions proved lost or being explored: about 100 bytes a position, so the
# default keeps one answer's search within about 2 GB.
MAX_POSITIONS = 20_000_000
# The dead-position test is asked of every position until it has been asked this many times
# in one solve without finding one dead; from then on, of one position in ``SPARED_ONE_IN``
# until it finds one (``_Sparing``).
SPARE_AFTER = 20_000
SPARED_ONE_IN = 16
# The positions the best-first search expanded, kept for the depth-first runs that reach them
# later (``_Table.handed``): at most this many, the oldest dropped first (about 500 bytes
# each). Most are reached within this many of the best-first search's expansions.
HANDED_MOST = 30_000


def _luby(i: int) -> int:
    """The i-th term (from 1) of the Luby sequence: 1, 1, 2, 1, 1, 2, 4, 1, 1, 2 ..."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while i != (1 << k) - 1:
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)


@dataclass
class Solution:
    result: Verdict
    # The winning line: each action with the position it is played in.
    line: list[tuple[State, Action]] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0  # CPU seconds
    reason: str = ""  # for 'unknown': which budget ran out

    @property
    def actions(self) -> list[Action]:
        return [action for _, action in self.line]

    def player_actions(self, game: Game) -> list[Action]:
        """The actions a player types: not those of phases the engine plays by itself."""
        return [action for state, action in self.line if not game.autoplays(state)]


@dataclass
class Budget:
    """How much search one answer may take: positions (nodes), CPU seconds, and the most
    positions its table may hold at once (None: no limit; the table: ``MAX_POSITIONS``)."""

    nodes: int | None = None
    seconds: float | None = None
    positions: int | None = None


# The position as an action left it, the phase it is made final in, its legal actions, and the
# key each action tried leads to (``_Table.handed``).
Handed = tuple[State, str, tuple[Action, ...], dict[Action, int]]


class _Table:
    """What one answer's searches share: the positions proved lost, the positions where the
    safe-move shortcut may not be taken (it led round in a circle), and the positions the
    best-first search expanded, for the depth-first runs."""

    __slots__ = ("expand_fully", "handed", "lost", "lost_places", "most")

    def __init__(self, most: int) -> None:
        self.lost: set[int] = set()
        self.expand_fully: set[int] = set()
        # Where the stock is turned without end: the positions proved lost whose key keeps
        # their stock's place, by the key they would have at the start of a turn, with their
        # places as bits (``Solver.led_to_loss``).
        self.lost_places: dict[int, int] = {}
        self.most = most
        # The positions the best-first search expanded and the depth-first runs have not yet
        # reached (most of them they reach later), by key (see ``Handed``).
        # A depth-first run that reaches one of them again lists nothing, and plays only the
        # actions that lead to positions it does not know.
        self.handed: dict[int, Handed] = {}


class _Frame:
    """One position on the search path: the actions still to try, and its Tarjan numbers."""

    __slots__ = (
        "action", "actions", "index", "key", "kids", "low", "next", "reduced", "state", "total",
        "unsure",
    )  # fmt: skip

    def __init__(
        self,
        state: State,
        key: int,
        total: int,
        action: Action | None,
        actions: list[Action],
        index: int,
        reduced: bool,
        kids: dict[Action, int] | None,
    ) -> None:
        self.state = state
        self.key = key
        self.total = total  # the piles' part of the key (PositionKeys.child_hash)
        self.action = action  # the action that led here
        self.actions = actions
        self.next = 0
        self.index = self.low = index
        self.reduced = reduced  # only a safe move is tried from here (or, aggregated, below)
        self.unsure = False  # something below could not be proved
        self.kids = kids  # the key some actions lead to, where known (``_Table.handed``)


_PAUSED, _WON, _DONE = 0, 1, 2
_NONE = -1  # no position (keys are not negative)


class _Run:
    """One depth-first search, which can be paused and continued.

    A position seen in this run that is no longer on the Tarjan stack was proved lost (it is
    in the table) or could not be proved (``unsure``): a component that holds a position where
    only a safe move was tried, and that reaches back into itself, may owe its being closed to
    the shortcut, so it proves nothing, and those positions are searched in full next time.
    """

    def __init__(
        self, solver: Solver, start: State, actions: tuple[Action, ...], table: _Table,
        shuffle: random.Random | None, streamlined: bool = False,
    ) -> None:  # fmt: skip
        self.solver = solver
        self.table = table
        self.shuffle = shuffle
        # A streamlined run plays a card home without trying anything else (Solvitaire's
        # streamliner): an incomplete search, so nothing it closes above such a cut is proved.
        self.streamlined = streamlined
        self.counter = 0
        self.active: dict[int, int] = {}  # key -> Tarjan index, for positions on the stack
        self.members: list[int] = []  # the Tarjan stack
        self.unsure: set[int] = set()
        self.reduced_keys: set[int] = set()
        self.stack: list[_Frame] = []
        self.won: list[tuple[State, Action]] | None = None
        # Positions on the Tarjan stack whose key keeps their stock's place: that place, and
        # the key they would have at the start of a turn (``Solver.led_to_loss``).
        self.places: dict[int, tuple[int, int]] = {}
        keys = solver.keys
        key = keys.hash(start)
        if solver.turned_place is not None:
            start_key, place = solver.turned_place(start, key)
            if place >= 0:
                self.places[key] = (start_key, place)
        self._push(start, key, keys.piles_sum(start), None, actions, None)

    def size(self) -> int:
        return len(self.active) + len(self.unsure)

    def _push(
        self,
        state: State,
        key: int,
        total: int,
        action: Action | None,
        actions: tuple[Action, ...],
        kids: dict[Action, int] | None,
    ) -> None:
        solver = self.solver
        ordered, reduced = solver.ordered(state, key, actions, self.table, self.shuffle)
        cut = (
            self.streamlined
            and not reduced
            and len(ordered) > 1
            and ordered[0].dst in solver.foundation_set
        )
        if cut:  # a move home comes first where there is one (``Solver._rank``)
            ordered = ordered[:1]
        index = self.counter
        self.counter += 1
        self.active[key] = index
        self.members.append(key)
        if reduced:
            self.reduced_keys.add(key)
        frame = _Frame(state, key, total, action, ordered, index, reduced, kids)
        frame.unsure = cut
        self.stack.append(frame)

    def advance(self, allowance: int, deadline: float | None) -> tuple[int, int]:
        """Explore up to ``allowance`` new positions: (_PAUSED, _WON or _DONE, positions)."""
        solver = self.solver
        game = solver.game
        successor, expand, outcome = solver.successor, solver.expand, game.outcome
        child_hash = solver.keys.child_hash
        dead = solver.searched_dead()
        table = self.table
        lost, active, unsure = table.lost, self.active, self.unsure
        handed = table.handed
        stack = self.stack
        turned_place = solver.turned_place
        places, lost_places = self.places, table.lost_places
        start_key = place = -1
        cpu = time.process_time
        nodes = 0
        while stack:
            frame = stack[-1]
            if frame.next < len(frame.actions):
                action = frame.actions[frame.next]
                frame.next += 1
                kids = frame.kids
                # Where the best-first search tried this action, its key is known: the
                # position is made only if it is new.
                key = kids.get(action, _NONE) if kids is not None else _NONE
                made = key == _NONE
                if made:
                    after = successor(frame.state, action)
                    key, total = child_hash(frame.state, frame.total, after)
                if key in lost:
                    continue
                index = active.get(key)
                if index is not None:
                    if index < frame.low:
                        frame.low = index
                    elif index == frame.index and frame.reduced:
                        # A safe move that leads back to where it was played: no shortcut.
                        table.expand_fully.add(key)
                        frame.unsure = True
                    continue
                if key in unsure:
                    frame.unsure = True
                    continue
                if nodes >= allowance:
                    frame.next -= 1  # tried again when the run goes on
                    return _PAUSED, nodes
                nodes += 1
                if deadline is not None and not nodes & 255 and cpu() > deadline:
                    frame.next -= 1
                    return _PAUSED, nodes
                if not made:
                    after = successor(frame.state, action)
                    key, total = child_hash(frame.state, frame.total, after)
                if turned_place is not None:
                    start_key, place = turned_place(after, key)
                    if solver.led_to_loss(lost_places, start_key, place):
                        lost.add(key)
                        continue
                if dead is not None and dead(after):  # no win: its moves need not be listed
                    lost.add(key)
                    if place >= 0:
                        solver.lost_at_place(lost_places, start_key, place)
                    continue
                # Expanded by the best-first search already (``taken_over``)?
                got = handed.pop(key, None) if handed else None
                taken = solver.taken_over(after, got) if got is not None else None
                if taken is not None:
                    after, actions, kids = taken
                else:
                    after, actions = expand(after)
                    kids = None
                result = outcome(after)
                if result == "won":
                    line = [(f.state, g.action) for f, g in pairwise(stack) if g.action]
                    line.append((frame.state, action))
                    self.won = line
                    return _WON, nodes
                if result is not None or not actions:
                    lost.add(key)
                    if place >= 0:
                        solver.lost_at_place(lost_places, start_key, place)
                    continue
                if place >= 0:
                    places[key] = (start_key, place)
                self._push(after, key, total, action, actions, kids)
                continue
            # Every action of this position was tried.
            stack.pop()
            if frame.low < frame.index:  # part of a component whose root is further up
                parent = stack[-1]
                if frame.low < parent.low:
                    parent.low = frame.low
                parent.unsure |= frame.unsure
                parent.reduced |= frame.reduced
                continue
            self._close(frame)
            if stack and frame.unsure:
                stack[-1].unsure = True
        return _DONE, nodes

    def _close(self, root: _Frame) -> None:
        """A component is explored to the end: proved lost, or not proved (see the class)."""
        members = self.members
        at = len(members) - 1
        while members[at] != root.key:
            at -= 1
        component = members[at:]
        del members[at:]
        active = self.active
        for key in component:
            del active[key]
        places = self.places
        if root.unsure or (root.reduced and len(component) > 1):
            root.unsure = True
            self.unsure.update(component)
            self.table.expand_fully.update(k for k in component if k in self.reduced_keys)
            if places:
                for key in component:
                    places.pop(key, None)
        else:
            self.table.lost.update(component)
            if places:
                lost_places = self.table.lost_places
                for key in component:
                    kept = places.pop(key, None)
                    if kept is not None:
                        self.solver.lost_at_place(lost_places, kept[0], kept[1])


class _Sparing:
    """The dead-position test as one solve asks it. Where it finds nothing, it costs about a
    tenth of each position searched (Klondike: a card buried under a lower one of its suit
    can almost always be moved off): after ``SPARE_AFTER`` positions tested without one found
    dead, only one position in ``SPARED_ONE_IN`` is tested, until one is found; then every
    position again. Sound either way: a dead position left untested is searched to its end,
    and is proved lost all the same."""

    __slots__ = ("found", "passed", "test", "tested")

    def __init__(self, test: Callable[[State], bool]) -> None:
        self.test = test
        self.tested = 0
        self.found = 0
        self.passed = 0  # positions not tested

    def dead(self, state: State) -> bool:
        if not self.found and self.tested >= SPARE_AFTER:
            self.passed += 1
            if self.passed % SPARED_ONE_IN:
                return False
        self.tested += 1
        if self.test(state):
            self.found += 1
            return True
        return False


class _BestFirst:
    """A best-first search for a win, which can be paused and continued: the position that
    looks closest to a win (``Solver.distance``) is expanded next, whatever its depth.

    It reaches wins that lie far down a branch the depth-first order tries late. It skips
    what the table holds, and adds to it what it proves: a position with no way on (the
    dead-card test, the flow's loss, no action), and a position it expanded with all its
    actions (not a safe move alone) once every position they lead to is in the table (each
    such proof rests on proofs made before it, so a circle of positions waiting on each other
    proves nothing). A position is tested and its actions listed only when its turn comes
    (most positions put on the frontier never get one); a win is seen as soon as it is
    reached, where the flow decides it without listing actions."""

    def __init__(self, solver: Solver, start: State, table: _Table) -> None:
        self.solver = solver
        self.table = table
        self.counter = 0
        keys = solver.keys
        key = keys.hash(start)
        # each position seen: the key of the position it came from, and the action from there
        self.came: dict[int, tuple[int, Action | None]] = {key: (_NONE, None)}
        # each position to expand, as the action left it: the position, its piles' part of
        # the key
        self.waiting: dict[int, tuple[State, int]] = {}
        self.frontier: list[tuple[int, int, int]] = []
        # each position expanded and not yet proved lost: how many of the positions its actions
        # lead to are not known to be lost; and for each position, the expanded positions
        # that wait on it besides the one it came from (once for each action that leads to it)
        self.pending: dict[int, int] = {}
        self.also_waiting: dict[int, list[int]] = {}
        self.won: list[tuple[State, Action]] | None = None
        self.root = key
        self.start = start
        self._add(start, key, keys.piles_sum(start), solver.distance(start))

    def size(self) -> int:
        return len(self.came) + len(self.pending)

    def _proved(self, key: int) -> None:
        """``key`` is lost: into the table, and so is every expanded position that waited on
        it alone, and so on up. (Each position is proved here once: when its turn comes, or,
        expanded, when the last position it waited on is.)"""
        lost, came, also_waiting = self.table.lost, self.came, self.also_waiting
        told = self._told
        todo = [key]
        while todo:
            key = todo.pop()
            lost.add(key)
            first = came[key][0]
            if first != _NONE and told(first):
                todo.append(first)
            more = also_waiting.pop(key, None)
            if more is not None:
                for parent in more:
                    if told(parent):
                        todo.append(parent)

    def _told(self, parent: int) -> bool:
        """A position ``parent`` waited on is lost: whether every one is now."""
        pending = self.pending
        left = pending.get(parent)
        if left is None:  # proved already, or expanded with a safe move alone (no proof)
            return False
        if left > 1:
            pending[parent] = left - 1
            return False
        del pending[parent]
        return True

    def _add(self, state: State, key: int, total: int, distance: int) -> None:
        self.waiting[key] = (state, total)
        # Of positions that look alike, the newest first: a plateau is searched in depth.
        heapq.heappush(self.frontier, (distance, -self.counter, key))
        self.counter += 1

    def advance(self, allowance: int, deadline: float | None) -> tuple[int, int]:
        """Explore up to ``allowance`` new positions: (_PAUSED, _WON or _DONE, positions)."""
        solver = self.solver
        game = solver.game
        successor, expand, outcome = solver.successor, solver.expand, game.outcome
        child_hash = solver.keys.child_hash
        dead = solver.searched_dead()
        table = self.table
        lost, handed = table.lost, table.handed
        came, waiting, frontier = self.came, self.waiting, self.frontier
        pending, also_waiting = self.pending, self.also_waiting
        proved = self._proved
        turned_place = solver.turned_place
        cpu = time.process_time
        nodes = 0
        while frontier:
            if nodes >= allowance:
                return _PAUSED, nodes
            if deadline is not None and cpu() > deadline:
                return _PAUSED, nodes
            _, _, key = heapq.heappop(frontier)
            state, parent_total = waiting.pop(key)
            if key in lost:  # proved lost by another search since it was put here
                proved(key)
                continue
            if turned_place is not None and solver.led_to_loss(
                table.lost_places, *turned_place(state, key)
            ):
                proved(key)
                continue
            if dead is not None and dead(state):
                proved(key)
                continue
            reached = state
            state, actions = expand(state)
            result = outcome(state)
            if result == "won":
                self.won = self._line(key)
                return _WON, nodes
            if result is not None or not actions:
                proved(key)
                continue
            ordered, reduced = solver.ordered(state, key, actions, table, None)
            home_next, whole, parts = solver.parts(state)
            left = 0
            kids: dict[Action, int] = {}  # the key each action leads to
            for action in ordered:
                after = successor(state, action)
                child, total = child_hash(state, parent_total, after)
                kids[action] = child
                if child in lost or child == key:  # (an action that changes nothing)
                    continue
                left += 1
                if child in came:  # seen already: this position waits on it too
                    if reduced:
                        continue
                    more = also_waiting.get(child)
                    if more is None:
                        also_waiting[child] = [key]
                    else:
                        more.append(key)
                    continue
                came[child] = (key, action)
                nodes += 1
                if outcome(after) == "won":
                    self.won = self._line(child)
                    return _WON, nodes
                self._add(
                    after,
                    child,
                    total,
                    solver.distance_after(state, home_next, parts, whole, after),
                )
            if reduced or left:  # not proved here: for the depth-first runs that reach it
                if len(handed) >= HANDED_MOST:
                    del handed[next(iter(handed))]
                handed[key] = (reached, state.phase, actions, kids)
            if reduced:
                # Only a safe move was tried: that proves nothing here (a rule file's safe
                # moves may go round in a circle, which the depth-first search finds out).
                continue
            if left:
                pending[key] = left
            else:  # every action leads to a position known to be lost
                proved(key)
        return _DONE, nodes

    def _line(self, key: int) -> list[tuple[State, Action]]:
        """The actions from the start to the position of ``key``, replayed."""
        came = self.came
        actions: list[Action] = []
        while key != self.root:
            parent, action = came[key]
            assert action is not None
            actions.append(action)
            key = parent
        actions.reverse()
        solver = self.solver
        state = self.start
        line: list[tuple[State, Action]] = []
        for action in actions:
            line.append((state, action))
            state, _ = solver.expand(solver.successor(state, action))
        return line


class Solver:
    """Search for one game; ``solve`` answers for a position."""

    def __init__(self, game: Game) -> None:
        self.game = game
        # Where the stock is turned onto a waste, the search moves straight to the waste cards
        # the draws would reach (see ``stock``): its own successor and expand.
        self.reach: StockReach | None = stock_reach(game)
        self.successor: Callable[[State, Action], State] = game.successor
        self.expand: Callable[[State], tuple[State, tuple[Action, ...]]] = game.expand
        self.keys = game.keys
        if self.reach is not None:
            self.successor = self.reach.successor
            self.expand = self.reach.expand
            # A stock turned without end: positions that differ only in where the turning
            # has come to play alike (``PositionKeys.turned_stock``).
            if not self.reach.spent:
                self.keys = game.position_keys()
                self.keys.turned_stock(self.reach.stock, self.reach.waste, self.reach.draw.count)
        # Where the key keeps a turned stock's place, a position that draws alone lead to
        # from one proved lost is lost (``led_to_loss``): each place's places it is led to
        # from, as bits; and whether a turn's start is led to from every place (the count of
        # turns made is not in the key).
        self.turned_place: Callable[[State, int], tuple[int, int]] | None = None
        self._led_from: list[int] = []
        self._start_led_to = False
        reach = self.reach
        if reach is not None and not reach.spent and reach.draw.count > 1:
            self.turned_place = self.keys.turned_place
            per = reach.draw.count
            self._led_from = [
                sum(1 << x for x in range(place % per, place + 1, per) if x)
                for place in range(len(game.cards) + 1)
            ]
            redeal = reach.redeal
            self._start_led_to = redeal is not None and not self.keys.keeps_count(redeal.counter)
        self.foundation_set = frozenset(game.foundations)
        self.dead: Callable[[State], bool] | None = dead_position_test(game)
        self._sparing: _Sparing | None = None  # how this solve asks it (``searched_dead``)
        accepts = game.layout.accepts
        # Places that hold one card at most (free cells): worth emptying, costly to fill.
        self.single = frozenset(p for p, rule in enumerate(accepts) if rule.max_cards == 1)
        self.home_rules = [(f, accepts[f]) for f in game.foundations]
        self._taken = game.layout.taken  # what each pile takes now, as bits
        self.foundations = tuple(game.foundations)
        # What the foundations take next, for the last foundations asked about: kept only when
        # it depends on the foundations alone.
        self._home_by_foundations = not any(rule.reads_others for _, rule in self.home_rules)
        self._home_last_piles: list[tuple[int, ...]] = []
        self._home_last_faces = 0
        # Piles the position keys treat alike: a move into one empty pile of such a group
        # leads where the same move into another would.
        self.alike = {p: g for g, piles in enumerate(game.keys.groups) for p in piles}
        # The piles in no such group (``taken_over``).
        self._ungrouped = tuple(p for p in range(len(accepts)) if p not in self.alike)
        self._faces_under: dict[tuple[int, ...], int] = {}
        self._under_pile: list[tuple[int, ...]] = [() for _ in accepts]
        self._under_faces: list[int] = [0 for _ in accepts]
        self.others = tuple(p for p in range(len(accepts)) if p not in self.foundation_set)
        # Piles whose emptiness is worth something: those that take a card when empty.
        self.open_when_empty = frozenset(p for p in self.others if accepts[p].on_empty)
        # Piles that are built on (their rule relates one card to the next): there a card that
        # does not build on the one below is in disorder, and must be moved off one day.
        self._builds_on = {p: accepts[p].relation for p in self.others if any(accepts[p].relation)}
        # The same by place, as bits, for ``_part``; and the part of an empty pile.
        self._relation_at = [
            None if p not in self._builds_on else table_bits(self._builds_on[p])
            for p in range(len(accepts))
        ]
        self._empty_part = [-3 if p in self.open_when_empty else 0 for p in range(len(accepts))]
        self._part_pile: list[tuple[int, ...]] = [() for _ in accepts]
        self._part_home = [0 for _ in accepts]
        self._part_value = [0 for _ in accepts]
        # The effects whose actions may be safe, by name: their tests, bound once.
        # with Blake and Gent's safe moves home where the rules are of their kind (dominance)
        self._safe_tests: dict[str, Callable[[State, Action], bool]] = with_dominance(game)
        # A streamlined run beside the complete ones (``_Run.streamlined``), where the rules
        # prove no move safe: where they do, the complete search already plays those alone,
        # and the run's share of the positions is better spent searching completely.
        self.streamline = not self._safe_tests
        # Where every stock card is at hand, a macro action that plays one home is asked about
        # too (``home_dominance``).
        self._drawn: Callable[[State, Action], tuple[State, Action] | None] | None = (
            self.reach.drawn if self.reach is not None and self.reach.all_at_hand else None
        )
        # Moves the rules prove useless, left out (``left_out_test``).
        self._left_out: LeftOut | None = left_out_test(game)
        # The ranks of ``_rank``: more cards than a game holds are never taken at once, and an
        # action that moves no cards between piles (a draw, a deal) comes after every move.
        self._most_taken = len(game.cards) + 1
        self._not_a_move = ((((1 * 2 + 1) * 3 + 2) * 4 + 2) * 2 * 2 * 3 + 0) * self._most_taken
        # The weights of the piles' sizes in ``_sizes``: drawn (seeded) below 2**40, so that
        # sums stay machine ints; two positions whose sizes differ rarely get the same sum, and
        # then one action more is played.
        weights = random.Random(len(accepts))
        self._size_weights = tuple(weights.getrandbits(40) | 1 for _ in accepts)
        # How many cards each action moves from one pile to another when that is all it does
        # (``Effect.cards_moved``), by effect name: none when an automatic action played after
        # it may change a pile's size.
        self._cards_moved: dict[str, Callable[[Action], int]] = (
            {name: effect.cards_moved for name, effect in game.effects.items()}
            if all(effect.keeps_sizes for effect in game.automatic)
            else {}
        )

    def taken_over(
        self, reached: State, handed: Handed
    ) -> tuple[State, tuple[Action, ...], dict[Action, int]] | None:
        """Where a depth-first run reached ``reached`` (not yet made final) and the best-first
        search had handed on a position of the same key (``_Table.handed``): the run's
        position made final, its legal actions and the keys some of them lead to, taken from
        that search's; or None where the run must list its own. Positions that share a key
        play alike, but a winning line is replayed from the run's own positions: it takes
        over only where both hold the same piles in the same phase, or piles the keys treat
        alike in another order (the actions and keys are then carried to the run's piles). Not
        a stock at another place, where the macro actions differ. The counts may differ only
        where the key leaves them out (no rule reads them): the run keeps its own."""
        first, phase, actions, kids = handed
        if first.phase != reached.phase:
            return None
        state = (
            reached if phase == reached.phase else new_state(reached.piles, phase, reached.counts)
        )
        mine, theirs = reached.piles, first.piles
        if mine == theirs:
            return state, actions, kids
        for p in self._ungrouped:
            if mine[p] != theirs[p]:
                return None
        where = list(range(len(mine)))  # where each of its piles lies among the run's
        for group in self.game.keys.groups:
            free = list(group)
            for p in group:
                pile = theirs[p]
                for k in range(len(free)):
                    if mine[free[k]] == pile:
                        where[p] = free[k]
                        del free[k]
                        break
                else:
                    return None
        moved = tuple([self._carried(action, where) for action in actions])
        return state, moved, {self._carried(a, where): child for a, child in kids.items()}

    @staticmethod
    def _carried(action: Action, where: list[int]) -> Action:
        """``action`` with its piles given by ``where``."""
        src, dst = action.src, action.dst
        return new_action(
            action.name, where[src] if src >= 0 else src, where[dst] if dst >= 0 else dst, action.n
        )

    def _hides(self, piles: tuple[tuple[int, ...], ...], p: int, home_next: int) -> int:
        """1 when pile ``p`` (not a foundation) hides, below its top card, a card that a
        foundation takes next (``home_next``, as bits); else 0."""
        pile = piles[p]
        if len(pile) < 2 or p in self.foundation_set:
            return 0
        # The faces below the top card, worked out once per pile: the last pile seen at each
        # place first (a long waste or stock stays the same tuple from move to move, and a
        # lookup by value would hash it every time), then by value.
        if pile is self._under_pile[p]:
            faces = self._under_faces[p]
        else:
            known = self._faces_under
            found = known.get(pile)
            if found is None:
                if len(known) > 200_000:
                    known.clear()
                found = known[pile] = face_bits([FACE[card] for card in pile[:-1]])
            faces = found
            self._under_pile[p] = pile
            self._under_faces[p] = faces
        return 1 if home_next & faces else 0

    def _home_next(self, state: State) -> int:
        """The faces some foundation takes next, as bits."""
        piles = state.piles
        foundations = self.foundations
        last = self._home_last_piles
        if last:  # the same foundations as at the last call, as often in a row
            for k, f in enumerate(foundations):
                if piles[f] is not last[k]:
                    break
            else:
                return self._home_last_faces
        faces = 0
        taken = self._taken
        for f in foundations:
            faces |= taken.taken(piles, f)
        if self._home_by_foundations:
            self._home_last_piles = [piles[f] for f in foundations]
            self._home_last_faces = faces
        return faces

    def distance(self, state: State) -> int:
        """How far a position looks from a win, for the best-first search: the cards not yet
        home, the cards face down, the face-up cards out of order (lying on a card of a built
        pile that they do not build on), and how deep the cards a foundation takes next lie,
        less the empty piles that could take a card. A sum over the piles (``parts``)."""
        home_next = self._home_next(state)
        piles = state.piles
        total = 0
        for p in self.others:
            total += self._part(p, piles[p], home_next)
        return total

    def parts(self, state: State) -> tuple[int, int, list[int]]:
        """What the foundations take next (as bits), and the piles' parts of
        ``distance(state)`` (in the order of ``others``) with their sum: from these
        ``distance_after`` works out the distance of a position a move leads to."""
        home_next = self._home_next(state)
        piles = state.piles
        parts = [self._part(p, piles[p], home_next) for p in self.others]
        return home_next, sum(parts), parts

    def distance_after(
        self, before: State, home_next: int, parts: list[int], whole: int, after: State
    ) -> int:
        """``distance(after)``, for a position reached from ``before``, where the foundations
        take ``home_next`` and whose piles' parts of the distance are ``parts`` (summing to
        ``whole``): where the foundations are the very same piles, and what they take next
        depends on them alone, only the piles that changed are looked at (a move changes two
        or three)."""
        old = before.piles
        piles = after.piles
        if not self._home_by_foundations or not all(piles[f] is old[f] for f in self.foundations):
            return self.distance(after)
        others = self.others
        for k in range(len(others)):
            p = others[k]
            pile = piles[p]
            if pile is not old[p]:
                whole += self._part(p, pile, home_next) - parts[k]
        return whole

    def _part(self, p: int, pile: tuple[int, ...], home_next: int) -> int:
        """Pile ``p``'s part of ``distance``."""
        size = len(pile)
        if not size:
            return self._empty_part[p]
        # A long pile (a stock, a waste) is often the very tuple of the position looked at
        # before: its part is kept with what the foundations took next then.
        long = size > 8
        if long and pile is self._part_pile[p] and home_next == self._part_home[p]:
            return self._part_value[p]
        relation = self._relation_at[p]
        down = depth = disorder = 0
        below = DOWN
        for i in range(size):
            card = pile[i]
            if card & DOWN:
                down += 1
            else:
                face = FACE[card]
                if home_next >> face & 1:
                    depth += size - 1 - i
                if relation is not None and not below & DOWN:
                    disorder += 1 - (relation[FACE[below]] >> face & 1)
            below = card
        part = 3 * size + 2 * down + 2 * disorder + depth
        if long:
            self._part_pile[p] = pile
            self._part_home[p] = home_next
            self._part_value[p] = part
        return part

    def _rank(self, state: State, action: Action, home_next: int) -> int:
        """How promising an action looks, smallest first: a card home; a move of a run that
        leaves behind a card the run builds on (it splits a longer run that could move
        together, or undoes a build) after every other; a card uncovered that lies face down
        or that a foundation takes next; a move before a draw or deal; a card taken out of a
        place that holds one card (a free cell); a move off a pile that hides a
        card a foundation takes next, not onto one; a target with cards before an empty one,
        and an empty pile before a place that holds one card; more cards before fewer.

        The criteria are digits of one int, most important first (an int compares faster than
        a tuple of them, and this runs for every action the search lists)."""
        piles = state.piles
        src, dst = action.src, action.dst
        if src < 0 or dst < 0:
            return self._not_a_move
        reach = self.reach
        if reach is not None and reach.spent and action.name in reach.macros:
            # Draws then a move, where the stock is not turned again without end: after every
            # move, as the draws were (they spend the stock); fewest draws first (the order
            # they are listed in). Where it is, a waste card is ranked as a move of it.
            return self._not_a_move
        home = 1 if dst in self.foundation_set else 0
        pile = piles[src]
        taken = action.n or 1
        uncovers = breaks = 0
        if len(pile) > taken:
            below = pile[-taken - 1]
            uncovers = 2 if below & DOWN else 1 if home_next >> FACE[below] & 1 else 0
            if action.n and not home and not below & DOWN:  # a run (counted) off a face-up card
                relation = self._builds_on.get(src)
                if relation is not None and FACE[pile[-taken]] in relation[FACE[below]]:
                    breaks = 1
        single = self.single
        into_empty = 0 if piles[dst] else 2 if dst in single else 1
        rank = (1 - home) * 2 + breaks
        rank = rank * 3 + 2 - uncovers
        rank = rank * 4 + (0 if src in single else 1)  # a move (0) before a draw (2 x 2)
        rank = (rank * 2 + self._hides(piles, dst, home_next)) * 2
        rank += 1 - self._hides(piles, src, home_next)
        return (rank * 3 + into_empty) * self._most_taken + self._most_taken - 1 - taken

    def ordered(
        self,
        state: State,
        key: int,
        actions: tuple[Action, ...],
        table: _Table,
        shuffle: random.Random | None,
    ) -> tuple[list[Action], bool]:
        """The actions to try from a position, most promising first, and whether only a safe
        move is tried. Actions that look equally promising come in the rule file's order, or,
        when ``shuffle`` is given, in an order it draws."""
        safe_tests = self._safe_tests
        if safe_tests and key not in table.expand_fully:
            drawn = self._drawn
            for action in actions:
                test = safe_tests.get(action.name)
                if test is not None:
                    if test(state, action):
                        return [action], True
                elif drawn is not None and action.dst in self.foundation_set:
                    # draws, then a card home: asked of the position the draws lead to
                    played = drawn(state, action)
                    if played is not None:
                        test = safe_tests.get(played[1].name)
                        if test is not None and test(*played):
                            return [action], True
        left_out = self._left_out
        if left_out is not None:
            actions = left_out.kept(state, actions)
        piles = state.piles
        alike = self.alike
        if alike:
            kept: list[Action] = []
            into: set[tuple[str, int, int, int]] = set()
            for action in actions:
                dst = action.dst
                if dst >= 0 and not piles[dst] and dst in alike:
                    where = (action.name, action.src, action.n, alike[dst])
                    if where in into:
                        continue
                    into.add(where)
                kept.append(action)
            actions = tuple(kept)
        draw = shuffle.random if shuffle is not None else None
        home_next = self._home_next(state)
        if draw is None:  # ties in the rule file's order: the rank and the place in one int
            ints = [self._rank(state, a, home_next) << 16 | k for k, a in enumerate(actions)]
            ints.sort()
            return [actions[k & 0xFFFF] for k in ints], False
        keyed = [(self._rank(state, a, home_next), draw(), k) for k, a in enumerate(actions)]
        keyed.sort()
        return [actions[k] for _, _, k in keyed], False

    def search_order(self, state: State) -> list[Action]:
        """The actions the depth-first search tries from ``state``, in its order (only a safe
        move, when there is one): its legal actions, with draws and redeals given as macro
        actions where the search moves straight to the waste cards they expose."""
        state, actions = self.expand(state)
        key = self.keys.hash(state)
        return self.ordered(state, key, actions, _Table(MAX_POSITIONS), None)[0]

    def led_to_loss(self, lost_places: dict[int, int], start_key: int, place: int) -> bool:
        """Whether a position whose stock is turned without end is lost because draws alone
        lead to it from a position proved lost (given by ``turned_place``: the key it would
        have at the start of a turn, and its place). Draws change nothing but the stock and
        the waste, so a win from it would be one from there. From a place, draws lead to each
        place a whole number of draws further on, and, through the last and a turn, to the
        start of a turn and every place the start leads to, which the key does not tell apart
        (place -1). ``lost_places``: the places of the positions proved lost, as bits, by the
        key each would have at the start of a turn (``lost_at_place``)."""
        found = lost_places.get(start_key, 0)
        if not found:
            return False
        if place < 0:
            return self._start_led_to
        return bool(found & self._led_from[place])

    @staticmethod
    def lost_at_place(lost_places: dict[int, int], start_key: int, place: int) -> None:
        """A position proved lost whose key keeps its stock's place, into ``lost_places``
        (see ``led_to_loss``)."""
        lost_places[start_key] = lost_places.get(start_key, 0) | 1 << place

    def searched_dead(self) -> Callable[[State], bool] | None:
        """The dead-position test as the searches of this solve ask it (``_Sparing``)."""
        test = self.dead
        if test is None:
            return None
        sparing = self._sparing
        if sparing is None or sparing.test is not test:
            sparing = self._sparing = _Sparing(test)
        return sparing.dead

    def solve(self, start: State, budget: Budget | None = None, shorten: bool = True) -> Solution:
        """Search from ``start`` within ``budget``: won, lost or unknown (a winning line is
        given as found when ``shorten`` is false: for a verdict alone).

        Three searches take turns, with allowances that grow in the Luby sequence (1, 1, 2, 1,
        1, 2, 4 ... times a base; the best-first search's stays one base): a depth-first search
        that goes on where it stopped, trying equally promising actions in the rule file's
        order, so that it explores everything in the end; a best-first search that also goes
        on where it stopped, expanding the position that looks closest to a win wherever it
        lies (some games are won down one long narrow line); and short depth-first searches
        that start afresh with orders drawn at random (seeded, so answers repeat), which often
        find a win that the first would reach only late. All add what they prove to the same
        table, and skip what it holds.
        """
        # The search makes no reference cycles: the cycle collector would only walk its
        # tables over and over (about a tenth of a long search's time).
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._solve(start, budget, shorten)
        finally:
            if collecting:
                gc.enable()

    def _solve(self, start: State, budget: Budget | None, shorten: bool) -> Solution:
        budget = budget or Budget()
        cpu = time.process_time
        began = cpu()
        deadline = began + budget.seconds if budget.seconds is not None else None
        table = _Table(budget.positions or MAX_POSITIONS)
        game = self.game
        self.keys.forget()  # what is kept for another deal's piles would only take memory
        self._sparing = None  # each solve tests afresh whether the dead test finds anything
        state, actions = self.expand(start)
        if game.outcome(state) == "won":
            return Solution("won", [], 1, cpu() - began)
        if game.outcome(state) is not None or not actions:
            return Solution("lost", [], 1, cpu() - began)
        main = _Run(self, state, actions, table, None)
        root = main.stack[0].key
        best: _BestFirst | None = _BestFirst(self, state, table)
        lean: _Run | None = (
            _Run(self, state, actions, table, None, streamlined=True) if self.streamline else None
        )
        nodes = 1
        chunk = max(1, min(RESTART_NODES, table.most // 8))  # between looks at the table's size
        for turn in range(1, 1 << 62):
            base = _luby(turn) * RESTART_NODES
            probe = _Run(
                self, state, actions, table, random.Random(turn),
                streamlined=self.streamline and turn % 2 == 0,
            )  # fmt: skip
            runs: list[_Run | _BestFirst] = [main, probe] if best is None else [main, best, probe]
            if lean is not None:  # fast first: its turn comes before the others'
                runs.insert(0, lean)
            for run in runs:
                # The best-first search's turn stays one base long: the wins it finds lie
                # down narrow lines it reaches early, and in a deal not won early its proofs
                # close no circle of positions (the depth-first ones close whole components).
                allowance = RESTART_NODES if run is best else base
                if budget.nodes is not None:
                    allowance = min(allowance, budget.nodes - nodes)
                while allowance > 0:
                    share = min(allowance, chunk)
                    status, used = run.advance(share, deadline)
                    nodes += used
                    allowance -= share
                    if status == _WON:
                        assert run.won is not None
                        line = run.won if self.reach is None else self.reach.unfold(run.won)
                        line = self.shorten(line, nodes) if shorten else line
                        return Solution("won", line, nodes, cpu() - began)
                    if root in table.lost:
                        return Solution("lost", [], nodes, cpu() - began)
                    if status == _DONE:
                        if run is main:  # not proved for a shortcut's sake: search again
                            main = _Run(self, state, actions, table, None)
                        elif run is best:
                            best = None
                        elif run is lean:
                            lean = None
                        break
                    held = main.size() + probe.size() + (best.size() if best is not None else 0)
                    held += lean.size() if lean is not None else 0
                    if len(table.lost) + len(table.lost_places) + held > table.most:
                        return self._unknown(
                            nodes, began, f"the table of positions is full ({table.most:,})"
                        )
                    if deadline is not None and cpu() > deadline:
                        return self._unknown(nodes, began, "the time budget ran out")
                if budget.nodes is not None and nodes >= budget.nodes:
                    return self._unknown(nodes, began, "the node budget ran out")
        raise AssertionError("unreachable")  # pragma: no cover

    def shorten(
        self, line: list[tuple[State, Action]], work: int = 0
    ) -> list[tuple[State, Action]]:
        """The winning line without its detours: where one action leads from a position of
        the line to a later one, the actions between are left out. A depth-first line often
        wanders (a card moved there and back while the stock turns); a hint should not.

        Positions are compared as ``successor`` leaves them (before the flow's deferred
        transitions, which follow from the position alone), so no move list is made for the
        positions tried; at most ``work`` of them, or 50 for each action of the line. An
        action that only moves cards from one pile to another (``Effect.cards_moved``), in a
        game whose automatic actions keep every pile's size, is played only when the number
        of cards it leaves in each pile is that of a later position of the line (most are
        not, and the count is worked out without playing them)."""
        if not line or len(line) > SHORTEN_MOST:
            return line
        game = self.game
        successor = game.successor
        place = {state: k for k, (state, _) in enumerate(line)}
        for k, (state, action) in enumerate(line):
            place.setdefault(successor(state, action), k + 1)
        # The pile sizes of a position as one int (a weighted sum), and the latest place in
        # the line of each: an action whose sizes come after ``reach`` nowhere is not played.
        weights = self._size_weights
        latest: dict[int, int] = {}
        for state, k in place.items():
            sizes = self._sizes(state)
            if latest.get(sizes, -1) < k:
                latest[sizes] = k
        moved = self._cards_moved
        allowance = max(work, 50 * len(line))
        out: list[tuple[State, Action]] = []
        k = 0
        while k < len(line):
            state, action = line[k]
            reach = k + 1
            if allowance > 0 and not game.autoplays(state):
                others = game.legal_actions(state)
                allowance -= len(others)
                sizes = self._sizes(state) if moved else 0
                for other in others:
                    taken = moved[other.name](other) if moved else 0
                    if taken:
                        shift = taken * (weights[other.dst] - weights[other.src])
                        if latest.get(sizes + shift, -1) <= reach:
                            continue
                    later = place.get(successor(state, other), -1)
                    if later > reach:
                        reach, action = later, other
            out.append((state, action))
            k = reach
        return out

    def _sizes(self, state: State) -> int:
        """The sizes of a position's piles as one int, each times its pile's weight."""
        total = 0
        for pile, weight in zip(state.piles, self._size_weights, strict=True):
            total += len(pile) * weight
        return total

    @staticmethod
    def _unknown(nodes: int, began: float, reason: str) -> Solution:
        return Solution("unknown", [], nodes, time.process_time() - began, reason)


def solve(game: Game, state: State, budget: Budget | None = None) -> Solution:
    """Search for a win from ``state``: won (with the actions), lost, or unknown."""
    return Solver(game).solve(state, budget)
