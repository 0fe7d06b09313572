"""The text of actions, as players type them and as the program writes them.

Moves are ``SOURCE TARGET`` (``t3 f3``); when a game has several actions written with two pile
names, the action's name comes first (``move t3 f3``). Other actions are their name or one of
their keys (``draw``, ``d``), followed by a pile where they take one (``pick h5``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...rules.errors import suggest
from ..core.cards import printable
from .layout import Layout
from .state import Action


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

    def text(self, action: Action) -> str:
        names = self.layout.names
        if action.src < 0:
            return action.name
        if action.dst < 0:
            return f"{action.name} {names[action.src]}"
        prefix = "" if len(self.movers) == 1 else action.name + " "
        return f"{prefix}{names[action.src]} {names[action.dst]}"

    def parse(self, text: str) -> Action:
        """An action from its text ('t3 f3', 'draw', 'd'); ValueError when unreadable."""
        words = text.replace(",", " ").split()
        if not words:
            raise ValueError("empty command")
        index = self.layout.index
        name = self.keys.get(words[0].lower())
        if name is None:
            if len(words) == 2 and self.movers:  # 'SOURCE TARGET': pile names checked below
                name, args = self.movers[0], words
            else:
                hint = suggest(words[0].lower(), [*self.keys, *index])
                raise ValueError(
                    f"unknown command '{printable(words[0], 20)}'{hint}; "
                    "type 'help' for the commands"
                )
        else:
            args = words[1:]
        effect = self.effects[name]
        if len(args) != effect.takes_piles:
            if effect.takes_piles == 0:
                raise ValueError(f"'{name}' takes no pile names")
            example = " ".join(self.layout.names[: effect.takes_piles])
            raise ValueError(f"'{name}' needs {effect.takes_piles} pile names, e.g. '{example}'")
        piles: list[int] = []
        for arg in args:
            key = arg if arg in index else arg.lower()
            if key not in index:
                raise ValueError(
                    f"no pile named '{printable(arg, 20)}'{suggest(arg.lower(), index)}"
                )
            piles.append(index[key])
        return Action(name, *piles)
