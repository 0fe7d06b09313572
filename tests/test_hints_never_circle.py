"""Hints never go in circles, in any game: following them never comes back to a position
already played; heuristic hints prefer runs of one suit where the rules reward them; the board
and the hint agree on 'no win is possible'."""

from __future__ import annotations

import pytest

from conftest import run_cli
from yaml_solitaire.engine.core.seeds import Seed
from yaml_solitaire.engine.core.state import State
from yaml_solitaire.engine.game.game import Game
from yaml_solitaire.engine.game.load import game_names, load_game
from yaml_solitaire.engine.play.advice import Adviser
from yaml_solitaire.engine.play.hints import rewarded_piles, suggest
from yaml_solitaire.engine.play.progress import Progress, new_deal

# The circling property is the same whatever the search finds: a small search keeps the test
# quick (the winning lines it finds are followed too, as with the full budget).
NODES = 10
MOVES = 60


def follow(game: Game, seed: Seed, moves: int = MOVES) -> tuple[list[State], int, Progress]:
    """Play the hints from deal ``seed``, as a player who follows each one would; the
    positions passed through (the engine's own moves included) and the moves made."""
    progress = Progress(game, new_deal(game, seed))
    session = progress.session
    adviser = Adviser(game, nodes=NODES, seconds=None, after=progress.after)
    seen = {entry.before for entry in session.history} | {session.position}
    made = 0
    while made < moves and not session.is_over():
        advice = adviser.advise(session.position, seen)
        if advice.action is None:
            break
        known = len(session.history)
        session.push(advice.action)
        progress.settle()
        seen.update(entry.before for entry in session.history[known:])
        seen.add(session.position)
        made += 1
    return [entry.before for entry in session.history] + [session.position], made, progress


CASES = [(name, 1) for name in game_names()] + [("spider", 5), ("freecell", "ms:1")]


@pytest.mark.parametrize(("name", "seed"), CASES)
def test_following_hints_never_comes_back_to_a_position(name: str, seed: Seed) -> None:
    game = load_game(name)
    positions, made, progress = follow(game, seed)
    assert len(set(positions)) == len(positions), "a hint led back to a position played"
    # Hints run for the whole 60 moves, unless the game ended or every move only goes back.
    if made < MOVES and not progress.session.is_over():
        state = progress.session.position
        assert all(progress.after(state, a) in positions for a in game.legal_actions(state))


def test_the_cli_hint_says_when_only_moves_back_remain() -> None:
    # Aces Up, seed 1, followed by hint to its end: a fresh move is always the hint, or none.
    records = run_cli("play", "aces-up", "--seed", "1", "--json", stdin="hint\n").json_lines()
    assert records[1]["ok"] and records[1]["hint"]


def _pairs(game: Game, state: State) -> int:
    from yaml_solitaire.engine.play.hints import _same_suit_pairs

    return _same_suit_pairs(state, rewarded_piles(game))


def test_heuristic_hints_prefer_runs_of_one_suit_where_the_rules_reward_them() -> None:
    spider = load_game("spider")
    assert rewarded_piles(spider) == tuple(spider.layout.resolve(("tableau",)))
    assert rewarded_piles(load_game("freecell")) == ()  # any run moves: no reward
    differing = 0
    for seed in range(40):
        state = spider.deal_seed(seed)
        plain = suggest(spider, state)
        chosen = suggest(spider, state, builds=True)
        assert chosen is not None and plain is not None
        best = max(_pairs(spider, spider.apply(state, a)) for a in spider.legal_actions(state))
        if best > _pairs(spider, state):
            # A move that builds in suit exists: the hint makes one (here, where nothing goes
            # home within two moves, runs of one suit decide).
            assert _pairs(spider, spider.apply(state, chosen)) == best, seed
        differing += plain != chosen
    assert differing, "the preference changed no hint at all"


@pytest.mark.parametrize("seed", [1, 4, 7])
def test_the_board_and_the_hint_agree_that_no_win_is_possible(seed: int) -> None:
    game = load_game("golf")
    progress = Progress(game, new_deal(game, seed))
    session = progress.session
    adviser = Adviser(game, nodes=500, seconds=None, after=progress.after)
    seen = {session.position}
    while not session.is_over():
        state = session.position
        board = adviser.no_win(state, seen)
        advice = adviser.advise(state, seen)
        if advice.winnable is False:
            assert board is None or "no win is possible" in board
            assert adviser.no_win(state, seen) is not None, "the board says so too"
        if board is not None and "no win is possible" in board:
            assert advice.winnable is False, "the hint says so too"
        if advice.action is None:
            break
        session.push(advice.action)
        progress.settle()
        seen.add(session.position)
