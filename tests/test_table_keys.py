"""Every key the table's help lists does what the help says (issue 33, item 2), and messages
fit an 80-column screen (item 3)."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from test_table import chosen, options
from textual.widgets import Input

from yaml_solitaire.engine.game.load import load_game
from yaml_solitaire.engine.play.progress import new_deal
from yaml_solitaire.engine.ui.table.app import TableApp, TableView, make_app


def app_of(game_id: str, seed: int) -> TableApp:
    game = load_game(game_id)
    return make_app(game, options(), new_deal(game, seed), game_id, ticking=False)


def drive(app: TableApp, script: Any) -> None:
    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(main())


def test_w_picks_the_waste_and_never_draws() -> None:
    app = app_of("klondike", 11)
    stock = app.game.layout.with_role("stock")[0]
    waste = app.game.layout.with_role("waste")[0]

    async def script(pilot: Any) -> None:
        piles = app.player.position.piles
        await pilot.press("w")  # the waste is empty: said, nothing drawn
        assert len(app.player.position.piles[stock]) == len(piles[stock])
        assert app.message_text.startswith("! w is empty")
        await pilot.press("d")
        assert len(app.player.position.piles[stock]) == len(piles[stock]) - 1
        await pilot.press("w", "w")
        assert len(app.player.position.piles[stock]) == len(piles[stock]) - 1
        assert app.marks.picked is None or app.marks.picked[0] == waste
        await pilot.press("w")
        assert app.marks.picked is not None and app.marks.picked[0] == waste

    drive(app, script)


def test_every_key_in_the_help_does_what_it_says() -> None:
    for game_id, seed in (("klondike", 11), ("big-ben", 464356746)):
        app = app_of(game_id, seed)

        async def script(pilot: Any, app: TableApp = app) -> None:
            await pilot.press("question_mark")
            help_text = str(app.screen.query_one("Static").render())
            await pilot.press("escape")
            listed = set(re.findall(r"\[(\w|\?)\]", help_text))  # line mode's keys
            listed |= set(re.findall(r"^  (\S)  ", help_text, re.M))  # the table's
            assert listed <= set(app.key_uses), listed - set(app.key_uses)
            for key in sorted(listed):
                does = app.key_uses[key][0]
                before = (app.player.position, len(chosen(app)))
                app.message_text = ""
                await pilot.press(key)
                await app.workers.wait_for_complete()
                await pilot.pause()
                pane = type(app.screen).__name__
                if key in "?ib":
                    assert pane == "TextPane", key
                elif key == "q":
                    assert pane == "Asking" or not app.is_running, key
                elif key == ":":
                    assert isinstance(app.focused, Input)
                elif key == "m":
                    assert app.message_text.startswith("legal: ") or pane == "TextPane"
                elif key == "h":
                    assert app.message_text.startswith(("hint: ", "no ", "only")), key
                elif key in app.game.notation.keys:  # the game's action: played or refused
                    played = len(chosen(app)) > before[1]
                    assert played or app.message_text.startswith("! "), (key, does)
                elif key.isdigit() or key in "sw":
                    assert app.marks.picked is not None or app.message_text, key
                else:
                    assert app.message_text or app.player.position != before[0], key
                if pane != "_default" and type(app.screen).__name__ != "TableApp":
                    await pilot.press("escape")
                if isinstance(app.focused, Input):
                    await pilot.press("escape")
                await pilot.press("escape")  # put back what a key picked

        drive(app, script)


def test_big_ben_g_fills_a_gap_or_says_why_not_and_t12_is_reached() -> None:
    app = app_of("big-ben", 464356746)
    tableau = app.game.layout.with_role("tableau")

    async def script(pilot: Any) -> None:
        await pilot.press("g")
        assert app.message_text.startswith("! ") or chosen(app)[-1].name == "fill"
        await pilot.press("t", "1", "2")
        assert app.marks.picked is not None and app.marks.picked[0] == tableau[11]
        await pilot.press("escape", "t", "1", "enter")
        assert app.marks.picked is not None and app.marks.picked[0] == tableau[0]

    drive(app, script)


def test_messages_wrap_at_80_columns_and_the_quit_line_says_the_result() -> None:
    app = app_of("klondike", 11)

    async def script(pilot: Any) -> None:
        long = "You have an unfinished game, kept apart from this one: " + (
            "solitaire play --resume 0123456789abcdef"
        )
        app.tell(long)
        await pilot.pause()
        shown = str(app.query_one("#message").render())
        assert "0123456789abcdef" in shown.replace("\n", " ")
        assert isinstance(app.focused, TableView)

    drive(app, script)
    from yaml_solitaire.engine.play.wording import counted

    assert counted(1, "cards on the foundations") == "1 card on the foundations"
    assert counted(2, "cards placed") == "2 cards placed"
