"""Every shipped game opens at the table at 80x24 and at 160x50: SVG screenshots kept in
tests/table_snapshots/, compared as text (deal 1, no ticking clock, so they never change by
themselves).

After a change to how the table looks, look at the new pictures and regenerate them with
``SOLITAIRE_SNAPSHOTS=update pytest tests/test_table_snapshots.py``.
"""

from __future__ import annotations

import asyncio
import os

import pytest

from conftest import ROOT
from yaml_solitaire.engine.game.load import load_game
from yaml_solitaire.engine.play.player import PlayOptions
from yaml_solitaire.engine.play.progress import new_deal
from yaml_solitaire.engine.ui.table.app import TableView, make_app
from yaml_solitaire.rules.catalog import shipped_games

SNAPSHOTS = ROOT / "tests" / "table_snapshots"
SIZES = ((80, 24), (160, 50))
UPDATE = os.environ.get("SOLITAIRE_SNAPSHOTS") == "update"


def screenshots(game_id: str) -> list[str]:
    """The table of deal 1 at each size (one app, its terminal resized)."""
    game = load_game(game_id)
    options = PlayOptions(record_history=False, symbols=True, interactive=True)
    app = make_app(game, options, new_deal(game, 1), game_id, ticking=False)

    async def main() -> list[str]:
        shots = []
        async with app.run_test(size=SIZES[0]) as pilot:
            for size in SIZES:
                await pilot.resize_terminal(*size)
                await pilot.pause()
                shots.append(app.export_screenshot(title=f"solitaire play {game_id} --seed 1"))
            await pilot.resize_terminal(30, 10)  # too small for the game: cut, not broken
            await pilot.pause()
            assert app.query_one(TableView).picture is not None
            assert app.is_running
        return shots

    return asyncio.run(main())


@pytest.mark.parametrize("game_id", sorted(g.id for g in shipped_games()))
def test_every_shipped_game_opens_at_both_sizes(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    for (width, height), svg in zip(SIZES, screenshots(game_id), strict=True):
        path = SNAPSHOTS / f"{game_id}-{width}x{height}.svg"
        if UPDATE:
            SNAPSHOTS.mkdir(exist_ok=True)
            path.write_text(svg, encoding="utf-8")
        assert path.exists(), f"no snapshot {path.name}: see this file's docstring"
        assert svg == path.read_text(encoding="utf-8"), f"{path.name} changed: see the docstring"
