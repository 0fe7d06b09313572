"""No pile hides another at the table: every game, at four terminal sizes, at the deal and after
a hundred random legal actions, read back from the screen Textual draws.

For each pile the test finds, on the rendered screen, the cells where the table says it drew the
pile's top card, and checks there the characters of that card (its rank and suit whole, or the
back of a face-down card); those cells lie inside the screen and in no other pile's box; each
named pile's name stands at the corner of its box; no two boxes meet.
"""

from __future__ import annotations

import asyncio
import io
import random
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from conftest import ROOT, run_cli
from yaml_solitaire.engine.core.cards import DOWN, FACE, MASK
from yaml_solitaire.engine.game.game import Game
from yaml_solitaire.engine.game.load import load_game
from yaml_solitaire.engine.play.player import PlayOptions
from yaml_solitaire.engine.play.progress import new_deal
from yaml_solitaire.engine.ui.render import Renderer, face_name
from yaml_solitaire.engine.ui.table.app import TableApp, TableView, make_app
from yaml_solitaire.rules.catalog import shipped_games

SIZES = ((80, 24), (100, 30), (160, 50), (200, 60))
ACTIONS = 100


def rule_files_in_tests() -> list[Path]:
    """The rule files under tests/ that load as games (tests/broken holds the others)."""
    found = []
    for path in sorted((ROOT / "tests").rglob("*.yaml")):
        if "broken" in path.parts or path.name == "presets.yaml":
            continue
        found.append(path)
    return found


def options() -> PlayOptions:
    return PlayOptions(record_history=False, symbols=True, interactive=True)


def screen_text(app: TableApp) -> list[str]:
    """The characters on the screen, line by line, as the terminal shows them."""
    width, height = app.size
    console = Console(
        width=width, height=height, file=io.StringIO(), force_terminal=True, record=True
    )
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text(styles=False).split("\n")


def problems_on_screen(app: TableApp, where: str) -> list[str]:
    """What is wrong on the screen now: a top card not drawn whole, outside the screen, on
    another pile's box; a name not at its box; boxes that meet."""
    game = app.game
    view = app.query_one(TableView)
    picture = view.picture
    assert picture is not None
    if picture.needed is not None:
        return [f"{where}: the table says it needs {picture.needed}"]
    lines = screen_text(app)
    ox, oy = view.content_region.x, view.content_region.y
    bottom = view.content_region.bottom
    width = app.size.width
    out: list[str] = []
    boxes = picture.boxes
    state = app.player.session.position
    names = game.pile_names
    if set(boxes) != set(range(len(names))):
        out.append(f"{where}: piles without a box: {set(range(len(names))) - set(boxes)}")
    ordered = sorted(boxes.items())
    for k, (pile, box) in enumerate(ordered):
        for other, box2 in ordered[k + 1 :]:
            if box.meets(box2):
                out.append(f"{where}: the boxes of {names[pile]} and {names[other]} meet")
    for pile, cards in enumerate(state.piles):
        box = boxes.get(pile)
        if box is None:
            continue
        if box.w > 1 and box.h > 1:  # a named pile: its name at the box's corner
            seen = lines[oy + box.y][ox + box.x : ox + box.x + min(box.w, len(names[pile]))]
            if not names[pile].startswith(seen) or not seen:
                out.append(f"{where}: {names[pile]}'s name is not at its box: {seen!r}")
        if not cards:
            continue
        top = (pile, len(cards) - 1)
        cells = sorted((y, x) for (x, y), hit in picture.hits.items() if hit == top)
        if not cells:
            out.append(f"{where}: {names[pile]}'s top card is not drawn")
            continue
        for y, x in cells:
            sx, sy = ox + x, oy + y
            if not (0 <= sx < width and 0 <= sy < bottom):
                out.append(f"{where}: {names[pile]}'s top card is off the screen at {sx},{sy}")
                break
            covering = [names[p] for p, b in boxes.items() if p != pile and b.holds(x, y)]
            if covering:
                out.append(f"{where}: {names[pile]}'s top card lies on {covering[0]}'s box")
                break
        first = cells[0][0]
        row = [x for y, x in cells if y == first]
        drawn = lines[oy + first][ox + row[0] : ox + row[-1] + 1]
        card = cards[-1]
        if card & DOWN:
            wanted = "░" if app.table.colour else "#"
        else:
            wanted = face_name(FACE[card & MASK], symbols=app.table.symbols)
        if wanted not in drawn:
            out.append(f"{where}: {names[pile]}'s top card {wanted!r} is drawn as {drawn!r}")
    return out


async def close_panes(pilot: Any, app: TableApp) -> None:
    """Close what covers the table (a long message opens a pane of its own)."""
    for _ in range(5):
        if len(app.screen_stack) <= 1:
            return
        await pilot.press("escape")
        await pilot.pause()


def check_game(game: Game, ref: str, ascii_only: bool = False) -> list[str]:
    app = make_app(game, options(), new_deal(game, 1), ref, ascii=ascii_only, ticking=False)
    found: list[str] = []

    async def main() -> None:
        async with app.run_test(size=SIZES[0]) as pilot:
            for moment in ("deal", f"after {ACTIONS} actions"):
                if moment != "deal":
                    session = app.player.session
                    chance = random.Random(f"{game.id} {ACTIONS}")
                    for _ in range(ACTIONS):
                        legal = session.legal_actions()
                        if session.is_over() or not legal:
                            break
                        session.push(chance.choice(legal))
                for size in SIZES:
                    await pilot.resize_terminal(*size)
                    app.query_one(TableView).refresh()  # the position changed under it
                    await pilot.pause()
                    await close_panes(pilot, app)
                    where = f"{ref} {size[0]}x{size[1]} {moment}"
                    found.extend(problems_on_screen(app, where))

    asyncio.run(main())
    return found


@pytest.mark.parametrize("game_id", sorted(g.id for g in shipped_games()))
def test_no_pile_hides_another_in_a_shipped_game(game_id: str) -> None:
    assert check_game(load_game(game_id), game_id) == []


@pytest.mark.parametrize(
    "path", rule_files_in_tests(), ids=lambda p: str(p.relative_to(ROOT / "tests"))
)
def test_no_pile_hides_another_in_the_rule_files_of_the_tests(path: Path) -> None:
    assert check_game(load_game(str(path)), str(path)) == []


@pytest.mark.parametrize(
    "game_id",
    [g.id for g in shipped_games() if any(load_game(g.id).layout.covered_by)],
)
def test_a_covered_pile_is_drawn_above_and_between_the_piles_that_cover_it(game_id: str) -> None:
    """A pyramid, Tri Peaks' peaks: the picture shows which cards hold which, at every size."""
    game = load_game(game_id)
    app = make_app(game, options(), new_deal(game, 1), game_id, ticking=False)
    covered = [(p, c) for p, c in enumerate(game.layout.covered_by) if c]

    async def main() -> None:
        async with app.run_test(size=SIZES[0]) as pilot:
            for size in SIZES:
                await pilot.resize_terminal(*size)
                await pilot.pause()
                boxes = app.query_one(TableView).picture.boxes  # type: ignore[union-attr]
                for pile, covers in covered:
                    box = boxes[pile]
                    middle = box.x + box.w / 2
                    below = [boxes[c] for c in covers]
                    where = f"{game_id} {size}: {game.pile_names[pile]}"
                    assert all(b.y > box.y for b in below), where
                    assert min(b.x for b in below) <= middle <= max(b.x + b.w for b in below)

    asyncio.run(main())


@pytest.mark.parametrize("game_id", ["big-ben", "clock", "klondike", "pyramid", "spider"])
def test_no_pile_hides_another_without_colour_or_suit_symbols(game_id: str) -> None:
    """Cards in brackets ('[10H]') are wider: the plan gives them their room too."""
    assert check_game(load_game(game_id), game_id, ascii_only=True) == []


@pytest.mark.parametrize("game_id", ["big-ben", "clock", "klondike", "spider", "pyramid"])
def test_a_screen_too_small_is_told_the_size_it_needs_and_that_size_is_enough(
    game_id: str,
) -> None:
    game = load_game(game_id)
    app = make_app(game, options(), new_deal(game, 1), game_id, ticking=False)

    async def main() -> None:
        async with app.run_test(size=(30, 10)) as pilot:
            await pilot.pause()
            await close_panes(pilot, app)
            picture = app.query_one(TableView).picture
            assert picture is not None and picture.needed is not None
            width, height = picture.needed
            said = " ".join(" ".join(screen_text(app)).split())
            assert f"needs a terminal of at least {width}x{height}" in said
            await pilot.resize_terminal(width, height)
            await pilot.pause()
            assert problems_on_screen(app, f"{game_id} {width}x{height}") == []
            assert width > 30 or height > 10

    asyncio.run(main())


def test_a_pyramid_of_ten_rows_keeps_its_rows_at_80_columns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At the table every row of the pyramid is one line of cards; in line mode, a row too wide
    for 80 columns wraps, and the others stay rows, not a pile a line."""
    names = ", ".join(f"t{k}" for k in range(1, 56))
    rules = tmp_path / "pyramid_ten.yaml"
    rules.write_text(
        f"extends: {ROOT / 'games' / 'pyramid.yaml'}\nid: pyramid-ten\nname: Ten rows\n"
        f"decks: 2\npiles:\n  tableau:\n    role: tableau\n    names: [{names}]\n"
        "    arrangement: pyramid\n",
        encoding="utf-8",
    )
    game = load_game(str(rules))
    assert check_game(game, str(rules)) == []
    monkeypatch.setenv("COLUMNS", "80")
    lines = run_cli("play", str(rules), "--seed", "1", "--line").out.splitlines()
    rows = [line for line in lines if line.lstrip().startswith("t")]
    assert all(len(line) <= 80 for line in rows)
    assert len(rows) == 11  # nine rows whole, the tenth in two lines
    assert rows[0].split() == ["t1", "AS"] and rows[8].split()[::2] == [
        f"t{k}" for k in range(37, 46)
    ]


def test_big_ben_shows_its_twelve_foundations_with_next_and_stop_at_80_by_24() -> None:
    """The deal of the issue, 54 actions in: each foundation reads 'f11 >5♠ ..J♠' over its card,
    as line mode's board writes it after the card."""
    game = load_game("big-ben")
    app = make_app(game, options(), new_deal(game, 464356746), "big-ben", ticking=False)
    board = Renderer(game, symbols=True, width=200)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            session = app.player.session
            chance = random.Random(54)
            for _ in range(54):
                session.push(chance.choice(session.legal_actions()))
            app.query_one(TableView).refresh()
            await pilot.pause()
            await close_panes(pilot, app)
            assert problems_on_screen(app, "big-ben 80x24") == []
            lines = screen_text(app)
            picture = app.query_one(TableView).picture
            assert picture is not None
            state = session.position
            for pile in game.layout.with_role("foundation"):
                box = picture.boxes[pile]
                drawn = lines[box.y][box.x : box.right].split()
                line_mode = board.foundation(state, pile, 200).plain.split()
                # line mode: 'f11 4♠>5♠ ..J♠'; the table: 'f11 >5♠ ..J♠' above the card 4♠
                top = face_name(FACE[state.piles[pile][-1] & MASK], symbols=True)
                assert line_mode[1].startswith(top)
                assert drawn == [line_mode[0], line_mode[1][len(top) :], line_mode[2]]

    asyncio.run(main())
