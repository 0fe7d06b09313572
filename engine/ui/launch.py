"""Which front end plays a game: the one place that knows them all.

The front ends under ``engine/ui`` (line mode, the terminal table, the web server) never import
each other; a command that opens another front end (``solitaire play`` on a terminal opens the
table) asks this module, which imports that front end only when it is wanted (Textual is
imported only for the table)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..game.game import Game
from ..play.player import PlayOptions
from ..play.progress import Deal
from ..play.records import GameRecord


def play_at_table(
    game: Game,
    options: PlayOptions,
    deal: Deal,
    ref: str,
    record: GameRecord | None = None,
    source: Path | None = None,
    offered: Sequence[str] = (),
    *,
    ascii: bool = False,
) -> int:
    """Play at the full-screen table until the player leaves; the exit code."""
    from .table.app import make_app, run

    return run(make_app(game, options, deal, ref, record, source, offered, ascii=ascii))


def choose_game_at_table() -> str | None:
    """The id of the game picked from the table's menu of shipped games; None: none."""
    from ...rules.catalog import shipped_games
    from .table.menu import choose_game

    return choose_game(shipped_games())


def serve_tables(port: int, open_browser: bool) -> None:
    """Serve the browser table until Ctrl-C (``PortBusy`` when the port is taken)."""
    from .web.server import serve

    serve(port, open_browser=open_browser)
