"""The browser table in a real browser: Debian's chromium, headless, driven by Playwright's
Python package, against a ``solitaire serve`` started here. One browser for the module.

Without chromium or Playwright these tests skip, saying why; they never pass without running.
Screenshots of every game's opening are kept in tests/web_screenshots/: they are written again
only with SOLITAIRE_SCREENSHOTS=update (look at them when they change), so that a test run
leaves the tree as it found it.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from typing import Any

import pytest
from crafted import commands_of
from web_server import Server, running

from conftest import ROOT, run_cli

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright's Python package is missing"
)
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:
    pytest.skip("no chromium on this machine (apt-get install chromium)", allow_module_level=True)

SHOTS = ROOT / "tests" / "web_screenshots"
# The server is started once for the module: its tests and it share one player's data folder.
SHARED_PLAYER_DATA = True
UPDATE_SHOTS = os.environ.get("SOLITAIRE_SCREENSHOTS", "").strip().lower() == "update"
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("web-browser")) as started:
        yield started


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    profile = tempfile.mkdtemp(prefix="chromium-profile-")
    with sync_api.sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=FLAGS, headless=True,
            viewport={"width": 1280, "height": 720},
        )  # fmt: skip
        yield context
        context.close()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    opened = browser.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    opened.close()
    assert errors == []


def open_table(page: Any, server: Server, address: str) -> None:
    page.goto(server.base + address)
    page.wait_for_function("page.version > 0")


def state(page: Any) -> dict[str, Any]:
    record: dict[str, Any] = page.evaluate("page.state")
    return record


def legal(page: Any) -> list[dict[str, Any]]:
    """The legal actions of the record shown, each its text with where it goes."""
    record = state(page)
    return [
        {"text": text, **piles}
        for text, piles in zip(record["moves"], record["move_piles"], strict=True)
    ]


def shown_piles(page: Any) -> dict[str, list[str]]:
    """Each pile as the page shows it: the data-card of its card elements, bottom to top."""
    found: dict[str, list[str]] = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('[data-pile]')].map(
            (p) => [p.dataset.pile,
                    [...p.querySelectorAll('.card')].map((c) => c.dataset.card)]))"""
    )
    return found


def point_of(page: Any, pile: str, index: int | None = None) -> tuple[float, float]:
    """A point of a pile where its card ``index`` shows (its top card by default; the pile's
    place when it is empty)."""
    cards = page.locator(f'[data-pile="{pile}"] .card')
    count = cards.count()
    if count == 0:
        box = page.locator(f'[data-pile="{pile}"] .slot').bounding_box()
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    index = count - 1 if index is None else index
    box = cards.nth(index).bounding_box()
    if index == count - 1:
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    return box["x"] + box["width"] * 0.12, box["y"] + box["height"] * 0.08  # its corner


def settled(page: Any, before: int) -> None:
    page.wait_for_function(f"page.version > {before} && !page.busy")


def version(page: Any) -> int:
    number: int = page.evaluate("page.version")
    return number


def drag(page: Any, source: str, target: str, count: int) -> None:
    size = len(state(page)["piles"][source])
    x, y = point_of(page, source, size - count)
    to_x, to_y = point_of(page, target)
    before = version(page)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 10, y + 10, steps=2)
    page.mouse.move(to_x, to_y, steps=5)
    page.mouse.up()
    settled(page, before)


def click_move(page: Any, source: str, target: str, count: int) -> None:
    size = len(state(page)["piles"][source])
    before = version(page)
    page.mouse.click(*point_of(page, source, size - count))
    page.mouse.click(*point_of(page, target))
    settled(page, before)


def perform(page: Any, command: str, by_drag: bool) -> None:
    """One action of ``play``'s notation done with the mouse, as a player would."""
    actions = legal(page)
    words = command.split()
    found = [a for a in actions if a["text"] == command]
    if not found and len(words) in (2, 3):  # 't2 t3 2' where 't2 t3' says it already
        found = [a for a in actions if [a["source"], a["target"]] == words[:2]]
        found = [a for a in found if len(words) == 2 or a["count"] == int(words[2])]
    assert len(found) == 1, (command, [a["text"] for a in actions])
    action = found[0]
    if action["source"] and action["target"]:
        mover = drag if by_drag else click_move
        mover(page, action["source"], action["target"], action["count"])
        return
    before = version(page)
    if action["stock"]:
        stock = next(n for n, r in page.evaluate("page.plan.roles").items() if r == "stock")
        page.mouse.click(*point_of(page, stock))
    else:
        page.click(f'#own button[data-action="{action["name"]}"]')
    settled(page, before)


def test_klondike_by_drags_and_clicks_equals_line_mode(page: Any, server: Server) -> None:
    commands = commands_of("klondike_seed_2_win.txt")[:40]
    open_table(page, server, "/play/klondike?seed=2&auto=off")
    for k, command in enumerate(commands):
        perform(page, command, by_drag=k % 2 == 0)
        assert state(page)["ok"], (command, state(page)["error"])
    typed = run_cli("play", "klondike", "--seed", "2", "--no-auto", "--line", "--json",
                    stdin="\n".join(commands) + "\n").json_lines()  # fmt: skip
    assert all(r["ok"] for r in typed)
    assert shown_piles(page) == typed[-1]["piles"]
    assert state(page)["face_down"] == typed[-1]["face_down"]


def test_a_refused_drag_changes_nothing(page: Any, server: Server) -> None:
    open_table(page, server, "/play/klondike?seed=2")
    table = page.evaluate("page.table")
    before = shown_piles(page)
    drag(page, "t3", "t5", 1)
    assert state(page)["ok"] is False and state(page)["error"]
    assert page.locator("#message").inner_text() == state(page)["error"]
    assert shown_piles(page) == before
    status, record = server.request("GET", f"/api/tables/{table}")
    assert status == 200 and record["piles"] == before and record["moves_made"] == 0


def test_a_double_click_sends_a_card_home(page: Any, server: Server) -> None:
    open_table(page, server, "/play/klondike?seed=2&auto=off")
    before = version(page)
    page.mouse.dblclick(*point_of(page, "t2"))
    settled(page, before)
    assert state(page)["played"] == "t2 f1" and len(shown_piles(page)["f1"]) == 1


def test_big_ben_is_won_by_clicks_alone(page: Any, server: Server) -> None:
    open_table(page, server, "/play/big-ben?seed=3&auto=off")
    for command in commands_of("big_ben_seed_3_win.txt"):
        perform(page, command, by_drag=False)
        assert state(page)["ok"], (command, state(page)["error"])
    assert state(page)["result"] == "won" and state(page)["foundation_cards"] == 104
    assert page.locator(".over").inner_text() == "Won!"


def test_undo_redo_and_a_hint_that_lights_up(page: Any, server: Server) -> None:
    open_table(page, server, "/play/klondike?seed=2&auto=off")
    start = shown_piles(page)
    perform(page, "t2 f1", by_drag=True)
    moved = shown_piles(page)
    before = version(page)
    page.keyboard.press("u")
    settled(page, before)
    assert shown_piles(page) == start
    before = version(page)
    page.click("#redo")
    settled(page, before)
    assert shown_piles(page) == moved
    before = version(page)
    page.click("#hint")
    settled(page, before)
    hint = state(page)
    assert hint["hint"] and page.locator("#message").inner_text().startswith("hint:")
    if hint["hint_source"]:
        lit = page.locator(f'[data-pile="{hint["hint_source"]}"] .card.hint')
        assert lit.count() == hint["hint_count"]
    if hint["hint_target"]:
        assert page.locator(f'[data-pile="{hint["hint_target"]}"].hint').count() == 1
    perform(page, "t7 f2", by_drag=False)  # after undo and redo the page still plays
    assert state(page)["ok"] and state(page)["moves_made"] == 2


def test_a_game_saved_at_the_terminal_resumes_in_the_browser_and_back(
    page: Any, server: Server
) -> None:
    commands = commands_of("klondike_seed_2_win.txt")[:6]
    typed = run_cli("play", "klondike", "--seed", "2", "--no-auto", "--json",
                    stdin="\n".join([*commands, "quit"]) + "\n").json_lines()  # fmt: skip
    saves = run_cli("saves", "--json").json_lines()
    saved = next(s["id"] for s in saves if s["game"] == "klondike" and s["seed"] == 2)
    open_table(page, server, f"/play/klondike?resume={saved}&auto=off")
    assert shown_piles(page) == typed[-2]["piles"]
    perform(page, commands_of("klondike_seed_2_win.txt")[6], by_drag=True)
    in_browser = shown_piles(page)
    # The table holds the save's lock only while it answers: the terminal takes the game.
    back = run_cli("play", "--resume", saved, "--no-auto", "--json", stdin="")
    assert back.json_lines()[0]["piles"] == in_browser, back.err


def boxes(page: Any) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(
        """() => {
          const box = (e) => { const r = e.getBoundingClientRect();
                               return [r.left, r.top, r.right, r.bottom]; };
          return {
            piles: [...document.querySelectorAll('[data-pile]')].map(
              (p) => [p.dataset.pile, box(p)]),
            cards: [...document.querySelectorAll('[data-pile] .card')].map(
              (c) => [c.closest('[data-pile]').dataset.pile, c.dataset.card, box(c)]),
            width: window.innerWidth, height: window.innerHeight,
          };
        }"""
    )
    return found


def test_every_game_opens_inside_the_window_with_no_pile_over_another(
    page: Any, server: Server
) -> None:
    games = [g["id"] for g in run_cli("list", "--json").json_lines()]
    problems: list[str] = []
    for width, height in ((1280, 720), (1920, 1080)):
        page.set_viewport_size({"width": width, "height": height})
        for game in games:
            open_table(page, server, f"/play/{game}?seed=1")
            found = boxes(page)
            assert sorted(p for p, _ in found["piles"]) == sorted(state(page)["piles"]), game
            assert len(found["cards"]) == sum(len(p) for p in state(page)["piles"].values())
            for pile, card, (left, top, right, bottom) in found["cards"]:
                if left < 0 or top < 0 or right > width + 0.5 or bottom > height + 0.5:
                    problems.append(f"{game} {width}x{height}: {card} of {pile} leaves the window")
                for other, (x0, y0, x1, y1) in found["piles"]:
                    if other != pile and left < x1 and x0 < right and top < y1 and y0 < bottom:
                        problems.append(
                            f"{game} {width}x{height}: {card} of {pile} is over {other}"
                        )
            if width == 1280 and UPDATE_SHOTS:
                SHOTS.mkdir(exist_ok=True)
                page.screenshot(path=str(SHOTS / f"{game}.png"))
    assert problems == []


def test_the_status_says_when_no_win_is_possible(page: Any, server: Server) -> None:
    open_table(page, server, "/play/golf?seed=10")
    played: list[str] = []
    for _ in range(40):
        if state(page).get("no_win") or state(page)["over"]:
            break
        played.append(state(page)["moves"][0])
        perform(page, played[-1], by_drag=False)
    warning = state(page)["no_win"]
    assert warning.startswith("no win is possible")
    # The bar says it in a few words, whole, beside the score; the sentence is its tooltip.
    assert "no win is possible from here" in page.locator("#status").inner_text()
    assert warning in (page.locator("#status .warn").get_attribute("title") or "")
    bar = page.evaluate(
        """() => { const s = document.getElementById('status');
                   const b = document.getElementById('bar').getBoundingClientRect();
                   const r = s.getBoundingClientRect();
                   return [s.scrollWidth <= s.clientWidth + 1, r.top >= b.top,
                           r.bottom <= b.bottom, r.right <= window.innerWidth]; }"""
    )
    assert bar == [True, True, True, True]
    # The player's words, said after the same moves in line mode.
    typed = run_cli("play", "golf", "--seed", "10", "--json",
                    stdin="\n".join(played) + "\n").json_lines()  # fmt: skip
    assert typed[-1]["no_win"] == warning


def test_the_list_of_games_is_solitaire_lists(page: Any, server: Server) -> None:
    page.goto(server.base + "/")
    page.wait_for_selector("#games tbody tr")
    rows = page.eval_on_selector_all(
        "#games tbody tr", "(rows) => rows.map((r) => [...r.cells].map((c) => c.innerText))"
    )
    listed = run_cli("list", "--json").json_lines()
    assert rows == [[g["name"], g["id"], str(g["decks"]), ", ".join(g["aliases"])] for g in listed]
    page.select_option("#pick-game", "freecell")
    page.fill("#pick-seed", "ms:11982")
    page.click("#pick button")
    page.wait_for_function("typeof page !== 'undefined' && page.version > 0")
    assert page.url.endswith("/play/freecell?seed=ms%3A11982")
    typed = run_cli("play", "freecell", "--seed", "ms:11982", "--json", stdin="").json_lines()
    assert shown_piles(page) == typed[0]["piles"]


def test_restart_new_deal_rules_and_the_games_own_keys(page: Any, server: Server) -> None:
    open_table(page, server, "/play/big-ben?seed=3&auto=off")
    dealt = shown_piles(page)
    perform(page, "t3 f5", by_drag=True)
    before = version(page)
    page.keyboard.press("g")  # fill, by its key in the rule file
    settled(page, before)
    assert state(page)["command"] == "fill" and state(page)["ok"]
    assert shown_piles(page) != dealt
    # Restart asks line mode's question first; Escape goes on with the game.
    page.click("#restart")
    asked = page.locator("#ask-text").inner_text()
    assert asked == state(page)["questions"]["restart"]["text"]
    assert asked.startswith("Play this deal again from the start? This game (2 moves)")
    page.keyboard.press("Escape")
    assert not page.locator("#ask").is_visible() and state(page)["moves_made"] == 2
    left = state(page)["save"]
    before = version(page)
    page.click("#restart")
    page.click('#ask button[data-means="abandon"]')
    settled(page, before)
    assert shown_piles(page) == dealt and state(page)["moves_made"] == 0
    assert left not in [s["id"] for s in run_cli("saves", "--json").json_lines()]
    perform(page, "t3 f5", by_drag=False)
    kept = state(page)["save"]
    before = version(page)
    page.click("#new")
    page.keyboard.press("k")  # kept saved, by its key
    settled(page, before)
    seed = state(page)["seed"]
    assert seed != 3 and page.url.endswith(f"/play/big-ben?seed={seed}&auto=off")
    assert kept in [s["id"] for s in run_cli("saves", "--json").json_lines()]
    before = version(page)
    page.click("#rules-button")
    settled(page, before)
    assert page.locator("#rules").is_visible()
    assert "Big Ben" in page.locator("#rules-text").inner_text()


def test_an_unfinished_game_is_listed_and_opens(page: Any, server: Server) -> None:
    commands = commands_of("klondike_seed_2_win.txt")[:3]
    run_cli("play", "klondike", "--seed", "2", "--no-auto", "--json",
            stdin="\n".join([*commands, "quit"]) + "\n")  # fmt: skip
    saved = run_cli("saves", "--json").json_lines()[0]
    page.goto(server.base + "/")
    link = page.locator(f'[data-save="{saved["id"]}"] a')
    link.click()
    page.wait_for_function("typeof page !== 'undefined' && page.version > 0")
    assert state(page)["save"] == saved["id"] and state(page)["moves_made"] == 3


def test_a_deal_asked_for_names_its_unfinished_game(page: Any, server: Server) -> None:
    run_cli("play", "freecell", "--seed", "ms:2", "--no-auto", "--json",
            stdin="t1 c1\nquit\n")  # fmt: skip
    saved = next(s for s in run_cli("saves", "--json").json_lines() if s["seed"] == "ms:2")
    open_table(page, server, "/play/freecell?seed=ms:2&auto=off")
    assert state(page)["saved_games"][0] == saved["id"] and state(page)["moves_made"] == 0
    assert "You have an unfinished game of this deal" in page.locator("#message").inner_text()
    page.click("#take-up")
    page.wait_for_function("typeof page !== 'undefined' && page.version > 0")
    assert state(page)["save"] == saved["id"] and state(page)["moves_made"] == 1
