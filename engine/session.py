"""A game being played: the phase machine (``transitions``), the position, undo and redo.

The machine is built from the same compiled transition table that ``Game.apply`` drives: its
states are the game's phases, its triggers the player's actions, its conditions the rule file's
named conditions plus the effect's own legality, and its ``before`` callback applies the effect.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from transitions import Machine

from .effects import Action, Trace
from .game import AUTO, Game, IllegalAction, State, Transition


class _Model:
    """The object whose ``state`` attribute the machine moves from phase to phase."""

    state: str


class Session:
    """One game in play, python-chess style: ``push`` an action, ``pop`` to undo it."""

    def __init__(self, game: Game, start: State) -> None:
        self.game = game
        self.start = start
        self.position = start
        self.history: list[tuple[State, Action]] = []
        self.undone: list[tuple[State, Action]] = []
        self.trace: Trace | None = None
        self._model = _Model()
        self.machine = Machine(
            model=self._model,
            states=list(game.states),
            initial=start.phase,
            transitions=[self._edge(t) for t in game.transitions],
            auto_transitions=False,
            send_event=False,
        )

    def _edge(self, t: Transition) -> dict[str, Any]:
        def holds(check: Callable[[State], bool]) -> Callable[..., bool]:
            return lambda *_: check(self.position)

        conditions = [holds(c) for _, c in t.conditions]
        before: list[Callable[..., None]] = []
        effect = t.effect
        if effect is not None:
            conditions.append(lambda action: effect.refusal(self.position.piles, action) is None)

            def run(action: Action) -> None:
                piles = effect.apply(self.position.piles, action, self.trace)
                self.position = State(piles, self.position.phase)

            before.append(run)
        return {
            "trigger": t.trigger,
            "source": t.source,
            "dest": t.dest,
            "conditions": conditions,
            "unless": [holds(u) for _, u in t.unless],
            "before": before,
            "after": [self._sync],
        }

    def _sync(self, *_: object) -> None:
        self.position = State(self.position.piles, self._model.state)

    def _fire(self, trigger: str, *args: object) -> bool:
        if trigger not in self.machine.get_triggers(self._model.state):
            return False
        return bool(self.machine.events[trigger].trigger(self._model, *args))

    # --- the player's side ----------------------------------------------------------------

    @property
    def phase(self) -> str:
        return self.position.phase

    def legal_actions(self) -> tuple[Action, ...]:
        return self.game.legal_actions(self.position)

    def is_over(self) -> bool:
        return self.game.is_terminal(self.position)

    def push(self, action: Action) -> None:
        """Play ``action``; IllegalAction with the reason (and nothing changed) if not allowed."""
        before = self.position
        reason = self.game.refusal(before, action)
        if reason is not None:
            raise IllegalAction(reason)
        if not self._fire(action.name, action):  # pragma: no cover - refusal() said it was legal
            self._restore(before)
            raise IllegalAction(f"{action.name} is not allowed now")
        for _ in range(len(self.game.states) + 1):
            if not self._fire(AUTO):
                break
        self.history.append((before, action))
        self.undone.clear()

    def autoplay(self) -> list[Action]:
        """Play the only legal action while the phase says the engine plays by itself."""
        played: list[Action] = []
        while not self.is_over() and self.game.autoplays(self.position):
            actions = self.legal_actions()
            if len(actions) != 1:
                break
            self.push(actions[0])
            played.append(actions[0])
        return played

    def pop(self) -> Action:
        """Undo the last action; IndexError when there is nothing to undo."""
        if not self.history:
            raise IndexError("nothing to undo")
        before, action = self.history.pop()
        self.undone.append((self.position, action))
        self._restore(before)
        return action

    def redo(self) -> Action:
        if not self.undone:
            raise IndexError("nothing to redo")
        after, action = self.undone.pop()
        self.history.append((self.position, action))
        self._restore(after)
        return action

    def _restore(self, state: State) -> None:
        self.position = state
        self.machine.set_state(state.phase, model=self._model)
        self._model.state = state.phase
