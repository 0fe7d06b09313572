"""The last tracebacks of a fault injector, and the thin places of a review (issue 18).

A damaged history database, a game record with numbers no one plays, signals to 'stats' with
its worker processes, temporary files left by a killed save, 'validate --json' over files
that extend one another; then the run capacity of FreeCell-like moves, position keys and
face-down cards, and the history's figures with abandoned games.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import CANONICAL, ROOT, run_cli
from yaml_solitaire.engine import Action, IllegalAction, State, load_game
from yaml_solitaire.engine.core.cards import DOWN, parse_deck
from yaml_solitaire.engine.play.history import GameRow, History, summarise


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home / "yaml-solitaire"


# --- the history database ---------------------------------------------------------------


@pytest.mark.parametrize("version", ["'abc'", "-3", "1.5", "x'00'"])
def test_a_schema_version_that_is_no_version_is_one_line(data_home: Path, version: str) -> None:
    assert run_cli("play", "clock", "--seed", "18").code == 0  # creates the database
    db = sqlite3.connect(data_home / "history.sqlite3", isolation_level=None)
    db.execute(f"UPDATE schema_version SET version = {version}")
    db.close()
    history = run_cli("history")
    assert history.code == 1 and history.err.count("\n") == 1, history.err
    assert "schema_version holds" in history.err and "Traceback" not in history.err
    played = run_cli("play", "big-ben", "--seed", "3", stdin="t3 f5\nq\n")
    assert played.code == 0 and "continue with: solitaire play --resume" in played.out
    assert "schema_version holds" in played.err and "not in the history" in played.err


@pytest.mark.parametrize(
    ("column", "value"),
    [("score", "'lots'"), ("moves", "-4"), ("seconds", "'x'"), ("result", "'maybe'"),
     ("cards", "1e300"), ("seed", "2.5")],
)  # fmt: skip
def test_a_row_of_the_wrong_kind_is_one_line_not_nonsense(
    data_home: Path, column: str, value: str
) -> None:
    assert run_cli("play", "clock", "--seed", "18").code == 0
    db = sqlite3.connect(data_home / "history.sqlite3", isolation_level=None)
    db.execute(f"UPDATE games SET {column} = {value}")
    db.close()
    for argv in (["history"], ["history", "--json"]):
        result = run_cli(*argv)  # the row is skipped, and counted in one line
        assert result.code == 0 and "clock" not in result.out, (column, result.out)
        assert result.err.count("\n") == 1 and f"holds {column} " in result.err
        assert result.err.startswith("solitaire: 1 row of the history skipped: ")


def test_the_history_figures_with_abandoned_games_beside_won_and_lost(tmp_path: Path) -> None:
    def row(n: int, result: str, score: int, seconds: float, moves: int) -> GameRow:
        finished = None if result == "unfinished" else f"2026-01-01T10:{n:02d}:00Z"
        return GameRow(f"id{n}", "klondike", n, None, result, score, 52, moves,
                       f"2026-01-01T09:{n:02d}:00Z", seconds, finished)  # fmt: skip

    history = History(tmp_path / "h.sqlite3")
    games = [
        row(1, "won", 52, 300.0, 120), row(2, "won", 52, 200.0, 110),
        row(3, "abandoned", 10, 5.0, 3), row(4, "won", 52, 250.0, 100),
        row(5, "lost", 30, 100.0, 90), row(6, "abandoned", 60, 1.0, 1),
        row(7, "unfinished", 70, 2.0, 2), row(8, "won", 52, 400.0, 150),
    ]  # fmt: skip
    for g in games:
        history.record(g)
    history.record(GameRow("idx", "golf", 1, None, "won", 0, 52, 5, "2026-01-01T08:00:00Z",
                           9.0, "2026-01-01T08:01:00Z"))  # fmt: skip
    golf, klondike = summarise(history.games())
    assert golf.game == "golf" and (golf.played, golf.won, golf.streak) == (1, 1, 1)
    s = klondike
    assert (s.played, s.won, s.lost, s.abandoned, s.unfinished) == (8, 4, 1, 2, 1)
    # Abandoned games are not finished ones: not in the win rate, and they neither extend nor
    # end a streak (README, 'solitaire history').
    assert s.finished == 5 and s.win_rate == pytest.approx(4 / 5)
    assert (s.streak, s.best_streak) == (1, 3)
    assert s.fastest_win == 200.0 and s.fewest_moves == 100  # of the games won only
    assert s.best_score == 60  # of finished games, abandoned ones included; not unfinished
    only = summarise([g for g in history.games() if g.result != "won"])
    assert [k.game for k in only] == ["klondike"]
    assert only[0].win_rate == 0.0 and only[0].fastest_win is None and only[0].streak == 0


# --- game records -------------------------------------------------------------------------


@pytest.mark.parametrize("seconds", ["1" + "0" * 5000, "1" + "0" * 4000, "Infinity", "1e400"])
def test_a_record_with_an_endless_time_is_one_line(tmp_path: Path, seconds: str) -> None:
    path = tmp_path / "game.json"
    assert run_cli("play", "big-ben", "--seed", "3", stdin=f"t3 f5\nsave {path}\nq\n").code == 0
    data = json.loads(path.read_text())
    text = json.dumps(data).replace(f'"seconds": {json.dumps(data["seconds"])}',
                                    f'"seconds": {seconds}')  # fmt: skip
    assert seconds in text
    path.write_text(text)
    for argv in (["play", "--resume", str(path)], ["replay", str(path)]):
        result = run_cli(*argv, stdin="q\n")
        assert result.code == 1 and result.out == "", (argv, result.out)
        assert result.err.count("\n") == 1 and "Traceback" not in result.err, result.err
        assert "seconds" in result.err or "too large" in result.err


# --- stats' worker processes --------------------------------------------------------------


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with open(task / "children") as handle:
            found |= {int(p) for p in handle.read().split()}
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split(") ")[-1][:1] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc (Linux)")
@pytest.mark.parametrize(
    ("signum", "extra"),
    [(signal.SIGTERM, []), (signal.SIGHUP, []), (signal.SIGTERM, ["--solve"])],
)
def test_stats_workers_end_with_their_parent(tmp_path: Path, signum: int, extra: list[str]) -> None:
    argv = [sys.executable, "-m", "yaml_solitaire.engine", "stats", "big-ben", "--deals",
            "100000", "--jobs", "2", *extra]  # fmt: skip
    if extra:
        argv += ["--results", str(tmp_path / "results.jsonl")]
    env = {**os.environ, "SOLITAIRE_NO_CACHE": "1"}
    parent = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    try:
        deadline = time.monotonic() + 60
        workers: set[int] = set()
        while len(workers) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
            workers = {p for p in _children(parent.pid) if _alive(p)}
        assert len(workers) >= 2, "the workers did not start"
        time.sleep(1.0)  # at work on their chunks
        parent.send_signal(signum)
        parent.wait(30)
        deadline = time.monotonic() + 20
        while any(map(_alive, workers)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(map(_alive, workers)), "workers kept running after their parent ended"
    finally:
        if parent.poll() is None:
            parent.kill()


# --- temporary files of saves -------------------------------------------------------------


def test_temporary_files_a_killed_save_left_are_removed_at_the_next_save(
    data_home: Path,
) -> None:
    assert run_cli("play", "big-ben", "--seed", "3", stdin="t3 f5\nq\n").code == 0
    folder = next(p.parent for p in data_home.rglob("*.json"))
    save = next(folder.glob("*.json"))
    stale = folder / f".{save.name}.k1ll3d_x.tmp"
    stale.write_text('{"half a game')
    old = time.time() - 3600
    os.utime(stale, (old, old))
    fresh = folder / f".{save.name}.wr1t1ng.tmp"  # another program's save under way
    fresh.write_text("{")
    other = folder / ".notes.txt.k1ll3d_y.tmp"  # not a temporary file of this save
    other.write_text("x")
    os.utime(other, (old, old))
    assert run_cli("play", "--resume", stdin="t4 f5\nq\n").code == 0
    assert not stale.exists() and fresh.exists() and other.exists()
    assert json.loads(save.read_text())["format"]


# --- validate --json over several files ---------------------------------------------------


def test_validate_json_names_the_file_checked_for_an_inherited_problem(tmp_path: Path) -> None:
    parent = tmp_path / "parent.yaml"
    text = (ROOT / "games" / "klondike.yaml").read_text()
    parent.write_text(text.replace("build: down, suit: alternate", "build: dwn, suit: alternate"))
    child = tmp_path / "child.yaml"
    child.write_text("extends: ./parent.yaml\nid: child\nname: Child\n")
    fine = tmp_path / "fine.yaml"
    fine.write_text((ROOT / "games" / "golf.yaml").read_text())
    result = run_cli("validate", "--json", str(parent), str(child), str(fine))
    assert result.code == 1
    problems = result.json_lines()
    checked = [p["checked"] for p in problems]
    assert str(parent) in checked and str(child) in checked and str(fine) not in checked
    for p in problems:
        assert p["file"] == str(parent) and "build" in p["key"]


# --- the run capacity of moves ------------------------------------------------------------


def _freecell(piles: dict[str, list[str]]) -> tuple[object, State]:
    """A FreeCell position: the named piles (bottom to top), every other card in t8."""
    game = load_game("freecell")
    named = [c for cards in piles.values() for c in cards]
    deck = set(CANONICAL)
    rest = sorted(deck - set(named))
    piles = {**piles, "t8": piles.get("t8", []) + rest}
    cards = parse_deck([c for name in game.pile_names for c in piles.get(name, [])], game.cards)
    out, k = [], 0
    for name in game.pile_names:
        n = len(piles.get(name, []))
        out.append(tuple(cards[k : k + n]))
        k += n
    return game, State(tuple(out), game.flow.initial)


RUN = ["9H", "8S", "7H", "6S", "5H", "4S", "3H", "2S"]  # 8 cards, down in alternate colours


@pytest.mark.parametrize(
    ("empty_piles", "free_cells", "onto_cards", "onto_empty"),
    [
        (2, 1, 8, 4),
        (3, 0, 8, 4),
        (3, 1, 8, 8),
        (2, 0, 4, 2),
        (0, 3, 4, 0),
        (1, 1, 4, 2),
        (4, 0, 8, 8),
        (2, 2, 8, 6),
    ],
)
def test_a_run_moves_by_free_cells_times_two_for_each_empty_pile(
    empty_piles: int, free_cells: int, onto_cards: int, onto_empty: int
) -> None:
    # t1 holds the run on 9H; t2 ends in 10C, which takes 9H; t3.. t(2+empty) are empty.
    piles: dict[str, list[str]] = {"t1": list(RUN), "t2": ["10C"]}
    filler = iter(["KD", "QD", "JD", "10D", "9D", "8D", "KH"])
    for k in range(3, 8):
        if k - 2 > empty_piles:
            piles[f"t{k}"] = [next(filler)]
    for k in range(1, 5):
        if k > free_cells:
            piles[f"c{k}"] = [next(filler)]
    game, state = _freecell(piles)
    index = {name: i for i, name in enumerate(game.pile_names)}

    def capacity(target: str) -> int:
        """How many cards may move onto ``target`` at once, up to the run's 8: the whole run
        goes, or the refusal says how many could."""
        action = Action("move", index["t1"], index[target], len(RUN))
        try:
            game.apply(state, action)
            return len(RUN)
        except IllegalAction as exc:
            found = re.search(r"only (\d+) cards? can move at once", str(exc))
            assert found, str(exc)
            return int(found.group(1))

    assert capacity("t2") == onto_cards
    if empty_piles:
        assert capacity("t3") == onto_empty


# --- position keys and face-down cards ----------------------------------------------------


@pytest.mark.parametrize("name", ["klondike", "spider", "yukon", "forty-thieves"])
def test_position_keys_tell_a_buried_card_face_up_from_face_down(name: str) -> None:
    game = load_game(name)
    state = game.deal_seed(1)
    keys = game.keys
    tableau = [i for i, n in enumerate(game.pile_names) if n.startswith("t")]
    pile = max(tableau, key=lambda i: len(state.piles[i]))
    cards = state.piles[pile]
    assert len(cards) >= 3
    for flip in range(len(cards) - 1):  # each buried card turned the other way
        changed = list(cards)
        changed[flip] ^= DOWN
        other = State(
            tuple(tuple(changed) if i == pile else p for i, p in enumerate(state.piles)),
            state.phase,
            state.counts,
        )
        assert keys.key(other) != keys.key(state), (name, flip)
        assert keys.hash(other) != keys.hash(state), (name, flip)
