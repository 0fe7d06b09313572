"""Bounds on what the engine's work grows with: every file that validates starts, lists its
moves and is described in well under a second.

Each count is bounded alone elsewhere (piles per group, groups, decks); here the whole game
is: its piles in all, and the pairs of piles its actions move between (a move generator looks
at each pair). Cards are bounded by the decks (``MAX_DECKS``).
"""

from __future__ import annotations

from ..extends import Report
from ..model import GameSpec
from ..spec import MAX_ALL_PILES, MAX_PAIRS, yaml_key
from .meaning import resolve


def check_size(spec: GameSpec, report: Report) -> None:
    total = 0
    for group_name, group in spec.piles.items():
        total += len(group.names)
        if total > MAX_ALL_PILES:
            report.add(
                ("piles", group_name, "names"),
                f"the game has more than {MAX_ALL_PILES:,} piles in all (this group brings "
                f"them to {total:,}); use fewer or smaller groups",
            )
            return
    pairs = 0
    for name, action in spec.actions.items():
        sources = len(dict.fromkeys(resolve(spec, action.takes_from())))
        targets = len(dict.fromkeys(resolve(spec, action.gives_to())))
        pairs += max(sources, 1) * max(targets, 1)
        if pairs > MAX_PAIRS:
            cls = type(action)
            fields = cls.sources or cls.destinations
            where = ("actions", name, yaml_key(cls, fields[0])) if fields else ("actions", name)
            report.add(
                where,
                f"the actions may move cards between more than {MAX_PAIRS:,} pairs of piles "
                f"(sources times targets, added up; '{name}' brings them to {pairs:,}): "
                "give this action fewer piles to take from or put on",
                about=("@piles",),
            )
            return
