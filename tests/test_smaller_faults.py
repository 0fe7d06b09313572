"""The smaller faults of issue 35, each through the command line: messages that name their real
cause, saves that cannot be read listed with why, a history row or a results line that cannot
be read skipped and counted, and names ``new`` cannot write refused."""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from yaml_solitaire.engine import Action, IllegalAction, Session, load_game
from yaml_solitaire.engine.play.records import deal_order, read_record, replay

COMMAND = [sys.executable, "-m", "yaml_solitaire.engine"]


def solitaire(
    *args: str,
    home: Path,
    stdin: str = "",
    prefix: list[str] | None = None,
    cwd: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, XDG_DATA_HOME=str(home / "data"))
    return subprocess.run(
        [*(prefix or []), *COMMAND, *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=120,
        check=False,
    )


def permissions_bite() -> list[str]:
    """A prefix under which the folder permissions hold: none for a user, and for root the
    same root without the capabilities that pass over them."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: permissions do not bite")
    return [setpriv, "--bounding-set", "-dac_override,-dac_read_search"]


# --- messages name their real cause ------------------------------------------------------------


@pytest.fixture
def short_home() -> Iterator[Path]:
    """A home whose paths are short enough to be shown whole in messages."""
    home = Path(tempfile.mkdtemp(prefix="sf-"))
    yield home
    shutil.rmtree(home, ignore_errors=True)


def test_an_unreadable_data_folder_is_named_not_taken_for_the_output(short_home: Path) -> None:
    prefix = permissions_bite()
    data = short_home / "data" / "yaml-solitaire"
    data.mkdir(parents=True)
    data.chmod(0)
    try:
        run = solitaire(
            "play",
            "big-ben",
            "--seed",
            "3",
            "--line",
            home=short_home,
            stdin="t3\nq\n",
            prefix=prefix,
        )
    finally:
        data.chmod(0o700)
    assert "the output" not in run.stderr, run.stderr
    lines = run.stderr.splitlines()
    assert any(
        line.startswith(f"solitaire: cannot save the game in {data}/autosave/")
        and line.endswith("Permission denied")
        for line in lines
    ), run.stderr
    assert "history.sqlite3: cannot open it: Permission denied" in run.stderr
    assert "Traceback" not in run.stderr
    assert "Big Ben: 1 move" in run.stdout


# --- saves that cannot be read -------------------------------------------------------------------


def saved_games(home: Path, seeds: tuple[str, ...]) -> list[Path]:
    """A save of Big Ben (one draw) for each seed, the oldest first."""
    for seed in seeds:
        run = solitaire("play", "big-ben", "--seed", seed, "--line", home=home, stdin="d\nq\n")
        assert run.returncode == 0, run.stderr
    folder = home / "data" / "yaml-solitaire" / "autosave"
    return sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime_ns)


def test_saves_that_cannot_be_read_are_listed_with_why(tmp_path: Path) -> None:
    prefix = permissions_bite()
    good, truncated, future, locked = saved_games(tmp_path, ("3", "4", "5", "6"))
    truncated.write_bytes(truncated.read_bytes()[:100])
    record = json.loads(future.read_text())
    record["version"] = 99
    future.write_text(json.dumps(record))
    locked.chmod(0)
    listed = solitaire("saves", home=tmp_path, prefix=prefix)
    assert listed.returncode == 0 and listed.stderr == ""
    lines = listed.stdout.splitlines()
    assert lines[1].startswith(good.name[:8]) and "big-ben" in lines[1]
    assert "3 saved games cannot be read:" in lines
    why = {
        name[:8]: line
        for line in lines
        for name in (truncated.name, future.name, locked.name)
        if line.strip().startswith(name[:8])
    }
    assert "not valid JSON" in why[truncated.name[:8]]
    assert "version 99" in why[future.name[:8]]
    assert "Permission denied" in why[locked.name[:8]]
    as_json = [
        json.loads(line)
        for line in solitaire("saves", "--json", home=tmp_path, prefix=prefix).stdout.splitlines()
    ]
    assert [entry["id"] for entry in as_json if "unreadable" not in entry] == [good.name[:8]]
    assert {entry["id"] for entry in as_json if "unreadable" in entry} == {
        p.name[:8] for p in (truncated, future, locked)
    }
    for save, reason in (
        (truncated, "not valid JSON"),
        (future, "version 99"),
        (locked, "Permission denied"),
    ):
        resumed = solitaire("play", "--resume", save.name[:8], home=tmp_path, prefix=prefix)
        assert resumed.returncode == 1
        assert resumed.stderr.startswith(
            f"solitaire: cannot resume: saved game {save.name[:8]} cannot be read: "
        )
        assert reason in resumed.stderr and len(resumed.stderr.splitlines()) == 1
    locked.chmod(0o600)


def test_a_save_folder_that_cannot_be_read_is_one_line(short_home: Path) -> None:
    prefix = permissions_bite()
    (folder,) = {p.parent for p in saved_games(short_home, ("3",))}
    folder.chmod(0)
    try:
        listed = solitaire("saves", home=short_home, prefix=prefix)
    finally:
        folder.chmod(0o700)
    assert listed.returncode == 1 and listed.stdout == ""
    assert (
        listed.stderr
        == f"solitaire: the save folder {folder}: cannot read the folder: Permission denied\n"
    )


# --- the history -------------------------------------------------------------------------------


def history_rows(home: Path, *rows: tuple[object, ...]) -> None:
    """A history of one game played, with these rows added as another program might."""
    played = solitaire("play", "clock", "--seed", "18", home=home)
    assert played.returncode == 0, played.stderr
    db = sqlite3.connect(home / "data" / "yaml-solitaire" / "history.sqlite3", isolation_level=None)
    for row in rows:
        db.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
    db.close()


ESCAPES = "\x1b]0;pwned\x07\x1b[2J"


def test_history_shows_every_field_escaped(tmp_path: Path) -> None:
    history_rows(
        tmp_path,
        ("x1", f"evil{ESCAPES}", f"ms:{ESCAPES}", None, "won", 52, 52, 9,
         f"2026-01-01T09:00:00Z{ESCAPES}", 3.0, f"2026{ESCAPES}"),
    )  # fmt: skip
    shown = solitaire("history", home=tmp_path)
    assert shown.returncode == 0 and shown.stderr == ""
    assert "\x1b" not in shown.stdout and "\x07" not in shown.stdout
    assert "evil\\x1b]0;pwned\\x07" in shown.stdout  # the game's id, as escapes
    assert "seed ms:\\x1b]0;pwned" in shown.stdout
    assert "2026\\x1b]0;pwned" in shown.stdout
    as_json = solitaire("history", "--json", home=tmp_path)
    assert "\x1b" not in as_json.stdout
    assert {json.loads(line)["game"] for line in as_json.stdout.splitlines()} == {
        "clock",
        f"evil{ESCAPES}",
    }


def test_history_skips_and_counts_the_rows_it_cannot_read(tmp_path: Path) -> None:
    good = ("k1", "klondike", 7, None, "won", 52, 52, 90, "2026-01-01T09:00:00Z", 30.0,
            "2026-01-01T09:10:00Z")  # fmt: skip
    bad = [
        ("b1", "klondike", 8, None, "maybe", 1, 52, 9, "2026-01-01T10:00:00Z", 1.0, None),
        ("b2", "klondike", 9, None, "lost", "lots", 52, 9, "2026-01-01T11:00:00Z", 1.0, None),
        ("b3", "clock", 2.5, None, "lost", 1, 52, -4, "2026-01-01T12:00:00Z", 1.0, None),
    ]
    history_rows(tmp_path, good, *bad)
    shown = solitaire("history", home=tmp_path)
    assert shown.returncode == 0
    assert shown.stderr.startswith("solitaire: 3 rows of the history skipped: history ")
    assert len(shown.stderr.splitlines()) == 1
    assert "Clock (clock)" in shown.stdout and "Klondike (klondike)" in shown.stdout
    assert "seed 7" in shown.stdout and "seed 8" not in shown.stdout
    as_json = solitaire("history", "--json", home=tmp_path)
    assert as_json.returncode == 0 and len(as_json.stderr.splitlines()) == 1
    assert sorted(json.loads(line)["id"] for line in as_json.stdout.splitlines())[-1] == "k1"
    one = solitaire("history", "clock", home=tmp_path)
    assert one.stderr.startswith("solitaire: 1 row of the history skipped: ")


# --- a results file cut short --------------------------------------------------------------------


def solve(results: Path, home: Path) -> subprocess.CompletedProcess[str]:
    return solitaire(
        "stats", "klondike", "--solve", "--deals", "3", "--budget-nodes", "2000",
        "--results", str(results), "--json", home=home,
    )  # fmt: skip


def test_a_results_file_cut_mid_line_loses_only_that_line(short_home: Path) -> None:
    tmp_path = short_home
    results = tmp_path / "r.jsonl"
    first = solve(results, tmp_path)
    assert first.returncode == 0 and first.stderr == ""
    whole = results.read_bytes()
    lines = whole.splitlines(keepends=True)
    assert len(lines) == 3
    results.write_bytes(whole[:-30])  # the third verdict cut short, as by a kill mid-write
    again = solve(results, tmp_path)
    assert again.returncode == 0
    assert again.stderr == (
        f"solitaire: --results {results}: its last line was cut short, "
        f"{len(lines[2]) - 30} bytes: dropped\n"
    )
    mended = results.read_bytes().splitlines(keepends=True)
    assert (
        mended[:2] == lines[:2] and len(mended) == 3
    )  # the deal solved again, on a line of its own
    assert [json.loads(line)["seed"] for line in mended] == [1, 2, 3]
    # A last verdict that lacks only its line break is kept, and the line ended.
    results.write_bytes(b"".join(lines)[:-1])
    kept = solve(results, tmp_path)
    assert kept.returncode == 0 and kept.stderr == ""
    assert results.read_bytes() == b"".join(lines)


# --- new: never a file that validate refuses ----------------------------------------------------


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("A\x1bB", "a game name must be printable text, not 'A\\x1bB'"),
        ("tab\there", "a game name must be printable text"),
        ("x" * 2100, "name: is too long"),
    ],
    ids=["escape", "tab", "too-long"],
)
def test_new_refuses_a_name_it_cannot_write(tmp_path: Path, name: str, why: str) -> None:
    made = solitaire("new", name, "-o", "n.yaml", home=tmp_path, cwd=tmp_path)
    assert made.returncode == 1 and made.stdout == ""
    assert made.stderr.startswith("solitaire: ") and len(made.stderr.splitlines()) == 1
    assert why in made.stderr
    assert not (tmp_path / "n.yaml").exists()


@pytest.mark.parametrize("output", ["n.yaml", "new\nline.yaml", "esc\x1b.yaml"])
def test_what_new_writes_validates(tmp_path: Path, output: str) -> None:
    made = solitaire("new", "Été à Paris", "-o", output, home=tmp_path, cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    checked = solitaire("validate", output, home=tmp_path, cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert 'name: "Été à Paris"' in (tmp_path / output).read_text(encoding="utf-8")


# --- resuming a long game ----------------------------------------------------------------------


@pytest.mark.parametrize("game_id", ["klondike", "big-ben", "freecell", "spider", "clock"])
def test_a_replayed_record_reaches_every_position_the_game_did(game_id: str) -> None:
    """Replaying through the compiled table (``push_recorded``) is playing through the phase
    machine (``push``): random games, their automatic moves included, step by step."""
    game = load_game(game_id)
    chooser = random.Random(game_id)
    for seed in range(3):
        played = Session(game, game.deal(game.seed_order(seed)))
        played.autoplay()
        for _ in range(150):
            actions = played.legal_actions()
            if not actions or played.is_over():
                break
            played.push(chooser.choice(actions))
            played.autoplay()
        replayed = Session(game, game.deal(game.seed_order(seed)))
        for entry in played.history:
            assert replayed.position == entry.before
            replayed.push_recorded(entry.action, auto=entry.auto)
        assert replayed.position == played.position
        assert replayed.phase == played.phase and replayed.moves_made() == played.moves_made()
        with pytest.raises(IllegalAction):  # refused as push refuses, and nothing changed
            replayed.push_recorded(Action("no-such-action", 0, 0, 0))
        assert replayed.position == played.position


def klondike_record(home: Path, actions: int) -> Path:
    """A saved Klondike game of about ``actions`` actions: the stock turned over and over."""
    saved = home / f"k{actions}.json"
    made = solitaire(
        "play", "klondike", "--seed", "1", "--line", home=home, stdin=f"d\nsave {saved}\nq\n"
    )
    assert made.returncode == 0, made.stderr
    record = json.loads(saved.read_text())
    turns = [turn for turn in record["actions"] if turn["auto"]]  # the engine's, at the deal
    while len(turns) < actions:
        turns += [{"action": "draw", "auto": False, "at": 1.0}] * 24
        turns.append({"action": "redeal", "auto": False, "at": 1.0})
    record["actions"] = turns
    saved.write_text(json.dumps(record))
    return saved


def resume_cpu_seconds(path: Path) -> float:
    started = time.process_time()
    game = load_game("klondike")
    record = read_record(path)
    session = Session(game, game.deal(deal_order(record, game)))
    replay(record, game, session)
    assert session.moves_made() > 1000
    return time.process_time() - started


def test_resuming_grows_linearly_with_the_actions(tmp_path: Path) -> None:
    short, long = klondike_record(tmp_path, 5_000), klondike_record(tmp_path, 20_000)
    resume_cpu_seconds(short)  # warm-up: imports, the cache
    # The best of three each: a tenth of a second is easily stretched by anything else.
    ratio = min(resume_cpu_seconds(long) for _ in range(3)) / min(
        resume_cpu_seconds(short) for _ in range(3)
    )
    assert ratio < 7, ratio  # four times the actions: four times the time, not sixteen
