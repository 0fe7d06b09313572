"""No game is lost or thrown away unasked: saves kept per game and deal, locks, signals, the
questions before a game with moves is left, and a win that stays a win."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from terminal import Terminal

from conftest import ROOT, run_cli

WIN_FILE = ROOT / "tests" / "data" / "grandfathers_clock_seed_1_win.txt"
GRANDFATHER_WIN = [m for m in WIN_FILE.read_text().splitlines() if m.strip()]


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home / "yaml-solitaire"


def play(*args: str, stdin: str = "") -> list[dict[str, Any]]:
    result = run_cli("play", *args, "--json", stdin=stdin)
    assert result.code == 0, result.err
    return result.json_lines()


def lines(*commands: str) -> str:
    return "".join(c + "\n" for c in commands)


def saves() -> list[dict[str, Any]]:
    result = run_cli("saves", "--json")
    assert result.code == 0, result.err
    return result.json_lines()


def test_unfinished_games_of_one_game_are_all_kept_and_listed() -> None:
    two = play("freecell", "--seed", "ms:2", stdin=lines("t1 c1", "t2 c2", "q"))
    three = play("freecell", "--seed", "ms:3", stdin=lines("t1 c1", "q"))
    again = play("freecell", "--seed", "ms:2", stdin=lines("t3 c1", "q"))  # a second of ms:2
    listed = saves()
    assert [(s["game"], s["seed"], s["moves"]) for s in listed] == [
        ("freecell", "ms:2", 1),
        ("freecell", "ms:3", 1),
        ("freecell", "ms:2", 2),
    ], "every unfinished game kept, the last played first"
    assert all(len(s["id"]) == 8 and s["cards"] == 52 and s["last_played"] for s in listed)
    # --resume ID continues that game, not the last one.
    first = listed[2]["id"]
    resumed = play("--resume", first, stdin="q\n")
    assert resumed[0]["piles"] == two[-2]["piles"]
    assert play("--resume", stdin="q\n")[0]["piles"] == two[-2]["piles"], "now the last played"
    assert play("--resume", listed[0]["id"], stdin="q\n")[0]["piles"] == again[-2]["piles"]
    assert play("--resume", listed[1]["id"][:5], stdin="q\n")[0]["piles"] == three[-2]["piles"]
    text = run_cli("saves").out
    assert text.splitlines()[0].split() == ["id", "game", "deal", "moves", "home", "last", "played"]
    assert f"{first}  freecell  seed ms:2" in text
    assert run_cli("saves", "--delete", first).code == 0
    assert len(saves()) == 2
    missing = run_cli("play", "--resume", first)
    assert missing.code == 1 and "no saved game, file or game" in missing.err


def test_playing_a_deal_with_a_saved_game_says_so() -> None:
    play("freecell", "--seed", "ms:2", stdin=lines("t1 c1", "q"))
    uid = saves()[0]["id"]
    assert play("freecell", "--seed", "ms:2")[0]["saved_games"] == [uid]
    assert "saved_games" not in play("freecell", "--seed", "ms:4")[0]
    text = run_cli("play", "freecell", "--seed", "ms:2").out
    assert "You have an unfinished game of this deal, kept apart from this one: " in text
    assert f"solitaire play --resume {uid}" in text


def test_the_offer_on_a_terminal_continues_the_saved_game() -> None:
    play("freecell", "--seed", "ms:2", stdin=lines("t1 c1", "q"))
    uid = saves()[0]["id"]
    term = Terminal("play", "--line", "freecell", "--seed", "ms:2")
    try:
        term.read_until("Continue it? [Y/n]")
        term.type("")
        term.read_until(f"resumed game {uid} (1 move,")
        term.type("q")
        term.read_until("Leave this game (1 move)?")
        term.type("")
        term.read_until(f"solitaire play --resume {uid}")
        assert term.wait() == 0
    finally:
        term.close()


def _background(*args: str, env: dict[str, str]) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "yaml_solitaire.engine", "play", *args, "--json"]
    return subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, env=env,
    )  # fmt: skip


def test_a_saved_game_is_played_by_one_program_at_a_time() -> None:
    play("freecell", "--seed", "ms:2", stdin=lines("t1 c1", "q"))
    uid = saves()[0]["id"]
    first = _background("--resume", uid, env=dict(os.environ))
    assert first.stdout and first.stdin
    json.loads(first.stdout.readline())  # the game is on
    second = run_cli("play", "--resume", uid)
    assert second.code == 1 and second.out == ""
    assert second.err.count("\n") == 1
    assert "this game is being played in another window (process " in second.err
    first.stdin.write("t2 c2\nq\n")
    first.stdin.close()
    first.wait(timeout=30)
    assert saves()[0]["moves"] == 2, "the first program's game is the one saved"
    assert play("--resume", uid, stdin="q\n")[0]["ok"], "free again once it has quit"


@pytest.mark.parametrize(("number", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_sigterm_and_sighup_save_the_game_from_a_pipe(number: int, code: int) -> None:
    game = _background("freecell", "--seed", "ms:2", env=dict(os.environ))
    assert game.stdin and game.stdout
    game.stdin.write("t1 c1\n")
    game.stdin.flush()
    seen = [json.loads(game.stdout.readline()) for _ in range(2)]
    game.send_signal(number)
    _, err = game.communicate(timeout=30)
    assert game.returncode == code
    assert "the game is saved in" in err
    assert play("--resume", stdin="q\n")[0]["piles"] == seen[-1]["piles"]


# The game run with one change: once the file named first exists, SIGHUP is tripped in the main
# thread as a signal's handler would trip it (its number on the wakeup fd too), with no signal
# that breaks a wait: the instant of a real one that lands just before a wait begins.
_TRIPPED_OUTSIDE_A_WAIT = """
import _thread, os, signal, sys, threading, time
from yaml_solitaire.engine.ui.cli import main
def trip():
    while not os.path.exists(sys.argv[1]):
        time.sleep(0.01)
    _thread.interrupt_main(signal.SIGHUP)
threading.Thread(target=trip, daemon=True).start()
sys.exit(main(sys.argv[2:]))
"""


def _waiting(pid: int) -> None:
    """Until the main thread of ``pid`` has been asleep (in its read) twice 50 ms apart."""
    stat = Path(f"/proc/{pid}/task/{pid}/stat")
    if not stat.exists():  # pragma: no cover - no /proc: a pause instead
        time.sleep(0.5)
        return
    asleep = 0
    end = time.monotonic() + 10
    while asleep < 2 and time.monotonic() < end:
        state = stat.read_text().rsplit(")", 1)[1].split()[0]
        asleep = asleep + 1 if state == "S" else 0
        time.sleep(0.05)


def test_a_hang_up_that_lands_just_before_a_wait_for_input_still_saves_the_game(
    tmp_path: Path,
) -> None:
    """Python runs a handler between two steps of its code, or when its signal breaks a wait.
    A signal that lands in between (as readline draws the prompt) must not wait with the
    game for a line that may never come."""
    go = tmp_path / "go"
    command = [sys.executable, "-c", _TRIPPED_OUTSIDE_A_WAIT, str(go)]
    game = subprocess.Popen(
        [*command, "play", "freecell", "--seed", "ms:2", "--json"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert game.stdin and game.stdout and game.stderr
    try:
        game.stdin.write("t1 c1\n")
        game.stdin.flush()
        seen = [json.loads(game.stdout.readline()) for _ in range(2)]
        _waiting(game.pid)
        go.touch()
        assert game.wait(timeout=30) == 129, "stopped, with stdin still open"
        assert "the game is saved in" in game.stderr.read()
    finally:
        if game.poll() is None:
            game.kill()
            game.wait()
    assert play("--resume", stdin="q\n")[0]["piles"] == seen[-1]["piles"]


def test_a_closed_terminal_window_saves_the_game() -> None:
    term = Terminal("play", "--line", "freecell", "--seed", "ms:2")
    try:
        term.read_until("Type 'help'")
        term.type("t1 c1")
        term.read_until("moves: 1")
        term.signal(signal.SIGHUP)
        assert term.wait() == 129
    finally:
        term.close()
    assert [s["moves"] for s in saves()] == [1]
    games = run_cli("history", "--json").json_lines()
    assert games == [], "unfinished, not finished: the game goes on when resumed"


def test_restart_new_and_quit_ask_on_a_terminal() -> None:
    term = Terminal("play", "--line", "freecell", "--seed", "ms:2")
    try:
        term.read_until("Type 'help'")
        term.type("restart")  # no move yet: nothing to lose, no question
        term.type("t1 c1")
        term.read_until("moves: 1")
        term.type("restart")
        term.read_until("Play this deal again from the start? This game (1 move) is")
        term.type("c")
        term.read_until("restart cancelled: the game goes on")
        term.type("new 5")
        term.read_until("Deal again? This game (1 move) is")
        term.type("a")
        term.read_until("seed 5")
        term.type("t1 c1")
        term.read_until("moves: 1")
        term.type("new 6")
        term.read_until("Deal again?")
        term.type("k")
        term.read_until("Saved as game")
        term.type("t1 c1")
        term.read_until("moves: 1")
        term.type("q")
        term.read_until("Leave this game (1 move)?")
        term.type("n")
        term.read_until("the game goes on")
        term.type("q")
        term.read_until("Leave this game (1 move)?")
        term.type("a")
        term.read_until("Abandoned.")
        assert term.wait() == 0
    finally:
        term.close()
    assert [s["seed"] for s in saves()] == [5], "only the game kept is saved"
    results = [(g["seed"], g["result"]) for g in run_cli("history", "--json").json_lines()]
    assert results == [("ms:2", "abandoned"), (6, "abandoned")]


def test_scripts_restart_and_new_without_a_question() -> None:
    records = play("freecell", "--seed", "ms:2", stdin=lines("t1 c1", "restart", "new 4", "q"))
    assert [r["ok"] for r in records] == [True] * 5
    assert records[2]["piles"] == records[0]["piles"] and records[3]["seed"] == 4


def test_a_win_is_recorded_when_it_happens_and_undo_does_not_take_it_back() -> None:
    records = play(
        "grandfathers-clock", "--seed", "1", "--no-auto", stdin=lines(*GRANDFATHER_WIN, "u", "q")
    )
    won, undo, quit_ = records[-3:]
    assert won["result"] == "won"
    assert undo["ok"] is False and "the game is won, and stays won" in undo["error"]
    assert quit_["ok"] and "saved" not in quit_
    games = run_cli("history", "--json").json_lines()
    assert [g["result"] for g in games] == ["won"]
    assert saves() == []


def test_abandoned_games_are_apart_from_wins_and_losses() -> None:
    run_cli("play", "clock", "--seed", "18")  # won
    run_cli("play", "big-ben", "--seed", "3", "--no-record")
    run_cli("play", "clock", "--seed", "18")  # won
    # An abandoned game of a game with decisions: a script's restart.
    run_cli("play", "grandfathers-clock", "--seed", "1", stdin=lines(GRANDFATHER_WIN[0], "restart"))
    run_cli("play", "grandfathers-clock", "--seed", "1", "--no-auto",
            stdin=lines(*GRANDFATHER_WIN))  # fmt: skip
    run_cli("play", "grandfathers-clock", "--seed", "1", stdin=lines(GRANDFATHER_WIN[0], "new 2"))
    run_cli("play", "grandfathers-clock", "--seed", "1", "--no-auto",
            stdin=lines(*GRANDFATHER_WIN))  # fmt: skip
    run_cli("play", "clock", "--seed", "3")  # lost
    run_cli("play", "clock", "--seed", "18")  # won
    clock = run_cli("history", "clock").out
    assert "3 played" not in clock and "4 played: 3 won, 1 lost" in clock
    assert "win rate 75% of 4 finished games" in clock
    assert "streak: 1 win now, best 2 wins" in clock
    grandfather = run_cli("history", "grandfathers-clock").out
    assert "4 played: 2 won, 0 lost, 2 abandoned (not in the win rate)" in grandfather
    assert "win rate 100% of 2 finished games" in grandfather
    assert "streak: 2 wins now, best 2 wins" in grandfather, "abandoned games end no streak"
    assert "abandoned" in grandfather.split("games:")[1]


def test_text_history_lists_the_games() -> None:
    run_cli("play", "clock", "--seed", "18")
    run_cli("play", "clock", "--seed", "3")
    text = run_cli("history").out
    rows = text.split("games:\n")[1].splitlines()
    assert len(rows) == 2
    assert rows[0].split()[2:6] == ["seed", "18", "won", "52/52"]
    assert rows[1].split()[2:6] == ["seed", "3", "lost", "51/52"]


def test_the_rules_in_a_game_are_paged_for_80x24() -> None:
    term = Terminal("play", "--line", "klondike", "--seed", "7")
    try:
        term.read_until("Type 'help'")
        term.type("rules")
        screen = term.read_until("Enter for more, q --")
        shown = screen.split("> rules\n", 1)[1].split("-- ")[0]
        assert len(shown.splitlines()) == 23, "one screenful, the question on the 24th line"
        term.type("q")
        term.type("q")
        assert term.wait() == 0
    finally:
        term.close()


def test_on_a_terminal_messages_and_replay_write_cards_as_the_board_does(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    term = Terminal("play", "--line", "big-ben", "--seed", "3")
    try:
        term.read_until("Type 'help'")
        term.type("t1 f1")
        term.read_until("! 4♦ does not go on 6♣ (f1 takes 7♣)")
        term.type("t3 f5")
        term.read_until("moves: 1")
        term.type("t4 f5")
        term.read_until("moves: 2")
        term.type(f"save {record}")
        term.read_until("saved: ")
        term.type("q")
        term.read_until("Leave this game")
        term.type("a")
        assert term.wait() == 0
    finally:
        term.close()
    replay = Terminal("replay", str(record))
    try:
        replay.read_until("1. t3 f5 (J♣)")
        replay.read_until("next step, b back, q to stop (1/2)")
        replay.type("")
        replay.read_until("2. t4 f5 (Q♣)")
        replay.read_until("[Enter] the end, b back, q to stop (2/2)")
        replay.type("b")
        screen = replay.read_until("(2/2): b\n\n1. t3 f5 (J♣)")
        assert screen.count("1. t3 f5 (J♣)") == 2, "one step back shows the first again"
        replay.type("q")
        assert replay.wait() == 0
    finally:
        replay.close()
