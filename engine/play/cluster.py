"""Solving deals on a Ray cluster: ``stats --solve --cluster ADDRESS``.

Ray is an optional dependency (the ``cluster`` extra) and only this module imports it, and only
when a run asks for a cluster. Deals go to Ray tasks in batches sized to take about a second,
with only a few batches in flight per CPU of the cluster, so the driver's memory does not grow
with the number of deals. Each deal is judged by ``winnability.solve_deal``, the function a run
on this machine uses, so a budget in positions gives the same verdicts whatever the workers.

A batch's verdicts come back together when its task ends, and are handed on (and so written to
the results file) at once. A worker lost mid-batch (killed, out of memory, its machine gone)
loses only that batch: Ray's own retries are off, and the batch is handed out again here, so
that the retries can be counted and a batch that keeps failing stops the run. Closing the
stream (or an interrupt while it waits) disconnects, which ends the tasks still under way.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import os
import socket
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...rules.errors import printable
from ..core.seeds import Seed
from ..game.game import Game
from ..game.load import load_game
from .solver import Budget
from .winnability import DealVerdict, solve_deal

INSTALL = "pip install 'yaml-solitaire[cluster]'"
BATCH_SECONDS = 1.0  # a batch takes about this long: little lost with a worker, little overhead
MAX_BATCH = 1000
AHEAD_PER_CPU = 2  # batches in flight per CPU of the cluster: every worker kept busy
MAX_RETRIES = 3  # times one batch is handed out again after its worker was lost
LOCAL_OBJECT_STORE = 128 * 2**20  # bytes: a local Ray's shared memory (verdicts are tiny)


class ClusterError(RuntimeError):
    """A cluster that cannot be used or reached, or a run it could not finish, in one line."""


class RayMissing(ClusterError):
    """Ray is not installed."""


class AddressError(ClusterError):
    """No address, or one that is not of a form Ray takes."""


def _ray() -> Any:
    """The ``ray`` module, imported now (it is typed as Any: see ``_Ray``)."""
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise RayMissing(f"--cluster needs Ray, which is not installed: {INSTALL}") from None


def resolve_address(address: str | None) -> str:
    """The cluster's address: ``local``, ``HOST:PORT`` or ``ray://HOST:PORT``.

    None or an empty text means the address in ``RAY_ADDRESS``."""
    chosen = (address or os.environ.get("RAY_ADDRESS", "")).strip()
    forms = "local, HOST:PORT or ray://HOST:PORT"
    if not chosen:
        raise AddressError(f"--cluster needs an address ({forms}) or RAY_ADDRESS")
    if chosen not in ("local", "auto"):
        host, sep, port = chosen.removeprefix("ray://").rpartition(":")
        if not host or not sep or not port.isdigit() or not 0 < int(port) < 65536:
            raise AddressError(f"not a Ray address ({forms}): {printable(chosen)}")
    return chosen


@dataclass
class Figures:
    """What a run on the cluster did: deals solved, time, CPU time, workers, retries."""

    address: str
    cpus: float = 0.0
    deals: int = 0
    seconds: float = 0.0  # from the first batch handed out to the last verdict received
    cpu_seconds: float = 0.0  # the workers' CPU time, summed
    workers: set[tuple[str, int]] = field(default_factory=set)  # (node's id, process id)
    nodes: set[str] = field(default_factory=set)  # the network addresses of the workers' nodes
    retries: int = 0

    @property
    def deals_per_second(self) -> float:
        return self.deals / self.seconds if self.seconds > 0 else 0.0

    @property
    def cpu_per_deal(self) -> float:
        return self.cpu_seconds / self.deals if self.deals else 0.0

    def as_json(self) -> dict[str, Any]:
        return {
            "address": self.address,
            "cpus": self.cpus,
            "deals": self.deals,
            "seconds": round(self.seconds, 3),
            "deals_per_second": round(self.deals_per_second, 3),
            "cpu_seconds_per_deal": round(self.cpu_per_deal, 4),
            "workers": len(self.workers),
            "nodes": sorted(self.nodes),
            "retries": self.retries,
        }

    def line(self) -> str:
        machines = f" on {len(self.nodes)} machines" if len(self.nodes) > 1 else ""
        retried = ""
        if self.retries:
            retried = f", {self.retries} batches retried after a worker was lost"
        return (
            f"cluster {self.address}: {self.deals} deals solved in {self.seconds:.1f} s, "
            f"{self.deals_per_second:.2f} deals/s, {self.cpu_per_deal:.3f} CPU-s a deal, "
            f"{len(self.workers)} worker{'s' if len(self.workers) != 1 else ''}{machines}{retried}"
        )


# The task's side: runs in a Ray worker process. The game is loaded once per process.
_GAMES: dict[tuple[str, str], Game] = {}


def _game(game_id: str, path: str) -> Game:
    key = (game_id, path)
    if key not in _GAMES:
        # A rule file of one's own must be at the same path on every machine; a shipped game
        # is found by its id wherever the package is installed.
        _GAMES[key] = load_game(path if Path(path).is_file() else game_id)
    return _GAMES[key]


def solve_batch(
    game_id: str,
    path: str,
    seeds: list[Seed],
    nodes: int | None,
    seconds: float | None,
    positions: int | None = None,
) -> tuple[list[tuple[Seed, str, int, float]], float, tuple[str, str, int]]:
    """Verdicts of these deals (as plain tuples), the CPU seconds taken, and the worker: its
    node's id and address, and its process id."""
    began = time.process_time()
    game = _game(game_id, path)
    budget = Budget(nodes, seconds, positions)
    verdicts = []
    for seed in seeds:
        v = solve_deal(game, seed, budget)
        verdicts.append((v.seed, v.result, v.nodes, v.seconds))
    ray = _ray()
    node = str(ray.get_runtime_context().get_node_id())
    worker = (node, str(ray.util.get_node_ip_address()), os.getpid())
    return verdicts, time.process_time() - began, worker


def _reachable(address: str, timeout: float = 5.0) -> None:
    """Refuse at once an address where nothing listens (Ray itself would retry for minutes)."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout).close()
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        shown = printable(address)
        raise ClusterError(f"cannot reach the Ray cluster at {shown}: {reason}") from None


TOKEN_HELP = "--cluster-token FILE, RAY_AUTH_TOKEN or ~/.ray/auth_token"


def _token_authentication(token_file: str | None) -> None:
    """Give the cluster an authentication token when there is one, as Ray documents it.

    Ray 2.60 turns token authentication on for a head started where a token exists
    (``~/.ray/auth_token``, made by any local Ray), but a driver given an address sends its
    token only with ``RAY_AUTH_MODE=token``. A cluster without authentication takes a driver
    that sends one, so the mode is turned on whenever a token is at hand: ``token_file``,
    else Ray's own places. ``RAY_AUTH_MODE`` set by the user is left as it is."""
    if token_file is not None:
        problem = _token_problem(Path(token_file))
        if problem:
            raise ClusterError(f"cannot read the token in {printable(token_file)}: {problem}")
        os.environ.pop("RAY_AUTH_TOKEN", None)
        os.environ["RAY_AUTH_TOKEN_PATH"] = os.path.abspath(token_file)
        os.environ["RAY_AUTH_MODE"] = "token"
        return
    if "RAY_AUTH_MODE" in os.environ:
        return
    named = os.environ.get("RAY_AUTH_TOKEN_PATH")
    default = Path.home() / ".ray" / "auth_token"
    if os.environ.get("RAY_AUTH_TOKEN") or (named and os.path.isfile(named)) or default.is_file():
        os.environ["RAY_AUTH_MODE"] = "token"


@contextlib.contextmanager
def _stderr_kept() -> Iterator[Callable[[], str]]:
    """Ray's C++ code writes to the process's stderr (20 lines of retries when a token is
    refused): while connecting, that goes to a temporary file, read by the function given."""
    import tempfile

    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as kept:
        os.dup2(kept.fileno(), 2)
        try:
            yield lambda: _read_back(kept)
        finally:
            os.dup2(saved, 2)
            os.close(saved)


def _read_back(kept: Any) -> str:
    kept.seek(0)
    return str(kept.read(100_000).decode("utf-8", "replace"))


def _token_problem(path: Path) -> str | None:
    """Why ``path`` holds no token; None when it holds one."""
    from ...rules.files import Unreadable, read_limited

    try:
        text = read_limited(path, 10_000)
    except Unreadable as exc:
        return str(exc)
    return None if text.strip() else "it is empty"


class Cluster:
    """A connection to a Ray cluster (``local``: one started here for this run)."""

    def __init__(
        self, address: str, cpus: int | None = None, token_file: str | None = None
    ) -> None:
        if address == "local":
            # A Ray of this machine alone needs no network: keep it on the loopback address.
            # (Ray reads this when it is imported.)
            os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
        else:
            _token_authentication(token_file)  # read by Ray when it is imported, too
        self.ray = _ray()
        self.address = address
        self.figures = Figures(address)
        options: dict[str, Any] = {
            "include_dashboard": False,
            "log_to_driver": False,
            "logging_level": logging.ERROR,
        }
        if address not in ("local", "auto"):
            _reachable(address)
        if address == "local":
            options.update(num_cpus=cpus, object_store_memory=LOCAL_OBJECT_STORE)
        # While connected, what is printed on stdout goes to stderr: Ray's driver prints the
        # failures of its workers (a worker killed) on stdout, where they would break a --json
        # record or a table read by a program. The run's own output comes after ``close``.
        self._stdout = contextlib.redirect_stdout(sys.stderr)
        self._stdout.__enter__()
        said = ""  # what Ray's own code wrote on stderr while connecting
        try:
            # (A local Ray's processes, started now, keep the real stderr.)
            keeping = _stderr_kept() if address != "local" else contextlib.nullcontext(str)
            with keeping as kept:
                try:
                    self.ray.init(address=address, **options)
                finally:
                    said = kept()
            self.task = self.ray.remote(max_retries=0, num_cpus=1)(solve_batch)
            self.figures.cpus = self._cpus()
        except Exception as exc:  # Ray raises ConnectionError, ValueError, RuntimeError...
            self._stdout.__exit__(None, None, None)
            reason = printable(" ".join(str(exc).split())[:300] or type(exc).__name__)
            if any(w in f"{reason} {said}".lower() for w in ("unauthenticated", "auth token")):
                reason = f"it wants its authentication token ({TOKEN_HELP})"
            shown = printable(address)
            raise ClusterError(f"cannot use the Ray cluster at {shown}: {reason}") from None
        except BaseException:  # Ctrl-C while connecting
            self._stdout.__exit__(None, None, None)
            raise
        # each task in flight: its batch of seeds and how often the batch was tried
        self.pending: dict[Any, tuple[list[Seed], int]] = {}

    def _cpus(self) -> float:
        return float(self.ray.cluster_resources().get("CPU", 0.0))

    def forget_tasks(self) -> None:
        """Forget the tasks under way; ``close`` ends them.

        They are not cancelled one by one: ``ray.cancel`` racing with a task that is just
        ending aborts the driver inside Ray (a failed internal check, seen with Ray 2.60). A
        driver that disconnects ends its job instead, and Ray kills the job's workers."""
        self.pending.clear()

    def close(self) -> None:
        """Cancel what is under way and disconnect (a local Ray is stopped)."""
        try:
            self.forget_tasks()
        finally:
            try:
                self.ray.shutdown()
            finally:
                self._stdout.__exit__(None, None, None)

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def solve_all(
        self, game: Game, seeds: Iterable[Seed], count: int, budget: Budget, jobs: int
    ) -> Iterator[DealVerdict]:
        """Verdicts of ``seeds`` (``count`` of them), as the batches come back.

        ``jobs`` is not used: the cluster's CPUs decide how many deals are solved at once."""
        del jobs
        ray = self.ray
        errors = importlib.import_module("ray.exceptions")
        figures = self.figures
        path = str(game.path) if game.path is not None else game.id
        feed = iter(seeds)
        size = 1  # learnt from the batches done
        exhausted = False
        pending = self.pending
        checked = began = time.monotonic()
        cpus = max(1.0, figures.cpus)

        def hand_out(batch: list[Seed], tries: int) -> None:
            ref = self.task.remote(
                game.id, path, batch, budget.nodes, budget.seconds, budget.positions
            )
            pending[ref] = (batch, tries)

        try:
            while True:
                while not exhausted and len(pending) < AHEAD_PER_CPU * cpus:
                    batch = [s for _, s in zip(range(size), feed, strict=False)]
                    if not batch:
                        exhausted = True
                        break
                    hand_out(batch, 0)
                if not pending:
                    break
                try:
                    ready, _ = ray.wait(list(pending), num_returns=1, timeout=1.0)
                except (errors.RayError, ConnectionError) as exc:
                    raise ClusterError(
                        f"lost the Ray cluster at {printable(self.address)}: {type(exc).__name__}"
                    ) from None
                now = time.monotonic()
                if now - checked > 10:  # a cluster may grow or shrink under a long run
                    cpus, checked = max(1.0, self._cpus()), now
                for ref in ready:
                    batch, tries = pending.pop(ref)
                    try:
                        verdicts, cpu, (node, where, pid) = ray.get(ref)
                    except errors.RayTaskError as exc:  # the task itself failed: a bug
                        first = str(exc).strip().splitlines()[-1][:300] if str(exc) else ""
                        raise ClusterError(
                            f"a batch of deals failed on the cluster: {first}"
                        ) from None
                    except errors.RayError as exc:  # the worker or its machine was lost
                        if tries >= MAX_RETRIES:
                            raise ClusterError(
                                f"a batch of {len(batch)} deals failed {tries + 1} times "
                                f"on the cluster (its worker was lost: {type(exc).__name__})"
                            ) from None
                        figures.retries += 1
                        hand_out(batch, tries + 1)
                        continue
                    figures.cpu_seconds += cpu
                    figures.workers.add((node, pid))
                    figures.nodes.add(where)
                    figures.deals += len(verdicts)
                    figures.seconds = time.monotonic() - began
                    if cpu > 0:
                        wanted = int(BATCH_SECONDS * len(verdicts) / cpu)
                        size = max(1, min(wanted, 4 * size, MAX_BATCH))
                    for seed, result, nodes, seconds in verdicts:
                        yield DealVerdict(seed, result, nodes, seconds)
        finally:
            self.forget_tasks()
