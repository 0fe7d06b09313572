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
# The places on the stock's courses kept at once (``StockReach._cycle``): about 100 bytes each.
RINGS_KEPT = 200_000
# The stock, the waste and the counts of a position (what draws and redeals change).
Cycled = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


class _Ring:
    """One course of draws and redeals, worked out once (``StockReach._cycle``): the stock, the
    waste and the counts at each place on it, the first where it was worked out from. Where
    the last place turns to the first again (``closed``), every place's course goes round the
    ring, and going once round adds ``shift`` to the counts. Where no rule reads the counts,
    they are those of the position it was worked out from: another position on it carries
    its own counts by the changes from its place (draws and redeals change them alike, and
    never read them)."""

    __slots__ = ("closed", "places", "shift")

    def __init__(self, places: list[Cycled], closed: bool, shift: tuple[int, ...]) -> None:
        self.places = places
        self.closed = closed
        self.shift = shift


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
        self._sizes = (len(game.effects), len(game.layout) + 1, len(game.cards) + 1)
        self._made: dict[int, Action] = {}
        self.most_steps = 2 * len(game.cards) * ((redeal.limit or 0) + 2 if redeal else 1) + 2
        # Draws and redeals change the stock, the waste and the counts alone. Where no way to
        # win reads those piles (or the legal actions), what they lead to is the same for
        # every position with the same stock, waste and counts: worked out once and kept
        # (``_cycle``), each position's place on it by its stock and waste (and counts).
        self._cycles: dict[Cycled, tuple[_Ring, int]] | None = (
            {} if self._draws_never_win() else None
        )
        self._last_cycle: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], _Ring, int]
        self._last_cycle = ((), (), (), _Ring([((), (), ())], False, ()), 0)

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
        names, piles, counts = self._sizes
        key = ((steps * names + self._action_names[name]) * piles + dst + 1) * counts + n
        action = self._made.get(key)
        if action is None:
            if len(self._made) > 1_000_000:
                self._made.clear()
            action = self._made[key] = new_action(self._name(steps, name), self.waste, dst, n)
        return action

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

    def _cycle(self, start: State) -> tuple[_Ring, int]:
        """The course of draws and redeals ``start`` is on, and its place there: worked out
        once for each stock, waste and counts (see ``_cycles``), and where the turns come round
        to where they began, once for every place on the way (``_Ring``)."""
        cycles = self._cycles
        assert cycles is not None
        piles = start.piles
        stock, waste = piles[self.stock], piles[self.waste]
        # Where no rule reads the counts, a course is shared whatever they are (``_Ring``).
        counts = start.counts if self._counted else ()
        last = self._last_cycle
        # The children of one position mostly share its stock and waste: the very tuples.
        if stock is last[0] and waste is last[1] and counts is last[2]:
            return last[3], last[4]
        key = (stock, waste, counts)
        found = cycles.get(key)
        if found is None:
            found = self._ring(start, key)
        self._last_cycle = (stock, waste, counts, found[0], found[1])
        return found

    def _ring(self, start: State, key: Cycled) -> tuple[_Ring, int]:
        """Work out the course of draws and redeals from ``start`` and keep it (``_cycle``):
        the places ``_course`` would give, worked out on the two piles and the counts alone
        (where ``_cycles`` is kept, nothing else follows a turn: see ``_turned``)."""
        cycles = self._cycles
        assert cycles is not None
        counted = self._counted
        stock, waste, counts = key[0], key[1], start.counts
        places: list[Cycled] = [(stock, waste, counts)]
        # The places met, by the waste's size: a place comes back only with its sizes, and
        # comparing the few places of one size costs less than hashing every place's piles.
        met: dict[int, list[int]] = {len(waste): [0]}
        turned: Cycled | None = None
        again = False
        for _ in range(1, self.most_steps):
            turned = self._turned(stock, waste, counts)
            if turned is None:
                break
            stock, waste, counts = turned
            same_size = met.get(len(waste))
            if same_size is None:
                met[len(waste)] = [len(places)]
            else:
                for at in same_size:
                    place = places[at]
                    if (
                        place[1] == waste
                        and place[0] == stock
                        and (not counted or place[2] == counts)
                    ):
                        again = True
                        break
                if again:
                    break
                same_size.append(len(places))
            places.append(turned)
        # Unlimited turns that lead back to the start go round a ring: each place on it has
        # the same course, begun further on (and its counts moved on as much).
        if again and not counted and len(places) > 1 and stock == key[0] and waste == key[1]:
            shift = tuple([a - b for a, b in zip(counts, start.counts, strict=True)])
            ring = _Ring(places, True, shift)
            if len(cycles) + len(places) > RINGS_KEPT:
                cycles.clear()
            for at, (stock, waste, _) in enumerate(places):
                cycles[(stock, waste, ())] = (ring, at)
            return ring, 0
        if len(cycles) >= RINGS_KEPT:
            cycles.clear()
        found = cycles[key] = (_Ring(places, False, ()), 0)
        return found

    def _turned(
        self, stock: tuple[int, ...], waste: tuple[int, ...], counts: tuple[int, ...]
    ) -> Cycled | None:
        """The stock, the waste and the counts after the draw or redeal that is legal with
        them (``_turn``), if any: the effects' own work on those piles. Where no way to win
        reads the stock, the waste or the legal actions, that is all a turn does: the rules
        leave nothing else to follow it (``stock_reach``: no automatic action that touches or
        reads either pile, no action of the player's that leaves the one phase, no loss but
        one that reads the legal actions, which ``expand`` asks)."""
        if stock:
            stock, waste = self.draw.dealt(stock, waste)
            return stock, waste, counts
        redeal = self.redeal
        if redeal is not None and redeal.ready(waste, stock, counts):
            return redeal.turned(waste), (), redeal.counted(counts)
        return None

    def _at(self, start: State, ring: _Ring, at: int, steps: int) -> State:
        """``start``, which is at place ``at`` of ``ring``, after ``steps`` draws and redeals."""
        places = ring.places
        to = at + steps
        wrapped = to >= len(places)
        if wrapped:
            to -= len(places)
        pile_list = list(start.piles)
        pile_list[self.stock], pile_list[self.waste], counts = places[to]
        if not self._counted:  # the ring's counts are another position's: carry the change
            base = places[at][2]
            own = start.counts
            if wrapped:
                shift = ring.shift
                counts = tuple([own[i] + counts[i] - base[i] + shift[i] for i in range(len(own))])
            elif counts is base:
                counts = own
            else:
                counts = tuple([own[i] + counts[i] - base[i] for i in range(len(own))])
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
            ring, at = self._cycle(start)
            places = ring.places
            size = len(places)
            for steps in range(1, size if ring.closed else size - at):
                to = at + steps
                pile = places[to - size if to >= size else to][1]
                if self._wanted_on_top(pile, wanted):
                    if plays:
                        self._plays(plays, FACE[pile[-1]], steps, out)
                    if generic:
                        self._waste_moves(self._at(start, ring, at, steps), steps, out)
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
        return game.successor(state, new_action(name, action.src, action.dst, action.n))

    def _after_turns(self, state: State, steps: int) -> State:
        """The position ``steps`` draws and redeals lead to from ``state``."""
        if self._cycles is not None:
            ring, at = self._cycle(state)
            return self._at(state, ring, at, steps)
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
        return self._after_turns(state, steps), new_action(name, action.src, action.dst, action.n)

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
