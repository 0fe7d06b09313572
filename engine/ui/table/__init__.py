"""The full-screen table (Textual): ``solitaire play GAME`` on a terminal.

Textual is imported only when a table opens, so line mode, pipes and ``--help`` never pay for
it. The table drives line mode's player: one engine, one way of saving and recording games.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from ...core.game import Game
    from ...play.progress import Deal
    from ...play.records import GameRecord


def play_table(
    game: Game,
    args: argparse.Namespace,
    deal: Deal,
    ref: str,
    record: GameRecord | None = None,
    source: Path | None = None,
    offered: Sequence[str] = (),
) -> int:
    """Play one game at the full-screen table; the exit code."""
    from .app import make_app, run

    return run(make_app(game, args, deal, ref, record, source, offered))
