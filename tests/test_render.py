"""A board that tells: next and last card of each foundation, fixed columns, colour and symbols
on a terminal (plain with NO_COLOR, --ascii, --json), the status line and the reports."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import sys

import pytest
from big_ben_decks import deck

from conftest import ROOT, run_cli
from yaml_solitaire.engine.ui.cli import main

ANSI = re.compile(r"\x1b\[[0-9;]*m")


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def on_terminal(monkeypatch: pytest.MonkeyPatch, *args: str, no_color: bool = False) -> str:
    """The output of a command whose standard output is a terminal (input from a pipe)."""
    monkeypatch.setenv("TERM", "xterm-256color")
    if no_color:
        monkeypatch.setenv("NO_COLOR", "1")
    else:
        monkeypatch.delenv("NO_COLOR", raising=False)
    out = _Terminal()
    old_stdin = sys.stdin
    sys.stdin = io.StringIO("")
    try:
        with contextlib.redirect_stdout(out):
            assert main(list(args)) == 0
    finally:
        sys.stdin = old_stdin
    return out.getvalue()


def test_a_terminal_gets_colour_suit_symbols_and_emphasised_playable_cards(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    out = on_terminal(monkeypatch, "play", "big-ben", "--seed", "3")
    plain = ANSI.sub("", out)
    assert "f11 4♠>5♠ ..J♠" in plain and "t1  7♠ K♠ 4♦" in plain
    assert "\x1b[31m4♦\x1b[0m" in out, "red diamonds; 4D has no move: not emphasised"
    assert "\x1b[1;4mJ♣\x1b[0m" in out, "t3's JC can move: bold and underlined"


@pytest.mark.parametrize("how", ["NO_COLOR", "--ascii", "--json"])
def test_no_color_ascii_and_json_keep_plain_letters(
    monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    extra = [how] if how.startswith("--") else []
    out = on_terminal(monkeypatch, "play", "big-ben", "--seed", "3", *extra,
                      no_color=how == "NO_COLOR")  # fmt: skip
    assert "\x1b[" not in out and "♠" not in out
    assert ("f12 5D>6D ..QD" in out and "t12 7C AS JC" in out) or '"t12": ["7C"' in out


def test_foundations_show_their_next_and_last_card() -> None:
    out = run_cli("play", "big-ben", "--seed", "3").out
    # f11 builds up in spades from its base 4S and stops at its hour, J.
    assert "f11 4S>5S ..JS" in out and "f8  KD>AD ..8D" in out and "f9  2C>3C ..9C" in out
    tops = {"t12": "6D", "t1": "7D", "t2": "8D", "t3": "9D", "t4": "10D", "t5": "JD", "t6": "QD"}
    order = deck(tableau={p: [c] for p, c in tops.items()})
    moves = "".join(f"{p} f12\n" for p in tops)
    last = run_cli("play", "big-ben", "--deck", " ".join(order), "--no-auto", stdin=moves).out
    assert "f12 JD>QD last" in last and "f12 QD done" in last
    kings = run_cli("play", str(ROOT / "tests" / "data" / "kings_aside.yaml"), "--seed", "2").out
    assert "  f2 >A ..K" in kings, "an empty pile shows only what it takes"


def test_a_foundation_that_builds_down_shows_where_it_stops() -> None:
    down = str(ROOT / "tests" / "data" / "kings_aside_down.yaml")
    out = run_cli("play", down, "--seed", "2").out
    assert "  f1 >K ..A" in out, "from the King down to the Ace"


@pytest.mark.parametrize("width", [80, 120])
@pytest.mark.parametrize("game", ["big-ben", "clock", "clock-peek", "grandfathers-clock"])
def test_the_board_fits_the_width_and_its_columns_never_move(
    monkeypatch: pytest.MonkeyPatch, width: int, game: str
) -> None:
    monkeypatch.setenv("COLUMNS", str(width))
    scripts = {"big-ben": ("3", "big_ben_seed_3_win.txt"),
               "grandfathers-clock": ("1", "grandfathers_clock_seed_1_win.txt")}  # fmt: skip
    seed, script = scripts.get(game, ("3", ""))
    commands = (ROOT / "tests" / "data" / script).read_text() if script else ""
    result = run_cli("play", game, "--seed", seed, "--no-auto", stdin=commands)
    lines = result.out.splitlines()
    assert all(len(line) <= width for line in lines), game
    # Every board has the same lines in the same places, whatever the piles hold.
    names = [m.group(1) for m in re.finditer(r"(?<![\w-])([a-z]+\d*) ", "\n".join(lines[1:20]))]
    for name in {n for n in names if re.fullmatch(r"[fth]\d+|centre|s|w", n)}:
        assert len(columns(result.out, name)) <= 1, (game, name)


def columns(out: str, name: str) -> set[int]:
    """Where the pile named ``name`` starts on the lines of the boards shown."""
    pattern = re.compile(rf"(?<![\w-]){name} +(\d|[A-KQ-]|\+)")
    board = [line for line in out.splitlines() if not line.startswith("Big Ben")]
    # A command quoted in a help line ('pick h5 2') is not a pile on the board.
    board = [re.sub(r"'[^']*'", lambda m: " " * len(m.group()), line) for line in board]
    return {m.start() for line in board for m in pattern.finditer(line)}


def test_columns_stay_put_as_a_pile_grows_and_long_piles_are_shortened(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    # t3's JC onto QC of t4, then the 10C found by a fill... t4 grows past its place.
    out = run_cli("play", "big-ben", "--seed", "3", "--no-auto", stdin="t3 t4\n").out
    boards = out.split("Big Ben  ")
    assert len(boards) == 3
    for name in ("t4", "f4", "t2", "f2", "t5", "s", "w"):
        assert len(columns(out, name)) == 1, name
    assert "t4  +2 Q" in boards[1] and "t4  8D 10S QC" in boards[0]
    assert all(len(line) <= 80 for line in out.splitlines())


def test_status_line_reports_and_undo_say_what_happened() -> None:
    out = run_cli("play", "big-ben", "--seed", "3", stdin="t3 f5\nt4 f5\nfill\nundo\n").out
    assert "cards on the foundations: 14/104  moves: 2" in out
    assert "fill: t3 <- 10H, t4 <- 7H" in out
    assert "undone: fill" in out
    assert "moves: 3" in out


def test_a_real_terminal_has_line_editing_history_and_a_clock(tmp_path: object) -> None:
    pty = pytest.importorskip("pty")
    import select
    import subprocess

    leader, follower = pty.openpty()
    env = dict(os.environ, TERM="xterm", COLUMNS="80", LINES="24")
    game = subprocess.Popen(
        [sys.executable, "-m", "yaml_solitaire.engine", "play", "big-ben", "--seed", "3", "--line"],
        stdin=follower, stdout=follower, stderr=follower, env=env, close_fds=True,
    )  # fmt: skip
    os.close(follower)
    seen = b""

    def until(text: bytes) -> None:
        nonlocal seen
        while text not in seen:
            ready, _, _ = select.select([leader], [], [], 20)
            assert ready, f"waited for {text!r}; got {seen[-400:]!r}"
            seen += os.read(leader, 65536)

    try:
        until(b"> ")
        assert b"moves: 0  0:00" in seen, "a terminal shows the time played"
        os.write(leader, b"t3 f5\r")
        until(b"moves: 1")
        os.write(leader, b"u\r")
        until(b"undone: t3 f5")
        seen = b""
        os.write(leader, b"\x1b[A\x1b[A\r")  # Up twice: the first command again
        until(b"moves: 1")
        os.write(leader, b"q\r")
        until(b"Leave this game (1 move)?")  # a game with moves: asked first
        os.write(leader, b"\r")
        game.wait(timeout=20)
    finally:
        if game.poll() is None:
            game.kill()
        os.close(leader)
    assert game.returncode == 0


def test_help_fits_the_width_and_lists_only_what_the_player_can_type(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    out = run_cli("play", "klondike", "--seed", "1", "--no-auto", stdin="help\n").out
    helped = out[out.index("Actions:") : out.index("Commands:")]
    assert all(len(line) <= 80 for line in out.splitlines())
    # Turning up an uncovered card is played by itself: help says so, and offers no command.
    assert "\n  reveal" not in helped and "turns face up (played by itself)." in " ".join(
        helped.split()
    )


def test_every_shipped_game_opens_on_a_board_that_fits_80_by_24(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    shipped = [json.loads(line)["id"] for line in run_cli("list", "--json").out.splitlines()]
    for game in shipped:
        lines = run_cli("play", game, "--seed", "1", "--no-auto").out.splitlines()
        assert len(lines) <= 24 and all(len(line) <= 80 for line in lines), game
    # Piles laid out as a pyramid are drawn as one: its rows, centred, t1 at the apex.
    pyramid = run_cli("play", "pyramid", "--seed", "1", "--no-auto").out.splitlines()
    assert pyramid[1].strip().startswith("t1 ") and pyramid[7].lstrip().startswith("t22 ")
    assert pyramid[1].index("t1 ") > pyramid[7].index("t22 ")


def test_a_title_too_long_for_the_width_puts_the_replay_command_on_its_own_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    out = run_cli("play", "grandfathers-clock", "--seed", "123456789", "--no-auto").out
    first, second = out.splitlines()[:2]
    assert first == "Grandfather's Clock, seed 123456789"
    assert second == "(replay: solitaire play grandfathers-clock --seed 123456789)"
    assert "(replay: solitaire play clock --seed 1)" in run_cli("play", "clock", "--seed", "1").out
