"""The text of actions, as players type them and as the program writes them.

Moves are ``SOURCE TARGET`` (``t3 f3``), with a count when several cards move (``t3 t5 4``).
When a game has several actions written with two pile names, a move may be prefixed with the
action's name (``move t3 f3``); without it, the one that is legal is meant. Other actions are
their name or one of their keys (``draw``, ``d``), followed by a pile where they take one
(``pick h5``) and a number where they take one (``pick h5 3``). Without a count, a move takes
the longest run that may go there.

Read back in the position it was written for, the text of an action means that action and no
other: ``text`` writes a count where a longer run could also go (``t8 t3 1``) and the action's
name where another action could be meant, and leaves out what goes without saying.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ...rules.errors import printable, suggest
from .layout import Layout
from .state import Action, State


class Notation:
    def __init__(self, layout: Layout, effects: Mapping[str, Any]) -> None:
        self.layout = layout
        self.effects = effects
        self.keys: dict[str, str] = {}
        for name, effect in effects.items():
            for key in (name, *effect.spec.keys):
                self.keys.setdefault(key.lower(), name)
        # The actions written 'SOURCE TARGET' (with no name in front when there is one such).
        self.movers = [n for n, e in effects.items() if e.takes_piles == 2]

    def text(
        self,
        action: Action,
        state: State | None = None,
        legal: Callable[[State], tuple[Action, ...]] | None = None,
    ) -> str:
        """The text of ``action``. With the position it is played in (and the game's legal
        actions), the shortest text that ``parse`` reads back as this very action there: a
        count only where another count could move from that pile to that pile, the action's
        name only where another action could be meant."""
        if state is None or legal is None or action.src < 0:
            return self._form(action, len(self.movers) != 1, action.n > 1)
        counted = (False, True) if action.n > 0 else (False,)
        for named in (False, True):
            for number in counted:
                text = self._form(action, named, number)
                try:
                    if self.parse(text, state, legal) == action:
                        return text
                except ValueError:
                    pass
        return self._form(action, True, action.n > 0)

    def _form(self, action: Action, named: bool, number: bool) -> str:
        """``[NAME] SOURCE [TARGET] [COUNT]``; an action without piles is its name."""
        names = self.layout.names
        if action.src < 0:
            return action.name
        count = f" {action.n}" if number and action.n > 0 else ""
        if action.dst < 0:
            return f"{action.name} {names[action.src]}{count}"
        prefix = action.name + " " if named else ""
        return f"{prefix}{names[action.src]} {names[action.dst]}{count}"

    def parse(
        self,
        text: str,
        state: State | None = None,
        legal: Callable[[State], tuple[Action, ...]] | None = None,
    ) -> Action:
        """An action from its text ('t3 f3', 't3 t5 4', 'draw', 'd'); ValueError when
        unreadable. With a position, a text that several actions could mean is read as the
        one that is legal there."""
        words = text.replace(",", " ").split()
        if not words:
            raise ValueError("empty command")
        index = self.layout.index
        name = self.keys.get(words[0].lower())
        if name is not None:
            names, args = [name], words[1:]
        elif self.movers and 2 <= len(words) <= 3:  # 'SOURCE TARGET [COUNT]'
            names, args = list(self.movers), words
        elif len(words) == 1 and (words[0] in index or words[0].lower() in index):
            form = " a move is 'SOURCE TARGET';" if self.movers else ""
            raise ValueError(
                f"'{words[0]}' is a pile, not a command:{form} type 'help' for the commands"
            )
        else:
            hint = suggest(words[0].lower(), [*self.keys, *index])
            raise ValueError(
                f"unknown command '{printable(words[0], 20)}'{hint}; type 'help' for the commands"
            )
        candidates = [self._read(n, args, index) for n in names]
        readable = [c for c in candidates if isinstance(c, Action)]
        if not readable:
            raise ValueError(str(candidates[0]))
        if state is None or legal is None:
            return readable[0]
        return self._choose(readable, legal(state))

    def _read(self, name: str, args: list[str], index: Mapping[str, int]) -> Action | str:
        """The action ``name`` with these words, or why they do not fit it."""
        effect = self.effects[name]
        number = 0
        if args and args[-1].isdigit() and effect.takes_number:
            number = int(args[-1])
            args = args[:-1]
            if number < 1:
                return "a count or position is 1 or more"
        most = effect.takes_piles
        fewest = most if effect.min_piles is None else effect.min_piles
        if len(args) == most + 1 and effect.takes_number and args[-1].lower() not in index:
            return f"a count is a number, not '{printable(args[-1], 20)}'"
        if not fewest <= len(args) <= most:
            if most == 0:
                return f"'{name}' takes no pile names"
            example = " ".join(self.layout.names[:most])
            many = f"{fewest} or {most}" if fewest != most else str(most)
            return f"'{name}' needs {many} pile name{'s' if most > 1 else ''}, e.g. '{example}'"
        piles: list[int] = []
        for arg in args:
            key = arg if arg in index else arg.lower()
            if key not in index:
                return f"no pile named '{printable(arg, 20)}'{suggest(arg.lower(), index)}"
            piles.append(index[key])
        src, dst = (*piles, -1, -1)[:2]
        return Action(name, src, dst, number)

    def _choose(self, readable: list[Action], legal: tuple[Action, ...]) -> Action:
        """The legal action among the readings; the longest move when no count was given."""
        matches = []
        for wanted in readable:
            for action in legal:
                same = (action.name, action.src, action.dst) == wanted[:3]
                if same and (wanted.n in (0, action.n) or (wanted.n == 1 and action.n == 0)):
                    matches.append(action)
        if not matches:  # refused: explain it by the action that takes from and puts there,
            # else by one that takes from that pile
            effects = self.effects
            return next(
                (a for a in readable if effects[a.name].covers(a)),
                next((a for a in readable if effects[a.name].takes_from(a.src)), readable[0]),
            )
        names = sorted({m.name for m in matches})
        if len(names) > 1:
            said = self._form(readable[0], False, readable[0].n > 0)
            options = " or ".join(f"'{n} {said}'" for n in names)
            raise ValueError(f"that could mean {options}: say which")
        # No count given: a move takes the longest run; a position means the top card.
        if _counts(self.effects[names[0]]):
            return max(matches, key=lambda a: a.n)
        return min(matches, key=lambda a: a.n)


def _counts(effect: Any) -> bool:
    """Whether an effect's number is a count of cards (1 needs no writing) or a position."""
    return effect is not None and effect.takes_piles == 2
