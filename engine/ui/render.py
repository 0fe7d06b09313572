"""Drawing a position for a terminal: a clock face for piles with hours, rows otherwise.

Cards are always written in the project's notation (``10H``, ``QS``); colour (red hearts and
diamonds, dim face-down cards) is added by rich only on a terminal without ``NO_COLOR``.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..core.cards import DOWN, MASK, RANK, SUIT, card_text
from ..core.game import Game
from ..core.state import State
from ..vocab.effects.dealing import FillGaps

# Where each hour sits on a 5 x 5 grid, and where the centre goes.
_DIAL_CELLS = {
    11: (0, 1), 12: (0, 2), 1: (0, 3),
    10: (1, 0), 2: (1, 4),
    9: (2, 0), 3: (2, 4),
    8: (3, 0), 4: (3, 4),
    7: (4, 1), 6: (4, 2), 5: (4, 3),
}  # fmt: skip
_CENTRE = (2, 2)


def card_markup(card: int) -> Text:
    if card & DOWN:
        return Text("##", style="dim")
    name = card_text(card & MASK)
    return Text(name, style="bold red" if SUIT[card] in (1, 2) else "bold")


class Renderer:
    """Draws positions of one game; knows which piles are short and which are complete."""

    def __init__(self, game: Game) -> None:
        self.game = game
        layout = game.layout
        display = game.spec.display
        widths: dict[str, int] = {}
        for pile, name in enumerate(layout.names):
            group = layout.group_of[pile]
            widths[group] = max(widths.get(group, 0), len(name) + 1)
        self.name_width = [widths[layout.group_of[p]] for p in range(len(layout))]
        self.hour = [0] * len(layout)
        self.centre: set[int] = set()
        self.label: dict[str, str] = {}
        for group, shown in display.groups.items():
            piles = layout.groups[group]
            for pile, hour in zip(piles, shown.hours or (), strict=False):
                self.hour[pile] = hour
            if shown.position == "centre":
                self.centre.update(piles)
            if shown.label:
                self.label[group] = shown.label
        self.gap_size: dict[int, int] = {}
        for effect in game.effects.values():
            if isinstance(effect, FillGaps):
                for pile in effect.piles:
                    self.gap_size[pile] = effect.size

    def pile_line(self, state: State, pile: int) -> Text:
        game = self.game
        cards = state.piles[pile]
        name = game.pile_names[pile]
        role = game.layout.role[pile]
        line = Text()
        line.append(f"{name:<{self.name_width[pile]}}", style="cyan")
        if role == "stock":
            line.append(f"{len(cards)} card{'s' if len(cards) != 1 else ''}")
            return line
        if role == "waste":
            if cards:
                line.append_text(card_markup(cards[-1]))
                line.append(f" ({len(cards)})", style="dim")
            else:
                line.append("-", style="dim")
            return line
        if role == "foundation":
            if cards:
                line.append_text(card_markup(cards[-1]))
                need = self.still_needed(pile, cards[-1])
                if need is not None:
                    line.append(" done" if need == 0 else f" need {need}", style="dim")
            else:
                line.append("-", style="dim")
            return line
        for i, card in enumerate(cards):
            if i:
                line.append(" ")
            line.append_text(card_markup(card))
        gaps = self.gap_size.get(pile, 0) - len(cards)
        if gaps > 0:
            line.append(
                ("" if not cards else " ") + " ".join("__" for _ in range(gaps)), style="yellow"
            )
        if not cards and gaps <= 0:
            line.append("-", style="dim")
        return line

    def still_needed(self, pile: int, top: int) -> int | None:
        rule = self.game.layout.accepts[pile]
        if rule.complete_rank is None:
            return None
        rank = RANK[top]
        if rule.build == "down":
            return (rank - rule.complete_rank) % 13
        return (rule.complete_rank - rank) % 13

    def board(self, state: State) -> RenderableType:
        game = self.game
        if game.spec.display.layout == "clock" and any(self.hour):
            return self._dial(state)
        return self._rows(state, range(len(game.pile_names)))

    def _dial(self, state: State) -> RenderableType:
        grid = Table.grid(padding=(0, 1))
        for _ in range(5):
            grid.add_column(no_wrap=False)
        cells: dict[tuple[int, int], list[Text]] = {}
        others: list[int] = []
        for pile, hour in enumerate(self.hour):
            if hour:
                cells.setdefault(_DIAL_CELLS[hour], []).append(self.pile_line(state, pile))
            elif pile in self.centre:
                cells.setdefault(_CENTRE, []).append(self.pile_line(state, pile))
            else:
                others.append(pile)
        for row in range(5):
            grid.add_row(*(Text("\n").join(cells.get((row, col), [Text("")])) for col in range(5)))
            if row < 4:
                grid.add_row(*(Text("") for _ in range(5)))
        if not others:
            return grid
        return Group(grid, Text(""), self._rows(state, others))

    def _rows(self, state: State, piles: range | list[int]) -> RenderableType:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="dim")
        table.add_column()
        for pile in piles:
            label = self.label.get(self.game.layout.group_of[pile], "")
            table.add_row(label, self.pile_line(state, pile))
        return table

    def status(self, state: State) -> Text:
        game = self.game
        text = Text()
        text.append(game.name, style="bold")
        outcome = game.outcome(state)
        text.append(f"  {game.spec.score.label}: {game.score(state)}/{len(game.cards)}")
        if outcome:
            text.append(f"  {outcome.upper()}", style="bold green" if outcome == "won" else "bold")
        elif game.states[state.phase].help:
            text.append(f"  ({game.states[state.phase].help})", style="dim")
        return text
