"""The games to choose from, when 'solitaire play' is given none at a terminal."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ....rules.catalog import CatalogEntry


class GameMenu(App[str | None]):
    """A list of the shipped games: Enter (or a click) plays one, q or Esc leaves."""

    CSS = """
    #title { height: 2; padding: 0 1; text-style: bold; }
    OptionList { height: 1fr; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q,escape", "leave", "quit"),
    ]
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, games: Sequence[CatalogEntry]) -> None:
        super().__init__()
        self.games = list(games)

    def compose(self) -> ComposeResult:
        yield Static(
            "Which game? Enter plays it, q leaves. "
            "(Next time: solitaire play GAME; solitaire list shows them all.)",
            id="title",
        )
        width = max(len(g.name) for g in self.games)
        options = []
        for game in self.games:
            decks = f"{game.decks} deck{'s' if game.decks > 1 else ''}"
            options.append(Option(f"{game.name:<{width}}  {decks:<7}  {game.id}", id=game.id))
        yield OptionList(*options)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.exit(event.option.id)

    def action_leave(self) -> None:
        self.exit(None)


def choose_game(games: Sequence[CatalogEntry]) -> str | None:
    """The id of the game the player picks, or None when they leave."""
    return GameMenu(games).run()
