"""Which piles the page draws where, from the rule file's roles, arrangements and ``display``.

Only the grouping is decided here; the page turns it into sizes for the window it has. The
clock layout puts piles with hours on rings round a clock face (foundations on the inner ring, the
other groups outside them) and the centre's piles in the middle; every other pile, on either
layout, goes into the rows: stock, waste, reserves and cells at the top left, foundations at the
top right, then piles covering one another (a pyramid, peaks), a grid, a wrapped row of many
one-card piles, or fanned columns.
"""

from __future__ import annotations

from typing import Any

from ...game.game import Game
from ..render import covered_places, dial_places

_TOP_LEFT = ("stock", "waste", "reserve", "cell")


def _block(
    game: Game, group: str, members: list[int], dealt: tuple[tuple[int, ...], ...]
) -> dict[str, Any]:
    """How one group of piles below the top row is drawn."""
    names = [game.pile_names[p] for p in members]
    arrangement = game.spec.piles[group].arrangement if group in game.spec.piles else None
    one_card = all(len(dealt[p]) <= 1 for p in members)
    places = covered_places(game, members) if one_card else {}
    if places:  # rows of half-covered cards: each pile's row and column in half cards
        return {"kind": "covered", "piles": names, "places": [places[p] for p in members]}
    if arrangement is not None:
        return {"kind": "grid", "columns": int(getattr(arrangement, "grid", 0)), "piles": names}
    if one_card and len(members) > 8:
        return {"kind": "grid", "columns": 13, "piles": names}
    return {"kind": "columns", "piles": names}


def page_layout(game: Game) -> dict[str, Any]:
    """The page's plan of the table: ``rings`` (for each ring, inner first, the pile names at
    each hour from 12 round to 11), ``centre``, ``top_left``, ``top_right`` and ``blocks``
    (see the module's text)."""
    layout = game.layout
    dealt = game.deal_seed(0).piles
    hours, centre = dial_places(game)
    on_dial = game.spec.display.layout == "clock" and any(hours)
    rings: list[list[list[str]]] = []
    if on_dial:
        ringed = [g for g, piles in layout.groups.items() if any(hours[p] for p in piles)]
        ringed.sort(key=lambda g: layout.role[layout.groups[g][0]] != "foundation")
        for group in ringed:
            by_hour: list[list[str]] = [[] for _ in range(12)]
            for pile in layout.groups[group]:
                if hours[pile]:  # several piles at one hour lie side by side
                    by_hour[hours[pile] % 12].append(game.pile_names[pile])
            rings.append(by_hour)
    top_left: list[str] = []
    top_right: list[str] = []
    blocks: list[dict[str, Any]] = []
    for group, piles in layout.groups.items():
        members = [p for p in piles if not (on_dial and (hours[p] or p in centre))]
        if not members:
            continue
        role = layout.role[members[0]]
        if role == "foundation":
            top_right += [game.pile_names[p] for p in members]
        elif role in _TOP_LEFT:
            top_left += [game.pile_names[p] for p in members]
        else:
            blocks.append(_block(game, group, members, dealt))
    roles = {game.pile_names[p]: layout.role[p] for p in range(len(layout))}
    return {
        "clock": on_dial,
        "rings": rings,
        "centre": [game.pile_names[p] for p in sorted(centre)] if on_dial else [],
        "top_left": top_left,
        "top_right": top_right,
        "blocks": blocks,
        "roles": roles,
    }
