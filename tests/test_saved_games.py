"""Games that are never lost by accident: save, resume, the automatic save, restart, new, replay."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import ROOT, run_cli

FIRST = ["t3 f5", "t4 f5", "t9 f6"]  # the first moves of the seed 3 game won by hand


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test has its own player data folder (saves, history)."""
    home = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home / "yaml-solitaire"


def play(*args: str, stdin: str = "") -> list[dict[str, Any]]:
    result = run_cli("play", *args, "--json", stdin=stdin)
    assert result.code == 0, result.err
    return result.json_lines()


def lines(*commands: str) -> str:
    return "".join(c + "\n" for c in commands)


def test_save_mid_way_then_resume_reaches_the_same_position(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    records = play("big-ben", "--seed", "3", stdin=lines(*FIRST, f"save {path}"))
    assert records[-1]["ok"] and records[-1]["saved"] == str(path)
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["format"] == "yaml-solitaire game record" and saved["version"] == 1
    assert saved["game"] == "big-ben" and saved["deal"] == {"seed": 3}
    assert [a["action"] for a in saved["actions"]] == FIRST
    assert len(saved["rules_sha256"]) == 64 and saved["started"].endswith("Z")
    resumed = play("--resume", str(path), stdin=lines("fill", "u", "u"))
    assert resumed[0]["piles"] == records[-2]["piles"] and resumed[0]["resumed"] == str(path)
    assert resumed[1]["ok"], "the game goes on"
    # Undo reaches back into the moves made before the save.
    assert resumed[3]["piles"] == records[-3]["piles"]


def test_a_deck_deal_resumes_too(tmp_path: Path) -> None:
    from conftest import CANONICAL

    path = tmp_path / "deck.json"
    deck = " ".join(CANONICAL * 2)
    records = play("big-ben", "--deck", deck, stdin=lines("d", f"save {path}"))
    assert json.loads(path.read_text())["deal"]["deck"][:3] == ["AC", "2C", "3C"]
    assert play("--resume", str(path))[0]["piles"] == records[1]["piles"]


def test_quit_saves_and_resume_without_a_file_continues_the_last_game(data_home: Path) -> None:
    records = play("big-ben", "--seed", "3", stdin=lines(*FIRST[:2], "q"))
    saved = records[-1]["saved"]
    assert Path(saved).parent == data_home / "autosave" and saved.endswith(".json")
    assert play("--resume")[0]["piles"] == records[-2]["piles"]
    assert play("big-ben", "--resume")[0]["piles"] == records[-2]["piles"]
    text = run_cli("play", "--resume", stdin="q\n").out
    assert "Big Ben: resumed game " in text and "(2 moves, " in text


def test_nothing_to_resume_and_no_save_without_a_move(data_home: Path) -> None:
    play("big-ben", "--seed", "3", stdin="q\n")
    assert not (data_home / "autosave").exists(), "a game without a move is not saved"
    result = run_cli("play", "--resume")
    assert result.code == 1
    assert result.err == "solitaire: cannot resume: there is no unfinished game to resume\n"


def test_end_of_a_script_is_not_saved_but_a_finished_game_removes_its_save(
    data_home: Path,
) -> None:
    play("big-ben", "--seed", "3", stdin=lines(*FIRST))  # a script ends: no save
    assert not (data_home / "autosave").exists()
    script = (ROOT / "tests" / "data" / "grandfathers_clock_seed_1_win.txt").read_text()
    moves = [m for m in script.splitlines() if m.strip()]
    save = Path(
        play("grandfathers-clock", "--seed", "1", stdin=lines(*moves[:5], "q"))[-1]["saved"]
    )
    assert save.exists()
    finished = play("--resume", "--no-auto", stdin=lines(*moves[5:]))
    assert finished[-1]["result"] == "won"
    assert not save.exists(), "the save of a game now won is removed"


def test_restart_and_new_during_play() -> None:
    dealt, moved, restarted = play("big-ben", "--seed", "3", stdin=lines(FIRST[0], "restart"))
    assert restarted["ok"] and restarted["piles"] == dealt["piles"] and restarted["seed"] == 3
    assert moved["piles"] != dealt["piles"]
    _, new = play("big-ben", "--seed", "3", stdin="new 5\n")
    assert new["seed"] == 5 and new["piles"] == play("big-ben", "--seed", "5")[0]["piles"]
    _, other = play("big-ben", "--seed", "3", stdin="new\n")
    assert other["ok"] and isinstance(other["seed"], int)
    assert (
        play("big-ben", "--seed", "3", stdin="new x\n")[1]["error"]
        == "not a deal number: 'x' (a whole number, or ms:N)"
    )


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not a game record: not valid JSON"),
        ('{"format": "something else"}', "not a game record of this program"),
        ('{"format": "yaml-solitaire game record", "version": 2}',
         "record format version 2; this program reads version 1 only"),
    ],
)  # fmt: skip
def test_a_record_that_cannot_be_used_is_one_line_and_exit_1(
    tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    for command in (["play", "--resume", str(path)], ["replay", str(path)]):
        result = run_cli(*command)
        assert result.code == 1 and result.out == ""
        assert result.err.count("\n") == 1 and message in result.err, result.err


def test_a_changed_rule_file_is_refused(tmp_path: Path) -> None:
    rules = tmp_path / "grandfather.yaml"
    shutil.copy(ROOT / "games" / "grandfathers_clock.yaml", rules)
    path = tmp_path / "game.json"
    play(str(rules), "--seed", "1", stdin=lines("t1 t2", f"save {path}"))
    assert play(str(rules), "--resume", str(path))[0]["ok"]
    rules.write_text(rules.read_text() + "# changed\n", encoding="utf-8")
    for command in (["play", "--resume", str(path)], ["replay", str(path)]):
        result = run_cli(*command)
        assert result.code == 1 and result.err.count("\n") == 1
        assert "the rule file of 'grandfathers-clock' has changed" in result.err


def test_an_action_that_no_longer_plays_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    play("big-ben", "--seed", "3", stdin=lines(*FIRST, f"save {path}"))
    data = json.loads(path.read_text())
    data["actions"][1]["action"] = "t1 f1"
    path.write_text(json.dumps(data))
    result = run_cli("play", "--resume", str(path))
    assert result.code == 1
    assert "action 2 't1 f1' cannot be played: 4D does not go on 6C" in result.err


def test_replay_shows_the_game_step_by_step(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    records = play("big-ben", "--seed", "3", stdin=lines(*FIRST, "fill", f"save {path}"))
    steps = run_cli("replay", str(path), "--json").json_lines()
    assert [s["step"] for s in steps] == [0, 1, 2, 3, 4]
    assert [s.get("action") for s in steps[1:]] == [*FIRST, "fill"]
    assert steps[-1]["piles"] == records[-2]["piles"] and steps[0]["piles"] == records[0]["piles"]
    text = run_cli("replay", str(path)).out
    assert text.startswith("Big Ben, seed 3: started ")
    assert "1. t3 f5 (JC)" in text and "4. fill" in text
    assert "cards on the foundations: 15/104  moves: 4" in text


def test_ctrl_c_saves_the_game_and_it_resumes(data_home: Path) -> None:
    env = dict(os.environ)
    command = [sys.executable, "-m", "yaml_solitaire.engine", "play", "big-ben", "--seed", "3",
               "--json"]  # fmt: skip
    game = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, env=env,
    )  # fmt: skip
    assert game.stdin and game.stdout
    game.stdin.write(lines(*FIRST[:2]))
    game.stdin.flush()
    seen = [json.loads(game.stdout.readline()) for _ in range(3)]
    game.send_signal(signal.SIGINT)
    _, err = game.communicate(timeout=20)
    assert game.returncode == 130
    assert "interrupted; the game is saved in" in err
    assert play("--resume")[0]["piles"] == seen[-1]["piles"]


def test_usage_errors_of_play() -> None:
    assert run_cli("play").code == 2
    result = run_cli("play", "big-ben", "--seed", "3", "--resume")
    assert result.code == 2 and "--resume continues a saved deal" in result.err
    result = run_cli(
        "play", "big-ben", "--seed", "3", "--json", stdin="save\nsave /no/such/dir/x.json\n"
    )
    _, bare, bad = result.json_lines()
    assert bare["error"] == "save needs a file name, e.g. 'save game.json'"
    assert bad["ok"] is False and bad["error"].startswith("cannot save to /no/such/dir/x.json")
