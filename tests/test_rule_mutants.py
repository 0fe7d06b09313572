"""Sound rule files under mutation (issue 18): what validates plays without end or loss.

``rule_mutants`` edits the shipped games and Solvitaire presets the way an author could; every
mutant that ``validate --strict`` accepts must play at random (with undo) and be solved without
an exception, a lost or made card, a hang or runaway memory. ``SOLITAIRE_MUTANTS`` mutants
here (60 by default); ``python benchmarks/rule_mutants.py`` runs a larger number. Below, the
reproductions that the fuzzer and a hostile author found, each now refused or stopped.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import rule_mutants

from conftest import ROOT, run_cli
from yaml_solitaire.engine import Game, GameStalled
from yaml_solitaire.engine.play.progress import Progress, new_deal
from yaml_solitaire.engine.play.solver import Budget, Solver
from yaml_solitaire.engine.vocab import VOCABULARY

MUTANTS = int(os.environ.get("SOLITAIRE_MUTANTS", "60"))
BROKEN = ROOT / "tests" / "broken"


def test_mutants_that_validate_play_and_solve_soundly() -> None:
    summary = rule_mutants.run(MUTANTS, seed=0, jobs=1)
    assert summary.mutants == MUTANTS
    assert summary.accepted >= MUTANTS // 4, "most mutants should still validate"
    assert not summary.findings, "\n\n".join(f.report() for f in summary.findings)


def test_a_failure_is_shrunk_to_the_edits_that_cause_it(tmp_path: Path) -> None:
    # A planted failure: any set of edits that still holds the action 'mut9' fails.
    edits = [
        (("name",), "set", "renamed"),
        (("actions", "mut9"), "set", {"effect": "move", "from": ["t1"], "to": ["t2"]}),
        (("description",), "delete", None),
    ]
    data = rule_mutants.source_data(ROOT / "games" / "klondike.yaml")
    kept = rule_mutants.minimal_edits(edits, lambda some: "mut9" in str(some))
    assert kept == [edits[1]]
    assert "mut9" in rule_mutants.dump(rule_mutants.apply_edits(data, kept))


@contextmanager
def cpu_bound(seconds: float) -> Iterator[None]:
    """Fail (rather than hang) when the block takes more than ``seconds`` of CPU time."""

    def stop(*_: object) -> None:
        raise AssertionError(f"more than {seconds} s of CPU time: the engine went round")

    old = signal.signal(signal.SIGVTALRM, stop)
    signal.setitimer(signal.ITIMER_VIRTUAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        signal.signal(signal.SIGVTALRM, old)


def unvalidated(path: Path) -> Game:
    """The game of a file the validator refuses, built from its shape alone (with extends)."""
    from yaml_solitaire.rules.extends import read_source

    data = read_source(path, str(path)).data
    return Game(VOCABULARY.validate(data))


def test_simple_simon_with_its_roles_swapped_plays(tmp_path: Path) -> None:
    text = (ROOT / "tests" / "solvitaire" / "rules" / "simple-simon.yaml").read_text()
    text = text.replace("foundations: {role: foundation", "foundations: {role: tableau")
    text = text.replace("role: tableau\n    names: [t1", "role: foundation\n    names: [t1")
    path = tmp_path / "swapped.yaml"
    path.write_text(text)
    assert run_cli("validate", "--strict", str(path)).code == 0
    with cpu_bound(10):
        result = run_cli("play", str(path), "--seed", "1", "--no-record", stdin="q\n")
    assert result.code == 0, result.err
    assert "0 moves" in result.out


@pytest.mark.parametrize(
    ("name", "seed"), [("safe_between_foundations", 2), ("safe_from_own_group", 1)]
)
def test_safe_moves_between_foundations_are_refused_and_never_played(name: str, seed: int) -> None:
    path = BROKEN / f"{name}.yaml"
    result = run_cli("validate", "--strict", str(path))
    assert result.code == 1 and "foundation to another" in result.err
    # Built without the validator, the engine still plays no move between foundations.
    game = unvalidated(path)
    with cpu_bound(10):
        progress = Progress(game, new_deal(game, seed))
    foundations = set(game.foundations)
    for played in progress.session.history:
        assert not (played.action.src in foundations and played.action.dst in foundations)


def test_automatic_moves_that_go_round_stop_with_one_line() -> None:
    game = unvalidated(BROKEN / "safe_between_foundations.yaml")
    session = Progress(game, new_deal(game, 2)).session  # two Aces go home by themselves
    assert sum(map(len, (session.position.piles[f] for f in game.foundations))) == 2
    with cpu_bound(10), pytest.raises(GameStalled) as caught:
        session.play_automatic(lambda _, action: action.name == "ff")
    message = str(caught.value)
    assert "\n" not in message and "stopped making progress" in message
    assert "'ff " in message  # the move that closed the circle


def test_the_solver_does_not_call_lost_a_deal_it_has_not_explored() -> None:
    # Safe moves between foundations go round in a circle: the safe-move shortcut proves
    # nothing there (it once answered 'lost' after 3 positions); the deal is won.
    game = unvalidated(BROKEN / "safe_between_foundations.yaml")
    solution = Solver(game).solve(game.deal_seed(2), Budget(nodes=30_000))
    assert solution.result == "won", solution.reason


def test_a_rest_step_aimed_at_a_group_is_refused() -> None:
    result = run_cli("validate", "--strict", str(BROKEN / "rest_onto_a_group.yaml"))
    assert result.code == 1 and "takes one pile" in result.err


def test_rows_built_of_one_pile_is_refused_not_a_key_error() -> None:
    path = BROKEN / "rows_built_one_pile.yaml"
    for argv in (["validate", str(path)], ["rules", str(path)], ["play", str(path), "--seed", "1"]):
        result = run_cli(*argv)
        assert result.code == 1, argv
        assert "'t8' is one pile" in result.err and "Traceback" not in result.err
