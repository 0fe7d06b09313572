"""A game compiled from its GameSpec: the facade over layout, deal, effects, flow and notation.

Positions are immutable ``State`` tuples, so cloning is free, undo is a stack and states hash.
``Game.apply`` drives the compiled transition table directly (the fast path used by statistics,
benchmarks and search); ``Session`` drives the same table through a ``transitions`` machine.
Both play an action the same way (``perform``): its effect, then every automatic action the
rules call for, then the flow's 'auto' transitions.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ...rules.errors import printable
from ...rules.model import GameSpec
from ..core.accept_rules import Table
from ..core.cards import DOWN, FACE, MASK, DeckError, card_text, shuffled
from ..core.deal import DealPlan
from ..core.keys import PositionKeys, face_classes
from ..core.layout import Layout
from ..core.notation import Notation
from ..core.seeds import Seed, ms_faces, ms_number
from ..core.state import Action, GameStalled, IllegalAction, State, Trace, new_state
from ..vocab.accepts import pile_rules, relation_table
from ..vocab.conditions import TESTS, Condition
from ..vocab.deal_steps import DEAL_STEPS
from ..vocab.effects import EFFECTS, Effect
from .flow import AUTO, Flow


class Game:
    """Everything the engine knows about one game, ready to deal and play."""

    def __init__(self, spec: GameSpec, path: Path | None = None) -> None:
        self.spec = spec
        self.path = path
        self.id = spec.id
        self.name = spec.name
        self.layout = layout = Layout(spec, pile_rules)
        self.pile_names = layout.names
        self.cards = layout.cards
        steps = [DEAL_STEPS[type(step)](step, layout) for step in spec.deal]
        self._deal_plan = DealPlan(steps, len(layout), len(layout.cards))
        self.effects: dict[str, Effect[Any]] = {
            name: EFFECTS[type(a)](name, a, layout) for name, a in spec.actions.items()
        }
        counting = [e for e in self.effects.values() if e.keeps_count]
        for index, effect in enumerate(counting):
            effect.counter = index
        self._no_counts = (0,) * len(counting)
        self.conditions: dict[str, Condition] = {
            name: TESTS[type(c)](c, layout, self.legal_actions)
            for name, c in spec.conditions.items()
        }
        for effect in self.effects.values():
            effect.bind(self.conditions)
        self.automatic = tuple(e for e in self.effects.values() if e.automatic)
        players = {n: e for n, e in self.effects.items() if not e.automatic}
        lazy = frozenset(n for n, c in spec.conditions.items() if c.reads_legal_actions)
        self.flow = Flow(spec, self.conditions, players, lazy)
        self.states = self.flow.states
        self.initial = self.flow.initial
        self.outcomes = self.flow.outcomes
        self.notation = Notation(layout, players)
        score = spec.score
        self.foundations = layout.with_role("foundation")
        self._score_piles = (
            layout.resolve(score.piles)
            if score.piles
            else self.foundations or tuple(range(len(layout)))
        )
        self._score_face_up = score.count == "face_up"
        # With 'in_place': the rows of the grid group counted.
        self._score_rows = (
            layout.rows(self._score_piles, score.piles[0])
            if score.count == "in_place" and score.piles
            else None
        )
        self._counting = counting
        self.keys = self.position_keys()
        # For each action of the player: which of its two piles are given, and whether it
        # takes a count. An effect's form depends only on these and on the piles existing
        # (``Effect.well_formed``), so checking an action is a dict lookup and a few
        # comparisons, and the table grows with the actions, not with the square of the piles.
        self._pile_count = count = len(layout)
        self._shapes: dict[str, tuple[frozenset[tuple[bool, bool]], bool]] = {
            name: (
                frozenset(
                    (src >= 0, dst >= 0)
                    for src in (-1, 0)
                    for dst in (-1, 0)
                    if count > 0 and effect.well_formed(Action(name, src, dst))
                ),
                effect.takes_number,
            )
            for name, effect in players.items()
        }
        self._cache_state: State | None = None
        self._cache_actions: tuple[Action, ...] = ()
        self._dests: dict[str, str] = {}  # for the cached state: each trigger's destination

    def position_keys(self) -> PositionKeys:
        """Position keys for this game's rules, made afresh (a search may key more loosely
        than the game's own ``keys``, which tell every position a player can reach apart)."""
        keys = PositionKeys(self.spec, self.layout, self._deal_plan.filled)
        keys.counts_read([e.reads_count() for e in self._counting])
        keys.faces_alike(self._faces_alike())
        return keys

    def _faces_alike(self) -> tuple[int, ...]:
        """For each face, the smallest face that no rule of the game tells apart from it
        (``keys.face_classes``): read from the piles' accept rules, the tables the effects
        read cards by, and the relations the tests read them by. Each face alone when some
        effect or test reads cards in a way it does not describe (``Effect.faces_read``,
        ``ConditionSpec.relations_read``)."""
        alone = tuple(range(52))
        tables: list[Table] = []
        sets: list[frozenset[int]] = []
        for rule in {id(r): r for r in self.layout.accepts}.values():
            rule_tables, rule_sets = rule.faces_read()
            tables += rule_tables
            sets += rule_sets
        for effect in self.effects.values():
            read = effect.faces_read()
            if read is None:
                return alone
            tables += read
        for condition in self.spec.conditions.values():
            relations = condition.relations_read()
            if relations is None:
                return alone
            tables += [relation_table((relation,), False, 0) for relation in relations]
        return face_classes(tables, sets)

    # --- dealing --------------------------------------------------------------------------

    def deal(self, order: Sequence[int]) -> State:
        """The dealt position for a deal order (first card listed, first card dealt)."""
        dealt = State(self._deal_plan.deal(order), self.initial, self._no_counts)
        return self.flow.settle(self.follow_up(dealt))

    def deal_seed(self, seed: Seed) -> State:
        return self.deal(self.seed_order(seed))

    def seed_order(self, seed: Seed) -> list[int]:
        """The deal order of a deal number: ``N`` or ``ms:N`` (see ``seeds``)."""
        number = ms_number(seed)
        if number is None:
            return shuffled(self.cards, int(seed))
        if not self.deals_like_freecell():
            raise DeckError(
                f"{self.name} does not deal its cards as FreeCell does (52 cards, row by row "
                "onto eight piles): Microsoft's deal numbers do not apply"
            )
        by_face = {FACE[c]: c for c in self.cards}
        return [by_face[face] for face in ms_faces(number)]

    def deals_like_freecell(self) -> bool:
        """Whether the deal lays 52 cards row by row onto eight piles, FreeCell's way."""
        if len(self.cards) != 52 or len({FACE[c] for c in self.cards}) != 52:
            return False
        piles = self._deal_plan.deal(list(range(52)))
        used = [p for p in piles if p]
        firsts = sorted(used, key=lambda p: p[0])
        return len(used) == 8 and all(
            list(pile) == list(range(column, 52, 8)) for column, pile in enumerate(firsts)
        )

    # --- playing --------------------------------------------------------------------------

    def legal_actions(self, state: State) -> tuple[Action, ...]:
        """Every action the player may take now (empty in a terminal phase)."""
        if state is self._cache_state:  # settle() has just listed them for its 'stuck' test
            return self._cache_actions
        out: list[Action] = []
        fixed = self.flow.always_open.get(state.phase)
        if fixed is not None:
            effects: tuple[Effect[Any], ...] = fixed[0]  # (typed: a native call each)
            for effect in effects:
                out += effect.generate(state)
            actions = tuple(out)
            self._cache_state, self._cache_actions, self._dests = state, actions, fixed[1]
            return actions
        flow = self.flow
        dests: dict[str, str] = {}
        for trigger in flow.player_triggers[state.phase]:
            t = flow.open(state, trigger)
            if t is not None and t.effect is not None:
                out += t.effect.generate(state)
                dests[trigger] = t.dest
        actions = tuple(out)
        self._cache_state, self._cache_actions, self._dests = state, actions, dests
        return actions

    def well_formed(self, action: object) -> str | None:
        """Why ``action`` is not an action of this game at all; None when it is one.

        Piles and counts must be ints (not names, floats or bools) and piles must exist, so
        that no malformed action reaches an effect (where -1 or 999 would index a pile).
        """
        # The fields are read as objects: compiled code checks (and converts) a field of a
        # declared type when it reads it, so True would read as the int 1.
        if type(action) is Action:
            given: tuple[object, ...] = tuple(action)
            name, src, dst, n = given
            shape = self._shapes.get(name) if type(name) is str else None
            if shape is not None and type(src) is int and type(dst) is int and type(n) is int:
                count = self._pile_count
                if (
                    -1 <= src < count
                    and -1 <= dst < count
                    and (src >= 0, dst >= 0) in shape[0]
                    and (n == 0 or (n > 0 and shape[1]))
                ):
                    return None
        if not isinstance(action, Action):
            return f"not an action: {printable(repr(action), 80)}"
        fields: tuple[object, ...] = tuple(action)
        name = fields[0]
        effect = self.effects.get(name) if isinstance(name, str) else None
        if effect is None or effect.automatic:
            return f"this game has no action {printable(repr(name), 40)} for the player"
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in fields[1:]):
            return f"{name}: piles and counts are given by number"
        if not effect.well_formed(action):
            return (
                f"{action.name}: not an action of this game's form: {printable(repr(action), 80)}"
            )
        return None

    def refusal(self, state: State, action: object) -> str | None:
        """Why ``action`` is not allowed now, in one line; None when it is."""
        # ``action: object``: anything is refused in words (a compiled build would otherwise
        # raise TypeError for an argument that is no tuple).
        problem = self.well_formed(action)
        if problem is not None or not isinstance(action, Action):
            return problem or "not an action"
        flow = self.flow
        phase = state.phase
        if phase in flow.outcomes:
            return f"the game is over ({flow.outcomes[phase]})"
        if action.name not in flow.player_triggers[phase]:
            return f"'{action.name}' is not possible {flow.phase_text(phase)}"
        if flow.open(state, action.name) is None:
            return f"{action.name} is not possible {flow.blocking(state, action.name)}"
        return self.effects[action.name].refusal(state, action)

    def apply(self, state: State, action: object, trace: Trace | None = None) -> State:
        """The position after ``action``; IllegalAction (state untouched) when not allowed."""
        if self.well_formed(action) is not None or not isinstance(action, Action):
            raise IllegalAction(self.refusal(state, action) or "not an action")
        t = self.flow.open(state, action.name)
        if t is None or t.effect is None or not t.effect.allows(state, action):
            raise IllegalAction(self.refusal(state, action) or f"{action.name} is not allowed")
        after = self.perform(state, t.effect, action, trace)
        return self.flow.settle(new_state(after.piles, t.dest, after.counts))

    def perform(
        self, state: State, effect: Effect[Any], action: Action, trace: Trace | None = None
    ) -> State:
        """An action's effect and what follows from it by itself; the phase is unchanged."""
        return self.follow_up(effect.apply(state, action, trace), trace)

    def follow_up(self, state: State, trace: Trace | None = None) -> State:
        """Play every automatic action while one is legal (first listed first).

        Each automatic action makes progress that cannot be undone (the validator sees to
        it), so this ends; a bound guards against a game built without validation.
        """
        automatic = self.automatic
        if not automatic:
            return state
        for _ in range(len(self.cards) * len(automatic) + 1):
            for effect in automatic:
                actions = effect.generate(state)
                if actions:
                    state = effect.apply(state, actions[0], trace)
                    break
            else:
                return state
        raise GameStalled("the game's automatic actions keep playing without end")

    def settle(self, state: State) -> State:
        """Follow 'auto' transitions (outcomes, phase changes) until none applies."""
        return self.flow.settle(state)

    # --- search: the same rules, without checks the search does not need ----------------

    def successor(self, state: State, action: Action) -> State:
        """The position after ``action``, which must be one of ``legal_actions(state)``.

        No check is repeated, and the 'auto' transitions that ask which actions are legal are
        left to ``expand``, which lists them anyway: ``expand(successor(s, a))[0]`` is
        ``apply(s, a)``.
        """
        effect = self.effects[action.name]
        fixed = self.flow.always_open.get(state.phase)
        if fixed is not None:
            dest = fixed[1].get(action.name)
        else:
            dest = self._dests.get(action.name) if state is self._cache_state else None
        if dest is None:
            t = self.flow.open(state, action.name)
            if t is None:  # pragma: no cover - a legal action always has an open transition
                raise IllegalAction(f"{action.name} is not legal here")
            dest = t.dest
        after = self.follow_up(effect.apply(state, action, None))
        if after.phase != dest:
            after = new_state(after.piles, dest, after.counts)
        return self.flow.settle_eager(after)

    def expand(self, state: State) -> tuple[State, tuple[Action, ...]]:
        """A position made final by the deferred 'auto' transitions, and its legal actions."""
        deferred = self.flow.deferred
        for _ in range(len(self.states) + 1):
            actions = self.legal_actions(state)
            for t in deferred[state.phase]:
                if t.check is None or t.check(state):
                    state = self.flow.settle_eager(new_state(state.piles, t.dest, state.counts))
                    break
            else:
                return state, actions
        return state, self.legal_actions(state)

    def is_terminal(self, state: State) -> bool:
        return state.phase in self.outcomes

    def outcome(self, state: State) -> str | None:
        return self.outcomes.get(state.phase)

    def autoplays(self, state: State) -> bool:
        return self.states[state.phase].autoplay

    def safe_actions(self, state: State) -> list[Action]:
        """The legal actions that can never hurt, as the rule file declares ('safe')."""
        effects = self.effects
        return [a for a in self.legal_actions(state) if effects[a.name].is_safe(state, a)]

    def score(self, state: State) -> int:
        piles = state.piles
        if self._score_rows is not None:
            return sum(self.layout.in_place(piles, row) for row in self._score_rows)
        if self._score_face_up:
            return sum(1 for i in self._score_piles for c in piles[i] if not c & DOWN)
        return sum(len(piles[i]) for i in self._score_piles)

    def foundation_cards(self, state: State) -> int:
        return sum(len(state.piles[i]) for i in self.foundations)

    # --- text -----------------------------------------------------------------------------

    def action_text(self, action: Action, state: State | None = None) -> str:
        """The text of an action; with the position it is played in, the text that means
        exactly this action there (``parse_action(action_text(a, s), s) == a``)."""
        return self.notation.text(action, state, None if state is None else self.legal_actions)

    def parse_action(self, text: str, state: State | None = None) -> Action:
        """An action from its text; with a position, a text that could mean several actions
        is read as the one that is legal there (ValueError when it cannot be read)."""
        return self.notation.parse(text, state, self.legal_actions if state else None)

    def pile_text(self, state: State, pile: int) -> list[str]:
        return ["##" if c & DOWN else card_text(c & MASK) for c in state.piles[pile]]


__all__ = ["AUTO", "Action", "Game", "IllegalAction", "State"]
