"""The stock as the player's reach: the search moves straight to the waste cards draws expose.

Its verdicts hold against exhaustive search on small games (those of tests/data/tiny/ are
checked in test_solver.py; here, games that turn the stock over without limit), its solved
lines replay through ``solitaire play``, and it applies only where the rules make it sound.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_solver import winnable_by_brute_force

from conftest import ROOT, run_cli
from yaml_solitaire.engine import State, load_game
from yaml_solitaire.engine.core.state import new_state
from yaml_solitaire.engine.play import lines
from yaml_solitaire.engine.play.solver import Budget, Solver
from yaml_solitaire.engine.play.stock import stock_reach

TINY = ROOT / "tests" / "data" / "tiny"
UNLIMITED = sorted((ROOT / "tests" / "data" / "stock").glob("*.yaml"))


@pytest.mark.parametrize(
    ("game_ref", "applies"),
    [
        ("klondike", True),  # draw one, redeals without limit
        ("klondike-draw-3", True),
        ("canfield", True),  # a reserve beside the stock; the waste played by its own action
        ("forty-thieves", True),  # no redeal
        (str(TINY / "small_klondike.yaml"), True),  # one redeal
        ("golf", False),  # the waste is built on: a draw changes what the tableau may do
        ("big-ben", False),  # the stock also fills the tableau
        ("pyramid", False),
        (str(TINY / "little_ben.yaml"), False),  # a draw with a condition on the tableau
    ],
)
def test_the_stock_reach_applies_where_the_rules_make_it_sound(
    game_ref: str, applies: bool
) -> None:
    assert (stock_reach(load_game(game_ref)) is not None) == applies


def without_redeals(state: State) -> State:
    """A position without the number of redeals made (no rule reads it where it has no
    limit): the exhaustive search would otherwise never end."""
    return new_state(state.piles, state.phase, ())


@pytest.mark.parametrize("path", UNLIMITED, ids=lambda p: p.stem)
def test_verdicts_agree_with_exhaustive_search_when_the_stock_turns_without_limit(
    path: Path,
) -> None:
    game = load_game(str(path))
    assert Solver(game).reach is not None
    verdicts = []
    for seed in range(60):
        start = game.deal_seed(seed)
        found = Solver(game).solve(start)
        assert found.result in ("won", "lost"), seed
        winnable = winnable_by_brute_force(game, start, without_redeals)
        assert (found.result == "won") == winnable, seed
        verdicts.append(found.result)
    assert "won" in verdicts and "lost" in verdicts, "the deals tried show both verdicts"


def test_positions_that_differ_only_in_redeals_no_rule_reads_share_a_key() -> None:
    for game_ref, limited in (("klondike", False), (str(TINY / "small_klondike.yaml"), True)):
        game = load_game(game_ref)
        start = game.deal_seed(1)
        again = new_state(start.piles, start.phase, tuple(n + 1 for n in start.counts))
        same = game.keys.hash(start) == game.keys.hash(again)
        assert same != limited, game_ref
        assert (game.keys.key(start) == game.keys.key(again)) != limited, game_ref


@pytest.mark.parametrize(
    ("game_ref", "seeds"),
    [("klondike", (1, 2)), ("klondike-draw-3", (1, 4)), ("canfield", (1, 2, 5))],
)
def test_solved_lines_are_the_games_own_actions_and_replay_to_a_win(
    game_ref: str, seeds: tuple[int, ...]
) -> None:
    # The search plays macro actions (draws and a waste card's move in one); the line it
    # gives is in the game's own actions, typed into 'play --line' as a player would.
    game = load_game(game_ref)
    for seed in seeds:
        found = Solver(game).solve(game.deal_seed(seed), Budget(seconds=20))
        assert found.result == "won", seed
        names = {action.name for action in found.actions}
        assert names <= set(game.effects) and {"draw"} <= names, names
        typed = lines.typed(game, found.line)
        result = run_cli(
            "play", game_ref, "--seed", str(seed), "--line", "--json", "--no-auto",
            stdin="".join(t + "\n" for t in typed),
        )  # fmt: skip
        records = result.json_lines()
        assert all(r["ok"] for r in records), [r["error"] for r in records if not r["ok"]]
        assert records[-1]["result"] == "won", seed


def test_the_search_moves_straight_to_the_waste_cards_draws_expose() -> None:
    # Canfield 501: Solvitaire decides it after 115 states; a draw at a time, the search
    # left it unknown after 1.2 million positions (20 s).
    game = load_game(str(ROOT / "tests" / "solvitaire" / "rules" / "canfield.yaml"))
    found = Solver(game).solve(game.deal_seed(501), Budget(nodes=20_000))
    assert found.result == "won"
