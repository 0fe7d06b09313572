"""The history of the player's games: SQLite in the data folder, `solitaire history`."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from conftest import ROOT, run_cli

KINGS = str(ROOT / "tests" / "data" / "kings_aside.yaml")
GRANDFATHER_WIN = (ROOT / "tests" / "data" / "grandfathers_clock_seed_1_win.txt").read_text()


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home / "yaml-solitaire"


def database(data_home: Path) -> Path:
    return data_home / "history.sqlite3"


def test_games_played_are_listed_with_their_results(data_home: Path) -> None:
    assert run_cli("play", "clock", "--seed", "18").code == 0  # won by itself
    assert run_cli("play", "clock", "--seed", "3").code == 0  # lost by itself
    run_cli("play", "grandfathers-clock", "--seed", "1", "--no-auto", stdin=GRANDFATHER_WIN)
    run_cli("play", "big-ben", "--seed", "3", stdin="t3 f5\nq\n")  # saved, unfinished
    run_cli("play", "big-ben", "--seed", "4", stdin="q\n")  # no move: not a game played
    run_cli("play", "clock", "--seed", "5", "--no-record")
    result = run_cli("history", "--json")
    assert result.code == 0
    games = result.json_lines()
    assert [(g["game"], g["seed"], g["result"]) for g in games] == [
        ("clock", 18, "won"),
        ("clock", 3, "lost"),
        ("grandfathers-clock", 1, "won"),
    ], "finished games only, oldest first"
    assert games[0]["score"] == 52 and games[1]["score"] == 51
    assert all(g["finished"] and g["started"] for g in games)
    assert games[2]["moves"] > 0 and games[2]["score"] == 52
    text = run_cli("history").out
    assert "Big Ben (big-ben)\n  1 played: 0 won, 0 lost, 1 unfinished" in text
    assert "Clock (clock)\n  2 played: 1 won, 1 lost\n  win rate 50% of 2 finished games" in text
    assert "streak: 0 wins now, best 1 win" in text
    only = run_cli("history", "grandfather").out  # an alias names the game
    assert (
        only.startswith("Grandfather's Clock (grandfathers-clock)") and "Clock (clock)" not in only
    )
    assert re.search(r"best: score 52/52, fastest win \d+:\d\d, fewest moves in a win 60\n", only)


def test_a_resumed_game_keeps_its_one_row(tmp_path: Path) -> None:
    moves = [m for m in GRANDFATHER_WIN.splitlines() if m.strip()]
    run_cli("play", "grandfathers-clock", "--seed", "1", stdin="\n".join(moves[:3]) + "\nq\n")
    run_cli("play", "--resume", "--no-auto", stdin="\n".join(moves[3:]) + "\n")
    games = run_cli("history", "--json").json_lines()
    assert [(g["result"], g["moves"]) for g in games] == [("won", len(moves))]


def test_restart_abandons_and_streaks_count_wins_in_a_row() -> None:
    run_cli("play", "clock", "--seed", "18")
    run_cli("play", "clock", "--seed", "18")
    run_cli("play", "big-ben", "--seed", "3", stdin="t3 f5\nrestart\n")
    games = run_cli("history", "--json").json_lines()
    assert [g["result"] for g in games] == ["won", "won", "abandoned"]
    text = run_cli("history", "clock").out
    assert "streak: 2 wins now, best 2 wins" in text


def test_an_empty_history() -> None:
    result = run_cli("history")
    assert result.code == 0 and result.out.startswith("No games in the history yet")
    assert run_cli("history", "--json").out == ""


def test_a_corrupt_database_is_one_line_and_the_game_is_still_played(data_home: Path) -> None:
    data_home.mkdir(parents=True)
    database(data_home).write_bytes(b"this is not a database" * 100)
    result = run_cli("play", "big-ben", "--seed", "3", "--json", stdin="t3 f5\nt4 f5\n")
    assert result.code == 0 and all(r["ok"] for r in result.json_lines())
    assert run_cli("play", "clock", "--seed", "18").code == 0
    result = run_cli("play", "clock", "--seed", "18")
    assert result.code == 0 and "Won: 52 cards placed." in result.out
    assert result.err.count("\n") == 1
    assert "not a valid history database" in result.err and "not in the history" in result.err
    history = run_cli("history")
    assert history.code == 1 and history.err.count("\n") == 1
    assert "not a valid history database" in history.err


def test_a_locked_database_is_one_line_and_the_game_is_still_played(data_home: Path) -> None:
    run_cli("play", "clock", "--seed", "18")  # creates the database
    other = sqlite3.connect(database(data_home), isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        result = run_cli("play", "clock", "--seed", "3")
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert result.code == 0 and "Lost: 51 cards placed" in result.out
    assert result.err.count("\n") == 1 and "locked by another program" in result.err


def test_the_program_creates_and_migrates_the_tables(data_home: Path) -> None:
    data_home.mkdir(parents=True)
    old = sqlite3.connect(database(data_home))
    old.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    old.execute("INSERT INTO schema_version VALUES (0)")
    old.commit()
    old.close()
    run_cli("play", "clock", "--seed", "18")
    db = sqlite3.connect(database(data_home))
    assert db.execute("SELECT version FROM schema_version").fetchall() == [(1,)]
    assert db.execute("SELECT game, result FROM games").fetchall() == [("clock", "won")]
    db.execute("UPDATE schema_version SET version = 99")
    db.commit()
    db.close()
    result = run_cli("play", "clock", "--seed", "3")
    assert result.code == 0 and "written by a newer version of the program" in result.err
