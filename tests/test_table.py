"""The full-screen table, driven headless through Textual's pilot: clicks, drags, double-clicks,
keys, refusals with the engine's reason, and a game that goes on in line mode."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import run_cli
from yaml_solitaire.engine.core.cards import DOWN
from yaml_solitaire.engine.core.state import Action
from yaml_solitaire.engine.game.game import Game
from yaml_solitaire.engine.game.load import load_game
from yaml_solitaire.engine.play.player import PlayOptions
from yaml_solitaire.engine.play.progress import Deal, new_deal
from yaml_solitaire.engine.play.records import deal_order, read_record
from yaml_solitaire.engine.play.saves import SaveStore
from yaml_solitaire.engine.play.serial import position_json
from yaml_solitaire.engine.play.wording import symbols_in
from yaml_solitaire.engine.ui.table.app import TableApp, TableView, make_app
from yaml_solitaire.engine.ui.table.layout import Hit, fold

GAMES = ("klondike", "freecell", "big-ben", "spider", "pyramid")
SIZE = (80, 24)


def options(**changes: Any) -> PlayOptions:
    settings: dict[str, Any] = {"record_history": False, "symbols": True, "interactive": True}
    return PlayOptions(**{**settings, **changes})


def table_app(game: Game, seed: int, **changes: Any) -> TableApp:
    return make_app(game, options(**changes), new_deal(game, seed), game.id, ticking=False)


def at_table(
    app: TableApp, script: Callable[[Any], Awaitable[None]], size: tuple[int, int] = SIZE
) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(main())


def cell(app: TableApp, hit: Hit) -> tuple[int, int]:
    """A cell of the table where ``hit`` (a pile and a card, or -1 for the pile) is drawn."""
    picture = app.query_one(TableView).picture
    assert picture is not None
    cells = sorted((y, x) for (x, y), h in picture.hits.items() if h == hit)
    assert cells, f"{hit} is not on the table"
    y, x = cells[0]
    return x, y


def top(app: TableApp, pile: int) -> Hit:
    cards = app.player.session.position.piles[pile]
    return (pile, len(cards) - 1) if cards else (pile, -1)


def first_card(app: TableApp, action: Action) -> Hit:
    """Where a click picks the cards ``action`` moves: the card its run starts at."""
    cards = app.player.session.position.piles[action.src]
    return (action.src, len(cards) - max(action.n, 1))


def seed_with(game: Game, wanted: Callable[[Game, Action], bool], auto: bool = True) -> int:
    """The first deal whose first position has a legal action that ``wanted`` accepts."""
    from yaml_solitaire.engine.play.progress import Progress

    for seed in range(1, 400):
        progress = Progress(game, new_deal(game, seed), auto=auto)
        state = progress.session.position
        if not game.is_terminal(state) and any(wanted(game, a) for a in game.legal_actions(state)):
            return seed
    raise AssertionError("no such deal")  # pragma: no cover


def two_piles(game: Game, action: Action) -> bool:
    return action.src >= 0 and action.dst >= 0


def homeward(game: Game, action: Action) -> bool:
    return action.src >= 0 and (action.dst in game.foundations or action.dst < 0)


def chosen(app: TableApp) -> list[Action]:
    return [p.action for p in app.player.session.history if not p.auto]


@pytest.mark.parametrize("game_id", GAMES)
def test_click_a_card_then_its_place(game_id: str) -> None:
    game = load_game(game_id)
    app = table_app(game, seed_with(game, two_piles))

    async def script(pilot: Any) -> None:
        action = next(a for a in app.player.session.legal_actions() if two_piles(game, a))
        await pilot.click(TableView, offset=cell(app, first_card(app, action)))
        assert app.marks.picked is not None
        await pilot.click(TableView, offset=cell(app, top(app, action.dst)))
        assert action in chosen(app)
        assert app.marks.picked is None

    at_table(app, script)


@pytest.mark.parametrize("game_id", GAMES)
def test_drag_a_card_onto_its_place(game_id: str) -> None:
    game = load_game(game_id)
    app = table_app(game, seed_with(game, two_piles))

    async def script(pilot: Any) -> None:
        action = next(a for a in app.player.session.legal_actions() if two_piles(game, a))
        await pilot.mouse_down(TableView, offset=cell(app, first_card(app, action)))
        await pilot.mouse_up(TableView, offset=cell(app, top(app, action.dst)))
        assert chosen(app) == [action]

    at_table(app, script)


@pytest.mark.parametrize("game_id", [g for g in GAMES if g != "spider"])
def test_double_click_sends_a_card_home(game_id: str) -> None:
    game = load_game(game_id)
    app = table_app(game, seed_with(game, homeward, auto=False), auto=False)

    async def script(pilot: Any) -> None:
        action = next(a for a in app.player.session.legal_actions() if homeward(game, a))
        home = game.score(app.player.session.position)
        await pilot.double_click(TableView, offset=cell(app, top(app, action.src)))
        assert chosen(app) and chosen(app)[-1].src == action.src
        assert game.score(app.player.session.position) > home

    at_table(app, script)


def test_double_click_where_no_foundation_takes_the_card_says_so() -> None:
    game = load_game("spider")  # its foundations take only whole runs, by themselves
    app = table_app(game, 1)

    async def script(pilot: Any) -> None:
        before = app.player.session.position
        await pilot.double_click(TableView, offset=cell(app, top(app, game.layout.one("t1"))))
        assert app.player.session.position == before
        assert app.message_text.startswith("! no foundation takes")

    at_table(app, script)


@pytest.mark.parametrize("game_id", [g for g in GAMES if g != "freecell"])
def test_a_click_on_the_stock_draws_and_u_shift_r_undo_and_redo(game_id: str) -> None:
    game = load_game(game_id)
    app = table_app(game, 1)
    stock = game.layout.with_role("stock")[0]

    async def script(pilot: Any) -> None:
        before = app.player.session.position
        await pilot.click(TableView, offset=cell(app, top(app, stock)))
        after = app.player.session.position
        assert len(after.piles[stock]) < len(before.piles[stock])
        assert chosen(app)[-1].src == -1  # the stock's own action: draw, or deal a row
        await pilot.press("u")
        assert app.player.session.position == before
        await pilot.press("R")  # 'r' is the game's redeal in Klondike and Pyramid
        assert app.player.session.position == after

    at_table(app, script)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_refused_move_shows_the_engines_reason_and_changes_nothing(game_id: str) -> None:
    game = load_game(game_id)
    app = table_app(game, 1)

    async def script(pilot: Any) -> None:
        session = app.player.session
        legal = session.legal_actions()
        pairs = [
            (s, d)
            for s in game.layout.with_role("tableau")
            for d in game.layout.with_role("tableau")
            if s != d and session.position.piles[s] and session.position.piles[d]
            and not any(a.src in (s, d) and a.dst in (s, d) for a in legal)
        ]  # fmt: skip
        src, dst = pairs[0]
        before = session.position
        await pilot.click(TableView, offset=cell(app, top(app, src)))
        await pilot.click(TableView, offset=cell(app, top(app, dst)))
        assert session.position == before
        text = f"{game.pile_names[src]} {game.pile_names[dst]}"
        try:
            session.push(game.parse_action(text, before))
        except ValueError as exc:
            assert app.message_text == f"! {symbols_in(str(exc))}"
        else:  # pragma: no cover - the move was legal after all
            raise AssertionError(text)

    at_table(app, script)


@pytest.mark.parametrize("game_id", GAMES)
def test_quit_at_the_table_and_go_on_in_line_mode(game_id: str) -> None:
    game = load_game(game_id)
    app = table_app(game, seed_with(game, two_piles))

    async def script(pilot: Any) -> None:
        action = next(a for a in app.player.session.legal_actions() if two_piles(game, a))
        await pilot.click(TableView, offset=cell(app, first_card(app, action)))
        await pilot.click(TableView, offset=cell(app, top(app, action.dst)))
        await pilot.press("q")  # the game has a move: the table asks first
        assert app.is_running
        await pilot.press("y")

    at_table(app, script)
    assert not app.is_running
    assert any("Saved" in text for text in app.farewell)
    shown = position_json(game, app.player.session.position)
    resumed = run_cli("play", game_id, "--resume", "--json", "--no-record", stdin="quit\n")
    assert resumed.code == 0
    first = resumed.json_lines()[0]
    assert first["piles"] == shown["piles"] and first["resumed"]


def test_a_game_begun_in_line_mode_goes_on_at_the_table() -> None:
    game = load_game("klondike")
    begun = run_cli(
        "play", "klondike", "--seed", "3", "--json", "--no-record", stdin="d\nd\nquit\n"
    )
    assert begun.code == 0
    expected = begun.json_lines()[-2]["piles"]
    saved = SaveStore().latest(game.id)
    assert saved is not None
    path = saved.path
    record = read_record(path)
    deal = Deal(record.seed, deal_order(record, game))
    app = make_app(game, options(), deal, "klondike", record, path, ticking=False)

    async def script(pilot: Any) -> None:
        assert position_json(game, app.player.session.position)["piles"] == expected
        assert "resumed" in app.message_text or app.player.progress.moves == 2
        assert app.player.progress.moves == 2
        await pilot.press("u")
        assert app.player.progress.moves == 1

    at_table(app, script)


def test_the_command_bar_takes_line_mode_commands() -> None:
    game = load_game("klondike")
    app = table_app(game, 1)

    async def script(pilot: Any) -> None:
        await pilot.press("colon")
        for key in "draw":
            await pilot.press(key)
        await pilot.press("enter")
        assert chosen(app) == [Action("draw")]
        assert isinstance(app.focused, TableView)  # the bar closed after its command
        await pilot.press("colon")
        for key in "t1 t2":
            await pilot.press("space" if key == " " else key)
        await pilot.press("enter")
        assert app.message_text.startswith("! ")
        assert len(chosen(app)) == 1

    at_table(app, script)


def test_keys_pick_piles_and_h_lights_the_hint() -> None:
    game = load_game("freecell")
    app = table_app(game, 1)

    async def script(pilot: Any) -> None:
        await pilot.press("h")
        await app.workers.wait_for_complete()  # the hint is looked for in a thread
        await pilot.pause()
        assert app.marks.hint is not None
        assert app.message_text.startswith("hint: ")
        hinted = app.player.adviser.advise(app.player.session.position, app.player.seen).action
        assert hinted is not None
        tableau = game.layout.with_role("tableau")
        await pilot.press(str(tableau.index(hinted.src) + 1))
        assert app.marks.picked is not None and app.marks.picked[0] == hinted.src
        await pilot.press("escape")
        assert app.marks.picked is None
        await pilot.press("question_mark")
        assert type(app.screen).__name__ == "TextPane"
        await pilot.press("escape")
        await pilot.press("i")
        assert type(app.screen).__name__ == "TextPane"
        await pilot.press("escape")
        await pilot.press("right", "enter")
        assert app.marks.picked is not None or app.message_text

    at_table(app, script)


def test_status_bar_and_a_fresh_game_quits_without_asking() -> None:
    game = load_game("klondike")
    app = table_app(game, 1)

    async def script(pilot: Any) -> None:
        status = str(app.query_one("#status").render())
        assert "Klondike" in status and "moves: 0" in status
        await pilot.press("q")

    at_table(app, script)
    assert not app.is_running


def test_line_mode_and_help_do_not_import_textual() -> None:
    import subprocess
    import sys

    code = (
        "import sys\nfrom yaml_solitaire.engine.ui.cli import main\n"
        "main(['play', 'klondike', '--seed', '1', '--no-record'])\n"
        "print(json.dumps([m for m in sys.modules if m.split('.')[0] == 'textual']))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", "import json\n" + code],
        input="quit\n", capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert json.loads(run.stdout.strip().splitlines()[-1]) == []


def test_a_won_game_is_celebrated() -> None:
    game = load_game("clock")
    app = table_app(game, 18)  # deal 18 of Clock plays itself to a win

    async def script(pilot: Any) -> None:
        banner = app.query_one("#banner")
        assert banner.display
        assert "You won Clock" in str(banner.render())
        assert "WON" in str(app.query_one("#status").render())

    at_table(app, script)


def test_ctrl_c_saves_the_game_and_ends_with_130() -> None:
    game = load_game("klondike")
    app = table_app(game, 1)

    async def script(pilot: Any) -> None:
        await pilot.click(TableView, offset=cell(app, top(app, game.layout.one("s"))))
        await pilot.press("ctrl+c")

    at_table(app, script)
    assert app.return_value == 130
    saved = SaveStore().latest(game.id)
    assert saved is not None and saved.path.exists()


def test_the_status_bar_says_when_no_win_is_possible() -> None:
    game = load_game("golf")
    seed = 1
    app = table_app(game, seed)

    async def script(pilot: Any) -> None:
        session = app.player.session
        for _ in range(60):  # play on until the engine proves the deal lost
            if session.is_over() or session.position in app.player.told_lost:
                break
            action = session.legal_actions()[0]
            app.run_command(game.action_text(action))
            await pilot.pause()
        assert session.position in app.player.told_lost
        assert "no win is possible from here" in str(app.query_one("#status").render())

    at_table(app, script)


@given(st.lists(st.booleans(), min_size=1, max_size=60), st.integers(0, 40))
def test_a_folded_column_fits_its_room_and_ends_with_its_top_card(
    downs: list[bool], rows: int
) -> None:
    cards = [DOWN if down else 0 for down in downs]
    plan = fold(cards, rows)
    assert len(plan) <= max(rows, 1)
    _, index, count = plan[-1]
    assert index + count == len(cards)  # the top card is always drawn
    if len(cards) <= rows:
        assert plan == [("card", i, 1) for i in range(len(cards))]
    covered = [i for _, first, n in plan for i in range(first, first + n)]
    assert covered == sorted(set(covered))  # in order, nothing drawn twice


def test_a_quick_second_click_on_the_stock_draws_again() -> None:
    game = load_game("klondike")
    app = table_app(game, 1)
    stock = game.layout.one("s")

    async def script(pilot: Any) -> None:
        await pilot.double_click(TableView, offset=cell(app, top(app, stock)))
        assert chosen(app) == [Action("draw"), Action("draw")]
        assert not app.message_text.startswith("!")

    at_table(app, script)


def line_to_a_gap(game: Game) -> tuple[int, list[Action]]:
    """A deal, and moves off its tableau that leave a gap that 'fill' may fill."""
    from yaml_solitaire.engine.play.progress import Progress

    tableau = game.layout.with_role("tableau")
    for seed in range(1, 60):
        start = Progress(game, new_deal(game, seed), auto=False).session.position
        frontier: list[tuple[Any, list[Action]]] = [(start, [])]
        for _ in range(6):
            following = []
            for state, line in frontier:
                if any(not state.piles[p] for p in tableau) and Action("fill") in (
                    game.legal_actions(state)
                ):
                    return seed, line
                for action in game.legal_actions(state):
                    if action.src in tableau and action.dst >= 0:
                        following.append((game.apply(state, action), [*line, action]))
            frontier = following[:200]
    raise AssertionError("no deal with a gap found")  # pragma: no cover


def test_a_click_on_a_gap_fills_it() -> None:
    game = load_game("big-ben")
    seed, line = line_to_a_gap(game)
    app = table_app(game, seed, auto=False)
    tableau = game.layout.with_role("tableau")

    async def script(pilot: Any) -> None:
        session = app.player.session
        for action in line:
            app.run_command(game.action_text(action))
        await pilot.pause()
        gaps = [p for p in tableau if not session.position.piles[p]]
        assert gaps and len(chosen(app)) == len(line)
        await pilot.click(TableView, offset=cell(app, (gaps[0], -1)))
        assert chosen(app)[len(line) :] == [Action("fill")]
        assert all(session.position.piles[p] for p in tableau)

    at_table(app, script)


def test_a_game_left_at_the_table_is_in_the_history() -> None:
    game = load_game("klondike")
    app = table_app(game, 1, record_history=True)

    async def script(pilot: Any) -> None:
        await pilot.click(TableView, offset=cell(app, top(app, game.layout.one("s"))))
        await pilot.press("q", "y")

    at_table(app, script)
    from yaml_solitaire.engine.play.history import History
    from yaml_solitaire.engine.play.userdata import history_path

    rows = {row.id: row for row in History(history_path()).games("klondike")}
    assert rows[app.player.progress.id].result == "unfinished"  # its save is kept
    assert rows[app.player.progress.id].moves == 1


def test_keys_of_the_game_do_nothing_while_a_pane_is_open() -> None:
    game = load_game("klondike")
    app = table_app(game, 1)

    async def script(pilot: Any) -> None:
        await pilot.click(TableView, offset=cell(app, top(app, game.layout.one("s"))))
        await pilot.press("question_mark", "u")
        assert len(chosen(app)) == 1  # 'u' in the help pane undid nothing
        await pilot.press("escape", "u")
        assert chosen(app) == []

    at_table(app, script)


def test_on_a_real_terminal_play_opens_the_table_and_takes_the_mouse(tmp_path: Path) -> None:
    import fcntl
    import os
    import pty
    import select
    import struct
    import subprocess
    import sys
    import termios

    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    # A player's data of its own: no saved game of this deal from another test is offered.
    env = dict(os.environ, TERM="xterm-256color", XDG_DATA_HOME=str(tmp_path))
    env.pop("NO_COLOR", None)
    game = subprocess.Popen(
        [sys.executable, "-m", "yaml_solitaire.engine", "play", "klondike", "--seed", "1",
         "--no-record"],
        stdin=follower, stdout=follower, stderr=follower, env=env, close_fds=True,
        start_new_session=True,
    )  # fmt: skip
    os.close(follower)
    seen = b""

    def until(text: bytes) -> None:
        nonlocal seen
        while text not in seen:
            ready, _, _ = select.select([leader], [], [], 90)
            assert ready, f"waited for {text!r}; got {seen[-400:]!r}"
            seen += os.read(leader, 65536)

    try:
        until(b"moves:")
        assert b"\x1b[?1000h" in seen or b"\x1b[?1006h" in seen, "the table asks for the mouse"
        seen = b""
        os.write(leader, b"\x1b[<0;2;2M\x1b[<0;2;2m")  # a click on the stock, as SGR reports
        until(b"moves:")
        until(b"1")
        os.write(leader, b"q")
        until(b"bandon")  # line mode's question: [Y]es, [a]bandon it, [n]o
        os.write(leader, b"\r")  # Enter: the first choice, as in line mode
        until(b"continue with: solitaire play --resume")
        game.wait(timeout=20)
    finally:
        if game.poll() is None:
            game.kill()
            game.wait()
        os.close(leader)
    assert game.returncode == 0
