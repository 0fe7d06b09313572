"""What a newcomer meets first at the table: a menu of the games when none is named, and a game
that plays itself (Clock) saying so, and saying how it ended."""

from __future__ import annotations

import asyncio
from pathlib import Path

from terminal import Terminal

from conftest import run_cli
from yaml_solitaire.engine.game.load import load_game
from yaml_solitaire.engine.play.player import PlayOptions
from yaml_solitaire.engine.play.progress import new_deal
from yaml_solitaire.engine.ui.table.app import make_app
from yaml_solitaire.engine.ui.table.menu import GameMenu
from yaml_solitaire.rules.catalog import shipped_games


def options() -> PlayOptions:
    return PlayOptions(record_history=False, symbols=True, interactive=True)


def test_the_menu_lists_every_shipped_game_and_plays_the_one_chosen() -> None:
    games = shipped_games()

    async def pick(keys: list[str]) -> str | None:
        menu = GameMenu(games)
        async with menu.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            listed = menu.query_one("OptionList").option_count  # type: ignore[attr-defined]
            assert listed == len(games)
            await pilot.press(*keys)
            await pilot.pause()
        return menu.return_value

    assert asyncio.run(pick(["down", "down", "enter"])) == games[2].id
    assert asyncio.run(pick(["q"])) is None


def test_play_without_a_game_opens_the_menu_at_a_terminal(tmp_path: Path) -> None:
    import os

    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path))
    term = Terminal("play", "--seed", "1", "--no-record", env=env)
    try:
        term.read_until("Which game?")
        first = shipped_games()[0]
        term.read_until(first.name)
        term.type("")  # Enter: the first game
        term.read_until("moves:")
        os.write(term.master, b"q")  # no move made: the table closes at once
        assert term.wait() == 0
        assert f"{first.name}: 0 moves" in term.text
    finally:
        term.close()


def test_play_without_a_game_at_a_pipe_is_still_a_usage_error() -> None:
    result = run_cli("play", stdin="")
    assert result.code == 2 and "play needs a GAME" in result.err


def test_clock_says_at_the_table_that_it_plays_itself_and_how_it_ended() -> None:
    game = load_game("clock")
    app = make_app(game, options(), new_deal(game, 3), "clock", ticking=False)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert app.message_text == (
                "Clock plays itself. Lost: 51 cards placed, 1 card still face down."
            )
            footer = app.query_one("#command").placeholder  # type: ignore[attr-defined]
            assert "played itself" in footer and "click" not in footer
            await pilot.press("q")
            await pilot.pause()

    asyncio.run(main())
    said = [line for line in app.farewell if "lost" in line.lower()]
    assert len(said) == 1, app.farewell  # the result, said once


def test_a_game_left_unfinished_gets_no_result_on_leaving_the_table() -> None:
    game = load_game("klondike")
    app = make_app(game, options(), new_deal(game, 1), "klondike", ticking=False)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert "click" in app.footer()
            await pilot.press("q")
            await pilot.pause()

    asyncio.run(main())
    assert app.farewell and not any("Won" in line or "Lost" in line for line in app.farewell)
