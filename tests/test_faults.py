"""The tests of the faults (issue 35): breakages once planted in this code that the suite did
not notice, each with a test that fails with it (see benchmarks/mutants.py).

- a cluster batch whose worker is always lost is handed out exactly 1 + MAX_RETRIES times,
  then the run stops (a stand-in for Ray whose ``get`` always fails);
- a worker process holding two items: each answer comes back with its own ticket;
- a save interrupted mid-write leaves the save before it whole (atomic writes).
"""

from __future__ import annotations

import errno
import operator
import os
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from conftest import run_cli
from yaml_solitaire.engine.game.load import load_game
from yaml_solitaire.engine.play import cluster as cluster_module
from yaml_solitaire.engine.play.records import read_record
from yaml_solitaire.engine.play.saves import SaveStore
from yaml_solitaire.engine.play.solver import Budget
from yaml_solitaire.engine.play.workers import Workers

# --- a cluster whose workers are always lost -------------------------------------------------


class _RayError(Exception):
    pass


class _RayTaskError(_RayError):
    pass


class _WorkerLost(_RayError):
    pass


class StandInRay(types.ModuleType):
    """Enough of Ray's interface for ``Cluster``: every task's worker is lost."""

    def __init__(self) -> None:
        super().__init__("ray")
        self.handed_out: list[list[Any]] = []  # the seeds of each task started

    def init(self, **options: Any) -> None:
        pass

    def shutdown(self) -> None:
        pass

    def cluster_resources(self) -> dict[str, float]:
        return {"CPU": 1.0}

    def remote(self, **options: Any) -> Any:
        ray = self

        class Task:
            def __init__(self, function: Any) -> None:
                self.function = function

            def remote(self, game_id: str, path: str, seeds: list[Any], *budget: Any) -> object:
                ray.handed_out.append(list(seeds))
                return object()

        return Task

    def wait(
        self, refs: list[object], num_returns: int, timeout: float
    ) -> tuple[list[object], list[object]]:
        return refs[:num_returns], refs[num_returns:]

    def get(self, ref: object) -> Any:
        raise _WorkerLost("the worker died")


def test_a_batch_whose_worker_is_always_lost_is_tried_1_plus_max_retries_times(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ray = StandInRay()
    exceptions = types.ModuleType("ray.exceptions")
    exceptions.RayError = _RayError  # type: ignore[attr-defined]
    exceptions.RayTaskError = _RayTaskError  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ray", ray)
    monkeypatch.setitem(sys.modules, "ray.exceptions", exceptions)
    game = load_game("clock")
    with cluster_module.Cluster("auto") as cluster:
        verdicts = cluster.solve_all(game, iter([5]), 1, Budget(100, None), 1)
        with pytest.raises(cluster_module.ClusterError) as raised:
            list(verdicts)
        figures = cluster.figures
    tries = 1 + cluster_module.MAX_RETRIES
    assert ray.handed_out == [[5]] * tries, "handed out once, then again after each loss"
    assert figures.retries == cluster_module.MAX_RETRIES
    assert f"failed {tries} times" in str(raised.value)
    assert figures.deals == 0


# --- a worker with two items in hand ----------------------------------------------------------


def test_answers_come_back_with_their_own_tickets_when_a_worker_holds_two_items() -> None:
    with Workers(1, operator.neg, int) as workers:
        sent = {workers.send(item): item for item in (5, 7, 11)}
        assert workers.in_hand == 3, "one worker holds all three"
        answers = dict(workers.receive() for _ in sent)
    assert answers == {ticket: -item for ticket, item in sent.items()}


def test_answers_match_their_tickets_over_two_workers_fed_unevenly() -> None:
    items = list(range(20, 40))
    with Workers(2, operator.neg, int) as workers:
        sent: dict[int, int] = {}
        answers: dict[int, int] = {}
        for item in items:
            sent[workers.send(item)] = item
            if item % 3 == 0:
                ticket, answer = workers.receive()
                answers[ticket] = answer
        while workers.in_hand:
            ticket, answer = workers.receive()
            answers[ticket] = answer
    assert answers == {ticket: -item for ticket, item in sent.items()}


# --- a save interrupted mid-write --------------------------------------------------------------


@pytest.fixture
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home / "yaml-solitaire"


def test_a_save_interrupted_mid_write_leaves_the_last_save_whole(
    data_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    begun = run_cli("play", "klondike", "--seed", "3", "--line", stdin="d\nd\nq\n")
    assert begun.code == 0, begun.err
    (save,) = [s.path for s in SaveStore().all()]
    before = save.read_bytes()

    def disk_full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)  # the write is cut short before it is done
    left = run_cli("play", "--resume", save.stem[:8], "--line", stdin="d\nd\nq\n")
    monkeypatch.undo()
    assert "cannot save the game" in left.err and "No space left" in left.err, left.err
    assert save.read_bytes() == before, "the last save is whole"
    assert sum(not a.auto for a in read_record(save).actions) == 2
    assert sorted(p.name for p in save.parent.iterdir()) == [save.name, save.stem + ".lock"]
