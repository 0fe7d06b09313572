"""``stats --solve --cluster``: deals solved on a real Ray, started here on the loopback address.

One Ray is started for the module (``ray start --head --port PORT --num-cpus 2 --block``, in a
temporary HOME, since Ray keeps a token under ~/.ray), and stopped at the end by ending that
process. With ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0`` a one-machine Ray stays on 127.0.0.1,
which the tests check. Runs go through the ``solitaire`` command in a process of its own, as a
user would run them, so that they can be interrupted and their workers killed.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import run_cli

pytest.importorskip("ray", reason="the 'cluster' extra is not installed")

BIN = Path(sys.executable).parent
SOLITAIRE = str(BIN / "solitaire")
RAY = str(BIN / "ray")


class Head:
    def __init__(self, port: int, env: dict[str, str], temp: str) -> None:
        self.port = port
        self.address = f"127.0.0.1:{port}"
        self.env = env
        self.temp = temp

    def run(
        self, *args: str, env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [SOLITAIRE, *args], env=env or self.env, capture_output=True, text=True, timeout=300
        )

    def start(self, *args: str) -> subprocess.Popen[str]:
        return subprocess.Popen(
            [SOLITAIRE, *args],
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def raylets(self) -> list[int]:
        """The raylet processes of this Ray (found by its temporary folder)."""
        return [pid for pid, line in _processes() if "raylet" in line and self.temp in line]

    def busy_workers(self) -> list[int]:
        """The worker processes of this Ray that are solving a batch now."""
        parents = set(self.raylets())
        return [
            pid
            for pid, line in _processes()
            if line.startswith("ray::solve_batch") and _parent(pid) in parents
        ]


def _processes() -> Iterator[tuple[int, str]]:
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                line = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            yield int(entry.name), line


def _parent(pid: int) -> int:
    try:
        return int((Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return -1


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def _ray_head(token: str | None = None) -> Iterator[Head]:
    """A Ray head started as its documentation says, on 127.0.0.1, in a temporary HOME; with
    ``token`` in that HOME's ~/.ray/auth_token, which makes Ray 2.60 turn token
    authentication on (as any earlier local Ray of that HOME would have left one)."""
    home = tempfile.mkdtemp(prefix="solitaire-ray-home-")
    if token is not None:
        (Path(home) / ".ray").mkdir()
        (Path(home) / ".ray" / "auth_token").write_text(token)
    temp = tempfile.mkdtemp(prefix="ray", dir="/tmp")  # short: Ray's socket paths are bounded
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    env.update(HOME=home, RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER="0", RAY_USAGE_STATS_ENABLED="0")
    port = _free_port()
    started = subprocess.Popen(
        [RAY, "start", "--head", "--node-ip-address", "127.0.0.1", "--port", str(port),
         "--num-cpus", "2", "--block", "--include-dashboard=false", "--temp-dir", temp,
         "--disable-usage-stats"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    server = Head(port, env, temp)
    try:
        deadline = time.monotonic() + 120
        while not server.raylets():
            assert started.poll() is None, "ray start ended"
            assert time.monotonic() < deadline, "Ray did not start within 2 minutes"
            time.sleep(0.5)
        yield server
    finally:
        started.send_signal(signal.SIGTERM)  # 'ray start --block' then stops what it started
        try:
            started.wait(60)
        except subprocess.TimeoutExpired:
            started.kill()
        for pid, line in list(_processes()):  # anything of this Ray's left behind
            if temp in line:
                os.kill(pid, signal.SIGKILL)


@pytest.fixture(scope="module")
def head() -> Iterator[Head]:
    """A head without authentication (no token in its HOME when it starts)."""
    with _ray_head() as server:
        yield server


TOKEN = "0123456789abcdef" * 4


@pytest.fixture(scope="module")
def token_head() -> Iterator[Head]:
    """A head with token authentication on."""
    with _ray_head(TOKEN) as server:
        yield server


def _verdicts(path: Path) -> list[tuple[Any, ...]]:
    """The results file's lines without their times (the rest must match exactly)."""
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    assert all(sorted(r) == ["game", "nodes", "result", "seconds", "seed"] for r in rows)
    return [(r["game"], r["seed"], r["result"], r["nodes"]) for r in rows]


def _summary(output: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(output)
    record.pop("seconds_per_deal")
    return record


def test_the_ray_of_the_tests_is_on_loopback(head: Head) -> None:
    code = (
        "import json, ray; ray.init(address='" + head.address + "', log_to_driver=False); "
        "print(json.dumps([n['NodeManagerAddress'] for n in ray.nodes() if n['Alive']]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=head.env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == ["127.0.0.1"]


GAMES = [
    ("clock-peek", "0", "30", "3000"),
    ("freecell", "ms:1", "4", "300"),  # seeds as text travel too
]


@pytest.mark.parametrize(("game", "seed", "deals", "nodes"), GAMES, ids=[g[0] for g in GAMES])
def test_local_and_address_give_the_results_of_one_job(
    head: Head, tmp_path: Path, game: str, seed: str, deals: str, nodes: str
) -> None:
    args = ["stats", game, "--deals", deals, "--seed", seed, "--solve", "--budget-nodes", nodes]
    one = run_cli(*args, "--jobs", "1", "--json", "--results", str(tmp_path / "one.jsonl"))
    assert one.code == 0, one.err
    expected = sorted(_verdicts(tmp_path / "one.jsonl"))
    assert len(expected) == int(deals)
    for name, address in (("local", "local"), ("head", head.address)):
        results = tmp_path / f"{name}.jsonl"
        extra = ["--jobs", "2"] if address == "local" else []
        # --cluster local keeps its Ray on the loopback address by itself
        env = {k: v for k, v in head.env.items() if k != "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"}
        command = [*args, "--cluster", address, *extra, "--json", "--results", str(results)]
        done = head.run(*command, env=env if address == "local" else None)
        assert done.returncode == 0, done.stderr
        assert sorted(_verdicts(results)) == expected, name
        record = _summary(done.stdout)
        figures = record.pop("cluster")
        assert record == _summary(one.out), name
        assert figures["deals"] == int(deals) and figures["retries"] == 0
        assert figures["nodes"] == ["127.0.0.1"], "a local Ray stays on the loopback address"
        assert 1 <= figures["workers"] <= 2 and figures["cpus"] == 2
        assert figures["deals_per_second"] > 0 and figures["cpu_seconds_per_deal"] > 0


# Slow enough per deal that a run can be caught while its deals are being solved: every
# one of these Spider deals spends its whole budget (about 0.7 CPU-s compiled), where most
# Big Ben deals are won in a few hundred positions and a run of them ends before a worker
# can be caught busy.
SLOW = ["spider", "--seed", "1", "--solve", "--budget-nodes", "15000"]


def _wait_for_lines(path: Path, count: int, run: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 180
    while not path.exists() or len(path.read_text().splitlines()) < count:
        assert run.poll() is None, run.communicate()
        assert time.monotonic() < deadline, "no results came"
        time.sleep(0.2)


def test_an_interrupted_run_stops_its_tasks_and_resumes_without_solving_twice(
    head: Head, tmp_path: Path
) -> None:
    results = tmp_path / "runs.jsonl"
    args = ["stats", *SLOW, "--deals", "14", "--results", str(results), "--cluster", head.address]
    run = head.start(*args)
    _wait_for_lines(results, 2, run)
    run.send_signal(signal.SIGINT)
    out, err = run.communicate(timeout=30)
    assert run.returncode == 130, err[:4000]
    first = _verdicts(results)
    assert 2 <= len(first) < 14
    assert f"stopped after {len(first)} of 14" in out
    deadline = time.monotonic() + 20
    while head.busy_workers():  # the cluster's tasks were cancelled, not left to run
        assert time.monotonic() < deadline, "tasks still run on the cluster"
        time.sleep(0.5)
    again = head.run(*args, "--json")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["cluster"]["deals"] == 14 - len(first), "solved once only"
    every = _verdicts(results)
    assert every[: len(first)] == first
    assert sorted(s for _, s, _, _ in every) == list(range(1, 15)), "each deal once"


def _run_with_a_worker_killed(head: Head, results: Path, *extra: str) -> list[tuple[Any, ...]]:
    """A job of 10 slow deals by address, a busy worker killed mid-way: its deals are solved
    again and every deal's verdict comes once. The verdicts."""
    args = ["stats", *SLOW, "--deals", "10", "--results", str(results), "--json"]
    run = head.start(*args, "--cluster", head.address, *extra)
    _wait_for_lines(results, 1, run)
    deadline = time.monotonic() + 60
    while not (busy := head.busy_workers()):
        assert run.poll() is None and time.monotonic() < deadline, "no worker to kill"
        time.sleep(0.05)
    os.kill(busy[0], signal.SIGKILL)
    out, err = run.communicate(timeout=300)
    assert run.returncode == 0, err
    figures = json.loads(out)["cluster"]
    assert figures["retries"] >= 1
    assert figures["deals"] == 10
    on_cluster = _verdicts(results)
    assert sorted(s for _, s, _, _ in on_cluster) == list(range(1, 11)), "each deal once"
    return on_cluster


def test_a_killed_worker_has_its_deals_retried_and_each_result_comes_once(
    head: Head, tmp_path: Path
) -> None:
    on_cluster = _run_with_a_worker_killed(head, tmp_path / "runs.jsonl")
    args = ["stats", *SLOW, "--deals", "10", "--results", str(tmp_path / "one.jsonl")]
    one = run_cli(*args)
    assert one.code == 0, one.err
    assert sorted(on_cluster) == sorted(_verdicts(tmp_path / "one.jsonl"))


def test_a_head_with_token_authentication_takes_a_job_with_its_token(
    token_head: Head, tmp_path: Path
) -> None:
    """The token read as Ray documents it (~/.ray/auth_token of the HOME the head was started
    in), a worker killed: every deal's verdict once."""
    _run_with_a_worker_killed(token_head, tmp_path / "runs.jsonl")


def test_without_the_token_a_head_with_authentication_refuses_in_one_line(
    token_head: Head, tmp_path: Path
) -> None:
    stranger = dict(token_head.env, HOME=str(tmp_path))  # no ~/.ray/auth_token here
    job = ["stats", "clock", "--deals", "3", "--solve", "--cluster", token_head.address]
    refused = token_head.run(*job, env=stranger)
    assert refused.returncode == 1, refused.stderr
    assert refused.stderr.count("\n") == 1 and "--cluster-token FILE" in refused.stderr
    token = tmp_path / "token"
    token.write_text(TOKEN + "\n")
    given = token_head.run(*job, "--cluster-token", str(token), "--json", env=stranger)
    assert given.returncode == 0, given.stderr
    assert json.loads(given.stdout)["cluster"]["deals"] == 3
    by_env = token_head.run(*job, "--json", env=dict(stranger, RAY_AUTH_TOKEN=TOKEN))
    assert by_env.returncode == 0, by_env.stderr
    missing = token_head.run(*job, "--cluster-token", str(tmp_path / "none"), env=stranger)
    assert missing.returncode == 1 and "cannot read the token" in missing.stderr


def test_without_ray_cluster_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails
    result = run_cli("stats", "clock", "--deals", "3", "--solve", "--cluster", "local")
    assert result.code == 2
    assert result.err.count("\n") == 1 and "pip install 'yaml-solitaire[cluster]'" in result.err
    assert run_cli("stats", "clock", "--deals", "3", "--solve").code == 0, "--jobs needs no Ray"


def test_cluster_addresses_and_usage(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    solve = ("stats", "clock", "--deals", "3", "--solve")
    cases = [
        ((*solve, "--cluster"), 2, "needs an address"),
        ((*solve, "--cluster", "somewhere"), 2, "not a Ray address"),
        ((*solve, "--cluster", f"127.0.0.1:{_free_port()}"), 1, "cannot reach the Ray cluster"),
        ((*solve, "--cluster", "127.0.0.1:1", "--jobs", "2"), 2, "--jobs sets the CPUs"),
        (("stats", "clock", "--deals", "3", "--cluster", "local"), 2, "go with --solve"),
    ]
    for args, code, message in cases:
        result = run_cli(*args)
        assert (result.code, result.err.count("\n")) == (code, 1), (args, result.err)
        assert message in result.err, (args, result.err)
    monkeypatch.setenv("RAY_ADDRESS", "127.0.0.1:1")
    result = run_cli(*solve, "--cluster")
    assert result.code == 1 and "127.0.0.1:1" in result.err


def test_ray_is_imported_only_for_a_cluster() -> None:
    code = (
        "import sys; from yaml_solitaire.engine.ui.cli import main; "
        "main(['stats', 'clock-peek', '--deals', '5', '--solve', '--jobs', '2', '--json']); "
        "print('ray' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "False"
