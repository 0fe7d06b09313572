"""Hints that know whether the game can still be won, and the warning when it cannot."""

from __future__ import annotations

import contextlib
import io
import json
import sys

from conftest import ROOT, run_cli
from yaml_solitaire.engine import Game, load_game
from yaml_solitaire.engine.core.state import State
from yaml_solitaire.engine.play.advice import HINT_NODES, Adviser
from yaml_solitaire.engine.play.hints import Played
from yaml_solitaire.engine.play.progress import Progress, new_deal
from yaml_solitaire.engine.play.solver import Budget, Solver
from yaml_solitaire.engine.ui.cli import main

SMALL = str(ROOT / "tests" / "data" / "tiny" / "small_klondike.yaml")


def records(*args: str, stdin: str) -> list[dict[str, object]]:
    return run_cli("play", *args, "--json", "--no-auto", stdin=stdin).json_lines()


def test_the_hint_is_the_next_move_of_a_winning_line() -> None:
    (_, hint) = records("grandfathers-clock", "--seed", "1", stdin="hint\n")
    assert hint["hint_kind"] == "winning" and hint["winnable"] is True
    # Following the winning hints wins the game.
    lines = records(SMALL, "--seed", "0", stdin="hint\n" * 3)
    assert all(r["hint_kind"] == "winning" for r in lines[1:])
    text = run_cli("play", "grandfathers-clock", "--seed", "1", "--no-auto", stdin="hint\n").out
    assert "the next move of a winning line" in text


def test_the_game_says_when_no_win_is_possible() -> None:
    # Seed 6 of the tiny game is lost from the deal (an exhaustive search agrees, see
    # test_solver): the program says so at once, and the hint says why.
    first, hint = records(SMALL, "--seed", "6", stdin="hint\n")
    assert "no win is possible" in str(first["no_win"])
    assert hint["winnable"] is False
    text = run_cli("play", SMALL, "--seed", "6", "--no-auto", stdin="hint\n").out
    assert text.count("no win is possible") >= 2
    # A winnable deal raises no such warning.
    (start,) = records(SMALL, "--seed", "0", stdin="")
    assert "no_win" not in start


def test_a_guess_when_no_winning_line_is_found_in_time() -> None:
    # A deal whose search takes the solver well over the hint's second (seed 1 no longer does).
    (_, hint) = records("big-ben", "--seed", "14", stdin="hint\n")
    assert hint["hint_kind"] == "heuristic" and hint["winnable"] is None and hint["hint"]


class FollowHints(io.StringIO):
    """A player at the keyboard who asks for a hint and plays it, again and again: each line
    read is 'hint' or the hint just given, worked out from what the program printed."""

    def __init__(self, out: io.StringIO, turns: int) -> None:
        super().__init__()
        self.out, self.turns, self.asked = out, turns, False

    def readline(self, size: int | None = -1) -> str:
        if self.turns == 0:
            return ""
        last = json.loads(self.out.getvalue().splitlines()[-1])
        if self.asked and last.get("hint"):
            self.asked = False
            self.turns -= 1
            return str(last["hint"]) + "\n"
        if last.get("result"):
            return ""
        self.asked = True
        return "hint\n"


def follow_hints(game: str, seed: str) -> list[dict[str, object]]:
    """The records of a game played by asking for a hint and playing it, to the end."""
    out = io.StringIO()
    old = sys.stdin
    sys.stdin = FollowHints(out, turns=400)
    try:
        with contextlib.redirect_stdout(out):
            assert main(["play", game, "--seed", seed, "--json", "--no-auto"]) == 0
    finally:
        sys.stdin = old
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_hints_followed_one_after_another_win_without_going_back() -> None:
    # A new search from each position could start a new line that undoes the last move; the
    # hint keeps to the line it found, so following hints never comes back to a position.
    records = follow_hints("freecell", "ms:1")
    played = [r for r in records[1:] if "hint" not in r]
    assert records[-1]["result"] == "won" and all(r["ok"] for r in played)
    positions = [json.dumps(r["piles"], sort_keys=True) for r in [records[0], *played]]
    assert len(set(positions)) == len(positions), "a hint led back to an earlier position"


def test_hints_keep_to_the_line_the_first_hint_found() -> None:
    # The first hint searches and finds a winning line; the hints after it, while the player
    # plays them, are that line's next actions, with no search of their own, so they cannot
    # wander to another line. The line is the one the solver finds from the deal with the
    # hint's budget of positions (the tests' hints are bounded by positions alone).
    hints = [str(r["hint"]) for r in follow_hints("freecell", "ms:1") if "hint" in r]
    game = load_game("freecell")
    found = Solver(game).solve(game.deal_seed("ms:1"), Budget(nodes=HINT_NODES))
    line = [game.action_text(action, state) for state, action in found.line]
    assert found.result == "won" and len(line) > 50
    assert hints == line


# What a hint may not do, whichever way it was found: the planted bugs of benchmarks/mutants.py
# ('hint-fresh-before-auto', 'hint-lone-action-goes-back', 'undo-only-proves-lost') each
# make one of the tests below fail.


def _start(name: str, seed: int) -> tuple[Game, Progress, State]:
    game = load_game(name)
    progress = Progress(game, new_deal(game, seed))
    return game, progress, progress.session.position


def test_a_winning_hint_is_checked_against_the_position_after_the_engine_s_own_moves() -> None:
    game, progress, state = _start("freecell", 1)
    first = Adviser(game, seconds=None, after=progress.after).advise(state, Played(game, [state]))
    assert first.kind == "winning" and first.action is not None
    # The engine plays a card home after that action: the player then sees another position
    # than the action's own result.
    shown = progress.after(state, first.action)
    assert shown != game.apply(state, first.action)
    # Had the player seen that position already, the hint is another action.
    seen = Played(game, [state, shown])
    advice = Adviser(game, seconds=None, after=progress.after).advise(state, seen)
    assert advice.action is not None and advice.action != first.action
    assert progress.after(state, advice.action) not in seen


def test_a_lone_legal_action_is_not_hinted_when_it_leads_back() -> None:
    game, progress, state = _start("golf", 3)
    (only,) = game.legal_actions(state)
    adviser = Adviser(game, seconds=None, after=progress.after)
    assert adviser.advise(state, Played(game, [state])).action == only
    # Once its position has been played, the hint says so rather than lead back to it.
    seen = Played(game, [state, progress.after(state, only)])
    advice = adviser.advise(state, seen)
    assert advice.action is None and "only moves that undo" in advice.note


def test_only_moves_back_is_no_proof_that_the_game_is_lost() -> None:
    # Every action leads back to a position played, yet the position can be won: the board
    # says to undo, and neither it nor the hint says that no win is possible.
    game, progress, state = _start("freecell", 1)
    seen = Played(game, [state, *(progress.after(state, a) for a in game.legal_actions(state))])
    adviser = Adviser(game, seconds=None, after=progress.after)
    warning = adviser.no_win(state, seen)
    assert warning is not None and "only moves that undo" in warning
    advice = adviser.advise(state, seen)
    assert advice.action is None and advice.winnable is not False
    assert "no win is possible" not in advice.note
    assert adviser.no_win(state, seen) == warning
    # With that history forgotten (another game of the same deal), the hint finds a win.
    assert adviser.advise(state, Played(game, [state])).winnable is True
