"""The browser table's server through its JSON API (docs/web.md): the same games as line
mode, and hostile requests refused in one line of JSON with a 4xx status."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from web_server import Server, running, serve_command

from conftest import run_cli

# The server is started once for the module: its tests and it share one player's data folder.
SHARED_PLAYER_DATA = True


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("web-cwd")


@pytest.fixture(scope="module")
def server(folder: Path) -> Iterator[Server]:
    with running(folder) as started:
        yield started


def test_a_table_plays_as_line_mode_does(server: Server) -> None:
    commands = ["t2 f1", "t7 f2", "t6 t7", "draw", "undo", "redo", "w f3", "draw"]
    opened = server.open(game="klondike", seed="2", auto="off")
    table = opened["table"]
    records = [opened]
    for command in commands:
        _, record = server.command(table, command)
        records.append(record)
    typed = run_cli("play", "klondike", "--seed", "2", "--no-auto", "--line", "--json",
                    stdin="\n".join(commands) + "\n").json_lines()  # fmt: skip
    assert [r["ok"] for r in records] == [r["ok"] for r in typed]
    for web, line in zip(records, typed, strict=True):
        assert web["piles"] == line["piles"] and web["face_down"] == line["face_down"]
        assert web["phase"] == line["phase"] and web["cards_placed"] == line["cards_placed"]


def test_a_refused_action_changes_nothing_and_says_why(server: Server) -> None:
    opened = server.open(game="klondike", seed="2")
    status, record = server.command(opened["table"], "t1 t2")
    assert status == 422 and record["ok"] is False and record["error"]
    assert record["piles"] == opened["piles"] and record["moves_made"] == 0
    typed = run_cli("play", "klondike", "--seed", "2", "--json", stdin="t1 t2\n").json_lines()
    assert record["error"] == typed[-1]["error"]


def test_an_address_of_a_deal(server: Server) -> None:
    ms = server.open(game="freecell", seed="ms:1")
    line = run_cli("play", "freecell", "--seed", "ms:1", "--json", stdin="").json_lines()
    assert ms["seed"] == "ms:1" and ms["piles"] == line[0]["piles"]
    deck = " ".join(card for pile in ms["piles"].values() for card in pile)
    given = server.open(game="free-cell", deck=deck)  # an alias
    assert given["seed"] is None and given["game"] == "freecell" and given["deck"] == deck.split()


@pytest.mark.parametrize(
    ("method", "path", "body", "status"),
    [
        ("POST", "/api/tables", {"game": "no-such-game"}, 404),
        ("POST", "/api/tables", {"game": "../../../etc/passwd"}, 404),
        ("POST", "/api/tables", {"game": "/etc/hosts.yaml"}, 404),
        ("POST", "/api/tables", {"game": "games/klondike.yaml"}, 404),
        ("POST", "/api/tables", {"game": ["klondike"]}, 404),
        ("POST", "/api/tables", {"game": "klondike", "seed": "x"}, 400),
        ("POST", "/api/tables", {"game": "klondike", "seed": "1", "deck": "AC"}, 400),
        ("POST", "/api/tables", {"game": "klondike", "deck": "AC AC"}, 400),
        ("POST", "/api/tables", {"game": "klondike", "deck": "@/etc/passwd"}, 400),
        ("POST", "/api/tables", {"game": "klondike", "resume": "../../../etc/passwd"}, 400),
        ("POST", "/api/tables", {"game": "klondike", "resume": "abcdef12"}, 404),
        ("POST", "/api/tables", {"game": "klondike", "auto": "maybe"}, 400),
        ("POST", "/api/tables", [1, 2], 400),
        ("POST", "/api/tables/nope/command", {"command": "draw"}, 404),
        ("GET", "/api/tables/nope", None, 404),
        ("GET", "/static/../../../etc/passwd", None, 404),
        ("GET", "/static/%2e%2e/%2e%2e/tables.py", None, 404),
        ("GET", "/etc/passwd", None, 404),
        ("DELETE", "/api/tables", None, 405),
        ("POST", "/etc/passwd", {}, 405),
    ],
)
def test_hostile_requests_get_one_line_of_json_and_a_4xx(
    server: Server, method: str, path: str, body: object, status: int
) -> None:
    got, record = server.request(method, path, body)
    assert got == status and record["ok"] is False and record["error"]
    assert "\n" not in record["error"] and "Traceback" not in record["error"]


@pytest.mark.parametrize(
    "body",
    [
        {"command": 5},
        {"command": ""},
        {"command": "t1\x00t2"},
        {"command": "t1 " * 100},
        {"nothing": "here"},
    ],
)
def test_a_malformed_action_is_refused(server: Server, body: object) -> None:
    table = server.open(game="klondike", seed="4")["table"]
    got, record = server.request("POST", f"/api/tables/{table}/command", body)
    assert got == 400 and record["ok"] is False and "command" in record["error"]


def test_a_body_that_is_not_json_or_too_large_is_refused(server: Server) -> None:
    got, record = server.request("POST", "/api/tables", raw=b"{not json")
    assert got == 400 and record["error"] == "the body is not JSON"
    got, record = server.request("POST", "/api/tables", raw=b" " * 100_000)
    assert got == 413 and "larger" in record["error"]


def test_nothing_is_written_outside_the_data_folder(server: Server, folder: Path) -> None:
    table = server.open(game="klondike", seed="2", auto="off")["table"]
    for command in ("draw", "t2 f1", "save /tmp/escaped.json", "new ../../x", "hint"):
        server.command(table, command)
    assert list(folder.iterdir()) == []
    assert not Path("/tmp/escaped.json").exists()
    saves = Path(os.environ["XDG_DATA_HOME"]) / "yaml-solitaire" / "autosave"
    assert any(saves.glob("*.json"))


def test_the_server_listens_on_loopback_only(server: Server) -> None:
    port = int(server.base.rsplit(":", 1)[1])
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # no packet is sent: this picks the outward address
        outward = probe.getsockname()[0]
    except OSError:
        pytest.skip("this machine has no address but loopback")
    finally:
        probe.close()
    if outward.startswith("127."):
        pytest.skip("this machine has no address but loopback")
    with pytest.raises(OSError), socket.create_connection((outward, port), timeout=2):
        pass


def test_a_busy_port_is_one_line_and_exit_1(folder: Path) -> None:
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    port = taken.getsockname()[1]
    try:
        done = subprocess.run(serve_command("--port", str(port)), cwd=folder,
                              capture_output=True, text=True, timeout=60)  # fmt: skip
    finally:
        taken.close()
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and f"port {port}" in done.stderr
    assert "Traceback" not in done.stderr


def test_ctrl_c_stops_the_server_cleanly(folder: Path) -> None:
    with running(folder) as server:
        server.open(game="klondike", seed="1")
        server.process.send_signal(signal.SIGINT)
        code = server.process.wait(timeout=15)
        assert server.process.stderr is not None
        err = server.process.stderr.read()
    assert code == 130 and "Traceback" not in err


def test_the_games_listed_are_solitaire_list(server: Server) -> None:
    status, record = server.request("GET", "/api/games")
    listed = run_cli("list", "--json").json_lines()
    assert status == 200 and record["games"] == listed


def test_the_page_and_its_files_are_served(server: Server) -> None:
    import urllib.request

    for path in ("/", "/play/klondike", "/static/app.js", "/static/cards.js"):
        with urllib.request.urlopen(server.base + path, timeout=10) as response:
            assert response.status == 200
            text = response.read().decode()
            assert "http://" not in text.replace("http://www.w3.org", "")  # nothing fetched


def test_a_finished_request_leaves_the_lock_for_the_terminal(server: Server) -> None:
    table = server.open(game="klondike", seed="2", auto="off")["table"]
    _, record = server.command(table, "t2 f1")
    saved = record["save"]
    resumed = run_cli("play", "--resume", saved, "--json", stdin="").json_lines()
    assert resumed[0]["piles"] == record["piles"]
    # The terminal's quit kept it; the table reads that save again before its next action.
    time.sleep(0.01)
    _, again = server.command(table, "draw")
    assert again["ok"] and json.dumps(again["piles"]) != json.dumps(record["piles"])


def test_open_hands_the_address_to_the_browser(folder: Path, tmp_path: Path) -> None:
    told = tmp_path / "told.txt"
    browser = tmp_path / "browser.py"
    browser.write_text(f"import sys; open({str(told)!r}, 'w').write(sys.argv[1])\n")
    env = dict(os.environ, BROWSER=f"{sys.executable} {browser} %s")
    process = subprocess.Popen(
        serve_command("--port", "0", "--open"),
        cwd=folder,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        for _ in range(100):
            if told.exists() and told.read_text():
                break
            time.sleep(0.1)
        assert told.read_text() in line and told.read_text().startswith("http://127.0.0.1:")
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=15)


# --- the table is the shared Player's -----------------------------------------------------


def test_every_answer_holds_line_modes_record(server: Server) -> None:
    # The same commands typed in line mode: every field of its play --json record is in the
    # table's answer with the same value (the hints, the engine's own moves, undo and redo,
    # the refusals and their reasons, the list of legal actions, 'no win is possible').
    commands = ["t2 f1", "hint", "moves", "t1 t2", "undo", "hint", "redo", "t7", "draw",
                "hint", "auto on", "undo", "undo", "redo", "new 5", "hint"]  # fmt: skip
    opened = server.open(game="klondike", seed="2", auto="off")
    answers = [opened] + [server.command(opened["table"], c)[1] for c in commands]
    typed = run_cli("play", "klondike", "--seed", "2", "--no-auto", "--line", "--json",
                    stdin="\n".join(commands) + "\n").json_lines()  # fmt: skip
    assert len(typed) == len(answers)
    for command, web, line in zip(["(dealt)", *commands], answers, typed, strict=True):
        differing = {key: (web.get(key), value) for key, value in line.items()
                     if web.get(key) != value}  # fmt: skip
        assert not differing, (command, differing)
    assert [a["hint"] for a in answers if "hint" in a]  # the hints were given


def test_a_hint_never_leads_back_to_a_position_played(server: Server) -> None:
    table = server.open(game="klondike", seed="2", auto="off")["table"]
    _, first = server.command(table, "hint")
    assert first["hint"]
    _, played = server.command(table, first["hint"])
    _, undone = server.command(table, "undo")
    assert played["ok"] and undone["ok"]
    # Back where the hint was given: it must not lead where the player has been.
    _, again = server.command(table, "hint")
    assert again["ok"] and again["hint"] and again["hint"] != first["hint"]


def test_a_won_game_stays_won_and_goes_to_the_history(server: Server) -> None:
    from crafted import commands_of

    commands = commands_of("big_ben_seed_3_win.txt")
    table = server.open(game="big-ben", seed="3", auto="off")["table"]
    for command in commands:
        status, last = server.command(table, command)
        assert status == 200, (command, last["error"])
    assert last["result"] == "won" and last["over"] and not last["can_undo"]
    status, refused = server.command(table, "undo")
    typed = run_cli("play", "big-ben", "--seed", "3", "--no-auto", "--json", "--no-record",
                    stdin="\n".join([*commands, "undo"]) + "\n").json_lines()  # fmt: skip
    assert status == 422 and refused["error"] == typed[-1]["error"]
    assert refused["piles"] == last["piles"]
    won = [g for g in run_cli("history", "--json").json_lines() if g["id"].startswith(last["save"])]
    assert [g["result"] for g in won] == ["won"]
    assert last["save"] not in [s["id"] for s in run_cli("saves", "--json").json_lines()]


def test_the_game_is_saved_after_every_move_and_undo(server: Server) -> None:
    table = server.open(game="klondike", seed="2", auto="off")["table"]
    for command in ("t2 f1", "t7 f2", "undo"):
        _, record = server.command(table, command)
    saved = {s["id"]: s for s in run_cli("saves", "--json").json_lines()}
    assert saved[record["save"]]["moves"] == 1  # the undo is saved too
    resumed = run_cli("play", "--resume", record["save"], "--json", "--no-auto", stdin="")
    assert resumed.json_lines()[0]["piles"] == record["piles"]
    _, dealt = server.command(table, "new 7")  # the game left is abandoned, as a script's
    assert dealt["ok"] and dealt["seed"] == 7 and dealt["moves_made"] == 0
    assert record["save"] not in [s["id"] for s in run_cli("saves", "--json").json_lines()]


def test_no_win_is_said_and_stays_said_without_a_new_search(server: Server) -> None:
    record = server.open(game="golf", seed="10")
    table = record["table"]
    for _ in range(40):
        if record.get("no_win") or record["over"]:
            break
        _, record = server.command(table, record["moves"][0])
    assert record["no_win"].startswith("no win is possible")
    # A refusal, a look at the rules and a fresh look at the table keep saying it.
    _, refused = server.command(table, "f1 t1")
    _, rules = server.command(table, "rules")
    _, shown = server.request("GET", f"/api/tables/{table}")
    assert refused["ok"] is False and rules["rules"]
    assert refused["no_win"] == rules["no_win"] == shown["no_win"] == record["no_win"]


def test_leaving_a_game_takes_line_modes_answer(server: Server) -> None:
    table = server.open(game="klondike", seed="2", auto="off")["table"]
    _, moved = server.command(table, "t2 f1")
    asked = moved["questions"]["restart"]
    assert asked["text"].startswith("Play this deal again from the start? This game (1 move)")
    assert [c["means"] for c in asked["choices"]] == ["keep", "abandon", "cancel"]
    status, record = server.request("POST", f"/api/tables/{table}/command",
                                    {"command": "restart", "answer": "maybe"})  # fmt: skip
    assert status == 400 and "answer" in record["error"]
    status, record = server.request("POST", f"/api/tables/{table}/command",
                                    {"command": "restart", "answer": "cancel"})  # fmt: skip
    assert status == 422 and record["moves_made"] == 1
    status, record = server.request("POST", f"/api/tables/{table}/command",
                                    {"command": "restart", "answer": "keep"})  # fmt: skip
    assert status == 200 and record["moves_made"] == 0 and record["save"] != moved["save"]
    assert record["messages"][0].startswith(f"Saved as game {moved['save']}")
    saved = {s["id"]: s for s in run_cli("saves", "--json").json_lines()}
    assert saved[moved["save"]]["moves"] == 1 and not record["questions"]
