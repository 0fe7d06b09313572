"""A game being played: the phase machine (``transitions``), the position, undo and redo.

The machine is built from the same compiled transition table that ``Game.apply`` drives: its
states are the game's phases, its triggers the player's actions, its conditions the rule file's
named conditions plus the effect's own legality, and its ``before`` callback applies the effect.
In play the machine decides the player's actions; the text of a refusal is worked out only when
it refuses. Actions the engine plays by itself (an autoplaying phase, safe moves, a forced
finish) are legal by construction and go through the same table directly (``Game.apply``); the
machine is built when the player first acts, so a game that plays itself never imports it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from ..core.state import Action, GameStalled, IllegalAction, State, Trace
from ..game.flow import AUTO, Transition
from ..game.game import Game

if TYPE_CHECKING:  # pragma: no cover
    from transitions import Machine

# Decides whether the engine may play an action by itself in a position.
Safe = Callable[[State, Action], bool]

# An autoplaying phase plays at most this many actions per card before it is called stalled.
_AUTOPLAY_PER_CARD = 4

__all__ = ["GameStalled", "Session"]


class _Model:
    """The object whose ``state`` attribute the machine moves from phase to phase."""

    state: str


class Played(NamedTuple):
    """One action in a session's history: the position before it, the action, and whether the
    engine played it by itself (``auto``) rather than the player choosing it."""

    before: State
    action: Action
    auto: bool = False


class Session:
    """One game in play, python-chess style: ``push`` an action, ``pop`` to undo it."""

    def __init__(self, game: Game, start: State) -> None:
        self.game = game
        self.start = start
        self.position = start
        self.history: list[Played] = []
        # Undone actions, last undone last; ``before`` holds the position *after* the action.
        self.undone: list[Played] = []
        self.trace: Trace | None = None
        self._model = _Model()
        self._machine: Machine | None = None

    @property
    def machine(self) -> Machine:
        """The phase machine, built on first use, in the current phase."""
        if self._machine is None:
            from transitions import Machine

            self._machine = Machine(
                model=self._model,
                states=list(self.game.states),
                initial=self.position.phase,
                transitions=[self._edge(t) for t in self.game.flow.transitions],
                auto_transitions=False,
                send_event=False,
            )
        elif self._model.state != self.position.phase:
            self._machine.set_state(self.position.phase, model=self._model)
        return self._machine

    def _edge(self, t: Transition) -> dict[str, Any]:
        def holds(check: Callable[[State], bool]) -> Callable[..., bool]:
            return lambda *_: check(self.position)

        conditions = [holds(c) for _, c in t.conditions]
        before: list[Callable[..., None]] = []
        effect = t.effect
        if effect is not None:
            conditions.append(lambda action: effect.allows(self.position, action))

            def run(action: Action) -> None:
                self.position = self.game.perform(self.position, effect, action, self.trace)

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
        self.position = State(self.position.piles, self._model.state, self.position.counts)

    def _fire(self, trigger: str, *args: object) -> bool:
        from transitions import MachineError

        machine = self.machine
        try:
            return bool(machine.events[trigger].trigger(self._model, *args))
        except (KeyError, MachineError):  # no such trigger, or none from this phase
            return False

    # --- the player's side ----------------------------------------------------------------

    @property
    def phase(self) -> str:
        return self.position.phase

    def legal_actions(self) -> tuple[Action, ...]:
        return self.game.legal_actions(self.position)

    def is_over(self) -> bool:
        return self.game.is_terminal(self.position)

    def push(self, action: Action, *, auto: bool = False) -> None:
        """Play ``action``; IllegalAction with the reason (and nothing changed) if not allowed.

        ``auto``: the engine plays it by itself (through the compiled table); undo takes it
        back together with the player's choice that led to it.
        """
        before = self.position
        problem = self.game.well_formed(action)
        if problem is not None:
            raise IllegalAction(problem)
        if auto:
            self.position = self.game.apply(before, action, self.trace)
        else:
            if not self._fire(action.name, action):
                self._restore(before)
                raise IllegalAction(
                    self.game.refusal(before, action) or f"{action.name} is not allowed now"
                )
            for _ in range(len(self.game.states) + 1):
                if not self._fire(AUTO):
                    break
        self.history.append(Played(before, action, auto))
        self.undone.clear()

    def push_recorded(self, action: Action, *, auto: bool = False) -> None:
        """Play an action read from a record, as ``push`` does, through the compiled
        transition table (``Game.apply``: the same rules and checks, the 'auto' transitions
        followed) instead of the phase machine, whose trigger costs several times more: a
        long record is replayed in a fraction of the time. IllegalAction as ``push``."""
        before = self.position
        self.position = self.game.apply(before, action, self.trace)
        self.history.append(Played(before, action, auto))
        self.undone.clear()

    def autoplay(self) -> list[Action]:
        """Play the only legal action while the phase says the engine plays by itself.

        GameStalled when a position comes back or the count of actions passes what any game
        could need: a rule file whose self-playing phase would never end stops with a message.
        """
        played: list[Action] = []
        seen = {self.position}
        limit = _AUTOPLAY_PER_CARD * len(self.game.cards)
        while not self.is_over() and self.game.autoplays(self.position):
            actions = self.legal_actions()
            if len(actions) != 1:
                break
            self.push(actions[0], auto=True)
            played.append(actions[0])
            if self.position in seen or len(played) > limit:
                raise self.stalled(actions[0])
            seen.add(self.position)
        return played

    def play_automatic(self, safe: Safe) -> list[Action]:
        """Play, one at a time, the first legal action that ``safe`` accepts, until there is
        none (or the game is over); each is recorded as played by the engine, so that undo
        takes it back with the player's choice that caused it. The actions played, in order.

        This is the hook for automatic moves (safe moves to the foundations, a forced finish):
        the predicate decides, the session plays and records.

        GameStalled when a position comes back: the choice is the same each time, so the
        engine would go round for ever (a rule file built without validation can do this).
        """
        played: list[Action] = []
        seen = {self.position}
        while not self.is_over():
            state = self.position
            action = next((a for a in self.legal_actions() if safe(state, a)), None)
            if action is None:
                break
            self.push(action, auto=True)
            played.append(action)
            if self.position in seen:
                raise self.stalled(action)
            seen.add(self.position)
        return played

    def stalled(self, action: Action) -> GameStalled:
        """The error for a game whose own moves went round in a circle, ending at ``action``."""
        return GameStalled(
            f"the game stopped making progress: '{self.game.action_text(action)}' brought "
            f"back an earlier position while the engine played by itself (phase '{self.phase}')"
        )

    def moves_made(self) -> int:
        """How many actions the player chose (the engine's own are not counted)."""
        return sum(1 for entry in self.history if not entry.auto)

    def pop(self) -> Action:
        """Undo the last action; IndexError when there is nothing to undo."""
        if not self.history:
            raise IndexError("nothing to undo")
        before, action, auto = self.history.pop()
        self.undone.append(Played(self.position, action, auto))
        self._restore(before)
        return action

    def undo(self) -> list[Action]:
        """Undo back to the position where the player last chose an action.

        Actions the engine played by itself are undone with the choice that led to them, so
        the position shown is always one the player has seen. IndexError when there is none.
        """
        kept = len(self.history)
        while kept and self.history[kept - 1].auto:
            kept -= 1
        if kept == 0:
            raise IndexError("nothing to undo")
        undone: list[Action] = []
        while len(self.history) >= kept:
            undone.append(self.pop())
        return undone[::-1]

    def redo(self) -> Action:
        if not self.undone:
            raise IndexError("nothing to redo")
        after, action, auto = self.undone.pop()
        self.history.append(Played(self.position, action, auto))
        self._restore(after)
        return action

    def redo_choice(self) -> list[Action]:
        """Redo one choice of the player and what the engine then played by itself."""
        done = [self.redo()]
        while self.undone and self.undone[-1].auto:
            done.append(self.redo())
        return done

    def _restore(self, state: State) -> None:
        self.position = state
        if self._machine is not None:
            self._machine.set_state(state.phase, model=self._model)
