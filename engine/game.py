"""A game compiled from its GameSpec: piles, deal, effects, conditions and the flow table.

Positions are immutable ``State`` tuples, so cloning is free, undo is a stack and states hash.
``Game.apply`` drives the compiled transition table directly (the fast path used by statistics,
benchmarks and solvers); ``Session`` drives the same table through a ``transitions`` machine.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from operator import itemgetter
from pathlib import Path
from typing import NamedTuple, cast

from rules import GameSpec, find_game, game_names, load_rules
from rules.catalog import looks_like_path
from rules.loader import suggest
from rules.notation import parse_card

from .cards import DOWN, FACE, MASK, canonical_deck, card_text, face_of, shuffled
from .conditions import CONDITIONS, Condition
from .effects import EFFECTS, Action, Effect, Piles, Trace
from .piles import AcceptRule, compile_accepts

AUTO = "auto"


class State(NamedTuple):
    """A position: every pile's cards from bottom to top, and the phase of the game."""

    piles: Piles
    phase: str


class IllegalAction(ValueError):
    """An action that the rules do not allow now; the message says why, in one line."""


class UnknownGame(LookupError):
    pass


Gather = Callable[[Sequence[int]], tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class _DealPlan:
    """A deal compiled once per game.

    Base cards are found in each deal order (their positions vary); every other card's pile
    depends only on its position among the cards left after the bases, so each pile's cards are
    gathered by index, in C (``operator.itemgetter``), from the order or its face-down copy.
    """

    bases: tuple[tuple[int, int, int], ...]  # (pile, face, DOWN or 0)
    gathers: tuple[tuple[int, tuple[tuple[bool, Gather], ...]], ...]  # pile: (face down?, get)
    any_down: bool


def _gather(indices: Sequence[int]) -> Gather:
    if len(indices) == 1:
        only = indices[0]
        return lambda cards: (cards[only],)
    return cast(Gather, itemgetter(*indices))


@dataclass(frozen=True, slots=True)
class Transition:
    trigger: str
    source: str
    dest: str
    conditions: tuple[tuple[str, Condition], ...]
    unless: tuple[tuple[str, Condition], ...]
    effect: Effect | None
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


class Game:
    """Everything the engine knows about one game, ready to deal and play."""

    def __init__(self, spec: GameSpec, path: Path | None = None) -> None:
        self.spec = spec
        self.path = path
        self.id = spec.id
        self.name = spec.name
        # Piles, in the order groups and names appear in the rule file.
        names: list[str] = []
        self.group_of: list[str] = []
        self.role: list[str] = []
        self.hour: list[int] = []
        self.groups: dict[str, tuple[int, ...]] = {}
        rules: list[AcceptRule] = []
        for group_name, group in spec.piles.items():
            start = len(names)
            for i, name in enumerate(group.names):
                hour = group.hours[i] if group.hours else 0
                names.append(name)
                self.group_of.append(group_name)
                self.role.append(group.role)
                self.hour.append(hour)
                rules.append(compile_accepts(group.accepts, hour))
            self.groups[group_name] = tuple(range(start, len(names)))
        self.pile_names: tuple[str, ...] = tuple(names)
        self.pile_index = {name: i for i, name in enumerate(names)}
        self.accept_rules: tuple[AcceptRule, ...] = tuple(rules)
        self.cards: tuple[int, ...] = tuple(canonical_deck(spec.decks, spec.remove))
        self._deal_plan = self._compile_deal()
        self.effects: dict[str, Effect] = {
            name: EFFECTS[a.effect](self, name, a) for name, a in spec.actions.items()
        }
        self.keys: dict[str, str] = {}
        for name, a in spec.actions.items():
            for key in (name, *a.keys):
                self.keys[key.lower()] = name
        self.conditions: dict[str, Condition] = {
            name: CONDITIONS[c.test](self, c) for name, c in spec.conditions.items()
        }
        self.condition_text = {
            name: c.describe or name.replace("_", " ") for name, c in spec.conditions.items()
        }
        self.states = spec.flow.states
        self.initial = spec.flow.initial
        self.outcomes = {name: s.outcome for name, s in self.states.items() if s.outcome}
        self.transitions = self._compile_flow()
        self.by_trigger: dict[tuple[str, str], tuple[Transition, ...]] = {}
        for t in self.transitions:
            at = (t.source, t.trigger)
            self.by_trigger[at] = (*self.by_trigger.get(at, ()), t)
        self.player_triggers: dict[str, tuple[str, ...]] = {
            state: tuple(
                dict.fromkeys(
                    t.trigger for t in self.transitions if t.source == state and t.trigger != AUTO
                )
            )
            for state in self.states
        }
        score = spec.score
        self._score_piles = self.resolve(score.piles) if score.piles else tuple(range(len(names)))
        self._score_face_up = score.count == "face_up"
        self.foundations = tuple(i for i, r in enumerate(self.role) if r == "foundation")
        # The actions written 'SOURCE TARGET' (with no name in front when there is one such).
        self._movers = [n for n, e in self.effects.items() if e.takes_piles == 2]
        self._cache_state: State | None = None
        self._cache_actions: tuple[Action, ...] = ()

    # --- names ----------------------------------------------------------------------------

    def resolve(self, refs: Iterable[str]) -> tuple[int, ...]:
        """Pile indices of pile and group names, in the order given."""
        out: list[int] = []
        for ref in refs:
            if ref in self.groups:
                out.extend(self.groups[ref])
            else:
                out.append(self.pile_index[ref])
        return tuple(out)

    # --- deal -----------------------------------------------------------------------------

    def _compile_deal(self) -> _DealPlan:
        bases: list[tuple[int, int, int]] = []
        segments: dict[int, list[tuple[bool, list[int]]]] = {}
        dealt = 0  # positions among the cards left after the bases
        for step in self.spec.deal:
            down = step.face == "down"
            if step.step == "bases":
                for group_name, group in self.spec.piles.items():
                    for pile, card in zip(self.groups[group_name], group.bases or (), strict=False):
                        bases.append((pile, face_of(*parse_card(card)), DOWN if down else 0))
                continue
            left = len(self.cards) - len(bases) - dealt
            if step.step == "round_robin":
                piles = self.resolve(step.piles)
                passes = step.passes if step.passes is not None else len(self.cards)
                targets = (piles * passes)[:left]
            else:  # rest: the next card in deck order ends on top, so it is dealt last
                targets = self.resolve([step.pile]) * left
            positions = range(dealt, dealt + len(targets))
            if step.step == "rest":
                positions = positions[::-1]
            for pile, position in zip(targets, positions, strict=True):
                runs = segments.setdefault(pile, [])
                if not runs or runs[-1][0] != down:
                    runs.append((down, []))
                runs[-1][1].append(position)
            dealt += len(targets)
        gathers = tuple(
            (pile, tuple((down, _gather(idx)) for down, idx in runs))
            for pile, runs in segments.items()
        )
        any_down = any(down for _, runs in gathers for down, _ in runs)
        return _DealPlan(tuple(bases), gathers, any_down)

    def deal(self, order: Sequence[int]) -> State:
        """The dealt position for a deal order (first card listed, first card dealt)."""
        plan = self._deal_plan
        piles: list[tuple[int, ...]] = [()] * len(self.pile_names)
        cards = order
        if plan.bases:
            cards = list(order)
            for pile, face, flag in plan.bases:
                for k, card in enumerate(cards):
                    if FACE[card] == face:
                        piles[pile] += (cards.pop(k) | flag,)
                        break
        hidden = list(map(DOWN.__or__, cards)) if plan.any_down else cards
        for pile, runs in plan.gathers:
            for down, gather in runs:
                piles[pile] += gather(hidden if down else cards)
        return self.settle(State(tuple(piles), self.initial))

    def deal_seed(self, seed: int) -> State:
        return self.deal(self.seed_order(seed))

    def seed_order(self, seed: int) -> list[int]:
        return shuffled(self.cards, seed)

    # --- conditions -----------------------------------------------------------------------

    def _compile_flow(self) -> tuple[Transition, ...]:
        out: list[Transition] = []
        for tr in self.spec.flow.transitions:
            sources = (tr.source,) if isinstance(tr.source, str) else tr.source
            expanded: list[str] = []
            for src in sources:
                if src == "*":
                    expanded += [n for n, st in self.states.items() if st.outcome is None]
                else:
                    expanded.append(src)
            for src in expanded:
                out.append(
                    Transition(
                        trigger=tr.trigger,
                        source=src,
                        dest=tr.dest,
                        conditions=tuple((c, self.conditions[c]) for c in tr.conditions),
                        unless=tuple((c, self.conditions[c]) for c in tr.unless),
                        effect=self.effects.get(tr.trigger) if tr.trigger != AUTO else None,
                        check=_fold(
                            [self.conditions[c] for c in tr.conditions],
                            [self.conditions[c] for c in tr.unless],
                        ),
                    )
                )
        return tuple(out)

    # --- playing --------------------------------------------------------------------------

    def _open(self, state: State, trigger: str) -> Transition | None:
        """The first transition for ``trigger`` whose conditions hold now."""
        for t in self.by_trigger.get((state.phase, trigger), ()):
            if t.check is None or t.check(state):
                return t
        return None

    def legal_actions(self, state: State) -> tuple[Action, ...]:
        """Every action the player may take now (empty in a terminal phase)."""
        if state is self._cache_state:  # settle() has just listed them for its 'stuck' test
            return self._cache_actions
        out: list[Action] = []
        for trigger in self.player_triggers[state.phase]:
            t = self._open(state, trigger)
            if t is not None and t.effect is not None:
                out += t.effect.generate(state.piles)
        actions = tuple(out)
        self._cache_state, self._cache_actions = state, actions
        return actions

    def refusal(self, state: State, action: Action) -> str | None:
        """Why ``action`` is not allowed now, in one line; None when it is."""
        phase = state.phase
        if phase in self.outcomes:
            return f"the game is over ({self.outcomes[phase]})"
        if action.name not in self.player_triggers[phase]:
            return f"'{action.name}' is not possible while {self._phase_text(phase)}"
        if self._open(state, action.name) is None:
            return f"{action.name} is not possible {self._blocking(state, action.name)}"
        effect = self.effects[action.name]
        return effect.refusal(state.piles, action)

    def _phase_text(self, phase: str) -> str:
        return self.states[phase].help or f"in phase '{phase}'"

    def _blocking(self, state: State, trigger: str) -> str:
        for t in self.by_trigger.get((state.phase, trigger), ()):
            for name, c in t.conditions:
                if not c(state):
                    return f"unless {self.condition_text[name]}"
            for name, u in t.unless:
                if u(state):
                    return f"while {self.condition_text[name]}"
        return "now"

    def apply(self, state: State, action: Action, trace: Trace | None = None) -> State:
        """The position after ``action``; IllegalAction (state untouched) when not allowed."""
        t = self._open(state, action.name)
        if t is None or t.effect is None or t.effect.refusal(state.piles, action) is not None:
            raise IllegalAction(self.refusal(state, action) or f"{action.name} is not allowed")
        return self.settle(State(t.effect.apply(state.piles, action, trace), t.dest))

    def settle(self, state: State) -> State:
        """Follow 'auto' transitions (outcomes, phase changes) until none applies."""
        for _ in range(len(self.states) + 1):
            t = self._open(state, AUTO)
            if t is None:
                return state
            state = State(state.piles, t.dest)
        return state

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

    # --- notation -------------------------------------------------------------------------

    def action_text(self, action: Action) -> str:
        if action.src < 0:
            return action.name
        if action.dst < 0:
            return f"{action.name} {self.pile_names[action.src]}"
        prefix = "" if len(self._movers) == 1 else action.name + " "
        return f"{prefix}{self.pile_names[action.src]} {self.pile_names[action.dst]}"

    def parse_action(self, text: str) -> Action:
        """An action from its text ('t3 f3', 'draw', 'd'); ValueError when unreadable."""
        words = text.replace(",", " ").split()
        if not words:
            raise ValueError("empty command")
        name = self.keys.get(words[0].lower())
        if name is None:
            if len(words) == 2 and self._movers:  # 'SOURCE TARGET': pile names checked below
                name, args = self._movers[0], words
            else:
                hint = suggest(words[0].lower(), [*self.keys, *self.pile_index])
                raise ValueError(
                    f"unknown command '{words[0]}'{hint}; type 'help' for the commands"
                )
        else:
            args = words[1:]
        effect = self.effects[name]
        if len(args) != effect.takes_piles:
            if effect.takes_piles == 0:
                raise ValueError(f"'{name}' takes no pile names")
            raise ValueError(
                f"'{name}' needs {effect.takes_piles} pile names, e.g. "
                f"'{' '.join(self.pile_names[: effect.takes_piles])}'"
            )
        piles: list[int] = []
        for arg in args:
            if arg not in self.pile_index:
                lowered = arg.lower()
                if lowered in self.pile_index:
                    arg = lowered
                else:
                    raise ValueError(f"no pile named '{arg}'{suggest(lowered, self.pile_index)}")
            piles.append(self.pile_index[arg])
        return Action(name, *piles)

    def card_text(self, card: int) -> str:
        return card_text(card)

    def pile_text(self, state: State, pile: int) -> list[str]:
        return ["##" if c & DOWN else card_text(c & MASK) for c in state.piles[pile]]


def load_game(name: str | Path) -> Game:
    """A game by id, alias or rule-file path; UnknownGame or RuleError when it cannot be had."""
    path = find_game(str(name))
    if path is None:
        text = str(name)
        if looks_like_path(text):
            raise UnknownGame(f"no such rule file: {text}")
        raise UnknownGame(
            f"unknown game '{text}'{suggest(text, game_names())}; "
            f"shipped games: {', '.join(game_names())}"
        )
    return Game(load_rules(path), path)


__all__ = ["AUTO", "Action", "Game", "IllegalAction", "State", "UnknownGame", "load_game"]
