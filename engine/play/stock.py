"""The stock as the player's reach: search moves straight to each waste card that turning the
stock would expose, one macro action instead of a draw at a time (the K+ representation of
Bjarnason, Fern and Tadepalli, which Solvitaire uses).

Where a rule file turns a stock onto a waste (a ``deal`` action from one pile to another,
with or without a ``redeal`` that turns the waste back), and nothing else takes from the
stock or gives to either pile, the cards that turning the stock can bring to the waste's top
are known in advance: the draws (and redeals) follow one fixed order. The search then lists,
for a position, its actions other than the draws and redeals, and for each position that
some number of draws and redeals leads to, the actions that play the waste's top card there
("macro" actions). This loses no win: in any winning line, a move that neither takes from
nor gives to the stock or the waste is played as well before the draws that precede it
(neither changes what the other may do, in a game whose player actions have no conditions
and whose only phase the draws stay in), so every winning line can be rearranged into one
where draws come only right before a card leaves the waste.

A macro action is an ``Action`` whose name stands for the number of draws and redeals and
the action played after them; ``unfold`` gives a line of macros back in the game's own
actions, which replays through ``play``.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..core.cards import DOWN, EVERY_FACE, FACE
from ..core.state import Action, State, new_action, new_state
from ..game.game import Game
from ..vocab.effects.dealing import Deal, Redeal
from ..vocab.effects.moves import Move

STEP = "+"  # in a macro action's name: steps, then the action played (no action name has it)
# The places on the stock's courses kept at once (``StockReach._cycle``): some 30 bytes each,
# and about 100 more for each place a search went to.
PLACES_KEPT = 400_000
# The stock, the waste and the counts of a position (what draws and redeals change).
Cycled = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


class _Course:
    """The course of draws and redeals from one stock, waste and counts, worked out once
    (``StockReach._cycle``). The stock and the waste keep one order of their cards together
    (a draw turns the stock's top cards onto the waste, a redeal turns the waste back), so a
    place on the course is told by the waste's size and the redeals made since the start
    (``sizes``, ``redeals``: shared by every course of as many cards, from as many on the
    waste, with as many redeals left). The face of the waste's top card at each place (-1:
    none, face down, or the start) is worked out at once, for the macros; the piles at a
    place only when a search goes there (``StockReach._at``), and then kept, so that the
    positions that go there share them."""

    __slots__ = ("redeals", "sizes", "stock", "tops", "turned", "waste", "where")

    def __init__(
        self, stock: tuple[int, ...], waste: tuple[int, ...], sizes: list[int],
        redeals: list[int], tops: list[int],
    ) -> None:  # fmt: skip
        self.stock = stock
        self.waste = waste
        self.sizes = sizes
        self.redeals = redeals
        self.tops = tops
        # The stock after the first redeal (from then on, every pass is the same), once asked.
        self.turned: tuple[int, ...] | None = None
        # The stock and the waste at each place, once a search has gone there.
        self.where: list[tuple[tuple[int, ...], tuple[int, ...]] | None] = [None] * len(sizes)


class StockReach:
    """The macro actions of one game whose stock is turned onto a waste (see the module)."""

    def __init__(self, game: Game, draw: Deal, redeal: Redeal | None) -> None:
        self.game = game
        self.draw = draw
        self.redeal = redeal
        self.stock = draw.source
        self.waste = draw.target
        self.turns = frozenset(e.name for e in (draw, redeal) if e is not None)
        self._draw = Action(draw.name)
        self._redeal = Action(redeal.name) if redeal is not None else None
        # The player's effects that take from the waste, and the piles they give to (whose
        # rules, read once for a position, say which waste cards could go anywhere).
        self.takers = [
            effect
            for name, effect in game.effects.items()
            if not effect.automatic
            and name not in self.turns
            and name in game.flow.player_triggers[game.initial]
            and self._takes_waste(effect)
        ]
        accepts = game.layout.accepts
        # (a move says what its targets take, as bits; other effects' targets are read here)
        moves = [e for e in self.takers if isinstance(e, Move)]
        targets = sorted(
            {
                p
                for e in self.takers
                if not isinstance(e, Move)
                for p in game.layout.resolve(e.spec.gives_to())
            }
        )
        self._targets = targets
        self._taken = game.layout.taken  # what each pile takes now, as bits
        # Whether what the waste's targets take is read from piles that draws never change
        # (no target's rule reads the stock or the waste): then it is worked out once for a
        # position, and holds at every place the draws lead to.
        every_target = {t for move in moves for t in move.targets} | set(targets)
        turned = {self.stock, self.waste}
        self._blind = not any(turned & accepts[t].piles_read() for t in every_target)
        # The moves of the waste's top card alone: where the targets are blind to the turns,
        # their macros at a place are those targets that take the card there, and no
        # position is made for it (``_reached``). Other takers list their moves in the
        # position at the place (``_waste_moves``).
        self._direct = [m for m in moves if m.plain_top] if self._blind else []
        self._moves = [m for m in moves if m not in self._direct]
        self._generic = [e for e in self.takers if e not in self._direct]
        # Limited redeals: the count is part of what repeats; unlimited, it is never read.
        self._counted = redeal is not None and redeal.limit is not None
        # Whether draws spend the stock: it is not turned over again as often as one likes.
        self.spent = redeal is None or redeal.limit is not None
        # Whether every card of the stock and the waste is at hand at any time: the stock is
        # turned one card at a time, over and over, so draws reach each card whatever was taken
        # before (a macro action plays it in one step).
        self.all_at_hand = not self.spent and draw.count == 1
        # Each macro's name, and what it stands for: (steps, the action's name or "").
        self._names: dict[tuple[int, str], str] = {}
        self.macros: dict[str, tuple[int, str]] = {}
        # Each macro action made, handed out again (``_macro``): by an int worked out from
        # its steps, its action's place in ``_action_names``, its target and its count.
        self._action_names = {name: k for k, name in enumerate(game.effects)}
        self._macro_radix = (len(game.effects), len(game.layout) + 1, len(game.cards) + 1)
        self._made: dict[int, Action] = {}
        # The action each macro made plays after its turns (``successor`` asks for it often).
        self._played: dict[Action, Action] = {}
        self.most_steps = 2 * len(game.cards) * ((redeal.limit or 0) + 2 if redeal else 1) + 2
        # Draws and redeals change the stock, the waste and the counts alone. Where no way to
        # win reads those piles (or the legal actions), what they lead to is the same for
        # every position with the same stock, waste and counts: worked out once and kept
        # (``_cycle``), by the stock and the waste (and the counts, where a rule reads them).
        self._cycles: dict[Cycled, _Course] | None = {} if self._draws_never_win() else None
        self._kept = 0  # the places of the courses kept
        # The waste's sizes and the redeals made along a course, by the cards of the stock and
        # the waste, those on the waste, and the redeals left (-1: no limit).
        self._sizes_of: dict[tuple[int, int, int], tuple[list[int], list[int]]] = {}
        self._last_cycle: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], _Course]
        self._last_cycle = ((), (), (), _Course((), (), [0], [0], [-1]))

    def _draws_never_win(self) -> bool:
        """Whether no transition to a win reads the stock, the waste or the legal actions
        (so a draw or a redeal, which changes nothing else, never wins)."""
        spec = self.game.spec
        layout = self.game.layout
        for tr in spec.flow.transitions:
            if spec.flow.states[tr.dest].outcome != "won":
                continue
            for name in (*tr.conditions, *tr.unless):
                condition = spec.conditions[name]
                refs = getattr(condition, "piles", None)
                if not refs or condition.reads_legal_actions:
                    return False
                piles = layout.resolve((refs,) if isinstance(refs, str) else refs)
                if {self.stock, self.waste} & set(piles):
                    return False
        return True

    def _takes_waste(self, effect: object) -> bool:
        spec = getattr(effect, "spec", None)
        if spec is None:
            return False
        return self.waste in self.game.layout.resolve(spec.takes_from())

    def _name(self, steps: int, action: str) -> str:
        name = self._names.get((steps, action))
        if name is None:
            name = self._names[(steps, action)] = f"{steps}{STEP}{action}"
            self.macros[name] = (steps, action)
        return name

    def _macro(self, steps: int, name: str, dst: int, n: int) -> Action:
        """The macro action of ``steps`` turns, then ``name`` from the waste to ``dst`` (with
        ``n``), made once (a search lists millions)."""
        names, piles, counts = self._macro_radix
        key = ((steps * names + self._action_names[name]) * piles + dst + 1) * counts + n
        action = self._made.get(key)
        if action is None:
            if len(self._made) > 1_000_000:
                self._made.clear()
                self._played.clear()
            action = self._made[key] = new_action(self._name(steps, name), self.waste, dst, n)
            self._played[action] = new_action(name, self.waste, dst, n)
        return action

    def _played_after(self, action: Action, name: str) -> Action:
        """The action a macro plays after its draws and redeals (``name`` from the macro's
        piles): the one made with the macro, where it was made here."""
        played = self._played.get(action)
        if played is None:
            played = new_action(name, action.src, action.dst, action.n)
        return played

    def _turn(self, state: State) -> Action | None:
        """The draw or redeal that is legal in ``state`` (at most one is), if any."""
        if state.piles[self.stock]:
            return self._draw
        redeal = self.redeal
        if redeal is not None and redeal.generate(state):
            return self._redeal
        return None

    def expand(self, state: State) -> tuple[State, tuple[Action, ...]]:
        """``Game.expand`` with the draws and redeals replaced by macro actions."""
        game = self.game
        state, actions = game.expand(state)
        if game.outcome(state) is not None:
            return state, actions
        turns = self.turns
        out = [a for a in actions if a.name not in turns]
        if len(out) == len(actions):  # no draw or redeal now: nothing to reach
            return state, actions
        out += self._reached(state)
        return state, tuple(out)

    def _course(self, start: State) -> Iterator[State]:
        """The positions each draw or redeal from ``start`` leads to, in turn: up to one where
        the phase changes (given, then no more), or before the stock and the waste come back
        to what they were, or until no turn is left."""
        game = self.game
        seen = {self._repeats(start)}
        state = start
        for _ in range(1, self.most_steps):
            turn = self._turn(state)
            if turn is None:
                return
            state = game.successor(state, turn)
            if state.phase != start.phase:
                yield state
                return
            again = self._repeats(state)
            if again in seen:
                return
            seen.add(again)
            yield state

    def _cycle(self, start: State) -> _Course:
        """The course of draws and redeals from ``start``: worked out once for each stock,
        waste and counts (see ``_cycles``)."""
        cycles = self._cycles
        assert cycles is not None
        piles = start.piles
        stock, waste = piles[self.stock], piles[self.waste]
        # Where no rule reads the counts, a course is shared whatever they are (``_at``).
        counts = start.counts if self._counted else ()
        last = self._last_cycle
        # The children of one position mostly share its stock and waste: the very tuples.
        if stock is last[0] and waste is last[1] and counts is last[2]:
            return last[3]
        key = (stock, waste, counts)
        found = cycles.get(key)
        if found is None:
            found = self._course_of(stock, waste, start.counts)
            if self._kept > PLACES_KEPT:
                cycles.clear()
                self._kept = 0
            cycles[key] = found
            self._kept += len(found.sizes)
        self._last_cycle = (stock, waste, counts, found)
        return found

    def _course_of(
        self, stock: tuple[int, ...], waste: tuple[int, ...], counts: tuple[int, ...]
    ) -> _Course:
        """The course of draws and redeals from this stock, waste and counts (``_Course``),
        with the face of the waste's top card at each place."""
        total, first = len(stock) + len(waste), len(waste)
        redeal = self.redeal
        left = -1
        if redeal is not None and redeal.limit is not None:
            left = max(0, redeal.limit - counts[redeal.counter])
        at = (total, first, left)
        found = self._sizes_of.get(at)
        if found is None:
            if len(self._sizes_of) > 100_000:
                self._sizes_of.clear()
            found = self._sizes_of[at] = self._places(total, first, left)
        sizes, redeals = found
        # The face of the waste's top card at each place the turns lead to (not the start,
        # which no macro plays from): the card that many cards down the order of both piles
        # (the waste's from its bottom, then the stock's from its top), turned up by the draw
        # unless it deals face down.
        tops = [-1] * len(sizes)
        if not self.draw.flag:
            for k in range(1, len(sizes)):
                size = sizes[k]
                if size:
                    tops[k] = FACE[waste[size - 1] if size <= first else stock[total - size]]
        return _Course(stock, waste, sizes, redeals, tops)

    def _places(self, total: int, first: int, left: int) -> tuple[list[int], list[int]]:
        """The waste's size at each place of a course (and the redeals made to get there)
        that starts with ``first`` of ``total`` cards on the waste and ``left`` redeals left
        (-1: no limit): each draw turns up to ``draw.count`` cards; with the stock empty, a
        redeal (where one is left) turns the waste back. The course ends where no turn is
        left, or before a place comes back."""
        per = self.draw.count
        redeal = self.redeal
        sizes, redeals = [first], [0]
        met = [False] * (total + 1)
        met[first] = True
        size, made = first, 0
        for _ in range(1, self.most_steps):
            if size < total:
                size = min(size + per, total)
            elif redeal is not None and total and left != made:
                size = 0
                made += 1
            else:
                break
            if left < 0:  # no limit: the course goes round, and stops where it came before
                if met[size]:
                    break
                met[size] = True
            sizes.append(size)
            redeals.append(made)
        return sizes, redeals

    def _at(self, start: State, course: _Course, steps: int) -> State:
        """``start``, on whose stock and waste ``course`` begins, after ``steps`` draws and
        redeals: the piles of that place (made with the turns' own effects, then kept), and
        the counts of ``start`` with the redeals made on the way."""
        where = course.where
        place = where[steps]
        if place is None:
            size = course.sizes[steps]
            draw = self.draw
            if not course.redeals[steps]:
                stock, waste = course.stock, course.waste
                place = draw.dealt_cards(stock, waste, size - len(waste))
            else:
                turned = course.turned
                if turned is None:
                    redeal = self.redeal
                    assert redeal is not None
                    stock, waste = course.stock, course.waste
                    whole = draw.dealt_cards(stock, waste, len(stock))[1]
                    turned = course.turned = redeal.turned(whole)
                place = draw.dealt_cards(turned, (), size)
            where[steps] = place
        pile_list = list(start.piles)
        pile_list[self.stock], pile_list[self.waste] = place
        counts = start.counts
        redeal = self.redeal
        if redeal is not None:
            for _ in range(course.redeals[steps]):
                counts = redeal.counted(counts)
        return new_state(tuple(pile_list), start.phase, counts)

    def _reached(self, start: State) -> list[Action]:
        """The macro actions of ``start``: for each position that draws and redeals lead to,
        a win there, or the actions that play the waste's top card there (those of the moves
        that take it alone first, then the other takers')."""
        piles = start.piles
        # Each move of the top card alone, with its targets that take something now.
        plays: list[tuple[str, list[tuple[int, int]]]] = []
        wanted = EVERY_FACE  # the faces some target of a waste card takes, as bits
        if self._blind:  # (elsewhere what the targets take may change with the draws)
            wanted = 0
            for move in self._direct:
                targets = move.wanted_by_target(piles)
                if targets:
                    plays.append((move.name, targets))
                    for _, taken in targets:
                        wanted |= taken
            for move in self._moves:  # (the other moves: listed in the position at a place)
                for _, taken in move.wanted_by_target(piles):
                    wanted |= taken
            now = self._taken
            for p in self._targets:
                wanted |= now.taken(piles, p)
        generic = bool(self._generic)
        waste = self.waste
        out: list[Action] = []
        if self._cycles is not None:
            course = self._cycle(start)
            tops = course.tops
            for steps in range(1, len(tops)):
                face = tops[steps]
                if face >= 0 and wanted >> face & 1:
                    if plays:
                        self._plays(plays, face, steps, out)
                    if generic:
                        self._waste_moves(self._at(start, course, steps), steps, out)
        else:
            for steps, state in enumerate(self._course(start), 1):
                if state.phase != start.phase:
                    if self.game.outcome(state) == "won":
                        out.append(Action(self._name(steps, "")))
                    break
                pile = state.piles[waste]
                if self._wanted_on_top(pile, wanted):
                    if plays:
                        self._plays(plays, FACE[pile[-1]], steps, out)
                    if generic:
                        self._waste_moves(state, steps, out)
        return out

    def _plays(
        self, plays: list[tuple[str, list[tuple[int, int]]]], face: int, steps: int,
        out: list[Action],
    ) -> None:  # fmt: skip
        """The macros of ``steps`` turns that play a waste card of ``face`` by the moves of
        the top card alone (``_reached``'s ``plays``)."""
        for name, targets in plays:
            for dst, taken in targets:
                if taken >> face & 1:
                    out.append(self._macro(steps, name, dst, 0))

    @staticmethod
    def _wanted_on_top(pile: tuple[int, ...], wanted: int) -> bool:
        """Whether the waste's top card is face up and one some pile takes (``wanted``)."""
        return bool(pile) and not pile[-1] & DOWN and bool(wanted >> FACE[pile[-1]] & 1)

    def _waste_moves(self, state: State, steps: int, out: list[Action]) -> None:
        """The moves of the waste's top card in ``state`` by the takers not played directly
        (``_direct``), as macros of ``steps`` turns."""
        waste = self.waste
        for effect in self._generic:
            for action in effect.generate(state):
                if action.src == waste:
                    out.append(self._macro(steps, action.name, action.dst, action.n))

    def _repeats(self, state: State) -> object:
        """What makes the stock's state come back: its and the waste's cards (and the
        redeals made, where their number is limited)."""
        piles = state.piles
        if self._counted:
            return (piles[self.stock], piles[self.waste], state.counts)
        return (piles[self.stock], piles[self.waste])

    def successor(self, state: State, action: Action) -> State:
        """``Game.successor`` for the actions ``expand`` lists, macros among them."""
        macro = self.macros.get(action.name)
        game = self.game
        if macro is None:
            return game.successor(state, action)
        steps, name = macro
        state = self._after_turns(state, steps)
        if not name:
            return state
        return game.successor(state, self._played_after(action, name))

    def _after_turns(self, state: State, steps: int) -> State:
        """The position ``steps`` draws and redeals lead to from ``state``."""
        if self._cycles is not None:
            return self._at(state, self._cycle(state), steps)
        for _ in range(steps):
            turn = self._turn(state)
            assert turn is not None
            state = self.game.successor(state, turn)
        return state

    def drawn(self, state: State, action: Action) -> tuple[State, Action] | None:
        """For a macro action that plays a card: the position its draws and redeals lead to,
        and the action played there (None for any other action)."""
        macro = self.macros.get(action.name)
        if macro is None or not macro[1]:
            return None
        steps, name = macro
        return self._after_turns(state, steps), self._played_after(action, name)

    def unfold(self, line: list[tuple[State, Action]]) -> list[tuple[State, Action]]:
        """A line of play with each macro action given as the game's own actions, each with
        the position it is played in."""
        game = self.game
        out: list[tuple[State, Action]] = []
        for state, action in line:
            macro = self.macros.get(action.name)
            if macro is None:
                out.append((state, action))
                continue
            steps, name = macro
            for _ in range(steps):
                turn = self._turn(state)
                assert turn is not None
                out.append((state, turn))
                state = game.expand(game.successor(state, turn))[0]
            if name:
                out.append((state, Action(name, action.src, action.dst, action.n)))
        return out


def stock_reach(game: Game) -> StockReach | None:
    """The stock's reach for a game where the rules make it sound (see the module); None
    elsewhere. Read from the rule file's actions and flow, never from the game's name."""
    spec = game.spec
    layout = game.layout
    playing = [name for name, state in spec.flow.states.items() if state.outcome is None]
    if len(playing) != 1 or spec.flow.states[playing[0]].autoplay:
        return None
    phase = playing[0]
    draws = [e for e in game.effects.values() if isinstance(e, Deal) and not e.automatic]
    if len(draws) != 1:
        return None
    draw = draws[0]
    stock, waste = draw.source, draw.target
    redeals = [e for e in game.effects.values() if isinstance(e, Redeal)]
    if len(redeals) > 1:
        return None
    redeal = redeals[0] if redeals else None
    if redeal is not None and (
        redeal.automatic or redeal.source != waste or redeal.target != stock
    ):
        return None
    turns = {draw.name} | ({redeal.name} if redeal else set())
    if not turns <= set(game.flow.player_triggers[phase]) or game.initial != phase:
        return None
    # Nothing else takes from the stock or gives to either pile; no automatic action touches
    # them (or reads them: a turn_up's piles).
    for name, effect in game.effects.items():
        if name in turns:
            continue
        action = effect.spec
        takes = set(layout.resolve(action.takes_from()))
        gives = set(layout.resolve(action.gives_to()))
        if stock in takes or {stock, waste} & gives:
            return None
        if effect.automatic:
            piles = getattr(action, "piles", None)
            touched = takes | gives | set(layout.resolve(piles if isinstance(piles, tuple) else ()))
            if {stock, waste} & touched:
                return None
    # The player's actions have no conditions, and none leaves the one phase; the flow's
    # own transitions lead to an end, a loss only where no action is left.
    for tr in spec.flow.transitions:
        if tr.trigger != "auto":
            if tr.conditions or tr.unless or tr.dest != phase:
                return None
            continue
        outcome = spec.flow.states[tr.dest].outcome
        if outcome is None:
            return None
        if outcome != "won" and not all(
            spec.conditions[c].reads_legal_actions for c in (*tr.conditions, *tr.unless)
        ):
            return None
    return StockReach(game, draw, redeal)
