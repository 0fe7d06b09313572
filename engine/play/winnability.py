"""How winnable a game is: many deals solved, with shares, intervals and times.

Each deal gets the solver's verdict within a budget: won, lost (proved) or unknown (the budget
ran out). The share of winnable deals then lies between won/N and (won + unknown)/N. Results
can be appended to a file, one JSON line per deal; a run given the same file skips the deals
already there, so a long run can be stopped and resumed. Deals are spread over processes with
only a few in flight at once, so memory does not grow with the number of deals, and Ctrl-C
ends the run at once with what was done.
"""

from __future__ import annotations

import json
import math
import os
import stat
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...rules.errors import printable
from ..core.seeds import Seed, is_seed, ms_number, seed_after
from ..game.game import Game
from ..game.load import load_game
from .solver import Budget, Solver
from .stats import end_with_parent, wilson
from .workers import Workers, WorkersFailed


@dataclass(frozen=True)
class DealVerdict:
    seed: Seed
    result: str  # won, lost or unknown
    nodes: int
    seconds: float

    def as_json(self, game: str) -> dict[str, Any]:
        return {
            "game": game,
            "seed": self.seed,
            "result": self.result,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
        }


def solve_deal(game: Game, seed: Seed, budget: Budget) -> DealVerdict:
    found = Solver(game).solve(game.deal_seed(seed), budget, shorten=False)
    return DealVerdict(seed, found.result, found.nodes, found.seconds)


_WORKER: tuple[Game, Budget] | None = None


def _init_worker(
    path: str, nodes: int | None, seconds: float | None, positions: int | None
) -> None:
    global _WORKER
    end_with_parent()
    _WORKER = (load_game(path), Budget(nodes, seconds, positions))


def _work(seed: Seed) -> DealVerdict:
    assert _WORKER is not None
    game, budget = _WORKER
    return solve_deal(game, seed, budget)


class ResultsError(ValueError):
    """A results file that cannot be read or written, in one line."""


MAX_LINE = 10_000  # a verdict's line is about 100 characters


def _results_file(path: Path) -> int:
    """The results file opened for reading and appending (made when there is none yet).

    Only a regular file will do: it is opened without blocking (a FIFO with no reader would
    hang) and looked at once open."""
    try:
        fd = os.open(
            path, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK | os.O_CLOEXEC, 0o666
        )
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        reason = exc.strerror if isinstance(exc, OSError) else "not a file name"
        raise ResultsError(f"{printable(str(path))}: {reason or exc}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise ResultsError(f"{printable(str(path))}: not a regular file")
    return fd


def read_results(
    path: Path | int, game: str, torn: Callable[[str], None] | None = None
) -> dict[Seed, DealVerdict]:
    """The verdicts already in a results file (lines of other games, or broken, are skipped).

    Lines are read a bounded length at a time: a file of one huge line costs no memory. A last
    line without its line break (a run stopped in the middle of writing it) is a verdict when
    it reads as one; else it is dropped, said to ``torn`` in one line and, when ``path`` is
    the open results file, cut off, so that the next verdict starts a line of its own."""
    done: dict[Seed, DealVerdict] = {}
    try:
        handle = open(path, "rb", closefd=isinstance(path, Path))  # noqa: SIM115
    except FileNotFoundError:
        return done
    with handle:
        start = 0  # where the line being read starts, in bytes
        while raw := handle.readline(MAX_LINE + 1):
            if len(raw) > MAX_LINE:  # not a verdict: skip to the end of the line
                while raw and not raw.endswith(b"\n"):
                    raw = handle.readline(MAX_LINE + 1)
                start = handle.tell()
                continue
            verdict = _verdict(raw.decode("utf-8", "replace"), game)
            if not raw.endswith(b"\n"):  # the last line, cut short or not ended
                if isinstance(path, int):
                    _end_line(path, start, keep=verdict is not None)
                if verdict is None:
                    if torn is not None:
                        torn(f"its last line was cut short, {len(raw)} bytes: dropped")
                    break
            if verdict is not None:
                done[verdict.seed] = verdict
            start = handle.tell()
    return done


def _verdict(line: str, game: str) -> DealVerdict | None:
    """The verdict a line of a results file holds for ``game``, or None."""
    try:
        data = json.loads(line)
        result = data.get("result")
        if data.get("game") != game or result not in ("won", "lost", "unknown"):
            return None
        seed = data["seed"]
        if not is_seed(seed):
            return None
        nodes, seconds = int(data["nodes"]), float(data["seconds"])
        return DealVerdict(seed, result, nodes, seconds)
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return None


def _end_line(fd: int, start: int, keep: bool) -> None:
    """End the file's last line at once: its line break added (``keep``), or the line cut off."""
    try:
        if keep:
            os.write(fd, b"\n")
        else:
            os.ftruncate(fd, start)
    except OSError as exc:
        raise ResultsError(f"cannot mend its last line: {exc.strerror or exc}") from None


def run(
    game: Game,
    first: Seed,
    count: int,
    budget: Budget,
    jobs: int = 1,
    progress: Callable[[DealVerdict], None] | None = None,
    results: Path | None = None,
    solve_all: SolveAll | None = None,
    warn: Callable[[str], None] | None = None,
) -> list[DealVerdict]:
    """Verdicts for ``count`` deals from ``first``; those in ``results`` are not solved again
    (what was wrong with that file, if anything, is said to ``warn``).

    KeyboardInterrupt stops the run; the verdicts so far are then in ``results`` (if given).
    ``solve_all`` spreads the deals some other way than over ``jobs`` processes of this
    machine (``cluster.Cluster.solve_all``: on a Ray cluster).
    """
    fd = _results_file(results) if results is not None else None
    done: dict[Seed, DealVerdict] = {}
    if fd is not None:
        where = printable(str(results))
        try:
            done = read_results(fd, game.id, warn and (lambda text: warn(f"{where}: {text}")))
        except ResultsError as exc:
            os.close(fd)
            raise ResultsError(f"{where}: {exc}") from None
    # The deals are listed as they are handed out, never all at once: memory does not grow
    # with ``count`` (10**12 deals start at once), only with the verdicts reached.
    verdicts = sorted(
        (v for s, v in done.items() if 0 <= _place(first, s) < count),
        key=lambda v: _place(first, v.seed),
    )
    for verdict in verdicts:
        if progress:
            progress(verdict)
    todo = (s for i in range(count) if (s := seed_after(first, i)) not in done)
    under_way: Iterator[DealVerdict] | None = None
    try:
        spread = solve_all or _solve_all
        under_way = spread(game, todo, count - len(verdicts), budget, jobs)
        for verdict in under_way:
            verdicts.append(verdict)
            if fd is not None:
                line = json.dumps(verdict.as_json(game.id)) + "\n"
                try:
                    os.write(fd, line.encode())
                except OSError as exc:
                    where = printable(str(results))
                    raise ResultsError(f"{where}: cannot write: {exc.strerror or exc}") from None
            if progress:
                progress(verdict)
    finally:
        # Closed here, not when collected (a traceback may hold it): whatever ended the loop,
        # the processes are stopped before the summary is written.
        close = getattr(under_way, "close", None)
        if close is not None:
            close()
        if fd is not None:
            os.close(fd)
    return sorted(verdicts, key=lambda v: _place(first, v.seed))


# How the deals to solve are spread: (game, seeds, how many, budget, jobs) -> verdicts as they
# come, in any order.
SolveAll = Callable[[Game, Iterable[Seed], int, Budget, int], Iterator[DealVerdict]]


def _place(first: Seed, seed: Seed) -> int:
    """Which deal from ``first`` ``seed`` is (0 for ``first``); -1 when of another form."""
    if isinstance(first, str) or isinstance(seed, str):
        a, b = ms_number(first), ms_number(seed)
        return b - a if a is not None and b is not None else -1
    return seed - first


def _solve_all(
    game: Game, seeds: Iterable[Seed], count: int, budget: Budget, jobs: int
) -> Iterator[DealVerdict]:
    jobs = max(1, min(jobs, os.cpu_count() or 1, count or 1))
    if jobs == 1 or game.path is None:
        for seed in seeds:
            yield solve_deal(game, seed, budget)
        return
    # The processes are started at once, each given two deals, and one more as each is done:
    # every process is kept busy and memory does not grow with the number of deals. Leaving,
    # however (Ctrl-C, a generator closed), terminates the processes and waits for their end.
    with Workers(
        jobs,
        _work,
        _init_worker,
        (str(game.path), budget.nodes, budget.seconds, budget.positions),
    ) as workers:
        feed = iter(seeds)
        for seed in _take(feed, 2 * jobs):
            workers.send(seed)
        while workers.in_hand:
            try:
                _, verdict = workers.receive()
            except WorkersFailed as exc:
                raise SolveFailed(f"the processes solving the deals stopped: {exc}") from None
            for seed in _take(feed, 1):
                workers.send(seed)
            yield verdict


class SolveFailed(RuntimeError):
    """The processes solving the deals stopped (killed, or out of memory)."""


def _take(feed: Iterator[Seed], count: int) -> Iterable[Seed]:
    for _ in range(count):
        seed = next(feed, None)
        if seed is None:
            return
        yield seed


@dataclass
class Winnability:
    game: str
    first: Seed
    deals: int
    won: int
    lost: int
    unknown: int
    times: list[float]

    def share(self, count: int) -> tuple[float, float, float]:
        """A count as a share of the deals, with its 95% Wilson interval."""
        low, high = wilson(count, self.deals)
        return (count / self.deals if self.deals else 0.0), low, high

    @property
    def bounds(self) -> tuple[float, float]:
        """The share of winnable deals lies between these: won/N and (won + unknown)/N."""
        if not self.deals:
            return 0.0, 1.0
        return self.won / self.deals, (self.won + self.unknown) / self.deals

    def percentile(self, q: float) -> float:
        if not self.times:
            return 0.0
        ordered = sorted(self.times)
        return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]

    def as_json(self) -> dict[str, Any]:
        def share(count: int) -> dict[str, Any]:
            value, low, high = self.share(count)
            return {"count": count, "share": value, "ci95": [low, high]}

        low, high = self.bounds
        return {
            "game": self.game,
            "seed": self.first,
            "deals": self.deals,
            "won": share(self.won),
            "lost": share(self.lost),
            "unknown": share(self.unknown),
            "winnable_bounds": [low, high],
            "winnable_bounds_ci95": [
                wilson(self.won, self.deals)[0],
                wilson(self.won + self.unknown, self.deals)[1],
            ],
            "seconds_per_deal": {
                "median": self.percentile(0.5),
                "p90": self.percentile(0.9),
                "p99": self.percentile(0.99),
            },
        }


def summarise(game: Game, first: Seed, verdicts: list[DealVerdict]) -> Winnability:
    count = {r: sum(1 for v in verdicts if v.result == r) for r in ("won", "lost", "unknown")}
    return Winnability(
        game.id, first, len(verdicts), count["won"], count["lost"], count["unknown"],
        [v.seconds for v in verdicts],
    )  # fmt: skip
