"""The flow of a game compiled into a transition table, and the interpreter that drives it.

``Game.apply`` and search drive this table directly (a dict lookup per step); ``Session`` builds
a ``transitions`` machine from the same table for interactive play, and a property test keeps
the two equal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...rules.model import GameSpec
from ..core.state import State, new_state
from ..vocab.conditions import Condition

AUTO = "auto"


@dataclass(frozen=True, slots=True)
class Transition:
    trigger: str
    source: str
    dest: str
    conditions: tuple[tuple[str, Condition], ...]
    unless: tuple[tuple[str, Condition], ...]
    effect: Any  # the action's Effect; None for 'auto'
    # All conditions and unless-conditions folded into one call (None: always open).
    check: Condition | None


def _fold(conditions: Sequence[Condition], unless: Sequence[Condition]) -> Condition | None:
    """One callable for 'all conditions hold and no unless-condition does'."""
    if not conditions and not unless:
        return None
    if len(conditions) == 1 and not unless:
        return conditions[0]
    if len(unless) == 1 and not conditions:
        only = unless[0]
        return lambda s: not only(s)
    return lambda s: all(c(s) for c in conditions) and not any(u(s) for u in unless)


class Flow:
    """States, outcomes and the transition table of one game."""

    def __init__(
        self,
        spec: GameSpec,
        conditions: Mapping[str, Condition],
        effects: Mapping[str, Any],
        lazy: frozenset[str] = frozenset(),
    ) -> None:
        self.states = spec.flow.states
        self.initial = spec.flow.initial
        self.outcomes = {name: s.outcome for name, s in self.states.items() if s.outcome}
        self.condition_text = {
            name: c.describe or name.replace("_", " ") for name, c in spec.conditions.items()
        }
        table: list[Transition] = []
        for tr in spec.flow.transitions:
            sources = (tr.source,) if isinstance(tr.source, str) else tr.source
            expanded: list[str] = []
            for src in sources:
                if src == "*":
                    expanded += [n for n, st in self.states.items() if st.outcome is None]
                else:
                    expanded.append(src)
            for src in expanded:
                table.append(
                    Transition(
                        trigger=tr.trigger,
                        source=src,
                        dest=tr.dest,
                        conditions=tuple((c, conditions[c]) for c in tr.conditions),
                        unless=tuple((c, conditions[c]) for c in tr.unless),
                        effect=effects.get(tr.trigger) if tr.trigger != AUTO else None,
                        check=_fold(
                            [conditions[c] for c in tr.conditions],
                            [conditions[c] for c in tr.unless],
                        ),
                    )
                )
        self.transitions = tuple(table)
        self.by_trigger: dict[tuple[str, str], tuple[Transition, ...]] = {}
        for t in self.transitions:
            at = (t.source, t.trigger)
            self.by_trigger[at] = (*self.by_trigger.get(at, ()), t)
        # Search settles a position with the 'auto' transitions up to the first one that asks
        # which actions are legal ('eager'), and leaves the rest ('deferred') until the legal
        # actions are listed anyway (Game.expand): the same transitions, in the same order.
        self.eager: dict[str, tuple[Transition, ...]] = {}
        self.deferred: dict[str, tuple[Transition, ...]] = {}
        for state in self.states:
            autos = self.by_trigger.get((state, AUTO), ())
            cut = next(
                (
                    k
                    for k, t in enumerate(autos)
                    if any(name in lazy for name, _ in (*t.conditions, *t.unless))
                ),
                len(autos),
            )
            self.eager[state], self.deferred[state] = autos[:cut], autos[cut:]
        self.player_triggers: dict[str, tuple[str, ...]] = {
            state: tuple(
                dict.fromkeys(
                    t.trigger for t in self.transitions if t.source == state and t.trigger != AUTO
                )
            )
            for state in self.states
        }
        # For each phase whose every player trigger's first transition is always open: the
        # triggers' effects in their order, and each trigger's destination. Listing the legal
        # actions there, or playing one, asks no transition (``Game.legal_actions``).
        self.always_open: dict[str, tuple[tuple[Any, ...], dict[str, str]]] = {}
        for state, triggers in self.player_triggers.items():
            firsts = [self.by_trigger[(state, trigger)][0] for trigger in triggers]
            if all(t.check is None for t in firsts):
                acting = [t for t in firsts if t.effect is not None]
                self.always_open[state] = (
                    tuple(t.effect for t in acting),
                    {t.trigger: t.dest for t in acting},
                )

    def open(self, state: State, trigger: str) -> Transition | None:
        """The first transition for ``trigger`` whose conditions hold now."""
        for t in self.by_trigger.get((state.phase, trigger), ()):
            if t.check is None or t.check(state):
                return t
        return None

    def settle(self, state: State) -> State:
        """Follow 'auto' transitions (outcomes, phase changes) until none applies.

        The validator refuses circles of 'auto' transitions, so this ends within one step
        per state.
        """
        for _ in range(len(self.states) + 1):
            t = self.open(state, AUTO)
            if t is None:
                return state
            state = new_state(state.piles, t.dest, state.counts)
        return state

    def settle_eager(self, state: State) -> State:
        """``settle`` without the transitions that ask which actions are legal."""
        for _ in range(len(self.states) + 1):
            for t in self.eager[state.phase]:
                if t.check is None or t.check(state):
                    state = new_state(state.piles, t.dest, state.counts)
                    break
            else:
                return state
        return state

    def phase_text(self, phase: str) -> str:
        """Where the game is, for a refusal: the phase by name, with its help in brackets (a
        help says what the player does, '(fill the gap from the waste)', not a clause that
        could follow 'while')."""
        help_text = self.states[phase].help
        return f"in the phase '{phase}'" + (f" ({help_text})" if help_text else "")

    def blocking(self, state: State, trigger: str) -> str:
        """Why no transition for ``trigger`` is open now, in words."""
        for t in self.by_trigger.get((state.phase, trigger), ()):
            for name, c in t.conditions:
                if not c(state):
                    return f"unless {self.condition_text[name]}"
            for name, u in t.unless:
                if u(state):
                    return f"while {self.condition_text[name]}"
        return "now"
