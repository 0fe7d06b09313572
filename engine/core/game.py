"""A game compiled from its GameSpec: the facade over layout, deal, effects, flow and notation.

Positions are immutable ``State`` tuples, so cloning is free, undo is a stack and states hash.
``Game.apply`` drives the compiled transition table directly (the fast path used by statistics,
benchmarks and search); ``Session`` drives the same table through a ``transitions`` machine.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ...rules.model import GameSpec
from ..vocab import DEAL_STEPS, EFFECTS, TESTS
from ..vocab.conditions import Condition
from ..vocab.effects import Effect
from .cards import DOWN, MASK, card_text, shuffled
from .deal import DealPlan
from .flow import AUTO, Flow
from .layout import Layout
from .notation import Notation
from .state import Action, IllegalAction, State, Trace


class Game:
    """Everything the engine knows about one game, ready to deal and play."""

    def __init__(self, spec: GameSpec, path: Path | None = None) -> None:
        self.spec = spec
        self.path = path
        self.id = spec.id
        self.name = spec.name
        self.layout = layout = Layout(spec)
        self.pile_names = layout.names
        self.cards = layout.cards
        steps = [DEAL_STEPS[type(step)](step, layout) for step in spec.deal]
        self._deal_plan = DealPlan(steps, len(layout), len(layout.cards))
        self.effects: dict[str, Effect[Any]] = {
            name: EFFECTS[type(a)](name, a, layout) for name, a in spec.actions.items()
        }
        self.conditions: dict[str, Condition] = {
            name: TESTS[type(c)](c, layout, self.legal_actions)
            for name, c in spec.conditions.items()
        }
        self.flow = Flow(spec, self.conditions, self.effects)
        self.states = self.flow.states
        self.initial = self.flow.initial
        self.outcomes = self.flow.outcomes
        self.notation = Notation(layout, self.effects)
        score = spec.score
        self._score_piles = (
            layout.resolve(score.piles) if score.piles else tuple(range(len(layout)))
        )
        self._score_face_up = score.count == "face_up"
        self.foundations = layout.with_role("foundation")
        self._cache_state: State | None = None
        self._cache_actions: tuple[Action, ...] = ()

    # --- dealing --------------------------------------------------------------------------

    def deal(self, order: Sequence[int]) -> State:
        """The dealt position for a deal order (first card listed, first card dealt)."""
        return self.flow.settle(State(self._deal_plan.deal(order), self.initial))

    def deal_seed(self, seed: int) -> State:
        return self.deal(self.seed_order(seed))

    def seed_order(self, seed: int) -> list[int]:
        return shuffled(self.cards, seed)

    # --- playing --------------------------------------------------------------------------

    def legal_actions(self, state: State) -> tuple[Action, ...]:
        """Every action the player may take now (empty in a terminal phase)."""
        if state is self._cache_state:  # settle() has just listed them for its 'stuck' test
            return self._cache_actions
        out: list[Action] = []
        flow = self.flow
        for trigger in flow.player_triggers[state.phase]:
            t = flow.open(state, trigger)
            if t is not None and t.effect is not None:
                out += t.effect.generate(state.piles)
        actions = tuple(out)
        self._cache_state, self._cache_actions = state, actions
        return actions

    def well_formed(self, action: object) -> str | None:
        """Why ``action`` is not an action of this game at all; None when it is one."""
        if not isinstance(action, Action):
            return f"not an action: {action!r}"
        if not isinstance(action.name, str) or action.name not in self.effects:
            return f"this game has no action {action.name!r}"
        fields = (action.src, action.dst, action.n)
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in fields):
            return f"{action.name}: piles and counts are given by number"
        if not self.effects[action.name].well_formed(action):
            return f"{action.name}: not an action of this game's form: {action!r}"
        return None

    def refusal(self, state: State, action: Action) -> str | None:
        """Why ``action`` is not allowed now, in one line; None when it is."""
        problem = self.well_formed(action)
        if problem is not None:
            return problem
        flow = self.flow
        phase = state.phase
        if phase in flow.outcomes:
            return f"the game is over ({flow.outcomes[phase]})"
        if action.name not in flow.player_triggers[phase]:
            return f"'{action.name}' is not possible while {flow.phase_text(phase)}"
        if flow.open(state, action.name) is None:
            return f"{action.name} is not possible {flow.blocking(state, action.name)}"
        return self.effects[action.name].refusal(state.piles, action)

    def apply(self, state: State, action: Action, trace: Trace | None = None) -> State:
        """The position after ``action``; IllegalAction (state untouched) when not allowed."""
        t = self.flow.open(state, action.name) if self.well_formed(action) is None else None
        if t is None or t.effect is None or not t.effect.allows(state.piles, action):
            raise IllegalAction(self.refusal(state, action) or f"{action.name} is not allowed")
        return self.flow.settle(State(t.effect.apply(state.piles, action, trace), t.dest))

    def settle(self, state: State) -> State:
        """Follow 'auto' transitions (outcomes, phase changes) until none applies."""
        return self.flow.settle(state)

    def is_terminal(self, state: State) -> bool:
        return state.phase in self.outcomes

    def outcome(self, state: State) -> str | None:
        return self.outcomes.get(state.phase)

    def autoplays(self, state: State) -> bool:
        return self.states[state.phase].autoplay

    def score(self, state: State) -> int:
        piles = state.piles
        if self._score_face_up:
            return sum(1 for i in self._score_piles for c in piles[i] if not c & DOWN)
        return sum(len(piles[i]) for i in self._score_piles)

    def foundation_cards(self, state: State) -> int:
        return sum(len(state.piles[i]) for i in self.foundations)

    # --- text -----------------------------------------------------------------------------

    def action_text(self, action: Action) -> str:
        return self.notation.text(action)

    def parse_action(self, text: str) -> Action:
        return self.notation.parse(text)

    def pile_text(self, state: State, pile: int) -> list[str]:
        return ["##" if c & DOWN else card_text(c & MASK) for c in state.piles[pile]]


__all__ = ["AUTO", "Action", "Game", "IllegalAction", "State"]
